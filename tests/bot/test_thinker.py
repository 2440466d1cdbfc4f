"""The thinker: hard decisions come from its process pool and are legal, a
deadline that is missed falls back to medium (still legal), each decision has a fresh
seed, the pool starts in the background (medium answers until it is ready) and lives
and ends with the application (asked after, medium answers), even stopped while starting."""

from __future__ import annotations

import asyncio
import dataclasses
import multiprocessing
import os
import random
import select
import signal
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

import bot.app.thinker
from bot.app.thinker import Thinker
from bot.app.usecases.play import computer_to_move
from domino.ai import Computer, Decision, Level, computer
from domino.match import Match
from domino.variants import VARIANTS
from domino.views import MatchView
from storage import repo
from storage.connect import open_database
from storage.records import GameStatus, SeatRecord
from tests.bot.app_setup import ALICE, CHAT, FakeTime, make

ROOT = Path(__file__).resolve().parents[2]


def views_with_a_choice() -> Iterator[MatchView]:
    """Views of the seat to move with several legal actions, one per game and table
    size, from seeded matches played by random moves (no luck: the first such turn)."""
    for _, view in positions_with_a_choice():
        yield view


def positions_with_a_choice() -> Iterator[tuple[Match, MatchView]]:
    """The matches of `views_with_a_choice`, each with the view of its seat to move."""
    for game in VARIANTS:
        for players in sorted(game.ruleset.hand_sizes):
            rng = random.Random(players)
            match = Match.new(game.ruleset, players, seed=7)
            while not match.over:
                seat = match.turn
                assert seat is not None
                legal = match.legal_actions()
                if len(legal) > 1:
                    yield match, match.view(seat)
                    break
                match.apply(legal[rng.randrange(len(legal))], seat)


# A budget no search misses however busy the machine: the tests that say "the pool
# decided" must not depend on how fast a search comes back (on a loaded machine one can
# take longer than the bot's 250 ms and fall back to medium).
PATIENT = 60.0


@pytest.fixture
async def thinker() -> AsyncIterator[Thinker]:
    thinker = Thinker(workers=1, budget=PATIENT)
    await thinker.start()
    try:
        yield thinker
    finally:
        await thinker.stop()


@pytest.fixture
def asked_here(monkeypatch: pytest.MonkeyPatch) -> list[Level]:
    """The levels asked of `domino.ai.computer` in this process (the pool's workers ask
    it in theirs)."""
    asked: list[Level] = []
    real = computer

    def recorded(level: Level | str, **kwargs: Any) -> Computer:
        asked.append(Level(level))
        return real(level, **kwargs)

    monkeypatch.setattr(bot.app.thinker, "computer", recorded)
    return asked


async def test_hard_decisions_come_from_the_pool_and_are_legal(
    thinker: Thinker, asked_here: list[Level]
) -> None:
    positions = list(positions_with_a_choice())
    assert len(positions) >= len(VARIANTS)
    for match, view in positions:
        decision = await thinker.decide(view, Level.HARD)
        assert decision.action in view.round.legal
        # The action came back from another process and still applies: the engine
        # compares tiles by identity (they are interned).
        match.apply(decision.action, view.round.seat)
    # Not one hard decision was made in this process, and none fell back to medium.
    assert Level.HARD not in asked_here and Level.MEDIUM not in asked_here
    assert thinker.fallbacks == 0
    assert thinker.times()[Level.HARD].count == len(positions)


async def test_easy_and_medium_decide_inline_and_legally(
    thinker: Thinker, asked_here: list[Level]
) -> None:
    for view in views_with_a_choice():
        for level in (Level.EASY, Level.MEDIUM):
            decision = await thinker.decide(view, level)
            assert decision.action in view.round.legal
    assert set(asked_here) == {Level.EASY, Level.MEDIUM}
    assert set(thinker.times()) == {Level.EASY, Level.MEDIUM}


async def test_a_missed_deadline_falls_back_to_medium_with_a_legal_action(
    asked_here: list[Level],
) -> None:
    # A budget no search can meet: the pool's answer is never back in time.
    thinker = Thinker(workers=1, budget=1e-6, margin=0.0)
    await thinker.start()
    try:
        views = list(views_with_a_choice())
        for view in views:
            decision = await thinker.decide(view, Level.HARD)
            assert decision.action in view.round.legal
    finally:
        await thinker.stop()
    assert thinker.fallbacks == len(views)
    assert asked_here == [Level.MEDIUM] * len(views)  # medium decided, here, each time
    assert "fallbacks to medium" in thinker.summary()


async def test_each_decision_gets_a_fresh_seed_never_the_matchs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seeds: list[int | None] = []
    real = computer

    def seeded(level: Level | str, *, seed: int | None = None, **kwargs: Any) -> Computer:
        seeds.append(seed)
        return real(level, seed=seed, **kwargs)

    monkeypatch.setattr(bot.app.thinker, "computer", seeded)
    thinker = Thinker(workers=1, new_seed=iter(range(1000, 2000)).__next__)
    view = next(views_with_a_choice())
    for _ in range(3):
        await thinker.decide(view, Level.MEDIUM)
    await thinker.stop()
    assert seeds == [1000, 1001, 1002]


async def test_the_pool_starts_and_stops_with_the_application(tmp_path: Path) -> None:
    database = await open_database(tmp_path / "thinker.sqlite3")
    setup = make(database, FakeTime(), seed=1)
    try:
        thinker = setup.app.thinker
        assert thinker.processes() == []
        await setup.app.resume()  # the pool starts in the background
        await thinker.start()  # waits for it to be ready
        assert thinker.running
        workers = thinker.processes()
        assert workers and all(process.is_alive() for process in workers)
        await setup.close()
        assert thinker.processes() == []
        for process in workers:
            process.join(timeout=30)  # the pool waited for them; this only reaps
            assert not process.is_alive()
        # Asked during the shutdown (an update still in hand): medium answers, and no
        # pool starts again.
        view = next(views_with_a_choice())
        decision = await thinker.decide(view, Level.HARD)
        assert decision.action in view.round.legal
        assert thinker.processes() == [] and thinker.fallbacks == 1
    finally:
        await database.close()


async def test_before_the_pool_is_ready_medium_decides_then_the_pool(
    asked_here: list[Level],
) -> None:
    thinker = Thinker(workers=1, budget=PATIENT)
    match, view = next(positions_with_a_choice())
    try:
        thinker.start_soon()  # returns at once: the processes start in a thread
        assert thinker.processes() == []
        early = await thinker.decide(view, Level.HARD)
        assert early.action in view.round.legal
        assert asked_here == [Level.MEDIUM] and thinker.fallbacks == 1
        await thinker.start()  # the start in progress, waited for
        assert thinker.running and thinker.processes()
        late = await thinker.decide(view, Level.HARD)
        assert late.action in view.round.legal
        assert asked_here == [Level.MEDIUM] and thinker.fallbacks == 1  # the pool decided
        match.apply(late.action, view.round.seat)
    finally:
        await thinker.stop()
    assert thinker.times()[Level.HARD].count == 2


async def test_stopped_while_starting_the_pool_is_shut_down_all_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    thinker = Thinker(workers=1)
    started: list[multiprocessing.process.BaseProcess] = []
    spawn = thinker._spawn

    def recorded() -> Any:
        pool, failed = spawn()
        started.extend(pool._processes.values())
        return pool, failed

    monkeypatch.setattr(thinker, "_spawn", recorded)
    thinker.start_soon()
    await thinker.stop()  # the start had not even begun: it is waited for, then undone
    assert started and thinker.processes() == [] and not thinker.running
    for process in started:
        process.join(timeout=30)  # the pool waited for them; this only reaps
        assert not process.is_alive()
    view = next(views_with_a_choice())
    assert (await thinker.decide(view, Level.HARD)).action in view.round.legal
    assert thinker.processes() == [] and thinker.fallbacks == 1  # no pool again


async def test_computers_that_keep_finding_their_game_moved_on_are_called_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the computers think, their game moves on every time (here: saved again):
    after its tries the pass shows the game as it stands, so the effects set the
    computers' pause again instead of leaving a computer to move that nobody calls."""
    database = await open_database(tmp_path / "moved_on.sqlite3")
    setup = make(database, FakeTime(), seed=1)
    try:
        await setup.app.people.remember(ALICE, can_message=True)
        async with database.transaction() as tx:
            await repo.upsert_chat(tx, CHAT)
            created = await repo.create_game(
                tx,
                chat_id=CHAT.id,
                creator_id=ALICE.id,
                ruleset=VARIANTS[0].ruleset,
                seats_wanted=2,
                seats=[SeatRecord(0, None, "🤖 1"), SeatRecord(1, None, "🤖 2")],
                join_token="t0ken",
            )
            game = await repo.save_game(
                tx,
                dataclasses.replace(
                    created,
                    status=GameStatus.PLAYING,
                    match=Match.new(VARIANTS[0].ruleset, 2, seed=1),
                ),
            )
        thinker = setup.app.thinker
        decide = thinker.decide

        async def moving_on(view: MatchView, level: Level) -> Decision:
            async with database.transaction() as tx:
                stored = await repo.load_game(tx, game.id)
                assert stored is not None
                await repo.save_game(tx, stored)  # a new version, as a press would make
            return await decide(view, level)

        monkeypatch.setattr(thinker, "decide", moving_on)
        done = await setup.app.playing.computers(game.id)
        assert done is not None
        (shown,) = done.effects.games
        latest = await setup.game(game.id)
        assert shown == latest and latest.match is not None and game.match is not None
        assert latest.match.log == game.match.log  # nothing was applied on a stale read
        assert computer_to_move(shown) is not None
    finally:
        await setup.close()
        await database.close()


KILLED_BOT = """
import asyncio, os, signal
from bot.app.thinker import Thinker

async def main() -> None:
    thinker = Thinker(workers=1)
    await thinker.start()
    print(*(process.pid for process in thinker.processes()), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)

if __name__ == "__main__":
    asyncio.run(main())
"""


async def test_a_killed_bot_leaves_no_worker_behind(tmp_path: Path) -> None:
    """The bot's process gets SIGKILL: its workers (children of the fork server, not of
    the bot) end by themselves, and with them the fork server."""
    script = tmp_path / "killed_bot.py"
    script.write_text(KILLED_BOT)
    bot = await asyncio.create_subprocess_exec(
        sys.executable, str(script), cwd=ROOT, stdout=asyncio.subprocess.PIPE
    )
    output, _ = await bot.communicate()
    assert bot.returncode == -signal.SIGKILL
    workers = [int(pid) for pid in output.split()]
    assert workers
    for pid in workers:
        try:
            handle = os.pidfd_open(pid)
        except ProcessLookupError:
            continue  # gone already
        try:
            # Readable once the process has ended; the timeout is only a net for a hang.
            readable, _, _ = await asyncio.to_thread(select.select, [handle], [], [], 120)
        finally:
            os.close(handle)
        assert readable, f"worker {pid} outlived the killed bot"
