"""The values the bot keeps for itself (`storage.kv`, migration 012)."""

from __future__ import annotations

from pathlib import Path

from storage import kv
from storage.connect import open_database


async def test_a_value_once_kept_stays_across_a_reopening(tmp_path: Path) -> None:
    path = tmp_path / "kv.sqlite3"
    db = await open_database(path)
    assert await kv.value(db, "webhook_secret") is None
    assert await kv.kept_value(db, "webhook_secret", lambda: "first") == "first"
    assert await kv.kept_value(db, "webhook_secret", lambda: "second") == "first"
    await db.close()
    db = await open_database(path)
    try:
        assert await kv.value(db, "webhook_secret") == "first"
        assert await kv.value(db, "other") is None
    finally:
        await db.close()
