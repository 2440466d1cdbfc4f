"""What the publisher knows of each game's messages: the newest committed record of
the game, which message shows its lobby, its table and each hand, and what each shows.

A message's record (its chat, id, picture and digest) is written when the message is
sent or forgotten, not at each edit; the digests live in memory. The first edit after a
record was written writes it once more with no digest ("not known"), so after a crash
such a message is simply edited once more (Telegram's "message is not modified" is
success); `save_digests` writes every digest held in memory (at the bot's stop and when
a game ends), so a restart after a stop is quiet: every message is re-checked and only
what really changed is edited.

Memory is bounded: at most `games` games (least recently used first out; anything
forgotten is read again from the database) and `titles` chat titles.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from bot.infra.lru import Lru
from storage import repo
from storage.db import Database
from storage.records import GameRecord, MessageRecord, Role

log = logging.getLogger(__name__)

Key = tuple[Role, int]
"""A message of a game: its role and seat (-1 for the lobby and the table)."""


@dataclass(frozen=True, slots=True)
class Target:
    """One message of a game: its lobby, its table, or the hand of `seat`, in its
    person's private chat or (`in_group`) shown to them inside the group: each has a
    worker of its own, so neither waits for the other's chat."""

    game_id: int
    role: Role
    seat: int = -1
    in_group: bool = False

    def __str__(self) -> str:
        where = " in the group" if self.in_group else ""
        return f"game {self.game_id}: the {self.role.value} message{where}"


def hand_targets(game_id: int, seat: int) -> tuple[Target, Target]:
    """The seat's hand in its person's private chat, and inside the group."""
    return Target(game_id, Role.HAND, seat), Target(game_id, Role.HAND, seat, in_group=True)


def targets_of(game: GameRecord) -> list[Target]:
    """Every message a game may have."""
    seats = [target for seat in game.seats for target in hand_targets(game.id, seat.seat)]
    return [Target(game.id, Role.LOBBY), Target(game.id, Role.TABLE), *seats]


class MessageRecords:
    """Caches of what the database holds, so a move costs no re-reading: the newest
    record of each game (handed over by the publisher's `show`), its messages and the
    digests their stored records hold, chat titles."""

    def __init__(self, db: Database, *, games: int, titles: int) -> None:
        self.db = db
        self.games: Lru[int, GameRecord] = Lru(games)
        self.messages: Lru[int, dict[Key, MessageRecord]] = Lru(games)
        # The digest each message's stored record holds ("" once an edit went past it).
        self._stored: Lru[int, dict[Key, str]] = Lru(games)
        # Messages sent whose record the database refused for the moment (one a message).
        self._unsaved: dict[Target, MessageRecord] = {}
        self._titles: Lru[int, str] = Lru(titles)

    # Loads that fill a cache keep what another worker put there while they waited: the
    # database may answer two workers' reads in any order (PostgreSQL's pool), and an
    # older read must not wipe out a message recorded since.

    async def game(self, game_id: int) -> GameRecord | None:
        game = self.games.get(game_id)
        if game is None:
            loaded = await repo.load_game(self.db, game_id)
            game = self.games.get(game_id) or loaded
            if game is not None:
                self.games[game_id] = game
        return game

    async def messages_of(self, game_id: int) -> dict[Key, MessageRecord]:
        messages = self.messages.get(game_id)
        if messages is None:
            loaded = await repo.game_messages(self.db, game_id)
            messages = self.messages.get(game_id)
            if messages is None:
                messages = self.messages[game_id] = loaded
                self._stored[game_id] = {key: r.digest or "" for key, r in loaded.items()}
        return messages

    async def chat_title(self, chat_id: int) -> str:
        title = self._titles.get(chat_id)
        if title is None:
            chat = await repo.get_chat(self.db, chat_id)
            title = self._titles[chat_id] = chat.title if chat and chat.title else "?"
        return title

    async def write_unsaved(self, target: Target) -> None:
        """The message of `target` was sent but the database refused its record for the
        moment: written now, before anything else is done for it."""
        unsaved = self._unsaved.get(target)
        if unsaved is None:
            return
        await repo.put_message(self.db, unsaved)
        if self._unsaved.get(target) is unsaved:
            del self._unsaved[target]
        stored = self._stored.get(target.game_id)
        if stored is not None:
            stored[(target.role, target.seat)] = unsaved.digest or ""

    async def remember(
        self,
        target: Target,
        chat_id: int,
        message_id: int,
        file_id: str | None,
        digest: str,
        *,
        new: bool = False,
    ) -> None:
        """Keep which message shows `target` and what it shows now; stored when the
        message is `new`, and at the first edit after that with no digest (edits are not
        written; see the module's docstring)."""
        key = (target.role, target.seat)
        record = MessageRecord(
            target.game_id, target.role, target.seat, chat_id, message_id, file_id, digest
        )
        # In memory first: if the database refuses the write for the moment (locked,
        # full), the next pass edits this message instead of sending a second one, and
        # writes the record before anything else (`write_unsaved`).
        (await self.messages_of(target.game_id))[key] = record
        stored = self._stored.get(target.game_id)
        if stored is None:
            stored = self._stored[target.game_id] = {}
        if not new and stored.get(key) == "":
            return  # the stored record says its digest is not known: true still
        written = record if new else dataclasses.replace(record, digest="")
        self._unsaved[target] = written
        await repo.put_message(self.db, written)
        if self._unsaved.get(target) is written:
            del self._unsaved[target]
        stored[key] = written.digest or ""

    async def forget(self, target: Target) -> None:
        """The message of `target` is gone: the next pass sends a fresh one."""
        await repo.forget_message(self.db, target.game_id, target.role, target.seat)
        (await self.messages_of(target.game_id)).pop((target.role, target.seat), None)
        stored = self._stored.get(target.game_id)
        if stored is not None:
            stored.pop((target.role, target.seat), None)

    def reload(self, game_id: int) -> None:
        """Forget what is cached about a game that changed behind our back."""
        self.games.pop(game_id)
        self.messages.pop(game_id)
        self._stored.pop(game_id)

    def unsaved_digests(self, game_id: int) -> list[MessageRecord]:
        """The game's records in memory whose digest the database does not hold."""
        messages = self.messages.get(game_id) or {}
        stored = self._stored.get(game_id) or {}
        return [
            record for key, record in messages.items() if stored.get(key) != (record.digest or "")
        ]

    async def save_digests(self, game_ids: Sequence[int] | None = None) -> None:
        """Write the digests held in memory for `game_ids` (every game's when None), in
        one transaction."""
        ids = list(self.messages.keys()) if game_ids is None else game_ids
        owed = [record for game_id in ids for record in self.unsaved_digests(game_id)]
        if not owed:
            return
        async with self.db.transaction() as tx:
            for record in owed:
                await repo.put_message(tx, record)
        for record in owed:
            stored = self._stored.get(record.game_id)
            if stored is not None:
                stored[(record.role, record.seat)] = record.digest or ""

    def forget_messages(self, game_id: int) -> None:
        """Drop the game's messages from memory (their digests are stored)."""
        self.messages.pop(game_id)
        self._stored.pop(game_id)

    async def save_then_forget(self, game_id: int) -> None:
        """An ended game's messages are up to date: their digests are written, then
        forgotten (a restart soon after edits none of them again)."""
        try:
            await self.save_digests([game_id])
        except Exception as exc:  # a restart edits them once more, nothing else
            log.info("game %s: the messages' digests were not saved: %s", game_id, exc)
        if game_id not in self.games:  # not shown again meanwhile
            self.forget_messages(game_id)
