"""The pictures' size bound: the table's cheaper zlib level
(`render.draw.TABLE_PNG_LEVEL`) and the round end's and score sheet's
(`render.draw.PNG_LEVEL`) keep even the largest pictures under 50 KB. The largest are
a four-seat round's end, every hand laid open over the score sheet, and the full
28-tile table; each is drawn here from a seeded match, in both languages."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from domino.match import Match
from domino.players import GreedyPlayer, RandomPlayer
from domino.variants import VARIANTS, find_variant
from render import demo, render_round_end, render_scores, render_table
from tests.render.test_pictures import NAMES, ODD_NAMES

LIMIT = 50 * 1024
COMPUTERS = ("Дима", "Женя", "🤖 Компьютер 1", "🤖 Компьютер 2")


def four_seat_games() -> list[tuple[str, bool]]:
    """Every game played by four, alone and in pairs."""
    cases = []
    for variant in VARIANTS:
        for teams in (False, True):
            try:
                Match.new(variant.ruleset.with_options(teams=teams), 4, seed=0)
            except ValueError:
                continue
            cases.append((variant.key.value, teams))
    return cases


def whole_match(key: str, teams: bool, seed: int) -> Iterator[Match]:
    """A seeded four-seat match of `key`, yielded after every move."""
    match = Match.new(find_variant(key).ruleset.with_options(teams=teams), 4, seed=seed)
    player = RandomPlayer(random.Random(seed)) if seed % 2 else GreedyPlayer()
    while not match.over:
        seat = match.turn
        assert seat is not None
        match.apply(player.choose(match.view(seat)), seat)
        yield match


@pytest.mark.parametrize(("key", "teams"), four_seat_games())
def test_every_round_end_of_a_four_seat_match_is_under_the_bound(key: str, teams: bool) -> None:
    sizes = []
    rounds = 0
    for match in whole_match(key, teams, seed=4):
        view = match.view(None)
        if len(view.results) == rounds:
            continue
        rounds = len(view.results)
        ended = match.ended_round(rounds)
        for names, lang in ((NAMES, "ru"), (("Alice", "Bob", "Carol", "Dave"), "en")):
            sizes.append(len(render_round_end(view, names, ended, view.results[-1], lang)))
        sizes.append(len(render_round_end(view, COMPUTERS, ended, view.results[-1])))
    assert rounds, "the match ended without a round"
    assert max(sizes) < LIMIT, [size // 1024 for size in sizes]


def test_the_full_table_and_odd_names_are_under_the_bound() -> None:
    view = demo.match_view(demo.line_layout(demo.eulerian_line(), 13), 4, turn=1, eggs=12)
    sizes = [len(render_table(view, NAMES)), len(render_scores(view, NAMES))]
    for names in ODD_NAMES.values():
        sizes.append(len(render_table(view, names)))
    assert max(sizes) < LIMIT, [size // 1024 for size in sizes]
