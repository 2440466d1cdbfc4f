"""Mini Apps as Telegram opens them: the signed `initData` a client hands the app.

Telegram's clients open a Mini App's URL with a fragment (`#tgWebAppData=…`) holding
the launch data, signed by Telegram with the bot's token: HMAC-SHA256 over the sorted
`key=value` lines of every field but `hash`, keyed by HMAC-SHA256("WebAppData", token)
(core.telegram.org/bots/webapps, "Validating data received via the Mini App"). The fake
signs with its own token, so the bot's check is the real one.

How a Mini App is reached (the rules the fake keeps, `FakeTelegram.add_web_app` and
`open_web_app`): BotFather's /newapp gives a bot's app a short name (3-30 letters, digits
and underscores) and its URL; its direct link `https://t.me/<bot>/<short name>` opens it
from any chat, and `?startapp=<param>` (up to 512 of A-Z a-z 0-9 _ -) reaches the app as
`start_param` (and the page's `tgWebAppStartParam` query parameter), with the chat it was
tapped in as `chat_type` and `chat_instance`. A `web_app` button opens its URL as it is,
only from a private chat with the bot, with a `query_id` and no `start_param`.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import re
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

SHORT_NAME = re.compile(r"[A-Za-z0-9_]{3,30}")  # BotFather's /newapp
START_PARAM = re.compile(r"[A-Za-z0-9_-]{1,512}")  # a direct link's `startapp`
WEB_APP_VERSION = "8.0"  # the Bot API's Mini App version the fake's clients report
THEME = {  # a light theme as Telegram's web client sends it
    "bg_color": "#ffffff",
    "text_color": "#000000",
    "hint_color": "#707579",
    "link_color": "#3390ec",
    "button_color": "#3390ec",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#f4f4f5",
}


def secret_key(token: str) -> bytes:
    """The key `initData` is signed with: HMAC-SHA256 of the bot's token, keyed "WebAppData"."""
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def sign(fields: dict[str, str], token: str) -> str:
    """`fields` as a query string with their `hash` appended."""
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    digest = hmac.new(secret_key(token), check.encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def init_data(
    token: str,
    user: dict[str, Any],
    *,
    start_param: str | None = None,
    auth_date: int | None = None,
    query_id: str | None = "AAH-fake-query",
    chat_type: str | None = None,
    chat_instance: str | None = None,
) -> str:
    """The `initData` a client gives the app opened by `user` (its Bot API `User` dict),
    signed with `token`; `auth_date` defaults to now."""
    fields = {
        "user": json.dumps(user, ensure_ascii=False, separators=(",", ":")),
        "auth_date": str(int(time.time()) if auth_date is None else auth_date),
    }
    if query_id is not None:
        fields["query_id"] = query_id
    if start_param is not None:
        fields["start_param"] = start_param
    if chat_type is not None:
        fields["chat_type"] = chat_type
    if chat_instance is not None:
        fields["chat_instance"] = chat_instance
    return sign(fields, token)


def launch_fragment(data: str, *, start_param: str | None = None, dark: bool = False) -> str:
    """The URL fragment (without '#') a client opens the app's page with."""
    theme = dict(THEME)
    if dark:
        theme.update(bg_color="#212121", text_color="#ffffff", secondary_bg_color="#181818")
    params = {
        "tgWebAppData": data,
        "tgWebAppVersion": WEB_APP_VERSION,
        "tgWebAppPlatform": "web",
        "tgWebAppThemeParams": json.dumps(theme, separators=(",", ":")),
    }
    if start_param is not None:
        params["tgWebAppStartParam"] = start_param
    return urlencode(params)


def web_app_url_allowed(url: str) -> bool:
    """A Mini App's URL as Telegram takes it: HTTPS; HTTP only on this machine, as
    Telegram's test environment allows it (the fake's own tests and demo serve the app
    on 127.0.0.1 without TLS)."""
    parts = urlsplit(url)
    if not parts.hostname:
        return False
    if parts.scheme == "https":
        return True
    if parts.scheme != "http":
        return False
    if parts.hostname == "localhost":
        return True
    try:
        return ipaddress.ip_address(parts.hostname).is_loopback
    except ValueError:
        return False


def direct_link(url: str, bot_username: str) -> tuple[str, str | None] | None:
    """The short name and `startapp` of a direct link to one of `bot_username`'s Mini
    Apps (`https://t.me/<bot>/<short name>?startapp=<param>`); None for any other URL.
    Raises `ValueError` for a `startapp` Telegram does not take."""
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or parts.hostname not in ("t.me", "telegram.me"):
        return None
    path = parts.path.strip("/").split("/")
    if len(path) != 2 or path[0].lower() != bot_username.lower():
        return None
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    start = query.get("startapp") or None
    if start is not None and not START_PARAM.fullmatch(start):
        raise ValueError(f"startapp is up to 512 of A-Z a-z 0-9 _ -, not {start!r}")
    return path[1], start


def with_query(url: str, **params: str) -> str:
    """`url` with `params` added to its query (its fragment dropped)."""
    parts = urlsplit(url)
    query = "&".join(filter(None, (parts.query, urlencode(params))))
    return urlunsplit(parts._replace(query=query, fragment=""))


@dataclass(frozen=True)
class WebAppLaunch:
    """A Mini App as a client opens it: `url` is what the client loads (the app's page
    with `#tgWebAppData=…`), `init_data` the app's `Telegram.WebApp.initData`, signed
    with the fake's token for the person who opened it."""

    url: str
    init_data: str
    start_param: str | None = None
    chat_type: str | None = None
    chat_instance: str | None = None

    @property
    def page(self) -> str:
        """The page's URL without the launch fragment (what reaches the app's server)."""
        return self.url.partition("#")[0]

    @property
    def authorization(self) -> str:
        """The `Authorization` header the app sends its API (`tma <initData>`)."""
        return f"tma {self.init_data}"

    @property
    def fields(self) -> dict[str, str]:
        """`init_data`'s fields, decoded (`user` is JSON)."""
        return dict(parse_qsl(self.init_data, keep_blank_values=True))
