"""Repositories against a real temporary database file: games, seats, messages, outbox."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from domino.match import FORMAT_VERSION, Match
from domino.rules import KOZEL
from storage import repo
from storage.connect import open_database
from storage.db import INTEGRITY_ERRORS, Database
from storage.records import (
    Abandonment,
    ChatRecord,
    Ending,
    GameRecord,
    GameStatus,
    MessageRecord,
    Role,
    SeatRecord,
    UserRecord,
)

STORED_MATCHES = Path(__file__).parent.parent / "domino" / "stored"
GROUP = ChatRecord(id=-1001, type="supergroup", title="Дворик")
MASHA = UserRecord(id=1, first_name="Маша", language="ru")
OLEG = UserRecord(id=2, first_name="Олег", username="oleg", language="en")


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "bot.sqlite3")
    async with database.transaction() as tx:
        await repo.upsert_chat(tx, GROUP)
        await repo.upsert_chat(tx, dataclasses.replace(GROUP, id=-1002))
        await repo.upsert_user(tx, MASHA, can_message=True)
        await repo.upsert_user(tx, OLEG)
    yield database
    await database.close()


async def test_users_keep_can_message_unless_told(db: Database) -> None:
    async with db.transaction() as tx:
        await repo.upsert_user(tx, dataclasses.replace(MASHA, first_name="Мария"))
    user = await repo.get_user(db, MASHA.id)
    assert user is not None and user.first_name == "Мария" and user.can_message
    async with db.transaction() as tx:
        await repo.set_can_message(tx, MASHA.id, False)
    user = await repo.get_user(db, MASHA.id)
    assert user is not None and not user.can_message


async def test_a_game_round_trips_with_its_match_and_seats(db: Database) -> None:
    async with db.transaction() as tx:
        game = await repo.create_game(
            tx,
            chat_id=GROUP.id,
            creator_id=MASHA.id,
            ruleset=KOZEL,
            seats_wanted=2,
            seats=[SeatRecord(0, MASHA.id, "Маша")],
        )
    assert game.status is GameStatus.LOBBY and game.version == 0
    match = Match.new(KOZEL, 2, seed=7)
    started = dataclasses.replace(
        game,
        status=GameStatus.PLAYING,
        match=match,
        seats=(*game.seats, SeatRecord(1, None, "Компьютер")),
    )
    async with db.transaction() as tx:
        saved = await repo.save_game(tx, started)
    assert saved.version == 1
    loaded = await repo.load_game(db, game.id)
    assert loaded is not None
    assert loaded.match == match
    assert loaded.seats == (SeatRecord(0, MASHA.id, "Маша"), SeatRecord(1, None, "Компьютер"))
    assert loaded.seat_of(MASHA.id) == SeatRecord(0, MASHA.id, "Маша")
    assert (await repo.active_game_in_chat(db, GROUP.id)) == loaded
    assert (await repo.active_game_of_user(db, MASHA.id)) == loaded
    assert [g.id for g in await repo.active_games(db)] == [game.id]


async def test_how_a_game_ended_round_trips(db: Database) -> None:
    async with db.transaction() as tx:
        game = await repo.create_game(
            tx, chat_id=GROUP.id, creator_id=MASHA.id, ruleset=KOZEL, seats_wanted=2
        )
    abandonment = Abandonment(seat=1, reason=Ending.TIMEOUT, points=(30, 32))
    ended = dataclasses.replace(
        game, status=GameStatus.FINISHED, ending=Ending.FINISHED, abandonment=abandonment
    )
    async with db.transaction() as tx:
        await repo.save_game(tx, ended)
    loaded = await repo.load_game(db, game.id)
    assert loaded is not None
    assert loaded.ending is Ending.FINISHED and loaded.abandonment == abandonment


async def test_one_active_game_per_chat(db: Database) -> None:
    async with db.transaction() as tx:
        await repo.create_game(
            tx, chat_id=GROUP.id, creator_id=MASHA.id, ruleset=KOZEL, seats_wanted=4
        )
    with pytest.raises(repo.ChatBusy):
        async with db.transaction() as tx:
            await repo.create_game(
                tx, chat_id=GROUP.id, creator_id=OLEG.id, ruleset=KOZEL, seats_wanted=4
            )


async def test_one_active_game_per_forum_topic(db: Database) -> None:
    """Two topics of one forum run a game each; a topic (General too) runs one at a time;
    a person still plays in one game at a time, whatever the topic."""

    async def lobby(thread_id: int | None, creator: UserRecord, *seated: UserRecord) -> GameRecord:
        async with db.transaction() as tx:
            return await repo.create_game(
                tx,
                chat_id=GROUP.id,
                creator_id=creator.id,
                ruleset=KOZEL,
                seats_wanted=2,
                seats=[SeatRecord(n, u.id, u.first_name) for n, u in enumerate(seated)],
                thread_id=thread_id,
            )

    first = await lobby(7, MASHA, MASHA)
    second = await lobby(9, OLEG)
    general = await lobby(None, OLEG)
    assert (first.thread_id, second.thread_id, general.thread_id) == (7, 9, None)
    for thread_id in (7, 9, None):
        with pytest.raises(repo.ChatBusy):
            await lobby(thread_id, OLEG)
    with pytest.raises(repo.PlayerBusy):
        await lobby(11, MASHA, MASHA)
    assert await repo.active_game_in_chat(db, GROUP.id, 7) == first
    assert await repo.active_game_in_chat(db, GROUP.id, 9) == second
    assert await repo.active_game_in_chat(db, GROUP.id) == general
    assert await repo.active_game_in_chat(db, GROUP.id, 11) is None
    assert [g.id for g in await repo.active_games_in_chat(db, GROUP.id)] == [
        first.id,
        second.id,
        general.id,
    ]
    async with db.transaction() as tx:
        await repo.save_game(tx, first.ended(GameStatus.CANCELLED, datetime.now(UTC)))
    again = await lobby(7, MASHA, MASHA)  # the topic and the person are free again
    assert (await repo.load_game(db, again.id)) == again


async def test_one_active_game_per_person_and_free_again_after_the_end(db: Database) -> None:
    async with db.transaction() as tx:
        first = await repo.create_game(
            tx,
            chat_id=GROUP.id,
            creator_id=MASHA.id,
            ruleset=KOZEL,
            seats_wanted=2,
            seats=[SeatRecord(0, MASHA.id, "Маша")],
        )
    with pytest.raises(repo.PlayerBusy) as busy:
        async with db.transaction() as tx:
            await repo.create_game(
                tx,
                chat_id=-1002,
                creator_id=MASHA.id,
                ruleset=KOZEL,
                seats_wanted=2,
                seats=[SeatRecord(0, MASHA.id, "Маша")],
            )
    assert busy.value.user_id == MASHA.id
    assert await repo.active_game_in_chat(db, -1002) is None  # rolled back whole

    async with db.transaction() as tx:
        await repo.save_game(tx, dataclasses.replace(first, status=GameStatus.CANCELLED))
    assert await repo.active_game_of_user(db, MASHA.id) is None
    async with db.transaction() as tx:
        await repo.create_game(
            tx,
            chat_id=-1002,
            creator_id=MASHA.id,
            ruleset=KOZEL,
            seats_wanted=2,
            seats=[SeatRecord(0, MASHA.id, "Маша")],
        )


async def test_saving_an_outdated_record_is_a_version_conflict(db: Database) -> None:
    async with db.transaction() as tx:
        game = await repo.create_game(
            tx, chat_id=GROUP.id, creator_id=MASHA.id, ruleset=KOZEL, seats_wanted=2
        )
    async with db.transaction() as tx:
        await repo.save_game(tx, dataclasses.replace(game, seats_wanted=3))
    with pytest.raises(repo.VersionConflict):
        async with db.transaction() as tx:
            await repo.save_game(tx, dataclasses.replace(game, seats_wanted=4))
    loaded = await repo.load_game(db, game.id)
    assert loaded is not None and loaded.seats_wanted == 3 and loaded.version == 1


async def test_a_game_saved_with_a_match_in_format_1_loads(db: Database) -> None:
    """A running game stored in format 1 (each round's state stored as well) keeps its
    match; the next save writes it in the current format."""
    old = (STORED_MATCHES / "kozel2_mid_round_v1.json").read_text()
    async with db.transaction() as tx:
        game = await repo.create_game(
            tx, chat_id=GROUP.id, creator_id=MASHA.id, ruleset=KOZEL, seats_wanted=2
        )
        await tx.execute(
            "UPDATE games SET status = 'playing', match = ? WHERE id = ?", (old, game.id)
        )
    loaded = await repo.load_game(db, game.id)
    assert loaded is not None and loaded.match == Match.from_json(old)
    assert loaded.match.round_no == 3 and not loaded.match.over
    async with db.transaction() as tx:
        await repo.save_game(tx, loaded)
    stored = await db.fetch_one("SELECT match FROM games WHERE id = ?", (game.id,))
    assert stored is not None and json.loads(stored["match"])["version"] == FORMAT_VERSION
    again = await repo.load_game(db, game.id)
    assert again is not None and again.match == loaded.match


async def test_messages_are_kept_apart_from_the_game_version(db: Database) -> None:
    async with db.transaction() as tx:
        game = await repo.create_game(
            tx, chat_id=GROUP.id, creator_id=MASHA.id, ruleset=KOZEL, seats_wanted=2
        )
        await repo.put_message(tx, MessageRecord(game.id, Role.TABLE, -1, GROUP.id, 10, "F1", "a"))
        await repo.put_message(tx, MessageRecord(game.id, Role.HAND, 0, MASHA.id, 11))
        await repo.put_message(tx, MessageRecord(game.id, Role.TABLE, -1, GROUP.id, 10, "F2", "b"))
    messages = await repo.game_messages(db, game.id)
    assert messages[(Role.TABLE, -1)].file_id == "F2"
    assert messages[(Role.HAND, 0)].message_id == 11
    loaded = await repo.load_game(db, game.id)
    assert loaded is not None and loaded.version == 0
    async with db.transaction() as tx:
        await repo.forget_message(tx, game.id, Role.HAND, 0)
    assert (Role.HAND, 0) not in await repo.game_messages(db, game.id)


async def test_the_outbox_keeps_what_is_owed_until_marked_sent(db: Database) -> None:
    async with db.transaction() as tx:
        first = await repo.enqueue(
            tx, game_id=None, chat_id=GROUP.id, kind="notice", payload={"text": "🐟 Рыба!"}
        )
        await repo.enqueue(
            tx, game_id=None, chat_id=GROUP.id, kind="notice", payload={"text": "🐐"}
        )
    pending = await repo.pending_outbox(db)
    assert [item.payload["text"] for item in pending] == ["🐟 Рыба!", "🐐"]
    async with db.transaction() as tx:
        await repo.mark_sent(tx, first)
    assert [item.payload["text"] for item in await repo.pending_outbox(db)] == ["🐐"]


async def test_a_lobby_keeps_its_join_token_and_deadline_and_is_found_by_the_token(
    db: Database,
) -> None:
    """Deep links name a secret token, never the game's guessable number (migration 006)."""
    deadline = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
    async with db.transaction() as tx:
        game = await repo.create_game(
            tx,
            chat_id=GROUP.id,
            creator_id=MASHA.id,
            ruleset=KOZEL,
            seats_wanted=2,
            join_token="AbCdEfGh_-123456",
            lobby_deadline=deadline,
        )
        older = await repo.create_game(
            tx, chat_id=-1002, creator_id=OLEG.id, ruleset=KOZEL, seats_wanted=2
        )
    assert game.join_token == "AbCdEfGh_-123456" and game.lobby_deadline == deadline
    assert older.join_token is None and older.lobby_deadline is None
    found = await repo.game_by_join_token(db, "AbCdEfGh_-123456")
    assert found is not None and found.id == game.id
    assert await repo.game_by_join_token(db, "AbCdEfGh_-123457") is None
    saved = await _save(db, dataclasses.replace(game, status=GameStatus.CANCELLED))
    assert saved.join_token == game.join_token and saved.lobby_deadline == deadline
    with pytest.raises(INTEGRITY_ERRORS):
        async with db.transaction() as tx:
            await repo.create_game(
                tx,
                chat_id=GROUP.id,
                creator_id=MASHA.id,
                ruleset=KOZEL,
                seats_wanted=2,
                join_token="AbCdEfGh_-123456",
            )


async def _save(db: Database, game: GameRecord) -> GameRecord:
    async with db.transaction() as tx:
        await repo.save_game(tx, game)
    loaded = await repo.load_game(db, game.id)
    assert loaded is not None
    return loaded
