"""Text that fits and never crashes; the classic pip patterns."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import draw, text
from render.geometry import Orientation


def test_fonts_are_shipped_with_their_licence_and_loaded_once() -> None:
    assert (text.FONT_DIR / "DejaVuSans.ttf").is_file()
    assert (text.FONT_DIR / "DejaVuSans-Bold.ttf").is_file()
    assert "Bitstream" in (text.FONT_DIR / "LICENSE").read_text()
    assert text.font(30, bold=True) is text.font(30, bold=True)


def test_cyrillic_is_in_the_font() -> None:
    assert all(text.has_glyph(c) for c in "АаЁёЖжЩщЪъЮюЯя")
    assert text.clean("Козёл") == "Козёл"


def test_glyphs_no_font_has_are_dropped_not_drawn_as_boxes() -> None:
    assert not text.has_glyph("\U0010fffd") and not text.has_emoji("\U0010fffd")
    assert text.clean("Вася \U0010fffd") == "Вася"
    assert text.clean("\U0010fffd\u200d\ufe0f") == ""


def test_emoji_come_from_the_emoji_font_per_character() -> None:
    """DejaVu lacks 🐐 and 🥚; Noto Color Emoji draws them."""
    assert not text.has_glyph("🐐") and text.has_emoji("🐐") and text.is_emoji("🥚")
    assert text.clean("Вася 🐐") == "Вася 🐐"
    assert text.clean("🐐🐐") == "🐐🐐"
    assert text.runs("Борис 🎲🐐!") == [("Борис ", False), ("🎲🐐", True), ("!", False)]
    assert text.clean("👍🏽") == "👍"  # a skin tone alone would be a colour swatch


def test_the_emoji_font_is_shipped_with_its_licence() -> None:
    assert (text.FONT_DIR / text.EMOJI_FILE).is_file()
    assert "SIL OPEN FONT LICENSE" in (text.FONT_DIR / "LICENSE-NotoColorEmoji").read_text()
    sprite = text.emoji_sprite("🐐", 28)
    assert sprite.mode == "RGBA" and sprite.size == text.emoji_size(28)
    assert sprite.getbbox() is not None  # not blank


def test_control_characters_become_spaces() -> None:
    assert text.clean("a\nb\tc\x00d") == "a b c d"


def test_right_to_left_names_are_put_in_visual_order() -> None:
    assert text.clean("שרה") == "הרש"
    assert text.clean("Dana דנה") == "Dana דנה"  # mixed: left as written
    # Numbers inside read left to right, as Telegram shows them.
    assert text.clean("דני 15") == "15 ינד"
    assert text.clean("שרה 1.5 / 20") == "20 / 1.5 הרש"
    assert text.clean("علي ٢٣") == "٢٣ يلع"


@pytest.mark.parametrize("name", ["Я" * 200, "W" * 200, "Александра Константиновна " * 8])
def test_long_names_are_cut_with_an_ellipsis_to_fit(name: str) -> None:
    shown = text.fit(name, 28, 240, bold=True)
    assert shown.endswith(text.ELLIPSIS)
    assert text.width(shown, 28, bold=True) <= 240
    assert name.startswith(shown[:-1].rstrip())


def test_short_names_are_left_alone() -> None:
    assert text.fit("Оля", 28, 240) == "Оля"
    assert text.fit("Оля", 28, 1) == text.ELLIPSIS


@pytest.mark.parametrize("pip", range(7))
@pytest.mark.parametrize("orientation", list(Orientation))
def test_pip_patterns_are_the_classic_ones(pip: int, orientation: Orientation) -> None:
    points = draw.pip_points(pip, orientation)
    assert len(points) == len(set(points)) == pip
    assert all(0 < x < 1 and 0 < y < 1 for x, y in points)
    assert ((0.5, 0.5) in points) == (pip % 2 == 1)  # odd counts have the middle dot
    if pip == 6:
        rows = (
            {y for _, y in points}
            if orientation is Orientation.HORIZONTAL
            else {x for x, _ in points}
        )
        assert len(rows) == 2  # two rows of three along the tile


def test_every_named_colour_survives_the_palette_exactly() -> None:
    named = [value for name, value in vars(draw).items() if name.isupper() and _is_rgb(value)]
    named += list(draw.TEAM_COLOURS)
    assert len(draw.palette_colours()) <= 256
    image = Image.new("RGB", (len(named), 1))
    for x, colour in enumerate(named):
        image.putpixel((x, 0), colour)
    decoded = Image.open(io.BytesIO(draw.encode_png(image)))
    assert decoded.mode == "P"
    back = decoded.convert("RGB")
    assert [back.getpixel((x, 0)) for x in range(len(named))] == named


def _is_rgb(value: object) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 3
        and all(isinstance(c, int) and 0 <= c <= 255 for c in value)
    )


def test_a_cut_name_keeps_its_trailing_number_so_the_computers_stay_apart() -> None:
    """Three panels must not all read «🤖 Компьюте…»: the number survives the cut."""
    names = [f"🤖 Компьютер {n}" for n in (1, 2, 3)]
    narrow = text.width("🤖 Компьютер", 28) * 0.8
    shown = [text.fit(name, 28, int(narrow)) for name in names]
    assert len(set(shown)) == 3
    for n, cut in enumerate(shown, 1):
        assert cut.endswith(f"{text.ELLIPSIS} {n}") and text.width(cut, 28) <= narrow
    assert text.fit("Компьютер 12", 28, 1) == text.ELLIPSIS  # no room even for the number
