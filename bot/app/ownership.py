"""Which chats this instance plays, and under which fence (issue 35, docs/instances.md).

One instance (SQLite, or PostgreSQL with a leader and standbys) plays every chat:
`EVERY_CHAT`. With shards (`SHARDS` set, several instances on PostgreSQL), an instance
plays only the chats of the shards it holds, and every change it writes for a chat's
games checks that shard's lease term in its own transaction (`storage.db.acting_for`),
so an instance paused past its lease changes nothing for a shard another took meanwhile.

The background work of the core and the front ends (turn clocks, alarms, computers'
moves, votes, the publisher's workers, announcements, turn notices, tournaments) asks
`owns(chat_id)` before acting for a chat and does its work inside `acting(chat_id)`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Protocol

# What a change made in `acting(chat_id)` raises when the chat's shard has moved on to
# another instance (its fence refused it; nothing of the change was kept): for the
# front ends, which do not import storage.
from storage.db import Deposed as Deposed


class Ownership(Protocol):
    def owns(self, chat_id: int) -> bool:
        """Whether this instance plays `chat_id`'s games now."""

    def acting(self, chat_id: int) -> contextlib.AbstractContextManager[object]:
        """The scope of work done for `chat_id` (its shard's fence; no queued update)."""


class EveryChat:
    """One instance plays every chat, fenced (if at all) by `Database.fence`."""

    def owns(self, chat_id: int) -> bool:
        return True

    @contextlib.contextmanager
    def acting(self, chat_id: int) -> Iterator[object]:
        yield None


EVERY_CHAT: Ownership = EveryChat()
