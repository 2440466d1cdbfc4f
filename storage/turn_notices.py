"""The «🔔 Ваш ход» notices (migration 011): whether a person wants them
(`users.turn_notices`), and the notices sent and not yet deleted (`turn_notice_messages`),
which a restart deletes."""

from __future__ import annotations

from dataclasses import dataclass

from storage import repo
from storage.db import Database, Transaction
from storage.records import UserRecord
from storage.repo import Reader


@dataclass(frozen=True, slots=True)
class StoredNotice:
    """A notice sent in `chat_id` (a person's private chat) for a turn in `game_id`."""

    chat_id: int
    message_id: int
    game_id: int


async def notices_wanted(db: Reader, user_id: int) -> bool:
    """Whether the person wants turn notices; True for anyone not stored (the default)."""
    row = await db.fetch_one("SELECT turn_notices FROM users WHERE id = ?", (user_id,))
    return row is None or bool(row["turn_notices"])


async def set_notices_wanted(tx: Transaction, user: UserRecord, wanted: bool) -> None:
    """Store the person's choice (and the person, if not stored yet)."""
    await repo.upsert_user(tx, user)
    await tx.execute("UPDATE users SET turn_notices = ? WHERE id = ?", (int(wanted), user.id))


async def remember_notice(db: Database | Transaction, notice: StoredNotice) -> None:
    """One statement: `db` may be the Database itself."""
    await db.execute(
        "INSERT INTO turn_notice_messages (chat_id, message_id, game_id) VALUES (?, ?, ?)"
        " ON CONFLICT (chat_id, message_id) DO UPDATE SET game_id = excluded.game_id",
        (notice.chat_id, notice.message_id, notice.game_id),
    )


async def forget_notice(db: Database | Transaction, chat_id: int, message_id: int) -> None:
    await db.execute(
        "DELETE FROM turn_notice_messages WHERE chat_id = ? AND message_id = ?",
        (chat_id, message_id),
    )


async def stored_notices(db: Reader) -> list[StoredNotice]:
    """Every notice sent and not known to be deleted, each chat's oldest first."""
    rows = await db.fetch_all(
        "SELECT chat_id, message_id, game_id FROM turn_notice_messages ORDER BY chat_id, message_id"
    )
    return [StoredNotice(row["chat_id"], row["message_id"], row["game_id"]) for row in rows]
