"""/history: a group's last matches of one game, and each match's score sheet round by
round."""

from __future__ import annotations

import html
from collections.abc import Sequence

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.app.names import clean_name, computer_name, pad, short_name, truncate
from bot.telegram.callbacks import HistoryCb
from bot.telegram.stats_columns import (
    LINE_WIDTH,
    TEXT_LIMIT,
    columns,
    day,
    game_name,
    games_rows,
    keyboard_of,
    page_title,
    paging_row,
)
from domino.rules import Variant
from domino.variants import GameVariant, find_variant
from domino.views import OutcomeKind
from i18n import Lang, t
from storage.records import Ending
from storage.stats import HistoryEntry, HistoryPlayer, MatchSheet, Page, SheetRound

SHEETS_PER_ROW = 5  # history buttons that open a score sheet, per keyboard row
OUTCOME_WIDTH = 8  # the score sheet's outcome column: «домино 4», «рыба 2»


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
    title = page_title("history.title", page, chat, game, lang)
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
    return keyboard_of(rows)


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
        + columns(*((side_label(sheet, side), column) for side in range(sides))),
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
        + columns(*((f"+{points}", column) for points in round_.points)),
        " " * (4 + OUTCOME_WIDTH) + columns(*((str(total), column) for total in round_.totals)),
    ]
    if round_.eggs_after:
        block.append(" " * 4 + t("sheet.eggs", lang, n=round_.eggs_after))
    return block


def sheet_keyboard(game: Variant, page: int, lang: Lang) -> InlineKeyboardMarkup:
    back = InlineKeyboardButton(
        text=t("btn.history_back", lang), callback_data=HistoryCb(game=game.value, page=page).pack()
    )
    return InlineKeyboardMarkup(inline_keyboard=[[back]])
