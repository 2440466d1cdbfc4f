"""The Mini App's HTTP side: the page, its files and its API (the protocol in
`bot.webapp`), as routes added to an aiohttp application (the webhook server's, or one
of its own on `WEBAPP_LISTEN`).

- `GET /`: the page (`static/index.html`); `GET /static/{name}`: a file of that folder
  only, by its plain name (no folder, no dot first), with its content type.
- `GET /api/state?g=<token>`: the viewer's state (`views.game_view`).
- `GET /api/events?g=<token>`: server-sent events: the state at once and after each
  change (`live`), a `: keepalive` comment every `keepalive` seconds; the stream ends
  when the server stops.
- `POST /api/act`: a press, made through the same use cases and effect dispatcher as the
  Telegram buttons, so the group's table and the private hand follow.

Every API request is checked (`access`): 401 without valid initData, 403 for what the
person may not see, 404 for no such game, 429 past their rate limit (`RateLimits`, a
token bucket per person), 400 for a request that makes no sense (bad JSON, an unknown
kind, a move number or action that is no number or action, a token of the wrong shape).
A refused request changes nothing, and nothing a client sends makes a traceback: junk is
logged at DEBUG; a refused initData, a launch of another game and a person past their
limit by `Access.warn` (one line per cause a minute), with the reason only.

With several instances that all play (shard mode, `bot.app.ownership`), a request for a
game whose chat this instance does not play is answered 503 with nothing done (no
Telegram call, no change), so that the proxy passes it to the next instance until the
one that plays it answers (deploy/nginx.conf); the use cases a request calls run in the
chat's scope (`Ownership.acting`: its shard's fence), an event stream ends once the
chat is played elsewhere (the app opens it again, and reaches the new owner), and a
press whose change the shard's fence refused (the shard moved while it was made) is
answered 503 too: nothing of it was kept. One instance plays every chat (`EVERY_CHAT`).

Each answer carries `X-Content-Type-Options: nosniff`; the API's are never cached; the
page's Content-Security-Policy allows only its own origin (the page speaks to Telegram's
clients itself, `static/tg.js`), and it may be framed only by Telegram's web client and
the configured origins (the local Telegram's play page).
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

from aiohttp import web
from aiohttp.typedefs import Handler

from bot.app.effects import Done
from bot.app.lobby_rules import is_join_token
from bot.app.ownership import EVERY_CHAT, Deposed, Ownership
from bot.app.people import Person
from bot.app.reply import Reply
from bot.app.usecases import Endings, Lobby, Playing
from bot.app.usecases.base import Refusal, is_transient
from bot.app.usecases.hints import Hints
from bot.app.usecases.viewing import Seen, Viewing
from bot.infra.lru import Lru
from bot.telegram.presenter.replies import reply_text
from bot.webapp.access import Access, Denied
from bot.webapp.live import MAX_SUBSCRIPTIONS, WebAppFrontEnd
from bot.webapp.views import game_view
from domino.actions import Action, parse_action
from i18n import Lang, t
from storage.records import GameRecord

log = logging.getLogger(__name__)
T = TypeVar("T")

STATIC = Path(__file__).resolve().parent / "static"
FILE_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}")
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
}
TELEGRAM_WEB = "https://web.telegram.org"  # Telegram's web clients frame the app from here

KEEPALIVE = 15.0  # seconds between two keepalive comments of an idle stream
MAX_BODY = 4096  # bytes of a POST /api/act: a few dozen are needed
BODY_SECONDS = 10.0  # a client has this long to send it
RATE = 10.0  # requests a second a person may make, on average ...
BURST = 30.0  # ... and at once
RATE_PEOPLE = 100_000  # people whose buckets are kept (the least recently seen go)
STREAMS_PER_PERSON = 8  # event streams one person may hold open at once
MAX_MOVE = 1_000_000
MAX_ACTION = 200  # characters of an action's text
KINDS = frozenset({"play", "hint", "draw", "join", "back", "start", "add_computer"})
# The answer of an instance that does not play the game (or whose change for it was
# refused): the proxy tries the next instance; the app, if none plays it yet, again.
ELSEWHERE = "alert.db_unavailable"  # «nothing has changed, press again in a few seconds»
# Replies that refuse without an "alert." key: the press changed nothing.
REFUSALS = frozenset({"answer.not_away", "answer.hint_too_fast"})
TAGS = re.compile(r"</?(?:b|i|u|s|code|pre|tg-spoiler)>")


class Dispatch(Protocol):
    """The effect dispatcher (`bot.app.effects.EffectDispatcher`)."""

    def __call__(self, work: Awaitable[Done[T]]) -> Awaitable[T]: ...


class BadRequest(Exception):
    """A request that makes no sense (400); the reason is for a DEBUG line."""


class RateLimits:
    """A token bucket per person: `rate` a second, `burst` at once; bounded memory (a
    forgotten person starts full, which the bound makes rare and harmless)."""

    def __init__(
        self,
        rate: float = RATE,
        burst: float = BURST,
        *,
        size: int = RATE_PEOPLE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._buckets: Lru[int, tuple[float, float]] = Lru(size)  # id -> (tokens, when)

    def allow(self, user_id: int) -> bool:
        now = self.clock()
        tokens, when = self._buckets.get(user_id) or (self.burst, now)
        tokens = min(self.burst, tokens + (now - when) * self.rate)
        allowed = tokens >= 1.0
        self._buckets[user_id] = (tokens - 1.0 if allowed else tokens, now)
        return allowed


def plain(text: str) -> str:
    """A reply's text as the app shows it: the catalogue's HTML tags dropped, the
    entities they may hold read back."""
    return html.unescape(TAGS.sub("", text)) if "<" in text or "&" in text else text


def content_security_policy(frame_ancestors: Iterable[str]) -> str:
    ancestors = " ".join(dict.fromkeys((TELEGRAM_WEB, *frame_ancestors)))
    return "; ".join(
        (
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'none'",
            f"frame-ancestors {ancestors}",
        )
    )


class WebAppServer:
    """The routes of the Mini App, over the use cases; `add_routes` puts them on an
    aiohttp application."""

    def __init__(
        self,
        access: Access,
        live: WebAppFrontEnd,
        dispatch: Dispatch,
        *,
        viewing: Viewing,
        playing: Playing,
        hints: Hints,
        lobby: Lobby,
        endings: Endings,
        frame_ancestors: Iterable[str] = (),
        keepalive: float = KEEPALIVE,
        limits: RateLimits | None = None,
        active: Callable[[], bool] = lambda: True,
        ownership: Ownership = EVERY_CHAT,
    ) -> None:
        self.access = access
        self.live = live
        self.dispatch = dispatch
        self.viewing = viewing
        self.playing = playing
        self.hints = hints
        self.lobby = lobby
        self.endings = endings
        self.keepalive = keepalive
        self.limits = limits or RateLimits()
        self.active = active  # False: a standby, or the games not picked up yet (503)
        self.ownership = ownership  # the chats this instance plays (503 for the others)
        self.csp = content_security_policy(frame_ancestors)
        self._streams: dict[int, int] = {}  # user id -> event streams open

    def add_routes(self, app: web.Application) -> None:
        app.middlewares.append(self._headers)
        app.router.add_get("/", self.page)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get("/api/state", self.state)
        app.router.add_get("/api/events", self.events)
        app.router.add_post("/api/act", self.act)
        app.on_shutdown.append(self._shutdown)

    async def _shutdown(self, app: web.Application) -> None:
        self.live.close()  # every stream ends, so the server need not wait for them

    @web.middleware
    async def _headers(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        path = request.path
        if path.startswith("/api/") and not self.active():
            response: web.StreamResponse = web.Response(
                status=503, text="standby", headers={"Retry-After": "1"}
            )
        else:
            response = await handler(request)
        if path == "/" or path.startswith(("/static/", "/api/")):
            response.headers["X-Content-Type-Options"] = "nosniff"
            response.headers["Referrer-Policy"] = "no-referrer"
            if path.startswith("/api/"):
                response.headers["Cache-Control"] = "no-store"
            else:
                response.headers.setdefault("Cache-Control", "no-cache")
                response.headers["Content-Security-Policy"] = self.csp
        return response

    # The page and its files

    async def page(self, request: web.Request) -> web.StreamResponse:
        return self._file("index.html")

    async def static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if not FILE_NAME.fullmatch(name) or ".." in name:
            raise web.HTTPNotFound()
        return self._file(name)

    @staticmethod
    def _file(name: str) -> web.StreamResponse:
        path = STATIC / name
        content_type = CONTENT_TYPES.get(path.suffix.lower())
        if content_type is None or path.parent != STATIC or not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(path, headers={"Content-Type": content_type})

    # The API

    async def state(self, request: web.Request) -> web.Response:
        try:
            token = self._token(request.query.get("g"))
            _, seen = await self._seen(request, token)
        except Denied as denied:
            return self._denied(denied, request)
        except BadRequest as bad:
            return self._bad(bad, request)
        return web.json_response(self._view(seen), dumps=dumps)

    async def events(self, request: web.Request) -> web.StreamResponse:
        try:
            token = self._token(request.query.get("g"))
            person, seen = await self._seen(request, token)
        except Denied as denied:
            return self._denied(denied, request)
        except BadRequest as bad:
            return self._bad(bad, request)
        live = self.live
        if (
            self._streams.get(person.id, 0) >= STREAMS_PER_PERSON
            or live.open_apps() >= MAX_SUBSCRIPTIONS
        ):
            return self._denied(Denied(429, "api.too_many"), request, lang=seen.lang)
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",  # nginx passes each event on at once
            }
        )
        subscription = live.subscribe(seen.game.id)
        # A commit between the load above and this subscription reached nobody here:
        # the first turn of the loop loads the game again (and sends it only if it moved).
        subscription.poke()
        self._streams[person.id] = self._streams.get(person.id, 0) + 1
        try:
            await response.prepare(request)
            last = self._view(seen)
            await response.write(event(last))
            chat_id = seen.game.chat_id
            while not live.closing.is_set():
                try:
                    await asyncio.wait_for(subscription.changed.wait(), self.keepalive)
                except TimeoutError:
                    if not self.ownership.owns(chat_id):
                        break  # played elsewhere now: no change would reach this stream
                    await response.write(b": keepalive\n\n")
                    continue
                if live.closing.is_set() or not self.ownership.owns(chat_id):
                    break
                newest, reload = subscription.take()
                if reload:
                    loaded = await self.viewing.load(subscription.game_id)
                    if loaded is not None and subscription.newer(loaded):
                        newest = loaded
                if newest is None:
                    continue
                try:
                    seen = await self.viewing.seen(newest, person)
                except Refusal:
                    break  # no longer theirs to see (left the group): the stream ends
                state = self._view(seen)
                if not same(state, last):
                    last = state
                    await response.write(event(state))
        except (ConnectionError, asyncio.CancelledError):
            pass  # the app went away, or the server stops
        except Exception as exc:
            if not is_transient(exc):
                raise
            log.info("an event stream ended: the database failed for the moment")
        finally:
            live.unsubscribe(subscription)
            left = self._streams.get(person.id, 1) - 1
            if left > 0:
                self._streams[person.id] = left
            else:
                self._streams.pop(person.id, None)
        return response

    async def act(self, request: web.Request) -> web.Response:
        try:
            body = await self._body(request)
            token = self._token(body.get("g"))
            kind = body.get("do")
            if kind not in KINDS:
                raise BadRequest("an unknown kind")
            # A draw's "move" is the round it is offered in, as the hand gave it.
            move = self._move(body) if kind in ("play", "hint", "draw") else 0
            action = self._action(body) if kind == "play" else None
            person, seen = await self._seen(request, token)
        except Denied as denied:
            return self._denied(denied, request)
        except BadRequest as bad:
            return self._bad(bad, request)
        game = seen.game
        try:
            with self.ownership.acting(game.chat_id):
                reply = await self._press(kind, game, person, move, action)
        except Deposed:
            log.info("game %s: a Mini App press refused: its shard moved meanwhile", game.id)
            return self._denied(Denied(503, ELSEWHERE), request, lang=seen.lang)
        except Exception as exc:
            if not is_transient(exc):
                raise
            log.info("game %s: a Mini App press not saved: the database failed", game.id)
            text = t("alert.db_unavailable", seen.lang)
            return web.json_response({"error": text}, status=503, dumps=dumps)
        return web.json_response(answer(reply, seen.lang), dumps=dumps)

    async def _press(
        self, kind: str, game: GameRecord, person: Person, move: int, action: Action | None
    ) -> Reply:
        """The use case of a press of `kind`, its effects carried out: the bot's reply."""
        if kind == "play":
            assert action is not None
            return await self.dispatch(self.playing.play(game.id, person, move, action))
        if kind == "hint":
            return await self.dispatch(self.hints.press(game.id, person, move))
        if kind == "draw":
            return await self.dispatch(self.endings.offer_draw(game.id, person, move))
        if kind == "join":
            return await self.dispatch(self.lobby.join(game.id, game.chat_id, person))
        if kind == "start":
            is_admin = self.viewing.admin_check(person)
            return await self.dispatch(
                self.lobby.start_game(game.id, game.chat_id, person, is_admin)
            )
        if kind == "add_computer":
            is_admin = self.viewing.admin_check(person)
            return await self.dispatch(
                self.lobby.add_computer(game.id, game.chat_id, person, is_admin)
            )
        return await self.dispatch(self.playing.come_back(game.id, person))

    # Steps

    async def _seen(self, request: web.Request, token: str) -> tuple[Person, Seen]:
        person = self.access.launch(request.headers.get("Authorization"), token).person
        if not self.limits.allow(person.id):
            self.access.warn("Mini App rate limit", "user %s, 429", person.id)
            raise Denied(429, "api.too_many", person.lang)
        try:
            game = await self.viewing.game(token)
            if not self.ownership.owns(game.chat_id):
                # Not played here (shard mode): nothing asked of Telegram, nothing changed.
                log.debug("game %s: a Mini App request left to the instance that plays it", game.id)
                raise Denied(503, ELSEWHERE, person.lang)
            with self.ownership.acting(game.chat_id):
                return person, await self.viewing.seen(game, person)
        except Refusal as refusal:
            status = 404 if refusal.key == "api.no_game" else 403
            raise Denied(status, refusal.key, person.lang) from None

    @staticmethod
    def _token(value: object) -> str:
        if not isinstance(value, str) or not is_join_token(value):
            raise BadRequest("no game token")
        return value

    @staticmethod
    def _move(body: dict[str, Any]) -> int:
        move = body.get("move")
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move <= MAX_MOVE:
            raise BadRequest("no move number")
        return move

    @staticmethod
    def _action(body: dict[str, Any]) -> Action:
        text = body.get("action")
        if not isinstance(text, str) or not text or len(text) > MAX_ACTION:
            raise BadRequest("no action")
        try:
            return parse_action(text)
        except Exception:  # the engine's parser refuses junk in its own ways
            raise BadRequest("an action the engine does not read") from None

    @staticmethod
    async def _body(request: web.Request) -> dict[str, Any]:
        if (request.content_length or 0) > MAX_BODY:
            raise BadRequest("a body too large")
        raw = bytearray()
        try:
            async with asyncio.timeout(BODY_SECONDS):
                async for chunk in request.content.iter_any():
                    raw += chunk
                    if len(raw) > MAX_BODY:
                        raise BadRequest("a body too large")
        except (TimeoutError, ConnectionError, web.RequestPayloadError) as exc:
            raise BadRequest(f"no body ({type(exc).__name__})") from None
        try:
            body = json.loads(raw)
        except ValueError:
            raise BadRequest("a body that is no JSON") from None
        if not isinstance(body, dict):
            raise BadRequest("a body that is no object")
        return body

    def _view(self, seen: Seen) -> dict[str, Any]:
        return game_view(
            seen.game,
            seen.seat,
            seen.lang,
            now=datetime.now(UTC),
            hints=seen.hints,
            may_join=seen.may_join,
            chat_title=seen.chat,
            timer=seen.timer,
            controls=seen.controls,
        )

    @staticmethod
    def _denied(denied: Denied, request: web.Request, *, lang: Lang | None = None) -> web.Response:
        text = t(denied.key, lang or denied.lang or request_lang(request))
        # 503: another instance may answer now (the proxy tries it), or this one soon.
        headers = {"Retry-After": "1"} if denied.status == 503 else None
        return web.json_response(
            {"error": text}, status=denied.status, headers=headers, dumps=dumps
        )

    @staticmethod
    def _bad(bad: BadRequest, request: web.Request) -> web.Response:
        log.debug("a Mini App request refused (400): %s", bad)
        text = t("api.bad_request", request_lang(request))
        return web.json_response({"error": text}, status=400, dumps=dumps)


def answer(reply: Reply, lang: Lang) -> dict[str, Any]:
    """What the bot would answer the press, as the protocol's JSON."""
    text = plain(reply_text(reply, lang)) or None
    refused = reply.key.startswith("alert.") or reply.key in REFUSALS
    return {
        "ok": not refused and reply.url is None,
        "text": text,
        "alert": reply.alert,
        "url": reply.url,
    }


def request_lang(request: web.Request) -> Lang:
    """The language of an answer given before the game is known: the browser's."""
    accepted = request.headers.get("Accept-Language", "")
    return Lang.EN if accepted[:2].lower() == "en" else Lang.RU


def same(state: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether two states show the same (the server's moment aside, `now`, which the page
    sets its clock by: a state sent only for a new moment would be no news)."""
    return {**state, "now": None} == {**other, "now": None}


def event(state: dict[str, Any]) -> bytes:
    return b"event: state\ndata: " + dumps(state).encode() + b"\n\n"


def dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
