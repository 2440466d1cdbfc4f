"""Each open end as the hand names it: beside its badge a tab with the end's arrow, the
one the hand's text and buttons show for it («⬆️ 3» in the hand, «↑» by the 3 on the
table), so that an end is found however the arms wind; the spinner (C-10) ringed in
its own colour. Checked over whole matches of the spinner games, and by pixels."""

from __future__ import annotations

import io
import unicodedata

import pytest
from PIL import Image

from bot.telegram.presenter.moves import ARROWS as HAND_ARROWS
from domino.geometry import End
from domino.layout import new_layout
from domino.match import Match
from domino.players import GreedyPlayer
from domino.rules import LayoutKind
from domino.tiles import Tile
from domino.variants import find_variant
from render import TABLE_SIZE, demo, draw, render_table
from render.counts import end_counts, sums_ends
from render.table import ARROWS, end_badges, plan_felt

NAMES = ("Маша", "Алексей", "Оля", "Серёга")
SPINNER_GAMES = ("osel", "all_fives", "threes_and_fives", "cross")


def test_the_pictures_arrow_is_the_hands_arrow() -> None:
    """«↑» beside the badge, «⬆️» in the hand: the same arrow (the picture draws it in
    its own font, the hand as the phone's emoji)."""
    ways = {"LEFTWARDS", "RIGHTWARDS", "UPWARDS", "DOWNWARDS"}
    for end in End:
        plain, emoji = unicodedata.name(ARROWS[end]), unicodedata.name(HAND_ARROWS[end][0])
        way = ways & set(plain.split())
        assert len(way) == 1 and way == ways & set(emoji.split()), (end, plain, emoji)


def opened(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.mode == "P"
    return image.convert("RGB")


def colours(image: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, ...]]:
    found = image.crop(box).getcolors(maxcolors=1 << 16)
    assert found is not None
    return {colour for _, colour in found if isinstance(colour, tuple)}


@pytest.mark.parametrize("key", SPINNER_GAMES)
def test_every_open_end_has_its_arrow_beside_its_badge_clear_of_the_rest(key: str) -> None:
    """Over a whole match: one tab per open end with the end's arrow, inside the table,
    on no tile, badge, other tab or tag; the four ends of a cross all met."""
    match = Match.new(find_variant(key).ruleset, 3, seed=4)
    seen: set[End] = set()
    while not match.over:
        view = match.view(None)
        geometry, _ = plan_felt(view, NAMES[:3])
        counted = end_counts(view.round.layout) if sums_ends(view) else None
        badges = end_badges(geometry, counted)
        assert [badge.end for badge in badges] == [mark.end for mark in geometry.ends]
        pills = []
        for badge in badges:
            assert badge.arrow is not None and badge.arrow.label == ARROWS[badge.end]
            assert geometry.area.contains(badge.arrow.rect)
            assert not any(badge.arrow.rect.overlaps(box.rect) for box in geometry.tiles)
            pills.extend(badge.rects)
            seen.add(badge.end)
        for i, a in enumerate(pills):
            assert not any(a.overlaps(b) for b in pills[i + 1 :]), (key, len(match.log))
        seat = match.turn
        assert seat is not None
        match.take_turn(seat, GreedyPlayer())
    assert seen == set(End)


def test_the_arrow_is_drawn_in_the_badges_colours(drawn: list[str]) -> None:
    """Осёл's cross: the tab of each end is drawn, its arrow on the badge's yellow."""
    trail = demo.spinner_arms(3)
    cut = demo.returns(trail, 3)
    arms = demo.split_trail(trail, [cut[0], cut[1], cut[1] + 4])
    layout = demo.spinner_layout(
        3, {end: arm[:n] for end, arm, n in zip(End, arms, (6, 4, 3, 5), strict=True)}
    )
    view = demo.match_view(layout, 2, ruleset=find_variant("osel").ruleset)
    image = opened(render_table(view, NAMES[:2]))
    geometry, _ = plan_felt(view, NAMES[:2])
    badges = end_badges(geometry)
    assert {badge.end for badge in badges} == set(End)
    for badge in badges:
        assert badge.arrow is not None
        r = badge.arrow.rect
        assert {draw.END_BADGE, draw.END_INK} <= colours(image, (r.x0, r.y0, r.x1, r.y1))
    assert sorted(label for label in drawn if label in ARROWS.values()) == sorted(ARROWS.values())


def test_the_spinner_is_ringed_in_its_own_colour() -> None:
    """C-10: the double the four arms grow from is ringed (blue), unlike the last tile's
    ring (orange); a line without a spinner has no such ring."""
    osel = find_variant("osel").ruleset
    layout = new_layout(LayoutKind.SPINNER)
    for tile, end in (("1-1", None), ("1-3", End.LEFT), ("1-5", End.RIGHT)):
        layout.place(Tile.parse(tile), end)
    view = demo.match_view(layout.view(), 2, ruleset=osel)
    geometry, _ = plan_felt(view, NAMES[:2])
    assert geometry.spinner == 0
    spinner = next(box for box in geometry.tiles if box.placement.seq == 0)
    r = spinner.rect
    image = opened(render_table(view, NAMES[:2]))
    above = colours(image, (r.x0, r.y0 - 3, r.x1, r.y0))  # the ring over the spinner
    assert draw.SPINNER_RING in above and draw.LAST_RING not in above
    last = geometry.tiles[-1].rect
    assert draw.LAST_RING in colours(image, (last.x0, last.y0 - 3, last.x1, last.y0))
    line = new_layout(LayoutKind.LINE)
    for tile, end in (("1-1", None), ("1-3", End.LEFT), ("1-5", End.RIGHT)):
        line.place(Tile.parse(tile), end)
    plain = opened(render_table(demo.match_view(line.view(), 2), NAMES[:2]))
    assert draw.SPINNER_RING not in colours(plain, (0, 212, *TABLE_SIZE))
