"""A round's end in one picture: `render_round_end(view, names, ended, result, lang)`.

Top to bottom: the score sheet's heading (the round, its outcome, the eggs), the table
as the round ended (the last tile marked as on the table picture, a closed end's double
face down, the open ends' numbers: a «рыба» shows why nothing fits), then one row per
player or pair: the tiles left in each hand laid face up with their pip sum (C-9), and
the account before the round, the round's points and the account after it (K-8). The
game and its target at the foot.

Only what the end of a round lays open is drawn: the table and the hands. The bazaar's
tiles stay face down, so they are not drawn at all. The picture is `WIDTH` wide and
as tall as its rows need (at most `MAX_HEIGHT`), so that a phone shows it readably.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from domino.round import Round
from domino.tiles import Tile
from domino.views import MatchView, RoundResult
from render import counts, draw, labels, scores, text
from render.geometry import Orientation, Rect, RenderError, table_geometry
from render.table import draw_tiles

WIDTH = 1280
MAX_HEIGHT = 1600
"""The tallest a round's end picture gets (four seats, or two pairs)."""

_MARGIN = 12
_AREA = Rect(_MARGIN + 8, 0, WIDTH - _MARGIN - 8, 552)
"""Where the tiles may lie (on a canvas of their own); the felt drawn is cut to the band
they take."""
_MIN_TABLE = 280
_NAME_X = 56
_COLUMNS = (905, 1040, 1170)  # centres of «было», «раунд», «стало»
_CELL = 124  # the widest a number in a column is drawn
_HANDS_RIGHT = _COLUMNS[0] - _CELL // 2 - 20  # where the hands' room ends
_HEADS = 48  # the column heads above the rows
_ROW_GAP = 8
_ROW_PAD = 10
_NAME_LINE = 48  # a pair's names and tags, above its seats
_LABEL = 250  # a seat's name (and its tags under it), left of its hand: at least this
_MAX_LABEL = 420  # and at most this, so that seven tiles and their sum still fit after it
_UNIT = 16  # a hand's tiles stand upright, `2u x 4u`
_MIN_UNIT = 9
_TILE_GAP = 6
_TRAY_PAD = 7  # felt around a hand's tiles
_SEAT_LINE = 4 * _UNIT + 2 * _TRAY_PAD + 10  # one seat's name and hand
_FOOTER = 56


def render_round_end(
    view: MatchView,
    names: Sequence[str],
    ended: Round,
    result: RoundResult | None = None,
    lang: str = "ru",
) -> bytes:
    """Round `ended` as it ended, every hand laid open, and the score sheet, as PNG bytes
    `WIDTH` wide; `result` is that round's line (default: the last round's), the words in
    `lang` (`labels.LANGS`)."""
    labels.check_names(view, names)
    if not ended.over or ended.outcome is None:
        raise RenderError("the round has not ended: its hands are not shown")
    if ended.view(None).players != view.players:
        raise RenderError(
            f"a round of {ended.view(None).players} seats in a match of {view.players}"
        )
    names = labels.shown_names(names, lang)
    if result is None and view.results:
        result = view.results[-1]
    hands = tuple(ended.hand(seat) for seat in range(view.players))
    column = name_column(view, names)
    heights = [_row_height(len(seats)) for seats in view.sides]
    table = _table(ended, counts.sums_ends(view))
    heading = scores.heading_height(view, result)
    felt = Rect(_MARGIN, heading, WIDTH - _MARGIN, heading + table.height + 16)
    top = felt.y1 + 16 + _HEADS
    height = top + sum(h + _ROW_GAP for h in heights) + _FOOTER
    if height > MAX_HEIGHT:
        raise RenderError(f"{len(view.sides)} rows need {height} px, more than {MAX_HEIGHT}")
    canvas = Image.new("RGB", (WIDTH, height), draw.BACKGROUND)
    pen = draw.Pen(canvas)
    scores.draw_heading(canvas, pen, view, names, result, lang)
    draw.felt(pen, (felt.x0, felt.y0, felt.x1, felt.y1))
    canvas.paste(table, (_AREA.x0, felt.y0 + 8))
    _column_heads(pen, view, top, lang)
    y = top
    for side, row_height in enumerate(heights):
        row = Rect(40, y, WIDTH - 40, y + row_height)
        _row(canvas, pen, view, names, result, hands, side, row, lang, column)
        y += row_height + _ROW_GAP
    footer = labels.word(
        "to", lang, game=labels.variant_name(view, lang), target=view.ruleset.target
    )
    draw.write(pen, (WIDTH / 2, height - 20), footer, 24, draw.MUTED, anchor="md")
    return draw.encode_png(canvas)


def name_column(view: MatchView, names: Sequence[str]) -> int:
    """The room left of the hands for the seats' names: the widest name the picture
    shows (a pair's seats in their smaller letters), between `_LABEL` and `_MAX_LABEL`,
    so that «🤖 Компьютер 1» is not cut while the row has room for it."""
    widest = max(
        text.width(names[seat], 32 if len(seats) == 1 else 28, bold=True)
        for seats in view.sides
        for seat in seats
    )
    return max(_LABEL, min(_MAX_LABEL, round(widest) + 24))


def _row_height(seats: int) -> int:
    if seats == 1:
        return _SEAT_LINE + 2 * _ROW_PAD
    return _ROW_PAD + _NAME_LINE + seats * _SEAT_LINE + _ROW_PAD


def _table(ended: Round, scoring: bool) -> Image.Image:
    """The tiles as the round ended, laid out as on the table picture (where the open ends
    are summed, `scoring`, each end's badge says what it counts, F-3), cut to the band of
    the felt they take (at least `_MIN_TABLE` tall): a short line leaves no empty felt."""
    band = Image.new("RGB", (WIDTH, _AREA.y1), draw.FELT)
    layout = ended.view(None).layout
    geometry = table_geometry(layout, _AREA)
    draw_tiles(band, draw.Pen(band), geometry, counts.end_counts(layout) if scoring else None)
    reach = 2 * geometry.unit + 12  # the open ends' numbers stand beyond the tiles
    top = max(_AREA.y0, min(box.rect.y0 for box in geometry.tiles) - reach)
    bottom = min(_AREA.y1, max(box.rect.y1 for box in geometry.tiles) + reach)
    short = _MIN_TABLE - (bottom - top)
    if short > 0:
        top = max(_AREA.y0, top - short // 2)
        bottom = min(_AREA.y1, top + _MIN_TABLE)
    return band.crop((_AREA.x0, top, _AREA.x1, bottom))


def _column_heads(pen: draw.Pen, view: MatchView, top: int, lang: str) -> None:
    heads = (labels.word(key, lang) for key in ("before", "points", "after"))
    for label, x in zip(heads, _COLUMNS, strict=True):
        draw.write(pen, (x, top - 12), label, 26, draw.MUTED, anchor="md")
    who = labels.word("pair" if labels.is_team_play(view) else "player", lang)
    draw.write(pen, (_NAME_X, top - 12), who, 26, draw.MUTED, anchor="ld")


def _row(
    canvas: Image.Image,
    pen: draw.Pen,
    view: MatchView,
    names: Sequence[str],
    result: RoundResult | None,
    hands: Sequence[Sequence[Tile]],
    side: int,
    row: Rect,
    lang: str,
    column: int = _LABEL,
) -> None:
    """A side's row: each seat's name and hand laid open, then the three columns; a pair
    is named above its two seats (the pair's letter in its colour)."""
    pen.rounded_rectangle(
        (row.x0, row.y0, row.x1, row.y1), radius=14, fill=scores.row_fill(view, side)
    )
    seats = view.sides[side]
    y = row.y0 + _ROW_PAD
    if len(seats) == 1:
        tags = scores.side_tags(view, result, side, lang)
        _seat_line(canvas, pen, names[seats[0]], tags, hands[seats[0]], y, lang, column=column)
    else:
        colour = draw.TEAM_COLOURS[side % len(draw.TEAM_COLOURS)]
        pen.rounded_rectangle(
            (row.x0 + 5, row.y0 + 14, row.x0 + 11, row.y1 - 14), radius=3, fill=colour
        )
        mid = y + _NAME_LINE / 2 - 4
        x = _NAME_X + draw.write(
            pen,
            (_NAME_X, mid),
            labels.side_name(view, side, names, lang),
            32,
            draw.INK,
            bold=True,
            anchor="lm",
            max_width=_HANDS_RIGHT - _NAME_X - 200,
        )
        for label, tint in scores.side_tags(view, None, side, lang):  # K-10, O-6; T-6
            x += 18 + draw.write(pen, (x + 18, mid + 2), label, 22, tint, bold=True, anchor="lm")
        y += _NAME_LINE
        for seat in seats:
            tags = _outcome_tags(view, result, seat, lang)
            _seat_line(canvas, pen, names[seat], tags, hands[seat], y, lang, size=28, column=column)
            y += _SEAT_LINE
    mid_y = (row.y0 + row.y1) / 2
    for (label, tint), cx in zip(scores.side_cells(view, result, side), _COLUMNS, strict=True):
        draw.write(pen, (cx, mid_y), label, 38, tint, bold=True, anchor="mm", max_width=_CELL)
    if result is not None and result.eggs_taken_by == side and result.eggs_before:
        egg = draw.egg_sprite(26)
        draw.paste(canvas, egg, _COLUMNS[1] + 44, round(mid_y - egg.height / 2))


def _outcome_tags(
    view: MatchView, result: RoundResult | None, seat: int, lang: str
) -> list[tuple[str, draw.RGB]]:
    """«домино» for the seat that went out, «рыбак» for the one that made fish (C-8),
    «набирает 250» for the one whose move reached the target (F-6)."""
    if result is None or result.outcome.seat != seat:
        return []
    return [(labels.outcome_tag(result.outcome, view.ruleset.target, lang), draw.TURN)]


def _seat_line(
    canvas: Image.Image,
    pen: draw.Pen,
    name: str,
    tags: Sequence[tuple[str, draw.RGB]],
    hand: Sequence[Tile],
    top: int,
    lang: str,
    size: int = 32,
    column: int = _LABEL,
) -> None:
    """A seat's name (its tags under it) and its hand: the tiles face up on a strip of
    felt and their pip sum after it (C-9); a seat that went out has nothing left."""
    mid = top + _SEAT_LINE / 2
    name_y = mid - 14 if tags else mid
    draw.write(
        pen, (_NAME_X, name_y), name, size, draw.INK, bold=True, anchor="lm", max_width=column - 16
    )
    x = float(_NAME_X)
    for label, tint in tags:
        x += draw.write(pen, (x, mid + 22), label, 22, tint, bold=True, anchor="lm") + 14
    left = _NAME_X + column
    if not hand:
        draw.write(pen, (left, mid), labels.word("no_tiles", lang), 26, draw.MUTED, anchor="lm")
        return
    total = f"= {sum(tile.low + tile.high for tile in hand)}"
    total_width = round(text.width(total, 30, bold=True)) + 16
    room = _HANDS_RIGHT - left - total_width - 2 * _TRAY_PAD
    count, unit = len(hand), _UNIT
    while unit > _MIN_UNIT and count * (2 * unit + _TILE_GAP) - _TILE_GAP > room:
        unit -= 1
    step = 2 * unit + _TILE_GAP
    if count > 1 and (count - 1) * step + 2 * unit > room:
        step = (room - 2 * unit) // (count - 1)  # a long hand overlaps, as held in a fan
    width = step * (len(hand) - 1) + 2 * unit
    tray_top = round(mid - 2 * unit - _TRAY_PAD)
    pen.rounded_rectangle(
        (left, tray_top, left + width + 2 * _TRAY_PAD, tray_top + 4 * unit + 2 * _TRAY_PAD),
        radius=10,
        fill=draw.FELT,
    )
    for index, tile in enumerate(hand):
        sprite = draw.tile_sprite(tile.low, tile.high, unit, Orientation.VERTICAL)
        draw.paste(canvas, sprite, left + _TRAY_PAD + index * step, tray_top + _TRAY_PAD)
    end = left + width + 2 * _TRAY_PAD + 14
    draw.write(pen, (end, mid), total, 30, draw.INK, bold=True, anchor="lm")
