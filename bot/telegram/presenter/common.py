"""What every screen writes the same way: names, sides, scores, tiles, rule names."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from aiogram.types import InlineKeyboardButton

from bot.app.names import NAME_LIMIT as NAME_LIMIT  # names are cut by one rule
from bot.app.names import short_name as short_name
from domino.rules import FishMode, Variant
from domino.tiles import Tile
from domino.variants import find_variant
from domino.views import MatchView
from i18n import Lang, t

TILES_PER_ROW = 4


def side_names(names: Sequence[str], seats: Iterable[int]) -> str:
    """A side as the group reads it: "A + B" for partners, the name alone for one seat.
    `names` are every seat's names, `seats` the side's (`view.sides[side]`,
    `match.sides[match.side_of(seat)]`). Plain text: the caller escapes it for HTML."""
    return " + ".join(short_name(names[seat]) for seat in seats)


def score_text(view: MatchView, side: int) -> str:
    """A side's score now: remembered points as `+N` while the account is not open (K-7's
    rule of 13, `GameVariant.rule_of_13`), else the recorded points."""
    account = view.scores[side]
    if view.ruleset.game.rule_of_13 and not account.opened:
        return f"+{account.remembered}" if account.remembered else "0"
    return str(account.recorded)


def score_line(who: str, points: int | str, gain: int | None = None) -> str:
    """One line of a score list, "who: points", with the rating gained as " · +gain" when
    the stats count it (K-11)."""
    line = f"{who}: {points}"
    return line if gain is None else f"{line} · +{gain}"


def tile_label(tile: Tile) -> str:
    return f"{tile.low}|{tile.high}"


def tile_rows(
    buttons: Sequence[InlineKeyboardButton], per_row: int | None = None
) -> list[list[InlineKeyboardButton]]:
    """A hand's tile buttons in rows of `per_row` (`TILES_PER_ROW` unless the buttons
    are wider), as a phone shows them."""
    size = per_row or TILES_PER_ROW
    return [list(buttons[i : i + size]) for i in range(0, len(buttons), size)]


def variant_name(variant: Variant, lang: Lang) -> str:
    """The game's name (`GameVariant.name_key`)."""
    return t(find_variant(variant).name_key, lang)


def fish_mode_name(mode: FishMode, lang: Lang) -> str:
    return t(f"fish.{mode.value}", lang)
