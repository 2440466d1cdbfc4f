"""A person's presses on the new moves through the whole application (a real database
file, the fake Bot API): several doubles at once (M-3, O-2) and closing an end (O-3) from
their menus, each checked as every press is (the move number, the presser's seat, the
action among the legal ones); a stale, forged or foreign press changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiogram.methods import EditMessageText, SendMessage
from aiogram.types import InlineKeyboardMarkup

from bot.app.people import Person
from bot.app.usecases import Answer
from bot.app.usecases.lobby_options import LobbyOption
from bot.app.usecases.play import MOVES
from bot.telegram.callbacks import MoveCb, MoveKind
from bot.telegram.presenter.hand import doubles_where
from domino.actions import Action, Close, Draw, Play, PlayDoubles
from domino.ai import Level, computer
from domino.match import Match
from domino.players import GreedyPlayer
from domino.variants import find_variant
from domino.views import MatchView
from i18n import Lang, t
from storage.connect import open_database
from storage.records import GameRecord, GameStatus
from tests.bot.app_setup import ALICE, CHAT, FakeTime, Setup, eventually, make, no_admin, settle

BOB = Person(502, "Боб", language_code="ru")


COMPUTER_SEED = 0  # every decision of the bot's computer here (its thinker's seeds)


class BotsComputer:
    """The computer seat as the bot plays it here: medium (a new computer seat's level),
    a fresh computer with `COMPUTER_SEED` for each decision, as the thinker makes them."""

    def choose(self, view: MatchView) -> Action:
        return computer(Level.MEDIUM, seed=COMPUTER_SEED).choose(view)


def seed_where_alice_may(game: str, wanted: type[Action]) -> int:
    """A seed whose 2-seat match of `game` offers seat 0 `wanted` at some turn while seat
    0 plays as `GreedyPlayer` (the tests press Алиса's greedy move) and seat 1 as the
    bot's computer does (`BotsComputer`)."""
    rules = find_variant(game).ruleset
    for seed in range(500):
        match = Match.new(rules, 2, seed=seed)
        while not match.over:
            seat = match.turn
            assert seat is not None
            if seat == 0 and any(isinstance(a, wanted) for a in match.legal_actions()):
                return seed
            match.take_turn(seat, GreedyPlayer() if seat == 0 else BotsComputer())
    raise AssertionError(f"no seed offers {wanted.__name__} in {game}")


async def playing(tmp_path: Path, game: str, wanted: type[Action]) -> AsyncIterator[Setup]:
    database = await open_database(tmp_path / "play.sqlite3")
    setup = make(database, FakeTime(), seed_where_alice_may(game, wanted))
    setup.app.thinker.new_seed = lambda: COMPUTER_SEED  # the computer as simulated
    await setup.app.resume()
    try:
        await start_against_a_computer(setup, game)
        await settle()
        yield setup
    finally:
        await setup.close()
        await database.close()


@pytest.fixture
async def doubles(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Setup]:
    async for setup in playing(tmp_path, request.param, PlayDoubles):
        yield setup


@pytest.fixture
async def closing(tmp_path: Path) -> AsyncIterator[Setup]:
    async for setup in playing(tmp_path, "osel", Close):
        yield setup


async def start_against_a_computer(setup: Setup, game: str = "kozel") -> None:
    """Алиса opens a lobby of `game` in CHAT, makes it two seats, adds a computer and
    starts it (the first game of the database: id 1)."""
    await setup.app.people.remember(ALICE, can_message=True)
    assert await setup.run(setup.app.lobby.open(CHAT, ALICE, find_variant(game))) is None
    lobby = setup.app.lobby
    await setup.run(lobby.set_option(1, CHAT.id, ALICE, LobbyOption.SEATS, no_admin))  # 4 -> 2
    await setup.run(lobby.add_computer(1, CHAT.id, ALICE, no_admin))
    await setup.run(lobby.start_game(1, CHAT.id, ALICE, no_admin))


async def alice_to_move(setup: Setup) -> bool:
    game = await setup.game()
    return game.match is not None and game.match.turn == 0


async def quiet(setup: Setup) -> None:
    """Nothing else runs: the computer moved, every message is up to date (Алиса to
    move, or the game over)."""
    while True:
        await settle()
        await setup.app.publisher.idle()
        if await alice_to_move(setup) or (await setup.game()).status is not GameStatus.PLAYING:
            return


def greedy_press(game: GameRecord) -> tuple[int, Person, int, MoveKind, int, str]:
    """The arguments of `Playing.press` for Алиса's greedy move in `game` (her turn)."""
    assert game.match is not None
    kind, tile, end = button_of(GreedyPlayer().choose(game.match.view(0)))
    return game.id, ALICE, len(game.match.log), kind, tile, end


async def play_until_alice_may(setup: Setup, wanted: type[Action]) -> GameRecord:
    """Алиса presses her greedy move until `wanted` is among her legal actions."""
    while True:
        await eventually(lambda: alice_to_move(setup))
        game = await setup.game()
        assert game.status is GameStatus.PLAYING and game.match is not None
        if any(isinstance(a, wanted) for a in game.match.legal_actions()):
            return game
        action = GreedyPlayer().choose(game.match.view(0))
        kind, tile, end = button_of(action)
        answer = await press(setup, game, kind, tile, end)
        assert not answer.alert, answer
        await settle()


def button_of(action: Action) -> tuple[MoveKind, int, str]:
    """The hand button's kind, tile and `end` that stand for `action`."""
    if isinstance(action, PlayDoubles):
        return MoveKind.DOUBLES, -1, doubles_where(action)
    if isinstance(action, Close):
        return MoveKind.CLOSE, action.tile.index, action.end.value
    if isinstance(action, Play):
        return MoveKind.PLAY, action.tile.index, action.end.value if action.end else ""
    return (MoveKind.DRAW if isinstance(action, Draw) else MoveKind.KNOCK), -1, ""


async def press(
    setup: Setup,
    game: GameRecord,
    kind: MoveKind,
    tile: int = -1,
    end: str = "",
    *,
    person: Person = ALICE,
    move: int | None = None,
) -> Answer:
    assert game.match is not None
    number = len(game.match.log) if move is None else move
    return await setup.run(setup.app.playing.press(game.id, person, number, kind, tile, end))


def last_hand(setup: Setup) -> InlineKeyboardMarkup:
    """The buttons of the hand message Алиса saw last."""
    for call in reversed(setup.telegram.calls):
        if isinstance(call, EditMessageText | SendMessage) and call.chat_id == ALICE.id:
            markup = call.reply_markup
            if isinstance(markup, InlineKeyboardMarkup):
                return markup
    raise AssertionError("no hand was shown to Алиса")


def kinds(markup: InlineKeyboardMarkup) -> list[MoveCb]:
    return [
        MoveCb.unpack(b.callback_data)
        for row in markup.inline_keyboard
        for b in row
        if b.callback_data and b.callback_data.startswith("m1:")
    ]


@pytest.mark.parametrize("doubles", ["sea_kozel", "osel"], indirect=True)
async def test_several_doubles_are_laid_at_once_from_their_menu(doubles: Setup) -> None:
    setup = doubles
    game = await play_until_alice_may(setup, PlayDoubles)
    assert game.match is not None
    legal = [a for a in game.match.legal_actions() if isinstance(a, PlayDoubles)]
    await settle()
    assert MoveKind.CHOOSE_DOUBLES in {d.kind for d in kinds(last_hand(setup))}

    answer = await press(setup, game, MoveKind.CHOOSE_DOUBLES)
    assert answer.text == t("answer.choose_doubles", Lang.RU) and not answer.alert
    await settle()
    menu = kinds(last_hand(setup))
    assert [d.end for d in menu if d.kind is MoveKind.DOUBLES] == [doubles_where(a) for a in legal]
    assert menu[-1].kind is MoveKind.BACK
    assert (await setup.game()).version == game.version  # a menu changes nothing

    # A forged set of doubles (the right move, the wrong tiles) is refused.
    offered = {doubles_where(a) for a in legal}
    forged = next(w for w in ("0L1R", "2L3R", "4L5R") if w not in offered)
    refused = await press(setup, game, MoveKind.DOUBLES, -1, forged)
    assert refused.alert and refused.text == t("alert.illegal", Lang.RU)
    assert (await setup.game()).version == game.version

    chosen = next(d for d in menu if d.kind is MoveKind.DOUBLES)
    done = await press(setup, game, MoveKind.DOUBLES, -1, chosen.end)
    assert not done.alert, done
    after = await setup.game()
    assert after.match is not None
    assert after.match.log[len(game.match.log)].action == legal[0]
    # The same button again: the game moved on, nothing more happens.
    again = await press(setup, game, MoveKind.DOUBLES, -1, chosen.end)
    assert again.alert and again.text == t("alert.stale", Lang.RU)


async def test_an_end_is_closed_from_its_menu_and_back_leads_to_the_tiles(
    closing: Setup,
) -> None:
    setup = closing
    game = await play_until_alice_may(setup, Close)
    assert game.match is not None
    legal = [a for a in game.match.legal_actions() if isinstance(a, Close)]

    answer = await press(setup, game, MoveKind.CHOOSE_CLOSE)
    assert answer.text == t("answer.choose_close", Lang.RU)
    await settle()
    menu = kinds(last_hand(setup))
    assert [(d.tile, d.end) for d in menu if d.kind is MoveKind.CLOSE] == [
        (a.tile.index, a.end.value) for a in legal
    ]
    back = await press(setup, game, MoveKind.BACK)
    assert not back.alert
    await settle()
    assert MoveKind.CHOOSE_CLOSE in {d.kind for d in kinds(last_hand(setup))}

    # Another person's press, and one for an end no double of hers closes, change nothing.
    stranger = await press(setup, game, MoveKind.CLOSE, legal[0].tile.index, "D", person=BOB)
    assert stranger.alert
    wrong = next(e for e in "LRUD" if all(a.end.value != e for a in legal))
    refused = await press(setup, game, MoveKind.CLOSE, legal[0].tile.index, wrong)
    assert refused.alert and refused.text == t("alert.illegal", Lang.RU)
    assert (await setup.game()).version == game.version

    done = await press(setup, game, MoveKind.CLOSE, legal[0].tile.index, legal[0].end.value)
    assert not done.alert, done
    after = await setup.game()
    assert after.match is not None
    assert after.match.log[len(game.match.log)].action == legal[0]


async def test_a_menu_of_another_move_number_is_stale(closing: Setup) -> None:
    setup = closing
    game = await play_until_alice_may(setup, Close)
    assert game.match is not None
    for move in (len(game.match.log) - 1, len(game.match.log) + 1):
        stale = await press(setup, game, MoveKind.CHOOSE_CLOSE, move=move)
        assert stale.alert and stale.text == t("alert.stale", Lang.RU)
    assert (await setup.game()).version == game.version


async def test_a_hand_left_behind_its_game_is_mended_by_the_press_that_finds_it(
    closing: Setup,
) -> None:
    """A move committed though its caller heard it failed (the connection was lost on
    the way back from COMMIT): nobody was shown it, so Алиса's hand is one move behind
    and the computer was never woken. Her next press is answered as stale, changes
    nothing, and brings the game back into step: the computer moves, and her hand is
    drawn for the position as it stands."""
    setup = closing
    await eventually(lambda: alice_to_move(setup))
    game = await setup.game()
    arguments = greedy_press(game)
    kept = await setup.app.playing.press(*arguments)  # committed; its effects are lost
    assert not kept.value.alert, kept.value
    await settle()
    await setup.app.publisher.idle()
    assert moves_of(last_hand(setup)) == {arguments[2]}  # drawn before the move kept
    moved_on = await setup.game()
    assert moved_on.version > game.version

    stale = await setup.run(setup.app.playing.press(*arguments))
    assert stale.alert and stale.text == t("alert.stale", Lang.RU)
    assert moved_on.match is not None
    kept_moves = len(moved_on.match.log)

    async def computer_moved() -> bool:
        match = (await setup.game()).match
        return match is not None and len(match.log) > kept_moves

    await eventually(computer_moved)
    await quiet(setup)
    now = await setup.game()
    if now.status is GameStatus.PLAYING:  # Алиса to move: her hand shows this position
        assert now.match is not None and moves_of(last_hand(setup)) == {len(now.match.log)}


def moves_of(markup: InlineKeyboardMarkup) -> set[int]:
    """The move numbers the hand's move buttons were drawn for (one, in a fresh hand)."""
    return {button.move for button in kinds(markup) if button.kind in MOVES}


async def test_a_stale_press_edits_the_pressers_hand_again_whatever_its_digest_says(
    closing: Setup,
) -> None:
    """The hand may not show what was last sent to it (a deposed instance's late edit
    landed after the new leader's): a press drawn for another move edits it once more
    with the position as it stands, though the bot's digest says it is up to date."""
    setup = closing
    await quiet(setup)
    game = await setup.game()
    assert game.match is not None
    await setup.app.publisher.idle()
    shown = last_hand(setup)
    edits = len(hand_edits(setup))

    kind, tile, end = button_of(GreedyPlayer().choose(game.match.view(0)))
    stale = await press(setup, game, kind, tile, end, move=len(game.match.log) - 1)
    assert stale.alert and stale.text == t("alert.stale", Lang.RU)
    await settle()
    await setup.app.publisher.idle()
    assert (await setup.game()).version == game.version  # nothing changed
    assert len(hand_edits(setup)) == edits + 1
    assert last_hand(setup) == shown  # the same position, drawn again


def hand_edits(setup: Setup) -> list[EditMessageText]:
    return [
        call
        for call in setup.telegram.calls
        if isinstance(call, EditMessageText) and call.chat_id == ALICE.id
    ]
