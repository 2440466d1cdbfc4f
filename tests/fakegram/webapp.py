"""Mini Apps as Telegram opens them: the signed `initData` a client hands the app.

Telegram's clients open a Mini App's URL with a fragment (`#tgWebAppData=…`) holding
the launch data, signed by Telegram with the bot's token: HMAC-SHA256 over the sorted
`key=value` lines of every field but `hash`, keyed by HMAC-SHA256("WebAppData", token)
(core.telegram.org/bots/webapps, "Validating data received via the Mini App"). The fake
signs with its own token, so the bot's check is the real one.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any
from urllib.parse import urlencode

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
