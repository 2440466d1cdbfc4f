"""PostgreSQL behind the same `Database` API as SQLite, for admins who run the bot as
several instances against one server (`DATABASE_URL=postgresql://...`).

- A pool of asyncpg connections. Transactions run at READ COMMITTED, and a game read
  for a change locks its row (`Transaction.locks_rows`, `SELECT ... FOR UPDATE` in
  `storage.repo.load_game`): two presses on one game, on two connections or two
  instances, are applied one after the other, the second seeing the first's result.
  A deadlock that PostgreSQL breaks, or a connection lost mid-way, makes `atomic` run
  its body again (it has no effects but its statements); a `transaction()` block fails
  with `DatabaseBusy`, which a press answers with "press again" as it does for SQLite's
  lock.
- The SQL of the storage modules is written once, in the common ground of both
  databases; `to_postgres` turns its `?` parameters into `$1, $2, ...` (once per
  statement text), and `postgres_ddl` the migrations' column types into PostgreSQL's
  (INTEGER holds Telegram's 64-bit ids: BIGINT; REAL: DOUBLE PRECISION; AUTOINCREMENT:
  an identity column). So the numbered migrations are the same files for both.
- The schema's version is kept in `schema_version` (SQLite's `PRAGMA user_version`);
  each migration runs in its own transaction under an advisory lock, so two instances
  starting together migrate once.
- asyncpg's errors are told to the callers as `DatabaseBusy` (transient),
  `IntegrityViolation` (a constraint) or `DatabaseError` (anything else), so they
  catch one set of errors for both databases (`storage.db.DATABASE_ERRORS`).
- The URL's password never appears in a log line or an error (`display_url`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable
from contextlib import asynccontextmanager, suppress
from typing import Any, TypeVar

import asyncpg

from storage.db import (
    CONSUME_SQL,
    FENCE_SQL,
    TIMING,
    WORK,
    Acting,
    AlreadyHandled,
    Database,
    DatabaseBusy,
    DatabaseError,
    DatabaseUnusable,
    Fence,
    IntegrityViolation,
    Migration,
    Row,
    Transaction,
    bundled_migrations,
    deposing,
    fence_refusal,
    split_statements,
)
from storage.urls import display_url

log = logging.getLogger(__name__)
T = TypeVar("T")

# How many connections one instance keeps: enough for the presses and the background
# work of hundreds of games (a transaction holds one for about a millisecond).
POOL_SIZE = 10
# How long a statement may wait for a row lock or run before it is given up as
# transient: far beyond any of ours, short of Telegram's 15 s window for an answer.
STATEMENT_TIMEOUT = 10.0
# How many times `atomic` runs its body when a deadlock or a lost connection undid it.
ATOMIC_TRIES = 5
# The fence's check bounding, in the same hop, how long its transaction may then sit
# idle before COMMIT (milliseconds, as text; `Fence.hold`); for this transaction only.
HELD_FENCE_SQL = (
    "SELECT term, set_config('idle_in_transaction_session_timeout', $2, true)"
    " FROM leases WHERE name = $1 FOR SHARE"
)
# The advisory lock that makes two starting instances migrate one after the other.
MIGRATION_LOCK = 0x646F6D696E6F  # "domino"

# SQLSTATE classes and codes that describe the moment, not the data: a serialization
# failure or a deadlock broken (40), too many connections and a full disk (53), the
# server shutting down or restarting (57P0x), a lock or statement timeout (55P03,
# 57014), a connection lost (08).
TRANSIENT_STATES = frozenset({"40001", "40P01", "55P03", "57014", "57P01", "57P02", "57P03"})
TRANSIENT_CLASSES = frozenset({"08", "53"})


class PoolNoise(logging.Filter):
    """asyncpg's pool logs each failed attempt to reconnect its idle connections while the
    server is down as a WARNING with a whole traceback, every second or so: here each
    becomes one line (its error's text, no traceback), once a `window` per message,
    and the next one says how many were left out. Our own lines say the rest."""

    def __init__(self, window: float = 60.0, clock: Callable[[], float] = time.monotonic):
        super().__init__()
        self.window = window
        self.clock = clock
        self._quiet: dict[str, tuple[float, int]] = {}  # message: (until, left out)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        now = self.clock()
        until, left_out = self._quiet.get(message, (0.0, 0))
        if now < until:
            self._quiet[message] = (until, left_out + 1)
            return False
        self._quiet[message] = (now + self.window, 0)
        error = record.exc_info[1] if record.exc_info else None
        record.msg = message + (f": {type(error).__name__}: {error}" if error else "")
        if left_out:
            record.msg += f" ({left_out} more like it in the last minute)"
        record.args = ()
        record.exc_info = record.exc_text = None
        return True


_POOL_NOISE = PoolNoise()
if _POOL_NOISE not in logging.getLogger("asyncpg.pool").filters:
    logging.getLogger("asyncpg.pool").addFilter(_POOL_NOISE)


@functools.lru_cache(maxsize=1024)
def to_postgres(sql: str) -> str:
    """The statement with each `?` parameter outside a quoted string numbered as
    PostgreSQL wants it (`$1`, `$2`, ...)."""
    out: list[str] = []
    number = 0
    quote: str | None = None
    for char in sql:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)


_DDL = (
    (
        re.compile(r"\bINTEGER\s+PRIMARY\s+KEY\s+AUTOINCREMENT\b", re.I),
        "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    ),
    (re.compile(r"\bINTEGER\b", re.I), "BIGINT"),
    (re.compile(r"\bREAL\b", re.I), "DOUBLE PRECISION"),
    (re.compile(r"\)\s*WITHOUT\s+ROWID\b", re.I), ")"),
)


def postgres_ddl(script: str) -> str:
    """A migration written for SQLite, with PostgreSQL's column types (see the module's
    docstring). Only the migrations go through this: queries need no such change."""
    for pattern, replacement in _DDL:
        script = pattern.sub(replacement, script)
    return script


def _changed(status: str) -> int:
    """The rows a statement changed, from its command tag ("UPDATE 3", "INSERT 0 1")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


# The connection, not the statement, failed: closed, never made, timed out, or left in
# a state it cannot go on from (asyncpg's InternalClientError: a COMMIT asked of a session
# the server has just ended, e.g. past the fence's idle bound).
CONNECTION_ERRORS = (
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
    asyncio.TimeoutError,
)


def is_transient_state(exc: BaseException) -> bool:
    """Whether an asyncpg error is the server failing for the moment (see above)."""
    if isinstance(exc, CONNECTION_ERRORS):
        return True  # the connection closed or could not be made, a timeout
    state = getattr(exc, "sqlstate", None)
    return isinstance(state, str) and (state in TRANSIENT_STATES or state[:2] in TRANSIENT_CLASSES)


def _undone_by_another(exc: BaseException | None) -> bool:
    """Whether the server rolled a transaction back because of another's (a deadlock
    broken, a serialization failure): running it again is safe and likely to succeed."""
    return getattr(exc, "sqlstate", None) in ("40001", "40P01")


def _told(exc: BaseException) -> DatabaseError:
    """An asyncpg (or socket) error as the callers know it."""
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        detail = getattr(exc, "detail", None) or ""
        return IntegrityViolation(f"{exc.constraint_name or exc}: {detail}".strip())
    if is_transient_state(exc):
        return DatabaseBusy(f"{type(exc).__name__}: {exc}")
    return DatabaseError(f"{type(exc).__name__}: {exc}")


# What asyncpg raises that `_told` turns into our errors.
DRIVER_ERRORS = (asyncpg.PostgresError, *CONNECTION_ERRORS)
# ... and what the Database's methods turn into them (or note, when they are already).
FAILURES = (*DRIVER_ERRORS, DatabaseError)


class PgTransaction(Transaction):
    """The handle on one connection, inside a transaction (or a read). A statement's
    failure is raised as the callers know it (`_told`); PostgreSQL has then aborted the
    transaction, which the callers leave by raising (as they all do)."""

    def __init__(self, conn: asyncpg.Connection, *, locks_rows: bool) -> None:
        self._conn = conn
        self.locks_rows = locks_rows

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        status: str = await self._run(self._conn.execute, to_postgres(sql), *params)
        return _changed(status)

    async def execute_many(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        await self._run(self._conn.executemany, to_postgres(sql), [tuple(row) for row in rows])

    async def insert(self, sql: str, params: Iterable[Any] = ()) -> int:
        row_id = await self._run(self._conn.fetchval, to_postgres(sql) + " RETURNING id", *params)
        if row_id is None:
            raise RuntimeError("INSERT produced no row id")
        return int(row_id)

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        row: Row | None = await self._run(self._conn.fetchrow, to_postgres(sql), *params)
        return row

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        rows: list[Row] = await self._run(self._conn.fetch, to_postgres(sql), *params)
        return rows

    async def check_fence(self, fence: Fence | None) -> None:
        """Raise `Deposed` when the lease is no longer in the fence's term. The row stays
        locked `FOR SHARE` until the COMMIT: a takeover (an UPDATE of it) waits for this
        transaction, and one that came first is seen here (storage.db, "Fencing"). With
        `Fence.hold`, the server ends the session if the transaction then sits idle
        longer than that (`idle_in_transaction_session_timeout`, for this transaction
        only), so a process stopped before its COMMIT releases the row."""
        if fence is None:
            return
        if fence.hold is None:
            current = await self._run(
                self._conn.fetchval, to_postgres(FENCE_SQL + " FOR SHARE"), fence.lease
            )
        else:  # the bound on the idle time after it, set in the same hop
            current = await self._run(
                self._conn.fetchval, HELD_FENCE_SQL, fence.lease, f"{fence.hold * 1000:.0f}"
            )
        refusal = fence_refusal(fence, current)
        if refusal is not None:
            raise refusal

    async def consume(self, scope: Acting | None) -> int | None:
        """After the fence's check, delete the scope's update from `update_queue` if this
        change is the first to commit in the scope (storage.db, `acting_for`): the update
        consumed, for `Acting.give_back` should the COMMIT fail. A row being deleted by
        another transaction is waited for; gone by then, `AlreadyHandled` is raised (the
        update given back to the scope), which rolls this transaction back."""
        claimed = scope.claim() if scope is not None else None
        if scope is None or claimed is None:
            return None
        try:
            if await self.execute(CONSUME_SQL, (claimed,)) != 1:
                raise AlreadyHandled(claimed)
        except BaseException:
            scope.give_back(claimed)
            raise
        return claimed

    async def _run(self, call: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        WORK["statements"] += 1
        try:
            return await call(*args)
        except DRIVER_ERRORS as exc:
            raise _told(exc) from exc


class PostgresDatabase(Database):
    """A PostgreSQL database through a pool of connections (see the module's docstring).
    Open it with `await storage.connect.open_database("postgresql://...")`."""

    dialect = "postgres"

    def __init__(self, pool: asyncpg.Pool, path: str) -> None:
        self._pool = pool
        self.path = path
        self._trouble_since: float | None = None

    @classmethod
    async def connect(
        cls,
        url: str,
        migrations: Iterable[Migration] | None = None,
        *,
        pool_size: int = POOL_SIZE,
        migrate: bool = True,
        label: str | None = None,
    ) -> PostgresDatabase:
        """Connect to the server at `url` and migrate its schema to the newest. Raises
        `DatabaseUnusable`, in one line without the password, when that cannot be done."""
        shown = display_url(url)
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                command_timeout=STATEMENT_TIMEOUT,
                server_settings={"application_name": label or "domino-bot"},
            )
        except (*DRIVER_ERRORS, ValueError) as exc:
            raise DatabaseUnusable(f"cannot connect to the database {shown}: {exc}") from exc
        db = cls(pool, shown)
        if not migrate:
            return db
        try:
            await db.migrate(bundled_migrations() if migrations is None else tuple(migrations))
        except BaseException:
            await pool.close()
            raise
        return db

    async def close(self) -> None:
        await self._pool.close()

    async def user_version(self) -> int:
        found = await self.fetch_one("SELECT to_regclass('schema_version') IS NOT NULL AS found")
        if not (found and found["found"]):
            return 0
        row = await self.fetch_one("SELECT MAX(version) AS version FROM schema_version")
        return int(row["version"] or 0) if row else 0

    async def migrate(self, migrations: tuple[Migration, ...]) -> None:
        """Apply every migration newer than the schema, each in its own transaction
        together with its row of `schema_version`; one instance at a time."""
        newest = migrations[-1].version if migrations else 0
        try:
            async with self._pool.acquire() as conn:
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version ("
                    " version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
                )
                for migration in migrations:
                    async with conn.transaction():
                        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                        current = await conn.fetchval("SELECT MAX(version) FROM schema_version")
                        current = int(current or 0)
                        if current > newest:
                            raise DatabaseUnusable(
                                f"the database {self.path} has schema {current}, "
                                f"newer than this code ({newest})"
                            )
                        if migration.version <= current:
                            continue
                        for statement in split_statements(postgres_ddl(migration.sql)):
                            await conn.execute(statement)
                        await conn.execute(
                            "INSERT INTO schema_version (version, name, applied_at)"
                            " VALUES ($1, $2, to_char(now() AT TIME ZONE 'UTC',"
                            ' \'YYYY-MM-DD"T"HH24:MI:SS"+00:00"\'))',
                            migration.version,
                            migration.name,
                        )
                        log.info("database %s: migration %s applied", self.path, migration.name)
        except DRIVER_ERRORS as exc:
            raise DatabaseUnusable(f"migrating the database {self.path} failed: {exc}") from exc

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        fence, scope = self.acting()
        claimed = None
        with deposing(fence):
            try:
                async with self._connection() as conn:
                    WORK["transactions"] += 1
                    tx = PgTransaction(conn, locks_rows=True)
                    try:
                        async with conn.transaction():
                            yield tx
                            await tx.check_fence(fence)
                            claimed = await tx.consume(scope)
                    except BaseException:
                        if scope is not None:
                            scope.give_back(claimed)
                        raise
            except FAILURES as exc:  # the server unreachable (no connection) included
                told = self._noted(exc)
                if told is exc:
                    raise
                raise told from exc
        tx.committed()
        self._fine()

    async def atomic(self, body: Callable[[Transaction], Coroutine[Any, Any, T]]) -> T:
        """`body(tx)` in one transaction; run again (up to `ATOMIC_TRIES` times in all)
        when PostgreSQL broke a deadlock or a serialization conflict, which undid it (not
        after a lost connection: the COMMIT may have been done)."""
        for attempt in range(1, ATOMIC_TRIES + 1):
            try:
                result = await self._once(body, write=True)
            except DatabaseBusy as exc:
                if attempt == ATOMIC_TRIES or not _undone_by_another(exc.__cause__):
                    raise
                await asyncio.sleep(0.01 * attempt)
            else:
                return result
        raise AssertionError("unreachable")

    async def read(self, body: Callable[[Transaction], Coroutine[Any, Any, T]]) -> T:
        """`body(tx)` in a read-only transaction that sees one snapshot."""
        return await self._once(body, write=False)

    async def _once(
        self, body: Callable[[Transaction], Coroutine[Any, Any, T]], *, write: bool
    ) -> T:
        began = time.perf_counter()
        fence, scope = self.acting()
        claimed = None
        try:
            async with self._connection() as conn:
                if write:
                    WORK["transactions"] += 1
                    tx = PgTransaction(conn, locks_rows=True)
                    with deposing(fence):
                        try:
                            async with conn.transaction():
                                result = await body(tx)
                                await tx.check_fence(fence)
                                claimed = await tx.consume(scope)
                        except BaseException:
                            if scope is not None:
                                scope.give_back(claimed)
                            raise
                    tx.committed()
                else:
                    async with conn.transaction(isolation="repeatable_read", readonly=True):
                        result = await body(PgTransaction(conn, locks_rows=False))
        except FAILURES as exc:
            told = self._noted(exc)
            if told is exc:
                raise
            raise told from exc
        finally:
            TIMING["hop_us"] += round((time.perf_counter() - began) * 1e6)
        if write:
            self._fine()
        return result

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """One statement, committed by itself; under a fence or in the scope of an
        update, a transaction of its own with the fence's check and the consumption."""
        if self._single_is_a_transaction():
            return await self.atomic(lambda tx: tx.execute(sql, params))
        return await self._single(lambda tx: tx.execute(sql, params), write=True)

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        return await self._single(lambda tx: tx.fetch_one(sql, params), write=False)

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return await self._single(lambda tx: tx.fetch_all(sql, params), write=False)

    async def _single(
        self, statement: Callable[[Transaction], Coroutine[Any, Any, T]], *, write: bool
    ) -> T:
        """One statement on a connection of the pool, in no transaction of ours."""
        began = time.perf_counter()
        try:
            async with self._connection() as conn:
                result = await statement(PgTransaction(conn, locks_rows=False))
        except FAILURES as exc:
            told = self._noted(exc)
            if told is exc:
                raise
            raise told from exc
        finally:
            TIMING["hop_us"] += round((time.perf_counter() - began) * 1e6)
        if write:
            self._fine()
        return result

    @asynccontextmanager
    async def listening(
        self, channel: str, on_notice: Callable[[str], None]
    ) -> AsyncIterator[None]:
        """While the block runs, `on_notice(payload)` for each NOTIFY on `channel` (as
        each committed transaction sends it). One connection of the pool is held for it
        meanwhile. A connection lost loses the notices without a word: a listener still
        looks now and then."""

        def deliver(conn: asyncpg.Connection, pid: int, channel: str, payload: str) -> None:
            on_notice(payload)

        async with self._connection() as conn:
            try:
                await conn.add_listener(channel, deliver)
            except DRIVER_ERRORS as exc:
                raise self._noted(exc) from exc
            try:
                yield
            finally:
                with suppress(*DRIVER_ERRORS):
                    await conn.remove_listener(channel, deliver)

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        WORK["hops"] += 1
        async with self._pool.acquire(timeout=STATEMENT_TIMEOUT) as conn:
            yield conn

    def _noted(self, exc: BaseException) -> DatabaseError:
        """`exc` as the callers know it (itself when it is already one of ours); the
        first transient failure of a burst logged."""
        told = exc if isinstance(exc, DatabaseError) else _told(exc)
        if isinstance(told, DatabaseBusy) and self._trouble_since is None:
            self._trouble_since = time.monotonic()
            log.warning(
                "the database %s fails for the moment (%s): presses are answered 'try again', "
                "background work is retried",
                self.path,
                told,
            )
        return told

    def _fine(self) -> None:
        if self._trouble_since is not None:
            log.info(
                "the database %s takes changes again after %.1f s",
                self.path,
                time.monotonic() - self._trouble_since,
            )
            self._trouble_since = None
            self._tell_recovered()
