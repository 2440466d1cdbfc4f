"""How long a restart takes, from spawn to the first long poll, with running games.

    .venv/bin/python bench/startup.py [--games 100] [--runs 5] [--quick] [--against REV]
                                      [--tree REV|DIR] [--empty] [--profile PATH] [--keep DIR]

The goal: a SIGKILLed bot started again on a database of 100 running games polls within
1.5x of a bare `python -c "import aiogram"` on the same machine, in the same run.

1. Preparation (once): the fake Telegram (tests/fakegram) runs in this process and the
   real bot (`python -m bot`, PACING=false, COMPUTER_DELAY=0) plays `--games` games to
   mid-round through it: each in its own group, the thirteen games in turn, tables of 2,
   3 and 4, one or two people at each (one table in seven English-speaking, one in five
   people only) and computers in the other seats; each person makes a few moves
   (`tests.e2e.harness.Person`). Then the bot is SIGKILLed, as a crash would, and its
   database (WAL included) is kept: the messages' digests were not saved, so a restart
   re-checks and redraws every message, as after a real crash. Games that ended
   meanwhile are replaced until `--games` are running.
2. Rounds: a bare `python -c "import aiogram"` (from spawn to its exit, and to the end
   of its import, which it writes out; its CPU from wait4), then the bot of each tree
   measured, in turn, on a fresh copy of that database, with the README's settings
   (pacing on, the default delays) against the same fake, whose chats hold every
   message the database names. A restart's time is from spawn to the first getUpdates
   the fake receives; its CPU (user + system) until then, of the bot's process and of
   its process tree (the pools' workers). Once the pickup is over too (bounded), the bot
   is SIGKILLed again. The medians are printed in ms, and the ratio of each round's
   restart to the same round's bare import, median of the rounds (`ratio`).
3. Breakdown: each restart is `python -m bot` itself, with a `sitecustomize` on its
   PYTHONPATH (`PROBE`) that marks on stderr when each step begins and ends (monotonic,
   shared with this process, and the process's CPU): the imports (with the settings and
   the logging set-up, to `asyncio.run`), the database's open (of it `PRAGMA
   quick_check` and the migrations), getMe, deleteWebhook, `Application.resume`,
   `perf.tune_gc`, start_polling and its `bot.me()`, and the pickup of the running games
   where the code runs it after the first poll (`Application.pick_up`). A step the code
   does not have is left out. The imports' own split is `python -X importtime -m bot`
   without a token (it stops at the settings), median of three, summed by package.

`--against REV` also measures the bot of REV (a commit, checked out with `git worktree`
in a temporary folder removed at the end, or a checkout's folder) in the same rounds on
the same games: the database is prepared by the tree with fewer migrations and migrated
by the other's own code, so each starts on a database its code could have left.
`--tree REV|DIR` measures that instead of this working tree. `--empty`: an empty
database, no preparation. `--quick`: 20 games, 3 rounds. `--profile PATH`: one more
restart of the last tree under cProfile (`PROFILE_TO`; SIGTERM once its pickup is over),
whose top functions are printed. `--keep DIR` keeps the database and the logs there.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import pstats
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.harness import (  # noqa: E402
    PRESS_SECONDS,
    REPLY_SECONDS,
    BotProcess,
    Person,
    button_data,
    set_turn_timer,
)
from tests.fakegram import FakeTelegram  # noqa: E402
from tests.fakegram.world import FakeChat, StoredMessage  # noqa: E402

START_SECONDS = 300.0  # a start that takes longer is reported as failed
GAME_KEYS = (
    "kozel",
    "classic",
    "sea_kozel",
    "osel",
    "sport",
    "all_fives",
    "threes_and_fives",
    "bergen",
    "dubli",
    "blitz",
    "cross",
    "shesterka",
    "dark",
)
SEATED = re.compile(r"\((\d+)/(\d+)\)")  # the lobby's «Игроки (1/4):»
MOVES = 3  # presses each person makes in the preparation (mid-round)
AT_ONCE = 10  # games set up at the same time in the preparation
QUIET_ENV = ("BOT_", "DATABASE_", "PROFILE_", "TABLE_", "COMPUTER_", "PACING", "LOG_")

# Put on the bot's PYTHONPATH as `sitecustomize`, so that `python -m bot` itself is
# measured: it marks the interpreter's start, wraps each step ("module:Class.method" or
# "module:function") when its module has been imported, its first call only, and marks
# the end of the imports at `asyncio.run` (`bot.__main__`'s `main()` calls it once the
# settings are read and the logging set). Each mark is "probe <step> begin|end
# <monotonic> <CPU s of the process>" on stderr. `DOMINO_PROBE` is taken out of the
# environment, so the pools' workers do not mark.
PROBE = r"""
import functools, importlib.abc, importlib.util, inspect, os, sys, time

def mark(step, what):
    cpu = os.times()
    line = f"probe {step} {what} {time.monotonic():.6f} {cpu.user + cpu.system:.3f}\n"
    os.write(2, line.encode())

TARGETS = {
    "storage.db": (
        ("SqliteDatabase.connect", "database"),
        ("SqliteDatabase.check", "quick_check"),
        ("SqliteDatabase.migrate", "migrate"),
    ),
    "aiogram.client.bot": (
        ("Bot.get_me", "getMe"),
        ("Bot.delete_webhook", "deleteWebhook"),
        ("Bot.me", "me"),
    ),
    "bot.server.application": (
        ("Application.resume", "resume"),
        ("Application.pick_up", "pickup"),
    ),
    "bot.infra.perf": (("tune_gc", "tune_gc"),),
    # the same steps where an older tree (`--against`) keeps them
    "bot.application": (
        ("Application.resume", "resume"),
        ("Application.pick_up", "pickup"),
    ),
    "bot.perf": (("tune_gc", "tune_gc"),),
    "aiogram.dispatcher.dispatcher": (
        ("Dispatcher.start_polling", "polling"),
        ("Dispatcher.emit_startup", "startup"),
    ),
}

def wrap(module, path, step):
    owner = module
    *parents, attr = path.split(".")
    try:
        for parent in parents:
            owner = getattr(owner, parent)
        raw = inspect.getattr_static(owner, attr)
    except AttributeError:
        return  # not in this code
    kind = type(raw) if isinstance(raw, (classmethod, staticmethod)) else None
    func = raw.__func__ if kind else raw
    seen = []
    if inspect.iscoroutinefunction(func):
        @functools.wraps(func)
        async def wrapped(*args, **kwargs):
            first = not seen
            seen.append(1)
            if first:
                mark(step, "begin")
            try:
                return await func(*args, **kwargs)
            finally:
                if first:
                    mark(step, "end")
    else:
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            first = not seen
            seen.append(1)
            if first:
                mark(step, "begin")
            try:
                return func(*args, **kwargs)
            finally:
                if first:
                    mark(step, "end")
    setattr(owner, attr, kind(wrapped) if kind else wrapped)

class Wrapper(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name not in TARGETS:
            return None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return spec
        execute = spec.loader.exec_module

        def exec_module(module):
            execute(module)
            for path, step in TARGETS[name]:
                wrap(module, path, step)

        spec.loader.exec_module = exec_module
        return spec

if os.environ.pop("DOMINO_PROBE", None):
    mark("imports", "begin")
    sys.meta_path.insert(0, Wrapper())
    import asyncio

    run = asyncio.run

    def timed_run(*args, **kwargs):
        mark("imports", "end")
        return run(*args, **kwargs)

    asyncio.run = timed_run
"""
STEPS = (
    ("imports, settings, logging", "imports"),
    ("database open", "database"),
    ("  of it PRAGMA quick_check", "quick_check"),
    ("  of it the migrations", "migrate"),
    ("getMe", "getMe"),
    ("deleteWebhook", "deleteWebhook"),
    ("resume()", "resume"),
    ("perf.tune_gc (gc.collect)", "tune_gc"),
    ("start_polling", "polling"),
    ("  its startup handlers", "startup"),
    ("  its bot.me()", "me"),
    ("pickup (after the first poll)", "pickup"),
)
"""The steps as printed: (label, the probe's step). resume() ends with the pickup in code
that picks the games up before polling; `pickup` is the background one that follows the
first poll."""


# --- the preparation ------------------------------------------------------------------


@dataclass
class Plan:
    """One game of the preparation."""

    key: str
    seats: int
    people: int
    lang: str


def plans(count: int) -> list[Plan]:
    """`count` games: every game in turn, tables of 2, 3 and 4, one or two people."""
    made = []
    for index in range(count):
        seats = (2, 3, 4)[index % 3]
        people = 1 + (index // 3) % 2
        if index % 5 == 4:
            people = seats  # a table of people only
        made.append(
            Plan(GAME_KEYS[index % len(GAME_KEYS)], seats, people, "en" if index % 7 == 3 else "ru")
        )
    return made


class TreeBot(BotProcess):
    """`python -m bot` of the checkout `tree` (the harness starts its own checkout)."""

    def __init__(self, fake: FakeTelegram, workdir: Path, tree: Path, **env: str) -> None:
        super().__init__(fake, workdir, **env)
        self.tree = tree

    async def start(self, *, standby: bool = False) -> None:
        from tests.e2e import harness

        saved = harness.ROOT
        harness.ROOT = self.tree
        try:
            await super().start(standby=standby)
        finally:
            harness.ROOT = saved


def changed(message: StoredMessage, shown: str) -> Callable[[], bool]:
    return lambda: message.content != shown


async def open_table(fake: FakeTelegram, plan: Plan, number: int) -> list[Person]:
    """A group where `plan`'s people open its game, fill the seats with computers and
    start; its people."""
    users = [
        fake.add_user(f"Игрок {number}-{k}", language_code=plan.lang) for k in range(plan.people)
    ]
    group = fake.add_group(f"Стол {number}", members=users, admins=users[:1])
    for user in users:
        await user.start()
        await user.private_chat.wait_for_message(lambda m: True, timeout=REPLY_SECONDS)
    creator = users[0]
    await set_turn_timer(group, creator)  # off: nothing moves the game while it waits
    before = group.bot_messages[-1]
    await creator.command(group, "domino", plan.key)
    lobby = await group.wait_for_message(
        lambda m: SEATED.search(m.content) is not None, after=before, timeout=REPLY_SECONDS
    )
    for _ in range(3):  # the seats' button goes round the counts the game allows
        if f"Игроков: {plan.seats}" in lobby.content or f"Players: {plan.seats}" in lobby.content:
            break
        if not any("👥" in b.text for b in lobby.buttons):
            break  # a game of one table size
        shown = changed(lobby, lobby.content)
        await creator.press(lobby, data=button_data(lobby, "👥"), timeout=PRESS_SECONDS)
        await fake.wait_for(shown, timeout=REPLY_SECONDS)
    seats = int(SEATED.search(lobby.content).group(2))  # type: ignore[union-attr]
    for user in users[1:]:
        await user.press(lobby, data=button_data(lobby, "🙋"), timeout=PRESS_SECONDS)
    for _ in range(seats - len(users)):
        await creator.press(lobby, data=button_data(lobby, "🤖"), timeout=PRESS_SECONDS)
    await fake.wait_for(lambda: f"({seats}/{seats})" in lobby.content, timeout=REPLY_SECONDS)
    await creator.press(lobby, data=button_data(lobby, "▶️"), timeout=PRESS_SECONDS)
    await group.wait_for_message(lambda m: m.photo is not None, after=lobby, timeout=REPLY_SECONDS)
    return [Person(fake, user) for user in users]


async def play_a_little(fake: FakeTelegram, people: Sequence[Person], group: FakeChat) -> None:
    """Each person makes up to `MOVES` moves, while the match lasts."""

    def over() -> bool:
        return any("🔁" in b.text for m in group.bot_messages for b in m.buttons)

    quiet = 0
    while not over() and any(p.presses < MOVES for p in people) and quiet < 20:
        moved = False
        for person in people:
            if person.presses < MOVES and await person.take_turn():
                moved = True
        if moved:
            quiet = 0
            continue
        quiet += 1
        with contextlib.suppress(TimeoutError):
            await fake.wait_for(lambda: any(p.my_turn() for p in people) or over(), timeout=1.0)


async def prepare(fake: FakeTelegram, tree: Path, workdir: Path, games: int) -> Path:
    """The database of `games` running games played to mid-round by the bot of `tree`,
    left as a SIGKILL leaves it (see the module's docstring)."""
    database = workdir / "prepared.sqlite3"
    for suffix in ("", "-wal", "-shm"):  # a database kept by an earlier run
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    bot = TreeBot(
        fake,
        workdir,
        tree,
        PACING="false",
        COMPUTER_DELAY="0",
        TABLE_INTERVAL="0.2",
        LOG_LEVEL="WARNING",
        DATABASE_PATH=str(database),
    )
    await bot.start()
    began = time.monotonic()
    numbers = iter(range(1, 10_000))
    todo = plans(games)
    rng = random.Random(7)
    while True:
        for first in range(0, len(todo), AT_ONCE):
            batch = todo[first : first + AT_ONCE]

            async def one(plan: Plan) -> None:
                number = next(numbers)
                people = await open_table(fake, plan, number)
                group = next(c for c in fake.chats.values() if c.title == f"Стол {number}")
                await play_a_little(fake, people, group)

            await asyncio.gather(*(one(plan) for plan in batch))
        running = bot.stored("SELECT COUNT(*) FROM games WHERE status = 'playing'")[0][0]
        if running >= games:
            break
        todo = rng.sample(plans(games), games - running)  # some ended: as many again
    await bot.kill()
    print(
        f"prepared {running} running games in {time.monotonic() - began:.0f} s "
        f"({len(fake.users)} people, {len(fake.chats)} chats)",
        flush=True,
    )
    return bot.database


def copy_database(source: Path, target: Path) -> Path:
    """The database file and its -wal and -shm beside it, copied as they are."""
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{source}{suffix}").exists():
            shutil.copyfile(f"{source}{suffix}", f"{target}{suffix}")
    return target


def migrations_of(tree: Path) -> int:
    return len(list((tree / "storage" / "migrations").glob("[0-9][0-9][0-9]_*.sql")))


def migrate_with(tree: Path, database: Path) -> None:
    """Open (so migrate) `database` with the code of `tree`, in a process of its own."""
    code = (
        "import asyncio, sys\n"
        "try:\n    from storage.connect import open_database\n"
        "except ImportError:  # a revision older than storage.connect\n"
        "    from storage.db import Database\n    open_database = Database.open\n"
        "async def go():\n    await (await open_database(sys.argv[1])).close()\n"
        "asyncio.run(go())"
    )
    subprocess.run([sys.executable, "-c", code, str(database)], cwd=tree, check=True)


# --- one restart ----------------------------------------------------------------------


@dataclass
class Restart:
    first_poll: float  # seconds from spawn to the first getUpdates
    cpu: float  # CPU seconds of the bot's process until then
    tree_cpu: float  # ... and of its process tree (the pools' workers)
    steps: dict[str, tuple[float, float]] = field(default_factory=dict)  # step: begin, end
    cpu_at: dict[str, float] = field(default_factory=dict)  # step's end: CPU s


@dataclass
class Bare:
    wall: float  # seconds from spawn to exit
    imported: float  # ... to the end of the import (before the interpreter's teardown)
    cpu: float  # CPU seconds of the whole process


class Arrivals:
    """When the fake received each call (monotonic), by method."""

    def __init__(self, fake: FakeTelegram) -> None:
        self.seen: list[tuple[float, str]] = []
        call = fake._call

        async def timed(spec: Any, *args: Any, **kwargs: Any) -> Any:
            self.seen.append((time.monotonic(), spec.name))
            return await call(spec, *args, **kwargs)

        fake._call = timed  # type: ignore[method-assign]

    def first(self, method: str, since: float) -> float | None:
        return next((at for at, name in self.seen if name == method and at >= since), None)


def probed(folder: Path) -> dict[str, str]:
    """The environment that runs `PROBE` in the bot's process (see `PROBE`)."""
    site = folder / "probe"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(PROBE)
    path = os.pathsep.join(filter(None, (str(site), os.environ.get("PYTHONPATH"))))
    return {"PYTHONPATH": path, "DOMINO_PROBE": "1"}


def bot_env(fake: FakeTelegram, database: Path, **extra: str) -> dict[str, str]:
    """The README's settings: only the token, Telegram's address and the database."""
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(QUIET_ENV)},
        "BOT_TOKEN": fake.token,
        "TELEGRAM_API_BASE": fake.url,
        "DATABASE_PATH": str(database),
        "PYTHONUNBUFFERED": "1",
        **extra,
    }


async def restart(
    fake: FakeTelegram,
    arrivals: Arrivals,
    tree: Path,
    database: Path,
    log_path: Path,
    *,
    profile: Path | None = None,
) -> Restart:
    """The bot of `tree` started on a copy of `database` until its first getUpdates, then
    SIGKILLed (SIGTERM with `profile`, so that the profile is written)."""
    copy = copy_database(database, database.with_name(f"run-{time.monotonic_ns()}.sqlite3"))
    extra = {"PROFILE_TO": str(profile)} if profile else {}
    with log_path.open("ab") as log:
        log.write(f"--- restart of {tree} on {copy.name}\n".encode())
        log.flush()
        spawned = time.monotonic()
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=tree,
            env=bot_env(fake, copy, **probed(log_path.parent), **extra),
            stdout=log,
            stderr=log,
        )
    log_from = log_path.stat().st_size
    cpu = tree_cpu = float("nan")
    try:
        polled: list[float] = []

        def polling() -> bool:
            at = arrivals.first("getUpdates", spawned)
            if at is not None and not polled:
                polled.append(at)
                nonlocal cpu, tree_cpu
                cpu = proc_cpu_seconds(process.pid)
                tree_cpu = tree_cpu_seconds(process.pid)
            return bool(polled) or process.returncode is not None

        await fake.wait_for(polling, timeout=START_SECONDS)
        if not polled:
            raise RuntimeError(
                f"the bot of {tree} exited with {process.returncode}: see {log_path}"
            )
        # The pickup may go on after the first poll: its end is waited for (bounded).
        with contextlib.suppress(TimeoutError):
            await fake.wait_for(lambda: picked_up(log_path, log_from), timeout=START_SECONDS)
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM if profile else signal.SIGKILL)
        await process.wait()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{copy}{suffix}").unlink(missing_ok=True)
    steps, cpu_at = probe_marks(log_path, log_from, spawned)
    return Restart(polled[0] - spawned, cpu, tree_cpu, steps, cpu_at)


def picked_up(log_path: Path, since: int) -> bool:
    """Whether the probe marked the end of the pickup (or of `resume`, in code whose
    pickup ends with it)."""
    with log_path.open("rb") as log:
        log.seek(since)
        text = log.read().decode(errors="replace")
    if "probe pickup begin" in text:
        return "probe pickup end" in text
    return "probe resume end" in text


def probe_marks(
    log_path: Path, since: int, spawned: float
) -> tuple[dict[str, tuple[float, float]], dict[str, float]]:
    """The probe's marks in the log: each step's begin and end, in seconds since spawn,
    and the CPU seconds at its end."""
    with log_path.open("rb") as log:
        log.seek(since)
        text = log.read().decode(errors="replace")
    begins: dict[str, float] = {}
    steps: dict[str, tuple[float, float]] = {}
    cpu_at: dict[str, float] = {}
    for found in re.finditer(r"^probe (\S+) (begin|end) ([\d.]+) ([\d.]+)$", text, re.M):
        step, what, at, cpu = (
            found.group(1),
            found.group(2),
            float(found.group(3)),
            float(found.group(4)),
        )
        if what == "begin":
            begins.setdefault(step, at - spawned)
        elif step in begins and step not in cpu_at:
            steps[step] = (begins[step], at - spawned)
            cpu_at[step] = cpu
    for step, begin in begins.items():
        steps.setdefault(step, (begin, float("nan")))  # still going (polling)
    return steps, cpu_at


def proc_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process `pid` so far (Linux /proc; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of `pid` and its live descendants (the forkserver and
    the pools' workers) and of the children they waited for."""
    parents: dict[int, int] = {}
    times: dict[int, int] = {}
    with contextlib.suppress(OSError):
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
            times[int(entry.name)] = sum(int(f) for f in fields[11:15])
    if pid not in times:
        return float("nan")
    tree, todo = {pid}, [pid]
    while todo:
        parent = todo.pop()
        children = [child for child, of in parents.items() if of == parent]
        tree.update(children)
        todo.extend(children)
    return sum(times[p] for p in tree if p in times) / os.sysconf("SC_CLK_TCK")


BARE = "import aiogram"
# The same, telling when the import is over (monotonic, shared with this process).
BARE_MARKED = "import aiogram, os, time; os.write(1, repr(time.monotonic()).encode())"


def bare_import() -> Bare:
    """`python -c "import aiogram"` from spawn to exit, and to the import's end, and its
    CPU (wait4)."""
    began = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-c", BARE_MARKED], cwd=ROOT, stdout=subprocess.PIPE
    )
    assert process.stdout is not None
    said = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - began
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise RuntimeError(f"python -c {BARE!r} exited with {process.returncode}")
    return Bare(wall, float(said) - began, usage.ru_utime + usage.ru_stime)


# --- the imports' split ---------------------------------------------------------------


def import_split(tree: Path, times: int = 3) -> dict[str, float]:
    """`python -X importtime -m bot` with no token (it stops at the settings, once every
    import is done, as `python -m bot` imports them): each top-level package's own import
    time in ms, the median of `times` runs."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(QUIET_ENV)}
    runs: list[dict[str, float]] = []
    for _ in range(times):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "bot"],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        by_package: dict[str, float] = defaultdict(float)
        for line in done.stderr.splitlines():
            found = re.match(r"import time:\s+(\d+) \|\s+\d+ \|( *)(\S+)", line)
            if found:
                by_package[found.group(3).split(".")[0]] += int(found.group(1)) / 1000
        if not by_package:
            raise RuntimeError(f"no import times from python -m bot in {tree}: {done.stderr}")
        runs.append(by_package)
    names = {name for run in runs for name in run}
    return {name: statistics.median(run.get(name, 0.0) for run in runs) for name in names}


# --- the report -----------------------------------------------------------------------


def med(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def report(bare: list[Bare], results: dict[str, list[Restart]]) -> None:
    to_exit = med([b.wall for b in bare]) * 1000
    imported = med([b.imported for b in bare]) * 1000
    print(
        f"\nbare `python -c {BARE!r}`: {to_exit:.0f} ms from spawn to exit, {imported:.0f} ms "
        f"to the import's end, CPU {med([b.cpu for b in bare]) * 1000:.0f} ms "
        f"(median of {len(bare)}; to exit: {', '.join(f'{b.wall * 1000:.0f}' for b in bare)} ms)"
    )
    for name, runs in results.items():
        poll = med([r.first_poll for r in runs]) * 1000
        # Each round's restart over the same round's bare import, then the median.
        ratio = med([r.first_poll / b.wall for r, b in zip(runs, bare, strict=True)])
        strict = med([r.first_poll / b.imported for r, b in zip(runs, bare, strict=True)])
        print(
            f"{name}: restart (spawn to the first getUpdates) {poll:.0f} ms, "
            f"ratio {ratio:.2f} to the bare import's exit, {strict:.2f} to its import's end; "
            f"CPU until then {med([r.cpu for r in runs]) * 1000:.0f} ms (process tree "
            f"{med([r.tree_cpu for r in runs]) * 1000:.0f} ms); "
            f"runs: {', '.join(f'{r.first_poll * 1000:.0f}' for r in runs)} ms"
        )
        print(f"  {'step (median ms)':<30} begins    ends   takes  CPU at its end")
        for label, step in STEPS:
            marked = [r.steps[step] for r in runs if step in r.steps]
            if not marked:
                continue
            begin = med([b for b, _ in marked]) * 1000
            end = med([e for _, e in marked]) * 1000
            took = med([e - b for b, e in marked]) * 1000
            cpu = med([r.cpu_at[step] for r in runs if step in r.cpu_at]) * 1000
            line = f"  {label:<30} {begin:7.0f} {end:7.0f} {took:7.0f}   {cpu:7.0f}"
            print(line.replace("nan", "  -"))
        print(f"  {'first getUpdates':<30} {'':7} {poll:7.0f}")


def print_split(name: str, split: dict[str, float], top: int = 12) -> None:
    total = sum(split.values())
    shown = sorted(split.items(), key=lambda item: -item[1])[:top]
    parts = ", ".join(f"{package} {ms:.0f}" for package, ms in shown)
    print(
        f"{name}: python -m bot's imports under -X importtime {total:.0f} ms; "
        f"own time by package (ms): {parts}"
    )


def print_profile(path: Path, top: int = 30) -> None:
    stats = pstats.Stats(str(path))
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)


@contextlib.contextmanager
def worktree(rev: str) -> Iterator[Path]:
    """`rev` checked out in a temporary folder (git worktree), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="domino-startup-")) / "tree"
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--quiet", str(folder), rev], cwd=ROOT, check=True
    )
    try:
        yield folder
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT, check=False)
        shutil.rmtree(folder.parent, ignore_errors=True)


def last(trees: dict[str, Path], databases: dict[str, Path]) -> tuple[Path, Path]:
    """The tree measured last (this tree, or `--tree`) and its database."""
    name = list(trees)[-1]
    return trees[name], databases[name]


def tree_of(name: str, stack: contextlib.ExitStack) -> Path:
    """The checkout `name` names: a folder as it is, else a revision in a worktree."""
    if Path(name).is_dir():
        return Path(name).resolve()
    return stack.enter_context(worktree(name))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="running games to restart with")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="20 games, 3 runs")
    parser.add_argument("--against", metavar="REV", help="also measure the bot of REV")
    parser.add_argument(
        "--tree", metavar="REV|DIR", help="measure REV (or the checkout DIR), not this tree"
    )
    parser.add_argument("--empty", action="store_true", help="an empty database, no games")
    parser.add_argument("--profile", type=Path, help="one more restart under cProfile")
    parser.add_argument("--keep", type=Path, help="keep the database and logs in this folder")
    args = parser.parse_args()
    if args.quick:
        args.games, args.runs = 20, 3
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}", flush=True)
    with contextlib.ExitStack() as stack:
        trees = {"this tree": ROOT}
        if args.tree:
            trees = {args.tree: tree_of(args.tree, stack)}
        if args.against:
            trees = {args.against: tree_of(args.against, stack), **trees}
        workdir = args.keep or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        workdir.mkdir(parents=True, exist_ok=True)
        fake = FakeTelegram()
        await fake.start()
        try:
            arrivals = Arrivals(fake)
            databases: dict[str, Path] = {}
            if args.empty:
                for name, tree in trees.items():
                    databases[name] = workdir / f"empty-{len(databases)}.sqlite3"
                    migrate_with(tree, databases[name])
            else:
                oldest = min(trees, key=lambda name: migrations_of(trees[name]))
                prepared = await prepare(fake, trees[oldest], workdir, args.games)
                for index, (name, tree) in enumerate(trees.items()):
                    databases[name] = copy_database(prepared, workdir / f"tree-{index}.sqlite3")
                    migrate_with(tree, databases[name])
            log_path = workdir / "restarts.log"
            print(f"restarting with {args.runs} runs (the logs: {log_path})", flush=True)
            bare_import()  # the disk cache warm and the bytecode compiled
            for name, tree in trees.items():
                await restart(fake, arrivals, tree, databases[name], log_path)
            bare: list[Bare] = []
            results: dict[str, list[Restart]] = {name: [] for name in trees}
            for _ in range(args.runs):
                bare.append(await asyncio.to_thread(bare_import))
                for name, tree in trees.items():
                    results[name].append(
                        await restart(fake, arrivals, tree, databases[name], log_path)
                    )
            report(bare, results)
            for name, tree in trees.items():
                print_split(name, import_split(tree))
            if args.profile:
                await restart(
                    fake, arrivals, *last(trees, databases), log_path, profile=args.profile
                )
                print_profile(args.profile)
        finally:
            await fake.stop()
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
