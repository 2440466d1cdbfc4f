"""Votes of a running match's people, to cancel it or to end it drawn: the stored shape
and every SQL statement about them.

A vote belongs to one game; at most one is open per game, whatever its kind (a unique
index), and a draw is offered at most once a round of the match (another). Each
person's ballot is one row that a second press overwrites, so a vote can change. The
group message that shows the vote is remembered with a digest of what it shows, like
the game's own messages, so a restart re-checks it without sending it twice.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from storage.db import INTEGRITY_ERRORS, Row, Transaction
from storage.repo import Reader


class VoteState(StrEnum):
    OPEN = "open"
    PASSED = "passed"  # more than half of the match's people voted to cancel: cancelled
    FAILED = "failed"  # so many voted against that a majority to cancel cannot be reached
    EXPIRED = "expired"  # the time ran out before a majority was reached
    CLOSED = "closed"  # the match ended another way while the vote was open

    @property
    def open(self) -> bool:
        return self is VoteState.OPEN


class VoteKind(StrEnum):
    CANCEL = "cancel"  # /cancel by a player: more than half of the people cancel
    DRAW = "draw"  # «🤝 Предложить ничью»: every person agrees, and the match ends drawn


class VoteBusy(Exception):
    """The game already has an open vote."""


class DrawOffered(Exception):
    """A draw was offered in this round of the match already."""


@dataclass(frozen=True, slots=True)
class Vote:
    id: int
    game_id: int
    chat_id: int
    started_by: int
    opened_at: datetime
    expires_at: datetime
    state: VoteState = VoteState.OPEN
    ballots: tuple[tuple[int, bool], ...] = ()  # (user id, in favour), by user id
    message_id: int | None = None
    digest: str | None = None
    kind: VoteKind = VoteKind.CANCEL
    round_no: int | None = None  # a draw's: the round of the match it was offered in

    def ballot_of(self, user_id: int) -> bool | None:
        """The person's current ballot: True to cancel, False to play on, None: none yet."""
        for voter, in_favour in self.ballots:
            if voter == user_id:
                return in_favour
        return None

    def with_ballot(self, user_id: int, in_favour: bool) -> Vote:
        others = [b for b in self.ballots if b[0] != user_id]
        return dataclasses.replace(self, ballots=tuple(sorted([*others, (user_id, in_favour)])))


def _iso(moment: datetime) -> str:
    return moment.isoformat()


async def open_vote(
    tx: Transaction,
    *,
    game_id: int,
    chat_id: int,
    started_by: int,
    opened_at: datetime,
    expires_at: datetime,
    kind: VoteKind = VoteKind.CANCEL,
    round_no: int | None = None,
) -> Vote:
    """A new open vote with no ballots. Raises VoteBusy if the game has an open one, and
    DrawOffered for a draw in a round that had one."""
    if kind is VoteKind.DRAW and await draw_offered(tx, game_id, round_no):
        raise DrawOffered(f"game {game_id}: a draw was offered in round {round_no}")
    try:
        vote_id = await tx.insert(
            """
            INSERT INTO cancel_votes (
                game_id, chat_id, started_by, opened_at, expires_at, kind, round_no
            ) VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            (
                game_id,
                chat_id,
                started_by,
                _iso(opened_at),
                _iso(expires_at),
                kind.value,
                round_no,
            ),
        )
    except INTEGRITY_ERRORS as exc:
        if "round" in str(exc):
            raise DrawOffered(f"game {game_id}: a draw was offered in round {round_no}") from None
        if "cancel_votes" in str(exc) and "game_id" in str(exc):
            raise VoteBusy(f"game {game_id} already has an open vote") from None
        raise
    return Vote(
        vote_id, game_id, chat_id, started_by, opened_at, expires_at, kind=kind, round_no=round_no
    )


async def draw_offered(db: Reader, game_id: int, round_no: int | None) -> bool:
    """Whether a draw was offered in round `round_no` of the game's match."""
    row = await db.fetch_one(
        "SELECT 1 FROM cancel_votes WHERE game_id = ? AND kind = 'draw' AND round_no = ?",
        (game_id, round_no),
    )
    return row is not None


async def cast_ballot(
    tx: Transaction, vote_id: int, user_id: int, in_favour: bool, at: datetime
) -> None:
    """Record (or change) a person's ballot."""
    await tx.execute(
        """
        INSERT INTO cancel_ballots (vote_id, user_id, in_favour, cast_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (vote_id, user_id) DO UPDATE SET
            in_favour = excluded.in_favour, cast_at = excluded.cast_at
        """,
        (vote_id, user_id, int(in_favour), _iso(at)),
    )


async def close_vote(tx: Transaction, vote_id: int, state: VoteState, at: datetime) -> bool:
    """Decide an open vote; False if it was no longer open."""
    if state.open:
        raise ValueError("a vote is closed with a final state, not 'open'")
    changed = await tx.execute(
        "UPDATE cancel_votes SET state = ?, closed_at = ? WHERE id = ? AND state = 'open'",
        (state.value, _iso(at), vote_id),
    )
    return changed == 1


async def close_votes_of_game(tx: Transaction, game_id: int, at: datetime) -> list[int]:
    """The game ended another way: close its open vote (if any); the ids closed."""
    rows = await tx.fetch_all(
        "SELECT id FROM cancel_votes WHERE game_id = ? AND state = 'open'", (game_id,)
    )
    for row in rows:
        await close_vote(tx, int(row["id"]), VoteState.CLOSED, at)
    return [int(row["id"]) for row in rows]


async def set_vote_message(db: Reader, vote_id: int, message_id: int, digest: str) -> None:
    """Remember the group message that shows the vote and what it shows (one statement)."""
    await db.execute(
        "UPDATE cancel_votes SET message_id = ?, digest = ? WHERE id = ?",
        (message_id, digest, vote_id),
    )


async def load_vote(db: Reader, vote_id: int) -> Vote | None:
    row = await db.fetch_one("SELECT * FROM cancel_votes WHERE id = ?", (vote_id,))
    return await _vote_from_row(db, row) if row else None


async def open_vote_of_game(db: Reader, game_id: int) -> Vote | None:
    row = await db.fetch_one(
        "SELECT * FROM cancel_votes WHERE game_id = ? AND state = 'open'", (game_id,)
    )
    return await _vote_from_row(db, row) if row else None


async def open_votes(db: Reader) -> list[Vote]:
    """Every open vote: what a restarted bot must time out again."""
    rows = await db.fetch_all("SELECT * FROM cancel_votes WHERE state = 'open' ORDER BY id")
    return [await _vote_from_row(db, row) for row in rows]


async def _vote_from_row(db: Reader, row: Row) -> Vote:
    ballots = await db.fetch_all(
        "SELECT user_id, in_favour FROM cancel_ballots WHERE vote_id = ? ORDER BY user_id",
        (row["id"],),
    )
    return Vote(
        id=row["id"],
        game_id=row["game_id"],
        chat_id=row["chat_id"],
        started_by=row["started_by"],
        opened_at=datetime.fromisoformat(row["opened_at"]),
        expires_at=datetime.fromisoformat(row["expires_at"]),
        state=VoteState(row["state"]),
        ballots=tuple((int(b["user_id"]), bool(b["in_favour"])) for b in ballots),
        message_id=row["message_id"],
        digest=row["digest"],
        kind=VoteKind(row["kind"]),
        round_no=row["round_no"],
    )
