"""Fonts shipped with the package and text that always fits and never crashes.

DejaVu Sans (regular and bold, `render/fonts/`, licence beside them) covers
Cyrillic, Latin, Greek, Hebrew and Arabic; Noto Color Emoji (licence beside it)
draws the emoji, in colour, per character where DejaVu has no glyph: a text is
split into runs by the font that draws them (`runs`), and `draw.write` draws each.
Noto Color Emoji holds bitmaps of one size only (a CBDT strike of 109 px), so an
emoji is drawn at that size once and scaled to the text's size (`emoji_sprite`).
Fonts are read once per size and kept; the emoji font only when an emoji is met.
Text is laid out with Pillow's basic engine so that pictures are the same bytes on
every machine, with or without libraqm; a name written right to left is reversed
into visual order, which is right for Hebrew and readable (unjoined) for Arabic.
Characters neither font has are dropped rather than drawn as boxes. An emoji made of
several joined with U+200D is drawn as its parts (the basic engine does not join
them); skin-tone modifiers and variation selectors are dropped.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
EMOJI_FILE = "NotoColorEmoji.ttf"
_EMOJI_STRIKE = 109  # the only size Noto Color Emoji's bitmaps come in
EMOJI_SCALE = 1.1  # an emoji's height, in the text's size: about a capital's with room
_SKIN_TONES = range(0x1F3FB, 0x1F400)
_SELECTORS = range(0xFE00, 0xFE10)
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


@functools.cache
def emoji_font() -> Font:
    """Noto Color Emoji at its one bitmap size, loaded at the first emoji."""
    return ImageFont.truetype(
        str(FONT_DIR / EMOJI_FILE), _EMOJI_STRIKE, layout_engine=ImageFont.Layout.BASIC
    )


@functools.cache
def has_emoji(char: str) -> bool:
    """Whether Noto Color Emoji draws `char` (a missing glyph has an empty box)."""
    if ord(char) in _SKIN_TONES:
        return False  # drawn alone, a modifier is a colour swatch beside its emoji
    left, top, right, bottom = emoji_font().getbbox(char)
    return bottom > top and right > left


def is_emoji(char: str, bold: bool = False) -> bool:
    """Whether `char` is drawn from the emoji font (DejaVu lacks it, Noto has it)."""
    return not has_glyph(char, bold) and has_emoji(char)


@functools.cache
def emoji_cell() -> tuple[int, int]:
    """The width and height of an emoji at the strike's size, in pixels."""
    left, top, right, bottom = emoji_font().getbbox("\U0001f600")
    return int(right - left), int(bottom - top)


def emoji_size(size: int) -> tuple[int, int]:
    """An emoji's width and height beside text of `size` pixels."""
    cell_w, cell_h = emoji_cell()
    height = round(size * EMOJI_SCALE)
    return round(cell_w * height / cell_h), height


@functools.cache
def emoji_sprite(char: str, size: int) -> Image.Image:
    """`char` in colour, as an RGBA sprite of `emoji_size(size)`: drawn at the strike's
    size and scaled down."""
    cell = emoji_cell()
    big = Image.new("RGBA", cell, (0, 0, 0, 0))
    ImageDraw.Draw(big).text((0, 0), char, font=emoji_font(), embedded_color=True)
    return big.resize(emoji_size(size), Image.Resampling.LANCZOS)


def runs(shown: str, bold: bool = False) -> list[tuple[str, bool]]:
    """A cleaned text split into runs drawn by one font: (text, whether emoji)."""
    out: list[tuple[str, bool]] = []
    for char in shown:
        emoji = is_emoji(char, bold)
        if out and out[-1][1] == emoji:
            out[-1] = (out[-1][0] + char, emoji)
        else:
            out.append((char, emoji))
    return out


# A number inside right-to-left text still reads left to right (Unicode's bidi rules,
# W and I): its digits, with the separators between them, keep their order.
_NUMBER = re.compile(r"\d+(?:[.,:/\-]\d+)*")


def _visual_order(text: str) -> str:
    """Right-to-left text without left-to-right letters, reversed into drawing order,
    its numbers kept as written («דני 15» is drawn «15 ינד»)."""
    kinds = {unicodedata.bidirectional(c) for c in text}
    if kinds & {"R", "AL"} and "L" not in kinds:
        return _NUMBER.sub(lambda m: m.group()[::-1], text[::-1])
    return text


def clean(text: str, bold: bool = False) -> str:
    """`text` made drawable: one line, no control or format characters (they draw
    nothing: a name of only those is empty), known glyphs only."""
    out = []
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Zl", "Zp"):
            out.append(" ")
        elif category == "Cf" or ord(char) in _SELECTORS:
            continue  # zero-width joiners and marks, bidi controls, variation selectors
        elif has_glyph(char, bold) or has_emoji(char):
            out.append(char)
    return _visual_order(" ".join("".join(out).split()))


_TRAILING_NUMBER = re.compile(r" \d+$")


def fit(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """`text` cleaned and, if wider than `max_width` pixels, cut with an ellipsis. A
    trailing number is kept («🤖 Комп… 2»), so names that differ only by it, as the
    computers' do, stay told apart however narrow the space."""
    shown = clean(text, bold)
    if width(shown, size, bold) <= max_width:
        return shown
    number = _TRAILING_NUMBER.search(shown)
    tail = ELLIPSIS + (number.group(0) if number else "")
    head = shown[: number.start()] if number else shown
    if width(tail, size, bold) > max_width:
        tail, head = ELLIPSIS, shown
    low, high = 0, len(head)
    while low < high:  # the longest prefix that still fits with the ellipsis
        mid = (low + high + 1) // 2
        if width(head[:mid].rstrip() + tail, size, bold) <= max_width:
            low = mid
        else:
            high = mid - 1
    return head[:low].rstrip() + tail if low else tail


def width(text: str, size: int, bold: bool = False) -> float:
    """The width of a cleaned text in pixels, its emoji included."""
    f = font(size, bold)
    total = 0.0
    for run, emoji in runs(text, bold):
        total += len(run) * emoji_size(size)[0] if emoji else f.getlength(run)
    return total
