"""How long the bot takes from its process start to its first long poll (issue 15, item 14).

    .venv/bin/python bench/startup.py [--runs 5] [--after REV] [--before REV] [--paths P ...]

Starts `python -m bot` as the README's run command does, against the fake Telegram
(tests/fakegram, in this process), with an empty database, and notes when the fake
sees its first getMe (the imports and the database are done) and its first getUpdates
(the bot is serving), and the CPU time the bot's process used until then (much less
swayed by a loaded machine than the wall time). Prints the median of `--runs` starts
in ms for two trees, each checked out with `git worktree` in a temporary folder and
run with the same interpreter: "after" is the commit `--after` (default HEAD);
"before" is the same commit with `--paths` (default: bot/__main__.py, the start-up's
own file) as they were at `--before` (default: main before issue 15's item 14), so
the two differ in the start-up code only, not in what others changed meanwhile. The
trees are started in turns, so a load on the machine falls on both alike; the
worktrees are removed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.fakegram import FakeTelegram  # noqa: E402

BASELINE = "b42e994"  # main before issue 15's items 13 and 14
PATHS = ("bot/__main__.py",)
START_SECONDS = 300.0  # a start that takes longer is reported as failed


@dataclass
class Start:
    get_me: float  # seconds from spawn to the first getMe
    first_poll: float  # seconds from spawn to the first getUpdates
    cpu: float  # CPU seconds (user + system) the bot's process used until then


async def one_start(tree: Path, workdir: Path) -> Start:
    """Start the bot of `tree` once; stop it with SIGTERM after its first getUpdates."""
    fake = FakeTelegram()
    await fake.start()
    seen: dict[str, float] = {}
    get_updates = fake._get_updates
    get_me = fake._handlers["getme"]

    async def timed_get_updates(params: dict[str, Any]) -> list[dict[str, Any]]:
        if "getUpdates" not in seen:
            seen["getUpdates"] = time.monotonic()
            seen["cpu"] = cpu_seconds(pid[0])
        return await get_updates(params)

    def timed_get_me(params: dict[str, Any], files: Any) -> Any:
        seen.setdefault("getMe", time.monotonic())
        return get_me(params, files)

    pid = [0]
    fake._get_updates = timed_get_updates  # type: ignore[method-assign]
    fake._handlers["getme"] = timed_get_me
    database = workdir / f"startup-{time.monotonic_ns()}.sqlite3"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "DATABASE_"))},
        "BOT_TOKEN": fake.token,
        "TELEGRAM_API_BASE": fake.url,
        "DATABASE_PATH": str(database),
        "LOG_LEVEL": "WARNING",
    }
    spawned = time.monotonic()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tree,
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    pid[0] = process.pid
    try:
        await fake.wait_for(
            lambda: "getUpdates" in seen or process.returncode is not None,
            timeout=START_SECONDS,
        )
        if "getUpdates" not in seen:
            assert process.stderr is not None
            said = (await process.stderr.read()).decode(errors="replace")[-2000:]
            raise RuntimeError(f"the bot of {tree} exited with {process.returncode}:\n{said}")
        return Start(seen["getMe"] - spawned, seen["getUpdates"] - spawned, seen["cpu"])
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        await process.wait()
        await fake.stop()


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process `pid` so far (Linux /proc; NaN elsewhere).
    Far less sensitive than the wall time to what else loads the machine."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def worktree(rev: str, old: str | None = None, paths: tuple[str, ...] = ()) -> Iterator[Path]:
    """`rev` checked out in a temporary folder (git worktree), with `paths` as they
    were at `old`; removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="domino-startup-")) / "tree"
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--quiet", str(folder), rev],
        cwd=ROOT,
        check=True,
    )
    try:
        if old is not None and paths:
            checkout = ["git", "checkout", "--quiet", old, "--", *paths]
            subprocess.run(checkout, cwd=folder, check=True)
        yield folder
    finally:
        subprocess.run(
            ["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT, check=False
        )
        shutil.rmtree(folder.parent, ignore_errors=True)


def summary(starts: list[Start]) -> str:
    """Medians in ms: to the first getMe (mostly imports), to the first getUpdates, and
    between the two (the start's own calls: database, commands, picking up games)."""
    me = statistics.median(s.get_me for s in starts) * 1000
    poll = statistics.median(s.first_poll for s in starts) * 1000
    gap = statistics.median(s.first_poll - s.get_me for s in starts) * 1000
    cpu = statistics.median(s.cpu for s in starts) * 1000
    runs = ", ".join(f"{s.first_poll * 1000:.0f}" for s in starts)
    return (
        f"getMe {me:6.0f} ms, first getUpdates {poll:6.0f} ms, getMe to getUpdates "
        f"{gap:5.0f} ms, CPU until the first getUpdates {cpu:6.0f} ms "
        f"(median of {len(starts)}; first getUpdates: {runs} ms)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--after", default="HEAD", help="the commit to measure")
    parser.add_argument("--before", default=BASELINE, help="where the old --paths come from")
    parser.add_argument("--paths", nargs="+", default=list(PATHS), help="the start-up's files")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}", flush=True)
    paths = tuple(args.paths)
    with contextlib.ExitStack() as stack:
        trees = {
            "before": stack.enter_context(worktree(args.after, args.before, paths)),
            "after": stack.enter_context(worktree(args.after)),
        }
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        results: dict[str, list[Start]] = {name: [] for name in trees}
        for tree in trees.values():  # warm the disk cache and compile the bytecode
            await one_start(tree, workdir)
        for _ in range(args.runs):
            for name, tree in trees.items():
                results[name].append(await one_start(tree, workdir))
        for name, starts in results.items():
            label = f"{args.after} with {', '.join(paths)} of {args.before}"
            print(f"{name:>6} ({label if name == 'before' else args.after}): {summary(starts)}")
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
