"""The handlers' filters, all checked on the event loop.

aiogram runs a filter that is not a coroutine function (a plain predicate, and every magic
filter such as ``F.chat.type == "private"``) in a worker thread (`asyncio.to_thread`): a
thread hop, a `Future` and a hand-over of the GIL for every filter of every handler an
update is tried against, paid on the main thread for every update. Every filter here is
a quick look at the update, so `OnLoop` makes it a coroutine that answers at once;
`tests/handlers/test_filters.py` checks that no filter of any router goes to a thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiogram import Bot, F
from aiogram.filters import Filter, or_f
from aiogram.types import CallbackQuery, Message
from magic_filter import MagicFilter

from bot.app.group_settings import GroupSettings
from handlers.people import (
    GROUP_TYPES,
    by_anonymous_admin,
    chat_of,
    pressed_in_own_private_chat,
    pressed_on_own_hand,
)
from i18n import Lang


class OnLoop(Filter):
    """`check` (a magic filter or a plain predicate of the event) as a filter that runs
    on the event loop. Its answer is taken as aiogram takes a filter's: falsy refuses the
    handler, a dict adds to its arguments (``F.migrate_to_chat_id.as_("new_chat_id")``)."""

    def __init__(self, check: MagicFilter | Callable[[Any], Any]) -> None:
        self.check: Callable[[Any], Any] = (
            check.resolve if isinstance(check, MagicFilter) else check
        )
        self.shown = repr(check) if isinstance(check, MagicFilter) else check.__name__

    async def __call__(self, obj: Any) -> Any:
        return self.check(obj)

    def __str__(self) -> str:
        return f"OnLoop({self.shown})"


class ChatLanguage(Filter):
    """Always passes; makes the handler's `lang` the language of the chat the message was
    written or the button pressed in: a group's own, a private chat's person's. A group
    that has none yet takes the language of the first person to use the bot there (a
    command or a press, not talk it happens to see: `GroupSettings.settle_language`,
    stored once, then a look-up in memory). Set once on the routers of what people send
    (`handlers.get_routers`), so every answer in a group, to whoever asked, speaks its
    language."""

    async def __call__(
        self,
        event: Message | CallbackQuery,
        lang: Lang,
        group_settings: GroupSettings,
        bot: Bot | None = None,
    ) -> dict[str, Lang]:
        message = event if isinstance(event, Message) else event.message
        if not isinstance(message, Message) or message.chat.type not in GROUP_TYPES:
            return {"lang": lang}
        settled = group_settings.language(message.chat.id)
        if settled is None and await _uses_the_bot(event, bot):
            await group_settings.settle_language(chat_of(message.chat), lang)
        return {"lang": settled or lang}


async def _uses_the_bot(event: Message | CallbackQuery, bot: Bot | None) -> bool:
    """A press of the bot's button, or a person's message that begins with a command to
    this bot: `/top@another_bot` is another bot's, and settles nothing here."""
    if isinstance(event, CallbackQuery):
        return True
    by_person = event.from_user is not None and not event.from_user.is_bot
    command = next(
        (e for e in event.entities or () if e.type == "bot_command" and e.offset == 0), None
    )
    if not by_person or command is None:
        return False
    # A command is ASCII, so its UTF-16 length is its length in characters.
    _, _, mention = (event.text or "")[: command.length].partition("@")
    if not mention:
        return True
    me = await bot.me() if bot is not None else None
    return me is not None and mention.lower() == (me.username or "").lower()


chat_language = ChatLanguage()
in_group = OnLoop(F.chat.type.in_(GROUP_TYPES))
in_private = OnLoop(F.chat.type == "private")
# Another bot's command is not taken; an anonymous admin writes through Telegram's bot.
not_a_bot = or_f(OnLoop(~F.from_user.is_bot), OnLoop(by_anonymous_admin))
# Hand, "I'm back" and the private settings' buttons: pressed in the presser's own chat.
in_own_private_chat = OnLoop(pressed_in_own_private_chat)
# Hand buttons: on the presser's own hand, in their private chat or inside a group.
on_own_hand = OnLoop(pressed_on_own_hand)
