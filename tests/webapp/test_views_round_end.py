"""What the app's round-end view says that the group's picture shows beside its
announcement: each side's points in the round (where the announcement does not say
them) and the score now, remembered points as «+N» (K-7); and a lobby whose seats are
all taken says so, and offers no computer."""

from __future__ import annotations

from dataclasses import replace

from i18n import Lang
from storage.records import GameStatus
from tests.webapp.test_views import NAMES, record, state_of, until


def test_a_kozel_round_end_says_who_scored_what_and_the_score_now() -> None:
    game = record("kozel", seed=2)
    until(game, lambda m: bool(m.results))
    match = game.match
    assert match is not None
    result = match.results[0]
    lines = state_of(game, 0)["round_end"]["lines"]
    points = f"✍️ Очки за раунд: {NAMES[0]} +{result.points[0]} · {NAMES[1]} +{result.points[1]}"
    assert points in lines
    score = lines[-1]
    assert score.startswith("Счёт: ") and NAMES[0] in score and NAMES[1] in score
    english = state_of(game, 0, Lang.EN)["round_end"]["lines"]
    assert english[-1].startswith("Score: ")


def test_a_game_that_scores_in_play_says_its_round_points_once() -> None:
    game = record("all_fives", seed=4)
    until(game, lambda m: bool(m.results))
    lines = state_of(game, 0)["round_end"]["lines"]
    assert sum(line.startswith("✍️") for line in lines) == 1  # the announcement's own
    assert lines[-1].startswith("Счёт: ")


def test_a_full_lobby_says_so() -> None:
    game = replace(record("kozel", seed=2), status=GameStatus.LOBBY, match=None)
    full = state_of(game, 0)
    assert full["lobby"]["full"] is True
    assert full["status"] == "Все места заняты: можно начинать"
    open_seat = replace(game, seats=game.seats[:1])
    state = state_of(open_seat, None, may_join=True)
    assert state["lobby"]["full"] is False and state["status"] == "Набор игроков: 1 из 2"
