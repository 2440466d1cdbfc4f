"""What people see, as pure functions of stored games and engine views.

Texts, captions and inline keyboards for the lobby (`lobby`), the group's table message
and the announcements (`table`), each player's private hand message (its text `hand`,
its buttons `hand_keyboard`, the words of moves and hints `moves`), the confirmations
that end a match (`endings`), /rules (`rules`), /settings (`settings`) and the turn
timer's lines (`clock`); `common` writes names, sides, scores and tiles the same way
for all.
Nothing here talks to Telegram or the database, so every screen can be tested by value.

Hidden information: the group's texts are built from the public view only, and a
hand keyboard only from its owner's view (`MatchView.round.hand`).
"""

from bot.telegram.presenter.clock import hand_timer_lines, table_timer_line
from bot.telegram.presenter.common import score_line, short_name, side_names, variant_name
from bot.telegram.presenter.endings import (
    cancel_confirm_keyboard,
    ended_view,
    surrender_confirm_keyboard,
    surrender_confirm_text,
)
from bot.telegram.presenter.hand import hand_text
from bot.telegram.presenter.hand_keyboard import away_keyboard, hand_keyboard, offer_draw_button
from bot.telegram.presenter.lobby import (
    lobby_closed_text,
    lobby_keyboard,
    lobby_text,
    removal_keyboard,
)
from bot.telegram.presenter.rules import rules_keyboard, rules_text
from bot.telegram.presenter.settings import (
    lobby_timeout_name,
    settings_keyboard,
    settings_text,
    timer_name,
)
from bot.telegram.presenter.table import match_end_text, round_end_text, table_caption

__all__ = [
    "away_keyboard",
    "cancel_confirm_keyboard",
    "ended_view",
    "hand_keyboard",
    "hand_text",
    "hand_timer_lines",
    "lobby_closed_text",
    "lobby_keyboard",
    "lobby_text",
    "lobby_timeout_name",
    "match_end_text",
    "offer_draw_button",
    "removal_keyboard",
    "round_end_text",
    "rules_keyboard",
    "rules_text",
    "score_line",
    "settings_keyboard",
    "settings_text",
    "short_name",
    "side_names",
    "surrender_confirm_keyboard",
    "surrender_confirm_text",
    "table_caption",
    "table_timer_line",
    "timer_name",
    "variant_name",
]
