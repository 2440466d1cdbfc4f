"""`--against REV` for the benchmarks: the same benchmark of an earlier revision, run as
that revision wrote it, beside this tree's, so that a comparison never breaks as the
code moves on (an older engine under a newer script lacks what the script calls).

`side_by_side(rev, script, args)` checks REV out with `git worktree` in a temporary
folder (removed afterwards) and runs REV's own `bench/<script>` there (its code first
on the path), then this tree's, each as `python bench/<script> args` with this
interpreter; then prints their lines side by side: a line of ours and REV's line with
the same label (the text before its first ": ") as one row, "ours | REV", and the lines
only one of them printed after. REV's script may not know an option of ours: when it
refuses them (argparse's exit 2) it is run again with none (its own default run); or
the caller gives REV's options (`their_args`). If REV has no such script, or it fails,
that is said in its place, and ours is printed as it is.

Not a benchmark itself: `python bench/_against.py` prints this text.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def worktree(rev: str) -> Iterator[Path]:
    """`rev` checked out in a temporary folder (git worktree), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="domino-bench-against-")) / "tree"
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--quiet", str(folder), rev], cwd=ROOT, check=True
    )
    try:
        yield folder
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT, check=False)
        shutil.rmtree(folder.parent, ignore_errors=True)


def run_script(tree: Path, script: str, args: Sequence[str]) -> subprocess.CompletedProcess[str]:
    """`python bench/<script> args` in `tree`, with `tree`'s packages first on the path."""
    path = os.pathsep.join(filter(None, (str(tree), os.environ.get("PYTHONPATH"))))
    return subprocess.run(
        [sys.executable, str(tree / "bench" / script), *args],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        check=False,
    )


def without(argv: Sequence[str], option: str) -> list[str]:
    """`argv` less `option` and its value (`--option V` or `--option=V`)."""
    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == option:
            skip = True
        elif not arg.startswith(f"{option}="):
            kept.append(arg)
    return kept


def label(line: str) -> str:
    return line.split(": ", 1)[0].strip() if ": " in line else line.strip()


def side_by_side(
    rev: str, script: str, args: Sequence[str], their_args: Sequence[str] | None = None
) -> int:
    """Run `script` of REV and of this tree (see the module) and print both; the exit
    code of ours. `their_args`, when given, are REV's options from the start."""
    print(f"bench/{script} {' '.join(args)}: this tree | {rev} (run first)", flush=True)
    with worktree(rev) as tree:
        if not (tree / "bench" / script).exists():
            theirs: subprocess.CompletedProcess[str] | None = None
            why = f"{rev} has no bench/{script}"
        else:
            theirs = run_script(tree, script, args if their_args is None else their_args)
            if their_args is None and theirs.returncode == 2 and "usage:" in theirs.stderr:
                print(f"{rev}'s bench/{script} refused {' '.join(args)}: run with no options")
                theirs = run_script(tree, script, ())
            why = "" if theirs.returncode == 0 else f"{rev} exited with {theirs.returncode}"
        ours = run_script(ROOT, script, args)
    if ours.returncode != 0:
        sys.stderr.write(ours.stderr)
    mine = [line for line in ours.stdout.splitlines() if line.strip()]
    others = [] if theirs is None else [line for line in theirs.stdout.splitlines() if line.strip()]
    by_label = {label(line): line for line in others}
    used: set[str] = set()
    for line in mine:
        other = by_label.get(label(line))
        if other is None:
            print(f"{line}  | {rev}: -")
            continue
        used.add(label(line))
        value = other.split(": ", 1)[1] if ": " in other else other
        print(f"{line}  | {rev}: {'the same' if other == line else value}")
    rest = [line for line in others if label(line) not in used]
    if rest:
        print(f"only at {rev}:")
        for line in rest:
            print(f"  {line}")
    if why:
        tail = "" if theirs is None else theirs.stderr.strip().splitlines()[-3:]
        print(f"{why}{': ' + ' / '.join(tail) if tail else ''}")
    return ours.returncode


if __name__ == "__main__":
    print(__doc__)
