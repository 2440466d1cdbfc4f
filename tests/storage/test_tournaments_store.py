"""Tournaments, stored (migration 019, `storage.tournaments`): the aggregate round-trips
whole (options, entrants, tables with their results, byes), a save checks the version,
a topic holds one live tournament, the reads /history, /stats and the pickup use find
what they should, and a game names its tournament table."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from domino.ai import Level
from domino.rules import KOZEL
from domino.tournament import Bye, Format, TableResult
from storage import repo
from storage import tournaments as store
from storage.connect import open_database
from storage.db import Database
from storage.records import (
    ChatRecord,
    EntrantRecord,
    TableRecord,
    TableRef,
    TableState,
    TournamentOptions,
    TournamentRecord,
    TournamentStatus,
    UserRecord,
)

GROUP = ChatRecord(id=-1001234567890123, type="supergroup", title="Двор")
MASHA = UserRecord(id=9_000_000_001, first_name="Маша")
OPTIONS = TournamentOptions(
    game="kozel",
    format=Format.SWISS,
    table_size=2,
    pairs=False,
    rounds=2,
    computers=Level.HARD,
    show_up_minutes=5,
)
AT = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "bot.sqlite3")
    yield database
    await database.close()


async def created(db: Database, thread_id: int | None = None) -> TournamentRecord:
    async with db.transaction() as tx:
        return await store.create(
            tx,
            chat_id=GROUP.id,
            thread_id=thread_id,
            creator_id=MASHA.id,
            options=OPTIONS,
            at=AT,
        )


def running(tournament: TournamentRecord) -> TournamentRecord:
    result = TableResult(1, (0, 2), (0, 1), (12.5, -12.5), frozenset())
    forfeit = TableResult(1, (1, 3), (0, 1), (0.0, 0.0), frozenset({3}))
    return dataclasses.replace(
        tournament,
        status=TournamentStatus.RUNNING,
        entrants=(
            EntrantRecord(0, MASHA.id, "Маша"),
            EntrantRecord(1, 9_000_000_002, "Петя", partner_id=None),
            EntrantRecord(2, None, "🤖 Компьютер 1", level=Level.EASY),
            EntrantRecord(3, 9_000_000_003, "Оля", withdrawn_round=1),
        ),
        tables=(
            TableRecord(1, 1, (0, 2), TableState.DONE, game_id=None, result=result),
            TableRecord(1, 2, (1, 3), TableState.DONE, result=forfeit, absent=frozenset({3})),
            TableRecord(2, 1, (0, 1), TableState.DUE, thread_id=77),
        ),
        byes=(Bye(2, 2, 2),),
        current_round=2,
        started_at=AT,
    )


async def test_a_tournament_round_trips_whole_and_checks_its_version(db: Database) -> None:
    tournament = await created(db)
    assert tournament.status is TournamentStatus.SIGNUP and tournament.options == OPTIONS
    assert tournament.created_at == AT and tournament.entrants == () and tournament.version == 0
    changed = running(tournament)
    async with db.transaction() as tx:
        saved = await store.save(tx, changed)
    assert saved.version == 1
    loaded = await store.load(db, tournament.id)
    assert loaded == saved
    assert loaded.standings() == changed.standings()
    # A save from the version loaded before is refused, and changes nothing.
    with pytest.raises(store.TournamentConflict):
        async with db.transaction() as tx:
            await store.save(tx, dataclasses.replace(changed, current_round=3))
    assert await store.load(db, tournament.id) == saved
    # Parts removed are gone (a save writes them anew).
    async with db.transaction() as tx:
        fewer = await store.save(tx, dataclasses.replace(saved, tables=saved.tables[:1], byes=()))
    assert await store.load(db, tournament.id) == fewer
    assert await store.load(db, 12345) is None


async def test_a_topic_runs_one_live_tournament(db: Database) -> None:
    first = await created(db)
    with pytest.raises(store.TournamentBusy):
        await created(db)
    other_topic = await created(db, thread_id=5)
    assert (await store.live_in_topic(db, GROUP.id, None)).id == first.id  # type: ignore[union-attr]
    assert (await store.live_in_topic(db, GROUP.id, 5)).id == other_topic.id  # type: ignore[union-attr]
    async with db.transaction() as tx:
        await store.save(
            tx, dataclasses.replace(first, status=TournamentStatus.FINISHED, ended_at=AT)
        )
    assert await store.live_in_topic(db, GROUP.id, None) is None
    again = await created(db)  # the topic is free again
    assert again.id not in (first.id, other_topic.id)


async def test_the_reads_of_history_stats_and_the_pickup(db: Database) -> None:
    first = await created(db)
    async with db.transaction() as tx:
        done = await store.save(
            tx,
            dataclasses.replace(running(first), status=TournamentStatus.FINISHED, ended_at=AT),
        )
    second = await created(db)
    async with db.transaction() as tx:
        live = await store.save(tx, running(second))
    third = await created(db, thread_id=9)
    async with db.transaction() as tx:
        await store.save(tx, dataclasses.replace(running(third), status=TournamentStatus.PAUSED))
    assert [t.id for t in await store.finished_of_chat(db, GROUP.id, 10)] == [done.id]
    assert await store.finished_of_chat(db, -1, 10) == []
    assert [t.id for t in await store.finished_with_person(db, GROUP.id, MASHA.id)] == [done.id]
    assert await store.finished_with_person(db, GROUP.id, 42) == []
    # Only a running tournament's tables are offered (a paused one opens nothing).
    assert [t.id for t in await store.with_due_tables(db)] == [live.id]
    assert [t.id for t in await store.with_due_tables(db, chat_id=GROUP.id)] == [live.id]
    assert await store.with_due_tables(db, chat_id=-1) == []


async def test_a_game_names_its_tournament_table(db: Database) -> None:
    tournament = await created(db)
    ref = TableRef(tournament.id, 2, 1)
    async with db.transaction() as tx:
        await repo.upsert_chat(tx, GROUP)
        await repo.upsert_user(tx, MASHA)
        game = await repo.create_game(
            tx,
            chat_id=GROUP.id,
            creator_id=MASHA.id,
            ruleset=KOZEL,
            seats_wanted=2,
            thread_id=77,
            tournament=ref,
        )
        plain = await repo.create_game(
            tx, chat_id=GROUP.id, creator_id=MASHA.id, ruleset=KOZEL, seats_wanted=2
        )
    assert game.tournament == ref
    loaded = await repo.load_game(db, game.id)
    assert loaded is not None and loaded.tournament == ref
    async with db.transaction() as tx:
        saved = await repo.save_game(tx, loaded)
    assert saved.tournament == ref and (await repo.load_game(db, game.id)).tournament == ref  # type: ignore[union-attr]
    assert plain.tournament is None


async def test_a_group_turned_supergroup_takes_its_tournaments(db: Database) -> None:
    async with db.transaction() as tx:
        await repo.upsert_chat(tx, GROUP)
    tournament = await created(db)
    async with db.transaction() as tx:
        await repo.move_chat(tx, GROUP.id, GROUP.id - 1)
    moved = await store.load(db, tournament.id)
    assert moved is not None and moved.chat_id == GROUP.id - 1
    assert (await store.live_in_topic(db, GROUP.id - 1, None)) == moved
