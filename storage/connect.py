"""Opening the bot's database: `open_database(location)` picks the side by the location,
an SQLite file (`storage.db.SqliteDatabase`) or a `postgresql://` URL
(`storage.postgres.PostgresDatabase`), and returns it as a `storage.db.Database`.

`storage.postgres` (and asyncpg with it) is imported only when a URL is opened, so a bot
on SQLite never loads the PostgreSQL driver. `open_database` calls `open_sqlite` and
`open_postgres` through this module's names: tests/conftest.py replaces `open_sqlite`
to run the suite against PostgreSQL, each SQLite path a schema of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from storage.db import Database, Migration, SqliteDatabase, is_postgres_url


async def open_database(
    location: str | Path,
    migrations: Iterable[Migration] | None = None,
    *,
    side: bool = False,
    label: str | None = None,
) -> Database:
    """Open the database at `location` (a file path, or a `postgresql://` URL), check it
    and migrate it to the newest schema (`migrations`; None: the bundled ones). Raises
    `DatabaseUnusable` when that cannot be done. `side=True` opens a second, small
    connection to a database this process has opened already (the lease keeper's, on its
    own thread): no check, no migration. `label` names the connections on the server
    (PostgreSQL's `application_name`: which instance); SQLite has no use for it."""
    if is_postgres_url(location):
        return await open_postgres(str(location), migrations, side=side, label=label)
    return await open_sqlite(location, migrations, side=side)


async def open_sqlite(
    path: str | Path, migrations: Iterable[Migration] | None = None, *, side: bool = False
) -> Database:
    """The SQLite file at `path` (created if new), as `open_database` opens it."""
    return await SqliteDatabase.connect(path, migrations, check=not side)


async def open_postgres(
    url: str,
    migrations: Iterable[Migration] | None = None,
    *,
    side: bool = False,
    label: str | None = None,
) -> Database:
    """The PostgreSQL server at `url`, as `open_database` opens it: a pool of connections
    and the schema migrated, or for `side` one connection and no migration."""
    from storage.postgres import PostgresDatabase  # asyncpg only when it is used

    if side:
        return await PostgresDatabase.connect(url, (), pool_size=1, migrate=False, label=label)
    return await PostgresDatabase.connect(url, migrations, label=label)
