"""A tournament's standings in one picture: `draw_standings(picture, lang)`.

Sent to the group after every match of a tournament and at its end
(docs/tournaments.md, «What players see»). The front end ranks the entrants and
formats their numbers; this draws them as given, one row each, best first: the place
(shared places repeated, «—» for none), the name (a computer's marked 🤖), the points,
the matches played, the first places at a table, and the tie-break the format uses
(Buchholz in Swiss, head to head in round robin) when it has a heading. Withdrawn
entrants are greyed at the bottom; the entrants of the table that just finished carry
a blue bar; in the final standings the winners are ringed in gold.

The look is the score sheet's (`render.scores`): its heading, its panels, its colours.
Like a round's end (`render.round_end`) it is read at a phone's width: no text under
`round_end.SMALLEST`, and it stays under `round_end.MAX_HEIGHT` (1.3 times its width)
for up to 32 entrants: past 18 rows the rows close up (smaller gaps, every text at the
smallest size) rather than the picture growing; only more than 32 would make it taller.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from i18n import Lang
from render import draw, labels, text
from render.geometry import Rect
from render.round_end import MAX_HEIGHT, SMALLEST, WIDTH

_TITLE_SIZE = 44  # as the score sheet's title
_SUBTITLE_SIZE = 36
_TOP = 212  # where the rows begin: the score sheet's heading of one line, then the heads
_BOTTOM = 16
_MARGIN = 40  # the rows' left and right, as on the score sheet
_PAD = 20  # inside a row, before the place and after the last column
_GAP = 24  # between two columns
_PITCH = 78  # a row and the gap under it, while the rows fit under `MAX_HEIGHT`
_MIN_PITCH = 44  # closed up: 32 rows under `MAX_HEIGHT`, an emoji (40 px) still fits
_WIDE_GAP, _NARROW_GAP = 8, 4
_DENSE = 64  # rows of a pitch under this draw every text at `SMALLEST`
_NAME_SIZE, _NUMBER_SIZE = 38, 40
_MIN_NAME = 380  # the name's room the tie-break's heading leaves at least
_BAR = 8  # the blue bar of the table that just finished
_RING = 3  # the winners' gold ring
COMPUTER_MARK = "🤖"


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One entrant's line, its numbers already formatted by the front end."""

    # Shared places are repeated («1», «2», «2»); None: no place (a withdrawn entrant).
    place: int | None
    # A person's, a pair's («Алиса и Боб») or a computer's.
    name: str
    # Marked 🤖 (unless the name already begins with it).
    computer: bool
    # Already formatted: «2½».
    points: str
    played: int
    # First places at a table (a match won).
    firsts: int
    # Buchholz «7», head to head «1½», or «».
    tiebreak: str
    withdrawn: bool
    # An entrant of the table that just finished.
    highlight: bool = False


@dataclass(frozen=True, slots=True)
class StandingsPicture:
    """The whole picture: its heading and its rows, best first (up to 32)."""

    # «🏆 Турнир · Козёл».
    title: str
    # «Тур 2 из 3 · круговой», «Итоги».
    subtitle: str
    # The tie-break column's heading; "" hides the column.
    tiebreak_heading: str
    rows: tuple[StandingsRow, ...]
    # The last round is over: the rows placed first are the winners, ringed in gold.
    final: bool = False


@dataclass(frozen=True, slots=True)
class _Column:
    centre: float
    width: int


def draw_standings(picture: StandingsPicture, lang: Lang) -> bytes:
    """The standings as PNG bytes, `WIDTH` wide and as tall as the rows need; the
    columns' headings in `lang`. Withdrawn rows are moved after the others, in their
    order."""
    rows = [row for row in picture.rows if not row.withdrawn]
    rows += [row for row in picture.rows if row.withdrawn]
    pitch = row_pitch(len(rows))
    height = _TOP + len(rows) * pitch + _BOTTOM
    canvas = Image.new("RGB", (WIDTH, height), draw.BACKGROUND)
    pen = draw.Pen(canvas)
    room = WIDTH - 96
    draw.write(pen, (48, 34), picture.title, _TITLE_SIZE, draw.INK, bold=True, max_width=room)
    draw.write(
        pen, (48, 100), picture.subtitle, _SUBTITLE_SIZE, draw.TURN, bold=True, max_width=room
    )
    dense = pitch < _DENSE
    name_size = SMALLEST if dense else _NAME_SIZE
    number_size = SMALLEST if dense else _NUMBER_SIZE
    place, name_x, values = _columns(picture, rows, lang, number_size)
    name_room = round(min(c.centre - c.width / 2 for c in values)) - _GAP - name_x
    heads = [labels.word(f"standings.{key}", lang) for key in ("points", "played", "firsts")]
    if picture.tiebreak_heading:
        heads.append(picture.tiebreak_heading)
    head_y = _TOP - 10
    draw.write(
        pen,
        (place.centre, head_y),
        labels.word("standings.place", lang),
        SMALLEST,
        draw.MUTED,
        anchor="md",
    )
    draw.write(
        pen,
        (name_x, head_y),
        labels.word("standings.entrant", lang),
        SMALLEST,
        draw.MUTED,
        anchor="ld",
        max_width=name_room,
    )
    for head, column in zip(heads, values, strict=True):
        draw.write(
            pen,
            (column.centre, head_y),
            head,
            SMALLEST,
            draw.MUTED,
            anchor="md",
            max_width=column.width,
        )
    gap = _WIDE_GAP if pitch >= _DENSE else _NARROW_GAP
    for index, row in enumerate(rows):
        y = _TOP + index * pitch
        box = Rect(_MARGIN, y, WIDTH - _MARGIN, y + pitch - gap)
        winner = picture.final and row.place == 1 and not row.withdrawn
        _row(pen, row, box, winner)
        mid = (box.y0 + box.y1) / 2
        ink = draw.MUTED if row.withdrawn else draw.INK
        shown = "—" if row.place is None else str(row.place)
        draw.write(
            pen,
            (place.centre, mid),
            shown,
            number_size,
            draw.TURN if winner else ink,
            bold=True,
            anchor="mm",
            max_width=place.width,
        )
        draw.write(
            pen,
            (name_x, mid),
            entrant_name(row, index, lang),
            name_size,
            ink,
            bold=True,
            anchor="lm",
            max_width=name_room,
        )
        for cell, column in zip(_cells(picture, row), values, strict=True):
            label, bold = cell
            draw.write(
                pen,
                (column.centre, mid),
                label,
                number_size,
                ink,
                bold=bold,
                anchor="mm",
                max_width=column.width,
            )
    return draw.encode_png(canvas)


def row_pitch(count: int) -> int:
    """A row's height and the gap under it: roomy while `count` rows fit under
    `MAX_HEIGHT`, then closed up as far as `_MIN_PITCH`, past which the picture grows."""
    if not count:
        return _PITCH
    room = MAX_HEIGHT - _TOP - _BOTTOM
    return max(_MIN_PITCH, min(_PITCH, room // count))


def entrant_name(row: StandingsRow, index: int, lang: Lang) -> str:
    """The name as drawn: a computer's marked 🤖, and a name with nothing drawable in
    it «Игрок N» by its line, so that no line is blank."""
    name = row.name.strip()
    if not (text.clean(name, True) and text.clean(name)):
        name = labels.word("player_n", lang, n=index + 1)
    if row.computer and not name.startswith(COMPUTER_MARK):
        name = f"{COMPUTER_MARK} {name}"
    return name


def _cells(picture: StandingsPicture, row: StandingsRow) -> list[tuple[str, bool]]:
    """A row's numbers, each with whether it is bold: the points are."""
    cells = [(row.points, True), (str(row.played), False), (str(row.firsts), False)]
    if picture.tiebreak_heading:
        cells.append((row.tiebreak, False))
    return cells


def _columns(
    picture: StandingsPicture, rows: list[StandingsRow], lang: Lang, size: int
) -> tuple[_Column, int, list[_Column]]:
    """The place's column, where the names begin, and the numbers' columns from the
    right edge leftwards: each as wide as its heading or its widest number, the
    tie-break's at most what leaves the names `_MIN_NAME`."""
    place_width = max(
        text.width(labels.word("standings.place", lang), SMALLEST),
        text.width(str(len(rows) or 1), size, bold=True),
    )
    place = _Column(_MARGIN + _PAD + place_width / 2, round(place_width))
    name_x = round(_MARGIN + _PAD + place_width + _GAP)
    heads = [labels.word(f"standings.{key}", lang) for key in ("points", "played", "firsts")]
    cells = [_cells(picture, row) for row in rows]
    widths = [
        max(
            text.width(head, SMALLEST),
            max((text.width(line[i][0], size, line[i][1]) for line in cells), default=0.0),
        )
        for i, head in enumerate(heads)
    ]
    if picture.tiebreak_heading:
        fixed = sum(widths) + _GAP * len(widths)
        most = WIDTH - _MARGIN - _PAD - name_x - _MIN_NAME - fixed - _GAP
        wanted = max(
            text.width(picture.tiebreak_heading, SMALLEST),
            max((text.width(row.tiebreak, size) for row in rows), default=0.0),
        )
        widths.append(max(text.width("00", size), min(wanted, most)))
    columns: list[_Column] = []
    right = WIDTH - _MARGIN - _PAD
    for width in reversed(widths):
        columns.insert(0, _Column(right - width / 2, round(width)))
        right -= round(width) + _GAP
    return place, name_x, columns


def _row(pen: draw.Pen, row: StandingsRow, box: Rect, winner: bool) -> None:
    """A row's panel: greyed (an outline on the background) for a withdrawn entrant,
    ringed in gold for a winner, with a blue bar at its left for the table that just
    finished."""
    corners = (box.x0, box.y0, box.x1, box.y1)
    if row.withdrawn:
        pen.rounded_rectangle(
            corners, radius=14, fill=draw.BACKGROUND, outline=draw.PANEL_EDGE, width=2
        )
    elif winner:
        pen.rounded_rectangle(corners, radius=14, fill=draw.PANEL, outline=draw.TURN, width=_RING)
    else:
        pen.rounded_rectangle(corners, radius=14, fill=draw.PANEL)
    if row.highlight:
        inset = min(12, (box.y1 - box.y0) // 4)
        pen.rounded_rectangle(
            (box.x0 + 5, box.y0 + inset, box.x0 + 5 + _BAR, box.y1 - inset),
            radius=3,
            fill=draw.TEAM_COLOURS[0],
        )
