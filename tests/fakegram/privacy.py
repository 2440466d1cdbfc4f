"""The hand privacy check: no tile of a hand is shown outside its owner's private chat.

The fake records an :class:`~tests.fakegram.server.Exposure` for everything the bot shows:
message text, captions, button texts, callback data and URLs (in a chat, seen by all its
members), callback answers and inline results (seen by one user). A tile dealt to a player
is a secret from the moment it is dealt until the moment it is revealed (played); any
exposure in that interval outside the player's private chat is a leak. Pictures are not
read: a tile drawn only inside an image is not caught here.

Ephemeral messages in a group are their receiver's alone: :func:`ephemeral_leaks` finds any
seen by someone else, and :meth:`HandPrivacy.assert_no_leaks` fails on those too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .server import Exposure, FakeTelegram
from .world import FakeUser

DEFAULT_TILE_FORMS: tuple[str, ...] = ("{a}-{b}", "{a}|{b}", "[{a}|{b}]", "{a}:{b}")
"""How a tile may be written; each form is also tried with the halves swapped."""


@dataclass(frozen=True)
class Leak:
    """A secret tile seen where its owner's opponents (or anyone else) could see it."""

    tile: str
    owner: int
    exposure: Exposure

    def __str__(self) -> str:
        where = (
            f"chat {self.exposure.chat_id}"
            if self.exposure.chat_id is not None
            else f"user {self.exposure.audience}"
        )
        return (
            f"tile {self.tile} of user {self.owner} shown in {where} "
            f"({self.exposure.kind}, transcript position {self.exposure.position}): "
            f"{self.exposure.text[:200]!r}"
        )


@dataclass
class _Secret:
    tile: str
    owner: int
    since: int
    until: int | None = None
    pattern: re.Pattern[str] = field(default=re.compile("$^"))


class HandPrivacy:
    """Collects the hands the engine dealt and checks every exposure against them.

    ``at`` positions are transcript positions (``fake.transcript.position``); the default is
    "now". Typical use::

        privacy = HandPrivacy(fake)
        privacy.deal(alice, ["2-5", "6-6"])    # when the hands are dealt
        ...
        privacy.reveal("2-5")                  # when Alice plays it
        privacy.assert_no_leaks()
    """

    def __init__(self, fake: FakeTelegram, *, forms: Sequence[str] = DEFAULT_TILE_FORMS) -> None:
        self.fake = fake
        self.forms = tuple(forms)
        self._secrets: list[_Secret] = []

    def pattern(self, tile: str) -> re.Pattern[str]:
        """A regex matching ``tile`` in any configured form, not inside a longer number."""
        a, b = (int(half) for half in re.split(r"[-|:]", tile.strip("[]"), maxsplit=1))
        spellings = {form.format(a=x, b=y) for form in self.forms for x, y in ((a, b), (b, a))}
        alternatives = "|".join(re.escape(s) for s in sorted(spellings, key=len, reverse=True))
        return re.compile(rf"(?<![0-9])(?:{alternatives})(?![0-9])")

    def deal(self, user: FakeUser | int, tiles: Iterable[str], *, at: int | None = None) -> None:
        """These tiles are in ``user``'s hand from position ``at`` on (a deal or a draw)."""
        owner = user.id if isinstance(user, FakeUser) else user
        since = self.fake.transcript.position if at is None else at
        for tile in tiles:
            self._secrets.append(_Secret(tile, owner, since, pattern=self.pattern(tile)))

    def reveal(self, tile: str, *, at: int | None = None) -> None:
        """``tile`` is public from position ``at`` on (it was played)."""
        moment = self.fake.transcript.position if at is None else at
        wanted = self.pattern(tile)
        matched = False
        for secret in self._secrets:
            if secret.until is None and wanted.fullmatch(secret.tile):
                secret.until = moment
                matched = True
        if not matched:
            raise LookupError(f"tile {tile!r} is not in any hand still secret")

    def leaks(self) -> list[Leak]:
        found: list[Leak] = []
        for exposure in self.fake.exposures:
            for secret in self._secrets:
                if exposure.position < secret.since:
                    continue
                if secret.until is not None and exposure.position >= secret.until:
                    continue
                if exposure.chat_id == secret.owner or exposure.audience == secret.owner:
                    continue
                if secret.pattern.search(exposure.text):
                    found.append(Leak(secret.tile, secret.owner, exposure))
        return found

    def assert_no_leaks(self) -> None:
        found = [*map(str, self.leaks()), *ephemeral_leaks(self.fake)]
        if found:
            raise AssertionError("hand privacy broken:\n  " + "\n  ".join(found))


def ephemeral_leaks(fake: FakeTelegram) -> list[str]:
    """Every way an ephemeral message is visible to anyone but its receiver: an exposure
    shown to a chat or another user, a copy among the chat's shared messages, a person's
    view of a chat that holds someone else's."""
    found: list[str] = []
    for exposure in fake.exposures:
        if exposure.receiver is not None and (
            exposure.chat_id is not None or exposure.audience != exposure.receiver
        ):
            found.append(
                f"ephemeral message for user {exposure.receiver} shown to "
                f"{exposure.chat_id or exposure.audience} (transcript position "
                f"{exposure.position}): {exposure.text[:200]!r}"
            )
    for chat in list(fake.chats.values()):
        for message in chat.messages.values():
            if message.ephemeral:
                found.append(f"ephemeral {message!r} is among chat {chat.id}'s shared messages")
        for user in fake.users.values():
            for message in chat.view(user):
                if message.ephemeral and message.receiver is not user:
                    found.append(f"{user.first_name} sees ephemeral {message!r} of another")
    return found


def assert_ephemeral_private(fake: FakeTelegram) -> None:
    """Fail if any ephemeral message is visible to anyone but its receiver."""
    found = ephemeral_leaks(fake)
    if found:
        raise AssertionError("ephemeral privacy broken:\n  " + "\n  ".join(found))
