"""The hints each seat of a game took («💡 Подсказка»; table `hints`, migration 010).

A seat's row holds how many hints it took in the match (`count`: one per turn at most)
and the last hint shown, for the move number it was computed at, so a second press on
the same turn is shown that hint again instead of computing and counting another. The
hint names a tile of the seat's own hand: it is stored (the database holds every
match's seed anyway) but never logged. `storage.stats.record_match` copies the counts
into the match record.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from storage.db import Transaction
from storage.repo import Reader


@dataclass(frozen=True, slots=True)
class StoredHint:
    """The last hint a seat was shown, and how many it took in the match."""

    game_id: int
    seat: int
    count: int
    move: int  # the match's move number (len(match.log)) the hint was for
    action: str  # `str(action)`; `domino.actions.parse_action` reads it back
    reason: str  # one of `domino.ai.REASONS`
    args: Mapping[str, int]


async def last_hint(db: Reader, game_id: int, seat: int) -> StoredHint | None:
    row = await db.fetch_one("SELECT * FROM hints WHERE game_id = ? AND seat = ?", (game_id, seat))
    if row is None:
        return None
    args = json.loads(row["args"])
    return StoredHint(
        game_id=game_id,
        seat=seat,
        count=row["count"],
        move=row["move"],
        action=row["action"],
        reason=row["reason"],
        args={str(k): int(v) for k, v in args.items()} if isinstance(args, dict) else {},
    )


async def count_hint(
    tx: Transaction,
    game_id: int,
    seat: int,
    move: int,
    action: str,
    reason: str,
    args: Mapping[str, int],
) -> StoredHint:
    """Store the hint computed for move number `move` and count it, in the caller's
    transaction; if the seat already has a hint for that move (two presses raced), that
    one stands and nothing is counted. Returns the hint that stands."""
    found = await last_hint(tx, game_id, seat)
    if found is not None and found.move == move:
        return found
    await tx.execute(
        """
        INSERT INTO hints (game_id, seat, count, move, action, reason, args)
        VALUES (?, ?, 1, ?, ?, ?, ?)
        ON CONFLICT (game_id, seat) DO UPDATE SET
            count = hints.count + 1, move = excluded.move, action = excluded.action,
            reason = excluded.reason, args = excluded.args
        """,
        (game_id, seat, move, action, reason, json.dumps(dict(args), sort_keys=True)),
    )
    return StoredHint(
        game_id=game_id,
        seat=seat,
        count=(found.count if found else 0) + 1,
        move=move,
        action=action,
        reason=reason,
        args=dict(args),
    )


async def hint_counts(db: Reader, game_id: int) -> dict[int, int]:
    """How many hints each seat of the game took (seats that took none are left out)."""
    rows = await db.fetch_all("SELECT seat, count FROM hints WHERE game_id = ?", (game_id,))
    return {row["seat"]: row["count"] for row in rows}
