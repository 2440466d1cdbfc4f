"""How the pictures say how a round ended (C-8, F-6).

1. After the round's number the outcome reads as one phrase with one colon, never
   «Раунд 3: домино: Маша» but «Раунд 3: домино — Маша», «Раунд 3: рыба, рыбак —
   Саша», «Раунд 3: Маша набирает 255». Alone (the table's status line, the
   sheet of a round in the middle of a match) it stays «домино: Маша».
2. In English a blocked round is a «block» in the games that score in play (All Fives,
   Threes and Fives, Bergen, Doubles), as the bot's texts call it there, and a «fish» in
   the others; Russian says «рыба» in every game.

Words are checked where they are drawn: every string handed to Pillow.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from domino.match import Match
from domino.players import GreedyPlayer, RandomPlayer
from domino.variants import VARIANTS, find_variant
from domino.views import MatchView, OutcomeKind, RoundOutcome
from render import labels, render_round_end, render_scores, render_table

NAMES = ("Маша", "Алексей", "Оля", "Серёга")
ENGLISH = ("Alice", "Bob", "Carol", "Dave")
SCORING = ("all_fives", "threes_and_fives", "bergen", "dubli")


def finished(key: str, players: int, seed: int) -> Match:
    """A seeded match of `key` played to its end."""
    match = Match.new(find_variant(key).ruleset, players, seed=seed)
    player = RandomPlayer(random.Random(seed)) if seed % 2 else GreedyPlayer()
    while not match.over:
        seat = match.turn
        assert seat is not None
        match.apply(player.choose(match.view(seat)), seat)
    return match


def first_round_blocked(key: str, players: int) -> Match:
    """The first seeded match of `key` whose first round ended in a block (C-8 b),
    stopped there."""
    for seed in range(60):
        match = Match.new(find_variant(key).ruleset, players, seed=seed)
        player = GreedyPlayer()
        while not match.over and not match.results:
            seat = match.turn
            assert seat is not None
            match.apply(player.choose(match.view(seat)), seat)
        if match.results[-1].outcome.kind is OutcomeKind.FISH:
            return match
    raise AssertionError(f"no seed up to 60 blocks the first round of {key}")


def ended_as(view: MatchView, kind: OutcomeKind, seat: int) -> MatchView:
    """`view` with its last round ended by `kind` at `seat` (its points as they were)."""
    result = view.results[-1]
    outcome = dataclasses.replace(result.outcome, kind=kind, seat=seat)
    results = (*view.results[:-1], dataclasses.replace(result, outcome=outcome))
    return dataclasses.replace(view, results=results)


# ------------------------------------------------------------ 1. after the round's number


@pytest.mark.parametrize(("lang", "names"), [("ru", NAMES), ("en", ENGLISH)])
def test_the_last_rounds_outcome_after_its_number_reads_as_one_phrase(
    drawn: list[str], lang: str, names: tuple[str, ...]
) -> None:
    """The final sheet names the last round and how it ended, every kind of end, with
    one colon; the outcome alone keeps its colon."""
    view = finished("classic", 3, 6).view(None)
    assert view.over
    names = names[:3]
    result = view.results[-1]
    n, seat = result.round_no, 1
    name = names[seat]
    score = result.after[view.side_of(seat)].recorded
    expected = {
        "ru": {
            OutcomeKind.WENT_OUT: (f"Раунд {n}: домино — {name}", f"домино: {name}"),
            OutcomeKind.FISH: (f"Раунд {n}: рыба, рыбак — {name}", f"рыба, рыбак: {name}"),
            OutcomeKind.REACHED: (
                f"Раунд {n}: {name} набирает {score}",
                f"{name} набирает {score} — партия окончена",
            ),
        },
        "en": {
            OutcomeKind.WENT_OUT: (f"Round {n}: {name} went out", f"{name} went out"),
            OutcomeKind.FISH: (
                f"Round {n}: fish, fisherman — {name}",
                f"fish, fisherman: {name}",
            ),
            OutcomeKind.REACHED: (
                f"Round {n}: {name} reaches {score}",
                f"{name} reaches {score} — match over",
            ),
        },
    }[lang]
    for kind, (numbered, alone) in expected.items():
        over = ended_as(view, kind, seat)
        drawn.clear()
        render_scores(over, names, None, lang)
        headings = [label for label in drawn if label.startswith(numbered.split(":")[0] + ":")]
        assert headings == [numbered], drawn
        assert labels.outcome(over, over.results[-1].outcome, names, lang, score) == alone


def test_no_line_on_the_final_sheet_or_the_last_rounds_end_has_two_colons(
    drawn: list[str],
) -> None:
    """Real matches to their end, the last round's end with its hands laid open too."""
    for key, players, seed in (("kozel", 4, 30), ("classic", 2, 3), ("bergen", 3, 5)):
        match = finished(key, players, seed)
        view = match.view(None)
        result = view.results[-1]
        for names, lang in ((NAMES[:players], "ru"), (ENGLISH[:players], "en")):
            drawn.clear()
            render_scores(view, names, None, lang)
            render_round_end(view, names, match.ended_round(result.round_no), result, lang)
            numbered = [label for label in drawn if label.startswith(("Раунд ", "Round "))]
            assert len(numbered) == 2, drawn
            assert all(label.count(":") == 1 for label in numbered), numbered


def test_a_round_in_the_middle_of_a_match_says_its_outcome_alone(drawn: list[str]) -> None:
    """Its number is in the title («Раунд 1 · итоги»), the outcome under it as before."""
    match = first_round_blocked("classic", 3)
    view = match.view(None)
    assert not view.over
    result = view.results[-1]
    render_scores(view, NAMES[:3], result)
    assert f"рыба, рыбак: {NAMES[result.outcome.seat]}" in drawn


# ------------------------------------------------------------ 2. a block in English


@pytest.mark.parametrize("key", SCORING)
def test_a_blocked_round_of_a_game_that_scores_in_play_is_a_block_in_english(
    drawn: list[str], key: str
) -> None:
    """The round's end with its hands, its score sheet, the table's status line while it
    shows the ended round, and the final sheet's line with the round's number."""
    match = first_round_blocked(key, 2)
    view = match.view(None)
    result = view.results[-1]
    ended = match.ended_round(result.round_no)
    seat = result.outcome.seat
    blocked = dataclasses.replace(view, round=ended.view(None))
    for names, lang, said, tag in (
        (ENGLISH[:2], "en", f"blocked by {ENGLISH[seat]}", "block"),
        (NAMES[:2], "ru", f"рыба, рыбак: {NAMES[seat]}", "рыбак"),
    ):
        drawn.clear()
        render_round_end(view, names, ended, result, lang)
        render_scores(view, names, result, lang)
        render_table(blocked, names, lang)
        assert drawn.count(said) == 3, drawn
        assert drawn.count(tag) == 2  # under the name, on both sheets
        if lang == "en":
            assert not [label for label in drawn if "fish" in label.lower()]
    over = dataclasses.replace(view, over=True, winners=(1 - view.side_of(seat),))
    n = result.round_no
    assert labels.outcome(over, result.outcome, ENGLISH[:2], "en", round_no=n) == (
        f"Round {n}: blocked by {ENGLISH[seat]}"
    )
    assert labels.outcome(over, result.outcome, NAMES[:2], "ru", round_no=n) == (
        f"Раунд {n}: рыба, рыбак — {NAMES[seat]}"
    )


def test_other_games_say_fish_in_english_too(drawn: list[str]) -> None:
    match = first_round_blocked("classic", 3)
    view = match.view(None)
    result = view.results[-1]
    render_scores(view, ENGLISH[:3], result, "en")
    assert f"fish, fisherman: {ENGLISH[result.outcome.seat]}" in drawn
    assert "fisherman" in drawn


@pytest.mark.parametrize("key", [variant.key.value for variant in VARIANTS])
def test_the_words_of_a_block_follow_the_game(key: str) -> None:
    """By the game object (`GameVariant.scores_in_play`), never by its name."""
    game = find_variant(key)
    view = Match.new(game.ruleset, min(game.ruleset.hand_sizes), seed=1).view(None)
    fish = RoundOutcome(OutcomeKind.FISH, 1, (3,) * view.players)
    english = labels.outcome(view, fish, ENGLISH[: view.players], "en")
    tag = labels.outcome_tag(view, fish, 0, "en")
    if game.scores_in_play:
        assert (english, tag) == ("blocked by Bob", "block")
    else:
        assert (english, tag) == ("fish, fisherman: Bob", "fisherman")
    assert labels.outcome(view, fish, NAMES[: view.players]) == "рыба, рыбак: Алексей"
    assert labels.outcome_tag(view, fish, 0) == "рыбак"


def test_the_one_who_went_out_went_out_in_english(drawn: list[str]) -> None:
    """«domino» under the winner's name is Russian domino slang, not English: the round's
    end says «went out», under the name and after it, and «domino» nowhere."""
    for seed in range(20):
        match = finished("classic", 2, seed)
        result = match.view(None).results[-1]
        if result.outcome.kind is OutcomeKind.WENT_OUT:
            break
    else:
        raise AssertionError("no seeded classic match ended by going out")
    view = match.view(None)
    ended = match.ended_round(result.round_no)
    render_round_end(view, ENGLISH[:2], ended, result, "en")
    assert "went out" in drawn, drawn
    assert not [label for label in drawn if "domino" in label.lower()], drawn
    drawn.clear()
    render_round_end(view, NAMES[:2], ended, result, "ru")
    assert "домино" in drawn, drawn
