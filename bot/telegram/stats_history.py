"""/history: a group's last matches of one game, and each match's score sheet round by
round; below the matches, the group's last finished tournaments with their winners."""

from __future__ import annotations

import html
from collections.abc import Sequence

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.app.names import clean_name, computer_name, display_width, pad, short_name, truncate
from bot.telegram.callbacks import HistoryCb
from bot.telegram.presenter import tournament as tournament_text
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
from domino.views import OutcomeKind, RoundOutcome, RoundResult
from i18n import Lang, t
from storage.records import Ending, TournamentRecord
from storage.stats import HistoryEntry, HistoryPlayer, MatchSheet, Page, SheetRound

SHEETS_PER_ROW = 5  # history buttons that open a score sheet, per keyboard row


def ending_name(ending: Ending, lang: Lang) -> str:
    return t(f"ending.{ending.value}", lang)


def result_mark(game: GameVariant, player: HistoryPlayer, lang: Lang) -> str:
    """ " 🐐" after the game's loser where points are bad (its own mark: козёл, осёл),
    " 🏆" after a winner where they are good; "" otherwise."""
    if game.points_are_bad:
        return " " + t(f"stats.mark.{game.key.value}", lang) if player.goat else ""
    return " " + t("stats.mark_winner", lang) if player.won else ""


def _player_result(game: GameVariant, player: HistoryPlayer, lang: Lang) -> str:
    name = html.escape(truncate(_shown_name(player, lang), 24), quote=False)
    return f"{name}{result_mark(game, player, lang)} {player.points}"


def history_text(page: Page[HistoryEntry], chat: str | None, game: GameVariant, lang: Lang) -> str:
    """The group's last matches of one game, newest first, each under its number in the
    group's matches of the game (`HistoryEntry.number`, the same its sheet shows): date,
    how it ended, rounds, then every player's final points with the game's mark
    (`result_mark`)."""
    name_of_game = game_name(game, lang)
    if not page.total:
        return t("history.empty", lang, game=name_of_game)
    title = page_title("history.title", page, chat, game, lang)
    lines = [title]
    for entry in page.rows:
        lines.append("")
        lines.append(
            t(
                "history.entry",
                lang,
                n=entry.number,
                date=day(entry.ended_at, lang),
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
    """A button per match (its number, as listed) that opens its score sheet, ◀️ ▶️,
    and the other games with records in the group (`games_rows`)."""
    sheets = [
        InlineKeyboardButton(
            text=f"📋 {entry.number}",
            callback_data=HistoryCb(game=game.value, page=page.page_no, match=entry.game_id).pack(),
        )
        for entry in page.rows
    ]
    rows = [sheets[i : i + SHEETS_PER_ROW] for i in range(0, len(sheets), SHEETS_PER_ROW)]
    rows.append(paging_row(page, lambda n: HistoryCb(game=game.value, page=n).pack()))
    rows += games_rows(game, games, lambda key: HistoryCb(game=key.value, page=1).pack(), lang)
    return keyboard_of(rows)


# --- the score sheet -----------------------------------------------------------------

ROW_LABEL_WIDTH = 5  # the sheet's first column: «очки» (the round's) and «счёт» (after it)
OUTCOME_NAME_WIDTH = 16  # the name in a round's line: «Раунд 2 · рыба, рыбак: Боб»


def _shown_name(player: HistoryPlayer, lang: Lang) -> str:
    """A player's name as the reader calls them: a computer in the reader's language."""
    own = player.name if player.user_id is not None else computer_name(player.name, lang)
    return clean_name(own)


def column_name(name: str, width: int) -> str:
    """A name in a column `width` wide: whole if it fits; else without its middle words
    («🤖 Компьютер 2» → «🤖 2», so computers stay apart); else its first word with a
    letter («Алиса Иванова» → «Алиса»); else cut."""
    words = name.split(" ")
    tries = [name]
    if len(words) > 2:
        tries.append(f"{words[0]} {words[-1]}")
    tries += [word for word in words if any(char.isalpha() for char in word)][:1]
    for tried in tries:
        if display_width(tried) <= width:
            return tried
    return truncate(tries[-1], width)


def side_label(sheet: MatchSheet, side: int, width: int, lang: Lang) -> str:
    """A side's column header: its player's name, or a pair's two joined by «+», each
    shortened (`column_name`) to fit `width` columns."""
    names = [_shown_name(sheet.players[seat], lang) for seat in sheet.sides[side]]
    joined = "+".join(names)
    if display_width(joined) <= width:
        return joined
    room = (width - (len(names) - 1)) // len(names)
    return "+".join(column_name(name, room) for name in names)


OUTCOME_KEYS = {
    OutcomeKind.WENT_OUT: "sheet.went_out",
    OutcomeKind.FISH: "sheet.fish",
    OutcomeKind.REACHED: "sheet.reached",  # F-6: the target reached mid-round
}


def _outcome(
    sheet: MatchSheet, round_: SheetRound, game: GameVariant, lang: Lang, last_tile: bool
) -> str:
    """A round's line: its number, how it ended and by whom; `last_tile` when its last
    tile decided the match (M-4's «голый козёл»), said by the game's own name for it."""
    key = f"sheet.last_tile.{game.key.value}" if last_tile else OUTCOME_KEYS[round_.outcome]
    name = truncate(_shown_name(sheet.players[round_.seat], lang), OUTCOME_NAME_WIDTH)
    outcome = t(key, lang, name=name, game=game.key.value)
    return t("sheet.round", lang, n=round_.round_no, outcome=outcome)


def sheet_text(sheet: MatchSheet, lang: Lang, *, last_tile_won: bool = False) -> str:
    """One match round by round, under a header of the players' names (`side_label`):
    each round's line says how it ended and by whom, then each side's points in the
    round («очки») and its total after it («счёт»); eggs carried on. `last_tile_won`: the
    last round's tile decided the match (`Match.won_by_last_tile`, M-4). The number is
    the match's in the group's history. The legend tells of remembered points only in
    games with the rule of 13, of points scored in play only where moves score."""
    game = find_variant(sheet.variant)
    sides = len(sheet.sides)
    column = (LINE_WIDTH - ROW_LABEL_WIDTH) // sides
    lines = [
        t(
            "sheet.title",
            lang,
            n=sheet.number,
            variant=game_name(game, lang),
            target=sheet.target,
            date=day(sheet.ended_at, lang),
            ending=ending_name(sheet.ending, lang),
        )
    ]
    for player in sheet.players:
        name = html.escape(short_name(_shown_name(player, lang)), quote=False)
        mark = result_mark(game, player, lang)
        if player.user_id is None:  # a computer has no rating
            lines.append(t("sheet.computer", lang, name=name, goat=mark, points=player.points))
            continue
        gain = f"+{player.rating_gain}" if player.rating_gain >= 0 else str(player.rating_gain)
        lines.append(t("sheet.player", lang, name=name, goat=mark, points=player.points, gain=gain))
    width = ROW_LABEL_WIDTH + column * sides
    head = [
        " " * ROW_LABEL_WIDTH
        + columns(*((side_label(sheet, side, column - 1, lang), column) for side in range(sides))),
        "─" * width,
    ]
    labels = (t("sheet.row_points", lang), t("sheet.row_totals", lang))
    last = len(sheet.rounds) - 1
    eggs_before = 0  # K-9: what a round carries in is what the one before carried out
    blocks = []
    for index, round_ in enumerate(sheet.rounds):
        last_tile = last_tile_won and index == last
        blocks.append(
            _sheet_round(sheet, round_, eggs_before, column, labels, game, lang, last_tile)
        )
        eggs_before = round_.eggs_after
    notes = []
    if game.rule_of_13:
        notes.append(t("sheet.legend_13", lang))
    if game.scores_in_play:
        notes.append(t("sheet.legend_in_play", lang))
    legend = "\n".join(notes)
    # A very long match keeps its latest rounds: one message holds at most TEXT_LIMIT
    # (UTF-16 units; counted as sent, escaped, which is never less than Telegram counts).
    budget = TEXT_LIMIT - _units("\n".join(lines)) - _units(legend) - 200
    sizes = [sum(_units(html.escape(line, quote=False)) + 1 for line in b) for b in blocks]
    shown = len(blocks)
    while shown > 1 and sum(sizes[-shown:]) > budget:
        shown -= 1
    if shown < len(blocks):
        lines.append(t("sheet.cut", lang, n=len(blocks) - shown))
    table = head + [line for block in blocks[len(blocks) - shown :] for line in block]
    lines.append(f"<pre>{html.escape(chr(10).join(table), quote=False)}</pre>")
    if legend:
        lines.append(legend)
    return "\n".join(lines)


def _units(text: str) -> int:
    """The length of `text` as Telegram counts it: in UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def _as_result(round_: SheetRound, eggs_before: int) -> RoundResult:
    """A round of the sheet as the game reads a round's line to tell a draw or too few
    to write (`GameVariant.drawn`, `too_few`): its outcome, points and eggs. The
    accounts, which neither reads and the sheet does not keep, are left empty."""
    outcome = RoundOutcome(round_.outcome, round_.seat, ())
    return RoundResult(
        round_.round_no, outcome, (), round_.points, (), eggs_before, round_.eggs_after, None
    )


def _sheet_round(
    sheet: MatchSheet,
    round_: SheetRound,
    eggs_before: int,
    column: int,
    labels: tuple[str, str],
    game: GameVariant,
    lang: Lang,
    last_tile: bool,
) -> list[str]:
    """A round's lines: how it ended; its points, or in words why nobody scored (a draw;
    M-1: too few to write); the totals after it; eggs carried on."""
    points, totals = (pad(label, ROW_LABEL_WIDTH) for label in labels)
    result = _as_result(round_, eggs_before)
    if game.drawn(result):
        scored = f"{points} {t('sheet.draw', lang)}"
    elif game.too_few(result):
        scored = f"{points} {t('sheet.too_few', lang, n=game.min_written)}"
    else:
        scored = points + columns(*((f"+{n}", column) for n in round_.points))
    block = [
        _outcome(sheet, round_, game, lang, last_tile),
        scored,
        totals + columns(*((str(total), column) for total in round_.totals)),
    ]
    if round_.eggs_after:
        block.append(t("sheet.eggs", lang, n=round_.eggs_after))
    return block


def sheet_keyboard(game: Variant, page: int, lang: Lang) -> InlineKeyboardMarkup:
    back = InlineKeyboardButton(
        text=t("btn.history_back", lang), callback_data=HistoryCb(game=game.value, page=page).pack()
    )
    return InlineKeyboardMarkup(inline_keyboard=[[back]])


def tournaments_lines(tournaments: Sequence[TournamentRecord], lang: Lang) -> list[str]:
    """The group's last finished tournaments under /history, newest first: the day, the
    game and the winner («06.12.2026 · Классика · 🏆 Алиса»); nothing when there are none."""
    if not tournaments:
        return []
    lines = ["", t("tournament.history_title", lang)]
    for tournament in tournaments:
        first = tournament_text.winners(tournament)
        if first:
            names = ", ".join(
                html.escape(tournament_text.entrant_name(tournament.entrants[n], lang), quote=False)
                for n in first
            )
            winner = f"{t('stats.mark_winner', lang)} {names}"
        else:
            winner = t("tournament.history_no_winner", lang)
        ended = tournament.ended_at or tournament.created_at
        date = day(ended, lang) if ended is not None else "—"
        game = html.escape(tournament_text.game_name(tournament.options, lang), quote=False)
        lines.append(t("tournament.history_line", lang, date=date, game=game, winner=winner))
    return lines
