"""aiogram's HTTP session, cheaper per call: JSON bodies, answers parsed once.

aiogram's `AiohttpSession` builds a multipart form for every call and parses every answer
twice (`json.loads`, then pydantic over the dicts). `JsonSession` sends a call that
uploads no file as one `application/json` body (Telegram takes both) with the very values
the stock session would send: the same defaults (`DefaultBotProperties`), None left out,
nested objects as JSON. A call carrying an `InputFile` anywhere (a new picture) still goes
as multipart. A successful answer is validated by pydantic straight from its bytes; an
answer that is only `true` (answerCallbackQuery, deleteMessage, ...) skips pydantic, and
so does a successful editMessageText: its answer, the message as edited (a hand, the
lobby, a confirmation), is read by nobody, so it is taken as `True` (the other answer the
Bot API gives that method). An error or anything unexpected goes through aiogram's own
`check_response`, so the errors raised stay aiogram's. Every call counts `api.<method>`
in `bot.infra.perf`.

Two lanes of connections. Everything the bot sends to chats shares aiohttp's pool of
`limit` connections, and a busy bot keeps every one of them busy (thousands of hand edits
on their way): a call that needs one waits for one. An answer to a press must reach
Telegram within its window of about 15 s however many edits wait, and a long poll must go
out or no press arrives at all, so `URGENT_METHODS` go over a small pool of their own
(`URGENT_CONNECTIONS`) and never queue behind the chats' calls.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, cast

from aiogram import __version__ as aiogram_version
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import EditMessageText, Response
from aiogram.methods.base import TelegramType
from aiogram.types import InlineKeyboardMarkup
from aiohttp import ClientError, ClientSession, ClientTimeout, FormData
from aiohttp.hdrs import USER_AGENT
from aiohttp.http import SERVER_SOFTWARE
from pydantic import ValidationError

from bot.infra import perf

if TYPE_CHECKING:
    from aiogram import Bot
    from aiogram.methods import TelegramMethod

JSON_HEADERS = {"Content-Type": "application/json"}
# Telegram's answer to a call whose result is just `true`, as it writes it.
_TRUE_ANSWERS = (b'{"ok":true,"result":true}', b'{"ok": true, "result": true}')
_PLAIN = frozenset({str, int, float, bool})
# The start of every successful answer, as Telegram writes it (the fake adds spaces).
_OK = (b'{"ok":true,', b'{"ok": true,')

# Calls that must never wait for a connection behind the chats' calls (see above), and
# their own pool: a long poll holds one, answers to presses take the rest. A press is
# answered in one round trip, so the pool carries 64 / (round trip) answers a second:
# Telegram slow to answer (a second, say) must not make the answers queue.
URGENT_METHODS = frozenset({"answerCallbackQuery", "getUpdates"})
URGENT_CONNECTIONS = 64

_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


class JsonSession(AiohttpSession):
    """`AiohttpSession` sending JSON bodies for calls without files."""

    def __init__(self, *, instance: str | None = None, **kwargs: Any) -> None:
        """`instance`: the process's `INSTANCE_NAME`, named in every request's User-Agent
        (a proxy's log, or the local Telegram's transcript, then says who called)."""
        super().__init__(**kwargs)
        agent = f"{SERVER_SOFTWARE} aiogram/{aiogram_version} domino/{instance}"
        self._headers: dict[str, str] = {USER_AGENT: agent} if instance else {}
        self._json_headers = {**JSON_HEADERS, **self._headers}
        # Response[<type>] per returned type, held strongly: pydantic keeps them weakly.
        self._response_models: dict[Any, type[Response[Any]]] = {}
        self._urgent: ClientSession | None = None  # the urgent lane (see the module)

    async def urgent_session(self) -> ClientSession:
        """The pool of `URGENT_CONNECTIONS` for `URGENT_METHODS`, made at first use with
        the main pool's settings (TLS, proxy, DNS cache) but its own limit."""
        await self.create_session()  # a reset connector (a proxy set) resets this one too
        if self._urgent is None or self._urgent.closed:
            init = {**self._connector_init, "limit": URGENT_CONNECTIONS}
            main = self._session
            self._urgent = ClientSession(
                connector=self._connector_type(**init),
                headers=dict(main.headers) if main is not None else None,
            )
        return self._urgent

    async def close(self) -> None:
        urgent, self._urgent = self._urgent, None
        if urgent is not None and not urgent.closed:
            await urgent.close()
        await super().close()

    async def _session_for(self, method: TelegramMethod[Any]) -> ClientSession:
        if method.__api_method__ in URGENT_METHODS:
            return await self.urgent_session()
        return await self.create_session()

    def build_params(
        self, bot: Bot, method: TelegramMethod[Any], files: dict[str, Any]
    ) -> dict[str, Any]:
        """The call's fields as the stock session sends them (`build_form_data`), but not
        yet turned into strings; the files found are put in `files` ("attach://<key>")."""
        params: dict[str, Any] = {}
        for key, value in method.model_dump(warnings=False, exclude_none=True).items():
            value = self._plain(value, bot, files)
            # The stock session leaves out what is None or "" once prepared.
            if value is not None and value != "":
                params[key] = value
        return params

    def _plain(self, value: Any, bot: Bot, files: dict[str, Any]) -> Any:
        """`prepare_value` below the top level, with a quick way through plain values."""
        kind = type(value)
        if kind in _PLAIN:
            return value
        if kind is dict:
            plain = {}
            for key, item in value.items():
                item = self._plain(item, bot, files)
                if item is not None:
                    plain[key] = item
            return plain
        if kind is list:
            return [
                item for item in (self._plain(v, bot, files) for v in value) if item is not None
            ]
        return self.prepare_value(value, bot=bot, files=files, _dumps_json=False)

    def form_of(self, bot: Bot, params: dict[str, Any], files: dict[str, Any]) -> FormData:
        """The multipart form of a call with files, as `build_form_data` builds it."""
        form = FormData(quote_fields=False)
        for key, value in params.items():
            form.add_field(key, value if isinstance(value, str) else self.json_dumps(value))
        for key, file in files.items():
            form.add_field(key, file.read(bot), filename=file.filename or key)
        return form

    async def make_request(
        self,
        bot: Bot,
        method: TelegramMethod[TelegramType],
        timeout: int | None = None,
    ) -> TelegramType:
        perf.count(f"api.{method.__api_method__}")
        session = await self._session_for(method)
        url = self.api.api_url(token=bot.token, method=method.__api_method__)
        files: dict[str, Any] = {}
        params = self.build_params(bot, method, files)
        post: dict[str, Any]
        if files:
            post = {"data": self.form_of(bot, params, files), "headers": self._headers}
        else:
            post = {"data": _encode(params).encode(), "headers": self._json_headers}
        try:
            async with session.post(
                url,
                timeout=ClientTimeout(total=self.timeout if timeout is None else timeout),
                **post,
            ) as resp:
                raw = await resp.read()
                status = resp.status
        except TimeoutError as e:
            raise TelegramNetworkError(method=method, message="Request timeout error") from e
        except ClientError as e:
            raise TelegramNetworkError(method=method, message=f"{type(e).__name__}: {e}") from e
        return self.answer_of(bot, method, status, raw)

    def answer_of(
        self, bot: Bot, method: TelegramMethod[TelegramType], status: int, raw: bytes
    ) -> TelegramType:
        """The call's result from Telegram's answer, or aiogram's error for it."""
        if status == 200:
            if raw in _TRUE_ANSWERS and method.__returning__ is bool:
                return cast(TelegramType, True)
            if isinstance(method, EditMessageText) and raw.startswith(_OK):
                return cast(TelegramType, True)  # read by nobody: see the module docstring
            try:
                response = self._validated(bot, method, raw)
            except (ValueError, ValidationError):
                pass  # told by check_response, the way aiogram tells it
            else:
                if response.ok:
                    return cast(TelegramType, response.result)
        checked = self.check_response(
            bot=bot, method=method, status_code=status, content=raw.decode("utf-8", "replace")
        )
        return cast(TelegramType, checked.result)

    def _validated(self, bot: Bot, method: TelegramMethod[Any], raw: bytes) -> Response[Any]:
        """The answer as aiogram's models; an inline keyboard Telegram echoes back exactly
        as sent is the one sent, not parsed again (most of a message's parsing time)."""
        model = self._response_model(method)
        sent = getattr(method, "reply_markup", None)
        if not isinstance(sent, InlineKeyboardMarkup):
            return model.model_validate_json(raw, context={"bot": bot})
        answer = json.loads(raw)
        result = answer.get("result")
        if (
            isinstance(result, dict)
            and "reply_markup" in result
            and result["reply_markup"] == sent.model_dump(exclude_none=True)
        ):
            result["reply_markup"] = sent
        return model.model_validate(answer, context={"bot": bot})

    def _response_model(self, method: TelegramMethod[Any]) -> type[Response[Any]]:
        returning = method.__returning__
        model = self._response_models.get(returning)
        if model is None:
            model = self._response_models[returning] = Response[returning]  # type: ignore[valid-type]
        return model
