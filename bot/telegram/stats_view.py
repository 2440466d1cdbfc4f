"""What /top, /stats and /history show, as pure functions of the stats records: the
screens of `bot.telegram.stats_top` (/top), `bot.telegram.stats_player` (/stats) and
`bot.telegram.stats_history` (/history and its score sheets), over what they share
(`bot.telegram.stats_columns`: widths, cells, paging, the games' buttons), named here
together for the stats service and the handlers.

Every screen is of one game and says how matches went in that game's words: where
points are bad, the game's loser by its key (козёл, осёл: text keys `*.kozel`,
`*.osel`); where they are good, the wins. Buttons switch to the other games with
records (`games_rows`).
"""

from bot.app.names import clean_name, display_width, pad, truncate
from bot.telegram.stats_columns import (
    LINE_WIDTH,
    PAGE_SIZE,
    TEXT_LIMIT,
    cell,
    day,
    game_name,
    games_rows,
    page_exists,
    paging_row,
    percent,
    round_half_up,
)
from bot.telegram.stats_history import (
    ending_name,
    history_keyboard,
    history_text,
    result_mark,
    sheet_keyboard,
    sheet_text,
    side_label,
)
from bot.telegram.stats_player import no_stats_text, player_stats_text, stats_keyboard
from bot.telegram.stats_top import leaderboard_text, pair_names, pairs_text, top_keyboard

__all__ = [
    "LINE_WIDTH",
    "PAGE_SIZE",
    "TEXT_LIMIT",
    "cell",
    "clean_name",
    "day",
    "display_width",
    "ending_name",
    "game_name",
    "games_rows",
    "history_keyboard",
    "history_text",
    "leaderboard_text",
    "no_stats_text",
    "pad",
    "page_exists",
    "paging_row",
    "pair_names",
    "pairs_text",
    "percent",
    "player_stats_text",
    "result_mark",
    "round_half_up",
    "sheet_keyboard",
    "sheet_text",
    "side_label",
    "stats_keyboard",
    "top_keyboard",
    "truncate",
]
