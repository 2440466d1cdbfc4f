"""The keepers' thread (bot.server.keeper_thread) at the start: a database that does not
answer the keeper fails the start after the patience of the bot's own start, in the one
line the bot's own connection would have given, for the leader's keeper and the shards'
alike, on a thread of its own or a task; one that answers at a later try starts."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.server import keeper_thread
from bot.server.config import Settings
from bot.server.leadership import Leadership
from bot.server.shards import ShardKeeper
from bot.server.start import lead
from bot.server.start_failures import START_PAUSES, START_TRIES, why_start_failed
from storage import leases, shards
from storage.connect import open_database
from storage.db import Database, DatabaseBusy, DatabaseUnusable

REFUSED = "cannot connect to the database postgresql://domino@db:5432/domino: refused"


class Opener:
    """The keeper's `open_keeper_db`: refuses the first `refusals` connections (as a
    server that is down), then opens the database at `path`."""

    def __init__(self, path: Path, refusals: int) -> None:
        self.path = path
        self.refusals = refusals
        self.tries = 0

    async def __call__(self) -> Database:
        self.tries += 1
        if self.tries <= self.refusals:
            raise DatabaseUnusable(REFUSED)
        return await open_database(self.path, side=True)


class Pauses:
    """The keepers' `sleep`, on whichever loop: each pause noted, none waited."""

    def __init__(self) -> None:
        self.seconds: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.seconds.append(seconds)
        await asyncio.sleep(0)


class Keeper:
    """Either keeper, as the bot's start drives it: `start` and `stop`."""

    def __init__(self, kind: str, db: Database, opener: Opener, thread: bool) -> None:
        self.pauses = Pauses()
        self.lost: list[str] = []
        open_keeper_db: Callable[[], Awaitable[Database]] = opener
        self.leadership: Leadership | None = None
        self.shards: ShardKeeper | None = None
        if kind == "leader":
            self.leadership = Leadership(
                db,
                "a",
                open_keeper_db=open_keeper_db,
                thread=thread,
                sleep=self.pauses,
                on_lost=lambda: self.lost.append("leader"),
            )
        else:
            self.shards = ShardKeeper(
                "a",
                open_keeper_db=open_keeper_db,
                on_gained=lambda shard, term: None,
                on_lost=lambda shard: self.lost.append(f"shard {shard}"),
                on_release_asked=lambda shard: None,
                on_evicted=lambda: self.lost.append("instance"),
                count=4,
                thread=thread,
                sleep=self.pauses,
            )

    async def start(self) -> None:
        if self.leadership is not None:
            await lead(self.leadership)  # as the bot's start waits for the lease
        else:
            assert self.shards is not None
            await self.shards.start()

    async def stop(self) -> None:
        if self.leadership is not None:
            await self.leadership.release()
        else:
            assert self.shards is not None
            await self.shards.close()


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "keeper.sqlite3"


@pytest.fixture
async def db(path: Path) -> AsyncIterator[Database]:
    database = await open_database(path)
    yield database
    await database.close()


@pytest.fixture
def settings(monkeypatch: pytest.MonkeyPatch, path: Path) -> Settings:
    monkeypatch.setenv("BOT_TOKEN", "1:x")
    monkeypatch.setenv("DATABASE_PATH", str(path))
    return Settings()  # type: ignore[call-arg]  # filled from the environment


KINDS = pytest.mark.parametrize("kind", ["leader", "shards"])
MODES = pytest.mark.parametrize("thread", [False, True], ids=["task", "thread"])


@KINDS
@MODES
async def test_a_database_that_refuses_the_keeper_fails_the_start_in_one_line(
    kind: str, thread: bool, db: Database, path: Path, settings: Settings
) -> None:
    opener = Opener(path, refusals=START_TRIES)
    keeper = Keeper(kind, db, opener, thread)
    with pytest.raises(DatabaseUnusable) as failed:
        async with asyncio.timeout(10):
            await keeper.start()
    await keeper.stop()
    assert opener.tries == START_TRIES
    assert keeper.pauses.seconds == list(START_PAUSES[: START_TRIES - 1])
    # The line of a bot whose own connection is refused (`bot.server.main`).
    assert why_start_failed(failed.value, settings) == REFUSED
    assert keeper.lost == []  # nothing was held: nothing to lose


@KINDS
async def test_a_database_that_never_answers_the_first_take_fails_the_start(
    kind: str,
    db: Database,
    path: Path,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The connection opens, the lease's first take hangs: each try is given up after
    `START_TIMEOUT`, and the start fails saying what got no answer."""
    monkeypatch.setattr(keeper_thread, "START_TIMEOUT", 0.05)
    asked = 0

    async def hanging(*args: object, **kwargs: object) -> int:
        nonlocal asked
        asked += 1
        await asyncio.Event().wait()
        raise AssertionError("never answered")

    monkeypatch.setattr(leases, "take", hanging)
    monkeypatch.setattr(shards, "take_instance", hanging)
    keeper = Keeper(kind, db, Opener(path, refusals=0), thread=False)
    with pytest.raises(DatabaseBusy) as failed:
        await keeper.start()
    await keeper.stop()
    assert asked == START_TRIES
    what = "asking for the lease" if kind == "leader" else "taking the instance's lease"
    assert why_start_failed(failed.value, settings) == (
        f"the database {path} failed: {what}: no answer in 0.05 s ({START_TRIES} tries)"
    )


@KINDS
async def test_a_database_that_answers_at_the_last_try_starts_the_keeper(
    kind: str, db: Database, path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    opener = Opener(path, refusals=START_TRIES - 1)
    keeper = Keeper(kind, db, opener, thread=False)
    with caplog.at_level(logging.WARNING, logger=keeper_thread.__name__):
        await keeper.start()
    try:
        assert opener.tries == START_TRIES
        if keeper.leadership is not None:
            assert keeper.leadership.leading
        else:
            assert keeper.shards is not None and keeper.shards.instance_fence() is not None
        tried_again = [r.getMessage() for r in caplog.records]
        owner = "the lease's" if kind == "leader" else "the shards'"
        expected = f"opening {owner} connection failed ({REFUSED}): tried again"
        assert tried_again == [expected] * (START_TRIES - 1)
    finally:
        await keeper.stop()
    assert keeper.lost == []
