"""Drawing pieces shared by the pictures: colours, tile sprites, badges, the egg.

Tiles, pips, badges and the egg are drawn once at four times their size and reduced,
which gives smooth edges, then kept by size; a picture pastes them, so drawing a
full table costs little more than encoding it.

Pictures are drawn in RGB and saved as 8-bit palette PNGs (`encode_png`): every
colour here plus the shades its smooth edges make over its backdrop fit in 256
entries, so nothing visible is lost, and a palette PNG is a third of the size of
an RGB one and several times faster to write (Pillow filters every RGB row).
"""

from __future__ import annotations

import functools
import io

from PIL import Image, ImageDraw

from render import text
from render.geometry import Orientation

RGB = tuple[int, int, int]

BACKGROUND: RGB = (24, 29, 36)
PANEL: RGB = (41, 49, 60)
PANEL_EDGE: RGB = (66, 77, 92)
FELT: RGB = (27, 94, 63)
FELT_EDGE: RGB = (18, 66, 44)
FELT_TEXT: RGB = (120, 178, 146)
INK: RGB = (236, 239, 243)
MUTED: RGB = (150, 160, 172)
TURN: RGB = (255, 202, 40)
REMEMBERED: RGB = (255, 213, 79)  # Козёл K-7: remembered points "+N", in yellow
RECORDED: RGB = (255, 82, 82)  # Козёл K-7: an open account, in red without a plus
GOOD: RGB = (105, 240, 174)  # Классика: points are good
TEAM_COLOURS: tuple[RGB, ...] = ((79, 195, 247), (255, 138, 101))
TILE_FACE: RGB = (250, 246, 234)
TILE_LAST: RGB = (255, 236, 170)
TILE_EDGE: RGB = (60, 60, 60)
PIP: RGB = (28, 28, 28)
LAST_RING: RGB = (255, 145, 0)
SPINNER_RING: RGB = TEAM_COLOURS[0]  # the spinner's mark (C-10), unlike the last tile's ring
END_BADGE: RGB = (255, 213, 79)
END_INK: RGB = (40, 30, 0)
END_MUTED: RGB = FELT_EDGE  # an open end that counts nothing (F-3), sunk into the felt
END_MUTED_INK: RGB = FELT_TEXT
BACK_FACE: RGB = (176, 58, 46)
BACK_EDGE: RGB = (250, 230, 220)
EGG_SHELL: RGB = (247, 236, 214)
EGG_EDGE: RGB = (170, 150, 120)
EGG_SHINE: RGB = (255, 255, 255)
LOSER_TINT: RGB = (92, 38, 44)  # the козёл's line on the score sheet
WINNER_TINT: RGB = (30, 84, 60)  # Классика: the winner's line

# Which colours are drawn over which, so that the palette holds their smooth edges:
# (backdrop, colours drawn on it with anti-aliasing).
_BLENDS: tuple[tuple[RGB, tuple[RGB, ...]], ...] = (
    (BACKGROUND, (INK, MUTED, TURN, REMEMBERED, RECORDED, GOOD, EGG_EDGE)),
    (PANEL, (INK, MUTED, TURN, REMEMBERED, RECORDED, GOOD, *TEAM_COLOURS, BACK_EDGE)),
    (LOSER_TINT, (INK, MUTED, RECORDED, REMEMBERED, TURN)),
    (WINNER_TINT, (INK, MUTED, GOOD, REMEMBERED, TURN)),
    (FELT, (FELT_TEXT, TILE_EDGE, END_INK, SPINNER_RING)),
    (TILE_FACE, (TILE_EDGE, PIP)),
    (TILE_LAST, (TILE_EDGE, PIP)),
    (END_BADGE, (END_INK,)),
    (END_MUTED, (END_MUTED_INK,)),
    (BACK_FACE, (BACK_EDGE, TILE_EDGE)),
    (EGG_SHELL, (EGG_EDGE, EGG_SHINE)),
)
_BLEND_STEPS = 7  # shades between a colour and its backdrop, every eighth of the way

_SCALE = 4
_LOW, _MID, _HIGH = 0.25, 0.5, 0.75
# Pip centres in a half, as fractions of its side, for a half whose tile lies
# horizontally; a vertical tile uses the same points transposed (the six's rows of
# three run along the tile).
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    0: (),
    1: ((_MID, _MID),),
    2: ((_HIGH, _LOW), (_LOW, _HIGH)),
    3: ((_HIGH, _LOW), (_MID, _MID), (_LOW, _HIGH)),
    4: ((_LOW, _LOW), (_HIGH, _LOW), (_LOW, _HIGH), (_HIGH, _HIGH)),
    5: ((_LOW, _LOW), (_HIGH, _LOW), (_MID, _MID), (_LOW, _HIGH), (_HIGH, _HIGH)),
    6: ((_LOW, _LOW), (_MID, _LOW), (_HIGH, _LOW), (_LOW, _HIGH), (_MID, _HIGH), (_HIGH, _HIGH)),
}


def pip_points(pip: int, orientation: Orientation) -> tuple[tuple[float, float], ...]:
    """Where the dots of `pip` sit in a half, as fractions of its side (classic patterns)."""
    points = _PIPS[pip]
    if orientation is Orientation.VERTICAL:
        return tuple((y, x) for x, y in points)
    return points


@functools.cache
def tile_sprite(
    first: int, second: int, unit: int, orientation: Orientation, last: bool = False
) -> Image.Image:
    """A face-up tile, `first` on the left (or top) half: `4u x 2u` or `2u x 4u`, RGBA."""
    long, short = 4 * unit, 2 * unit
    size = (long, short) if orientation is Orientation.HORIZONTAL else (short, long)
    s = _SCALE
    big = Image.new("RGBA", (size[0] * s, size[1] * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    inset = s  # one pixel of table shows between touching tiles
    draw.rounded_rectangle(
        (inset, inset, size[0] * s - inset - 1, size[1] * s - inset - 1),
        radius=max(s, unit * s // 4),
        fill=TILE_LAST if last else TILE_FACE,
        outline=TILE_EDGE,
        width=max(s, unit * s // 12),
    )
    half = short * s
    line = max(s, unit * s // 14)
    margin = unit * s // 4
    if orientation is Orientation.HORIZONTAL:
        draw.rectangle((half - line // 2, margin, half + line // 2, half - margin), fill=TILE_EDGE)
        origins = ((0, 0), (half, 0))
    else:
        draw.rectangle((margin, half - line // 2, half - margin, half + line // 2), fill=TILE_EDGE)
        origins = ((0, 0), (0, half))
    radius = half * 0.11
    for pip, (ox, oy) in zip((first, second), origins, strict=True):
        for fx, fy in pip_points(pip, orientation):
            cx, cy = ox + fx * half, oy + fy * half
            draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=PIP)
    return big.reduce(s)


@functools.cache
def closed_sprite(unit: int, orientation: Orientation) -> Image.Image:
    """A double laid face down to close its end (O-3): a tile back of a placed tile's
    size (`4u x 2u` or `2u x 4u`) with a padlock in the middle, RGBA."""
    long, short = 4 * unit, 2 * unit
    size = (long, short) if orientation is Orientation.HORIZONTAL else (short, long)
    s = _SCALE
    w, h = size[0] * s, size[1] * s
    big = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    inset = s
    draw.rounded_rectangle(
        (inset, inset, w - inset - 1, h - inset - 1),
        radius=max(s, unit * s // 4),
        fill=BACK_FACE,
        outline=TILE_EDGE,
        width=max(s, unit * s // 12),
    )
    # The padlock: a body and a shackle over it, a little over half the short side tall.
    side = short * s
    cx, cy = w / 2, h / 2
    body_w, body_h = side * 0.42, side * 0.30
    body = (
        cx - body_w / 2,
        cy - body_h / 2 + side * 0.08,
        cx + body_w / 2,
        cy + body_h / 2 + side * 0.08,
    )
    stroke = max(s, round(side * 0.07))
    shackle_w = body_w * 0.66
    draw.arc(
        (cx - shackle_w / 2, body[1] - side * 0.26, cx + shackle_w / 2, body[1] + side * 0.12),
        start=180,
        end=360,
        fill=BACK_EDGE,
        width=stroke,
    )
    for x in (cx - shackle_w / 2, cx + shackle_w / 2 - stroke):
        draw.rectangle((x, body[1] - side * 0.07, x + stroke, body[1]), fill=BACK_EDGE)
    draw.rounded_rectangle(body, radius=side * 0.04, fill=BACK_EDGE)
    return big.reduce(s)


@functools.cache
def back_sprite(width: int, height: int) -> Image.Image:
    """A small face-down tile, for the hand counts."""
    s = _SCALE
    big = Image.new("RGBA", (width * s, height * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    draw.rounded_rectangle(
        (0, 0, width * s - 1, height * s - 1),
        radius=width * s // 4,
        fill=BACK_FACE,
        outline=BACK_EDGE,
        width=s * 2,
    )
    mid = height * s // 2
    draw.line((width * s // 4, mid, width * s * 3 // 4, mid), fill=BACK_EDGE, width=s)
    return big.reduce(s)


@functools.cache
def egg_sprite(height: int) -> Image.Image:
    """An egg (DejaVu has no colour emoji, so 🥚 is drawn as a shape)."""
    s = _SCALE
    width = height * 3 // 4
    big = Image.new("RGBA", (width * s, height * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    w, h = width * s, height * s
    edge = 2 * s
    # Narrow top, round bottom: a small ellipse over a larger one.
    draw.ellipse((0, h * 0.28, w - 1, h - 1), fill=EGG_EDGE)
    draw.ellipse((w * 0.1, 0, w * 0.9, h * 0.75), fill=EGG_EDGE)
    draw.ellipse((edge, h * 0.28 + edge, w - 1 - edge, h - 1 - edge), fill=EGG_SHELL)
    draw.ellipse((w * 0.1 + edge, edge, w * 0.9 - edge, h * 0.75 - edge), fill=EGG_SHELL)
    draw.ellipse((w * 0.28, h * 0.2, w * 0.42, h * 0.38), fill=EGG_SHINE)
    return big.reduce(s)


@functools.cache
def disc_sprite(diameter: int, fill: RGB, edge: RGB) -> Image.Image:
    s = _SCALE
    big = Image.new("RGBA", (diameter * s, diameter * s), (0, 0, 0, 0))
    ImageDraw.Draw(big).ellipse(
        (0, 0, diameter * s - 1, diameter * s - 1), fill=fill, outline=edge, width=2 * s
    )
    return big.reduce(s)


def paste(canvas: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    canvas.paste(sprite, (x, y), sprite)


def felt(pen: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    """The green cloth the played tiles lie on (the table picture, a round's end)."""
    pen.rounded_rectangle(box, radius=24, fill=FELT, outline=FELT_EDGE, width=4)


def badge(
    canvas: Image.Image,
    centre: tuple[float, float],
    diameter: int,
    label: str,
    fill: RGB = END_BADGE,
    ink: RGB = END_INK,
) -> None:
    """A round badge with a short bold label (an open end's number)."""
    x, y = round(centre[0] - diameter / 2), round(centre[1] - diameter / 2)
    paste(canvas, disc_sprite(diameter, fill, ink), x, y)
    size = max(8, diameter * 3 // 5)
    ImageDraw.Draw(canvas).text(
        centre, label, font=text.font(size, bold=True), fill=ink, anchor="mm"
    )


class Pen(ImageDraw.ImageDraw):
    """An ImageDraw that knows its canvas, so that `write` can paste emoji on it."""

    def __init__(self, canvas: Image.Image) -> None:
        super().__init__(canvas)
        self.canvas = canvas


def write(
    pen: Pen,
    xy: tuple[float, float],
    label: str,
    size: int,
    fill: RGB,
    bold: bool = False,
    anchor: str = "la",
    max_width: int | None = None,
    min_size: int | None = None,
) -> float:
    """Draw `label` (cleaned, and cut to `max_width` if given); return its width. With
    `min_size`, a label too wide for `max_width` is first drawn smaller, down to that
    size, and cut only if it still does not fit.

    Text DejaVu draws is drawn as text; an emoji is pasted in colour, centred on the
    text's middle (`text.runs`), and the canvas is marked as holding colours the fixed
    palette lacks (`encode_png`)."""
    if max_width is not None and min_size is not None:
        cleaned = text.clean(label, bold)
        while size > min_size and text.width(cleaned, size, bold) > max_width:
            size -= 1
    shown = text.clean(label, bold) if max_width is None else text.fit(label, size, max_width, bold)
    f = text.font(size, bold)
    pieces = text.runs(shown, bold)
    if not any(emoji for _, emoji in pieces):
        pen.text(xy, shown, font=f, fill=fill, anchor=anchor)
        return text.width(shown, size, bold)
    total = text.width(shown, size, bold)
    ascent, descent = f.getmetrics()
    x, y = xy
    x -= {"l": 0.0, "m": total / 2, "r": total}[anchor[0]]
    baseline = (
        y
        + {
            "a": ascent,
            "t": ascent,
            "m": (ascent - descent) / 2,
            "s": 0,
            "b": -descent,
            "d": -descent,
        }[anchor[1]]
    )
    middle = baseline - (ascent - descent) / 2
    for run, emoji in pieces:
        if not emoji:
            pen.text((x, baseline), run, font=f, fill=fill, anchor="ls")
            x += f.getlength(run)
            continue
        for char in run:
            sprite = text.emoji_sprite(char, size)
            paste(pen.canvas, sprite, round(x), round(middle - sprite.height / 2))
            pen.canvas.info.setdefault(COLOURFUL, []).append(sprite)
            x += sprite.width
    return total


@functools.cache
def palette_colours() -> tuple[RGB, ...]:
    """The fixed palette: the named colours, then the edge shades of each blend."""
    colours: list[RGB] = []
    for backdrop, inks in _BLENDS:
        for colour in (backdrop, *inks):
            if colour not in colours:
                colours.append(colour)
    for colour in (TURN, LAST_RING, SPINNER_RING, PANEL_EDGE, FELT_EDGE):
        if colour not in colours:
            colours.append(colour)
    for backdrop, inks in _BLENDS:
        for ink in inks:
            for step in range(1, _BLEND_STEPS + 1):
                t = step / (_BLEND_STEPS + 1)
                shade = tuple(round(b + (i - b) * t) for b, i in zip(backdrop, ink, strict=True))
                # Pillow maps pixels to the palette through a coarse cache: a shade this
                # close to a colour already in it could take that colour's place.
                if all(max(abs(a - b) for a, b in zip(shade, c, strict=True)) > 8 for c in colours):
                    colours.append((shade[0], shade[1], shade[2]))
    if len(colours) > 256:
        raise AssertionError(f"the palette needs {len(colours)} colours, more than 256")
    return tuple(colours)


@functools.cache
def _palette() -> Image.Image:
    colours = palette_colours()
    # Unused entries repeat the first colour, so nothing is ever mapped to black padding.
    padded = [*colours, *[colours[0]] * (256 - len(colours))]
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in padded for channel in colour])
    return image


# zlib levels of the 8-bit PNG. The table, drawn for every move shown, is saved at
# level 3: well under half the time of level 6 for about 1.5 times the size, still well
# under 50 KB for the full 28-tile table. Levels 1-3 cost the same (4 and up search
# lazily), and 1 and 2 only grow the files. A round's end and the score sheet, drawn
# once a round and taller with every round, keep level 6: at level 3 a long four-seat
# match's round end would near 50 KB (`tests/render/test_png_size.py` holds the bound).
PNG_LEVEL = 6
TABLE_PNG_LEVEL = 3
COLOURFUL = "domino-colourful"
"""The key in a canvas's `info` listing the sprites pasted in colours of their own
(emoji), for `encode_png`."""


def _palette_with(sprites: list[Image.Image]) -> Image.Image:
    """The fixed palette, its free entries filled with the sprites' own colours (an
    octree of them over the panel colour), so that the UI's colours stay exact."""
    colours = palette_colours()
    strip = Image.new("RGB", (sum(s.width for s in sprites), max(s.height for s in sprites)), PANEL)
    x = 0
    for sprite in sprites:
        strip.paste(sprite, (x, 0), sprite)
        x += sprite.width
    free = 256 - len(colours)
    own = strip.quantize(colors=free, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    flat = (own.getpalette() or [])[: 3 * free]
    extra = [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat), 3)]
    padded = [*colours, *extra]
    padded += [colours[0]] * (256 - len(padded))
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in padded for channel in colour])
    return image


_EMOJI_PALETTES: dict[tuple[int, ...], Image.Image] = {}
"""Palettes with emoji colours by the sprites drawn, the oldest dropped past 256."""


def encode_png(canvas: Image.Image, level: int = PNG_LEVEL) -> bytes:
    """`canvas` (RGB) as an 8-bit palette PNG, each pixel the nearest palette colour;
    the palette is the fixed one, with the colours of any emoji drawn added; `level`
    is zlib's (lossless at any level: it trades time for size)."""
    sprites = canvas.info.get(COLOURFUL)
    if sprites:
        # Sprites are kept (text.emoji_sprite), so the same names give the same ones.
        key = tuple(id(sprite) for sprite in sprites)
        palette = _EMOJI_PALETTES.get(key)
        if palette is None:
            palette = _EMOJI_PALETTES.setdefault(key, _palette_with(sprites))
            while len(_EMOJI_PALETTES) > 256:
                del _EMOJI_PALETTES[next(iter(_EMOJI_PALETTES))]
    else:
        palette = _palette()
    paletted = canvas.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    paletted.save(out, format="PNG", compress_level=level)
    return out.getvalue()
