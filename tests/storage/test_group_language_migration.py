"""Migration 017: a group that played before without choosing a language keeps the one
its messages spoke, its latest game creator's; a group that chose one keeps it, its other
settings kept as they were; a group that never played has none yet."""

from __future__ import annotations

import json
from pathlib import Path

from storage import repo
from storage.connect import open_database
from storage.db import bundled_migrations
from storage.records import DEFAULT_GAME, ChatSettings

NOW = "2026-11-01T18:00:00.000000+00:00"
PLAYED, CHOSE, TIMED, QUIET = -1001, -1002, -1003, -1004
ALEX, MASHA = 11, 12
CHATS = [  # id, settings as an older version stored them
    (PLAYED, "{}"),
    (CHOSE, '{"turn_timer": "60", "group_lang": "ru"}'),
    (TIMED, '{"turn_timer": "sport", "default_game": "osel", "hints": false}'),
    (QUIET, "{}"),
]
GAMES = [  # id, chat, creator: the latest game of each group is the one that counts
    (1, PLAYED, MASHA),
    (2, PLAYED, ALEX),
    (3, CHOSE, ALEX),
    (4, TIMED, ALEX),
    (5, TIMED, MASHA),
]


async def test_groups_keep_the_language_their_messages_spoke(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = await open_database(path, [m for m in bundled_migrations() if m.version <= 16])
    async with db.transaction() as tx:
        for user, lang in ((ALEX, "en"), (MASHA, "ru")):
            await tx.execute(
                "INSERT INTO users (id, first_name, language, updated_at) VALUES (?, ?, ?, ?)",
                (user, "X", lang, NOW),
            )
        for chat, settings in CHATS:
            await tx.execute(
                "INSERT INTO chats (id, type, title, settings, updated_at) VALUES (?, ?, ?, ?, ?)",
                (chat, "supergroup", "Двор", settings, NOW),
            )
        for game, chat, creator in GAMES:
            await tx.execute(
                "INSERT INTO games (id, chat_id, status, creator_id, ruleset, seats_wanted,"
                " created_at) VALUES (?, ?, 'finished', ?, '{}', 2, ?)",
                (game, chat, creator, NOW),
            )
    await db.close()

    db = await open_database(path)
    try:
        read = {chat: await repo.get_chat_settings(db, chat) for chat, _ in CHATS}
        rows = await db.fetch_all("SELECT id, settings FROM chats")
    finally:
        await db.close()
    assert read[PLAYED] == ChatSettings(group_lang="en")  # Alex opened the latest game
    assert read[CHOSE].group_lang == "ru"  # its own choice stays
    assert read[TIMED].group_lang == "ru"  # Маша opened the latest game
    assert (read[TIMED].turn_timer.value, read[TIMED].default_game) == ("sport", "osel")
    assert not read[TIMED].hints and read[CHOSE].default_game == DEFAULT_GAME
    assert read[QUIET] == ChatSettings()  # never played: settled by its first game
    for row in rows:
        json.loads(row["settings"])  # every row is still JSON
