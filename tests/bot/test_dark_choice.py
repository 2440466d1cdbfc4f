"""Втемную: a tile turned up that fits both ends is its owner's to lay («выкладывают на
поле», seeds/002; `Ruleset.flip_choice`, on in Втемную). While it waits
(`RoundView.turned_up`, public) the owner's face-down hand offers its two ends as the
choice of ends of any tile that fits two («2|3 на ⬅️ 2» / «2|3 на ➡️ 3»), and says so;
the other seat's hand says whose turn it is, as on any turn; the group's caption names
the tile; the flip is answered with the choice to make.

By value on a position of a seeded match, then through the application (a real
database file, the fake Bot API, `FakeTime`): a game stored while the tile waits loads
back waiting, after a restart too, and its hand offers the two ends; the end pressed is
the end the tile lies on; a choice nobody made in time is made by a computer, with no
strike. A ruleset stored before the option keeps laying such a tile on the first end."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiogram.methods import EditMessageText, SendMessage
from aiogram.types import InlineKeyboardMarkup

from bot.app.people import Person
from bot.app.usecases.play import flip_answer
from bot.telegram.callbacks import HandCb, HandKind, MoveCb, action_of
from bot.telegram.presenter.common import tile_label
from bot.telegram.presenter.hand import hand_text, tile_refusal
from bot.telegram.presenter.hand_keyboard import away_keyboard, hand_keyboard
from bot.telegram.presenter.moves import ARROWS
from bot.telegram.presenter.replies import reply_text
from bot.telegram.presenter.table import Shown, event_text, recent_events, table_caption
from domino.actions import FLIP, Play, Played, TurnedUp
from domino.geometry import End
from domino.match import Match
from domino.rules import Ruleset
from domino.tiles import Tile
from domino.variants import find_variant
from domino.views import MatchView
from i18n import Lang, t
from storage import repo
from storage.connect import open_database
from tests.bot.app_setup import (
    ALICE,
    FakeTime,
    Setup,
    eventually,
    make,
    settle,
    two_seated,
)

NAMES = ("Алиса", "Боб")
BOB = Person(502, "Боб", language_code="ru")
DARK = find_variant("dark").ruleset
TILE = re.compile(r"(?<![0-9])[0-6][|-][0-6](?![0-9])")
GAME = 1


def first_legal(match: Match) -> None:
    """One action of the seat to move: its first legal one (a flip while face down)."""
    seat = match.turn
    assert seat is not None
    match.apply(match.legal_actions()[0], seat)


def waiting(ruleset: Ruleset = DARK) -> Match:
    """A two-seat match of Втемную in its first round, seat 0 to move with a tile it
    turned up that fits both ends (distinct pips) waiting for its end; the seats play
    their first legal action."""
    for seed in range(50):
        match = Match.new(ruleset, 2, seed=seed)
        while not match.over and match.round_no == 1:
            rnd = match.round
            if match.turn == 0 and rnd.turned_up is not None:
                pips = {pip for _, pip in rnd.layout.open_ends()}
                if len(pips) == 2:
                    return match
            first_legal(match)
    raise AssertionError("no tile turned up that fits both ends in 50 matches")


@pytest.fixture(scope="module")
def match() -> Match:
    return waiting()


def ends_of(view: MatchView) -> dict[End, int]:
    return dict(view.round.layout.open_ends)


def rows(markup: InlineKeyboardMarkup | None) -> list[list[tuple[str, MoveCb | HandCb]]]:
    assert markup is not None
    return [
        [(b.text, unpack(b.callback_data)) for b in row if b.callback_data]
        for row in markup.inline_keyboard
    ]


def unpack(data: str) -> MoveCb | HandCb:
    return MoveCb.unpack(data) if data.startswith("m2:") else HandCb.unpack(data)


# --- by value -------------------------------------------------------------------------------


def test_the_option_is_on_in_the_dark_and_stored_with_new_games() -> None:
    assert DARK.flip_choice and DARK.to_dict()["flip_choice"] is True
    assert Ruleset.from_dict(json.loads(json.dumps(DARK.to_dict()))) == DARK


def test_the_owner_is_offered_the_two_ends_as_for_any_tile_that_fits_two(match: Match) -> None:
    view = match.view(0)
    tile = view.round.turned_up
    assert tile is not None and view.round.hand == () and view.round.face_down[0]
    ends = ends_of(view)
    label = tile_label(tile)
    plays = [(play, play.end) for play in view.round.legal if isinstance(play, Play)]
    expected = [
        (f"{label} на {ARROWS[end]} {ends[end]}", MoveCb(game=7, move=12, action=str(play)))
        for play, end in plays
        if end is not None
    ]
    assert len(expected) == 2
    assert rows(hand_keyboard(view, 7, 12, Lang.RU)) == [expected]
    assert {action_of(cb) for _, cb in expected} == set(view.round.legal)
    # The same choice is hinted where the group allows hints; no way back, no flip.
    hint = ("💡 Подсказка", HandCb(game=7, move=12, kind=HandKind.HINT))
    assert rows(hand_keyboard(view, 7, 12, Lang.RU, hints=True)) == [expected, [hint]]
    english = rows(hand_keyboard(view, 7, 12, Lang.EN))
    assert [text for text, _ in english[0]] == [
        f"{label} on {ARROWS[end]} {ends[end]}" for end in (End.LEFT, End.RIGHT)
    ]


def test_the_owners_hand_says_the_tile_fits_both_ends_and_to_pick_one(match: Match) -> None:
    view = match.view(0)
    tile = view.round.turned_up
    assert tile is not None
    ends = ends_of(view)
    text = hand_text(view, NAMES, "Двор", Lang.RU)
    lines = text.splitlines()
    assert lines[1] == "<b>Ваш ход!</b>"
    # The count is of the tiles still face down: the one turned up is in sight.
    n = view.round.hand_counts[0] - 1
    assert lines[2].startswith(f"⬛ Ваши кости лежат рубашкой вверх: {n} ")
    assert lines[3] == (
        f"Открылась кость {tile_label(tile)}: она подходит к обоим концам. "
        "Выберите, к какому её положить."
    )
    assert f"концы: ⬅️ {ends[End.LEFT]} · ➡️ {ends[End.RIGHT]}" in text
    assert "Открыть верхнюю" not in text
    assert set(TILE.findall(text)) == {tile_label(tile)}  # no other tile: they lie face down
    english = hand_text(view, NAMES, "Yard", Lang.EN)
    assert f"You turned up {tile_label(tile)}: it fits both ends. Choose the end" in english
    # A press on an old keyboard's stack says the same.
    assert tile_refusal(view, Lang.RU) == lines[3]


def test_the_other_seat_is_told_whose_turn_it_is_as_on_any_turn(match: Match) -> None:
    view = match.view(1)
    assert view.round.turned_up is not None and view.round.turn == 0
    text = hand_text(view, NAMES, "Двор", Lang.RU)
    assert "Ходит Алиса, стол — в группе." in text and "обоим концам" not in text
    # No move for them: every button (their stack, or their tiles turned up) tells whose
    # turn it is.
    info = HandCb(game=7, move=0, kind=HandKind.INFO)
    pressed = [cb for row in rows(hand_keyboard(view, 7, 12, Lang.RU)) for _, cb in row]
    assert pressed and all(cb == info for cb in pressed)
    # A person a computer stands in for: their stack and «I'm back», no choice to make.
    away = away_keyboard(match.view(0), 7, Lang.RU)
    assert not any(" на " in b.text for row in away.inline_keyboard for b in row)


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        (Lang.RU, "Алиса открывает 3|5: подходит к обоим концам — выбирает конец"),
        (Lang.EN, "Алиса turns up 3|5, which fits both ends, and picks the end"),
    ],
)
def test_the_group_reads_the_tile_turned_up_and_the_choice(lang: Lang, text: str) -> None:
    assert event_text(Shown(TurnedUp(0, Tile.parse("3-5"))), NAMES, "dark", lang) == text


def test_the_caption_names_the_tile_while_it_waits_and_the_play_after(match: Match) -> None:
    view = match.view(None)
    tile = view.round.turned_up
    assert tile is not None
    assert recent_events(view)[-1] == Shown(TurnedUp(0, tile))
    caption = table_caption(view, NAMES, Lang.RU)
    said = f"Алиса открывает {tile_label(tile)}: подходит к обоим концам — выбирает конец"
    assert caption.splitlines()[-1].endswith(said), caption
    assert "Ход: <b>Алиса</b>" in caption
    laid = Match.from_json(match.to_json())
    laid.apply(laid.legal_actions()[-1], 0)
    after = table_caption(laid.view(None), NAMES, Lang.RU).splitlines()[-1]
    assert after.endswith(f"{said} → Алиса кладёт кость"), after


def test_the_flip_is_answered_with_the_choice_to_make(match: Match) -> None:
    before = Match.replay(match.ruleset, match.players, match.seed, match.log[:-1])
    assert before.turn == 0 and before.legal_actions() == (FLIP,)
    round_no = before.round_no
    event = before.apply(FLIP, 0)
    assert isinstance(event, TurnedUp)
    key = flip_answer(before, 0, round_no, event)
    assert key == "answer.flip_choice"
    assert t(key, Lang.RU) == "Кость подходит к обоим концам — выберите, к какому её положить."
    assert t(key, Lang.EN) == "It fits both ends: choose the end to lay it on."


def test_a_match_stored_mid_choice_reads_back_waiting(match: Match) -> None:
    stored = Match.from_json(match.to_json())
    assert stored.round.turned_up == match.round.turned_up and stored.turn == 0
    assert stored.legal_actions() == match.legal_actions()
    assert stored.view(0) == match.view(0)


def test_a_ruleset_stored_before_the_option_lays_the_tile_on_the_first_end() -> None:
    """A ruleset stored without the option (as every game of Втемную stored before it)
    reads back without it: whole matches of it never wait for a choice, and a tile turned
    up that fits both ends goes on the LEFT end, the turn passing."""
    old = {key: value for key, value in DARK.to_dict().items() if key != "flip_choice"}
    ruleset = Ruleset.from_dict(json.loads(json.dumps(old)))
    assert not ruleset.flip_choice and "flip_choice" not in ruleset.to_dict()
    both = 0
    for seed in range(3):
        match = Match.new(ruleset, 2, seed=seed)
        while not match.over:
            seat = match.turn
            assert seat is not None
            rnd, round_no = match.round, match.round_no
            top = rnd.stack(seat)[0] if rnd.face_down(seat) else None
            fits = [end for end, pip in rnd.layout.open_ends() if top and top.has(pip)]
            event = match.apply(match.legal_actions()[0], seat)
            assert not isinstance(event, TurnedUp) and match.round.turned_up is None
            if len(fits) == 2:
                assert top is not None and event == Played(seat, top, End.LEFT)
                assert match.turn != seat or match.round_no != round_no or match.over
                both += 1
        assert Match.from_json(match.to_json()).ruleset == ruleset
    assert both


# --- through the application ------------------------------------------------------------------


@dataclass
class Bot:
    """The application over one database file, restartable on it as the bot is."""

    path: Path
    time: FakeTime
    setup: Setup | None = None

    async def start(self) -> Setup:
        self.setup = make(await open_database(self.path), self.time, seed=7)
        await self.setup.app.resume()
        return self.setup

    async def stop(self) -> None:
        if self.setup is not None:
            await self.setup.close()
            await self.setup.db.close()
            self.setup = None

    async def restart(self) -> Setup:
        await self.stop()
        setup = await self.start()
        await quiet(setup)
        return setup


async def quiet(setup: Setup) -> None:
    await settle()
    await setup.app.publisher.idle()


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[Bot]:
    """Алиса (seat 0) and Боб in a group game of Втемную, whose match is then replaced by
    `waiting()`, stored as the bot stores a game."""
    bot = Bot(tmp_path / "choice.sqlite3", FakeTime())
    setup = await bot.start()
    try:
        await two_seated(setup, "dark", BOB)
        await quiet(setup)
        game = await setup.game(GAME)
        async with setup.db.transaction() as tx:
            await repo.save_game(tx, dataclasses.replace(game, match=waiting()))
        yield bot
    finally:
        await bot.stop()


def hands_to(setup: Setup, user_id: int) -> list[tuple[str, InlineKeyboardMarkup | None]]:
    """Every text the bot sent or edited into `user_id`'s private chat, with its buttons."""
    sent: list[tuple[str, InlineKeyboardMarkup | None]] = []
    for call in setup.telegram.calls:
        if isinstance(call, SendMessage | EditMessageText) and call.chat_id == user_id:
            markup = call.reply_markup
            assert markup is None or isinstance(markup, InlineKeyboardMarkup)
            sent.append((call.text or "", markup))
    return sent


async def test_the_end_pressed_is_where_the_tile_lies(bot: Bot) -> None:
    setup = bot.setup
    assert setup is not None
    match = (await setup.game(GAME)).match
    assert match is not None and match.ruleset == DARK and match.turn == 0
    tile = match.round.turned_up
    assert tile is not None
    right = dict(match.round.layout.open_ends())[End.RIGHT]
    # A flip pressed again is refused and changes nothing.
    move = len(match.log)
    refused = await setup.run(setup.app.playing.play(GAME, ALICE, move, FLIP))
    assert refused.alert and reply_text(refused, Lang.RU) == t("alert.illegal", Lang.RU)
    answer = await setup.run(setup.app.playing.play(GAME, ALICE, move, Play(tile, End.RIGHT)))
    assert not answer.alert
    stored = (await setup.game(GAME)).match
    assert stored is not None and stored.round.turned_up is None and stored.turn == 1
    assert stored.round.history[-1] == Played(0, tile, End.RIGHT)
    assert stored.round.layout.open_ends()[-1] == (End.RIGHT, tile.other(right))


async def test_after_a_restart_the_hand_offers_the_ends_and_time_lays_the_tile(
    bot: Bot,
) -> None:
    """The bot restarts on the stored game: Алиса's hand offers the two ends; her time
    runs out, and the tile is laid on the end a computer picks, with no strike (she
    moved this turn: she turned the tile up)."""
    setup = await bot.restart()
    match = (await setup.game(GAME)).match
    assert match is not None and match.turn == 0
    tile = match.round.turned_up
    assert tile is not None
    text, markup = hands_to(setup, ALICE.id)[-1]
    assert "подходит к обоим концам" in text, text
    plays = {action_of(cb) for row in rows(markup) for _, cb in row if isinstance(cb, MoveCb)}
    assert plays == set(match.legal_actions())
    clock = setup.app.timers.clock_of(GAME)
    assert clock is not None and clock.move == len(match.log)
    await setup.time.advance(clock.deadline - setup.time.now + 1)

    async def laid() -> bool:
        stored = (await setup.game(GAME)).match
        return stored is not None and stored.round.turned_up is None

    await eventually(laid)
    game = await setup.game(GAME)
    assert game.match is not None and game.seats[0].strikes == 0
    last = game.match.log[len(match.log)]
    assert last.seat == 0 and isinstance(last.action, Play) and last.action.tile == tile
