"""Shard mode end to end (issue 35, docs/instances.md): every instance plays.

Instances "a", "b" and "c" on one PostgreSQL database with `SHARDS=12`, each under a
supervisor (here, the test) that starts it again when it exits 75; Telegram's flood
limits on in the fake. Sixty games of people and computers (sixteen in the suite: see
`GAMES`) are played through the fake while, one after another:

- the instance holding shard 0 (the one that polls Telegram) is killed (SIGKILL) and
  started again at once, as a supervisor would: its shards, and the polling, move on;
- another is paused (SIGSTOP) until the others hold its shards, and for twice the lease:
  resumed, it changes nothing more and exits 75, and comes back;
- a fourth, "d", is added: it takes its fair share while nobody stops.

Checked: every game finishes, its stored log its own replay; no move a person was
answered for is lost or stored twice; every announcement is sent (at most one repeat a
kill or pause); no row of a game is committed by an instance that did not hold the game's
shard at that COMMIT (a trigger records each writer beside the shard lease's holder); no
429 in the fake's transcript; no instance logged an error but a deposed one's own stop.

On PostgreSQL only: several processes on one database. The shard leases, the instance
fence and the queue are tested on both databases in tests/storage and tests/bot.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from pathlib import Path

import pytest

from tests.e2e.fault_tools import (
    Game,
    assert_game_private,
    audit_announcements,
    audit_presses,
    check_stored_games,
    game_id_of,
    open_games,
    stored_matches,
)
from tests.e2e.harness import EXIT_SECONDS, STALL_SECONDS, settle
from tests.e2e.shard_audit import (
    ShardInstance,
    audited_writes,
    install_shard_audit,
    shard_instance,
    shard_leases,
    wait_shared,
)
from tests.e2e.test_instances_e2e import (
    DEPOSED_LINES,
    Supervisor,
    problems_of_run,
    refused_calls,
    runs,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.waiting import Deadline

SHARDS = 12
LEASE = 6  # seconds
# Mostly one person against three computers (short and cheap to play), a quarter pairs
# of people. The proof is 60 groups (75 people pressing through the fake), about
# 11-13 minutes on a loaded 2-core machine: run it with DOMINO_SHARD_PROOF_GAMES=60. The
# suite plays 16 groups through the same kill, pause and newcomer, to stay within CI's time.
GAMES = int(os.environ.get("DOMINO_SHARD_PROOF_GAMES", "16"))
SHAPES = [(1, 3)] * (GAMES - GAMES // 4) + [(2, 2)] * (GAMES // 4)
# A move of the shards (a take, a give-back, a takeover after a lease ran out) comes within
# a few lease times; this, stretched by the machine's pace, is where waiting for one ends.
SHARING_SECONDS = 10 * LEASE
# What a paused instance may log on its way out, and nothing else amiss: its own stop
# ("stopping at once", as its lease and shards are found taken) and the 409 of a long
# poll another instance took over.
DEPOSED_MARKS = DEPOSED_LINES


def instance(fake: FakeTelegram, folder: Path, name: str, database: Path) -> ShardInstance:
    return shard_instance(
        ShardInstance,
        fake,
        folder,
        name,
        database,
        SHARDS=str(SHARDS),
        LEASE_SECONDS=str(LEASE),
        PACING="true",
        TABLE_INTERVAL="2",
    )


def prepare_players(games: list[Game]) -> None:
    for game in games:
        for player in game.players:
            player.press_timeout = 4.0  # a press a killed or paused owner took: again
            player.think = 0.3
            player.rng = random.Random(player.user.id)


def live(bots: list[ShardInstance]) -> list[str]:
    return sorted(bot.name for bot in bots if bot.alive())


def problems(bot: ShardInstance, deposed_runs: int) -> list[str]:
    """What went wrong in `bot`'s runs: its first `deposed_runs` runs that ended in a
    stop of their own may have logged that stop."""
    found = []
    for number, log in enumerate(runs(bot), start=1):
        deposed = number <= deposed_runs
        for line in problems_of_run(log, deposed=False):
            if deposed and any(mark in line for mark in DEPOSED_MARKS):
                continue
            found.append(f"{bot.name} run {number}: {line}")
    return found


@pytest.mark.slow(seconds=180)  # 231 s at load 8 on 2 cores, with 16 games
@pytest.mark.postgres_only
async def test_every_instance_plays_through_a_kill_a_pause_and_a_newcomer(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    """The module's docstring says what is done and checked."""
    fakegram.enable_flood_limits()
    database = tmp_path / "domino.sqlite3"  # a schema of its own (tests.databases)
    a, b, c = (instance(fakegram, tmp_path, name, database) for name in "abc")
    d = instance(fakegram, tmp_path, "d", database)
    await a.start()
    url = await install_shard_audit(database, SHARDS)
    await b.start()
    await c.start()
    await wait_shared(fakegram, url, ["a", "b", "c"], SHARDS, seconds=SHARING_SECONDS)
    began = time.monotonic()
    games = await open_games(fakegram, SHAPES, at_once=12)
    await settle(fakegram)
    prepare_players(games)
    events: dict[str, float] = {"opened": time.monotonic() - began}

    def under_way(messages_each: int) -> bool:
        """Whether the groups have been sent `messages_each` messages a game on average,
        some game still running: the next disturbance comes in mid-play."""
        shown = sum(len(g.table.group.bot_messages) for g in games)
        return shown > messages_each * len(games) and not all(g.over for g in games)

    async def wait_for_play(messages_each: int) -> None:
        # A window with nothing moving at all, not a deadline (`FakeTelegram.wait_for`).
        await fakegram.wait_for(lambda: under_way(messages_each), timeout=STALL_SECONDS)

    async def kill_the_receiver() -> ShardInstance:
        """SIGKILL the holder of shard 0 (it polls) and start it again at once."""
        leases = await shard_leases(url, SHARDS)
        receiver = next(bot for bot in (a, b, c) if bot.name == leases[0].holder)
        await receiver.kill()
        events["killed"] = time.monotonic() - began
        await receiver.start()
        await wait_shared(fakegram, url, ["a", "b", "c"], SHARDS, seconds=SHARING_SECONDS)
        return receiver

    async def pause_one(killed: ShardInstance) -> ShardInstance:
        """SIGSTOP another instance until the others hold all its shards and twice the
        lease has passed; SIGCONT; return once it has exited 75 and come back."""
        paused = next(bot for bot in (a, b, c) if bot is not killed)
        others = [bot.name for bot in (a, b, c) if bot is not paused]
        assert paused.process is not None
        pid, starts = paused.process.pid, paused.starts
        os.kill(pid, signal.SIGSTOP)
        stopped = time.monotonic()
        try:
            await wait_shared(fakegram, url, others, SHARDS, seconds=SHARING_SECONDS)
            # The pause itself is what is tested: twice the lease, whatever the pace.
            await asyncio.sleep(max(0.0, 2 * LEASE - (time.monotonic() - stopped)))
        finally:  # a stopped process would outlive a failed test
            os.kill(pid, signal.SIGCONT)
        deadline = Deadline(SHARING_SECONDS)
        while paused.starts == starts:
            assert not deadline.passed(), f"{paused.name} did not exit 75 after its pause"
            await asyncio.sleep(0.2)
        events["paused"] = time.monotonic() - began
        await wait_shared(fakegram, url, ["a", "b", "c"], SHARDS, seconds=SHARING_SECONDS)
        return paused

    async def add_a_fourth() -> None:
        """Start "d": it takes its fair share (three) while nobody stops."""
        pids = {bot.name: bot.process.pid for bot in (a, b, c) if bot.process is not None}
        lost_before = list(supervisor.lost)
        await d.start()
        await wait_shared(fakegram, url, ["a", "b", "c", "d"], SHARDS, seconds=SHARING_SECONDS)
        events["added"] = time.monotonic() - began
        assert supervisor.lost == lost_before, supervisor.lost
        assert {bot.name: bot.process.pid for bot in (a, b, c) if bot.process} == pids

    async def disturb() -> None:
        await wait_for_play(3)
        killed = await kill_the_receiver()
        await wait_for_play(5)
        paused = await pause_one(killed)
        await wait_for_play(7)
        await add_a_fourth()
        outcome["paused"] = paused.name

    outcome: dict[str, str] = {}
    async with Supervisor([a, b, c, d]) as supervisor:
        await asyncio.gather(disturb(), *(game.play(fakegram) for game in games))
    await settle(fakegram)
    events["played"] = time.monotonic() - began
    assert not [g.table.group.title for g in games if not g.over]
    assert supervisor.lost == [outcome["paused"]], supervisor.lost
    assert sorted(live([a, b, c, d])) == ["a", "b", "c", "d"]

    # Every game finished, its stored log replays to its match, hands stayed private.
    stored = check_stored_games(database)
    assert stored.finished == len(games), stored
    matches = stored_matches(database)
    for game in games:
        assert assert_game_private(fakegram, game, matches[game_id_of(a, game)]) > 0
    # No move a person was answered for lost, none stored twice.
    presses, losses, duplicates = audit_presses(games, database)
    # Every announcement sent; one taken by Telegram in the instant of the kill or the
    # pause, before its row was marked sent, goes out once more (never lost).
    announcements = audit_announcements(a, games)
    # No row committed by an instance that did not hold the row's shard at COMMIT.
    writes = await audited_writes(url)
    refused = refused_calls(fakegram)
    print(
        f"\nshards: games={len(games)} finished={stored.finished} moves={stored.moves} "
        f"presses={presses} lost={losses} doubled={duplicates} "
        f"announcements: {announcements.rate} 429={len(refused)} "
        f"rows by writer: {writes.by_writer} "
        + " ".join(f"{name}@{at:.0f}s" for name, at in events.items())
    )
    assert (losses, duplicates) == (0, 0)
    assert writes.wrong == [], writes.wrong[:20]
    assert len(writes.by_writer) >= 3, writes.by_writer  # each of the first three played
    assert refused == [], refused[:20]
    assert announcements.lost == [] and announcements.other == [], (
        announcements.lost,
        announcements.other,
    )
    assert announcements.repeats <= 2

    for bot in (d, c, b, a):
        code = await bot.stop(timeout=EXIT_SECONDS)
        assert code == 0, f"{bot.name} exited with {code}:\n{bot.log()[-4000:]}"
    found = [
        line
        for bot in (a, b, c, d)
        for line in problems(bot, 1 if bot.name == outcome["paused"] else 0)
    ]
    assert not found, "\n".join(found[:20])
