"""No filter of the bot's handlers runs in a thread (`handlers.filters`).

aiogram hands every filter that is not a coroutine function (magic filters included)
to `asyncio.to_thread`; the bot's filters are `OnLoop` or aiogram's own async ones, and
these tests keep it so for every handler of every router, nested `or_f`/`and_f`/`~`
filters included."""

from __future__ import annotations

from collections.abc import Iterator

from aiogram import F, Router
from aiogram.dispatcher.event.handler import CallableObject, FilterObject
from aiogram.types import Chat, Message, User

from handlers import get_routers
from handlers.filters import OnLoop, in_group, in_private, not_a_bot


def all_routers(router: Router) -> Iterator[Router]:
    yield router
    for child in router.sub_routers:
        yield from all_routers(child)


def nested(callable_: CallableObject) -> Iterator[CallableObject]:
    """`callable_` and every filter inside it (the targets of the logic filters)."""
    yield callable_
    inner = getattr(callable_.callback, "targets", None) or ()
    target = getattr(callable_.callback, "target", None)
    for child in (*inner, *([target] if target is not None else [])):
        yield from nested(child)


def test_every_handler_and_filter_of_every_router_is_awaited_on_the_loop() -> None:
    checked = 0
    for root in get_routers():
        for router in all_routers(root):
            for name, observer in router.observers.items():
                for handler in observer.handlers:
                    where = f"{router.name}.{name}: {handler.callback}"
                    assert handler.awaitable, f"{where} would run in a thread"
                    for filter_ in handler.filters or ():
                        for part in nested(filter_):
                            assert part.awaitable, f"{where}: {part.callback} runs in a thread"
                            checked += 1
    assert checked > 40  # the walk found the routers' filters


def message(chat_type: str, *, is_bot: bool = False, text: str = "/top") -> Message:
    return Message.model_validate(
        {
            "message_id": 1,
            "date": 0,
            "chat": Chat(id=-100 if chat_type != "private" else 7, type=chat_type),
            "from": User(id=7, is_bot=is_bot, first_name="Оля"),
            "text": text,
        }
    )


async def test_the_filters_answer_as_the_magic_filters_they_replace() -> None:
    group, private = message("supergroup"), message("private")
    assert await in_group(group) and not await in_group(private)
    assert await in_private(private) and not await in_private(group)
    assert await FilterObject(not_a_bot).call(group)
    assert not await FilterObject(not_a_bot).call(message("supergroup", is_bot=True))


async def test_a_magic_filter_with_as_gives_the_handler_its_value() -> None:
    migrated = Message.model_validate(
        {"message_id": 1, "date": 0, "chat": Chat(id=-1, type="group"), "migrate_to_chat_id": -100}
    )
    check = OnLoop(F.migrate_to_chat_id.as_("new_chat_id"))
    assert await check(migrated) == {"new_chat_id": -100}
    assert not await check(message("group"))
    assert str(check).startswith("OnLoop(")
