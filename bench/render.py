"""How fast and how big the table picture is: `.venv/bin/python bench/render.py`.

Measures the full 28-tile table with four players (the worst case: every tile on
the table), next to the floor: Pillow encoding a blank image of the same size with
the same settings. Also shows what other encodings would give for the same
picture, which is why the table is an 8-bit palette PNG (see `render/draw.py` and
`render/table.py`). Goal: under 20 ms and 200 KB per picture.
"""

from __future__ import annotations

import io
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image

from domino.views import Account
from render import SCORES_SIZE, TABLE_SIZE, demo, draw, render_scores, render_table

NAMES = ("Маша", "Алексей", "Оля", "Серёга")
ROUNDS = 60


def timed(make: Callable[[], bytes], rounds: int = ROUNDS) -> tuple[float, int]:
    """Median milliseconds over `rounds` calls after a warm-up, and the output size."""
    data = make()  # warm-up: fonts, tile sprites and the palette are made once and kept
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        data = make()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, len(data)


def encode(image: Image.Image, **options: Any) -> bytes:
    out = io.BytesIO()
    image.save(out, **options)
    return out.getvalue()


def line(label: str, ms: float, size: int) -> None:
    print(f"  {label:44s} {ms:7.2f} ms  {size / 1024:7.1f} KB")


def main() -> None:
    scores = [Account(20, 0, True), Account(0, 7), Account(), Account(45, 0, True)]
    view = demo.match_view(
        demo.line_layout(demo.eulerian_line(), 13), 4, turn=1, round_no=3, scores=scores, eggs=12
    )
    width, height = TABLE_SIZE
    print(f"full 28-tile table, 4 players, {width}x{height} px, median of {ROUNDS} runs")
    line("render_table (draw + 8-bit PNG)", *timed(lambda: render_table(view, NAMES)))
    blank = Image.new("RGB", TABLE_SIZE, draw.BACKGROUND)
    line(
        "floor: blank image, same encoder",
        *timed(lambda: draw.encode_png(blank, draw.TABLE_PNG_LEVEL)),
    )
    picture = Image.open(io.BytesIO(render_table(view, NAMES))).convert("RGB")
    print("the same picture, encode only:")
    chosen = f"8-bit palette PNG, zlib level {draw.TABLE_PNG_LEVEL} (chosen)"
    line(chosen, *timed(lambda: draw.encode_png(picture, draw.TABLE_PNG_LEVEL)))
    former = f"8-bit palette PNG, zlib level {draw.PNG_LEVEL}"
    line(former, *timed(lambda: draw.encode_png(picture, draw.PNG_LEVEL)))
    for label, options in (
        ("RGB PNG, zlib level 1", {"format": "PNG", "compress_level": 1}),
        ("RGB PNG, zlib level 6 (Pillow default)", {"format": "PNG", "compress_level": 6}),
        ("JPEG quality 90", {"format": "JPEG", "quality": 90}),
        ("JPEG quality 75", {"format": "JPEG", "quality": 75}),
    ):
        line(label, *timed(partial(encode, picture, **options), rounds=15))
    print(f"score sheet, 4 players, {SCORES_SIZE[0]}x{SCORES_SIZE[1]} px")
    line("render_scores", *timed(lambda: render_scores(view, NAMES)))


if __name__ == "__main__":
    main()
