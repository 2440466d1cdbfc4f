"""The bot's database: the interface (`Database`, `Transaction`) and its SQLite side,
one database through one aiosqlite connection (STYLE 9). PostgreSQL's side, for
admins who run several instances, is `storage.postgres`; `storage.connect.open_database`
opens either, by the location.

SQLite:

WAL journal, `foreign_keys=ON`, and two ways to change data, both `BEGIN IMMEDIATE`
... `COMMIT` (or `ROLLBACK` on any exception), so a writer never waits half-way
through and two writers never interleave:

- `await db.atomic(body)`: the whole transaction, `body(tx)` included, runs as one
  function on the database's thread: one hop there and back, however many statements.
  `body` is an ordinary `async def` over the same `Transaction` API, but every
  statement completes at once (`InlineTransaction`), so it must await nothing else (no
  network, no sleep): `_drive` refuses a body that suspends. Moves, timeouts and
  computers' moves go this way; no lock is held while it runs, since the thread itself
  runs one function at a time.
- `await db.read(body)`: the same for a body that only reads (a game and its seats), one
  hop, in a read transaction of its own on the reader (below).
- `async with db.transaction() as tx:` for the rare changes written as a block (the
  lobby, votes, settings, migrations): each statement is a hop, and an asyncio lock
  keeps every other use of the connection out until its COMMIT. `atomic` and the
  single statements (`execute`, `fetch_one`, `fetch_all`, one hop each) wait for such
  a block to end, never hold the lock themselves.

Reads do not queue behind writes: a database opened with its checks (the bot's own, not
a side connection) has a second connection, the reader, on a thread of its own, that
`read`, `fetch_one` and `fetch_all` use. In WAL mode a reader never waits for the writer
and sees the last state committed when its read began, so a press's move is not held up
by a burst of reads for the messages, nor a read by a block transaction still open.
`read` runs its body in one read transaction (one snapshot); a single statement is one.

`WORK` counts statements, transactions and hops, `TIMING` their time (read by `bot.infra.perf`).

Fencing (several instances, `bot.server.leadership`): while `Database.fence` is set, every change
(`atomic`, `transaction()`, `execute`) reads the lease's term inside its own transaction,
just before COMMIT, and commits only if it is still the term this process acts under.
Otherwise the transaction is rolled back, the fence's `deposed` is called (it stops the
process) and `Deposed` is raised: an instance that was paused past its lease while
another took over changes nothing after it resumes. On PostgreSQL the check locks the
lease's row `FOR SHARE` until COMMIT, so a takeover waits for a change already checked
and a change not yet checked sees the takeover: the two never overlap. The check also
bounds how long that transaction may then stay idle (`Fence.hold`): a process paused
between its check and its COMMIT loses its session, not the deployment its leader.
Reads are not
fenced. `Transaction.after_commit` runs a hook (a log line) only once the change is in.

The scope of a unit of work (`acting_for`, several instances that all play): the fence
may depend on what is changed (the lease "shard:<n>" of the game's chat), so it can be
given for a context instead of for the process: every change begun in `with
acting_for(fence=...)` (and in the tasks created inside it, which inherit the context)
checks that fence instead of `Database.fence`. The same scope may name the Telegram
update being handled (`update_id`): the first change committed in it also deletes that
update's row of `update_queue`, in its own transaction just after the fence's check,
so the update is done exactly when its change is kept; a row already gone (another
handling committed first) rolls the change back and raises `AlreadyHandled`.

Migrations are numbered SQL files in `storage/migrations/` (`001_initial.sql`, ...).
Each runs in its own transaction together with `PRAGMA user_version = N`, so the
schema version and the schema can never disagree (mopidy-local does the same).

Faults:
- `open_database` refuses a database it cannot use (not a database, damaged, in a
  read-only folder, newer than the code) with `DatabaseUnusable`, whose text is one
  line for the admin, and leaves no connection (no thread) behind.
- Another process holding the write lock, a full disk or an I/O error make a
  transaction fail with an `sqlite3.OperationalError` that `is_transient` recognises;
  the transaction is rolled back, nothing of it is kept. The first such failure of a
  burst is logged as one WARNING line, the first success after it as one INFO line.
  While another process is known to hold the lock, a transaction waits for it only
  `HELD_WAIT` instead of `BUSY_WAIT`, so a queue of presses is answered "press
  again" at once instead of one `BUSY_WAIT` after another.
- Work nobody presses again (a computer's move, a turn's timeout, a vote's expiry)
  runs through `retrying`, which repeats it with backoff until it succeeds.
- The folder is created 0700 and the database file 0600; SQLite gives its `-wal`
  and `-shm` files the database file's mode. An existing file open to others is
  made private when the bot opens it.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import re
import sqlite3
import stat
import time
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar

import aiosqlite

log = logging.getLogger(__name__)
T = TypeVar("T")

MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")
# Seconds SQLite waits for another process's write lock: long enough for a backup's
# step or an admin's quick query, short enough that a press is answered in time.
BUSY_WAIT = 5.0
# ... and while the lock is known to be held: a press is told "press again" at once.
HELD_WAIT = 0.1
# SQLite's primary result codes (the low byte of an extended code) that describe the
# moment, not the data: the lock held by another process, a full disk, an I/O error.
SQLITE_BUSY, SQLITE_LOCKED, SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_FULL = 5, 6, 10, 11, 13
LOCK_CODES = frozenset({SQLITE_BUSY, SQLITE_LOCKED})
TRANSIENT_CODES = LOCK_CODES | {SQLITE_IOERR, SQLITE_FULL}
PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700

# What the database did since the start: "statements" (BEGIN and COMMIT not
# counted), "transactions" (committed or not), "hops" (functions run on its thread).
WORK: Counter[str] = Counter()
# And how long it took (for /metrics): "hop_us", the time the loop waited for
# those hops in all, in µs.
TIMING: Counter[str] = Counter()


class DatabaseUnusable(RuntimeError):
    """The database cannot be opened, checked or migrated; the text is one line saying
    which file and why, for the admin."""


class DatabaseError(Exception):
    """A failure of a database other than SQLite (`storage.postgres`), in terms the
    callers share; SQLite's own errors are `sqlite3.Error`s. See `DATABASE_ERRORS`."""


class DatabaseBusy(DatabaseError):
    """The database cannot take the work for the moment (the connection lost, a deadlock
    broken, the server restarting, its disk full); the transaction was rolled back and
    the same work may succeed when tried again (`is_transient`)."""


class IntegrityViolation(DatabaseError):
    """A constraint refused a change; the text names the constraint and the key (as
    SQLite's "UNIQUE constraint failed: games.chat_id" does), for the callers that
    explain it (`storage.repo.ChatBusy`, ...)."""


class Deposed(Exception):
    """A change refused by the fence: the lease `lease` is no longer in `term` (another
    instance took it, now in `current`); nothing of the transaction was kept. Not a
    `DatabaseError`: it is never worth trying again, the process stops."""

    def __init__(self, lease: str, term: int, current: int | None) -> None:
        super().__init__(
            f"the lease {lease!r} is in term {current}, not this instance's {term}: "
            "the change is refused"
        )
        self.lease = lease
        self.term = term
        self.current = current


@dataclass(frozen=True, slots=True)
class Fence:
    """The lease term this process acts under (see the module's docstring): `deposed` is
    called, after the refused transaction was rolled back, when another term has begun."""

    lease: str
    term: int
    deposed: Callable[[Deposed], None]
    # Seconds a checked transaction may then sit idle before its COMMIT (PostgreSQL ends
    # the session past it): a process paused in that moment must not hold the lease's
    # row, or the takeover would wait for it until it resumes. None: no bound.
    hold: float | None = None


# The fence's read of the current term; PostgreSQL's holds the row until COMMIT.
FENCE_SQL = "SELECT term FROM leases WHERE name = ?"
# The consumption of the update a change was made for (`acting_for`): its row goes in the
# change's own transaction.
CONSUME_SQL = "DELETE FROM update_queue WHERE update_id = ?"


class AlreadyHandled(Exception):
    """A change made for the Telegram update `update_id` found the update's row gone from
    `update_queue`: another handling of it (by the shard's previous owner during a
    takeover, or a second one in this process) committed first. Nothing of the
    transaction was kept. Not a `DatabaseError`: trying again would find the same."""

    def __init__(self, update_id: int) -> None:
        super().__init__(f"the update {update_id} was handled already: the change is refused")
        self.update_id = update_id


@dataclass(slots=True, eq=False)
class Acting:
    """What the changes begun in one context act for (`acting_for`): the fence they check
    (None: `Database.fence`), and the update whose row the first change committed also
    deletes (None: no update). `consumed` says whether that was done; the databases set
    it when a change takes the update (`claim`) and give it back (`give_back`) when that
    change is rolled back, so the next change of the scope tries again. The changes of
    one scope are meant to run one after another (one handling, and the work it starts);
    two committing at the same moment would not both consume the update, and should the
    one that took it fail, the other's change is kept while the update stays queued."""

    fence: Fence | None = None
    update_id: int | None = None
    consumed: bool = False

    def claim(self) -> int | None:
        """The update this change is to consume: its id, if no other change took it."""
        if self.update_id is None or self.consumed:
            return None
        self.consumed = True
        return self.update_id

    def give_back(self, claimed: int | None) -> None:
        """The change that `claim`ed `claimed` (None: nothing) was not committed."""
        if claimed is not None:
            self.consumed = False


_ACTING: contextvars.ContextVar[Acting | None] = contextvars.ContextVar("acting", default=None)


@contextmanager
def acting_for(*, fence: Fence | None = None, update_id: int | None = None) -> Iterator[Acting]:
    """Within this block (and in the tasks created in it), every change checks `fence`
    (when given; else `Database.fence`), and the first one committed consumes the queued
    update `update_id` (see the module's docstring). A scope opened inside another
    replaces it. The `Acting` yielded tells whether the update was consumed; one whose
    handling changed nothing is `storage.update_queue.done` before the block ends (so a
    task started in it that changes something later does not find the row gone). Work
    meant to outlive the handling is better started in a scope without the update."""
    scope = Acting(fence, update_id)
    token = _ACTING.set(scope)
    try:
        yield scope
    finally:
        _ACTING.reset(token)


def current_scope() -> Acting | None:
    """The scope the current context acts in (`acting_for`), if any."""
    return _ACTING.get()


def fence_refusal(fence: Fence, current: object) -> Deposed | None:
    """The refusal when the stored term `current` (a row's value, or None without a row)
    is not the fence's, else None."""
    term = None if current is None else int(current)  # type: ignore[call-overload]
    return None if term == fence.term else Deposed(fence.lease, fence.term, term)


@contextmanager
def deposing(fence: Fence | None) -> Iterator[None]:
    """Around a change: a refusal by the fence (rolled back by then) is told to the
    fence's `deposed` before it is raised."""
    try:
        yield
    except Deposed as exc:
        if fence is not None:
            fence.deposed(exc)
        raise


# What any database raises when it fails: catch these, not one driver's errors.
DATABASE_ERRORS: tuple[type[Exception], ...] = (sqlite3.Error, DatabaseError)
INTEGRITY_ERRORS: tuple[type[Exception], ...] = (sqlite3.IntegrityError, IntegrityViolation)


class Row(Protocol):
    """A row as both drivers give it: by column name or position (`sqlite3.Row`,
    `asyncpg.Record`)."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def keys(self) -> Any: ...


def is_transient(error: BaseException) -> bool:
    """Whether `error` is the database failing for the moment rather than for the data:
    SQLite's write lock held by another process (`database is locked`), a full disk
    (`database or disk is full`) or an I/O error; or `DatabaseBusy`. The transaction was
    rolled back; the same work may succeed when tried again."""
    return isinstance(error, DatabaseBusy) or _primary_code(error) in TRANSIENT_CODES


def is_locked(error: BaseException) -> bool:
    """Whether `error` is another process holding the database's write lock."""
    return _primary_code(error) in LOCK_CODES


def _primary_code(error: BaseException) -> int | None:
    if not isinstance(error, sqlite3.OperationalError):
        return None
    code = getattr(error, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


@dataclass(frozen=True, slots=True)
class Backoff:
    """The pauses between tries: `first`, growing by `factor`, at most `longest` (so a
    game goes on at most `longest` seconds after the database is usable again)."""

    first: float = 0.25
    factor: float = 2.0
    longest: float = 5.0

    def pauses(self) -> Iterator[float]:
        pause = self.first
        while True:
            yield pause
            pause = min(self.longest, pause * self.factor)


async def retrying(
    work: Callable[[], Awaitable[T]],
    *,
    log_as: str,
    still_wanted: Callable[[], bool] = lambda: True,
    backoff: Backoff = Backoff(),
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> T | None:
    """Run `work()` until it completes without a transient database error; its result.

    For work that nobody will ask for again: a computer's move, a turn's timeout, a
    vote's expiry. `work` must be one whole unit (its own transaction): a failed try
    left nothing behind. Each burst of failures is logged once as a WARNING, `log_as`
    saying what waits ("chat 5 game 7: computer move"), and its end as INFO. Before
    each new try `still_wanted()` is asked; when it says no (the bot is stopping),
    nothing more is tried and the result is None. Any other error is raised at once.
    """
    began = time.monotonic()
    pauses = backoff.pauses()
    tries = 0
    while True:
        tries += 1
        try:
            result = await work()
        except DATABASE_ERRORS as exc:
            if not is_transient(exc):
                raise
            if tries == 1:
                log.warning("%s: %s; tried again until the database takes it", log_as, exc)
        else:
            if tries > 1:
                log.info(
                    "%s: done at try %d, %.1f s after the first",
                    log_as,
                    tries,
                    time.monotonic() - began,
                )
            return result
        await sleep(next(pauses))
        if not still_wanted():
            log.info("%s: no longer wanted after %d tries; left undone", log_as, tries)
            return None


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def bundled_migrations() -> tuple[Migration, ...]:
    """The migrations shipped in `storage/migrations/`, in version order."""
    found = []
    for entry in resources.files("storage.migrations").iterdir():
        match = MIGRATION_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise RuntimeError(f"migration {migration.name} breaks the numbering at {expected}")
    return tuple(found)


class Transaction(ABC):
    """The handle inside a transaction (and inside `Database.read`): run statements, read
    rows. `locks_rows` says whether reading a game for a change should lock its row
    (`SELECT ... FOR UPDATE`): PostgreSQL's transactions do, so that the moves of one game
    stay serial across connections and instances; SQLite's need not, as its writers
    never overlap (BEGIN IMMEDIATE)."""

    locks_rows: bool = False
    _after: list[Callable[[], None]] | None = None

    def after_commit(self, hook: Callable[[], None]) -> None:
        """Run `hook()` once the transaction has committed (never if it is rolled back):
        a log line that must not tell of a change that was not kept."""
        if self._after is None:
            self._after = []
        self._after.append(hook)

    def committed(self) -> None:
        """Called by the database once the COMMIT is done: the hooks, in order."""
        for hook in self._after or ():
            try:
                hook()
            except Exception:
                log.exception("a hook after a commit failed")

    @abstractmethod
    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one statement; return the number of rows it changed."""

    @abstractmethod
    async def execute_many(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        """Run one statement for each row of parameters."""

    @abstractmethod
    async def insert(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run an INSERT into a table with an `id` key; return the new row's id."""

    @abstractmethod
    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None: ...

    @abstractmethod
    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]: ...


class HopTransaction(Transaction):
    """SQLite's handle inside `Database.transaction()`: each statement one hop."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        return await self._hop(_execute, sql, tuple(params))

    async def execute_many(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        """All the rows in one call to SQLite."""
        await self._hop(_execute_many, sql, [tuple(row) for row in rows])

    async def insert(self, sql: str, params: Iterable[Any] = ()) -> int:
        return await self._hop(_insert, sql, tuple(params))

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        row: Row | None = await self._hop(_fetch_one, sql, tuple(params))
        return row

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return await self._hop(_fetch_all, sql, tuple(params))

    async def _hop(self, work: Callable[..., T], *args: Any) -> T:
        return await _hop(self._conn, work, *args)


class InlineTransaction(Transaction):
    """The handle inside `Database.atomic`: the same API, run on the database's thread
    as the body calls it, so every await completes at once."""

    def __init__(self, raw: sqlite3.Connection) -> None:
        self._raw = raw

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        return _execute(self._raw, sql, tuple(params))

    async def execute_many(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        _execute_many(self._raw, sql, [tuple(row) for row in rows])

    async def insert(self, sql: str, params: Iterable[Any] = ()) -> int:
        return _insert(self._raw, sql, tuple(params))

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        row: Row | None = _fetch_one(self._raw, sql, tuple(params))
        return row

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return _fetch_all(self._raw, sql, tuple(params))


async def _hop(conn: aiosqlite.Connection, work: Callable[..., T], *args: Any) -> T:
    """`work(raw sqlite3 connection, *args)` run on the connection's thread: one hop
    (aiosqlite's own queue; its public methods make one hop per call as well)."""
    WORK["hops"] += 1
    began = time.perf_counter()
    try:
        result: T = await conn._execute(lambda: work(conn._conn, *args))  # type: ignore[no-untyped-call]
    finally:
        TIMING["hop_us"] += round((time.perf_counter() - began) * 1e6)
    return result


# The statements themselves, as run on the database's thread.


def _execute(raw: sqlite3.Connection, sql: str, params: tuple[Any, ...]) -> int:
    WORK["statements"] += 1
    cursor = raw.execute(sql, params)
    changed = cursor.rowcount
    cursor.close()
    return changed


def _execute_many(raw: sqlite3.Connection, sql: str, rows: list[tuple[Any, ...]]) -> None:
    WORK["statements"] += 1
    raw.executemany(sql, rows).close()


def _insert(raw: sqlite3.Connection, sql: str, params: tuple[Any, ...]) -> int:
    WORK["statements"] += 1
    cursor = raw.execute(sql, params)
    row_id = cursor.lastrowid
    cursor.close()
    if row_id is None:
        raise RuntimeError("INSERT produced no row id")
    return row_id


def _fetch_one(raw: sqlite3.Connection, sql: str, params: tuple[Any, ...]) -> Any:
    WORK["statements"] += 1
    cursor = raw.execute(sql, params)
    row = cursor.fetchone()
    cursor.close()
    return row


def _fetch_all(raw: sqlite3.Connection, sql: str, params: tuple[Any, ...]) -> list[Any]:
    WORK["statements"] += 1
    cursor = raw.execute(sql, params)
    rows = cursor.fetchall()
    cursor.close()
    return list(rows)


def _drive(body: Coroutine[Any, Any, T]) -> T:
    """Run a transaction's body to its end on this (the database's) thread. Its awaits
    are `InlineTransaction`'s, which never suspend; one that does is a mistake."""
    try:
        body.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    body.close()
    raise RuntimeError("a body run by Database.atomic awaited something other than its handle")


def _begin(raw: sqlite3.Connection) -> None:
    """BEGIN IMMEDIATE, after rolling back what a failed ROLLBACK left open."""
    if raw.in_transaction:
        raw.execute("ROLLBACK")
    raw.execute("BEGIN IMMEDIATE")


def _roll_back(raw: sqlite3.Connection) -> None:
    """ROLLBACK, unless SQLite already rolled back by itself (after SQLITE_FULL, an I/O
    error or a failed COMMIT), where a second ROLLBACK would hide the first error; a
    ROLLBACK that fails is logged and tried again before the next transaction."""
    if not raw.in_transaction:
        return
    try:
        raw.execute("ROLLBACK")
    except sqlite3.Error as exc:
        log.warning("ROLLBACK failed (%s); it is tried again before the next transaction", exc)


def _check_fence(raw: sqlite3.Connection, fence: Fence | None) -> None:
    """Raise `Deposed` when the lease is no longer in the fence's term (inside the
    transaction, before its COMMIT)."""
    if fence is None:
        return
    row = _fetch_one(raw, FENCE_SQL, (fence.lease,))
    refusal = fence_refusal(fence, None if row is None else row[0])
    if refusal is not None:
        raise refusal


def _before_commit(
    raw: sqlite3.Connection, fence: Fence | None, scope: Acting | None
) -> int | None:
    """The fence's check, then the consumption of the scope's update (if this change is
    the first to commit in it): the update consumed, for `Acting.give_back` should the
    COMMIT fail. Raises `Deposed` or `AlreadyHandled`, the update given back."""
    _check_fence(raw, fence)
    claimed = scope.claim() if scope is not None else None
    if scope is None or claimed is None:
        return None
    try:
        if _execute(raw, CONSUME_SQL, (claimed,)) != 1:
            raise AlreadyHandled(claimed)
    except BaseException:
        scope.give_back(claimed)
        raise
    return claimed


def _run_atomic(
    raw: sqlite3.Connection,
    body: Callable[[Transaction], Coroutine[Any, Any, T]],
    fence: Fence | None = None,
    scope: Acting | None = None,
) -> T:
    """BEGIN IMMEDIATE, the body, the fence's check and the update's consumption, COMMIT;
    ROLLBACK if any raises (on the thread); then the hooks of `after_commit`."""
    WORK["transactions"] += 1
    _begin(raw)
    tx = InlineTransaction(raw)
    claimed = None
    try:
        result = _drive(body(tx))
        claimed = _before_commit(raw, fence, scope)
        raw.execute("COMMIT")
    except BaseException:
        _roll_back(raw)
        if scope is not None:
            scope.give_back(claimed)
        raise
    tx.committed()
    return result


def _run_read(raw: sqlite3.Connection, body: Callable[[Transaction], Coroutine[Any, Any, T]]) -> T:
    """A reading body run to its end on the thread (`Database.read`), in a read
    transaction when on the reader (the writer's thread runs nothing else meanwhile)."""
    if raw.in_transaction:  # what a failed end of the last one left open
        raw.execute("ROLLBACK")
    raw.execute("BEGIN")
    try:
        return _drive(body(InlineTransaction(raw)))
    finally:
        raw.execute("COMMIT")  # a read transaction: ends it, changes nothing


def is_postgres_url(location: str | Path) -> bool:
    """Whether `location` names a PostgreSQL server rather than an SQLite file."""
    return str(location).startswith(("postgresql://", "postgres://"))


class Database(ABC):
    """The bot's database: SQLite (`SqliteDatabase`, the default) or PostgreSQL
    (`storage.postgres.PostgresDatabase`), behind one API. Open it with
    `await storage.connect.open_database(location)`: a file path, or a `postgresql://`
    URL.

    `dialect` is "sqlite" or "postgres"; the SQL the storage modules write is the
    common ground of both (`?` parameters, `ON CONFLICT`), which PostgreSQL's side
    translates (`storage.postgres.to_postgres`). `path` says where the data is, for log
    lines (a URL without its password)."""

    dialect: ClassVar[str]
    path: str
    # Set by the leader once it holds the lease (bot.server.leadership): every change is
    # fenced, by this fence unless its scope gives another (`acting_for`).
    fence: Fence | None = None
    _recovery_hooks: tuple[Callable[[], None], ...] = ()

    def acting(self) -> tuple[Fence | None, Acting | None]:
        """The fence a change begun now checks (its scope's, else `fence`) and its scope."""
        scope = _ACTING.get()
        if scope is not None and scope.fence is not None:
            return scope.fence, scope
        return self.fence, scope

    def _single_is_a_transaction(self) -> bool:
        """Whether a single statement (`execute`) must be a transaction of its own: to
        check a fence, or to consume the scope's update with it."""
        fence, scope = self.acting()
        return fence is not None or (scope is not None and scope.update_id is not None)

    def on_recovery(self, hook: Callable[[], None]) -> None:
        """Call `hook()` each time the database takes changes again after failing for
        the moment. A change whose COMMIT was under way when the connection was lost may
        have been kept although it was reported failed: what follows its committed state
        (the messages, the clocks) must look at the database again then."""
        self._recovery_hooks = (*self._recovery_hooks, hook)

    def _tell_recovered(self) -> None:
        for hook in self._recovery_hooks:
            try:
                hook()
            except Exception:
                log.exception("a hook after the database's recovery failed")

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """`async with db.transaction() as tx:` a block of statements, committed at its
        end, rolled back if it raises."""

    @abstractmethod
    async def atomic(self, body: Callable[[Transaction], Coroutine[Any, Any, T]]) -> T:
        """`body(tx)` as one transaction: committed if it returns, rolled back if it
        raises. `body` awaits only `tx`'s methods (it may be run again on PostgreSQL,
        after a deadlock was broken)."""

    @abstractmethod
    async def read(self, body: Callable[[Transaction], Coroutine[Any, Any, T]]) -> T:
        """`body(tx)`, which only reads, seeing one state of the data."""

    @abstractmethod
    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """One statement on its own (atomic by itself); the number of rows it changed."""

    @abstractmethod
    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        """A read outside any transaction (sees the last committed state)."""

    @abstractmethod
    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]: ...

    @abstractmethod
    async def user_version(self) -> int:
        """The schema's version: the number of the last migration applied."""


class SqliteDatabase(Database):
    """One SQLite file through one aiosqlite connection (see the module's docstring)."""

    dialect = "sqlite"

    def __init__(
        self, conn: aiosqlite.Connection, path: str, reader: aiosqlite.Connection | None = None
    ) -> None:
        self._conn = conn
        # The reader (see the module's docstring); None: reads share the one connection.
        self._reader = reader
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[object] | None = None  # the task inside transaction()
        # Since when (monotonic) writes fail for a transient reason, and whether it is
        # another process's lock: None while writes succeed.
        self._trouble_since: float | None = None
        self._held = False
        self.path = path

    @classmethod
    async def connect(
        cls,
        path: str | Path,
        migrations: Iterable[Migration] | None = None,
        *,
        check: bool = True,
    ) -> SqliteDatabase:
        """Open (creating if needed) the database at `path`, check it and migrate it to
        the newest schema (with `check=False`, neither: a second connection to a database
        opened already). Raises `DatabaseUnusable` when that cannot be done."""
        location = str(path)
        try:
            if location != ":memory:":
                make_private(Path(location))
            # isolation_level=None: we issue BEGIN/COMMIT ourselves.
            conn = await aiosqlite.connect(location, isolation_level=None, timeout=BUSY_WAIT)
        except (OSError, sqlite3.Error) as exc:
            raise DatabaseUnusable(f"cannot open the database {location}: {_reason(exc)}") from exc
        try:
            conn.row_factory = aiosqlite.Row
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            db = cls(conn, location)
            if check:
                await db.check()
                await db.migrate(bundled_migrations() if migrations is None else tuple(migrations))
                if location != ":memory:":
                    db._reader = await _open_reader(location)
        except BaseException as exc:
            # A refused database leaves no connection behind: its thread would keep the
            # process alive after the error.
            with suppress(sqlite3.Error, ValueError):
                await conn.close()
            if isinstance(exc, sqlite3.Error):
                raise _unusable(location, exc) from exc
            raise
        return db

    async def close(self) -> None:
        async with self._lock:
            if self._reader is not None:
                await self._reader.close()
            await self._conn.close()

    async def check(self) -> None:
        """`PRAGMA quick_check`: a damaged page is found at start, not in the middle of
        someone's game (a third of a second for 100 MB)."""
        rows = await self.fetch_all("PRAGMA quick_check")
        problems = [str(row[0]) for row in rows if row[0] != "ok"]
        if problems:
            raise _damaged(self.path, problems[0])

    async def user_version(self) -> int:
        cursor = await self._conn.execute("PRAGMA user_version")
        row = await cursor.fetchone()
        await cursor.close()
        return int(row[0]) if row else 0

    async def migrate(self, migrations: tuple[Migration, ...]) -> None:
        """Apply every migration newer than the database, each in its own transaction."""
        current = await self.user_version()
        newest = migrations[-1].version if migrations else 0
        if current > newest:
            raise DatabaseUnusable(
                f"the database {self.path} has schema {current}, newer than this code ({newest})"
            )
        for migration in migrations:
            if migration.version <= current:
                continue
            try:
                async with self.transaction() as tx:
                    for statement in split_statements(migration.sql):
                        await tx.execute(statement)
                    # PRAGMA takes no parameters; the version is an int from the file name.
                    await tx.execute(f"PRAGMA user_version = {migration.version:d}")
            except sqlite3.Error as exc:
                raise DatabaseUnusable(
                    f"migration {migration.name} failed on {self.path}: {_reason(exc)}"
                ) from exc

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """`BEGIN IMMEDIATE` ... `COMMIT`; `ROLLBACK` if the block or the COMMIT raises."""
        async with self._using(writes=True):
            WORK["transactions"] += 1
            # Checked and begun on the thread: an `atomic` queued before this block took
            # the lock may be running there now, its own transaction open.
            await self._hop(_begin)
            fence, scope = self.acting()
            tx = HopTransaction(self._conn)
            claimed = None
            with deposing(fence):
                try:
                    yield tx
                    claimed = await self._hop(_before_commit, fence, scope)
                    await self._conn.execute("COMMIT")
                except BaseException:
                    await self._rollback()
                    if scope is not None:
                        scope.give_back(claimed)
                    raise
            tx.committed()

    async def atomic(self, body: Callable[[Transaction], Coroutine[Any, Any, T]]) -> T:
        """Run `body(tx)` as one transaction in one hop to the database's thread (see the
        module's docstring): committed if it returns, rolled back if it raises (its
        exception is raised here). `body` awaits only `tx`'s methods."""
        fence, scope = self.acting()
        with deposing(fence):
            async with self._turn(writes=True):
                return await self._hop(_run_atomic, body, fence, scope)

    async def read(self, body: Callable[[Transaction], Coroutine[Any, Any, T]]) -> T:
        """Run `body(tx)`, which only reads, in one hop to the database's thread: its
        statements see one state, since nothing else runs on that thread
        meanwhile; no transaction is begun."""
        if self._reader is not None:
            self._refuse_reentry()
            return await _hop(self._reader, _run_read, body)
        async with self._turn(writes=False):
            return await self._hop(_run_read, body)

    async def _hop(self, work: Callable[..., T], *args: Any) -> T:
        return await _hop(self._conn, work, *args)

    async def _rollback(self) -> None:
        await self._hop(_roll_back)

    @asynccontextmanager
    async def _using(self, *, writes: bool) -> AsyncIterator[None]:
        """The connection to this task alone, for a block of hops (`transaction()`); a
        transient failure or the first success after it is noted (and logged once)."""
        self._refuse_reentry()
        async with self._lock:
            self._owner = asyncio.current_task()
            try:
                async with self._noting(writes=writes):
                    yield
            finally:
                self._owner = None

    @asynccontextmanager
    async def _turn(self, *, writes: bool) -> AsyncIterator[None]:
        """For work done in one hop: wait until no `transaction()` block is open, hold
        nothing. The hop is queued before this task yields again, so a block that
        starts later queues its BEGIN behind it."""
        self._refuse_reentry()
        while self._lock.locked():
            async with self._lock:
                pass
        async with self._noting(writes=writes):
            yield

    @asynccontextmanager
    async def _noting(self, *, writes: bool) -> AsyncIterator[None]:
        try:
            yield
        except sqlite3.OperationalError as exc:
            if is_transient(exc):
                await self._troubled(exc)
            raise
        else:
            if writes and self._trouble_since is not None:
                await self._recovered()

    async def _troubled(self, exc: sqlite3.OperationalError) -> None:
        held = is_locked(exc)
        if self._trouble_since is None:
            self._trouble_since = time.monotonic()
            log.warning(
                "the database %s refuses changes (%s): presses are answered 'try again', "
                "background work is retried",
                self.path,
                exc,
            )
        if held and not self._held:
            await self._set_busy_wait(HELD_WAIT)
        self._held = held

    async def _recovered(self) -> None:
        assert self._trouble_since is not None
        log.info(
            "the database %s takes changes again after %.1f s",
            self.path,
            time.monotonic() - self._trouble_since,
        )
        self._trouble_since = None
        if self._held:
            await self._set_busy_wait(BUSY_WAIT)
            self._held = False
        self._tell_recovered()

    async def _set_busy_wait(self, seconds: float) -> None:
        # PRAGMA takes no parameters; the value is an int computed here.
        await self._conn.execute(f"PRAGMA busy_timeout = {round(seconds * 1000):d}")

    def _refuse_reentry(self) -> None:
        """Using the Database inside its own transaction would wait for itself forever."""
        if self._owner is not None and self._owner is asyncio.current_task():
            raise RuntimeError(
                "the database was used directly inside a transaction; use the transaction's handle"
            )

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """One statement on its own, outside any transaction: SQLite makes a single
        statement atomic by itself, so this saves the BEGIN and COMMIT. One hop. Under a
        fence it is a transaction of its own with the fence's check (and the consumption
        of its scope's update)."""
        if self._single_is_a_transaction():
            return await self.atomic(lambda tx: tx.execute(sql, params))
        async with self._turn(writes=True):
            return await self._hop(_execute, sql, tuple(params))

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        """A read outside any transaction (sees the last committed state). One hop."""
        if self._reader is not None:
            self._refuse_reentry()
            return await _hop(self._reader, _fetch_one, sql, tuple(params))
        async with self._turn(writes=False):
            return await self._hop(_fetch_one, sql, tuple(params))

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        if self._reader is not None:
            self._refuse_reentry()
            return await _hop(self._reader, _fetch_all, sql, tuple(params))
        async with self._turn(writes=False):
            return await self._hop(_fetch_all, sql, tuple(params))


async def _open_reader(location: str) -> aiosqlite.Connection:
    """The reader of the database at `location` (see the module's docstring): it may
    read only, and waits for another process's lock as the writer does."""
    reader = await aiosqlite.connect(location, isolation_level=None, timeout=BUSY_WAIT)
    try:
        reader.row_factory = aiosqlite.Row
        await reader.execute("PRAGMA query_only=ON")
        await reader.execute("PRAGMA foreign_keys=ON")  # as the writer: the same answers
    except BaseException:
        with suppress(sqlite3.Error, ValueError):
            await reader.close()
        raise
    return reader


def make_private(path: Path) -> None:
    """Create the database's folder 0700 and its file 0600 before SQLite opens it, so the
    seeds it holds are never readable by others. SQLite creates the `-wal` and `-shm`
    files with the database file's mode. Existing files open to others are made
    private; a folder that exists is left as it is (it is the admin's, and the files are
    what hold the data)."""
    path.parent.mkdir(mode=PRIVATE_FOLDER, parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    except FileExistsError:
        pass
    else:
        os.close(fd)  # an empty file is an empty SQLite database
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            mode = stat.S_IMODE(file.stat().st_mode)
        except FileNotFoundError:
            continue
        if mode & 0o077:
            try:
                file.chmod(mode & 0o700)
            except OSError as exc:
                log.warning("%s stays readable by others: %s", file, _reason(exc))
            else:
                log.info("%s made private (was %o)", file, mode)


def _unusable(location: str, exc: sqlite3.Error) -> DatabaseUnusable:
    if getattr(exc, "sqlite_errorcode", None) == SQLITE_CORRUPT:
        return _damaged(location, str(exc))
    return DatabaseUnusable(f"cannot use the database {location}: {_reason(exc)}")


def _damaged(location: str, problem: str) -> DatabaseUnusable:
    return DatabaseUnusable(
        f"the database {location} is damaged ({problem}); restore a backup "
        f"or rescue what is left with: sqlite3 {location} .recover"
    )


def _reason(exc: BaseException) -> str:
    """An OS or SQLite error as a short phrase: no errno prefix, no traceback."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def split_statements(script: str) -> list[str]:
    """Split a migration script into complete statements (sqlite3.complete_statement)."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        if not buffer and (not line.strip() or line.lstrip().startswith("--")):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise RuntimeError(f"incomplete SQL statement at the end of a migration: {buffer!r}")
    return statements
