"""What every screen writes the same way: names, sides, scores, tiles, rule names."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from aiogram.types import InlineKeyboardButton

from bot.i18n import Lang, t
from domino.rules import FishMode, Scoring, Variant
from domino.tiles import Tile
from domino.views import MatchView

NAME_LIMIT = 32
TILES_PER_ROW = 4


def short_name(name: str, limit: int = NAME_LIMIT) -> str:
    """A name cut to `limit` characters with an ellipsis; never empty. Every text built
    from a person's name uses this (issue 11, item 14: a 128-emoji name must still fit an
    alert's 200 characters)."""
    name = " ".join(name.split()) or "?"
    return name if len(name) <= limit else name[: limit - 1] + "…"


def side_names(names: Sequence[str], seats: Iterable[int]) -> str:
    """A side as the group reads it: "A + B" for partners, the name alone for one seat.
    `names` are every seat's names, `seats` the side's (`view.sides[side]`,
    `match.sides[match.side_of(seat)]`). Plain text: the caller escapes it for HTML."""
    return " + ".join(short_name(names[seat]) for seat in seats)


def score_text(view: MatchView, side: int) -> str:
    """A side's score now. Козёл: remembered points as `+N`, an open account as a plain
    number (K-7)."""
    account = view.scores[side]
    if view.ruleset.scoring is Scoring.KOZEL and not account.opened:
        return f"+{account.remembered}" if account.remembered else "0"
    return str(account.recorded)


def score_line(who: str, points: int | str, gain: int | None = None) -> str:
    """One line of a score list, "who: points", with the rating gained as " · +gain" when
    the stats count it (K-11)."""
    line = f"{who}: {points}"
    return line if gain is None else f"{line} · +{gain}"


def tile_label(tile: Tile) -> str:
    return f"{tile.low}|{tile.high}"


def tile_rows(buttons: Sequence[InlineKeyboardButton]) -> list[list[InlineKeyboardButton]]:
    """A hand's tile buttons in rows of `TILES_PER_ROW`, as a phone shows them."""
    return [list(buttons[i : i + TILES_PER_ROW]) for i in range(0, len(buttons), TILES_PER_ROW)]


def variant_name(variant: Variant, lang: Lang) -> str:
    return t(f"variant.{variant.value}", lang)


def fish_mode_name(mode: FishMode, lang: Lang) -> str:
    return t(f"fish.{mode.value}", lang)
