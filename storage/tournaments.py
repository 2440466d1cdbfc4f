"""Tournaments, stored (migration 019): every SQL statement about them.

A tournament is one aggregate: its row, its entrants, its tables and its byes, read
together (`load`) and written together (`save`) with the version it was loaded with,
so two changes at once cannot both apply (`TournamentConflict`). It is small (at most
32 entrants and their tables), so a save writes its parts anew. Loaded inside a
transaction on PostgreSQL its row is locked (`Transaction.locks_rows`): two tables
ending at once count one after the other.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from domino.ai import Level
from domino.tournament import Bye, TableResult
from storage.db import INTEGRITY_ERRORS, Database, Row, Transaction
from storage.records import (
    EntrantRecord,
    TableRecord,
    TableState,
    TournamentOptions,
    TournamentRecord,
    TournamentStatus,
)
from storage.repo import Reader

LIVE = ("signup", "running", "paused")


class TournamentBusy(Exception):
    """The topic already runs a tournament (signing up, running or paused)."""


class TournamentConflict(Exception):
    """The tournament changed since it was loaded."""


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def result_to_json(result: TableResult) -> str:
    return json.dumps(
        {
            "round": result.round,
            "entrants": list(result.entrants),
            "places": list(result.places),
            "margins": list(result.margins),
            "absent": sorted(result.absent),
        }
    )


def result_from_json(text: str) -> TableResult:
    data = json.loads(text)
    return TableResult(
        round=int(data["round"]),
        entrants=tuple(int(e) for e in data["entrants"]),
        places=tuple(int(p) for p in data["places"]),
        margins=tuple(float(m) for m in data["margins"]),
        absent=frozenset(int(a) for a in data.get("absent", ())),
    )


async def create(
    tx: Transaction,
    *,
    chat_id: int,
    thread_id: int | None,
    creator_id: int,
    options: TournamentOptions,
    at: datetime,
) -> TournamentRecord:
    """A new tournament in SIGNUP in the topic `thread_id` of the chat (None: General, or
    a group that is no forum). Raises TournamentBusy if that topic runs one."""
    try:
        tournament_id = await tx.insert(
            "INSERT INTO tournaments (chat_id, thread_id, creator_id, options, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (chat_id, thread_id, creator_id, json.dumps(options.to_dict()), _iso(at)),
        )
    except INTEGRITY_ERRORS as exc:
        if "tournaments" in str(exc):
            raise TournamentBusy(f"chat {chat_id} topic {thread_id} runs a tournament") from None
        raise
    created = await load(tx, tournament_id)
    assert created is not None
    return created


async def save(tx: Transaction, tournament: TournamentRecord) -> TournamentRecord:
    """Write the whole tournament if nobody changed it since it was loaded (its
    `version`); the returned record carries the new version. Raises TournamentConflict."""
    changed = await tx.execute(
        "UPDATE tournaments SET status = ?, options = ?, current_round = ?, started_at = ?,"
        " ended_at = ?, version = version + 1 WHERE id = ? AND version = ?",
        (
            tournament.status.value,
            json.dumps(tournament.options.to_dict()),
            tournament.current_round,
            _iso(tournament.started_at),
            _iso(tournament.ended_at),
            tournament.id,
            tournament.version,
        ),
    )
    if changed != 1:
        raise TournamentConflict(f"tournament {tournament.id} changed since {tournament.version}")
    tid = tournament.id
    for table in ("tournament_entrants", "tournament_tables", "tournament_byes"):
        await tx.execute(f"DELETE FROM {table} WHERE tournament_id = ?", (tid,))
    if tournament.entrants:
        await tx.execute_many(
            "INSERT INTO tournament_entrants (tournament_id, number, user_id, name, partner_id,"
            " partner_name, level, withdrawn_round) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    tid,
                    e.number,
                    e.user_id,
                    e.name,
                    e.partner_id,
                    e.partner_name,
                    None if e.level is None else e.level.value,
                    e.withdrawn_round,
                )
                for e in tournament.entrants
            ],
        )
    if tournament.tables:
        await tx.execute_many(
            "INSERT INTO tournament_tables (tournament_id, round_no, table_no, entrants, state,"
            " game_id, thread_id, absent, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    tid,
                    t.round_no,
                    t.table_no,
                    json.dumps(list(t.entrants)),
                    t.state.value,
                    t.game_id,
                    t.thread_id,
                    json.dumps(sorted(t.absent)),
                    None if t.result is None else result_to_json(t.result),
                )
                for t in tournament.tables
            ],
        )
    if tournament.byes:
        await tx.execute_many(
            "INSERT INTO tournament_byes (tournament_id, round_no, entrant, half_points)"
            " VALUES (?, ?, ?, ?)",
            [(tid, b.round, b.entrant, b.half_points) for b in tournament.byes],
        )
    return replace(tournament, version=tournament.version + 1)


async def load(db: Reader, tournament_id: int) -> TournamentRecord | None:
    """The tournament with its entrants, tables and byes (locked for the transaction on
    PostgreSQL)."""
    if isinstance(db, Database):
        return await db.read(lambda tx: load(tx, tournament_id))
    lock = " FOR UPDATE" if db.locks_rows else ""
    row = await db.fetch_one(f"SELECT * FROM tournaments WHERE id = ?{lock}", (tournament_id,))
    if row is None:
        return None
    entrants = await db.fetch_all(
        "SELECT * FROM tournament_entrants WHERE tournament_id = ? ORDER BY number",
        (tournament_id,),
    )
    tables = await db.fetch_all(
        "SELECT * FROM tournament_tables WHERE tournament_id = ? ORDER BY round_no, table_no",
        (tournament_id,),
    )
    byes = await db.fetch_all(
        "SELECT * FROM tournament_byes WHERE tournament_id = ? ORDER BY round_no, entrant",
        (tournament_id,),
    )
    return _from_rows(row, entrants, tables, byes)


def _from_rows(
    row: Row, entrants: Sequence[Row], tables: Sequence[Row], byes: Sequence[Row]
) -> TournamentRecord:
    return TournamentRecord(
        id=row["id"],
        chat_id=row["chat_id"],
        thread_id=row["thread_id"],
        creator_id=row["creator_id"],
        status=TournamentStatus(row["status"]),
        options=TournamentOptions.from_dict(json.loads(row["options"])),
        entrants=tuple(
            EntrantRecord(
                number=e["number"],
                user_id=e["user_id"],
                name=e["name"],
                partner_id=e["partner_id"],
                partner_name=e["partner_name"],
                level=None if e["level"] is None else Level(e["level"]),
                withdrawn_round=e["withdrawn_round"],
            )
            for e in entrants
        ),
        tables=tuple(
            TableRecord(
                round_no=t["round_no"],
                table_no=t["table_no"],
                entrants=tuple(int(n) for n in json.loads(t["entrants"])),
                state=TableState(t["state"]),
                game_id=t["game_id"],
                thread_id=t["thread_id"],
                result=None if t["result"] is None else result_from_json(t["result"]),
                absent=frozenset(int(n) for n in json.loads(t["absent"])),
            )
            for t in tables
        ),
        byes=tuple(Bye(b["round_no"], b["entrant"], b["half_points"]) for b in byes),
        current_round=row["current_round"],
        version=row["version"],
        created_at=_time(row["created_at"]),
        started_at=_time(row["started_at"]),
        ended_at=_time(row["ended_at"]),
    )


async def live_in_topic(db: Reader, chat_id: int, thread_id: int | None) -> TournamentRecord | None:
    """The tournament signing up, running or paused in the chat's topic `thread_id`."""
    row = await db.fetch_one(
        "SELECT id FROM tournaments WHERE chat_id = ? AND COALESCE(thread_id, 0) = ?"
        " AND status IN (?, ?, ?)",
        (chat_id, thread_id or 0, *LIVE),
    )
    return await load(db, row["id"]) if row else None


async def with_due_tables(db: Reader, *, chat_id: int | None = None) -> list[TournamentRecord]:
    """The running tournaments with a table due (of the chat `chat_id`; None: of every
    chat, what a restarted bot offers again)."""
    query = (
        "SELECT DISTINCT t.id FROM tournaments t JOIN tournament_tables tt"
        " ON tt.tournament_id = t.id WHERE t.status = 'running' AND tt.state = 'due'"
    )
    if chat_id is None:
        rows = await db.fetch_all(f"{query} ORDER BY t.id")
    else:
        rows = await db.fetch_all(f"{query} AND t.chat_id = ? ORDER BY t.id", (chat_id,))
    found = [await load(db, row["id"]) for row in rows]
    return [t for t in found if t is not None]


async def live_of_chat(db: Reader, chat_id: int) -> list[int]:
    """The ids of the chat's tournaments signing up, running or paused, in every topic."""
    rows = await db.fetch_all(
        "SELECT id FROM tournaments WHERE chat_id = ? AND status IN (?, ?, ?) ORDER BY id",
        (chat_id, *LIVE),
    )
    return [int(row["id"]) for row in rows]


async def live_with_person(db: Reader, chat_id: int, user_id: int) -> list[int]:
    """The ids of the chat's tournaments signing up, running or paused that the person
    is an entrant of (alone or in a pair)."""
    rows = await db.fetch_all(
        "SELECT DISTINCT t.id FROM tournaments t JOIN tournament_entrants e"
        " ON e.tournament_id = t.id WHERE t.chat_id = ? AND t.status IN (?, ?, ?)"
        " AND (e.user_id = ? OR e.partner_id = ?) ORDER BY t.id",
        (chat_id, *LIVE, user_id, user_id),
    )
    return [int(row["id"]) for row in rows]


async def finished_of_chat(db: Reader, chat_id: int, limit: int) -> list[TournamentRecord]:
    """The chat's finished tournaments, newest first."""
    rows = await db.fetch_all(
        "SELECT id FROM tournaments WHERE chat_id = ? AND status = 'finished'"
        " ORDER BY id DESC LIMIT ?",
        (chat_id, limit),
    )
    found = [await load(db, row["id"]) for row in rows]
    return [t for t in found if t is not None]


async def finished_with_person(db: Reader, chat_id: int, user_id: int) -> list[TournamentRecord]:
    """The chat's finished tournaments the person was an entrant of (alone or in a pair)."""
    rows = await db.fetch_all(
        "SELECT DISTINCT t.id FROM tournaments t JOIN tournament_entrants e"
        " ON e.tournament_id = t.id WHERE t.chat_id = ? AND t.status = 'finished'"
        " AND (e.user_id = ? OR e.partner_id = ?) ORDER BY t.id",
        (chat_id, user_id, user_id),
    )
    found = [await load(db, row["id"]) for row in rows]
    return [t for t in found if t is not None]
