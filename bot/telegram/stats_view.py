"""What /top, /stats and /history show, as pure functions of the stats records.

Tables are monospace (`<pre>`, HTML parse mode) rather than pictures: names in
Telegram are full of emoji, which the bundled fonts cannot draw, while the client
draws them in text; text also costs no upload and edits cheaply when paging. Columns
line up by display width (`display_width`): a Cyrillic letter is one column, an
emoji or East-Asian wide character two, and combining marks, joiners and variation
selectors nothing, with a ZWJ sequence or a flag counted as one picture. Every row
fits in `LINE_WIDTH` columns, about what a phone shows of a code block in portrait,
so each player takes two lines: name and ratings, then the counts.

Every screen is of one game (issue 13) and says how matches went in that game's
words: where points are bad, the game's loser by its key (козёл, осёл: text keys
`*.kozel`, `*.osel`); where they are good, the wins. Buttons switch to the other
games with records (`games_rows`).

Dates are shown as dd.mm.yyyy in UTC (the bot serves groups in many time zones and
stores UTC; a date is what people compare, not the hour).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TypeVar

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.app.names import clean_name as clean_name  # one rule for names, re-exported
from bot.app.names import computer_name, short_name
from bot.app.names import display_width as display_width
from bot.app.names import pad as pad
from bot.app.names import truncate as truncate
from bot.telegram.callbacks import HistoryCb, StatsCb, TopCb, TopScope
from domino.rules import Variant
from domino.variants import VARIANTS, GameVariant, find_variant
from domino.views import OutcomeKind
from i18n import Lang, t
from storage.records import Ending
from storage.stats import (
    HistoryEntry,
    HistoryPlayer,
    LeaderRow,
    MatchLine,
    MatchSheet,
    Page,
    PairRow,
    PlayerStats,
    SheetRound,
)

LINE_WIDTH = 32  # columns of every line of a table
PAGE_SIZE = 10
NAME_WIDTH = 16  # the name column of the players' table
PAIR_WIDTH = 22  # the names column of the pairs' table
SHEETS_PER_ROW = 5  # history buttons that open a score sheet, per keyboard row
MIN_STREAK = 2  # /stats tells of a streak from two matches alike in a row: one is no streak
TEXT_LIMIT = 4096  # characters of one Telegram message
T = TypeVar("T")
NO_VALUE = "—"
OUTCOME_WIDTH = 8  # the score sheet's outcome column: «домино 4», «рыба 2»


def cell(name: str, width: int) -> str:
    """A name as one left-aligned cell of `width` columns, HTML-escaped."""
    return html.escape(pad(clean_name(name), width), quote=False)


# --- numbers and dates ---------------------------------------------------------------


def round_half_up(value: float) -> int:
    return int(value + 0.5) if value >= 0 else -int(-value + 0.5)


def percent(share: float) -> str:
    return f"{round_half_up(share * 100)}%"


def day(moment: datetime) -> str:
    """dd.mm.yyyy in UTC; a naive time is taken as UTC (the database stores UTC)."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%d.%m.%Y")


def _elo(elo: int | None) -> str:
    return NO_VALUE if elo is None else str(elo)


def _title(chat: str | None) -> str:
    return html.escape(clean_name(chat or "?"), quote=False)


# --- paging --------------------------------------------------------------------------


def page_exists(page: int, total: int, size: int = PAGE_SIZE) -> bool:
    """Page 1 always exists (it may be empty); others only while they hold rows."""
    return page == 1 or 1 < page <= -(-total // size)


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


def _keyboard(rows: Sequence[Sequence[InlineKeyboardButton]]) -> InlineKeyboardMarkup | None:
    kept = [list(row) for row in rows if row]
    return InlineKeyboardMarkup(inline_keyboard=kept) if kept else None


# --- the game ------------------------------------------------------------------------


def game_name(game: GameVariant, lang: Lang) -> str:
    return t(game.name_key, lang)


GAMES_PER_ROW = 3
"""Game buttons a row under /top, /stats and /history: nine games (issue 17 and after)
would not fit one row (Telegram takes 8 a row, a phone shows far fewer names)."""


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


# --- /top ----------------------------------------------------------------------------


def _columns(*cells: tuple[str, int]) -> str:
    """Right-aligned cells, each `width` columns wide (numbers and their headers)."""
    return "".join(pad(text, width, right=True) for text, width in cells)


PLAYER_WIDTHS = (5, 5, 7, 5, 6)  # matches, the two outcome columns, fish made, average
PAIR_WIDTHS = (6, 6, 8, 8)  # matches, the two outcome columns, average


def _player_counts(game: GameVariant, row: LeaderRow) -> str:
    """A player's counts under their headers: matches, the outcome columns, fish made,
    average final points."""
    outcome = _outcome_values(game, row)
    cells = (str(row.matches), *outcome, str(row.fish_made), str(round_half_up(row.avg_points)))
    return _columns(*zip(cells, PLAYER_WIDTHS, strict=True))


def _pair_counts(game: GameVariant, row: PairRow) -> str:
    outcome = _outcome_values(game, row)
    cells = (str(row.matches), *outcome, str(round_half_up(row.avg_points)))
    return _columns(*zip(cells, PAIR_WIDTHS, strict=True))


def _player_headers(game: GameVariant, lang: Lang) -> str:
    keys = ("top.col_matches", *_outcome_keys(game), "top.col_fish", "top.col_avg")
    headers = (t(key, lang, game=game.key.value) for key in keys)
    return _columns(*zip(headers, PLAYER_WIDTHS, strict=True))


def _pair_headers(game: GameVariant, lang: Lang) -> str:
    keys = ("top.col_matches", *_outcome_keys(game), "top.col_avg")
    return _columns(*zip((t(key, lang) for key in keys), PAIR_WIDTHS, strict=True))


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
    head = t(
        "top.title",
        lang,
        chat=_title(chat),
        game=name_of_game,
        page=page.page_no,
        pages=page.pages,
    )
    numbers = _columns((t("top.col_rating", lang), 6), (t("top.col_elo", lang), 6))
    name = pad(t("top.col_name", lang), NAME_WIDTH)
    lines = [*_ranked("#", name, numbers, _player_headers(game, lang)), "─" * LINE_WIDTH]
    for row in page.rows:
        numbers = _columns((str(row.rating), 6), (_elo(row.elo), 6))
        name = cell(row.name, NAME_WIDTH)
        lines += _ranked(str(row.place), name, numbers, _player_counts(game, row))
    legend = t("top.legend", lang, outcome=_legend(game, lang), game=game.key.value)
    return f"{head}\n<pre>{chr(10).join(lines)}</pre>\n{legend}"


def pairs_text(page: Page[PairRow], chat: str | None, game: GameVariant, lang: Lang) -> str:
    """One game's pairs' table (team play; a pair is the same two people whatever their
    seats)."""
    name_of_game = game_name(game, lang)
    if not page.total:
        return t("top.pairs_empty", lang, game=name_of_game)
    head = t(
        "top.pairs_title",
        lang,
        chat=_title(chat),
        game=name_of_game,
        page=page.page_no,
        pages=page.pages,
    )
    numbers = _columns((t("top.col_rating", lang), 6))
    name = pad(t("top.col_pair", lang), PAIR_WIDTH)
    lines = [*_ranked("#", name, numbers, _pair_headers(game, lang)), "─" * LINE_WIDTH]
    for row in page.rows:
        name = html.escape(pair_names(row.names, PAIR_WIDTH), quote=False)
        lines += _ranked(
            str(row.place), name, _columns((str(row.rating), 6)), _pair_counts(game, row)
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
    keyboard = _keyboard([paging, [switch], *switch_game])
    assert keyboard is not None
    return keyboard


# --- /stats --------------------------------------------------------------------------


def player_stats_text(stats: PlayerStats, chat: str | None, lang: Lang) -> str:
    """One person's numbers in one game, in one group (`chat` its title) or across all
    groups (None). How the matches went is the game's: where points are bad, the times
    last under the loser's name (козёл, осёл) and the streaks of matches not last;
    where they are good, the wins and the streaks of wins; a streak is told from two
    matches alike in a row (`MIN_STREAK`). The best and the worst match are one line
    when they are the same match: «the only match», or, when every match gained the
    same rating, that rating and the latest match. The hints taken («💡 3 подсказки»,
    issue 14) are told once there are any; they change no other number."""
    game = find_variant(stats.game)
    name = html.escape(clean_name(stats.name), quote=False)
    title_of_game = game_name(game, lang)
    if stats.chat_id is None:
        lines = [t("stats.title_all", lang, name=name, game=title_of_game)]
    else:
        title = t("stats.title_group", lang, name=name, chat=_title(chat), game=title_of_game)
        lines = [title]
    lines.append(
        t("stats.matches", lang, n=stats.matches, rating=stats.rating, elo=_elo(stats.elo))
    )
    if game.points_are_bad:
        share = percent(stats.goats / stats.matches) if stats.matches else "0%"
        lines.append(t(f"stats.losses.{game.key.value}", lang, n=stats.goats, share=share))
    else:
        share = percent(stats.wins / stats.matches) if stats.matches else "0%"
        lines.append(t("stats.wins", lang, n=stats.wins, share=share))
    lines.append(t("stats.went_out", lang, n=stats.went_out))
    lines.append(t("stats.fish", lang, n=stats.fish_made, game=game.key.value))
    if stats.eggs_taken:  # K-9, M-5: most games have no eggs, and nobody took any here
        lines.append(t("stats.eggs", lang, n=stats.eggs_taken))
    if stats.hints:
        lines.append(t("stats.hints", lang, n=stats.hints))
    lines += _best_and_worst(stats, game, lang)
    if abs(stats.streak) >= MIN_STREAK:
        lines.append(_streak(game, stats.streak, lang))
    return "\n".join(lines)


def _best_and_worst(stats: PlayerStats, game: GameVariant, lang: Lang) -> list[str]:
    best, worst = stats.best, stats.worst
    if best is None or worst is None:
        return []
    if best.game_id == worst.game_id:
        key = "stats.only_match" if stats.matches == 1 else "stats.best_and_worst"
        return [_match_line(key, best, game, lang)]
    return [
        _match_line("stats.best", best, game, lang),
        _match_line("stats.worst", worst, game, lang),
    ]


def _streak(game: GameVariant, streak: int, lang: Lang) -> str:
    """The latest matches in a row alike (`PlayerStats.streak`), as the game counts them."""
    if game.points_are_bad:
        kind = "good" if streak > 0 else "bad"
        return t(f"stats.streak_{kind}.{game.key.value}", lang, n=abs(streak))
    return t("stats.streak_wins" if streak > 0 else "stats.streak_no_wins", lang, n=abs(streak))


def _match_line(key: str, match: MatchLine, game: GameVariant, lang: Lang) -> str:
    """A best or worst match: its final points, date and rating gained; the loser's mark
    where points are bad and the person was last."""
    line = t(key, lang, points=match.points, date=day(match.ended_at), gain=match.rating_gain)
    if match.goat and game.points_are_bad:
        line += " " + t(f"stats.mark.{game.key.value}", lang)
    return line


def stats_keyboard(
    game: Variant, games: Sequence[Variant], user_id: int, lang: Lang
) -> InlineKeyboardMarkup | None:
    """The person's other games with records, to switch to (`games_rows`)."""
    return _keyboard(
        games_rows(game, games, lambda key: StatsCb(game=key.value, user=user_id).pack(), lang)
    )


def no_stats_text(name: str, in_group: bool, lang: Lang) -> str:
    name = html.escape(clean_name(name), quote=False)
    return t("stats.none_group" if in_group else "stats.none_all", lang, name=name)


# --- /history ------------------------------------------------------------------------


def ending_name(ending: Ending, lang: Lang) -> str:
    return t(f"ending.{ending.value}", lang)


def result_mark(game: GameVariant, player: HistoryPlayer, lang: Lang) -> str:
    """ " 🐐" after the game's loser where points are bad (its own mark: козёл, осёл),
    " 🏆" after a winner where they are good; "" otherwise."""
    if game.points_are_bad:
        return " " + t(f"stats.mark.{game.key.value}", lang) if player.goat else ""
    return " " + t("stats.mark_winner", lang) if player.won else ""


def _player_result(game: GameVariant, player: HistoryPlayer, lang: Lang) -> str:
    own = player.name if player.user_id is not None else computer_name(player.name, lang)
    name = html.escape(truncate(clean_name(own), 24), quote=False)
    return f"{name}{result_mark(game, player, lang)} {player.points}"


def history_text(page: Page[HistoryEntry], chat: str | None, game: GameVariant, lang: Lang) -> str:
    """The group's last matches of one game, newest first, numbered on from the page's
    offset: date, how it ended, rounds, then every player's final points with the
    game's mark (`result_mark`)."""
    name_of_game = game_name(game, lang)
    if not page.total:
        return t("history.empty", lang, game=name_of_game)
    title = t(
        "history.title",
        lang,
        chat=_title(chat),
        game=name_of_game,
        page=page.page_no,
        pages=page.pages,
    )
    lines = [title]
    for number, entry in enumerate(page.rows, start=page.offset + 1):
        lines.append("")
        lines.append(
            t(
                "history.entry",
                lang,
                n=number,
                date=day(entry.ended_at),
                ending=ending_name(entry.ending, lang),
                rounds=entry.rounds,
            )
        )
        lines.append("   " + " · ".join(_player_result(game, p, lang) for p in entry.players))
    lines.append("")
    lines.append(t("history.hint", lang))
    return "\n".join(lines)


def history_keyboard(
    page: Page[HistoryEntry], game: Variant, games: Sequence[Variant], lang: Lang
) -> InlineKeyboardMarkup | None:
    """A button per match (its number in the list) that opens its score sheet, ◀️ ▶️,
    and the other games with records in the group (`games_rows`)."""
    sheets = [
        InlineKeyboardButton(
            text=f"📋 {number}",
            callback_data=HistoryCb(game=game.value, page=page.page_no, match=entry.game_id).pack(),
        )
        for number, entry in enumerate(page.rows, start=page.offset + 1)
    ]
    rows = [sheets[i : i + SHEETS_PER_ROW] for i in range(0, len(sheets), SHEETS_PER_ROW)]
    rows.append(paging_row(page, lambda n: HistoryCb(game=game.value, page=n).pack()))
    rows += games_rows(game, games, lambda key: HistoryCb(game=key.value, page=1).pack(), lang)
    return _keyboard(rows)


# --- the score sheet -----------------------------------------------------------------


def side_label(sheet: MatchSheet, side: int) -> str:
    """A side's column header: the seat number(s) as in the list of players ("1", "1+3")."""
    return "+".join(str(seat + 1) for seat in sheet.sides[side])


OUTCOME_KEYS = {
    OutcomeKind.WENT_OUT: "sheet.went_out",
    OutcomeKind.FISH: "sheet.fish",
    OutcomeKind.REACHED: "sheet.reached",  # F-6: the target reached mid-round
}


def _outcome(round_: SheetRound, game: GameVariant, lang: Lang) -> str:
    return t(OUTCOME_KEYS[round_.outcome], lang, seat=round_.seat + 1, game=game.key.value)


def sheet_text(sheet: MatchSheet, lang: Lang) -> str:
    """One match round by round: who went out (or рыба and the рыбак's seat), each side's
    points in the round, and under them each side's total after it; eggs carried on.
    The legend tells of remembered points only in games with the rule of 13."""
    game = find_variant(sheet.variant)
    sides = len(sheet.sides)
    column = max(5, (LINE_WIDTH - 4 - OUTCOME_WIDTH) // sides)
    lines = [
        t(
            "sheet.title",
            lang,
            id=sheet.game_id,
            variant=game_name(game, lang),
            target=sheet.target,
            date=day(sheet.ended_at),
            ending=ending_name(sheet.ending, lang),
        )
    ]
    for seat, player in enumerate(sheet.players):
        gain = f"+{player.rating_gain}" if player.rating_gain >= 0 else str(player.rating_gain)
        own = player.name if player.user_id is not None else computer_name(player.name, lang)
        name = html.escape(short_name(own), quote=False)
        mark = result_mark(game, player, lang)
        lines.append(
            t("sheet.player", lang, seat=seat + 1, name=name, goat=mark, points=player.points)
            + (f" ({gain})" if player.user_id is not None else "")
        )
    head = [
        pad(t("sheet.col_round", lang), 3, right=True)
        + " "
        + pad(t("sheet.col_outcome", lang), OUTCOME_WIDTH)
        + _columns(*((side_label(sheet, side), column) for side in range(sides))),
        "─" * (4 + OUTCOME_WIDTH + column * sides),
    ]
    blocks = [_sheet_round(round_, column, game, lang) for round_ in sheet.rounds]
    legend = t("sheet.legend", lang, game=game.key.value)
    if game.rule_of_13:
        legend += "\n" + t("sheet.legend_13", lang)
    if game.scores_in_play:
        legend += "\n" + t("sheet.legend_in_play", lang)
    # A very long match keeps its latest rounds: one message holds at most TEXT_LIMIT.
    budget = TEXT_LIMIT - len("\n".join(lines)) - len(legend) - 200
    shown = len(blocks)
    while shown > 1 and sum(len(line) + 1 for b in blocks[-shown:] for line in b) > budget:
        shown -= 1
    if shown < len(blocks):
        lines.append(t("sheet.cut", lang, n=len(blocks) - shown))
    table = head + [line for block in blocks[len(blocks) - shown :] for line in block]
    lines.append(f"<pre>{html.escape(chr(10).join(table), quote=False)}</pre>")
    lines.append(legend)
    return "\n".join(lines)


def _sheet_round(round_: SheetRound, column: int, game: GameVariant, lang: Lang) -> list[str]:
    """A round's lines: its number, outcome and points; the totals after it; eggs on."""
    block = [
        pad(str(round_.round_no), 3, right=True)
        + " "
        + pad(_outcome(round_, game, lang), OUTCOME_WIDTH)
        + _columns(*((f"+{points}", column) for points in round_.points)),
        " " * (4 + OUTCOME_WIDTH) + _columns(*((str(total), column) for total in round_.totals)),
    ]
    if round_.eggs_after:
        block.append(" " * 4 + t("sheet.eggs", lang, n=round_.eggs_after))
    return block


def sheet_keyboard(game: Variant, page: int, lang: Lang) -> InlineKeyboardMarkup:
    back = InlineKeyboardButton(
        text=t("btn.history_back", lang), callback_data=HistoryCb(game=game.value, page=page).pack()
    )
    return InlineKeyboardMarkup(inline_keyboard=[[back]])
