"""The pictures of Блиц and Крест (section V, `domino.children`), whose turns lay several
tiles (`GameVariant.many_per_turn`): every tile of the turn in progress or just ended is
marked, on the table and on the round's end, so that the group sees what the turn laid;
Блиц shares out all 28 tiles, so no bazaar is counted (with three players the one tile
left lies face down all round); Крест grows a cross from its first double; both have
their English names; the samples show a turn of several tiles and a cross of four arms.

Which tiles are marked is checked against the actions that laid them, and on the
picture by the colours inside each tile: a marked face is warm, any other plain."""

from __future__ import annotations

import dataclasses
import io
import random
from collections.abc import Iterator

import pytest
from PIL import Image

from domino.actions import Action, EndTurn, Knock, Play
from domino.match import Match
from domino.players import GreedyPlayer, RandomPlayer
from domino.rules import CLASSIC
from domino.variants import find_variant
from domino.views import MatchView
from render import (
    TABLE_AREA,
    TABLE_SIZE,
    draw,
    labels,
    render_round_end,
    render_table,
    samples,
    table_geometry,
)
from render.geometry import Orientation
from render.table import just_laid, plan_felt
from tests.render.geometry_checks import check_geometry

NAMES = ("Маша", "Алексей", "Оля", "Серёга")
ENGLISH = ("Alice", "Bob", "Carol", "Dave")
CHILDREN = [(key, players) for key in ("blitz", "cross") for players in (2, 3, 4)]


def opened(data: bytes, size: tuple[int, int] | None = None) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.mode == "P"
    assert size is None or image.size == size
    return image.convert("RGB")


def colours(image: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, ...]]:
    found = image.crop(box).getcolors(maxcolors=1 << 16)
    assert found is not None
    return {colour for _, colour in found if isinstance(colour, tuple)}


def moves(key: str, players: int, seed: int) -> Iterator[tuple[Match, Action, int]]:
    """A seeded match of `key` to its end: the match after each action, the action and
    the seat that took it."""
    match = Match.new(find_variant(key).ruleset, players, seed=seed)
    player = RandomPlayer(random.Random(seed)) if seed % 2 else GreedyPlayer()
    while not match.over:
        seat = match.turn
        assert seat is not None
        action = player.choose(match.view(seat))
        match.apply(action, seat)
        yield match, action, seat


def marked_by_the_actions(
    key: str, players: int, seed: int
) -> Iterator[tuple[Match, MatchView, set[int]]]:
    """After every action of a seeded match, the match, the public view of the table
    the action left (after the action that ended a round, that round as it ended) and
    the tiles (by seq) of the last turn that laid any, as the actions tell it: a turn
    begins with an action of another seat than the last action's, or after an
    `EndTurn` or a `Knock`; its first tile starts the set."""
    turn: set[int] = set()
    laying = False
    previous: tuple[int, type] | None = None
    rounds = 0
    for match, action, seat in moves(key, players, seed):
        view = match.view(None)
        if len(view.results) > rounds:  # the action ended a round
            rounds = len(view.results)
            ended = match.ended_round(rounds)
            view = dataclasses.replace(view, round=ended.view(None))
        if previous is None or previous[0] != seat or previous[1] in (EndTurn, Knock):
            laying = False
        if isinstance(action, Play):
            if not laying:
                turn, laying = set(), True
            turn.add(len(view.round.layout.placements) - 1)
        assert not isinstance(action, EndTurn) or laying
        previous = (seat, type(action))
        yield match, view, turn
        if view.round.outcome is not None:  # the next round begins afresh
            turn, laying, previous = set(), False, None


@pytest.mark.parametrize(("key", "players"), CHILDREN)
def test_the_table_marks_every_tile_of_the_last_turn(key: str, players: int) -> None:
    """The turn in progress and the turn just ended (until the next seat lays a tile),
    along whole matches, each round as it ended too; the turns of several tiles are
    many."""
    several = 0
    for seed in (players, players + 10):
        for _, view, turn in marked_by_the_actions(key, players, seed):
            assert just_laid(view) == frozenset(turn)
            several += len(turn) > 1
    assert several > 10


def test_a_game_of_one_tile_a_turn_marks_its_last_tile() -> None:
    match = Match.new(CLASSIC, 3, seed=4)
    player = GreedyPlayer()
    for _ in range(6):
        seat = match.turn
        assert seat is not None
        match.apply(player.choose(match.view(seat)), seat)
        layout = match.view(None).round.layout
        assert just_laid(match.view(None)) == {layout.placements[-1].seq}


def _turn_of_three(key: str, players: int) -> tuple[MatchView, set[int]]:
    """A table in the middle of a round whose last turn laid three tiles or more."""
    for seed in range(40):
        for _, view, turn in marked_by_the_actions(key, players, seed):
            placements = view.round.layout.placements
            if len(turn) >= 3 and len(placements) > len(turn) + 1 and not view.round.outcome:
                return view, turn
    raise AssertionError(f"no turn of three tiles in {key} with {players}")


@pytest.mark.parametrize(("key", "players"), [("blitz", 2), ("blitz", 3), ("cross", 4)])
def test_every_tile_of_the_turn_has_a_warm_face_and_a_ring_and_no_other(
    key: str, players: int
) -> None:
    view, turn = _turn_of_three(key, players)
    image = opened(render_table(view, NAMES[:players]), TABLE_SIZE)
    geometry, _ = plan_felt(view, NAMES[:players])
    check_geometry(view.round.layout, geometry)
    for box in geometry.tiles:
        r = box.rect
        inside = colours(image, (r.x0 + 5, r.y0 + 5, r.x1 - 5, r.y1 - 5))
        if box.placement.seq in turn:
            assert draw.TILE_LAST in inside and draw.TILE_FACE not in inside
            assert draw.LAST_RING in colours(image, (r.x0 - 3, r.y0 - 3, r.x1 + 3, r.y0))
        else:
            assert draw.TILE_FACE in inside and draw.TILE_LAST not in inside


def test_the_round_end_marks_the_last_turn_as_the_table_did(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The winner's last turn of three tiles or more, on the round's end with the hands
    laid open: as many warm faces as the turn laid."""
    found = None
    for seed in range(40):
        for match, view, turn in marked_by_the_actions("blitz", 2, seed):
            if view.round.outcome is not None and len(turn) >= 3:
                found = match, len(turn)
                break
        if found:
            break
    assert found is not None, "no round of Блиц ends with a turn of three tiles"
    match, laid = found
    result = match.results[-1]
    warm: list[bool] = []
    original = draw.tile_sprite

    def recording(
        first: int, second: int, unit: int, orientation: Orientation, last: bool = False
    ) -> Image.Image:
        warm.append(last)
        return original(first, second, unit, orientation, last)

    monkeypatch.setattr(draw, "tile_sprite", recording)
    render_round_end(match.view(None), NAMES[:2], match.ended_round(result.round_no), result)
    assert sum(warm) == laid


# ------------------------------------------------------------ Блиц and Крест as drawn


@pytest.mark.parametrize(("key", "players"), CHILDREN)
def test_no_bazaar_is_counted_where_none_can_be_drawn_from(
    drawn: list[str], key: str, players: int
) -> None:
    """Блиц and Крест share out all 28 tiles (with three, 9 each and one left face down
    that nobody draws): the picture counts no bazaar."""
    match = Match.new(find_variant(key).ruleset, players, seed=1)
    view = match.view(None)
    expected = False
    assert labels.has_bazaar(view) is expected
    assert view.round.drawable == 0
    for names, lang, word in ((NAMES, "ru", "базар"), (ENGLISH, "en", "boneyard")):
        drawn.clear()
        render_table(view, names[:players], lang)
        assert any(label.startswith(word) for label in drawn) is expected, drawn


@pytest.mark.parametrize(("key", "players"), CHILDREN)
def test_blitz_and_cross_draw_in_both_languages_with_their_names(
    drawn: list[str], key: str, players: int
) -> None:
    """Hands of 14, 9 and 7 tiles on the cards, a cross from the first double, every
    move's table laid out cleanly; the game's name in the title."""
    name = {"blitz": ("Блиц", "Blitz"), "cross": ("Крест", "Cross")}[key]
    first = True
    for match, _, _ in moves(key, players, seed=players):
        view = match.view(None)
        layout = view.round.layout
        if layout.placements:
            geometry = table_geometry(layout, TABLE_AREA)
            check_geometry(layout, geometry)
            assert geometry.cross == (layout.spinner is not None)
        if first:
            hand = find_variant(key).ruleset.hand_size(players)
            assert max(view.round.hand_counts) == hand
            for names, lang, title in ((NAMES, "ru", name[0]), (ENGLISH, "en", name[1])):
                drawn.clear()
                opened(render_table(view, names[:players], lang), TABLE_SIZE)
                assert f"× {hand}" in drawn
                assert any(label.startswith(f"{title} · ") for label in drawn), drawn
            first = False


def test_samples_show_a_turn_of_several_tiles_and_a_cross_of_four_arms() -> None:
    made = dict(samples.samples())
    blitz = samples._first_position(
        find_variant("blitz").ruleset, 2, samples._mid_turn, range(90, 140)
    )
    view = blitz.view(None)
    assert len(just_laid(view)) >= 3 and view.round.turn == view.round.history[-1].seat
    cross = samples._first_position(
        find_variant("cross").ruleset, 3, samples._four_arms, range(93, 143)
    )
    assert sum(1 for _, arm in cross.view(None).round.layout.arms if arm) == 4
    for name in ("table_blitz_turn.png", "table_cross.png"):
        opened(made[name](), TABLE_SIZE)
    for name in ("round_end_blitz.png", "round_end_cross_en.png", "table_blitz_3_en.png"):
        opened(made[name]())
