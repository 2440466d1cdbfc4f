"""«💡 Подсказка» at Втемную's one choice (`flip_choice`): a tile turned up that fits both
ends waits for its owner to choose the end. Through the use case over a real database
file, with the strong computer itself deciding: the hint is one of the tile's two plays,
counted once; before the tile is turned up a press is still refused."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app.people import Person
from bot.app.reply import Reply
from bot.app.usecases.hints import Hints
from bot.telegram.presenter.replies import reply_text
from domino.actions import Play
from domino.ai import Decision, Level, computer
from domino.children import DARK
from domino.match import Match
from domino.views import MatchView
from i18n import Lang, t
from storage import hints as hint_store
from storage import repo
from storage.connect import open_database
from tests.bot.app_setup import ALICE, FakeTime, Setup, make, two_seated

BOB = Person(502, "Боб", language_code="ru")
GAME = 1
CHOOSING = DARK.with_options(flip_choice=True)


class HardDecider:
    """The strong computer on the presser's view, as the thinker's pool runs it."""

    def __init__(self) -> None:
        self.calls = 0

    async def decide(self, view: MatchView, level: Level) -> Decision:
        assert level is Level.HARD and view.round.seat == view.round.turn
        self.calls += 1
        return computer(level, seed=self.calls).decide(view)


def at_the_choice(turned_up: bool) -> Match:
    """A two-seat match of Втемную with the choice on, seat 0 to move with its tiles face
    down: a tile it turned up waiting for its end (`turned_up`), or none yet."""
    for seed in range(50):
        match = Match.new(CHOOSING, 2, seed)
        player = computer(Level.MEDIUM, seed=seed)
        while not match.over and match.round_no == 1:
            seat = match.turn
            assert seat is not None
            waiting = match.round.turned_up is not None
            if seat == 0 and match.round.face_down(0) and waiting == turned_up:
                return match
            match.apply(player.choose(match.view(seat)), seat)
    raise AssertionError("no such position in 50 matches")


@pytest.fixture
async def setup(tmp_path: Path) -> AsyncIterator[Setup]:
    """Алиса (seat 0) and Боб in a group game, hints on."""
    database = await open_database(tmp_path / "turned_up.sqlite3")
    setup = make(database, FakeTime(), seed=7)
    await setup.app.resume()
    try:
        game = await two_seated(setup, "dark", BOB)
        assert setup.app.settings.hints_allowed(game.chat_id)
        yield setup
    finally:
        await setup.close()
        await database.close()


async def stored(setup: Setup, match: Match) -> int:
    """The game now at `match` (under its ruleset); the move number to press."""
    game = await setup.game(GAME)
    async with setup.db.transaction() as tx:
        await repo.save_game(tx, dataclasses.replace(game, ruleset=CHOOSING, match=match))
    return len(match.log)


async def press(setup: Setup, hints: Hints, move: int) -> Reply:
    return await setup.run(hints.press(GAME, ALICE, move))


async def test_the_end_of_a_tile_turned_up_is_hinted_and_counted_once(setup: Setup) -> None:
    match = at_the_choice(turned_up=True)
    tile = match.round.turned_up
    legal = match.legal_actions()
    assert tile is not None and len(legal) == 2
    move = await stored(setup, match)
    decider = HardDecider()
    hints = Hints(setup.app.playing.context, decider)
    answer = await press(setup, hints, move)
    assert answer.alert and reply_text(answer, Lang.RU).startswith("💡 ")
    hint = await hint_store.last_hint(setup.db, GAME, 0)
    assert hint is not None and hint.move == move and hint.count == 1
    action = next(a for a in legal if str(a) == hint.action)
    assert isinstance(action, Play) and action.tile is tile
    assert hint.reason != "go_out"  # her face-down hand keeps more tiles
    assert await press(setup, hints, move) == answer and decider.calls == 1


async def test_before_the_tile_is_turned_up_a_press_is_still_refused(setup: Setup) -> None:
    move = await stored(setup, at_the_choice(turned_up=False))
    decider = HardDecider()
    hints = Hints(setup.app.playing.context, decider)
    answer = await press(setup, hints, move)
    assert answer.alert and reply_text(answer, Lang.RU) == t("alert.hint_face_down", Lang.RU)
    assert decider.calls == 0 and await hint_store.hint_counts(setup.db, GAME) == {}
