"""Fonts shipped with the package and text that always fits and never crashes.

DejaVu Sans (regular and bold, `render/fonts/`, licence beside them) covers
Cyrillic, Latin, Greek, Hebrew and Arabic. Fonts are read once per size and kept.
Text is laid out with Pillow's basic engine so that pictures are the same bytes on
every machine, with or without libraqm; a name written right to left is reversed
into visual order, which is right for Hebrew and readable (unjoined) for Arabic.
Characters the font lacks (most emoji) are dropped rather than drawn as boxes.
"""

from __future__ import annotations

import functools
import unicodedata
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
ELLIPSIS = "…"

Font = ImageFont.FreeTypeFont


@functools.cache
def font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans at `size` pixels, loaded once."""
    return ImageFont.truetype(
        str(FONT_DIR / _FILES[bold]), size, layout_engine=ImageFont.Layout.BASIC
    )


@functools.cache
def _missing_mask(bold: bool) -> bytes:
    # U+10FFFD is a private-use code point no font draws: its mask is the font's box.
    return bytes(font(24, bold).getmask("\U0010fffd"))


@functools.cache
def has_glyph(char: str, bold: bool = False) -> bool:
    """Whether DejaVu Sans draws `char` as itself (not as its missing-glyph box)."""
    return bytes(font(24, bold).getmask(char)) != _missing_mask(bold)


def _visual_order(text: str) -> str:
    """Right-to-left text without left-to-right letters, reversed into drawing order."""
    kinds = {unicodedata.bidirectional(c) for c in text}
    if kinds & {"R", "AL"} and "L" not in kinds:
        return text[::-1]
    return text


def clean(text: str, bold: bool = False) -> str:
    """`text` made drawable: one line, no control or format characters, known glyphs only."""
    out = []
    for char in text:
        if unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            out.append(" ")
        elif has_glyph(char, bold):
            out.append(char)
    return _visual_order(" ".join("".join(out).split()))


def fit(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """`text` cleaned and, if wider than `max_width` pixels, cut with an ellipsis."""
    f = font(size, bold)
    shown = clean(text, bold)
    if f.getlength(shown) <= max_width:
        return shown
    low, high = 0, len(shown)
    while low < high:  # the longest prefix that still fits with the ellipsis
        mid = (low + high + 1) // 2
        if f.getlength(shown[:mid].rstrip() + ELLIPSIS) <= max_width:
            low = mid
        else:
            high = mid - 1
    return shown[:low].rstrip() + ELLIPSIS if low else ELLIPSIS


def width(text: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(text)
