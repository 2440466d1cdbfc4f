"""A tournament's standings picture (`render.standings.draw_standings`): it opens, its
size fits 2, 8 and 32 entrants (under 1.3 times its width, as a round's end), every
text is readable at a phone's width (measured as `test_round_end_phone` measures a
round's end), the headings are the group's language's, long and odd names are cut or
drawn without breaking it, and the same standings give the same bytes."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from i18n import Lang, t
from render import draw
from render.round_end import MAX_HEIGHT, WIDTH
from render.standings import StandingsPicture, StandingsRow, draw_standings, entrant_name, row_pitch
from render.text import ELLIPSIS
from tests.render.test_round_end_phone import MIN_PHONE_PX, Drawn, on_the_phone
from tests.render.test_round_end_phone import sized as sized  # the fixture

NAMES = ("Алиса и Боб", "Маша", "Тётя Клава 🥚🐐", "Компьютер 1", "שרה כהן", "Серёга")
LONG = "Александра Константиновна Воскресенская-Преображенская"
HEADING_KEYS = ("place", "entrant", "points", "played", "firsts")


def standings(count: int, *, tiebreak: str = "Бухгольц", final: bool = False) -> StandingsPicture:
    """`count` entrants, best first: the fourth a computer, the second and fifth at the
    table that just finished, the last withdrawn (from 3 up)."""
    rows = []
    for index in range(count):
        withdrawn = count > 2 and index == count - 1
        rows.append(
            StandingsRow(
                place=None if withdrawn else index + 1 - (index == 2),
                name=NAMES[index] if index < len(NAMES) else f"Игрок {index + 1}",
                computer=index % len(NAMES) == 3,
                points=f"{max(0, 10 - index)}½",
                played=5,
                firsts=max(0, 5 - index),
                tiebreak=str(40 - index),
                withdrawn=withdrawn,
                highlight=index in (1, 4),
            )
        )
    return StandingsPicture(
        title="🏆 Турнир · Козёл",
        subtitle="Итоги" if final else "Тур 2 из 5 · швейцарская",
        tiebreak_heading=tiebreak,
        rows=tuple(rows),
        final=final,
    )


def size_of(data: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image.size


@pytest.mark.parametrize("count", [2, 8, 32])
@pytest.mark.parametrize("lang", list(Lang))
def test_the_picture_opens_as_wide_as_a_rounds_end_and_under_its_height(
    count: int, lang: Lang
) -> None:
    width, height = size_of(draw_standings(standings(count), lang))
    assert width == WIDTH
    assert 300 < height <= MAX_HEIGHT < 1.3 * WIDTH


def test_the_rows_close_up_past_eighteen_so_that_32_stay_under_the_bound() -> None:
    heights = [size_of(draw_standings(standings(n), Lang.RU))[1] for n in (2, 8, 18)]
    assert heights == sorted(heights)
    pitches = [row_pitch(n) for n in range(18, 33)]
    assert pitches == sorted(pitches, reverse=True) and pitches[0] > pitches[-1]
    assert all(row_pitch(n) == row_pitch(2) for n in range(1, 19))
    for count in range(19, 33):
        assert size_of(draw_standings(standings(count), Lang.RU))[1] <= MAX_HEIGHT


def test_every_text_is_readable_at_a_phones_width(sized: Drawn) -> None:
    for count in (2, 8, 32):
        for lang in Lang:
            sized.clear()
            shown = on_the_phone(sized, draw_standings(standings(count), lang))
            small = [(label, round(px, 1)) for label, px in shown if px < MIN_PHONE_PX]
            assert not small, small
            words = [label for label, _ in shown]
            heads = [t(f"picture.standings.{key}", lang) for key in HEADING_KEYS]
            assert all(head in words for head in heads), words  # measured, not missed


@pytest.mark.parametrize("lang", list(Lang))
def test_the_headings_are_the_groups_language(sized: Drawn, lang: Lang) -> None:
    draw_standings(standings(8), lang)
    words = {label for label, _, _ in sized}
    for key in HEADING_KEYS:
        assert t(f"picture.standings.{key}", lang) in words
    other = Lang.EN if lang is Lang.RU else Lang.RU
    assert t("picture.standings.entrant", other) not in words
    assert "Бухгольц" in words


def test_english_and_russian_pictures_differ() -> None:
    assert draw_standings(standings(8), Lang.RU) != draw_standings(standings(8), Lang.EN)


def test_an_empty_tiebreak_heading_hides_its_column(sized: Drawn) -> None:
    draw_standings(standings(8, tiebreak=""), Lang.RU)
    words = [label for label, _, _ in sized]
    assert "40" not in words and "39" not in words
    assert "10½" in words


def test_a_long_name_is_cut_with_an_ellipsis_and_a_computer_marked(sized: Drawn) -> None:
    picture = standings(8)
    rows = (replace(picture.rows[0], name=LONG * 3), *picture.rows[1:])
    draw_standings(replace(picture, rows=rows), Lang.RU)
    words = [label for label, _, _ in sized]
    cut = [word for word in words if word.startswith("Александра")]
    assert cut and cut[0].endswith(ELLIPSIS) and len(cut[0]) < len(LONG)
    computer = picture.rows[3]
    assert entrant_name(computer, 3, Lang.RU) == "🤖 Компьютер 1"
    assert " Компьютер 1" in words  # after its 🤖, pasted in colour
    assert "—" in words  # the withdrawn entrant's place


def test_odd_names_do_not_break_it(sized: Drawn) -> None:
    odd = ("", "\u200b\u200d", "שרה כהן", "مريم", "🐐" * 60, "Ок\nно\tимя", "🤖 Бот")
    rows = tuple(
        StandingsRow(i + 1, name, i == 6, "1", 1, 0, "", False) for i, name in enumerate(odd)
    )
    picture = StandingsPicture("🏆", "", "", rows)
    assert size_of(draw_standings(picture, Lang.EN))[0] == WIDTH
    words = [label for label, _, _ in sized]
    assert "Player 1" in words and "Player 2" in words  # nothing drawable: a line's number
    assert not any("🤖 🤖" in word for word in words)


def test_the_same_standings_give_the_same_bytes() -> None:
    for final in (False, True):
        picture = standings(8, final=final)
        assert draw_standings(picture, Lang.RU) == draw_standings(picture, Lang.RU)


def colours(image: Image.Image) -> set[object]:
    return {colour for _, colour in image.getcolors(maxcolors=1 << 20) or []}


def test_the_final_standings_mark_the_winners_in_gold() -> None:
    plain, final = (
        Image.open(io.BytesIO(draw_standings(standings(8, final=last), Lang.RU))).convert("RGB")
        for last in (False, True)
    )
    assert plain.size == final.size
    top_row = (40, 212, WIDTH - 40, 290)
    assert draw.TURN not in colours(plain.crop(top_row))  # the ring and the place
    assert draw.TURN in colours(final.crop(top_row))


def test_withdrawn_rows_are_moved_to_the_bottom(sized: Drawn) -> None:
    gone = StandingsRow(None, "Оля", False, "0", 1, 0, "", True)
    rows = tuple(
        StandingsRow(i + 1, name, False, "1", 1, 0, "", False)
        for i, name in enumerate(("Маша", "Дима"))
    )
    draw_standings(StandingsPicture("🏆", "", "", (gone, *rows)), Lang.RU)
    names = [label for label, _, _ in sized if label in ("Маша", "Дима", "Оля")]
    assert names == ["Маша", "Дима", "Оля"]


def test_a_long_tiebreak_heading_is_cut_before_the_names_are(sized: Drawn) -> None:
    draw_standings(standings(5, tiebreak="личные встречи"), Lang.RU)
    words = [label for label, _, _ in sized]
    assert "личные встречи" not in words
    assert any(word.startswith("личные") and word.endswith(ELLIPSIS) for word in words)
    assert " Компьютер 1" in words and "Тётя Клава " in words
