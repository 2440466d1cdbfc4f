"""/rules: one game's rules a page, with a button for every game to page through them."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.telegram.callbacks import RulesCb
from domino.rules import Ruleset
from domino.variants import VARIANTS
from i18n import Lang, t

RULES_PER_ROW = 3


def rules_text(rules: Ruleset, lang: Lang) -> str:
    """The rules of the game `rules` are for, to their target (`GameVariant.rules_key`)."""
    return t(rules.game.rules_key, lang, target=rules.target)


def rules_keyboard(rules: Ruleset, lang: Lang) -> InlineKeyboardMarkup:
    """A button per game (`domino.variants.VARIANTS`, in its order), the one shown
    marked: pressing another shows that game's rules in the same message, in `lang`."""
    shown = rules.game.key
    buttons = [
        InlineKeyboardButton(
            text=(
                t("btn.rules_current", lang, game=t(game.name_key, lang))
                if game.key is shown
                else t(game.name_key, lang)
            ),
            callback_data=RulesCb(game=game.key.value, lang=lang.value).pack(),
        )
        for game in VARIANTS
    ]
    rows = [buttons[i : i + RULES_PER_ROW] for i in range(0, len(buttons), RULES_PER_ROW)]
    return InlineKeyboardMarkup(inline_keyboard=rows)
