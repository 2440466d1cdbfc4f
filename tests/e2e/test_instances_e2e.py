"""Several instances of the bot on one PostgreSQL database (`bot.server.leadership`), end to end.

Each test runs the deployment the README describes: instances "a" and "b" with the same
token and database, each under a supervisor (here, the test) that starts it again as a
standby when it exits 75; Telegram's flood limits on where the bots' pacing is.

- A leader killed mid-way on a machine with two busy loops: the standby takes over
  and keeps the lease for five minutes while it plays every game on.
- A leader paused (SIGSTOP) for twice the lease, three times: the standby takes over
  each time, and the paused one, resumed, changes no row of the database (a trigger
  records each committed row's writer beside the lease's holder at COMMIT) and stops.
- PostgreSQL stopped for six seconds: presses meanwhile are answered «⏳ Секунду…», and
  moves are stored again soon after the server is back.

On PostgreSQL only (`postgres_only`: `tasks.py test` runs them in its first pass, on the
server of its second, beside the rest; the one that stops a server starts one of its
own). The lease and the fence are tested on both databases in tests/storage/test_leases.py
and tests/bot/test_leadership.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import pytest

from domino.match import Match
from tests.databases import url_for
from tests.e2e.fault_tools import (
    Game,
    assert_game_private,
    audit_announcements,
    check_stored_games,
    game_id_of,
    open_games,
    stored_matches,
)
from tests.e2e.harness import EXIT_SECONDS, BotProcess, hands_now, settle
from tests.fakegram import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]
LOST_EXIT_CODE = 75  # bot.server.leadership: the lease lost, start me again as a standby
# What a deposed instance may log on its way out, and nothing else: its own stop, and
# the 409 of the long poll it had begun before its pause (the other polls now).
DEPOSED_LINES = ("stopping at once", "Conflict", "terminated by other getUpdates")


def instance(
    fake: FakeTelegram, folder: Path, name: str, database: Path, lease: float, **env: str
) -> BotProcess:
    (folder / name).mkdir(exist_ok=True)
    return BotProcess(
        fake,
        folder / name,
        DATABASE_PATH=str(database),
        INSTANCE_NAME=name,
        LEASE_SECONDS=str(lease),
        PACING="true",
        TABLE_INTERVAL="2",
        **env,
    )


def runs(bot: BotProcess) -> list[str]:
    """The log of each start of `bot`, in order."""
    return bot.log().split("--- start ")[1:]


def leading(bot: BotProcess, start: int) -> bool:
    """Whether `bot`'s start number `start` (from 1) has logged that it leads."""
    logged = runs(bot)
    return len(logged) >= start and "leader as " in logged[start - 1]


def problems_of_run(log: str, *, deposed: bool) -> list[str]:
    """The lines of one run's log that show something went wrong; a deposed run may
    have logged its own stop and its last poll's 409 (`DEPOSED_LINES`)."""
    found = []
    for line in log.splitlines():
        if "Traceback" in line or " ERROR " in line or " CRITICAL " in line:
            if deposed and any(mark in line for mark in DEPOSED_LINES):
                continue
            found.append(line)
    return found


@dataclass
class Deployment:
    """Instances "a" (the leader) and "b" (its standby) on one database, and the games
    they run, every person at `think` seconds a press."""

    a: BotProcess
    b: BotProcess
    database: Path
    games: list[Game]


async def deploy(
    fake: FakeTelegram,
    folder: Path,
    shapes: list[tuple[int, int]],
    *,
    lease: float,
    think: float,
    before_games: Callable[[Path], Awaitable[object]] | None = None,
) -> Deployment:
    """Start "a" as the leader and "b" as its standby, await `before_games(database)`
    (a trigger to install before any game's row is written), then open a game of each
    shape (people, computers) at once and settle."""
    database = folder / "domino.sqlite3"  # a schema of its own (tests.databases)
    a = instance(fake, folder, "a", database, lease)
    b = instance(fake, folder, "b", database, lease)
    await a.start()
    await b.start(standby=True)
    if before_games is not None:
        await before_games(database)
    games = await open_games(fake, shapes, at_once=len(shapes))
    await settle(fake)
    prepare_players(games, think=think)
    return Deployment(a, b, database, games)


def prepare_players(games: list[Game], *, think: float) -> None:
    for game in games:
        for player in game.players:
            player.press_timeout = 4.0  # a press a paused or killed leader took: again
            player.think = think
            player.rng = random.Random(player.user.id)


# Seconds after a takeover that the busy loops compete with the bots as equals: the new
# leader's pickup of every running game, and the first rounds it plays, come then.
HARD_LOAD_SECONDS = 90.0
# Their niceness after that: they still take every cycle nobody else wants, and give way
# to the tests that run beside this one in CI (an equal share for five minutes cost the
# rest of the suite about four minutes of CPU).
YIELDING_NICENESS = 19


class BusyLoops:
    """`count` processes spinning a core each from `start()` (for at most `seconds`), as
    other work on the machine would; `yielding()` lowers their priority to
    `YIELDING_NICENESS`."""

    def __init__(self, count: int, seconds: float) -> None:
        self.count = count
        self.seconds = seconds
        self.loops: list[subprocess.Popen[bytes]] = []

    def start(self) -> None:
        spin = f"import time\nend = time.time() + {self.seconds}\nwhile time.time() < end: pass"
        self.loops = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(self.count)]

    def yielding(self) -> None:
        for loop in self.loops:
            with contextlib.suppress(ProcessLookupError):
                os.setpriority(os.PRIO_PROCESS, loop.pid, YIELDING_NICENESS)

    def __enter__(self) -> BusyLoops:
        return self

    def __exit__(self, *exc: object) -> None:
        for loop in self.loops:
            loop.kill()
            loop.wait()


class Supervisor:
    """What systemd or docker does for the README's deployment: an instance that exits
    75 (its lease lost) is started again as a standby; the exits are counted."""

    def __init__(self, bots: list[BotProcess]) -> None:
        self.bots = bots
        self.lost: list[str] = []  # the names of the instances that exited 75, in order
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Supervisor:
        self._task = asyncio.create_task(self._watch())
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    async def _watch(self) -> None:
        while True:
            for bot in self.bots:
                process = bot.process
                # A negative code is a signal the test sent itself (SIGKILL): its to restart.
                if process is not None and (process.returncode or 0) > 0:
                    assert process.returncode == LOST_EXIT_CODE, (
                        f"{bot.env['INSTANCE_NAME']} exited with {process.returncode}:\n"
                        f"{bot.log()[-4000:]}"
                    )
                    self.lost.append(bot.env["INSTANCE_NAME"])
                    await bot.start(standby=True)
            await asyncio.sleep(0.1)


async def stop_all(bots: list[BotProcess], *, deposed_runs: dict[str, int]) -> None:
    """Stop the standby first (the leader's stop would hand it the lease), then the
    leader; each exits 0, and no run logged a problem but a deposed one's own stop."""
    bots = sorted(bots, key=lambda bot: leading(bot, bot.starts))
    for bot in bots:
        code = await bot.stop(timeout=EXIT_SECONDS)
        assert code == 0, f"an instance exited with {code}:\n{bot.log()[-4000:]}"
    for bot in bots:
        logged = runs(bot)
        name = bot.env["INSTANCE_NAME"]
        for number, log in enumerate(logged, start=1):
            deposed = number <= deposed_runs.get(name, 0) and "stopping at once" in log
            found = problems_of_run(log, deposed=deposed)
            assert not found, f"errors in {name}'s run {number}:\n" + "\n".join(found[:20])


def assert_finished_once(fake: FakeTelegram, bot: BotProcess, games: list[Game]) -> tuple[str, int]:
    """Every game finished, its stored log replays to its match, no announcement lost;
    the hands stayed private. A summary line, and the announcements sent twice."""
    stored = check_stored_games(bot.database)
    matches = stored_matches(bot.database)
    audit = audit_announcements(bot, games)
    assert stored.finished == len(games) and all(game.over for game in games)
    assert audit.lost == [] and audit.other == [], (audit.lost, audit.other)
    for game in games:
        assert assert_game_private(fake, game, matches[game_id_of(bot, game)]) > 0
    return (
        f"games={len(games)} finished={stored.finished} moves={stored.moves} "
        f"announcements: {audit.rate}"
    ), audit.repeats


def refused_calls(fake: FakeTelegram, before: int = 4) -> list[str]:
    """Each 429 of the transcript, after the `before` calls to its chat that led to it
    (their senders named: which instance spent the chat's budget)."""
    transcript = fake.transcript
    return [
        "\n".join(c.line() for c in [*transcript.leading_to(call, before), call])
        for call in transcript.calls()
        if call.error_code == 429
    ]


@pytest.mark.slow(seconds=350)
@pytest.mark.postgres_only
async def test_after_a_takeover_on_a_busy_machine_the_new_leader_keeps_the_lease(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    """Twenty running games, a lease of 6 s, two busy loops beside the bots: "a" is
    killed once the games are under way, "b" takes over and leads for five minutes
    while it plays every game on (its lease renewed on a thread of its own, whatever
    its event loop has to pick up), and "a" comes back as its standby. The loops spin
    from the kill on; they compete with the bots as equals until `HARD_LOAD_SECONDS`
    after the takeover (the pickup, where the lease was lost within 5-7 s before the
    keeper had a thread of its own), and at the lowest priority after that."""
    hold = 300.0  # seconds "b" must lead after taking over
    fakegram.enable_flood_limits()
    # A person's pace, so that the games outlast the five minutes on a quiet machine.
    shapes = [(1, 3)] * 14 + [(2, 2)] * 6
    deployed = await deploy(fakegram, tmp_path, shapes, lease=6, think=2.5)
    a, b, games = deployed.a, deployed.b, deployed.games
    took_over: list[float] = []

    async def kill_the_leader_then_watch() -> None:
        await fakegram.wait_for(
            lambda: sum(len(g.table.group.bot_messages) for g in games) > 3 * len(games),
            timeout=600,
        )
        loops.start()
        await a.kill()
        await fakegram.wait_for(lambda: leading(b, 1), timeout=120)
        took_over.append(time.monotonic())
        await a.start(standby=True)
        await asyncio.sleep(max(0.0, HARD_LOAD_SECONDS - (time.monotonic() - took_over[0])))
        loops.yielding()

    with BusyLoops(2, seconds=1200) as loops:
        async with Supervisor([a, b]) as supervisor:
            await asyncio.gather(
                kill_the_leader_then_watch(), *(game.play(fakegram) for game in games)
            )
            # Every game is over; "b" goes on leading (idle now) to the five minutes.
            while time.monotonic() - took_over[0] < hold:
                assert b.process is not None and b.process.returncode is None
                await asyncio.sleep(1)
            held = time.monotonic() - took_over[0]
            assert supervisor.lost == [], (
                f"the lease was lost after the takeover: {supervisor.lost}"
            )
    await settle(fakegram)
    assert b.starts == 1 and leading(b, 1) and "taken over" not in runs(b)[0]
    assert "cannot be renewed" not in b.log()
    summary, repeats = assert_finished_once(fakegram, b, games)
    refused = refused_calls(fakegram)
    print(f"\nbusy takeover: {summary} led {held:.0f}s after the takeover 429={len(refused)}")
    # A kill between Telegram taking an announcement and its outbox row marked sent
    # sends it again (never lost, at most once more): one kill, at most one repeat.
    assert repeats <= 1
    assert refused == [], refused
    await stop_all([a, b], deposed_runs={})


async def install_write_audit(database: Path) -> str:
    """A trigger on every table but the leases that records, at each COMMIT, the row's
    writer (the connection's `application_name`, "domino-bot <instance>") and the lease's
    holder and term at that moment. The schema's URL."""
    url = await url_for(database)
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(
            """
            CREATE TABLE audit_writes (
                id BIGSERIAL PRIMARY KEY, tbl TEXT, writer TEXT, holder TEXT, term BIGINT,
                at DOUBLE PRECISION);
            CREATE FUNCTION audit_write() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO audit_writes (tbl, writer, holder, term, at)
                SELECT TG_TABLE_NAME, current_setting('application_name'), holder, term,
                       extract(epoch FROM clock_timestamp())
                FROM leases WHERE name = 'leader';
                RETURN NULL;
            END $$;
            """
        )
        tables = await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            " AND tablename NOT IN ('leases', 'schema_version', 'audit_writes')"
        )
        for row in tables:
            # Deferred: it runs at COMMIT, after the fence's check (which holds the
            # lease's row until then), so it sees the holder the change committed under.
            await conn.execute(
                f"CREATE CONSTRAINT TRIGGER audit_{row['tablename']}"
                f" AFTER INSERT OR UPDATE OR DELETE ON {row['tablename']}"
                " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION audit_write()"
            )
    finally:
        await conn.close()
    return url


@pytest.mark.slow(seconds=210)
@pytest.mark.postgres_only
async def test_a_leader_paused_past_its_lease_changes_nothing_after_a_takeover(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    """Ten games under play; three times the leader is stopped (SIGSTOP) for twice the
    lease and resumed. Each time the standby takes over, and the resumed instance
    commits no row (its first change, or its keeper, finds the new term) and exits 75,
    to come back as the standby; every game finishes, its log its own replay."""
    lease = 6
    shapes = [(1, 3)] * 6 + [(2, 2)] * 4
    deployed = await deploy(
        fakegram, tmp_path, shapes, lease=lease, think=1.0, before_games=install_write_audit
    )
    a, b, games = deployed.a, deployed.b, deployed.games
    url = await url_for(deployed.database)
    pauses: list[str] = []

    async def pause(leader: BotProcess, standby: BotProcess) -> None:
        """SIGSTOP `leader` until `standby` leads and twice the lease has passed; SIGCONT;
        return once the supervisor has started the deposed one again."""
        assert not all(g.over for g in games), "the games ended before the pauses"
        assert leader.process is not None
        pid, starts, runs_before = leader.process.pid, standby.starts, leader.starts
        os.kill(pid, signal.SIGSTOP)
        began = time.monotonic()
        try:
            await fakegram.wait_for(lambda: leading(standby, starts), timeout=120)
            # The pause itself is what is tested: twice the lease, whatever the pace.
            await asyncio.sleep(max(0.0, 2 * lease - (time.monotonic() - began)))
        finally:  # a stopped process would outlive a failed test: stopping it waits
            os.kill(pid, signal.SIGCONT)
        await fakegram.wait_for(lambda: leader.starts > runs_before, timeout=180)
        pauses.append(leader.env["INSTANCE_NAME"])

    async def pause_the_leader_three_times() -> None:
        await pause(a, b)
        await pause(b, a)
        await pause(a, b)

    async with Supervisor([a, b]) as supervisor:
        await asyncio.gather(
            pause_the_leader_three_times(), *(game.play(fakegram) for game in games)
        )
    await settle(fakegram)
    assert pauses == ["a", "b", "a"] and supervisor.lost == pauses
    final = b
    conn = await asyncpg.connect(url)
    try:
        wrong = await conn.fetch(
            "SELECT tbl, writer, holder, term, at FROM audit_writes"
            " WHERE writer <> 'domino-bot ' || holder ORDER BY id"
        )
        by_writer = await conn.fetch(
            "SELECT writer, COUNT(*) AS n FROM audit_writes GROUP BY writer ORDER BY writer"
        )
    finally:
        await conn.close()
    summary, repeats = assert_finished_once(fakegram, final, games)
    counted = ", ".join(f"{row['writer']}: {row['n']}" for row in by_writer)
    print(f"\npaused leaders: {summary} rows committed by writer: {counted}")
    assert wrong == [], [dict(row) for row in wrong]
    assert len(by_writer) == 2  # both wrote, each while it led
    # An announcement that Telegram took in the instant of a pause, before its outbox
    # row was marked sent, goes out once more from the new leader: never lost, at most
    # once more a pause (the Bot API cannot be asked whether a message went out).
    assert repeats <= len(pauses)
    await stop_all([a, b], deposed_runs={"a": 2, "b": 1})


async def stuck_report(
    fake: FakeTelegram, bots: list[BotProcess], database: Path, stuck: list[Game]
) -> list[str]:
    """What a stalled game's people see (every hand message with its move number), the
    stored match's length, and each instance's log lines that name the game."""
    conn = await asyncpg.connect(await url_for(database))
    try:
        rows = await conn.fetch("SELECT id, chat_id, match, version FROM games")
        records = await conn.fetch("SELECT game_id, role, seat, message_id FROM messages")
    finally:
        await conn.close()
    report = []
    for game in stuck:
        chat_id = game.table.group.id
        found = [row for row in rows if row["chat_id"] == chat_id]
        for row in found:
            moves = len(Match.from_json(row["match"]).log) if row["match"] else None
            kept = [tuple(r) for r in records if r["game_id"] == row["id"]]
            report.append(
                f"{game.table.group.title}: game {row['id']} version {row['version']} "
                f"stored moves {moves}; message records {kept}"
            )
        report.append(hands_now(game.players))
        for player in game.players:
            for message in player.chat.bot_messages:
                data = [b.callback_data for b in message.buttons][:2]
                report.append(
                    f"    {player.user.first_name} #{message.message_id} "
                    f"edits={len(message.history)} {message.content[:60]!r} {data}"
                )
            report += [f"    {data} -> {answer}" for data, answer in player.pressed[-3:]]
        for bot in bots:
            ids = [str(row["id"]) for row in found]
            report += [
                f"  [{bot.env['INSTANCE_NAME']}] {line}"
                for line in bot.log().splitlines()
                if any(f"game {i}" in line for i in ids) or "outage" in line or "lease" in line
            ][-40:]
    return report


@pytest.fixture
def own_postgres() -> Iterator[object]:
    """A PostgreSQL server of this test's own, to stop and start (tasks.py's throwaway),
    durable as a production server is: a crash keeps every COMMIT it acknowledged. (The
    suite's fast one does not wait for its disk, so a crash loses the last ones; the bot
    then goes on as stored, `Application.pick_up`, as tests/bot/test_pickup.py shows.)"""
    sys.path.insert(0, str(ROOT))
    import tasks

    programs = tasks.find_postgres()
    if programs is None:
        pytest.skip("needs PostgreSQL's server programs (initdb, pg_ctl)")
    with tasks.throwaway_postgres(programs, durable=True) as cluster:
        yield cluster


@contextlib.asynccontextmanager
async def server_down(cluster: object) -> AsyncIterator[None]:
    """`pg_ctl stop -m immediate` (a crash: every connection cut), then start again."""
    stop = cluster.stop()  # type: ignore[attr-defined]
    start = cluster.start()  # type: ignore[attr-defined]
    folder = cluster.folder  # type: ignore[attr-defined]
    await asyncio.to_thread(subprocess.run, stop, cwd=folder, check=True, capture_output=True)
    try:
        yield
    finally:
        await asyncio.to_thread(subprocess.run, start, cwd=folder, check=True, capture_output=True)


@pytest.mark.slow(seconds=140)
@pytest.mark.postgres_only
async def test_postgres_down_for_six_seconds_presses_wait_and_play_resumes(
    fakegram: FakeTelegram, tmp_path: Path, own_postgres: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six games under play; the server crashes and is back six seconds later. Presses
    meanwhile are answered «⏳ Секунду…» (nothing changed; press again), the leader keeps
    (or the standby takes) the lease once the server answers, and moves are stored again
    within seconds; every game finishes, nothing lost or applied twice."""
    # The schemas (the bots', and the checks' reads) on this test's own server.
    monkeypatch.setenv("DOMINO_TEST_POSTGRES", own_postgres.url)  # type: ignore[attr-defined]
    deployed = await deploy(fakegram, tmp_path, [(1, 3)] * 4 + [(2, 2)] * 2, lease=6, think=0.5)
    a, b, games, database = deployed.a, deployed.b, deployed.games, deployed.database

    async def stored_moves() -> int:
        """The moves stored in all, or -1 while the server does not answer (the crash may
        also cut this read in the middle)."""
        try:
            conn = await asyncpg.connect(await url_for(database))
            try:
                rows = await conn.fetch("SELECT match FROM games WHERE match IS NOT NULL")
            finally:
                await conn.close()
        except (OSError, asyncpg.PostgresError):
            return -1
        return sum(len(Match.from_json(text).log) for (text,) in rows)

    figures: dict[str, float] = {}

    async def stop_the_server_once() -> None:
        await fakegram.wait_for(
            lambda: sum(len(g.table.group.bot_messages) for g in games) > 3 * len(games),
            timeout=600,
        )
        before = await stored_moves()
        people = [p for g in games for p in g.players]
        answers_before = [len(p.pressed) for p in people]
        async with server_down(own_postgres):
            # Six seconds down: what is tested, whatever the machine's pace.
            await asyncio.sleep(6)
        back = time.monotonic()
        during = [
            answer
            for p, before in zip(people, answers_before, strict=True)
            for _, answer in p.pressed[before:]
        ]
        figures["busy answers"] = sum("Секунду" in (a.text or "") for a in during)
        while await stored_moves() <= before:
            await asyncio.sleep(0.2)
        figures["moves again after"] = time.monotonic() - back

    async def watch_for_a_stuck_game() -> None:
        """Presses answered with an alert count as progress for `play`: a game whose hand
        the bot never brought up to date would go on for ever. Fail, saying where, once
        no move is stored for two minutes (stretched by the load) while games are on."""
        last, since = -1, time.monotonic()
        while not all(game.over for game in games):
            moves = await stored_moves()
            if moves != last:
                last, since = moves, time.monotonic()
            load = max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
            if time.monotonic() - since > 120 * load:
                stuck = [game for game in games if not game.over]
                raise AssertionError(
                    "no move stored for two minutes:\n"
                    + "\n".join(await stuck_report(fakegram, [a, b], database, stuck))
                )
            await asyncio.sleep(1)

    # A task group: a failure cancels the others and waits for them, so the server is
    # started again before the fixture removes it.
    async with Supervisor([a, b]) as supervisor, asyncio.TaskGroup() as group:
        group.create_task(stop_the_server_once())
        group.create_task(watch_for_a_stuck_game())
        for game in games:
            group.create_task(game.play(fakegram))
    await settle(fakegram)
    leader = a if leading(a, a.starts) else b
    summary, _ = assert_finished_once(fakegram, leader, games)
    print(
        f"\npostgres down 6 s: {summary} moves stored again {figures['moves again after']:.1f}s "
        f"after the server was back; presses answered 'wait': {figures['busy answers']:.0f}; "
        f"instances restarted: {supervisor.lost}"
    )
    # Moves resume within 10 s of the server coming back on a quiet machine; a loaded
    # one (more runnable processes than cores) is slower by its load, not stuck.
    load = max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
    assert figures["moves again after"] < 10 * load
    assert figures["busy answers"] >= 1
    await stop_all([a, b], deposed_runs={name: 1 for name in supervisor.lost})
