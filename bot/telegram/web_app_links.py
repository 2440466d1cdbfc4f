"""Where the Telegram messages open the Mini App (`bot.webapp`): the group's direct link
and the private hand's `web_app` button, each naming the game by its join token.

A `web_app` button works only in a private chat with the bot (Bot API,
`InlineKeyboardButton.web_app`), so a group gets the app's direct link instead,
`https://t.me/<bot>/<short name>?startapp=<token>`, which BotFather's /newapp gives the
app; Telegram hands the app `startapp` as its `start_param`. The hand's button opens the
app's URL itself, with the token as its `startapp` query parameter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit, urlunsplit

from storage.records import GameRecord

START_PARAM = re.compile(r"[A-Za-z0-9_-]{1,512}")
"""What Telegram takes as a direct link's `startapp`: up to 512 of these characters."""


@dataclass(frozen=True)
class WebAppLinks:
    """The Mini App's addresses for one bot: `url`, the app's public HTTPS address
    (`WEBAPP_URL`), and `short_name`, BotFather's name for it (`WEBAPP_SHORT_NAME`).
    Without `url` the app is off; without `short_name` only the private hands open it
    (a `web_app` button needs no name, a direct link does)."""

    bot_username: str
    short_name: str | None
    url: str | None

    def table_link(self, game: GameRecord) -> str | None:
        """The group's «🃏 Открыть стол»: the app's direct link naming `game`; None with
        the app off or unnamed, or a game without a token."""
        token = _token(game)
        if token is None or not self.url or not self.short_name:
            return None
        return f"https://t.me/{self.bot_username}/{self.short_name}?startapp={token}"

    def hand_url(self, game: GameRecord) -> str | None:
        """The private hand's `web_app` button: the app's URL naming `game`; None with
        the app off or a game without a token."""
        token = _token(game)
        if token is None or not self.url:
            return None
        parts = urlsplit(self.url)
        query = "&".join(filter(None, (parts.query, urlencode({"startapp": token}))))
        return urlunsplit(parts._replace(query=query, fragment=""))


def _token(game: GameRecord) -> str | None:
    """The game's join token, if Telegram takes it as a `startapp`."""
    token = game.join_token
    if token is None or not START_PARAM.fullmatch(token):
        return None
    return token
