"""/top: one game's table of players, or of pairs in team play, in a group. Each player
takes two lines: name and ratings, then the counts. How matches went is said in the
game's words: where points are bad, the game's loser by its key (козёл, осёл: text keys
`*.kozel`, `*.osel`); where they are good, the wins."""

from __future__ import annotations

import html
from collections.abc import Sequence

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.app.names import clean_name, display_width, pad, truncate
from bot.telegram.callbacks import TopCb, TopScope
from bot.telegram.stats_columns import (
    LINE_WIDTH,
    T,
    cell,
    columns,
    elo_text,
    game_name,
    games_rows,
    keyboard_of,
    page_title,
    paging_row,
    percent,
    round_half_up,
)
from domino.rules import Variant
from domino.variants import GameVariant
from i18n import Lang, t
from storage.stats import LeaderRow, Page, PairRow

NAME_WIDTH = 16  # the name column of the players' table
PAIR_WIDTH = 22  # the names column of the pairs' table


def _outcome_keys(game: GameVariant) -> tuple[str, str]:
    """The text keys of the two columns that say how someone's matches went: where
    points are bad, the times last (the game's loser: козёл, осёл) and the share not
    last; where they are good, the wins and their share."""
    if game.points_are_bad:
        return f"top.col_losses.{game.key.value}", f"top.col_safe.{game.key.value}"
    return "top.col_wins", "top.col_win_share"


def _outcome_values(game: GameVariant, row: LeaderRow | PairRow) -> tuple[str, str]:
    if game.points_are_bad:
        return str(row.goats), percent(row.not_goat_share)
    return str(row.wins), percent(row.win_share)


def _legend(game: GameVariant, lang: Lang) -> str:
    """What the outcome columns mean, for the legend under a table."""
    if game.points_are_bad:
        return t(f"top.legend_losses.{game.key.value}", lang)
    return t("top.legend_wins", lang)


COUNTS_WIDTH = LINE_WIDTH - 4  # a row's second line, after its indent
PLAYER_LEAST = (4, 5, 5, 4, 4)  # what the numbers need: matches, the outcome columns, fish, average
PAIR_LEAST = (4, 5, 5, 4)  # matches, the two outcome columns, average


def fitted(headers: Sequence[str], least: Sequence[int], room: int = COUNTS_WIDTH) -> list[int]:
    """The widths of right-aligned columns under `headers` that fill `room` columns: each
    as wide as its numbers need (`least`) and its header with a space before it (the
    first follows the indent and needs none); what is left widens them one at a time from
    the last, so that the words of any language keep apart."""
    widths = [
        max(low, display_width(header) + (1 if index else 0))
        for index, (header, low) in enumerate(zip(headers, least, strict=True))
    ]
    for step in range(max(0, room - sum(widths))):
        widths[-1 - step % len(widths)] += 1
    return widths


def _player_counts(game: GameVariant, row: LeaderRow, widths: Sequence[int]) -> str:
    """A player's counts under their headers: matches, the outcome columns, fish made,
    average final points."""
    outcome = _outcome_values(game, row)
    cells = (str(row.matches), *outcome, str(row.fish_made), str(round_half_up(row.avg_points)))
    return columns(*zip(cells, widths, strict=True))


def _pair_counts(game: GameVariant, row: PairRow, widths: Sequence[int]) -> str:
    outcome = _outcome_values(game, row)
    cells = (str(row.matches), *outcome, str(round_half_up(row.avg_points)))
    return columns(*zip(cells, widths, strict=True))


def _player_headers(game: GameVariant, lang: Lang) -> list[str]:
    keys = ("top.col_matches", *_outcome_keys(game), "top.col_fish", "top.col_avg")
    return [t(key, lang, game=game.key.value) for key in keys]


def _pair_headers(game: GameVariant, lang: Lang) -> list[str]:
    keys = ("top.col_matches", *_outcome_keys(game), "top.col_avg")
    return [t(key, lang) for key in keys]


def _ranked(place: str, name: str, numbers: str, counts: str) -> list[str]:
    """The two lines of a ranking's row (or of its header, place "#"): the place, the
    name and the main numbers; then the counts, indented under the name."""
    return [pad(place, 3, right=True) + " " + name + numbers, "    " + counts]


def leaderboard_text(page: Page[LeaderRow], chat: str | None, game: GameVariant, lang: Lang) -> str:
    """One game's players' table: line one the place, name, rating and Elo; line two the
    matches, how they went (`_outcome_keys`), fish made, average final points."""
    name_of_game = game_name(game, lang)
    if not page.total:
        return t("top.empty", lang, game=name_of_game)
    head = page_title("top.title", page, chat, game, lang)
    numbers = columns((t("top.col_rating", lang), 6), (t("top.col_elo", lang), 6))
    name = pad(t("top.col_name", lang), NAME_WIDTH)
    headers = _player_headers(game, lang)
    widths = fitted(headers, PLAYER_LEAST)
    counts = columns(*zip(headers, widths, strict=True))
    lines = [*_ranked("#", name, numbers, counts), "─" * LINE_WIDTH]
    for row in page.rows:
        numbers = columns((str(row.rating), 6), (elo_text(row.elo), 6))
        name = cell(row.name, NAME_WIDTH)
        lines += _ranked(str(row.place), name, numbers, _player_counts(game, row, widths))
    legend = t("top.legend", lang, outcome=_legend(game, lang), game=game.key.value)
    return f"{head}\n<pre>{chr(10).join(lines)}</pre>\n{legend}"


def pairs_text(page: Page[PairRow], chat: str | None, game: GameVariant, lang: Lang) -> str:
    """One game's pairs' table (team play; a pair is the same two people whatever their
    seats)."""
    name_of_game = game_name(game, lang)
    if not page.total:
        return t("top.pairs_empty", lang, game=name_of_game)
    head = page_title("top.pairs_title", page, chat, game, lang)
    numbers = columns((t("top.col_rating", lang), 6))
    name = pad(t("top.col_pair", lang), PAIR_WIDTH)
    headers = _pair_headers(game, lang)
    widths = fitted(headers, PAIR_LEAST)
    counts = columns(*zip(headers, widths, strict=True))
    lines = [*_ranked("#", name, numbers, counts), "─" * LINE_WIDTH]
    for row in page.rows:
        name = html.escape(pair_names(row.names, PAIR_WIDTH), quote=False)
        lines += _ranked(
            str(row.place), name, columns((str(row.rating), 6)), _pair_counts(game, row, widths)
        )
    legend = t("top.pairs_legend", lang, outcome=_legend(game, lang))
    return f"{head}\n<pre>{chr(10).join(lines)}</pre>\n{legend}"


def pair_names(names: tuple[str, str], width: int) -> str:
    """ "A + B" in exactly `width` columns; when too long, the longer name gives way first."""
    first, second = (clean_name(name) for name in names)
    room = width - 3
    a, b = display_width(first), display_width(second)
    if a + b > room:
        a = min(a, max(room // 2, room - b))
        b = room - a
    return pad(f"{truncate(first, a)} + {truncate(second, b)}", width)


def top_keyboard(
    page: Page[T], game: Variant, scope: TopScope, games: Sequence[Variant], lang: Lang
) -> InlineKeyboardMarkup:
    """◀️ ▶️ past ten rows, the switch between the players' and the pairs' tables, and
    the other games with records in the group (`games_rows`)."""
    paging = paging_row(page, lambda n: TopCb(game=game.value, scope=scope, page=n).pack())
    other = TopScope.PAIRS if scope is TopScope.PLAYERS else TopScope.PLAYERS
    switch = InlineKeyboardButton(
        text=t("btn.top_pairs" if other is TopScope.PAIRS else "btn.top_players", lang),
        callback_data=TopCb(game=game.value, scope=other, page=1).pack(),
    )
    switch_game = games_rows(
        game, games, lambda key: TopCb(game=key.value, scope=scope, page=1).pack(), lang
    )
    keyboard = keyboard_of([paging, [switch], *switch_game])
    assert keyboard is not None
    return keyboard
