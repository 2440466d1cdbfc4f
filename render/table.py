"""The table as a picture for the group chat: `render_table(view, names) -> bytes`.

Drawn from what everybody may see (the public view): the played tiles (a double laid
face down to close its end, O-3, as a tile back with a lock; the last one marked, or
where a turn lays several, section V, every tile of the last turn: `just_laid`), the
number of tiles in each hand (as face-down tiles and a number), the bazaar where the
game has one to draw from, whose turn, the points, and before the first tile of
Спортивное the tile each seat turned (S-2), on the felt under its card. The spinner
(C-10) is ringed in its own colour. Every open end's badge shows the pip the next tile
must match, with the end's arrow beside it, the one the hand names the end by
(`ARROWS`); where the open ends are summed (F-3) an end that counts nothing
(an empty spinner arm) has a muted badge, one that counts other than its pip (a double
across it counts both halves) a small tag with what it counts («=12», `end_badges`),
and notes on the felt give the points of the move just played and the sum of the ends
(`plan_felt`). A seat's own view may be passed too; its hand is never drawn.

Format: an 8-bit palette PNG (`draw.encode_png`). The picture is mostly flat colour,
so a palette PNG is both the smallest and the quickest to encode of the formats that
keep it crisp: an RGB PNG is larger and slower, and a JPEG is larger still and smears
the pips and thin letters (`bench/render.py` measures them).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from PIL import Image

from domino.actions import Closed, Ended, Flipped, Knocked, Played
from domino.geometry import End
from domino.views import MatchView
from render import counts, draw, labels, text
from render.geometry import EndMark, Orientation, Rect, TableGeometry, table_geometry

WIDTH, HEIGHT = 1280, 860
TABLE_SIZE = (WIDTH, HEIGHT)
"""The size of every table picture, in pixels."""

_MARGIN = 12
_TITLE = Rect(_MARGIN, 0, WIDTH - _MARGIN, 64)
_CARDS = Rect(_MARGIN, 72, WIDTH - _MARGIN, 200)
_FELT = Rect(_MARGIN, 212, WIDTH - _MARGIN, HEIGHT - _MARGIN)
TABLE_AREA = Rect(_FELT.x0 + 8, _FELT.y0 + 8, _FELT.x1 - 8, _FELT.y1 - 8)
"""Where the tiles may lie, in pixels of the picture."""
_NOTE_HEIGHT = 42
_NOTE_PAD = 18  # text to the ends of a note's pill
_TAG_GAP = 3  # between an open end's badge and the tag with what the end counts
_RING = 3  # how far a marked tile's ring (the last laid, the spinner) reaches beyond it


@dataclass(frozen=True, slots=True)
class Note:
    """A pill of words on the felt: where it lies, what it says and in which colour."""

    rect: Rect
    label: str
    colour: draw.RGB
    size: int


ARROWS = {End.LEFT: "←", End.RIGHT: "→", End.UP: "↑", End.DOWN: "↓"}
"""Each end's name as the picture writes it beside its badge: the arrow the hand's text
and buttons show for it (⬅️ ➡️ ⬆️ ⬇️, `bot.telegram.presenter.moves.ARROWS`), so that
«⬆️ 3» in the hand is found as «↑ 3» on the table however the arms wind."""


@dataclass(frozen=True, slots=True)
class Badge:
    """An open end's badge as drawn: its centre and diameter, the pip the next tile must
    match (`label`), whether muted (the end counts nothing, F-3), the tab beside it with
    the end's arrow (`arrow`, `ARROWS`) and, where the end counts other than its pip,
    the tag beside it that says what it counts."""

    end: End
    centre: tuple[float, float]
    diameter: int
    label: str
    muted: bool = False
    tag: Note | None = None
    arrow: Note | None = None

    @property
    def rect(self) -> Rect:
        (cx, cy), half = self.centre, self.diameter / 2
        return Rect(int(cx - half), int(cy - half), int(cx + half) + 1, int(cy + half) + 1)

    @property
    def rects(self) -> list[Rect]:
        """What the badge takes on the felt: its disc, its arrow's tab and its tag."""
        return [self.rect, *(note.rect for note in (self.arrow, self.tag) if note is not None)]


def render_table(view: MatchView, names: Sequence[str], lang: str = "ru") -> bytes:
    """The table of `view` as PNG bytes of `TABLE_SIZE`; `names` per seat, the words in
    `lang` (`i18n.Lang`; any other is drawn in Russian)."""
    labels.check_names(view, names)
    names = labels.shown_names(names, lang)
    canvas = Image.new("RGB", TABLE_SIZE, draw.BACKGROUND)
    pen = draw.Pen(canvas)
    _title(canvas, pen, view, names, lang)
    _cards(canvas, pen, view, names, lang)
    draw.felt(pen, (_FELT.x0, _FELT.y0, _FELT.x1, _FELT.y1))
    geometry, notes = plan_felt(view, names, lang)
    if geometry.tiles:
        ends = counts.end_counts(view.round.layout) if counts.sums_ends(view) else None
        draw_tiles(canvas, pen, geometry, ends, just_laid(view))
    else:
        centre = TABLE_AREA.centre
        draw.write(pen, centre, labels.word("empty", lang), 34, draw.FELT_TEXT, anchor="mm")
        if view.round.turned:
            _turned(canvas, view)
    for note in notes:
        r = note.rect
        pen.rounded_rectangle((r.x0, r.y0, r.x1, r.y1), radius=r.height // 2, fill=draw.PANEL)
        draw.write(pen, r.centre, note.label, note.size, note.colour, bold=True, anchor="mm")
    return draw.encode_png(canvas, draw.TABLE_PNG_LEVEL)


def plan_felt(
    view: MatchView, names: Sequence[str], lang: str = "ru"
) -> tuple[TableGeometry, tuple[Note, ...]]:
    """Where the tiles lie and the notes of a game that scores in play: the points of the
    move just played if it scored («+15 Маша») in a corner at the left and, where the
    open ends are summed (F-3), their sum at the right (green when it scores). `names`
    as drawn (`labels.shown_names`).

    The notes take the felt's top corners, or its bottom ones where tiles lie at the
    top; where tiles reach both, the tiles give up a band across the top for them."""
    layout = view.round.layout
    geometry = table_geometry(layout, TABLE_AREA)
    if not counts.scores_in_play(view) or not layout.placements:
        return geometry, ()
    notes = _notes(view, names, lang)
    if not notes:
        return geometry, ()
    height = _NOTE_HEIGHT
    taken = _taken(geometry, counts.end_counts(layout) if counts.sums_ends(view) else None)
    for top in (TABLE_AREA.y0, TABLE_AREA.y1 - height):
        placed = tuple(_at(note, top) for note in notes)
        if not any(note.rect.overlaps(rect) for note in placed for rect in taken):
            return geometry, placed
    band = Rect(TABLE_AREA.x0, TABLE_AREA.y0 + height + 8, TABLE_AREA.x1, TABLE_AREA.y1)
    return table_geometry(layout, band), notes


def _notes(view: MatchView, names: Sequence[str], lang: str) -> tuple[Note, ...]:
    """The notes at the felt's top corners."""
    right = TABLE_AREA.x1
    top = TABLE_AREA.y0
    notes: list[Note] = []
    width = 0
    if counts.sums_ends(view):
        points, count = view.ruleset.game.move_points(view.ruleset, view.round.layout)
        ends = labels.word("ends", lang, n=count)
        width = round(text.width(ends, 28, bold=True)) + 2 * _NOTE_PAD
        tint = draw.GOOD if points else draw.INK
        notes.append(Note(Rect(right - width, top, right, top + _NOTE_HEIGHT), ends, tint, 28))
    scored = counts.last_scored(view)
    if scored is not None:
        room = TABLE_AREA.width - width - 24 - 2 * _NOTE_PAD
        said = labels.word("scored", lang, n=scored.points, name=names[scored.seat])
        shown = text.fit(said, 30, room, bold=True)
        left = TABLE_AREA.x0
        span = round(text.width(shown, 30, bold=True)) + 2 * _NOTE_PAD
        notes.append(Note(Rect(left, top, left + span, top + _NOTE_HEIGHT), shown, draw.GOOD, 30))
    return tuple(notes)


def _at(note: Note, top: int) -> Note:
    r = note.rect
    return dataclasses.replace(note, rect=Rect(r.x0, top, r.x1, top + r.height))


def _taken(
    geometry: TableGeometry, end_counts: Mapping[End, int | None] | None = None
) -> list[Rect]:
    """What lies on the felt: the tiles, the open ends' badges and their tags."""
    rects = [box.rect for box in geometry.tiles]
    for badge in end_badges(geometry, end_counts):
        rects.extend(badge.rects)
    return rects


def _title(
    canvas: Image.Image, pen: draw.Pen, view: MatchView, names: Sequence[str], lang: str
) -> None:
    mid_y = (_TITLE.y0 + _TITLE.y1) / 2
    x = _TITLE.x0 + 4
    title = f"{labels.variant_name(view, lang)} · {labels.word('round', lang)} {view.round_no}"
    if labels.is_team_play(view):
        title += f" · {labels.word('pairs', lang)}"
    x += round(draw.write(pen, (x, mid_y), title, 32, draw.INK, bold=True, anchor="lm")) + 28
    right = _TITLE.x1 - 4
    if view.eggs:
        right -= round(
            draw.write(
                pen, (right, mid_y), f"+{view.eggs}", 32, draw.REMEMBERED, bold=True, anchor="rm"
            )
        )
        egg = draw.egg_sprite(40)
        right -= egg.width + 6
        draw.paste(canvas, egg, right, round(mid_y - egg.height / 2))
        right -= 28
    if labels.has_bazaar(view):
        bazaar = f"{labels.word('bazaar', lang)}: {view.round.bazaar_size}"
        right -= round(draw.write(pen, (right, mid_y), bazaar, 30, draw.INK, anchor="rm"))
        right -= 28
    status = _status(view, names, lang)
    draw.write(
        pen, (x, mid_y), status, 30, draw.TURN, bold=True, anchor="lm", max_width=max(40, right - x)
    )


def _status(view: MatchView, names: Sequence[str], lang: str) -> str:
    if view.over:
        return labels.match_end(view, names, lang)
    ended = view.round.outcome
    if ended is not None:
        score = view.scores[view.side_of(ended.seat)].recorded  # F-6: what the side reached
        return labels.outcome(view, ended, names, lang, score)
    if view.round.turned and not view.round.layout.placements:
        return labels.word("turned", lang)  # S-2: each card shows its seat's turned tile
    if view.round.turn is not None:
        return labels.word("turn_of", lang, name=names[view.round.turn])
    return ""


def _card(view: MatchView, seat: int) -> Rect:
    """Where `seat`'s card lies: the cards share the row under the title, in seat order."""
    n = view.players
    gap = 12
    width = (_CARDS.width - gap * (n - 1)) // n
    x0 = _CARDS.x0 + seat * (width + gap)
    return Rect(x0, _CARDS.y0, x0 + width, _CARDS.y1)


def _cards(
    canvas: Image.Image, pen: draw.Pen, view: MatchView, names: Sequence[str], lang: str
) -> None:
    n = view.players
    width = _card(view, 0).width
    teams = labels.is_team_play(view)
    tags = [_tags(view, seat, lang) for seat in range(n)]
    # The tags stand after the hand while every tile fits beside them on every card; else
    # (a pair's letter and the turn on a narrow card) on a line of their own above the
    # hands, on every card alike.
    inner = width - 30 - (8 if teams else 0)
    raised = any(
        _hand_width(view.round.hand_counts[seat])
        > inner - sum(round(text.width(label, 22, bold=True)) + 12 for label, _ in tags[seat])
        for seat in range(n)
        if tags[seat]
    )
    for seat in range(n):
        card = _card(view, seat)
        side = view.side_of(seat)
        turn = view.round.turn == seat and view.round.outcome is None and not view.over
        pen.rounded_rectangle(
            (card.x0, card.y0, card.x1, card.y1),
            radius=14,
            fill=draw.PANEL,
            outline=draw.TURN if turn else draw.PANEL_EDGE,
            width=4 if turn else 2,
        )
        left = card.x0 + 16
        if teams:
            colour = draw.TEAM_COLOURS[side % len(draw.TEAM_COLOURS)]
            pen.rounded_rectangle(
                (card.x0 + 6, card.y0 + 12, card.x0 + 14, card.y1 - 12), radius=4, fill=colour
            )
            left += 8
        score, colour = labels.account(view, view.scores[side])
        score_w = draw.write(
            pen, (card.x1 - 14, card.y0 + 12), score, 34, colour, bold=True, anchor="ra"
        )
        draw.write(
            pen,
            (left, card.y0 + 14),
            names[seat],
            28,
            draw.INK,
            bold=True,
            max_width=max(20, int(card.x1 - 14 - score_w - 12 - left)),
            min_size=22,  # «🤖 Компьютер 1» whole on a card of four, not «🤖 Компью… 1»
        )
        count = view.round.hand_counts[seat]
        right = card.x1 - 14
        tags_y = card.y1 - 16 - (_BACK_HEIGHT + 8 if raised else 0)
        x = right
        for label, colour in tags[seat]:
            x -= round(draw.write(pen, (x, tags_y), label, 22, colour, bold=True, anchor="rd")) + 12
        _hand(canvas, pen, left, right if raised else x, card.y1 - 16, count)


def _tags(view: MatchView, seat: int, lang: str) -> list[tuple[str, draw.RGB]]:
    """A card's tags, right to left: the turn (or the match's result), a Втемную stack
    turned up, the pair."""
    side = view.side_of(seat)
    tags: list[tuple[str, draw.RGB]] = []
    if view.over and side in view.winners:
        tags.append((labels.word("win", lang), draw.GOOD))  # T-6, M-6, S-6
    if view.over and side in view.losers:
        tags.append((labels.loser_word(view, lang).lower(), draw.RECORDED))  # K-10, O-6
    if view.round.turn == seat and view.round.outcome is None and not view.over:
        tags.append((labels.word("turn", lang), draw.TURN))
    face_down = view.round.face_down
    if face_down and not face_down[seat] and view.round.hand_counts[seat] and not view.over:
        # Втемную (V-section): this seat's last tiles are turned up to their owner, who
        # may now lay several a turn; the others' still lie face down.
        tags.append((labels.word("face_up", lang), draw.MUTED))
    if labels.is_team_play(view):
        colour = draw.TEAM_COLOURS[side % len(draw.TEAM_COLOURS)]
        tags.append((f"{labels.word('pair', lang)} {labels.team_letter(side, lang)}", colour))
    return tags


_TURNED_UNIT = 28  # S-2's turned tiles on the felt, `4u x 2u`


def _turned(canvas: Image.Image, view: MatchView) -> None:
    """S-2: the tile each seat turned, face up on the empty felt under its card until
    the first tile is played (the caption says who leads by it). On the felt, not on the
    card: a card of four has no room for it beside the name («Комп… 1»)."""
    for seat, tile in enumerate(view.round.turned):
        sprite = draw.tile_sprite(tile.low, tile.high, _TURNED_UNIT, Orientation.HORIZONTAL)
        card = _card(view, seat)
        x = round((card.x0 + card.x1 - sprite.width) / 2)
        draw.paste(canvas, sprite, x, TABLE_AREA.y0 + 24)


_BACK_HEIGHT = 30  # a face-down tile on a card, 16 px wide
_BACK_STEP = 16 + 4


def _hand_width(count: int) -> int:
    """The width a hand of `count` face-down tiles and its «× N» take on a card."""
    return count * _BACK_STEP + round(text.width(f"× {count}", 26, bold=True)) + 10


def _hand(
    canvas: Image.Image, pen: draw.Pen, left: int, right: int, bottom: int, count: int
) -> None:
    """Face-down tiles for the count, as many as fit between `left` and `right`, then
    the number itself."""
    back = draw.back_sprite(16, _BACK_HEIGHT)
    top = bottom - back.height
    label = f"× {count}"
    room = right - left - round(text.width(label, 26, bold=True)) - 10
    step = back.width + 4
    shown = max(0, min(count, room // step))
    for i in range(shown):
        draw.paste(canvas, back, left + i * step, top)
    draw.write(
        pen,
        (left + shown * step + 6, top + back.height / 2),
        label,
        26,
        draw.INK,
        bold=True,
        anchor="lm",
    )


def just_laid(view: MatchView) -> frozenset[int]:
    """The tiles (their `Placement.seq`) the table marks as just laid: the last one; where
    a mover lays several tiles a turn (section V: Блиц, Крест; `GameVariant.many_per_turn`)
    every tile of the turn in progress or just ended, so that the group sees what the
    turn laid: the last mover's run of `Played` events back to another seat's event, or
    to its own `Ended`, `Knocked` or `Flipped` (Втемную: a tile turned up that fitted
    nowhere) that ended an earlier turn. A table whose history does not lay its tiles
    (a hand-built view) marks its last tile."""
    placements = view.round.layout.placements
    if not placements:
        return frozenset()
    history = view.round.history
    laying = [event for event in history if isinstance(event, Played | Closed)]
    if not view.ruleset.game.many_per_turn or len(laying) != len(placements):
        return frozenset({placements[-1].seq})
    run, mover = 0, laying[-1].seat
    for event in reversed(history):
        if run and (event.seat != mover or isinstance(event, Ended | Knocked | Flipped)):
            break
        run += isinstance(event, Played | Closed)
    return frozenset(placement.seq for placement in placements[-run:])


def draw_tiles(
    canvas: Image.Image,
    pen: draw.Pen,
    geometry: TableGeometry,
    end_counts: Mapping[End, int | None] | None = None,
    marked: Collection[int] | None = None,
) -> None:
    """The played tiles where `geometry` puts them, those just laid (`marked`, by
    `Placement.seq`: default the last; `just_laid`) each with a warm face and a ring
    unless the table holds one tile only, a closed end's double face down (O-3), and
    each open end's badge with the pip to match (`end_badges`: where the game sums the
    open ends, `end_counts` F-3, an end that counts nothing muted and one that counts
    other than its pip with a tag that says what it counts)."""
    u = geometry.unit
    if marked is None:
        marked = {max(box.placement.seq for box in geometry.tiles)}
    if len(geometry.tiles) < 2:
        marked = set()
    ringed: list[Rect] = []
    for box in geometry.tiles:
        first, second = (half.pip for half in box.halves)
        is_marked = box.placement.seq in marked
        if box.placement.closed:  # O-3: face down, its end closed for good
            sprite = draw.closed_sprite(u, box.orientation)
        else:
            sprite = draw.tile_sprite(first, second, u, box.orientation, last=is_marked)
        draw.paste(canvas, sprite, box.rect.x0, box.rect.y0)
        if is_marked:
            ringed.append(box.rect)
    rings = [(rect, draw.LAST_RING) for rect in ringed]
    for box in geometry.tiles:  # C-10: the spinner's own ring, unless it is just laid
        if box.placement.seq == geometry.spinner and box.rect not in ringed:
            rings.insert(0, (box.rect, draw.SPINNER_RING))
    for r, colour in rings:  # after every tile, so that neighbouring tiles keep their rings
        pen.rounded_rectangle(
            (r.x0 - _RING, r.y0 - _RING, r.x1 + _RING, r.y1 + _RING),
            radius=max(4, u // 2),
            outline=colour,
            width=4,
        )
    for badge in end_badges(geometry, end_counts):
        fill, ink = _MUTED if badge.muted else (draw.END_BADGE, draw.END_INK)
        draw.badge(canvas, badge.centre, badge.diameter, badge.label, fill, ink)
        arrow = badge.arrow
        if arrow is not None:
            r = arrow.rect
            pen.rounded_rectangle((r.x0, r.y0, r.x1, r.y1), radius=r.height // 2, fill=fill)
            draw.write(pen, r.centre, arrow.label, arrow.size, ink, bold=True, anchor="mm")
        tag = badge.tag
        if tag is not None:
            r = tag.rect
            pen.rounded_rectangle((r.x0, r.y0, r.x1, r.y1), radius=r.height // 2, fill=draw.PANEL)
            draw.write(pen, r.centre, tag.label, tag.size, tag.colour, bold=True, anchor="mm")


_MUTED = (draw.END_MUTED, draw.END_MUTED_INK)


def end_badges(
    geometry: TableGeometry, end_counts: Mapping[End, int | None] | None = None
) -> tuple[Badge, ...]:
    """The open ends' badges, each with the pip the next tile must match and beside it a
    tab with the end's arrow (`ARROWS`: the hand's name for the end), out beyond the
    end where that is free. Where the game sums the open ends (`end_counts`, F-3): an
    end that counts nothing (an empty arm of the spinner) is muted, its tab too, and one
    that counts other than its pip (a double lying across it, or the spinner while it is
    an end, counts both halves) gets a tag «=12» with what it counts, beside its badge
    where that is free: at its right, under it, at its left or over it, clear of the
    tiles, the other badges and their tabs, and inside the table."""
    badges = []
    for mark in geometry.ends:
        centre, diameter = _badge_place(geometry, mark)
        count = None if end_counts is None else end_counts.get(mark.end)
        muted = end_counts is not None and count is None
        badges.append(Badge(mark.end, centre, diameter, str(mark.pip), muted))
    # A tile's ring reaches `_RING` px beyond it: no pill on it either.
    taken = [_grown(box.rect, _RING) for box in geometry.tiles]
    taken += [badge.rect for badge in badges]
    for index, (badge, mark) in enumerate(zip(badges, geometry.ends, strict=True)):
        size = max(12, badge.diameter * 3 // 5)  # the badge's own number's size
        arrow = _beside(geometry, badge, ARROWS[mark.end], taken, size, mark.direction)
        taken.append(arrow.rect)
        badges[index] = dataclasses.replace(badge, arrow=arrow)
    if end_counts is None:
        return tuple(badges)
    for index, (badge, mark) in enumerate(zip(badges, geometry.ends, strict=True)):
        count = end_counts.get(mark.end)
        if count is None or count == mark.pip:
            continue
        tag = _beside(geometry, badge, f"={count}", taken)
        taken.append(tag.rect)
        badges[index] = dataclasses.replace(badge, tag=tag)
    return tuple(badges)


def _beside(
    geometry: TableGeometry,
    badge: Badge,
    label: str,
    taken: Sequence[Rect],
    size: int | None = None,
    first: tuple[int, int] | None = None,
) -> Note:
    """A small pill beside `badge` (its arrow, or what its end counts): the first place
    of right of it, under it, left of it and over it (the side `first` points to before
    them), then of the same a badge's width further out, that is inside the table and
    clear of `taken` (the tiles, the badges and the pills placed before); else the first
    of them pushed inside the table that is clear, else the one pushed inside that covers
    least of them (an end hemmed in at the table's edge). `size`: the label's, by default
    a little under the badge's number."""
    size = size or max(12, badge.diameter * 11 // 20)
    width = round(text.width(label, size, bold=True)) + size * 2 // 3
    height = size + max(4, size // 3)
    (cx, cy), half = badge.centre, badge.diameter / 2
    sides = [(1, 0), (0, 1), (-1, 0), (0, -1)]
    if first in sides:
        sides.remove(first)
        sides.insert(0, first)
    # Next to the badge, else a badge's width further out (beyond a pill placed there).
    reaches = (half + _TAG_GAP, half + 2 * _TAG_GAP + badge.diameter)
    centres = [
        (cx + dx * (reach + width / 2), cy + dy * (reach + height / 2))
        for reach in reaches
        for dx, dy in sides
    ]
    area = geometry.area
    w, h = width / 2, height / 2
    rects = [Rect(round(x - w), round(y - h), round(x + w), round(y + h)) for x, y in centres]
    inside = [_pushed_inside(rect, area) for rect in rects]
    for rect in (*rects, *inside):
        if area.contains(rect) and not any(rect.overlaps(other) for other in taken):
            return Note(rect, label, draw.END_BADGE, size)
    least = min(inside, key=lambda rect: sum(_common(rect, other) for other in taken))
    return Note(least, label, draw.END_BADGE, size)


def _grown(rect: Rect, by: int) -> Rect:
    return Rect(rect.x0 - by, rect.y0 - by, rect.x1 + by, rect.y1 + by)


def _common(a: Rect, b: Rect) -> int:
    """The area two rectangles share, in square pixels."""
    return max(0, min(a.x1, b.x1) - max(a.x0, b.x0)) * max(0, min(a.y1, b.y1) - max(a.y0, b.y0))


def _pushed_inside(rect: Rect, area: Rect) -> Rect:
    """`rect` moved the least that puts it inside `area` (no larger than it)."""
    dx = max(area.x0 - rect.x0, 0) - max(rect.x1 - area.x1, 0)
    dy = max(area.y0 - rect.y0, 0) - max(rect.y1 - area.y1, 0)
    return Rect(rect.x0 + dx, rect.y0 + dy, rect.x1 + dx, rect.y1 + dy)


def _badge_place(geometry: TableGeometry, mark: EndMark) -> tuple[tuple[float, float], int]:
    """The centre and diameter of an open end's badge: a unit beyond the end, inside
    the table."""
    u = geometry.unit
    diameter = max(14, u * 9 // 5)
    area = geometry.area
    (px, py), (dx, dy) = mark.point, mark.direction
    cx = min(max(px + dx * u, area.x0 + diameter / 2), area.x1 - diameter / 2)
    cy = min(max(py + dy * u, area.y0 + diameter / 2), area.y1 - diameter / 2)
    return (cx, cy), diameter
