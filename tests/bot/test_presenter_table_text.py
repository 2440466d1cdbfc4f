"""The hand's and the caption's text where the newcomer's play-through found them
wanting: a cut name ends a sentence on its «…» alone; the open ends are named as the
picture labels them, a closed end shown closed, an empty spinner arm in words."""

from __future__ import annotations

from bot.app.names import NAME_LIMIT
from bot.telegram.presenter.hand import ends_text, hand_text
from bot.telegram.presenter.moves import ARROWS
from bot.telegram.presenter.table import table_caption
from domino.actions import Close
from domino.geometry import End
from domino.layout import new_layout
from domino.match import Match
from domino.players import GreedyPlayer
from domino.rules import LayoutKind
from domino.tiles import Tile
from domino.variants import find_variant
from domino.views import MatchView
from i18n import Lang
from render import demo

LONG = "Вильгельмина Константиновна Преображенская"
NAMES = ("Маша", "Алексей")


def test_a_cut_name_ends_a_sentence_on_its_ellipsis_alone() -> None:
    """«Ходит Вильгельмо….» read as a typo: the name's «…» stands for the full stop."""
    assert len(LONG) > NAME_LIMIT
    match = Match.new(find_variant("kozel").ruleset, 2, seed=1)
    turn = match.turn
    assert turn is not None
    names = ["Маша", "Маша"]
    names[turn] = LONG
    waiting = match.view(1 - turn)
    for here in (False, True):
        text = hand_text(waiting, names, "Чат", Lang.RU, here=here)
        assert "…" in text and "…." not in text, text
    sport = Match.new(find_variant("sport").ruleset, 4, seed=11)
    assert sport.turn is not None and sport.view(None).round.turned
    names = ["Маша", "Оля", "Вика", "Боб"]
    names[sport.turn] = LONG
    caption = table_caption(sport.view(None), names, Lang.RU)
    assert "ходит " + LONG[:10] in caption and "…." not in caption, caption


def closed_osel_hand() -> tuple[MatchView, End]:
    """The view of the seat to move in the first Осёл position, of whole matches played
    by computers, with an end closed by a face-down double (O-3)."""
    for seed in range(40):
        match = Match.new(find_variant("osel").ruleset, 2, seed=seed)
        while not match.over:
            seat = match.turn
            assert seat is not None
            view = match.view(seat)
            closed = view.round.layout.closed_ends
            if closed and view.round.layout.open_ends:
                return view, closed[0]
            legal = view.round.legal
            close = next((a for a in legal if isinstance(a, Close)), None)
            if close is not None:
                match.apply(close, seat)
            else:
                match.take_turn(seat, GreedyPlayer())
    raise AssertionError("no end closed in 40 matches of Осёл")


def test_a_closed_end_stays_in_the_hands_list_of_ends_as_closed() -> None:
    """O-3: «концы: ⬅️ 3 · ⬆️ 5» left the closed end out, so an arrow of the picture went
    missing from the hand; it is listed in its place, «➡️ 🔒»."""
    view, closed = closed_osel_hand()
    text = ends_text(view, Lang.RU)
    assert text is not None
    terms = text.removeprefix("концы: ").split(" · ")
    assert f"{ARROWS[closed]} 🔒" in terms
    listed = [term.split()[0] for term in terms]
    ends = {end for end, _ in view.round.layout.open_ends} | set(view.round.layout.closed_ends)
    assert listed == [ARROWS[end] for end in End if end in ends]
    assert f"\n{text}\n" in hand_text(view, NAMES, "Двор", Lang.RU)
    caption = table_caption(view, NAMES, Lang.RU)  # the caption counts closed ends apart
    assert caption.count("🔒") == 1 and "🔒 закрыт 1 конец" in caption, caption


def test_an_empty_spinner_arm_says_why_it_counts_nothing() -> None:
    """F-3: «⬆️ 6 (0)» was a riddle; the arm now says it is still empty."""
    layout = new_layout(LayoutKind.FIRST_DOUBLE)
    for tile, end in (("6-6", None), ("6-0", End.LEFT), ("6-3", End.RIGHT)):
        layout.place(Tile.parse(tile), end)
    fives = find_variant("all_fives").ruleset
    view = demo.match_view(layout.view(), 2, ruleset=fives, bazaar=14)
    assert ends_text(view, Lang.RU) == (
        "концы: ⬅️ 0 · ➡️ 3 · ⬆️ 6 — пока пусто (0) · ⬇️ 6 — пока пусто (0) = 3"
    )
    assert ends_text(view, Lang.EN) == (
        "open ends: ⬅️ 0 · ➡️ 3 · ⬆️ 6 — nothing on it yet (0) · ⬇️ 6 — nothing on it yet (0) = 3"
    )
