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

from bot.app.effects import Choice, Menu
from bot.app.people import Person
from bot.app.reply import Reply
from bot.app.usecases.lobby_options import LobbyOption
from bot.infra import perf
from bot.telegram.callbacks import HandCb, HandKind, MoveCb, action_of
from bot.telegram.presenter.replies import reply_text
from domino.actions import Action, Close, Play, PlayDoubles
from domino.ai import Level, computer
from domino.geometry import End
from domino.match import Match
from domino.players import GreedyPlayer
from domino.tiles import double
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


def greedy_press(game: GameRecord) -> tuple[int, Person, int, Action]:
    """The arguments of `Playing.play` for Алиса's greedy move in `game` (her turn)."""
    assert game.match is not None
    action = GreedyPlayer().choose(game.match.view(0))
    return game.id, ALICE, len(game.match.log), action


async def play_until_alice_may(setup: Setup, wanted: type[Action]) -> GameRecord:
    """Алиса presses her greedy move until `wanted` is among her legal actions."""
    while True:
        await eventually(lambda: alice_to_move(setup))
        game = await setup.game()
        assert game.status is GameStatus.PLAYING and game.match is not None
        if any(isinstance(a, wanted) for a in game.match.legal_actions()):
            return game
        answer = await play(setup, game, GreedyPlayer().choose(game.match.view(0)))
        assert not answer.alert, answer
        await settle()


def number_of(game: GameRecord, move: int | None) -> int:
    """`move`, else the move number `game` stands at."""
    assert game.match is not None
    return len(game.match.log) if move is None else move


async def play(
    setup: Setup,
    game: GameRecord,
    action: Action,
    *,
    person: Person = ALICE,
    move: int | None = None,
) -> Reply:
    number = number_of(game, move)
    return await setup.run(setup.app.playing.play(game.id, person, number, action))


async def choose(
    setup: Setup, game: GameRecord, choice: Choice, *, move: int | None = None
) -> Reply:
    number = number_of(game, move)
    return await setup.run(setup.app.playing.show_choice(game.id, ALICE, number, choice))


def text(reply: Reply) -> str:
    return reply_text(reply, Lang.RU)


def last_hand(setup: Setup) -> InlineKeyboardMarkup:
    """The buttons of the hand message Алиса saw last."""
    for call in reversed(setup.telegram.calls):
        if isinstance(call, EditMessageText | SendMessage) and call.chat_id == ALICE.id:
            markup = call.reply_markup
            if isinstance(markup, InlineKeyboardMarkup):
                return markup
    raise AssertionError("no hand was shown to Алиса")


def hand_data(markup: InlineKeyboardMarkup) -> list[MoveCb | HandCb]:
    """The data of the hand's buttons, in order."""
    found: list[MoveCb | HandCb] = []
    for row in markup.inline_keyboard:
        for button in row:
            data = button.callback_data or ""
            if data.startswith("m2:"):
                found.append(MoveCb.unpack(data))
            elif data.startswith("hb1:"):
                found.append(HandCb.unpack(data))
    return found


def move_buttons(markup: InlineKeyboardMarkup) -> list[MoveCb]:
    return [data for data in hand_data(markup) if isinstance(data, MoveCb)]


def hand_kinds(markup: InlineKeyboardMarkup) -> set[HandKind]:
    return {data.kind for data in hand_data(markup) if isinstance(data, HandCb)}


@pytest.mark.parametrize("doubles", ["sea_kozel", "osel"], indirect=True)
async def test_several_doubles_are_laid_at_once_from_their_menu(doubles: Setup) -> None:
    setup = doubles
    game = await play_until_alice_may(setup, PlayDoubles)
    assert game.match is not None
    legal = [a for a in game.match.legal_actions() if isinstance(a, PlayDoubles)]
    await settle()
    assert HandKind.DOUBLES in hand_kinds(last_hand(setup))

    answer = await choose(setup, game, Menu.DOUBLES)
    assert text(answer) == t("answer.choose_doubles", Lang.RU) and not answer.alert
    await settle()
    menu = hand_data(last_hand(setup))
    assert [action_of(d) for d in menu if isinstance(d, MoveCb)] == legal
    assert isinstance(menu[-1], HandCb) and menu[-1].kind is HandKind.BACK
    assert (await setup.game()).version == game.version  # a menu changes nothing

    # A forged set of doubles (the right move, the wrong tiles) is refused.
    forged = next(
        a
        for a in (
            PlayDoubles((Play(double(low), End.LEFT), Play(double(low + 1), End.RIGHT)))
            for low in (0, 2, 4)
        )
        if a not in legal
    )
    refused = await play(setup, game, forged)
    assert refused.alert and text(refused) == t("alert.illegal", Lang.RU)
    assert (await setup.game()).version == game.version

    chosen = next(d for d in menu if isinstance(d, MoveCb))
    chosen_action = action_of(chosen)
    assert chosen_action is not None
    done = await play(setup, game, chosen_action)
    assert not done.alert, done
    after = await setup.game()
    assert after.match is not None
    assert after.match.log[len(game.match.log)].action == legal[0]
    # The same button again: the game moved on, nothing more happens.
    again = await play(setup, game, chosen_action)
    assert again.alert and text(again) == t("alert.stale", Lang.RU)


async def test_an_end_is_closed_from_its_menu_and_back_leads_to_the_tiles(
    closing: Setup,
) -> None:
    setup = closing
    game = await play_until_alice_may(setup, Close)
    assert game.match is not None
    legal = [a for a in game.match.legal_actions() if isinstance(a, Close)]

    answer = await choose(setup, game, Menu.CLOSE)
    assert text(answer) == t("answer.choose_close", Lang.RU)
    await settle()
    menu = move_buttons(last_hand(setup))
    assert [action_of(d) for d in menu] == legal
    assert hand_kinds(last_hand(setup)) == {HandKind.BACK}
    back = await setup.run(setup.app.playing.show_hand(game.id, ALICE, number_of(game, None)))
    assert not back.alert
    await settle()
    assert HandKind.CLOSE in hand_kinds(last_hand(setup))

    # Another person's press, and one for an end no double of hers closes, change nothing.
    stranger = await play(setup, game, Close(legal[0].tile, End.DOWN), person=BOB)
    assert stranger.alert
    wrong = next(e for e in End if all(a.end is not e for a in legal))
    refused = await play(setup, game, Close(legal[0].tile, wrong))
    assert refused.alert and text(refused) == t("alert.illegal", Lang.RU)
    assert (await setup.game()).version == game.version

    done = await play(setup, game, legal[0])
    assert not done.alert, done
    after = await setup.game()
    assert after.match is not None
    assert after.match.log[len(game.match.log)].action == legal[0]


async def test_a_menu_of_another_move_number_is_stale(closing: Setup) -> None:
    setup = closing
    game = await play_until_alice_may(setup, Close)
    assert game.match is not None
    for move in (len(game.match.log) - 1, len(game.match.log) + 1):
        stale = await choose(setup, game, Menu.CLOSE, move=move)
        assert stale.alert and text(stale) == t("alert.stale", Lang.RU)
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
    kept = await setup.app.playing.play(*arguments)  # committed; its effects are lost
    assert not kept.value.alert, kept.value
    await settle()
    await setup.app.publisher.idle()
    assert moves_of(last_hand(setup)) == {arguments[2]}  # drawn before the move kept
    moved_on = await setup.game()
    assert moved_on.version > game.version

    stale = await setup.run(setup.app.playing.play(*arguments))
    assert stale.alert and text(stale) == t("alert.stale", Lang.RU)
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
    return {button.move for button in move_buttons(markup)}


async def test_a_stale_press_edits_the_pressers_hand_again_whatever_its_digest_says(
    closing: Setup,
) -> None:
    """The hand may not show what was last sent to it (a deposed instance's late edit
    landed after the new leader's): a press drawn for another move edits it once more
    with the position as it stands, though the bot's digest says it is up to date.

    Past the bot's capacity most presses are such repeats, on a hand whose edit is still
    on its way: one the newest record the bot holds already proves stale is answered
    with no hop to the database and edits only the presser's hand (no table re-checked);
    a press the record cannot judge (a stranger's, the current move) still goes to the
    database as ever."""
    setup = closing
    await quiet(setup)
    game = await setup.game()
    assert game.match is not None
    await setup.app.publisher.idle()
    shown = last_hand(setup)
    edits = len(hand_edits(setup))
    calls = len(setup.telegram.calls)

    greedy = GreedyPlayer().choose(game.match.view(0))
    before = perf.snapshot()
    stale = await play(setup, game, greedy, move=len(game.match.log) - 1)
    assert stale.alert and text(stale) == t("alert.stale", Lang.RU)
    assert perf.since(before).get("db.hops", 0) == 0
    await settle()
    await setup.app.publisher.idle()
    assert (await setup.game()).version == game.version  # nothing changed
    assert len(hand_edits(setup)) == edits + 1
    assert len(setup.telegram.calls) == calls + 1  # and nothing else
    assert last_hand(setup) == shown  # the same position, drawn again

    stranger = await play(setup, game, greedy, move=len(game.match.log) - 1, person=BOB)
    assert text(stranger) == t("alert.not_in_game", Lang.RU)
    before = perf.snapshot()
    current = await play(setup, game, greedy)
    assert not current.alert, current
    assert perf.since(before).get("db.transactions", 0) >= 1
    assert (await setup.game()).version > game.version


def hand_edits(setup: Setup) -> list[EditMessageText]:
    return [
        call
        for call in setup.telegram.calls
        if isinstance(call, EditMessageText) and call.chat_id == ALICE.id
    ]
