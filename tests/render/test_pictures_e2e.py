"""The table picture as the group gets it through the fake Telegram, with player
names of emoji only, with emoji after letters, and of nothing drawable.

The bot runs as `python -m bot` against tests/fakegram; three people with such names
open a game and start it. The picture the group received must show the emoji (pixels
in colours that only an emoji brings: the fixed palette lacks them) and be exactly the
picture `render_table` draws for that position and those names, none of them empty (a
name with nothing drawable is «Игрок N» there).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from bot.telegram.presenter import short_name
from render import draw, labels, render_table, text
from render.table import _CARDS
from tests.e2e.harness import open_game, running_bot
from tests.fakegram import FakeTelegram

NAMES = ("🦊🦊🦊", "Борис 🎲🐐", "\u200b")


@pytest.mark.slow
@pytest.mark.timeout(1800)  # a net for a hung bot, as in tests/e2e
async def test_the_group_sees_emoji_in_names_and_no_empty_name(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    people = [fakegram.add_user(name) for name in NAMES]
    async with running_bot(fakegram, tmp_path, PACING="false") as bot:
        table = await open_game(fakegram, people)
        assert table.table is not None and table.table.photo is not None
        received = table.table.photo.data
        match = bot.stored_match()
        seats = bot.stored(
            "SELECT name FROM seats WHERE game_id = (SELECT MAX(id) FROM games) ORDER BY seat"
        )
    names = [short_name(str(name)) for (name,) in seats]  # as the bot passes them
    assert len(names) == len(NAMES)
    # Every seat's name draws something: the bot's own fallback, or «Игрок N».
    assert all(text.clean(name, True) for name in labels.shown_names(names)), names
    assert received == render_table(match.view(None), names, "ru")
    image = Image.open(io.BytesIO(received)).convert("RGB")
    cards = image.crop((_CARDS.x0, _CARDS.y0, _CARDS.x1, _CARDS.y0 + 60))
    fixed = set(draw.palette_colours())
    found = cards.getcolors(maxcolors=1 << 16)
    assert found is not None
    emoji_pixels = sum(count for count, colour in found if colour not in fixed)
    # Five emoji of about 33 x 31 px each: far more than a few stray pixels.
    assert emoji_pixels > 1000, emoji_pixels
