"""The hand keyboard of every game by value: each legal action is reachable by exactly one
path of presses (a tile, a tile's end, a menu of several doubles or of ends to close, draw,
knock or pass), every payload fits Telegram's 64 bytes, and the use case reads each button
back as the action it was drawn for."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from aiogram.types import InlineKeyboardMarkup

from bot.app.usecases.base import Refusal
from bot.app.usecases.play import action_for, choice_for
from bot.telegram.callbacks import HandMenu, MoveCb, MoveKind, doubles_of, doubles_payload
from bot.telegram.presenter.hand import hand_keyboard, hand_text
from domino.actions import KNOCK, Action, Close, Play, PlayDoubles
from domino.geometry import End
from domino.match import Match
from domino.players import GreedyPlayer
from domino.tiles import double
from domino.variants import VARIANTS, GameVariant, find_variant
from domino.views import MatchView
from i18n import Lang

GAME_ID = 42
BIG = 2**63 - 1  # the largest game id and move number a payload may carry
MENUS = {
    MoveKind.CHOOSE_END,
    MoveKind.CHOOSE_DOUBLES,
    MoveKind.CHOOSE_CLOSE,
}


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


def moves(markup: InlineKeyboardMarkup | None) -> list[tuple[str, MoveCb]]:
    """The keyboard's move buttons as (text, unpacked data); tiles off turn are INFO."""
    assert markup is not None
    return [
        (button.text, MoveCb.unpack(button.callback_data))
        for row in markup.inline_keyboard
        for button in row
        if button.callback_data and button.callback_data.startswith("m1:")
    ]


def reachable(view: MatchView, lang: Lang = Lang.RU) -> Counter[Action]:
    """Every action a person reaches by presses from the hand keyboard, counted per path:
    a move button is read as `bot.app.usecases.play` reads it, a choice is opened as the use
    case opens it and its buttons followed (one level, as the keyboard has)."""
    found: Counter[Action] = Counter()
    move = len(view.round.history)
    for _, data in moves(hand_keyboard(view, GAME_ID, move, lang)):
        if data.kind in MENUS:
            shown, _ = choice_for(data.kind, data.tile, view.round.legal)
            menu = moves(hand_keyboard(view, GAME_ID, move, lang, choosing=shown))
            assert menu[-1][1].kind is MoveKind.BACK  # every choice has a way back
            for _, inner in menu[:-1]:
                assert inner.kind not in MENUS
                found[action_for(inner.kind, inner.tile, inner.end)] += 1
        elif data.kind not in (MoveKind.INFO, MoveKind.BACK):
            found[action_for(data.kind, data.tile, data.end)] += 1
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


@pytest.mark.parametrize("game", ["sea_kozel", "osel"])
def test_several_doubles_at_once_are_one_menu_with_one_button_each(game: str) -> None:
    view = first_position(game, PlayDoubles)
    main = moves(hand_keyboard(view, GAME_ID, 5, Lang.RU))
    opener = [(text, data) for text, data in main if data.kind is MoveKind.CHOOSE_DOUBLES]
    wanted = "⏩ Два дубля сразу" if game == "sea_kozel" else "⏩ Несколько дублей сразу"
    assert [text for text, _ in opener] == [wanted]
    menu = moves(hand_keyboard(view, GAME_ID, 5, Lang.RU, choosing=HandMenu.DOUBLES))
    doubles = [a for a in view.round.legal if isinstance(a, PlayDoubles)]
    assert [text for text, _ in menu] == [
        *(
            " + ".join(f"{p.tile.low}|{p.tile.high} {ARROW[p.end]}" for p in a.plays if p.end)
            for a in doubles
        ),
        "↩️ Назад",
    ]
    assert all(data.move == 5 and data.game == GAME_ID for _, data in menu)


ARROW = {End.LEFT: "⬅️", End.RIGHT: "➡️", End.UP: "⬆️", End.DOWN: "⬇️"}


def test_closing_an_end_is_one_menu_naming_the_end_and_the_double() -> None:
    view = first_position("osel", Close)
    main = moves(hand_keyboard(view, GAME_ID, 9, Lang.RU))
    assert [t for t, d in main if d.kind is MoveKind.CHOOSE_CLOSE] == ["🔒 Закрыть конец дублем"]
    menu = moves(hand_keyboard(view, GAME_ID, 9, Lang.EN, choosing=HandMenu.CLOSE))
    closes = [a for a in view.round.legal if isinstance(a, Close)]
    pips = dict(view.round.layout.open_ends)
    assert [text for text, _ in menu] == [
        *(f"🔒 Close {ARROW[a.end]} {pips[a.end]} with {a.tile.low}|{a.tile.high}" for a in closes),
        "↩️ Back",
    ]
    assert [(d.kind, d.tile, d.end) for _, d in menu[:-1]] == [
        (MoveKind.CLOSE, a.tile.index, a.end.value) for a in closes
    ]


def test_a_menu_with_nothing_to_offer_shows_the_tiles() -> None:
    view = first_position("kozel", Play)
    plain = hand_keyboard(view, GAME_ID, 3, Lang.RU)
    assert hand_keyboard(view, GAME_ID, 3, Lang.RU, choosing=HandMenu.DOUBLES) == plain
    assert hand_keyboard(view, GAME_ID, 3, Lang.RU, choosing=HandMenu.CLOSE) == plain
    assert not any(d.kind in MENUS - {MoveKind.CHOOSE_END} for _, d in moves(plain))


@pytest.mark.parametrize(("game", "text"), [("sport", "🤚 Пас"), ("kozel", "✊ Стучу")])
def test_the_knock_is_called_as_the_game_calls_it(game: str, text: str) -> None:
    view = first_position(game, type(KNOCK))
    knocks = [
        t for t, d in moves(hand_keyboard(view, GAME_ID, 1, Lang.RU)) if d.kind is MoveKind.KNOCK
    ]
    assert knocks == [text]


@pytest.mark.parametrize("game", VARIANTS, ids=lambda g: g.key.value)
def test_every_payload_fits_telegram_with_the_largest_ids(game: GameVariant) -> None:
    for view in positions(game, range(2)):
        shown = [hand_keyboard(view, BIG, BIG, Lang.RU)]
        shown += [hand_keyboard(view, BIG, BIG, Lang.RU, choosing=m) for m in HandMenu]
        shown += [hand_keyboard(view, BIG, BIG, Lang.RU, choosing=t) for t in view.round.hand]
        for markup in shown:
            if markup is None:
                continue
            for row in markup.inline_keyboard:
                for button in row:
                    assert button.callback_data is not None
                    assert len(button.callback_data.encode()) <= 64, button.callback_data


def test_four_doubles_on_four_ends_is_the_longest_payload() -> None:
    where = doubles_payload([(1, "L"), (2, "R"), (3, "U"), (4, "D")])
    data = MoveCb(game=BIG, move=BIG, kind=MoveKind.DOUBLES, end=where).pack()
    assert len(data.encode()) <= 64
    assert doubles_of(MoveCb.unpack(data).end) == ((1, "L"), (2, "R"), (3, "U"), (4, "D"))
    assert action_for(MoveKind.DOUBLES, -1, where) == PlayDoubles(
        (
            Play(double(1), End.LEFT),
            Play(double(2), End.RIGHT),
            Play(double(3), End.UP),
            Play(double(4), End.DOWN),
        )
    )


@pytest.mark.parametrize("where", ["3L", "3L5R6U1D2L", "7L5R", "3X5R", "3L5", "L5R", "3l5r"])
def test_a_malformed_doubles_button_does_not_parse(where: str) -> None:
    with pytest.raises(ValueError):
        MoveCb.unpack(f"m1:1:2:2:-1:{where}")
    assert doubles_of(where) == ()


def test_an_older_hand_button_still_reads_as_it_did() -> None:
    assert MoveCb.unpack("m1:7:12:p:5:L") == MoveCb(
        game=7, move=12, kind=MoveKind.PLAY, tile=5, end="L"
    )
    assert MoveCb.unpack("m1:7:0:i:-1:").kind is MoveKind.INFO


@pytest.mark.parametrize(
    ("kind", "tile", "end"),
    [
        (MoveKind.CLOSE, 3, ""),  # a close names its end
        (MoveKind.CLOSE, 28, "L"),
        (MoveKind.PLAY, -1, "L"),
        (MoveKind.DOUBLES, -1, ""),
    ],
)
def test_a_malformed_move_is_refused_as_illegal(kind: MoveKind, tile: int, end: str) -> None:
    with pytest.raises(Refusal) as refused:
        action_for(kind, tile, end)
    assert refused.value.key == "alert.illegal"


def test_a_menu_the_position_does_not_offer_is_refused() -> None:
    view = first_position("kozel", Play)
    for kind in (MoveKind.CHOOSE_DOUBLES, MoveKind.CHOOSE_CLOSE):
        with pytest.raises(Refusal):
            choice_for(kind, -1, view.round.legal)
    single = next(
        a.tile
        for a in view.round.legal
        if isinstance(a, Play)
        and sum(isinstance(b, Play) and b.tile == a.tile for b in view.round.legal) == 1
    )
    with pytest.raises(Refusal):
        choice_for(MoveKind.CHOOSE_END, single.index, view.round.legal)


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
