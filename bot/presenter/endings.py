"""The confirmations that end a match early: /cancel and /surrender (issue 7)."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import CancelCb, SurrenderCb
from bot.i18n import Lang, t


def _yes_no(yes: str, no: str, data: dict[bool, str]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text=yes, callback_data=data[True]),
                InlineKeyboardButton(text=no, callback_data=data[False]),
            ]
        ]
    )


def cancel_confirm_keyboard(game_id: int, lang: Lang) -> InlineKeyboardMarkup:
    """«Да, отменить / Нет»: the creator's or an admin's confirmation of /cancel."""
    return _yes_no(
        t("btn.cancel_yes", lang),
        t("btn.cancel_no", lang),
        {confirm: CancelCb(game=game_id, confirm=confirm).pack() for confirm in (True, False)},
    )


def surrender_confirm_keyboard(
    game_id: int, move: int, user_id: int, lang: Lang
) -> InlineKeyboardMarkup:
    """«Да, сдаюсь / Нет»: for this person only, valid while the match stays at `move`."""
    return _yes_no(
        t("btn.surrender_yes", lang),
        t("btn.surrender_no", lang),
        {
            confirm: SurrenderCb(game=game_id, move=move, user=user_id, confirm=confirm).pack()
            for confirm in (True, False)
        },
    )
