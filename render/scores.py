"""The score sheet shown at the end of a round and of a match: `render_scores`.

One line per player (or pair): the account before the round, the round's points,
the account after it (K-8's table), who went out or made fish, a drawn round, the eggs
(K-9), in games that score in play the round's points taken apart (F-3: «в игре +15 ·
в конце +10»), and at the end of the match the loser in the game's own word
where points are bad (the козёл, K-10; the осёл, O-6) or the winner where they are good
(T-6, M-6, S-6, in green); the game and the target it is played to at the foot.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from PIL import Image

from domino.round import Round
from domino.views import MatchView, RoundResult
from render import counts, draw, labels, text
from render.geometry import Rect

WIDTH, HEIGHT = 1280, 720
SCORES_SIZE = (WIDTH, HEIGHT)
"""The size of every score sheet picture, in pixels."""

_NAME_X = 56
_COLUMNS = (700, 905, 1120)  # centres of «было», «раунд», «стало»
_ROW_HEIGHT = 96
TAG_SIZE = 22
"""The size of the words under a name; shrunk to `_MIN_TAG_SIZE` where they need it."""
_MIN_TAG_SIZE = 15
_TAG_GAP = 14
SPLIT_SIZE = 20
"""The size of the line that takes a side's round points apart (F-3); shrunk to
`_MIN_SPLIT_SIZE` where it needs it."""
_MIN_SPLIT_SIZE = 15
HEADING_SIZE = 36
"""The lines under a sheet's title (the match's end, the round's outcome) and its eggs:
9 px tall at a phone's chat width, as the round's end needs (`render.round_end`)."""
_HEADING_STEP = 48


def render_scores(
    view: MatchView,
    names: Sequence[str],
    result: RoundResult | None = None,
    lang: str = "ru",
    ended: Round | None = None,
) -> bytes:
    """The score sheet as PNG bytes of `SCORES_SIZE`; `result` defaults to the last round;
    the words in `lang` (`i18n.Lang`; any other is drawn in Russian). `ended`, the
    result's round as it ended, lets a game that scores in play take each side's points
    apart (`counts.split_points`); without it only the current round's are known."""
    labels.check_names(view, names)
    names = labels.shown_names(names, lang)
    if result is None and view.results:
        result = view.results[-1]
    split = counts.split_points(view, result, ended)
    canvas = Image.new("RGB", SCORES_SIZE, draw.BACKGROUND)
    pen = draw.Pen(canvas)
    draw_heading(canvas, pen, view, names, result, lang)
    top = 264
    pen.line((40, top - 14, WIDTH - 40, top - 14), fill=draw.PANEL_EDGE, width=2)
    columns = (labels.word(key, lang) for key in ("before", "points", "after"))
    for label, x in zip(columns, _COLUMNS, strict=True):
        draw.write(pen, (x, top - 24), label, 26, draw.MUTED, anchor="md")
    draw.write(
        pen,
        (_NAME_X, top - 24),
        labels.word("pair" if labels.is_team_play(view) else "player", lang),
        26,
        draw.MUTED,
        anchor="ld",
    )
    for side in range(len(view.sides)):
        row = Rect(40, top + side * _ROW_HEIGHT, WIDTH - 40, top + (side + 1) * _ROW_HEIGHT - 8)
        _row(canvas, pen, view, names, result, side, row, lang, split)
    footer = labels.word(
        "to", lang, game=labels.variant_name(view, lang), target=view.ruleset.target
    )
    draw.write(pen, (WIDTH / 2, HEIGHT - 24), footer, 24, draw.MUTED, anchor="md")
    return draw.encode_png(canvas)


def draw_heading(
    canvas: Image.Image,
    pen: draw.Pen,
    view: MatchView,
    names: Sequence[str],
    result: RoundResult | None,
    lang: str,
) -> None:
    """The sheet's title, the match's end and the round's outcome under it, and the eggs
    at the right, across the top `heading_height` px of a `WIDTH` wide canvas."""
    if view.over:
        title = labels.word("over", lang)
    elif result is not None:
        title = labels.word("results", lang, n=result.round_no)
    else:
        title = labels.word("score", lang, n=view.round_no)
    draw.write(pen, (48, 34), title, 44, draw.INK, bold=True)
    lines: list[tuple[str, draw.RGB]] = []
    if view.over:
        end = labels.match_end(view, names, lang)
        lines.append((end, draw.RECORDED if view.losers else draw.GOOD))
    if result is not None:
        score = labels.reached_score(view, result)
        outcome = labels.outcome(
            view,
            result.outcome,
            names,
            lang,
            score,
            match_said=view.over,
            round_no=result.round_no if view.over else None,
        )
        game = view.ruleset.game
        if game.drawn(result):
            outcome += f" · {labels.word('draw', lang)}"
        elif game.too_few(result):
            outcome += f" · {labels.word('too_few', lang, n=game.min_written)}"
        lines.append((outcome, draw.TURN))
    y = 100
    for label, colour in lines[:2]:
        draw.write(pen, (48, y), label, HEADING_SIZE, colour, bold=True, max_width=WIDTH - 96)
        y += _HEADING_STEP
    eggs = _eggs_note(view, names, result, lang)
    if eggs:
        egg = draw.egg_sprite(36)
        draw.paste(canvas, egg, WIDTH - 60 - egg.width, 38)
        draw.write(
            pen,
            (WIDTH - 72 - egg.width, 56),
            eggs,
            HEADING_SIZE,
            draw.REMEMBERED,
            bold=True,
            anchor="rm",
            max_width=560,
        )


def heading_height(view: MatchView, result: RoundResult | None) -> int:
    """How far down `draw_heading` draws: one line under the title, or two at the
    match's end (its loser or winner, then the last round's outcome)."""
    return 100 + _HEADING_STEP * (2 if view.over and result is not None else 1) + 12


def _eggs_note(view: MatchView, names: Sequence[str], result: RoundResult | None, lang: str) -> str:
    """K-9: eggs carried on («+23 в следующий раунд») or taken («+23 забирает Оля»)."""
    if result is None:
        return f"+{view.eggs}" if view.eggs else ""
    if result.eggs_after:
        return labels.word("eggs_next", lang, n=result.eggs_after)
    if result.eggs_taken_by is not None and result.eggs_before:
        who = labels.side_name(view, result.eggs_taken_by, names, lang)
        return labels.word("eggs_taken", lang, n=result.eggs_before, name=who)
    return ""


def _row(
    canvas: Image.Image,
    pen: draw.Pen,
    view: MatchView,
    names: Sequence[str],
    result: RoundResult | None,
    side: int,
    row: Rect,
    lang: str,
    split: counts.Split | None = None,
) -> None:
    pen.rounded_rectangle((row.x0, row.y0, row.x1, row.y1), radius=14, fill=row_fill(view, side))
    mid = (row.y0 + row.y1) / 2
    tags = side_tags(view, result, side, lang)
    name_width = _COLUMNS[0] - 90 - _NAME_X
    name_y = mid - 14 if tags else mid
    draw.write(
        pen,
        (_NAME_X, name_y),
        labels.side_name(view, side, names, lang),
        34,
        draw.INK,
        bold=True,
        anchor="lm",
        max_width=name_width,
    )
    draw_tags(pen, (_NAME_X, mid + 26), tags, name_width)
    cells = side_cells(view, result, side)
    numbers_y = mid - 10 if split is not None else mid
    for (label, colour), x in zip(cells, _COLUMNS, strict=True):
        draw.write(pen, (x, numbers_y), label, 40, colour, bold=True, anchor="mm", max_width=190)
    if split is not None:
        left, right = _COLUMNS[0] - 95, row.x1 - 16
        draw_split(pen, (_COLUMNS[1], mid + 28), split_label(split, side, lang), left, right)
    if result is not None and result.eggs_taken_by == side and result.eggs_before:
        egg = draw.egg_sprite(26)
        draw.paste(canvas, egg, _COLUMNS[1] + 52, round(numbers_y - egg.height / 2))


def split_label(split: counts.Split, side: int, lang: str) -> str:
    """A side's «в игре +15 · в конце +10» (F-3; F-5, B-1, B-2)."""
    in_play, at_end = split
    return labels.in_play_split(in_play[side], None if at_end is None else at_end[side], lang)


def draw_split(
    pen: draw.Pen, centre: tuple[float, float], label: str, left: int, right: int
) -> None:
    """The line that takes a side's round points apart, centred on `centre` under the
    round's column and kept between `left` and `right`: in smaller letters where it
    needs them, and cut only where even the smallest are too wide."""
    room = right - left
    size = SPLIT_SIZE
    while size > _MIN_SPLIT_SIZE and text.width(label, size, bold=True) > room:
        size -= 1
    width = min(text.width(label, size, bold=True), room)
    x = min(max(centre[0] - width / 2, left), right - width)
    draw.write(pen, (x, centre[1]), label, size, draw.MUTED, bold=True, anchor="lm", max_width=room)


def tags_width(tags: Sequence[tuple[str, draw.RGB]], size: int = TAG_SIZE) -> float:
    """How wide `draw_tags` draws `tags` at `size`, their gaps included."""
    if not tags:
        return 0.0
    words = sum(text.width(label, size, bold=True) for label, _ in tags)
    return words + _TAG_GAP * (len(tags) - 1)


def draw_tags(
    pen: draw.Pen,
    xy: tuple[float, float],
    tags: Sequence[tuple[str, draw.RGB]],
    room: float,
    size: int = TAG_SIZE,
    min_size: int = _MIN_TAG_SIZE,
) -> float:
    """The words under a name («победа», «набирает 256») left to right from `xy` within
    `room` px: at `size`, in smaller letters down to `min_size` where they need it, and
    only where even the smallest do not fit is the last cut; the width they take."""
    while size > min_size and tags_width(tags, size) > room:
        size -= 1
    x, y = xy
    for index, (label, colour) in enumerate(tags):
        if index:
            x += _TAG_GAP
        left = max(1, round(xy[0] + room - x))
        x += draw.write(pen, (x, y), label, size, colour, bold=True, anchor="lm", max_width=left)
    return x - xy[0]


def row_fill(view: MatchView, side: int) -> draw.RGB:
    """A side's row colour: the loser's or the winner's tint at the match's end."""
    if view.over and side in view.losers:
        return draw.LOSER_TINT
    if view.over and side in view.winners:
        return draw.WINNER_TINT
    return draw.PANEL


def side_tags(
    view: MatchView, result: RoundResult | None, side: int, lang: str
) -> list[tuple[str, draw.RGB]]:
    """The words under a side's name: the loser or the winner at the match's end (K-10,
    O-6; T-6, M-6, S-6), who went out or made fish in the round (C-8)."""
    tags: list[tuple[str, draw.RGB]] = []
    if view.over and side in view.losers:
        tags.append((labels.loser_word(view, lang).lower(), draw.RECORDED))
    if view.over and side in view.winners:
        tags.append((labels.word("win", lang), draw.GOOD))
    if result is not None and result.outcome.seat in view.sides[side]:
        score = labels.reached_score(view, result)
        tags.append((labels.outcome_tag(view, result.outcome, score, lang), draw.TURN))
    return tags


def side_cells(
    view: MatchView, result: RoundResult | None, side: int
) -> list[tuple[str, draw.RGB]]:
    """A side's «было», «раунд», «стало» with their colours (K-8); in the middle of a
    round of a game that scores in play, the points its moves have scored so far (F-3)."""
    now = labels.account(view, view.scores[side])
    if result is None:
        in_play = view.round_points[side] if view.round_points else 0
        if not in_play:
            return [("—", draw.MUTED), ("—", draw.MUTED), now]
        account = view.scores[side]
        before = dataclasses.replace(account, recorded=account.recorded - in_play)
        return [labels.account(view, before), (str(in_play), draw.INK), now]
    return [
        labels.account(view, result.before[side]),
        (str(result.points[side]), draw.INK),
        labels.account(view, result.after[side]),
    ]
