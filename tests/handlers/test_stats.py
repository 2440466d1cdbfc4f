"""/top and /history sent in a private chat (handlers/stats.py): one handler answers both,
each with its own text naming the command, without Telegram."""

from __future__ import annotations

from typing import cast

import pytest
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.i18n import Lang
from handlers.stats import on_group_only_in_private, router


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
