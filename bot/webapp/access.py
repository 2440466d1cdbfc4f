"""Who is asking: a request's `initData` checked (`auth`) for the game it names. What
they may see of that game is the core's to say (`bot.app.usecases.viewing`: a seated
person their seat, a member of the group the public view, anyone else nothing).

A refusal is `Denied`: an HTTP status and the text key of the polite answer. A launch
signed for another game (its `start_param` names another token) is refused: a link to
one game opens that game only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.webapp.auth import InitDataCheck, Launch, Refused
from i18n import Lang

log = logging.getLogger(__name__)

SCHEME = "tma "  # Authorization: tma <initData>


class Denied(Exception):
    """A request refused: `status` and the text key that says why (`api.*`), in `lang`
    when the asker's is known."""

    def __init__(self, status: int, key: str, lang: Lang | None = None) -> None:
        super().__init__(key)
        self.status = status
        self.key = key
        self.lang = lang


Warn = Callable[..., object]
"""Logs a refusal: `warn(cause, message, *args)`, the cause a fixed text. The composition
root gives `bot.server.log_limits.Throttled(...).warning`: a stranger's junk at any rate
makes one line per cause a minute."""


def log_warning(cause: str, message: str, *args: object) -> None:
    log.warning(f"{cause}: {message}", *args)


class Access:
    """A request's initData, checked for the game it asks about; each refusal said in
    one line by `warn`, with its reason only (never the data)."""

    def __init__(self, check: InitDataCheck, *, warn: Warn = log_warning) -> None:
        self.check = check
        self.warn = warn

    def launch(self, authorization: str | None, token: str) -> Launch:
        """The launch a request's `Authorization` header proves, for the game `token`;
        401 without a valid one, 403 for one signed for another game."""
        header = authorization or ""
        if not header.lower().startswith(SCHEME):
            raise Denied(401, "api.unauthorized")
        try:
            launch = self.check(header[len(SCHEME) :].strip())
        except Refused as refused:
            self.warn(f"Mini App request refused: {refused.reason}", "401")
            raise Denied(401, "api.unauthorized") from None
        if launch.start_param is not None and launch.start_param != token:
            self.warn("Mini App launch of another game", "user %s, 403", launch.person.id)
            raise Denied(403, "api.not_allowed", launch.person.lang)
        return launch
