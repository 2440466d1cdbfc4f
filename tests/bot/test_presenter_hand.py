"""The hand keyboard of every game by value: each legal action is reachable by exactly one
path of presses (a tile, a tile's end, a menu of several doubles or of ends to close, draw,
knock or pass), a move button carries the engine's text of its action and reads back as
that action, every payload fits Telegram's 64 bytes, and data that names no action or
choice (forged, or an `m1` button of the layout before) is not read as one."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from aiogram.types import InlineKeyboardMarkup

from bot.app.effects import Menu
from bot.app.usecases.base import Refusal
from bot.app.usecases.play import choice_key
from bot.telegram.callbacks import (
    CHOICES,
    MOVE_NUMBER_MAX,
    SQLITE_MAX,
    HandCb,
    HandKind,
    MoveCb,
    action_of,
    choice_of,
)
from bot.telegram.presenter.hand import hand_text
from bot.telegram.presenter.hand_keyboard import hand_keyboard
from domino.actions import KNOCK, Action, Close, Knock, Play, PlayDoubles, parse_action
from domino.geometry import End
from domino.match import Match
from domino.players import GreedyPlayer
from domino.tiles import double, tile
from domino.variants import VARIANTS, GameVariant, find_variant
from domino.views import MatchView
from i18n import Lang

GAME_ID = 42


def positions(game: GameVariant, seeds: range, players: int = 4) -> Iterator[MatchView]:
    """The view of the seat to move at every turn of whole matches played by computers."""
    for seed in seeds:
        match = Match.new(game.ruleset, players, seed=seed)
        while not match.over:
            seat = match.turn
            assert seat is not None
            yield match.view(seat)
            match.take_turn(seat, GreedyPlayer())


def first_position(game: str, wanted: type[Action], players: int = 4) -> MatchView:
    """The first position of `game` (seeds in order) where `wanted` is legal."""
    for view in positions(find_variant(game), range(50), players):
        if any(isinstance(action, wanted) for action in view.round.legal):
            return view
    raise AssertionError(f"no {wanted.__name__} in 50 matches of {game}")


def buttons(markup: InlineKeyboardMarkup | None) -> list[tuple[str, MoveCb | HandCb]]:
    """The keyboard's buttons as (text, unpacked data), in order."""
    assert markup is not None
    found: list[tuple[str, MoveCb | HandCb]] = []
    for row in markup.inline_keyboard:
        for button in row:
            data = button.callback_data or ""
            unpacked = MoveCb.unpack(data) if data.startswith("m2:") else HandCb.unpack(data)
            found.append((button.text, unpacked))
    return found


def moves(markup: InlineKeyboardMarkup | None) -> list[tuple[str, Action | None]]:
    """The keyboard's move buttons as (text, the action their data carries)."""
    return [(text, action_of(data)) for text, data in buttons(markup) if isinstance(data, MoveCb)]


def kinds(markup: InlineKeyboardMarkup | None) -> list[tuple[str, HandKind]]:
    """The keyboard's buttons that make no move, as (text, kind)."""
    return [(text, data.kind) for text, data in buttons(markup) if isinstance(data, HandCb)]


def reachable(view: MatchView, lang: Lang = Lang.RU) -> Counter[Action]:
    """Every action a person reaches by presses from the hand keyboard, counted per path:
    a move button is read as the handler reads it, a choice is opened as the use case
    opens it and its buttons followed (one level, as the keyboard has)."""
    found: Counter[Action] = Counter()
    move = len(view.round.history)
    for _, data in buttons(hand_keyboard(view, GAME_ID, move, lang)):
        if isinstance(data, MoveCb):
            action = action_of(data)
            assert action is not None and data.move == move
            found[action] += 1
        elif data.kind in CHOICES:
            shown = choice_of(data)
            assert shown is not None
            choice_key(shown, view.round.legal)  # the use case opens it
            menu = buttons(hand_keyboard(view, GAME_ID, move, lang, choosing=shown))
            back = menu[-1][1]
            assert isinstance(back, HandCb) and back.kind is HandKind.BACK  # a way back
            for _, inner in menu[:-1]:
                assert isinstance(inner, MoveCb)
                action = action_of(inner)
                assert action is not None
                found[action] += 1
        else:
            assert data.kind is HandKind.INFO and data.move == 0, data
    return found


@pytest.mark.parametrize("game", VARIANTS, ids=lambda g: g.key.value)
def test_every_legal_action_is_reachable_by_exactly_one_path(game: GameVariant) -> None:
    checked = 0
    # Three matches at least; more where matches are short (Крест's greedy turns lay all
    # that fits, so four players empty their hands in a few turns).
    for seeds in (range(3), range(3, 10), range(10, 40)):
        for view in positions(game, seeds):
            assert reachable(view) == Counter(view.round.legal), view.round.legal
            checked += 1
        if checked > 100:
            break
    assert checked > 100


@pytest.mark.parametrize("game", VARIANTS, ids=lambda g: g.key.value)
def test_a_move_button_carries_the_engines_text_of_its_action(game: GameVariant) -> None:
    for view in positions(game, range(2)):
        for action in view.round.legal:
            data = MoveCb(game=GAME_ID, move=3, action=str(action))
            assert action_of(MoveCb.unpack(data.pack())) == action == parse_action(str(action))


@pytest.mark.parametrize("game", ["sea_kozel", "osel"])
def test_several_doubles_at_once_are_one_menu_with_one_button_each(game: str) -> None:
    view = first_position(game, PlayDoubles)
    main = kinds(hand_keyboard(view, GAME_ID, 5, Lang.RU))
    opener = [text for text, kind in main if kind is HandKind.DOUBLES]
    wanted = "⏩ Два дубля сразу" if game == "sea_kozel" else "⏩ Несколько дублей сразу"
    assert opener == [wanted]
    menu = hand_keyboard(view, GAME_ID, 5, Lang.RU, choosing=Menu.DOUBLES)
    doubles = [a for a in view.round.legal if isinstance(a, PlayDoubles)]
    assert moves(menu) == [
        (" + ".join(f"{p.tile.low}|{p.tile.high} {ARROW[p.end]}" for p in a.plays if p.end), a)
        for a in doubles
    ]
    assert [text for text, _ in buttons(menu)][-1] == "↩️ Назад"
    assert all(data.move == 5 and data.game == GAME_ID for _, data in buttons(menu))


ARROW = {End.LEFT: "⬅️", End.RIGHT: "➡️", End.UP: "⬆️", End.DOWN: "⬇️"}


def test_closing_an_end_is_one_menu_naming_the_end_and_the_double() -> None:
    view = first_position("osel", Close)
    main = kinds(hand_keyboard(view, GAME_ID, 9, Lang.RU))
    assert [t for t, kind in main if kind is HandKind.CLOSE] == ["🔒 Закрыть конец дублем"]
    menu = hand_keyboard(view, GAME_ID, 9, Lang.EN, choosing=Menu.CLOSE)
    closes = [a for a in view.round.legal if isinstance(a, Close)]
    pips = dict(view.round.layout.open_ends)
    assert [text for text, _ in buttons(menu)] == [
        *(f"🔒 Close {ARROW[a.end]} {pips[a.end]} with {a.tile.low}|{a.tile.high}" for a in closes),
        "↩️ Back",
    ]
    assert [action for _, action in moves(menu)] == closes


def test_a_menu_with_nothing_to_offer_shows_the_tiles() -> None:
    view = first_position("kozel", Play)
    plain = hand_keyboard(view, GAME_ID, 3, Lang.RU)
    assert hand_keyboard(view, GAME_ID, 3, Lang.RU, choosing=Menu.DOUBLES) == plain
    assert hand_keyboard(view, GAME_ID, 3, Lang.RU, choosing=Menu.CLOSE) == plain
    assert not {HandKind.DOUBLES, HandKind.CLOSE} & {kind for _, kind in kinds(plain)}


@pytest.mark.parametrize(("game", "text"), [("sport", "🤚 Пас"), ("kozel", "✊ Стучу")])
def test_the_knock_is_called_as_the_game_calls_it(game: str, text: str) -> None:
    view = first_position(game, type(KNOCK))
    knocks = [t for t, a in moves(hand_keyboard(view, GAME_ID, 1, Lang.RU)) if a == KNOCK]
    assert knocks == [text]


@pytest.mark.parametrize("game", VARIANTS, ids=lambda g: g.key.value)
def test_every_payload_fits_telegram_with_the_largest_ids(game: GameVariant) -> None:
    for view in positions(game, range(2)):
        big = SQLITE_MAX, MOVE_NUMBER_MAX
        shown = [hand_keyboard(view, *big, Lang.RU, hints=True)]
        shown += [hand_keyboard(view, *big, Lang.RU, choosing=m) for m in Menu]
        shown += [hand_keyboard(view, *big, Lang.RU, choosing=t) for t in view.round.hand]
        for markup in shown:
            if markup is None:
                continue
            for row in markup.inline_keyboard:
                for button in row:
                    assert button.callback_data is not None
                    assert len(button.callback_data.encode()) <= 64, button.callback_data


FOUR_DOUBLES = PlayDoubles(
    (
        Play(double(3), End.LEFT),
        Play(double(4), End.RIGHT),
        Play(double(5), End.UP),
        Play(double(6), End.DOWN),
    )
)


def test_four_doubles_on_four_ends_is_the_longest_payload() -> None:
    data = MoveCb(game=SQLITE_MAX, move=MOVE_NUMBER_MAX, action=str(FOUR_DOUBLES)).pack()
    assert data == "m2:9223372036854775807:999999999:p3-3L+p4-4R+p5-5U+p6-6D"
    assert len(data.encode()) == 56
    assert action_of(MoveCb.unpack(data)) == FOUR_DOUBLES
    ends = HandCb(game=SQLITE_MAX, move=MOVE_NUMBER_MAX, kind=HandKind.ENDS, tile="6-6")
    assert len(ends.pack().encode()) < 56
    with pytest.raises(ValueError):  # a move number beyond the bound is no button
        MoveCb(game=1, move=MOVE_NUMBER_MAX + 1, action="d")


@pytest.mark.parametrize(
    "data",
    [
        "m2:1:2:",  # no action
        "m2:1:2:p2-5X",  # no such end
        "m2:1:2:p2-7L",  # no such pip
        "m2:1:2:P2-5L",
        "m2:1:2:p2-5L:1",
        "m2:1:1000000000:d",  # beyond the move numbers a button carries
        "m2:-1:2:d",
        "m2:1:2:" + "+".join(["p1-1L"] * 5),  # too long for any action
        "hb1:1:2:e:7-7",
        "hb1:1:2:e:25",
        "hb1:1:2:x:",
        "m1:7:12:p:5:L",  # the layout before the engine's action text: out of date
        "m1:7:0:i:-1:",
    ],
)
def test_malformed_or_old_hand_data_is_no_button(data: str) -> None:
    for button in (MoveCb, HandCb):
        with pytest.raises((ValueError, TypeError)):
            button.unpack(data)


@pytest.mark.parametrize("text", ["z", "p2-", "c2-2", "p2-2L+", "d+d", "p2-2L+k", "pp", "e+e"])
def test_an_action_text_that_names_no_action_is_refused(text: str) -> None:
    assert action_of(MoveCb(game=1, move=2, action=text)) is None


def test_a_forged_action_is_read_and_left_to_the_rules() -> None:
    """Text that names an action reads as it, legal or not: the use case checks it
    against the legal actions now (`Playing.play`), so a double «laid» as two, or a
    tile of another hand, is refused there and changes nothing."""
    forged = MoveCb(game=1, move=2, action="p2-5R+p3-3L")
    assert action_of(forged) == PlayDoubles(
        (Play(tile(2, 5), End.RIGHT), Play(double(3), End.LEFT))
    )
    assert action_of(MoveCb(game=1, move=2, action="k")) == Knock()


def test_a_choice_without_its_tile_opens_nothing() -> None:
    assert choice_of(HandCb(game=1, move=2, kind=HandKind.ENDS)) is None
    assert choice_of(HandCb(game=1, move=2, kind=HandKind.ENDS, tile="2-5")) == tile(2, 5)
    assert choice_of(HandCb(game=1, move=2, kind=HandKind.CLOSE)) is Menu.CLOSE
    assert choice_of(HandCb(game=1, move=2, kind=HandKind.BACK)) is None


def test_a_menu_the_position_does_not_offer_is_refused() -> None:
    view = first_position("kozel", Play)
    for menu in Menu:
        with pytest.raises(Refusal):
            choice_key(menu, view.round.legal)
    single = next(
        a.tile
        for a in view.round.legal
        if isinstance(a, Play)
        and sum(isinstance(b, Play) and b.tile == a.tile for b in view.round.legal) == 1
    )
    with pytest.raises(Refusal):
        choice_key(single, view.round.legal)


@pytest.mark.parametrize(
    ("game", "players", "pairs", "bazaar"),
    [("sport", 4, True, False), ("osel", 4, False, False), ("osel", 2, False, True)],
)
def test_a_real_hand_names_the_partner_apart_and_the_bazaar_only_if_dealt(
    game: str, players: int, pairs: bool, bazaar: bool
) -> None:
    view = first_position(game, Play, players)
    names = ("John", "Алиса", "Боб", "Вера")[:players]
    text = hand_text(view, names, "Дворик", Lang.RU)
    assert ("Костей у партнёра: " in text) is pairs and ("базар:" in text) is bazaar, text
    if pairs:
        seat = view.round.seat
        assert seat is not None
        partner = names[(seat + 2) % 4]
        assert f"Костей у партнёра: {partner} — " in text and f"соперников: {partner}" not in text
