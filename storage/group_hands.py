"""Hands shown inside the group (migration 015): where each person wants their hand
(`users.hands`), and the ephemeral hand message each seat has in its game's group
(`group_hands`), edited in place as the game moves."""

from __future__ import annotations

from dataclasses import dataclass

from storage import repo
from storage.db import Database, Transaction
from storage.records import HandsPlace, UserRecord, hands_place
from storage.repo import Reader


@dataclass(frozen=True, slots=True)
class GroupHand:
    """The ephemeral message showing `seat`'s hand of game `game_id` in the group `chat_id`
    to `receiver_id` alone, named by Telegram's `ephemeral_id`; `digest`: what it shows
    now (None: not known)."""

    game_id: int
    seat: int
    chat_id: int
    receiver_id: int
    ephemeral_id: int
    digest: str | None = None


async def hands_and_reach(db: Reader, user_id: int) -> tuple[HandsPlace | None, bool]:
    """Where the person chose to see their hand (None: the group's default) and whether
    the bot may write to them, in one read; (None, False) for anyone not stored."""
    row = await db.fetch_one("SELECT hands, can_message FROM users WHERE id = ?", (user_id,))
    return (hands_place(row["hands"]), bool(row["can_message"])) if row else (None, False)


async def choose_hands(tx: Transaction, user: UserRecord, place: HandsPlace | None) -> None:
    """Store the person's choice (None: back to the group's default), and the person."""
    await repo.upsert_user(tx, user)
    value = None if place is None else place.value
    await tx.execute("UPDATE users SET hands = ? WHERE id = ?", (value, user.id))


async def group_hands_of(db: Reader, game_id: int) -> dict[int, GroupHand]:
    """The game's ephemeral hands, by seat."""
    rows = await db.fetch_all(
        "SELECT game_id, seat, chat_id, receiver_id, ephemeral_id, digest FROM group_hands"
        " WHERE game_id = ?",
        (game_id,),
    )
    return {
        row["seat"]: GroupHand(
            row["game_id"],
            row["seat"],
            row["chat_id"],
            row["receiver_id"],
            row["ephemeral_id"],
            row["digest"],
        )
        for row in rows
    }


async def remember_group_hand(db: Database | Transaction, hand: GroupHand) -> None:
    """One statement: `db` may be the Database itself."""
    await db.execute(
        "INSERT INTO group_hands (game_id, seat, chat_id, receiver_id, ephemeral_id, digest)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET"
        " chat_id = excluded.chat_id, receiver_id = excluded.receiver_id,"
        " ephemeral_id = excluded.ephemeral_id, digest = excluded.digest",
        (hand.game_id, hand.seat, hand.chat_id, hand.receiver_id, hand.ephemeral_id, hand.digest),
    )


async def forget_group_hand(db: Database | Transaction, game_id: int, seat: int) -> None:
    await db.execute("DELETE FROM group_hands WHERE game_id = ? AND seat = ?", (game_id, seat))
