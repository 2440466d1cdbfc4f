"""A round's end in one picture: `render_round_end(view, names, ended, result, lang)`.

Top to bottom: the score sheet's heading (the round, its outcome, the eggs), the table
as the round ended, laid out and marked as the table picture showed it
(`table.plan_felt`, `table.just_laid`: the last tile marked, or where a turn lays
several the last turn's; a closed end's double face down, the open ends' badges with
the pip to match and the end's arrow, and where the ends are summed the tags with what an end counts
other than its pip: a «рыба» shows why nothing fits), then one row per player or
pair: the tiles left in each hand laid face up with what they count (their pip sum,
C-9; where doubles count instead, B-1 and B-2, the doubles left), and the account
before the round, the round's points and the account after it (K-8); where moves
score in play, the round's points taken apart on a line under the row's seats (F-3:
«в игре +15 · в конце +10»). The game and its target at the foot.

Only what the end of a round lays open is drawn: the table and the hands. The bazaar's
tiles stay face down, so they are not drawn at all. The picture is `WIDTH` wide and
as tall as its rows need (at most `MAX_HEIGHT`), so that a phone shows it readably:
no text on it is smaller than `SMALLEST`, 9 px at a phone's chat width.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from PIL import Image

from domino.actions import Played
from domino.round import Round
from domino.tiles import Tile
from domino.views import MatchView, OutcomeKind, RoundResult, Scored
from render import counts, draw, labels, scores, text
from render.geometry import Orientation, Rect, RenderError
from render.table import TABLE_AREA, draw_tiles, end_badges, just_laid, plan_felt

WIDTH = 1280
MAX_HEIGHT = 1660
"""The tallest a round's end picture gets (four seats, or two pairs, over a full table):
under 1.3 times its width, so that a phone shows it as wide as the chat."""

_MARGIN = 12
_MIN_TABLE = 280
_NAME_X = 56
_COLUMNS = (905, 1040, 1170)  # centres of «было», «раунд», «стало»
_CELL = 124  # the widest a number in a column is drawn
_HANDS_RIGHT = _COLUMNS[0] - _CELL // 2 - 20  # where the hands' room ends
_HEADS = 52  # the column heads above the rows
_ROW_GAP = 8
_ROW_PAD = 10
_NAME_LINE = 52  # a pair's names and tags, above its seats
_LABEL = 250  # a seat's name (and its tags under it), left of its hand: at least this
_MAX_LABEL = 420  # and at most this, so that seven tiles and their sum still fit after it
_UNIT = 16  # a hand's tiles stand upright, `2u x 4u`
_MIN_UNIT = 9
_TILE_GAP = 6
_TRAY_PAD = 7  # felt around a hand's tiles
_SEAT_LINE = 4 * _UNIT + 2 * _TRAY_PAD + 16  # one seat's name and hand
_SPLIT_LINE = 48  # the round's points taken apart, under a row's seats (F-3)
_FOOTER = 60

PHONE_WIDTH = 330
"""How wide a phone shows a picture in a chat, in its points (what text sizes on a
phone are measured in)."""
SMALLEST = 36
"""The smallest text on the picture, in pixels: at `PHONE_WIDTH` the picture's 1280 px
shrink 3.9 times, and 36 px become 9.3, which a phone reads without opening the
picture (the 20-26 px words it had became 5-7). Telegram's own smallest texts in a
chat, the time under a message, are 11-12; the words here are bold or light on dark."""
_NAME_SIZE = 38  # a player's or a pair's name
_SEAT_NAME_SIZE = SMALLEST  # a name of a pair's seat
_NUMBER_SIZE = 40  # «было», «раунд», «стало»

Tags = list[tuple[str, draw.RGB]]


def render_round_end(
    view: MatchView,
    names: Sequence[str],
    ended: Round,
    result: RoundResult | None = None,
    lang: str = "ru",
) -> bytes:
    """Round `ended` as it ended, every hand laid open, and the score sheet, as PNG bytes
    `WIDTH` wide; `result` is that round's line (default: the last round's), the words in
    `lang` (`i18n.Lang`; any other is drawn in Russian)."""
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
    doubles = counts.doubles_count(view)
    totals = [_hand_total(hand, lang, doubles) for hand in hands]
    most = _HANDS_RIGHT - _NAME_X - max(map(_hand_room, hands, totals))
    column = name_column(view, names, _seat_tags(view, result, lang), max(_MAX_LABEL, most))
    split = counts.split_points(view, result, ended)
    heights = [_row_height(len(seats), split is not None) for seats in view.sides]
    table = _table(_as_played(view, ended), names, lang)
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
    canvas.paste(table, (TABLE_AREA.x0, felt.y0 + 8))
    _column_heads(pen, view, top, lang)
    y = top
    for side, row_height in enumerate(heights):
        row = Rect(40, y, WIDTH - 40, y + row_height)
        _row(canvas, pen, view, names, result, hands, side, row, lang, column, split)
        y += row_height + _ROW_GAP
    footer = labels.word(
        "to", lang, game=labels.variant_name(view, lang), target=view.ruleset.target
    )
    draw.write(pen, (WIDTH / 2, height - 16), footer, SMALLEST, draw.MUTED, anchor="md")
    return draw.encode_png(canvas)


def name_column(
    view: MatchView,
    names: Sequence[str],
    tags: Sequence[Tags] | None = None,
    most: int = _MAX_LABEL,
) -> int:
    """The room left of the hands for the seats' names and the words under them
    (`tags`, per seat): the widest the picture shows (a pair's seats in their smaller
    letters), between `_LABEL` and `most` (at least `_MAX_LABEL`: seven tiles and their
    sum still fit after it; more where the hands are shorter), so that «🤖 Компьютер 1»
    is not cut and «победа набирает 256» is not hidden under the hand while the row has
    room."""
    widest = max(
        max(
            text.width(names[seat], _NAME_SIZE if len(seats) == 1 else _SEAT_NAME_SIZE, True),
            scores.tags_width(tags[seat], SMALLEST) if tags else 0.0,
        )
        for seats in view.sides
        for seat in seats
    )
    return max(_LABEL, min(most, round(widest) + 24))


def _hand_total(hand: Sequence[Tile], lang: str, doubles: bool) -> str:
    """What a hand left counts, written after it: its pip sum (C-9), or where doubles
    count instead (`doubles`: B-1, B-2) the doubles in it; for an empty hand, that."""
    if not hand:
        return labels.word("no_tiles", lang)
    if doubles:
        return labels.doubles_left(sum(tile.is_double for tile in hand), lang)
    return f"= {sum(tile.low + tile.high for tile in hand)}"


def _hand_room(hand: Sequence[Tile], total: str) -> int:
    """The width a hand takes at its full size, its strip of felt and `total` included."""
    if not hand:
        return round(text.width(total, SMALLEST))
    tiles = len(hand) * (2 * _UNIT + _TILE_GAP) - _TILE_GAP
    return tiles + 2 * _TRAY_PAD + 14 + round(text.width(total, SMALLEST, bold=True))


def _seat_tags(view: MatchView, result: RoundResult | None, lang: str) -> list[Tags]:
    """The words under each seat's name: a player's are its side's (`scores.side_tags`),
    a pair's seat has only who went out or made fish (C-8)."""
    return [
        scores.side_tags(view, result, view.side_of(seat), lang)
        if len(view.sides[view.side_of(seat)]) == 1
        else _outcome_tags(view, result, seat, lang)
        for seat in range(view.players)
    ]


def _row_height(seats: int, split: bool = False) -> int:
    """A side's row: its seats (a pair's under its names), and the line that takes its
    round's points apart (`split`, F-3) under them."""
    lines = _SEAT_LINE if seats == 1 else _NAME_LINE + seats * _SEAT_LINE
    return _ROW_PAD + lines + (_SPLIT_LINE if split else 0) + _ROW_PAD


def _as_played(view: MatchView, ended: Round) -> MatchView:
    """The public view of the table as the last move of round `ended` left it, as the
    table picture showed it then: its round, and the move's points if it scored (F-3)."""
    played = ended.view(None)
    last = played.history[-1] if played.history else None
    scored = None
    if isinstance(last, Played):
        points, count = view.ruleset.game.move_points(view.ruleset, played.layout)
        scored = Scored(last.seat, points, count) if points else None
    return dataclasses.replace(view, round=played, scored=scored)


def _table(played: MatchView, names: Sequence[str], lang: str) -> Image.Image:
    """The tiles as the round ended, where the table picture laid them after its last
    move (`table.plan_felt`: a spinner's UP and DOWN arms run up and down, C-10; each
    open end's badge shows the pip to match and, where the open ends are summed, F-3,
    a tag beside it what it counts where that is not its pip, `table.end_badges`) and
    marked as it marked them (`table.just_laid`), cut to the band of the felt they and
    the badges take (at least `_MIN_TABLE` tall): a short line leaves no empty felt.
    The notes on the felt are the table's, not drawn here."""
    layout = played.round.layout
    geometry, _ = plan_felt(played, names, lang)
    band = Image.new("RGB", (WIDTH, TABLE_AREA.y1), draw.FELT)
    ends = counts.end_counts(layout) if counts.sums_ends(played) else None
    draw_tiles(band, draw.Pen(band), geometry, ends, just_laid(played))
    reach = 2 * geometry.unit + 12  # the open ends' numbers stand beyond the tiles
    tags = [rect for badge in end_badges(geometry, ends) for rect in badge.rects[1:]]
    top = min([box.rect.y0 - reach for box in geometry.tiles] + [r.y0 - 6 for r in tags])
    bottom = max([box.rect.y1 + reach for box in geometry.tiles] + [r.y1 + 6 for r in tags])
    top, bottom = max(TABLE_AREA.y0, top), min(TABLE_AREA.y1, bottom)
    short = _MIN_TABLE - (bottom - top)
    if short > 0:
        top = max(TABLE_AREA.y0, top - short // 2)
        bottom = min(TABLE_AREA.y1, top + _MIN_TABLE)
    return band.crop((TABLE_AREA.x0, top, TABLE_AREA.x1, bottom))


def _column_heads(pen: draw.Pen, view: MatchView, top: int, lang: str) -> None:
    heads = (labels.word(key, lang) for key in ("before", "points", "after"))
    for label, x in zip(heads, _COLUMNS, strict=True):
        draw.write(pen, (x, top - 10), label, SMALLEST, draw.MUTED, anchor="md")
    who = labels.word("pair" if labels.is_team_play(view) else "player", lang)
    draw.write(pen, (_NAME_X, top - 10), who, SMALLEST, draw.MUTED, anchor="ld")


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
    split: counts.Split | None = None,
) -> None:
    """A side's row: each seat's name and hand laid open, then the three columns and
    where moves score in play the round's points taken apart under them (`split`); a
    pair is named above its two seats (the pair's letter in its colour), with the
    words that are the pair's (its win, the score it reached, F-6)."""
    pen.rounded_rectangle(
        (row.x0, row.y0, row.x1, row.y1), radius=14, fill=scores.row_fill(view, side)
    )
    seats = view.sides[side]
    y = row.y0 + _ROW_PAD
    doubles = counts.doubles_count(view)
    if len(seats) == 1:
        tags = scores.side_tags(view, result, side, lang)
        _seat_line(
            canvas,
            pen,
            names[seats[0]],
            tags,
            hands[seats[0]],
            y,
            lang,
            column=column,
            doubles=doubles,
        )
    else:
        colour = draw.TEAM_COLOURS[side % len(draw.TEAM_COLOURS)]
        pen.rounded_rectangle(
            (row.x0 + 5, row.y0 + 14, row.x0 + 11, row.y1 - 14), radius=3, fill=colour
        )
        mid = y + _NAME_LINE / 2 - 4
        reached = result is not None and result.outcome.kind is OutcomeKind.REACHED
        tags = scores.side_tags(view, result if reached else None, side, lang)  # K-10, T-6; F-6
        room = row.x1 - 16 - _NAME_X
        needed = scores.tags_width(tags, SMALLEST)
        name_room = max(room // 3, min(_HANDS_RIGHT - _NAME_X, round(room - needed) - 18))
        x = _NAME_X + draw.write(
            pen,
            (_NAME_X, mid),
            labels.side_name(view, side, names, lang),
            _NAME_SIZE,
            draw.INK,
            bold=True,
            anchor="lm",
            max_width=name_room,
        )
        tags_room = _NAME_X + room - x - 18
        scores.draw_tags(pen, (x + 18, mid + 2), tags, tags_room, SMALLEST, SMALLEST)
        y += _NAME_LINE
        for seat in seats:
            _seat_line(
                canvas,
                pen,
                names[seat],
                _outcome_tags(view, result, seat, lang),
                hands[seat],
                y,
                lang,
                size=_SEAT_NAME_SIZE,
                column=column,
                doubles=doubles,
            )
            y += _SEAT_LINE
    seats_bottom = row.y1 - _ROW_PAD - (_SPLIT_LINE if split is not None else 0)
    numbers_y = (row.y0 + seats_bottom) / 2
    for (label, tint), cx in zip(scores.side_cells(view, result, side), _COLUMNS, strict=True):
        draw.write(
            pen, (cx, numbers_y), label, _NUMBER_SIZE, tint, bold=True, anchor="mm", max_width=_CELL
        )
    if split is not None:
        # Under the seats, as wide as the row: at a phone's width it stays readable.
        below = seats_bottom + _SPLIT_LINE / 2
        said = scores.split_label(split, side, lang)
        room = row.x1 - 16 - _NAME_X
        draw.write(
            pen,
            (row.x1 - 16, below),
            said,
            SMALLEST,
            draw.MUTED,
            anchor="rm",
            max_width=room,
        )
    if result is not None and result.eggs_taken_by == side and result.eggs_before:
        egg = draw.egg_sprite(26)
        draw.paste(canvas, egg, _COLUMNS[1] + 44, round(numbers_y - egg.height / 2))


def _outcome_tags(view: MatchView, result: RoundResult | None, seat: int, lang: str) -> Tags:
    """Under a pair's seat: «домино» for the seat that went out, «рыбак» for the one
    that made fish (C-8); the score a move reached (F-6) is the pair's, on its line."""
    if result is None or result.outcome.seat != seat:
        return []
    if result.outcome.kind is OutcomeKind.REACHED:
        return []
    return [(labels.outcome_tag(view, result.outcome, 0, lang), draw.TURN)]


def _seat_line(
    canvas: Image.Image,
    pen: draw.Pen,
    name: str,
    tags: Sequence[tuple[str, draw.RGB]],
    hand: Sequence[Tile],
    top: int,
    lang: str,
    size: int = _NAME_SIZE,
    column: int = _LABEL,
    *,
    doubles: bool = False,
) -> None:
    """A seat's name (its tags under it, within the name's column) and its hand: the
    tiles face up on a strip of felt and after it what they count, their pip sum (C-9)
    or where doubles count instead (`doubles`: B-1, B-2) the doubles left; a seat that
    went out has nothing left."""
    mid = top + _SEAT_LINE / 2
    name_y = mid - 21 if tags else mid
    draw.write(
        pen, (_NAME_X, name_y), name, size, draw.INK, bold=True, anchor="lm", max_width=column - 16
    )
    scores.draw_tags(pen, (_NAME_X, mid + 22), tags, column - 16, SMALLEST, SMALLEST)
    left = _NAME_X + column
    total = _hand_total(hand, lang, doubles)
    if not hand:
        draw.write(pen, (left, mid), total, SMALLEST, draw.MUTED, anchor="lm")
        return
    total_width = round(text.width(total, SMALLEST, bold=True)) + 16
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
    draw.write(pen, (end, mid), total, SMALLEST, draw.INK, bold=True, anchor="lm")
