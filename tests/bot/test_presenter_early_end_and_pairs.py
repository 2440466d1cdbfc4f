"""By value: a match ended early as its messages show it, the partner in a pair game's
hand and the seats in turn order."""

from __future__ import annotations

from bot.telegram.presenter import ended_view, hand_text, table_caption
from domino.match import Match
from domino.players import GreedyPlayer
from domino.variants import find_variant
from i18n import Lang

NAMES = ["Аня", "Боб", "Вера", "Гена"]


def pairs_match(to_move: int) -> Match:
    """A Козёл match in pairs, ((0, 2), (1, 3)), played by computers until `to_move`
    is to move (the deal of seed 1, the same every run)."""
    match = Match.new(find_variant("kozel").ruleset.with_options(teams=True), 4, seed=1)
    while match.turn != to_move:
        seat = match.turn
        assert seat is not None
        match.take_turn(seat, GreedyPlayer())
    return match


def test_the_hand_names_the_partner_and_says_when_the_partner_moves() -> None:
    match = pairs_match(to_move=2)
    lines = hand_text(match.view(0), NAMES, "Двор", Lang.RU).split("\n")
    assert lines[1:3] == ["🤝 Ваш партнёр — Вера", "Ходит ваш партнёр — Вера. Стол — в группе."]
    english = hand_text(match.view(0), NAMES, "Yard", Lang.EN).split("\n")
    assert english[1:3] == [
        "🤝 Your partner: Вера",
        "Waiting for your partner, Вера; the table is in the group.",
    ]
    opponent = hand_text(match.view(1), NAMES, "Двор", Lang.RU).split("\n")
    assert opponent[1] == "🤝 Ваш партнёр — Гена" and opponent[2].startswith("Ходят соперники")


def test_the_caption_lists_the_seats_in_turn_order() -> None:
    caption = table_caption(pairs_match(to_move=2).view(None), NAMES, Lang.RU)
    order = [caption.index(f"{name} — ") for name in NAMES]
    assert order == sorted(order)
    assert caption.index("пара Аня + Вера") > order[-1]


def test_a_surrendered_match_is_over_with_no_turn_its_goat_and_winners() -> None:
    match = pairs_match(to_move=2)
    shown = ended_view(match.view(None), 1, (30, 12, 30, 12))
    assert shown.over and shown.round.turn is None and not shown.round.legal
    assert (shown.losers, shown.winners) == ((1,), (0,))
    caption = table_caption(shown, NAMES, Lang.RU)
    assert "Ход:" not in caption and "▶️" not in caption
    assert "Партия окончена.\n🐐 Козёл: Боб + Гена.\n🏆 Победа — Аня + Вера\n" in caption
    hand = hand_text(ended_view(match.view(0), 1, (30, 12, 30, 12)), NAMES, "Двор", Lang.RU)
    assert "Ходит" not in hand and "Ваш ход" not in hand and "Ходят" not in hand
    assert "Партия окончена.\n🐐 Козёл: Боб + Гена.\n" in hand


def test_where_points_are_good_the_leader_wins_an_abandoned_match() -> None:
    match = Match.new(find_variant("classic").ruleset, 3, seed=2)
    shown = ended_view(match.view(None), 0, (50, 70, 20))
    assert (shown.losers, shown.winners) == ((0,), (1,))
    caption = table_caption(shown, NAMES[:3], Lang.EN)
    assert "Loss: Аня." in caption and "🏆 The winner is Боб" in caption


def test_a_match_cancelled_with_nobody_to_blame_names_nobody() -> None:
    match = Match.new(find_variant("kozel").ruleset, 2, seed=3)
    shown = ended_view(match.view(None))
    assert shown.over and shown.round.turn is None and shown.losers == shown.winners == ()
    assert ended_view(shown) is shown
