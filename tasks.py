#!/usr/bin/env python3
"""The project's two entry points for a fresh machine that has only Python 3.11+,
and a third to try the bot without Telegram.

    python3 tasks.py run     # run the bot (SQLite by default; needs BOT_TOKEN)
    python3 tasks.py test    # lint, type-check and run the whole test suite
    python3 tasks.py demo [--port N]   # play in a browser against a local Telegram

Both create `.venv/` beside this file on first use and install the project into it
(again whenever `pyproject.toml` changes). The extras once installed are kept: after
`test` has installed the dev tools, `run` uses the same environment as it is, and a
later `test` does not install them again (`.venv/.installed` records what is there).

`run` replaces itself with the bot (`os.execv`), so a supervisor's SIGTERM or a
Ctrl-C reaches the bot itself and nothing is left running behind it; the bot says in
one line why it cannot start (an unreachable Telegram, a refused token) and exits
non-zero.

`demo` starts the local Telegram of the tests (tests/fakegram) with its play page on
127.0.0.1, and the bot against it, and prints the page's address; Ctrl-C stops both
(`tests/e2e/demo.py`). It needs only what `run` installs.
"""

from __future__ import annotations

import hashlib
import json
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
KNOWN_EXTRAS = ("dev",)

# What must pass before the tests run; kept here so CI and people run the same thing.
LINT = [["ruff", "check", "."]]
TYPECHECK = [["mypy", "domino", "render", "storage", "bot", "handlers"]]
# pytest-xdist: one worker per core, and a worker that runs out of tests takes some of the
# other's queue (the end-to-end tests range from 2 s to minutes). `-n 0` among the extra
# arguments runs everything in this process instead. The slowest tests are listed at the
# end, so a CI run that nears its time budget shows where the time went.
PARALLEL = ["-n", "auto", "--dist", "worksteal", "--durations=15"]


def _digest(pyproject: bytes) -> str:
    return hashlib.sha256(pyproject).hexdigest()


def read_stamp(stamp: str | None, pyproject: bytes) -> tuple[bool, frozenset[str]]:
    """From the stamp's text: whether it was written for this `pyproject`, and the
    extras installed then. An older stamp (a bare hash of pyproject + the extras) is
    read too, so the first run after this change does not reinstall."""
    if not stamp:
        return False, frozenset()
    try:
        data = json.loads(stamp)
    except ValueError:
        data = None
    if isinstance(data, dict):
        extras = frozenset(str(e) for e in data.get("extras", ()) if e in KNOWN_EXTRAS)
        return data.get("pyproject") == _digest(pyproject), extras
    for name in ("", *KNOWN_EXTRAS):
        if stamp.strip() == hashlib.sha256(pyproject + name.encode()).hexdigest():
            return True, frozenset({name} - {""})
    return False, frozenset()


def write_stamp(pyproject: bytes, extras: frozenset[str]) -> str:
    return json.dumps({"pyproject": _digest(pyproject), "extras": sorted(extras)})


def to_install(
    stamp: str | None, pyproject: bytes, wanted: frozenset[str]
) -> frozenset[str] | None:
    """The extras to install (what is wanted plus what is already there, so nothing
    installed is dropped), or None when the environment already has all it needs."""
    current, installed = read_stamp(stamp, pyproject)
    if current and wanted <= installed:
        return None
    return wanted | installed


class InstallFailed(Exception):
    """Creating the environment or installing into it failed; the text is one line."""


def ensure_venv(*extras: str) -> None:
    """Create the virtual environment and install the project when needed."""
    pyproject = (ROOT / "pyproject.toml").read_bytes()
    stamp = STAMP.read_text() if STAMP.exists() else None
    needed = to_install(stamp, pyproject, frozenset(extras))
    if needed is None and PYTHON.exists():
        return
    needed = frozenset(extras) if needed is None else needed
    if not PYTHON.exists():
        print(f"creating {VENV.relative_to(ROOT)} ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    target = f".[{','.join(sorted(needed))}]" if needed else "."
    print(f"installing {target} ...", flush=True)
    result = subprocess.run(
        [str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "-e", target],
        cwd=ROOT,
        check=False,
    )
    if result.returncode:
        raise InstallFailed(
            f"pip could not install {target} (exit {result.returncode}): check the network "
            "and the package index (pip's messages above say which package failed)"
        )
    STAMP.write_text(write_stamp(pyproject, needed))


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
    ensure_venv()
    return become([str(PYTHON), "-m", "bot", *args])


def cmd_demo(args: list[str]) -> int:
    ensure_venv()
    # The demo parses its own arguments (`--port N`, `--help`) and says what is wrong.
    return become([str(PYTHON), "-m", "tests.e2e.demo", *args])


def become(argv: list[str]) -> int:
    """Replace this process with `argv`, run from the project's root."""
    os.chdir(ROOT)
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "nt":  # no exec there that keeps the console: wait for the child instead
        return subprocess.call(argv)
    os.execv(argv[0], argv)  # it takes this process: its signals, its exit code


def main() -> int:
    commands = {"test": cmd_test, "run": cmd_run, "demo": cmd_demo}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        print(__doc__)
        return 2
    try:
        return commands[sys.argv[1]](sys.argv[2:])
    except InstallFailed as failed:
        print(f"tasks.py: {failed}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
