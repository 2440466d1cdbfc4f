"""The pictures of Втемную (section V, `domino.children`): a turn that turns up a tile
lays it or puts it under the stack (`Flipped`), a turned-up stack plays as in Блиц. Along
whole matches the table marks the tiles of the last turn that laid any (a miss, like a
knock, ends its seat's turn), lays out cleanly and draws in both languages with the
game's name; the samples show stacks face down and turned up after a miss."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterator

import pytest
from PIL import Image

from domino.actions import EndTurn, Event, Flip, Knock, Played
from domino.ai import Level, computer
from domino.match import Match
from domino.variants import find_variant
from domino.views import MatchView
from render import TABLE_AREA, TABLE_SIZE, render_round_end, render_table, samples, table_geometry
from render.table import just_laid
from tests.render.geometry_checks import check_geometry

NAMES = ("Маша", "Алексей", "Оля", "Серёга")
ENGLISH = ("Alice", "Bob", "Carol", "Dave")
DARK = find_variant("dark").ruleset


def opened(data: bytes, size: tuple[int, int] | None = None) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.mode == "P"
    assert size is None or image.size == size
    return image


def moves(players: int, seed: int) -> Iterator[tuple[Match, MatchView, Event, int, type]]:
    """A seeded match of Втемную to its end, played by the medium computer: after each
    action the match, the public view of the table it left (after the action that ended
    a round, that round as it ended), the event, the seat and the action's type."""
    match = Match.new(DARK, players, seed=seed)
    player = computer(Level.MEDIUM, seed=seed)
    while not match.over:
        seat = match.turn
        assert seat is not None
        rounds = len(match.results)
        action = player.choose(match.view(seat))
        event = match.apply(action, seat)
        view = match.view(None)
        if len(match.results) > rounds:
            ended = match.ended_round(len(match.results))
            view = dataclasses.replace(view, round=ended.view(None))
        yield match, view, event, seat, type(action)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_table_marks_the_tiles_of_the_last_turn_that_laid_any(players: int) -> None:
    """A flip that fits lays one tile and passes the turn; a turned-up seat's turn lays
    several; a miss (`Flipped`), a knock, «✔️ Сходить» lay none and leave the marks
    where they were."""
    flips = several = 0
    for seed in (players, players + 10):
        turn: set[int] = set()
        laying = False
        previous: tuple[int, type] | None = None
        for _, view, event, seat, kind in moves(players, seed):
            if previous is None or previous[0] != seat or previous[1] in (EndTurn, Knock, Flip):
                laying = False
            if isinstance(event, Played):
                if not laying:
                    turn, laying = set(), True
                turn.add(len(view.round.layout.placements) - 1)
                flips += kind is Flip
            previous = (seat, kind)
            assert just_laid(view) == frozenset(turn), (seed, view.round.history[-3:])
            several += len(turn) > 1
            if view.round.outcome is not None:
                turn, laying, previous = set(), False, None
    assert flips > 10 and several > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_dark_lays_out_and_draws_in_both_languages_with_its_name(
    drawn: list[str], players: int
) -> None:
    hand = DARK.hand_size(players)
    pictures = 0
    for match, view, _, _, _ in moves(players, seed=players):
        layout = view.round.layout
        if layout.placements:
            check_geometry(layout, table_geometry(layout, TABLE_AREA))
        if len(match.log) in (1, 12) or view.round.outcome is not None:
            for names, lang, title in ((NAMES, "ru", "Втемную"), (ENGLISH, "en", "In the Dark")):
                drawn.clear()
                if view.round.outcome is None:
                    opened(render_table(view, names[:players], lang), TABLE_SIZE)
                else:
                    ended = match.ended_round(len(match.results))
                    result = match.results[-1]
                    opened(render_round_end(match.view(None), names[:players], ended, result, lang))
                assert any(title in label for label in drawn), drawn
                pictures += 1
            if len(match.log) == 1:
                assert f"× {hand}" in drawn
    assert pictures >= 6


def test_samples_show_stacks_face_down_and_turned_up_after_a_miss() -> None:
    made = dict(samples.samples())
    for name in ("table_dark.png", "table_dark_2_en.png"):
        opened(made[name](), TABLE_SIZE)
    for name in ("round_end_dark.png", "scores_dark_end_en.png"):
        opened(made[name]())
    match = samples._first_position(DARK, 3, samples._dark_mixed, range(100, 150))
    face_down = match.view(None).round.face_down
    assert any(face_down) and not all(face_down)


def test_a_stack_turned_up_to_its_owner_is_tagged_on_its_card(drawn: list[str]) -> None:
    """A seat whose last tiles are turned up (to its owner: the group still sees backs)
    may lay several a turn: its card says so; a face-down stack's card does not."""
    view = samples._first_position(DARK, 3, samples._dark_mixed, range(100, 150)).view(None)
    turned_up = sum(
        1
        for down, count in zip(view.round.face_down, view.round.hand_counts, strict=True)
        if not down and count
    )
    assert turned_up
    for names, lang, tag in ((NAMES, "ru", "открыты"), (ENGLISH, "en", "turned up")):
        drawn.clear()
        opened(render_table(view, names[:3], lang), TABLE_SIZE)
        assert drawn.count(tag) == turned_up, drawn
    start = Match.new(DARK, 3, seed=1).view(None)
    assert all(start.round.face_down)
    drawn.clear()
    opened(render_table(start, NAMES[:3], "ru"), TABLE_SIZE)
    assert "открыты" not in drawn
