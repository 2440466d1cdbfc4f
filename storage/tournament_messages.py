"""The group message that shows each tournament (migration 020): which message it is and
a digest of what it shows, so a restart edits it instead of sending a second one, and
re-checks it without editing when nothing changed."""

from __future__ import annotations

from dataclasses import dataclass

from storage.repo import Reader


@dataclass(frozen=True, slots=True)
class TournamentMessage:
    tournament_id: int
    chat_id: int
    message_id: int
    digest: str | None  # None: not known (edited once more)


async def load(db: Reader, tournament_id: int) -> TournamentMessage | None:
    row = await db.fetch_one(
        "SELECT * FROM tournament_messages WHERE tournament_id = ?", (tournament_id,)
    )
    if row is None:
        return None
    return TournamentMessage(row["tournament_id"], row["chat_id"], row["message_id"], row["digest"])


async def put(db: Reader, message: TournamentMessage) -> None:
    """Remember which message shows the tournament and what it shows; one statement, so
    `db` may be the Database itself."""
    await db.execute(
        """
        INSERT INTO tournament_messages (tournament_id, chat_id, message_id, digest)
        VALUES (?, ?, ?, ?)
        ON CONFLICT (tournament_id) DO UPDATE SET
            chat_id = excluded.chat_id, message_id = excluded.message_id,
            digest = excluded.digest
        """,
        (message.tournament_id, message.chat_id, message.message_id, message.digest),
    )


async def forget(db: Reader, tournament_id: int) -> None:
    """The message is gone (deleted, or replaced by one at the bottom)."""
    await db.execute("DELETE FROM tournament_messages WHERE tournament_id = ?", (tournament_id,))


async def live(db: Reader) -> list[int]:
    """The tournaments signing up, running or paused: their messages are re-checked after
    a restart."""
    rows = await db.fetch_all(
        "SELECT id FROM tournaments WHERE status IN ('signup', 'running', 'paused') ORDER BY id"
    )
    return [int(row["id"]) for row in rows]
