"""What every statistics screen shares: the table's width, a name as a cell, numbers
and dates, paging, and the buttons that switch between games.

Tables are monospace (`<pre>`, HTML parse mode) rather than pictures: names in
Telegram are full of emoji, which the bundled fonts cannot draw, while the client
draws them in text; text also costs no upload and edits cheaply when paging. Columns
line up by display width (`display_width`): a Cyrillic letter is one column, an
emoji or East-Asian wide character two, and combining marks, joiners and variation
selectors nothing, with a ZWJ sequence or a flag counted as one picture. Every row
fits in `LINE_WIDTH` columns, about what a phone shows of a code block in portrait.

Dates are days in UTC, written as the reader's language writes them («03.12.2026»,
«3 Dec 2026»): the bot serves groups in many time zones and stores UTC; a date is what
people compare, not the hour.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TypeVar

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.app.names import clean_name, pad
from bot.app.stats import PAGE_SIZE as PAGE_SIZE  # rows on a page
from bot.app.stats import page_exists as page_exists
from domino.rules import Variant
from domino.variants import VARIANTS, GameVariant
from i18n import Lang, t
from storage.stats import Page

LINE_WIDTH = 32  # columns of every line of a table
TEXT_LIMIT = 4096  # characters of one Telegram message
T = TypeVar("T")
NO_VALUE = "—"


def cell(name: str, width: int) -> str:
    """A name as one left-aligned cell of `width` columns, HTML-escaped."""
    return html.escape(pad(clean_name(name), width), quote=False)


# --- numbers and dates ---------------------------------------------------------------


def round_half_up(value: float) -> int:
    return int(value + 0.5) if value >= 0 else -int(-value + 0.5)


def percent(share: float) -> str:
    return f"{round_half_up(share * 100)}%"


def day(moment: datetime, lang: Lang) -> str:
    """The day in UTC as `lang` writes a date (`stats.date`); a naive time is taken as
    UTC (the database stores UTC)."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return t(
        "stats.date",
        lang,
        day=moment.day,
        month=moment.month,
        year=str(moment.year),
    )


def elo_text(elo: int | None) -> str:
    return NO_VALUE if elo is None else str(elo)


def chat_title(chat: str | None) -> str:
    return html.escape(clean_name(chat or "?"), quote=False)


# --- paging --------------------------------------------------------------------------


def paging_row(page: Page[T], data: Callable[[int], str]) -> list[InlineKeyboardButton]:
    """◀️ and ▶️ to the neighbouring pages, each named by its number; `data(page)` is the
    callback data that opens that page."""
    row: list[InlineKeyboardButton] = []
    if page.has_prev:
        row.append(
            InlineKeyboardButton(text=f"◀️ {page.page_no - 1}", callback_data=data(page.page_no - 1))
        )
    if page.has_next:
        row.append(
            InlineKeyboardButton(text=f"{page.page_no + 1} ▶️", callback_data=data(page.page_no + 1))
        )
    return row


def keyboard_of(rows: Sequence[Sequence[InlineKeyboardButton]]) -> InlineKeyboardMarkup | None:
    kept = [list(row) for row in rows if row]
    return InlineKeyboardMarkup(inline_keyboard=kept) if kept else None


# --- the game ------------------------------------------------------------------------


def game_name(game: GameVariant, lang: Lang) -> str:
    return t(game.name_key, lang)


GAMES_PER_ROW = 3
"""Game buttons a row under /top, /stats and /history: nine games and more would not
fit one row (Telegram takes 8 a row, a phone shows far fewer names)."""


def games_rows(
    current: Variant, games: Sequence[Variant], data: Callable[[Variant], str], lang: Lang
) -> list[list[InlineKeyboardButton]]:
    """A button per game with records (`games`) and the game shown (`current`, marked
    ✅), in the registry's order, `GAMES_PER_ROW` a row; none when the game shown is the
    only one."""
    shown = {current, *games}
    if len(shown) < 2:
        return []
    buttons = [
        InlineKeyboardButton(
            text=("✅ " if game.key is current else "") + game_name(game, lang),
            callback_data=data(game.key),
        )
        for game in VARIANTS
        if game.key in shown
    ]
    return [buttons[i : i + GAMES_PER_ROW] for i in range(0, len(buttons), GAMES_PER_ROW)]


def columns(*cells: tuple[str, int]) -> str:
    """Right-aligned cells, each `width` columns wide (numbers and their headers)."""
    return "".join(pad(text, width, right=True) for text, width in cells)


def page_title(key: str, page: Page[T], chat: str | None, game: GameVariant, lang: Lang) -> str:
    """A screen's heading line, `key` with the group's title, the game's name and where
    the page stands among the pages."""
    return t(
        key,
        lang,
        chat=chat_title(chat),
        game=game_name(game, lang),
        page=page.page_no,
        pages=page.pages,
    )
