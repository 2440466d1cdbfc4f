"""By value: a match someone abandoned that the computers played to its end has one
result, the stats' (K-11: the first to abandon it loses), in its end announcement, its
table and the hands, with the rating only people gain; the third timeout says how the
match counts from then; the English end names one winner or several."""

from __future__ import annotations

import dataclasses

import pytest

from bot.app import standings
from bot.app.standings import abandonment_gains
from bot.app.usecases.base import abandonment_values
from bot.telegram import game_messages
from bot.telegram.announcements import counted_from_now
from bot.telegram.presenter import match_end_text, table_caption
from bot.telegram.presenter.endings import played_out_notes
from domino.match import Match
from domino.players import GreedyPlayer
from domino.variants import find_variant
from i18n import Lang, t
from storage.records import Abandonment, Ending, GameRecord, GameStatus, SeatRecord

NAMES = ("Алиса", "Боб", "Вера")


def played_out(seed: int = 5) -> Match:
    """A three-seat Козёл match greedy computers play to its end."""
    match = Match.new(find_variant("kozel").ruleset, 3, seed=seed)
    while not match.over:
        seat = match.turn
        assert seat is not None
        match.take_turn(seat, GreedyPlayer())
    return match


def game_of(match: Match, status: GameStatus, culprit: int, reason: Ending) -> GameRecord:
    """Алиса and Боб are people, Вера a computer from the start; `culprit` abandoned the
    match first, with nobody's points yet (round 1)."""
    seats = (
        SeatRecord(0, 10, NAMES[0]),
        SeatRecord(1, 11, NAMES[1], away=reason is Ending.TIMEOUT, left=reason is Ending.LEFT),
        SeatRecord(2, None, NAMES[2]),
    )
    first = Abandonment(culprit, reason, (0, 0, 0), rounds=0)
    return GameRecord(
        id=1,
        chat_id=-5,
        status=status,
        creator_id=10,
        ruleset=match.ruleset,
        seats_wanted=3,
        seats=seats,
        match=match,
        abandonment=first,
        ending=Ending.FINISHED if status is GameStatus.FINISHED else None,
    )


def board_loser_other_than(match: Match, seat: int) -> bool:
    return match.side_of(seat) not in match.view(None).losers


@pytest.fixture
def match() -> Match:
    """A played-out match whose board's козёл is not Боб (seat 1)."""
    for seed in range(1, 50):
        found = played_out(seed)
        if board_loser_other_than(found, 1):
            return found
    raise AssertionError("no seed where the board's козёл is not seat 1")


@pytest.mark.parametrize(
    ("reason", "why"),
    [
        (Ending.TIMEOUT, "🤖 Боб: время на ход трижды вышло, и партию доиграл компьютер"),
        (Ending.LEFT, "🚪 Боб — уход из игры: партию доиграл компьютер"),
    ],
)
def test_the_end_of_a_played_out_match_names_the_stats_goat_once(
    match: Match, reason: Ending, why: str
) -> None:
    game = game_of(match, GameStatus.FINISHED, 1, reason)
    scored = standings.score(game)
    assert scored is not None
    goats = [seat.name for seat in scored.seats if seat.goat]
    assert goats == ["Боб"]
    view = game_messages.shown_view(game, match.view(None))
    notes = played_out_notes(game, Lang.RU)
    text = match_end_text(view, NAMES, Lang.RU, notes=notes)
    lines = text.split("\n")
    assert lines[0] == "🐐 Козёл — Боб"
    assert lines[1].startswith(why) and lines[1].endswith("в зачёт она идёт как проигрыш.")
    gains = {seat.name: seat.rating_gain for seat in scored.seats}
    # Only people gain rating: Вера, a computer, is not named in it.
    assert lines[2] == f"📈 Рейтинг за партию: Алиса +{gains['Алиса']} · Боб +0"
    board = match.view(None)
    for side, seats in enumerate(board.sides):
        assert f"{NAMES[seats[0]]}: {board.scores[side].recorded}" in lines[3:]
    assert text.count("Козёл") == 1
    # The table and the hands say the same.
    caption = table_caption(view, NAMES, Lang.RU)
    assert "🐐 Козёл: Боб." in caption
    assert not any(f"🐐 Козёл: {name}." in caption for name in ("Алиса", "Вера"))


def test_a_match_nobody_abandoned_ends_as_the_board_says(match: Match) -> None:
    game = dataclasses.replace(
        game_of(match, GameStatus.FINISHED, 1, Ending.TIMEOUT), abandonment=None
    )
    view = game_messages.shown_view(game, match.view(None))
    assert view == match.view(None)
    assert played_out_notes(game, Lang.RU) == []
    loser = NAMES[match.sides[view.losers[0]][0]]
    assert match_end_text(view, NAMES, Lang.RU).startswith(f"🐐 Козёл — {loser}")


def test_the_third_timeout_says_how_the_match_counts_while_it_stands(match: Match) -> None:
    running = dataclasses.replace(
        game_of(match, GameStatus.PLAYING, 1, Ending.TIMEOUT),
        abandonment=Abandonment(1, Ending.TIMEOUT, (12, 34, 5), rounds=1),
    )
    key, values = counted_from_now("notice.taken_over", {"name": "Боб"}, running)
    assert key == "notice.taken_over_counted"
    text = t(key, Lang.RU, **values)
    assert text.startswith("🤖 Боб: трижды кончилось время на ход, дальше ходит компьютер.\n")
    assert "партия пойдёт в зачёт как проигрыш: Боб; рейтинг остальным — за отрыв от счёта 34" in (
        text
    )
    assert "«🙋 Я снова играю»" in text and "Козёл" not in text
    english = t(key, Lang.EN, **values)
    assert "Unless Боб comes back with “🙋 I'm back”, the match counts as a loss for Боб" in english
    # Someone else abandoned the match first, or Боб came back: nothing to add.
    for other in (
        dataclasses.replace(running, abandonment=Abandonment(0, Ending.LEFT, (0, 0, 0))),
        dataclasses.replace(running, abandonment=None),
    ):
        assert counted_from_now("notice.taken_over", {"name": "Боб"}, other) == (
            "notice.taken_over",
            {"name": "Боб"},
        )


def test_english_names_one_winner_or_several() -> None:
    match = Match.new(find_variant("classic").ruleset, 3, seed=2)
    one = game_messages.presenter.ended_view(match.view(None), 0, (50, 70, 20))
    two = game_messages.presenter.ended_view(match.view(None), 0, (50, 70, 70))
    assert "🏆 The winner is Боб\n" in match_end_text(one, NAMES, Lang.EN)
    assert "🏆 The winners are Боб, Вера\n" in match_end_text(two, NAMES, Lang.EN)
    assert "🏆 Победа — Боб, Вера\n" in match_end_text(two, NAMES, Lang.RU)


@pytest.mark.parametrize(
    "key",
    [
        "surrender.confirm",
        "surrender.confirm_after",
        "notice.left_scoring",
        "notice.cancelled_counted",
        "notice.taken_over_counted",
        "notice.surrendered",
        "ending.played_out",
    ],
)
def test_how_a_match_counts_is_said_without_jargon(key: str) -> None:
    values = {"name": "Боб", "loser": "🐐 Козёл: Боб.", "goat": "Боб", "points": 3}
    values |= {"lines": "Боб: 3 · +0", "reason": "timeout"}
    russian, english = t(key, Lang.RU, **values), t(key, Lang.EN, **values)
    assert "тайм-аут" not in russian and "по времени" not in russian, russian
    assert not any(words in english for words in ("time had run out", "lost on time", " out.")), (
        english
    )


def test_an_abandoned_matchs_notice_gives_no_rating_to_a_computer(match: Match) -> None:
    """A /cancel or /surrender notice lists every seat's points then, and the rating only
    of people: the stats keep none for a computer's seat (Вера)."""
    lines = abandonment_values(game_of(match, GameStatus.CANCELLED, 1, Ending.LEFT))["lines"]
    assert isinstance(lines, tuple)
    gains = {line.name: line.gain for line in lines}
    assert gains[NAMES[2]] is None
    assert gains[NAMES[1]] == 0 and gains[NAMES[0]] is not None  # the culprit gains none


def test_an_abandoned_pub_board_match_gains_on_its_own_scale() -> None:
    """Тройки и пятёрки to 61 (the pub's board): an abandoned match's gains are scaled as
    a finished match to 61 is, not as one to the game's default target."""
    game = find_variant("threes_and_fives")
    left = Abandonment(1, Ending.LEFT, (40, 12, 55))
    assert abandonment_gains(left, game, 61) == game.abandoned_rating_gains(
        (40, 12, 55), 1, target=61
    )
    assert abandonment_gains(left, game, 61) != abandonment_gains(left, game, 250)
