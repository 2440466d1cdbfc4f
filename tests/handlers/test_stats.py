"""handlers/stats.py without Telegram: /top and /history sent in a private chat (one
handler answers both, each with its own text naming the command), and which messages a
stats press may edit."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import pytest
from aiogram.filters import Command, CommandObject
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.telegram.callbacks import HistoryCb, StatsCb, TopCb, TopScope
from handlers.stats import on_group_only_in_private, router, shows_kind
from i18n import Lang


def group_only_commands() -> tuple[str, ...]:
    """The commands the private-chat handler is registered for."""
    (handler,) = [h for h in router.message.handlers if h.callback is on_group_only_in_private]
    (command,) = [f.callback for f in handler.filters or [] if isinstance(f.callback, Command)]
    return tuple(str(name) for name in command.commands)


class FakeMessage:
    def __init__(self) -> None:
        self.answers: list[str] = []

    async def answer(self, text: str) -> None:
        self.answers.append(text)


def test_the_group_only_commands_are_top_and_history() -> None:
    assert group_only_commands() == ("top", "history")


@pytest.mark.parametrize("lang", list(Lang))
@pytest.mark.parametrize("name", group_only_commands())
async def test_each_is_answered_with_its_own_text(name: str, lang: Lang) -> None:
    message = FakeMessage()
    await on_group_only_in_private(
        cast(Message, message), CommandObject(prefix="/", command=name), lang
    )
    (answer,) = message.answers
    assert f"/{name} " in answer


def message_with(*data: str) -> Message:
    """A group message whose keyboard carries buttons with these callback data."""
    buttons = [[InlineKeyboardButton(text=str(n), callback_data=d)] for n, d in enumerate(data)]
    return Message.model_validate(
        {
            "message_id": 1,
            "date": 0,
            "chat": {"id": -100, "type": "supergroup", "title": "Двор"},
            "text": "x",
            "reply_markup": InlineKeyboardMarkup(inline_keyboard=buttons),
        }
    )


def test_a_press_counts_only_on_a_screen_of_its_kind() -> None:
    """A forged table on the lobby, a /top press on /history, a /stats press about someone
    else: none of them is taken as a stats screen of that kind."""
    top = message_with(TopCb(game="kozel", scope=TopScope.PLAYERS, page=2).pack())
    lobby = message_with("l1:5:j:-", "l1:5:s:-")
    history = message_with(HistoryCb(game="kozel", page=1, match=3).pack())
    stats = message_with(StatsCb(game="classic", user=7).pack())

    def anything(data: str) -> bool:
        return True

    assert shows_kind(top, TopCb, anything)
    assert not shows_kind(lobby, TopCb, anything)
    assert not shows_kind(history, TopCb, anything)
    assert shows_kind(history, HistoryCb, anything)
    assert not shows_kind(message_with(), StatsCb, anything)

    def about(user: int) -> Callable[[str], bool]:
        return lambda data: StatsCb.unpack(data).user == user

    assert shows_kind(stats, StatsCb, about(7))
    assert not shows_kind(stats, StatsCb, about(8))
