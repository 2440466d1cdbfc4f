"""Pictures of the game: pure functions of engine views, PNG bytes out (Pillow).

`render_table(view, names, lang)` draws the table for the group chat from the public
view; `render_scores(view, names, result, lang, ended)` draws the score sheet at the end
of a round or match (given the round `ended`, a game that scores in play takes each
side's points apart); `render_round_end(view, names, ended, result, lang)` draws a round as it
ended, every hand laid open, over its score sheet (the round's announcement); all
write their words in the group's language (a language without a catalogue: Russian),
taken from the catalogues (`i18n`, the `picture.*` texts, through `render.labels`).
`table_geometry(layout, area)` is the pure geometry under the table: where every tile
lies, without pixels. Nothing here does I/O except `render.samples`, whose job is
writing sample files (`python -m render.samples OUT_DIR`: every game).
"""

from render.geometry import (
    DEFAULT_UNIT,
    EndMark,
    HalfBox,
    Orientation,
    Rect,
    RenderError,
    TableGeometry,
    TileBox,
    table_geometry,
)
from render.round_end import render_round_end
from render.scores import SCORES_SIZE, render_scores
from render.table import TABLE_AREA, TABLE_SIZE, render_table

__all__ = [
    "DEFAULT_UNIT",
    "SCORES_SIZE",
    "TABLE_AREA",
    "TABLE_SIZE",
    "EndMark",
    "HalfBox",
    "Orientation",
    "Rect",
    "RenderError",
    "TableGeometry",
    "TileBox",
    "render_round_end",
    "render_scores",
    "render_table",
    "table_geometry",
]
