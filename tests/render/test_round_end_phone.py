"""The round's end read at a phone's width: in a chat a phone shows the picture about
330 points wide (`round_end.PHONE_WIDTH`), so its 1280 px shrink 3.9 times, and the
words a player looks for there («домино», «рыбак», «было / раунд / стало», «в игре +10 ·
в конце +20», the names, the numbers, what a hand counts) shrank to 5-7 px. Every text
of the picture is measured as drawn: its font size scaled to the phone's width must be
at least `MIN_PHONE_PX`. The table's own pips and badges are the table picture's and
are not measured here (they are read on it during the play).

Why 9: Telegram's own smallest texts in a chat (the time under a message) are 11-12
points; 9 points of bold or light text on a dark flat ground are read without opening
the picture, 5-7 are not."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from PIL import Image, ImageDraw

from domino.views import OutcomeKind
from render import render_round_end
from render.round_end import PHONE_WIDTH
from tests.render.test_round_end import ENGLISH, NAMES, ended, games

MIN_PHONE_PX = 9.0

Drawn = list[tuple[str, float, tuple[int, int]]]


@pytest.fixture
def sized(monkeypatch: pytest.MonkeyPatch) -> Iterator[Drawn]:
    """Every text Pillow draws: the text, its font size and the size of the image it is
    drawn on (the table's band is drawn apart and pasted)."""
    seen: Drawn = []
    original = ImageDraw.ImageDraw.text

    def recording(self: ImageDraw.ImageDraw, xy: object, label: object, *a: object, **k: object):  # type: ignore[no-untyped-def]
        font = k.get("font")
        size = float(getattr(font, "size", 0))
        seen.append((str(label), size, self._image.size))  # type: ignore[attr-defined]
        return original(self, xy, label, *a, **k)  # type: ignore[arg-type,type-var]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording)
    yield seen


def on_the_phone(sized: Drawn, data: bytes) -> list[tuple[str, float]]:
    """The texts drawn on the picture itself, each with its height on a phone."""
    picture = Image.open(io.BytesIO(data)).size
    scale = PHONE_WIDTH / picture[0]
    return [(label, size * scale) for label, size, canvas in sized if canvas == picture]


@pytest.mark.parametrize(("key", "players", "teams"), games())
def test_every_text_of_a_rounds_end_is_readable_at_a_phones_width(
    sized: Drawn, key: str, players: int, teams: bool
) -> None:
    for names, lang in ((NAMES, "ru"), (ENGLISH, "en")):
        match = ended(key, players, teams, seed=players)
        result = match.results[0]
        sized.clear()
        data = render_round_end(
            match.view(None), names[:players], match.ended_round(1), result, lang
        )
        shown = on_the_phone(sized, data)
        small = [(label, round(px, 1)) for label, px in shown if px < MIN_PHONE_PX]
        assert not small, small
        words = [label for label, _ in shown]
        heads = ("было", "раунд", "стало") if lang == "ru" else ("before", "round", "after")
        assert all(head in words for head in heads), words  # measured, not missed
        assert all(any(name in word for word in words) for name in names[:players]), words
        tag = {
            OutcomeKind.WENT_OUT: "домино" if lang == "ru" else "went out",
            OutcomeKind.FISH: "рыбак" if lang == "ru" else None,
        }.get(result.outcome.kind)
        if tag is not None:
            assert tag in words, words
