#!/usr/bin/env python3
"""The project's two entry points for a fresh machine that has only Python 3.11+.

    python3 tasks.py run     # run the bot (SQLite by default; needs BOT_TOKEN)
    python3 tasks.py test    # lint, type-check and run the whole test suite

Both create `.venv/` beside this file on first use and install the project into it
(again whenever `pyproject.toml` changes), so nothing else needs installing by hand.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".installed"

# What must pass before the tests run; kept here so CI and people run the same thing.
LINT = [["ruff", "check", "."]]
TYPECHECK = [["mypy", "domino", "render", "storage", "bot", "handlers"]]
# pytest-xdist: one worker per core, and a worker that runs out of tests takes some of the
# other's queue (the end-to-end tests range from 2 s to minutes). `-n 0` among the extra
# arguments runs everything in this process instead.
PARALLEL = ["-n", "auto", "--dist", "worksteal"]


def ensure_venv(extras: str) -> None:
    """Create the virtual environment and install the project when needed."""
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted:
        return
    if not PYTHON.exists():
        print(f"creating {VENV.relative_to(ROOT)} ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    target = f".[{extras}]" if extras else "."
    print(f"installing {target} ...", flush=True)
    subprocess.run(
        [str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "-e", target],
        cwd=ROOT,
        check=True,
    )
    STAMP.write_text(wanted)


def run(cmd: list[str]) -> int:
    exe = BIN / cmd[0]
    full = [str(exe) if exe.exists() else cmd[0], *cmd[1:]]
    print("$", " ".join(cmd), flush=True)
    return subprocess.call(full, cwd=ROOT)


def cmd_test(args: list[str]) -> int:
    ensure_venv("dev")
    for step in [*LINT, *TYPECHECK]:
        if code := run(step):
            return code
    return run(["pytest", *PARALLEL, *args])


def cmd_run(args: list[str]) -> int:
    ensure_venv("")
    os.chdir(ROOT)
    return subprocess.call([str(PYTHON), "-m", "bot", *args])


def main() -> int:
    commands = {"test": cmd_test, "run": cmd_run}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        print(__doc__)
        return 2
    return commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
