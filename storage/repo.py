"""Every SQL statement about people, chats, games, their messages and the outbox.

Functions take a `Transaction` (writes, and reads that must see the transaction's
own changes) or the `Database` (plain reads of committed state). They return the
records of `storage.records`, never rows.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from domino.ai import Level
from domino.match import Match
from domino.rules import Ruleset
from storage.db import INTEGRITY_ERRORS, Database, Row, Transaction
from storage.records import (
    Abandonment,
    ChatRecord,
    ChatSettings,
    Ending,
    GameRecord,
    GameStatus,
    MessageRecord,
    Role,
    SeatRecord,
    TableRef,
    TurnDeadline,
    UserRecord,
)

ACTIVE = ("lobby", "playing")

Reader = Database | Transaction


class StorageError(Exception):
    """A change the database refused for a reason the caller can explain to people."""


class ChatBusy(StorageError):
    """The chat already has a game in the lobby or in play."""


class PlayerBusy(StorageError):
    """The person already sits in another active game."""

    def __init__(self, user_id: int) -> None:
        super().__init__(f"user {user_id} already plays in another game")
        self.user_id = user_id


class VersionConflict(StorageError):
    """The game changed since it was loaded (a second press, a timer); reload and retry."""


def now() -> datetime:
    return datetime.now(UTC)


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _parse_time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


# People and chats ---------------------------------------------------------------


async def upsert_user(
    tx: Transaction, user: UserRecord, *, can_message: bool | None = None
) -> None:
    """Store a person's current name and language; `can_message` only when it is known."""
    await tx.execute(
        """
        INSERT INTO users (id, first_name, last_name, username, language, can_message, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET
            first_name = excluded.first_name,
            last_name = excluded.last_name,
            username = excluded.username,
            language = excluded.language,
            can_message = CASE WHEN CAST(? AS INTEGER) IS NULL
                THEN users.can_message ELSE excluded.can_message END,
            updated_at = excluded.updated_at
        """,
        (
            user.id,
            user.first_name,
            user.last_name,
            user.username,
            user.language,
            int(bool(can_message)),
            _iso(now()),
            None if can_message is None else int(can_message),
        ),
    )


async def refresh_user(db: Database, user: UserRecord) -> bool:
    """A known person was seen again: keep their name and language as Telegram shows them
    now (one autocommit statement; unknown people are not added). True if it changed."""
    changed = await db.execute(
        """
        UPDATE users SET first_name = ?, last_name = ?, username = ?, language = ?,
            updated_at = ?
        WHERE id = ? AND (first_name IS DISTINCT FROM ? OR last_name IS DISTINCT FROM ?
            OR username IS DISTINCT FROM ? OR language IS DISTINCT FROM ?)
        """,
        (
            user.first_name,
            user.last_name,
            user.username,
            user.language,
            _iso(now()),
            user.id,
            user.first_name,
            user.last_name,
            user.username,
            user.language,
        ),
    )
    return changed == 1


async def set_can_message(tx: Transaction, user_id: int, can_message: bool) -> None:
    await tx.execute("UPDATE users SET can_message = ? WHERE id = ?", (int(can_message), user_id))


async def get_user(db: Reader, user_id: int) -> UserRecord | None:
    row = await db.fetch_one("SELECT * FROM users WHERE id = ?", (user_id,))
    if row is None:
        return None
    return UserRecord(
        id=row["id"],
        first_name=row["first_name"],
        last_name=row["last_name"],
        username=row["username"],
        language=row["language"],
        can_message=bool(row["can_message"]),
    )


async def upsert_chat(tx: Transaction, chat: ChatRecord) -> None:
    await tx.execute(
        """
        INSERT INTO chats (id, type, title, bot_member, updated_at) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET
            type = excluded.type, title = excluded.title,
            bot_member = excluded.bot_member, updated_at = excluded.updated_at
        """,
        (chat.id, chat.type, chat.title, int(chat.bot_member), _iso(now())),
    )


async def get_chat(db: Reader, chat_id: int) -> ChatRecord | None:
    row = await db.fetch_one("SELECT * FROM chats WHERE id = ?", (chat_id,))
    if row is None:
        return None
    return ChatRecord(row["id"], row["type"], row["title"], bool(row["bot_member"]))


# Everything that names a group by its chat id, besides `chats` and `games`.
_CHAT_TABLES = ("outbox", "cancel_votes", "stat_matches", "stat_seats", "tournaments")


async def move_chat(tx: Transaction, old_id: int, new_id: int) -> list[int]:
    """A group became a supergroup with the id `new_id`: the chat, its settings, its
    games and everything that names it (announcements still owed, votes, stats) move
    there. If the supergroup wrote first (a command raced the service message), its row
    takes the group's settings and the group's row goes. Returns the ids of the games
    now in the supergroup.

    The group's messages stay behind in the old group: their ids number the old chat's
    messages, and the supergroup numbers its own from 1, so a table kept under its old
    id would edit whatever the bot sent there under that id (a round's end picture, seen
    in the e2e). Their records (the lobby, the table) are forgotten, and a vote's
    message too: they are sent anew in the supergroup."""
    if await get_chat(tx, new_id) is None:
        await tx.execute("UPDATE chats SET id = ? WHERE id = ?", (new_id, old_id))
    else:
        await tx.execute(
            "UPDATE chats SET settings = (SELECT settings FROM chats WHERE id = ?)"
            " WHERE id = ? AND EXISTS (SELECT 1 FROM chats WHERE id = ?)",
            (old_id, new_id, old_id),
        )
    await tx.execute("UPDATE games SET chat_id = ? WHERE chat_id = ?", (new_id, old_id))
    await tx.execute("DELETE FROM chats WHERE id = ?", (old_id,))
    await tx.execute("DELETE FROM messages WHERE chat_id = ?", (old_id,))
    await tx.execute("UPDATE cancel_votes SET message_id = NULL WHERE chat_id = ?", (old_id,))
    for table in _CHAT_TABLES:
        await tx.execute(f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (new_id, old_id))
    rows = await tx.fetch_all("SELECT id FROM games WHERE chat_id = ?", (new_id,))
    return [int(row["id"]) for row in rows]


# Games --------------------------------------------------------------------------


async def create_game(
    tx: Transaction,
    *,
    chat_id: int,
    creator_id: int,
    ruleset: Ruleset,
    seats_wanted: int,
    seats: Iterable[SeatRecord] = (),
    join_token: str | None = None,
    lobby_deadline: datetime | None = None,
    thread_id: int | None = None,
    tournament: TableRef | None = None,
) -> GameRecord:
    """Open a lobby in the forum topic `thread_id` of the chat (None: General, or a group
    that is no forum). Raises ChatBusy if that topic has an active game, PlayerBusy for a
    seat. `join_token` is the secret of its deep link; `lobby_deadline` when it closes
    unstarted; `tournament` the tournament table it is played at."""
    try:
        game_id = await tx.insert(
            """
            INSERT INTO games (chat_id, thread_id, status, creator_id, ruleset, seats_wanted,
                               created_at, join_token, lobby_deadline, tournament_id,
                               tournament_round, tournament_table)
            VALUES (?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            (
                chat_id,
                thread_id,
                creator_id,
                json.dumps(ruleset.to_dict()),
                seats_wanted,
                _iso(now()),
                join_token,
                _iso(lobby_deadline),
                tournament.tournament_id if tournament else None,
                tournament.round_no if tournament else None,
                tournament.table_no if tournament else None,
            ),
        )
    except INTEGRITY_ERRORS as exc:
        if "games_one_active_per_topic" in str(exc):
            raise ChatBusy(f"chat {chat_id} topic {thread_id} already has a game") from None
        raise
    await _write_seats(tx, game_id, tuple(seats), active=True)
    record = await load_game(tx, game_id)
    assert record is not None
    return record


async def save_game(tx: Transaction, game: GameRecord) -> GameRecord:
    """Write every mutable field of `game` if nobody changed it since it was loaded.

    `game.version` must be the version that was loaded; the stored version becomes
    `game.version + 1`, which the returned record carries. Raises VersionConflict if
    the game moved on meanwhile, PlayerBusy if a seat's person sits in another game.
    A move costs one statement here: the seats are written only when they
    differ from those loaded (`stored_seats`), and a turn's deadline set for the
    match's current move goes into the same UPDATE.
    """
    fields: list[object] = [
        game.chat_id,
        game.status.value,
        json.dumps(game.ruleset.to_dict()),
        game.seats_wanted,
        game.match.to_json() if game.match is not None else None,
        _iso(game.started_at),
        _iso(game.ended_at),
        game.ending.value if game.ending else None,
        json.dumps(game.abandonment.to_dict()) if game.abandonment else None,
    ]
    assignments = (
        "chat_id = ?, status = ?, ruleset = ?, seats_wanted = ?, match = ?,"
        " version = version + 1, started_at = ?, ended_at = ?, ending = ?, abandonment = ?"
    )
    deadline = game.turn_deadline
    if deadline is not None and game.match is not None and deadline.move == len(game.match.log):
        assignments += ", turn_move = ?, turn_deadline = ?, turn_limit = ?"
        fields += [deadline.move, _iso(deadline.deadline), deadline.limit]
    changed = await tx.execute(
        f"UPDATE games SET {assignments} WHERE id = ? AND version = ?",
        (*fields, game.id, game.version),
    )
    if changed != 1:
        raise VersionConflict(f"game {game.id} changed since version {game.version}")
    stored, was_active = game.stored_seats, game.stored_active
    if stored is None or was_active is None:
        rows = await tx.fetch_all("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game.id,))
        stored, was_active = tuple(_seat_from_row(r) for r in rows), _seats_active(rows)
    if stored != game.seats:
        await _write_seats(tx, game.id, game.seats, active=game.status.active)
    elif was_active is not None and was_active != game.status.active:
        await tx.execute(
            "UPDATE seats SET active = ? WHERE game_id = ? AND has_left = 0",
            (int(game.status.active), game.id),
        )
    return dataclasses.replace(
        game, version=game.version + 1, stored_seats=game.seats, stored_active=game.status.active
    )


async def _write_seats(
    tx: Transaction, game_id: int, seats: tuple[SeatRecord, ...], *, active: bool
) -> None:
    await tx.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
    for seat in seats:
        try:
            await tx.execute(
                """
                INSERT INTO seats (
                    game_id, seat, user_id, name, active, away, has_left, strikes, level
                )
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                (
                    game_id,
                    seat.seat,
                    seat.user_id,
                    seat.name,
                    int(active and not seat.left),
                    int(seat.away),
                    int(seat.left),
                    seat.strikes,
                    seat.level.value,
                ),
            )
        except INTEGRITY_ERRORS as exc:
            if seat.user_id is not None and "user_id" in str(exc):
                raise PlayerBusy(seat.user_id) from None
            raise


async def load_game(db: Reader, game_id: int) -> GameRecord | None:
    """The game and its seats; read from the database in one hop."""
    if isinstance(db, Database):
        return await db.read(lambda tx: load_game(tx, game_id))
    lock = " FOR UPDATE" if db.locks_rows else ""  # see Transaction.locks_rows
    row = await db.fetch_one(f"SELECT * FROM games WHERE id = ?{lock}", (game_id,))
    if row is None:
        return None
    seat_rows = await db.fetch_all(
        "SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
    )
    return _game_from_rows(row, seat_rows)


async def game_by_join_token(db: Reader, token: str) -> GameRecord | None:
    """The game whose deep link carries `token` (a link names no guessable game id)."""
    row = await db.fetch_one("SELECT id FROM games WHERE join_token = ?", (token,))
    return await load_game(db, row["id"]) if row else None


async def active_game_in_chat(
    db: Reader, chat_id: int, thread_id: int | None = None
) -> GameRecord | None:
    """The game in a lobby or in play in the chat's forum topic `thread_id` (None: its
    General topic, or the group's one game if it is no forum)."""
    row = await db.fetch_one(
        "SELECT id FROM games WHERE chat_id = ? AND COALESCE(thread_id, 0) = ?"
        " AND status IN (?, ?)",
        (chat_id, thread_id or 0, *ACTIVE),
    )
    return await load_game(db, row["id"]) if row else None


async def active_games_in_chat(db: Reader, chat_id: int) -> list[GameRecord]:
    """Every game in a lobby or in play in the chat, in any of its topics."""
    rows = await db.fetch_all(
        "SELECT id FROM games WHERE chat_id = ? AND status IN (?, ?) ORDER BY id",
        (chat_id, *ACTIVE),
    )
    games = [await load_game(db, row["id"]) for row in rows]
    return [g for g in games if g is not None]


async def active_game_of_user(db: Reader, user_id: int) -> GameRecord | None:
    row = await db.fetch_one(
        "SELECT game_id FROM seats WHERE user_id = ? AND active = 1", (user_id,)
    )
    return await load_game(db, row["game_id"]) if row else None


async def active_games(db: Reader) -> list[GameRecord]:
    """Every game in a lobby or in play: what a restarted bot must pick up again."""
    rows = await db.fetch_all("SELECT id FROM games WHERE status IN (?, ?) ORDER BY id", ACTIVE)
    games = [await load_game(db, row["id"]) for row in rows]
    return [g for g in games if g is not None]


async def games_by_status(db: Reader) -> dict[str, int]:
    """How many games are in a lobby and in play now, by status (for /metrics)."""
    rows = await db.fetch_all(
        "SELECT status, COUNT(*) AS n FROM games WHERE status IN (?, ?) GROUP BY status", ACTIVE
    )
    return {str(row["status"]): int(row["n"]) for row in rows}


async def schema_answers(db: Reader) -> None:
    """A trivial read of the schema (one index seek in `games`), for /healthz."""
    await db.fetch_one("SELECT id FROM games WHERE id = 0")


async def games_ended_since(db: Reader, since: datetime) -> list[GameRecord]:
    """Games that ended at or after `since`: a restarted bot checks that their last
    messages (the final table, closed hands) went out before it stopped."""
    rows = await db.fetch_all(
        "SELECT id FROM games WHERE status NOT IN (?, ?) AND ended_at >= ? ORDER BY id",
        (*ACTIVE, _iso(since)),
    )
    games = [await load_game(db, row["id"]) for row in rows]
    return [g for g in games if g is not None]


def _seat_from_row(row: Row) -> SeatRecord:
    return SeatRecord(
        seat=row["seat"],
        user_id=row["user_id"],
        name=row["name"],
        away=bool(row["away"]),
        left=bool(row["has_left"]),
        strikes=row["strikes"],
        level=_level(row["level"]),
    )


def _seats_active(rows: list[Row]) -> bool | None:
    """Whether the seats still held are marked active (None: no seat is held)."""
    held = [bool(r["active"]) for r in rows if not r["has_left"]]
    return any(held) if held else None


def _turn_deadline(row: Row) -> TurnDeadline | None:
    moment = _parse_time(row["turn_deadline"])
    if moment is None or row["turn_move"] is None:
        return None
    return TurnDeadline(row["id"], row["turn_move"], moment, row["turn_limit"])


def _level(value: str) -> Level:
    """A stored computer level; one this version does not know reads as medium."""
    try:
        return Level(value)
    except ValueError:
        return Level.MEDIUM


def _game_from_rows(row: Row, seat_rows: list[Row]) -> GameRecord:
    created = _parse_time(row["created_at"])
    assert created is not None
    seats = tuple(_seat_from_row(s) for s in seat_rows)
    return GameRecord(
        id=row["id"],
        chat_id=row["chat_id"],
        thread_id=row["thread_id"],
        status=GameStatus(row["status"]),
        creator_id=row["creator_id"],
        ruleset=Ruleset.from_dict(json.loads(row["ruleset"])),
        seats_wanted=row["seats_wanted"],
        seats=seats,
        match=Match.from_json(row["match"]) if row["match"] else None,
        version=row["version"],
        created_at=created,
        started_at=_parse_time(row["started_at"]),
        ended_at=_parse_time(row["ended_at"]),
        ending=Ending(row["ending"]) if row["ending"] else None,
        abandonment=(
            Abandonment.from_dict(json.loads(row["abandonment"])) if row["abandonment"] else None
        ),
        join_token=row["join_token"],
        lobby_deadline=_parse_time(row["lobby_deadline"]),
        turn_deadline=_turn_deadline(row),
        stored_seats=seats,
        stored_active=_seats_active(seat_rows),
        tournament=(
            None
            if row["tournament_id"] is None
            else TableRef(row["tournament_id"], row["tournament_round"], row["tournament_table"])
        ),
    )


# The messages that show a game ---------------------------------------------------


async def game_messages(db: Reader, game_id: int) -> dict[tuple[Role, int], MessageRecord]:
    """Every message that shows the game, by (role, seat)."""
    rows = await db.fetch_all("SELECT * FROM messages WHERE game_id = ?", (game_id,))
    found = {}
    for r in rows:
        record = MessageRecord(
            r["game_id"],
            Role(r["role"]),
            r["seat"],
            r["chat_id"],
            r["message_id"],
            r["file_id"],
            r["digest"],
        )
        found[(record.role, record.seat)] = record
    return found


async def put_message(db: Database | Transaction, message: MessageRecord) -> None:
    """Record which message shows (game, role, seat); one statement, so `db` may be the
    Database itself (no transaction needed)."""
    await db.execute(
        """
        INSERT INTO messages (game_id, role, seat, chat_id, message_id, file_id, digest)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (game_id, role, seat) DO UPDATE SET
            chat_id = excluded.chat_id, message_id = excluded.message_id,
            file_id = excluded.file_id, digest = excluded.digest
        """,
        (
            message.game_id,
            message.role.value,
            message.seat,
            message.chat_id,
            message.message_id,
            message.file_id,
            message.digest,
        ),
    )


async def forget_message(
    db: Database | Transaction, game_id: int, role: Role, seat: int = -1
) -> None:
    await db.execute(
        "DELETE FROM messages WHERE game_id = ? AND role = ? AND seat = ?",
        (game_id, role.value, seat),
    )


# The outbox ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OutboxItem:
    id: int
    game_id: int | None
    chat_id: int
    kind: str
    payload: dict[str, Any]


async def enqueue(
    tx: Transaction, *, game_id: int | None, chat_id: int, kind: str, payload: dict[str, Any]
) -> int:
    """Owe Telegram one message; commit it with the change it is about."""
    return await tx.insert(
        "INSERT INTO outbox (game_id, chat_id, kind, payload, created_at) VALUES (?, ?, ?, ?, ?)",
        (game_id, chat_id, kind, json.dumps(payload, ensure_ascii=False), _iso(now())),
    )


async def pending_outbox(db: Reader, *, after: int = 0, limit: int = 100) -> list[OutboxItem]:
    """The oldest `limit` announcements not marked sent whose id is above `after`."""
    rows = await db.fetch_all(
        "SELECT * FROM outbox WHERE sent_at IS NULL AND id > ? ORDER BY id LIMIT ?",
        (after, limit),
    )
    return [
        OutboxItem(r["id"], r["game_id"], r["chat_id"], r["kind"], json.loads(r["payload"]))
        for r in rows
    ]


async def oldest_owed(db: Reader, *, after: int = 0) -> int | None:
    """The id of the oldest announcement not marked sent whose id is above `after`; None
    when there is none."""
    row = await db.fetch_one(
        "SELECT MIN(id) AS id FROM outbox WHERE sent_at IS NULL AND id > ?", (after,)
    )
    return None if row is None or row["id"] is None else int(row["id"])


async def mark_sent(tx: Transaction, item_id: int) -> None:
    await tx.execute("UPDATE outbox SET sent_at = ? WHERE id = ?", (_iso(now()), item_id))


# Turn timers and chat settings --------------------------------------------------


async def get_chat_settings(db: Reader, chat_id: int) -> ChatSettings:
    row = await db.fetch_one("SELECT settings FROM chats WHERE id = ?", (chat_id,))
    return ChatSettings.from_dict(json.loads(row["settings"])) if row else ChatSettings()


async def chats_with_settings(db: Reader) -> dict[int, ChatSettings]:
    """Every chat whose settings differ from the defaults (the rest use `ChatSettings()`)."""
    rows = await db.fetch_all("SELECT id, settings FROM chats WHERE settings != '{}'")
    found = {row["id"]: ChatSettings.from_dict(json.loads(row["settings"])) for row in rows}
    return {chat_id: s for chat_id, s in found.items() if s != ChatSettings()}


async def set_chat_settings(tx: Transaction, chat_id: int, settings: ChatSettings) -> None:
    """Store a chat's settings; the chat must be known (`upsert_chat`)."""
    changed = await tx.execute(
        "UPDATE chats SET settings = ? WHERE id = ?", (json.dumps(settings.to_dict()), chat_id)
    )
    if changed != 1:
        raise StorageError(f"chat {chat_id} is not known")


async def set_turn_deadline(
    db: Database | Transaction, game_id: int, deadline: TurnDeadline | None
) -> None:
    """Store (or with None clear) the deadline of a game's turn in progress; one statement,
    so `db` may be the Database itself."""
    await db.execute(
        "UPDATE games SET turn_move = ?, turn_deadline = ?, turn_limit = ? WHERE id = ?",
        (
            deadline.move if deadline else None,
            _iso(deadline.deadline) if deadline else None,
            deadline.limit if deadline else None,
            game_id,
        ),
    )


async def turn_deadlines(db: Reader) -> dict[int, TurnDeadline]:
    """The stored deadlines of the games in play, by game id (for a restart)."""
    rows = await db.fetch_all(
        "SELECT id, turn_move, turn_deadline, turn_limit FROM games"
        " WHERE status = 'playing' AND turn_deadline IS NOT NULL"
    )
    found = {}
    for row in rows:
        moment = _parse_time(row["turn_deadline"])
        assert moment is not None
        found[row["id"]] = TurnDeadline(row["id"], row["turn_move"], moment, row["turn_limit"])
    return found
