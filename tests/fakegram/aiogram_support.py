"""Glue to aiogram: a Bot bound to the fake, and re-parsing everything the fake answered."""

from __future__ import annotations

from functools import cache
from typing import Any

from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.methods import Response, TelegramMethod
from aiogram.types import Update
from pydantic import ValidationError

from .server import FakeTelegram


class LocalSession(AiohttpSession):
    """aiogram's session without the 250 ms pause on close (meant for TLS; none here)."""

    async def close(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()


def make_bot(fake: FakeTelegram, **kwargs: Any) -> Bot:
    """A real aiogram ``Bot`` that talks to ``fake`` over HTTP (close its session when done)."""
    session = LocalSession(api=TelegramAPIServer.from_base(fake.url))
    return Bot(fake.token, session=session, **kwargs)


@cache
def _method_classes() -> dict[str, type[TelegramMethod[Any]]]:
    import aiogram.methods as methods

    found: dict[str, type[TelegramMethod[Any]]] = {}
    for name in dir(methods):
        candidate = getattr(methods, name)
        api_name = getattr(candidate, "__api_method__", None)
        if isinstance(candidate, type) and isinstance(api_name, str):
            found[api_name.lower()] = candidate
    return found


def aiogram_parse_problems(fake: FakeTelegram) -> list[str]:
    """Every answer and webhook update the fake produced that aiogram's models reject."""
    problems: list[str] = []
    classes = _method_classes()
    for call in fake.transcript:
        if call.dropped:
            continue
        method = classes.get(call.method.lower())
        if method is None:
            continue
        if call.ok:
            body: dict[str, Any] = {"ok": True, "result": call.result}
        else:
            body = {"ok": False, "error_code": call.error_code, "description": call.description}
            if call.parameters:
                body["parameters"] = call.parameters
        try:
            Response[method.__returning__].model_validate(body)  # type: ignore[name-defined]
        except ValidationError as error:
            problems.append(f"#{call.seq} {call.method}: aiogram cannot parse the answer: {error}")
    for update in fake.delivered_updates:
        try:
            Update.model_validate(update)
        except ValidationError as error:
            problems.append(f"update {update['update_id']}: aiogram cannot parse it: {error}")
    return problems
