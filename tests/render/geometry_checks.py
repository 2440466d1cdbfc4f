"""Checks of a computed table geometry against its layout, without pixels.

Shared by the geometry tests: every tile present once and inside the table, no two
tiles overlapping, every pair of neighbours touching along an edge at halves that
show the same pip, and tiles that are not neighbours not touching at all.
"""

from __future__ import annotations

from domino.geometry import End, Placement
from domino.views import LayoutView
from render.geometry import Orientation, Rect, TableGeometry, TileBox


def neighbours(layout: LayoutView) -> list[tuple[Placement, Placement]]:
    """(tile nearer the centre, tile after it) for every touching pair of the layout.

    LEFT and RIGHT arms start at the centre; UP and DOWN at the spinner (C-10).
    """
    pairs: list[tuple[Placement, Placement]] = []
    centre = layout.centre
    assert centre is not None
    for end, arm in layout.arms:
        anchor = layout.spinner if end in (End.UP, End.DOWN) else centre
        assert anchor is not None, f"arm {end} without a spinner"
        previous = anchor
        for placement in arm:
            pairs.append((previous, placement))
            previous = placement
    return pairs


def _inside(segment: Rect, rect: Rect) -> bool:
    return rect.contains(segment)


def _side_showing(box: TileBox, pip: int) -> Rect:
    """The part of a tile that shows `pip` toward a neighbour: a double shows it all over."""
    if box.placement.is_double:
        return box.rect
    half = box.inner if box.inner.pip == pip else box.outer
    assert half.pip == pip, f"{box.placement.tile} has no half {pip}"
    return half.rect


def check_geometry(layout: LayoutView, geometry: TableGeometry) -> None:
    u = geometry.unit
    boxes = geometry.tiles
    assert [box.placement for box in boxes] == list(layout.placements)
    by_seq = {box.placement.seq: box for box in boxes}
    for box in boxes:
        assert geometry.area.contains(box.rect), f"{box.placement.tile} outside the table"
        long_side = box.rect.width if box.orientation is Orientation.HORIZONTAL else box.rect.height
        short_side = (
            box.rect.height if box.orientation is Orientation.HORIZONTAL else box.rect.width
        )
        assert (long_side, short_side) == (4 * u, 2 * u)
        assert {box.inner.pip, box.outer.pip} == {box.placement.tile.low, box.placement.tile.high}
        for half in (box.inner, box.outer):
            assert box.rect.contains(half.rect)
            assert half.rect.width == half.rect.height == 2 * u
        assert not box.inner.rect.overlaps(box.outer.rect)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not a.rect.overlaps(b.rect), f"{a.placement.tile} overlaps {b.placement.tile}"
    touching = set()
    for before, after in neighbours(layout):
        a, b = by_seq[before.seq], by_seq[after.seq]
        contact = a.rect.contact(b.rect)
        assert contact is not None, f"{before.tile} and {after.tile} do not touch"
        assert max(contact.width, contact.height) > 0
        pip = after.inner
        assert _inside(contact, _side_showing(a, pip)), f"{before.tile}|{after.tile}: wrong half"
        assert _inside(contact, _side_showing(b, pip)), f"{after.tile}|{before.tile}: wrong half"
        touching.add(frozenset((before.seq, after.seq)))
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if frozenset((a.placement.seq, b.placement.seq)) not in touching:
                assert a.rect.contact(b.rect) is None, (
                    f"{a.placement.tile} touches {b.placement.tile}, which is not its neighbour"
                )


def check_chain(layout: LayoutView) -> None:
    """The hand-built layout itself is a valid chain (a check of the test's input)."""
    tiles = [p.tile for p in layout.placements]
    assert len(set(tiles)) == len(tiles)
    for before, after in neighbours(layout):
        if before.seq == 0 and before is not layout.spinner:
            assert after.inner in (before.inner, before.outer)
        else:
            assert after.inner == before.outer or before.is_double
        assert after.tile.other(after.inner) == after.outer
        assert after.seq > before.seq
