"""Shard mode end to end, the plain case: two instances on one PostgreSQL database with
`SHARDS=4` share the shards two and two, and four games in groups of every shard are
played to their end through the fake Telegram, each instance playing those of its own
shards, each person pressing in private (a press routed by the game its button
names). Received by polling (the holder of shard 0 polls for both), or by the webhook
(the fake posts to "a" alone, as a proxy might: "b" plays from the queue all the same).
Kills, pauses and newcomers are tests/e2e/test_shards_e2e.py's. The Mini App, which any
instance may be asked for (a proxy before them), is answered by the instance that plays
the game's group; the other answers 503, having done nothing, for the proxy to pass the
request on.

On PostgreSQL only: several processes on one database."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import asyncpg
import pytest
from aiohttp import ClientSession

from storage import shards
from tests.e2e.fault_tools import open_games
from tests.e2e.harness import (
    free_port,
    settle,
    webapp_env,
    webhook_env,
)
from tests.e2e.shard_audit import ShardInstance, shard_instance
from tests.fakegram import FakeTelegram
from tests.fakegram.waiting import within

SHARDS = 4
LEASE = 6.0
UP_LINE = " is up ("
OPEN_TABLE = "🃏 Открыть стол"


class Instance(ShardInstance):
    """`python -m bot` in shard mode: `start` returns once this start logs that it is up
    (it need not poll: only shard 0's holder does)."""

    async def start(self, *, standby: bool = False) -> None:
        process, began = await self.launch()

        async def up() -> bool:
            return UP_LINE.encode() in self.log_path.read_bytes()[began:]

        await self.wait_started(process, "the instance did not start", up)


def instance(fake: FakeTelegram, folder: Path, name: str, database: Path, **env: str) -> Instance:
    return shard_instance(
        Instance,
        fake,
        folder,
        name,
        database,
        SHARDS=str(SHARDS),
        LEASE_SECONDS=str(LEASE),
        PACING="false",  # a quick test; pacing and the shared budget are tested apart
        **env,
    )


async def stop_cleanly(bots: list[Instance]) -> None:
    """Stop each instance: exit 0, and no traceback, ERROR or CRITICAL in its log."""
    for bot in bots:
        assert await bot.stop() == 0
        problems = [
            line
            for line in bot.log().splitlines()
            if "Traceback" in line or " ERROR " in line or " CRITICAL " in line
        ]
        assert problems == [], "\n".join(problems)


async def holders(url: str) -> dict[int, str]:
    """Who holds each shard whose lease runs now."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT name, holder FROM leases WHERE name LIKE 'shard:%' AND expires_at > $1",
            time.time(),
        )
    finally:
        await conn.close()
    return {int(row["name"].split(":")[1]): str(row["holder"]) for row in rows}


async def shared_two_and_two(url: str, seconds: float) -> dict[int, str]:
    """Wait until "a" and "b" hold two shards each (a newcomer's share comes by
    give-backs, one a keeper's round)."""
    found: dict[int, str] = {}

    async def shared() -> None:
        nonlocal found
        while True:
            found = await holders(url)
            names = sorted(found.values())
            if len(found) == SHARDS and names == ["a", "a", "b", "b"]:
                return
            await asyncio.sleep(0.3)

    await within(shared(), seconds, f"the shards shared two and two (now {found})")
    return found


@pytest.mark.slow(seconds=45)
@pytest.mark.postgres_only
@pytest.mark.parametrize("receiving", ["polling", "webhook"])
async def test_two_instances_each_play_the_games_of_their_shards(
    fakegram: FakeTelegram, tmp_path: Path, receiving: str
) -> None:
    database = tmp_path / "domino.sqlite3"  # a schema of its own (tests.databases)
    a_env: dict[str, str] = {}
    b_env: dict[str, str] = {}
    if receiving == "webhook":
        a_env = webhook_env()
        b_env = {
            "WEBHOOK_URL": a_env["WEBHOOK_URL"],
            "WEBHOOK_LISTEN": f"127.0.0.1:{free_port()}",
        }
    a = instance(fakegram, tmp_path, "a", database, **a_env)
    b = instance(fakegram, tmp_path, "b", database, **b_env)
    await a.start()
    await b.start()
    url = a.env["DATABASE_URL"]
    held = await shared_two_and_two(url, 10 * LEASE)
    games = await open_games(fakegram, [(1, 1)] * SHARDS, at_once=SHARDS)
    chats = [game.table.group.id for game in games]
    assert {shards.shard_of(chat, SHARDS) for chat in chats} == set(range(SHARDS))
    for game in games:
        for player in game.players:
            player.rng = random.Random(player.user.id)
    await asyncio.gather(*(game.play(fakegram) for game in games))
    await settle(fakegram)
    assert all(game.over for game in games)
    # Each game was played by the holder of its chat's shard, and by no other.
    by_name = {bot.env["INSTANCE_NAME"]: bot for bot in (a, b)}
    for chat in chats:
        holder = held[shards.shard_of(chat, SHARDS)]
        for name, bot in by_name.items():
            moved = [line for line in bot.log().splitlines() if f"chat {chat} game" in line]
            if name == holder:
                assert any("match over" in line for line in moved), name
            else:
                assert moved == [], f"{name} acted for chat {chat}: {moved[:3]}"
    for name, bot in by_name.items():
        mine = {s for s, holder in held.items() if holder == name}
        assert len(mine) == 2
        assert all(f"shard {s} picked up" in bot.log() for s in mine), bot.log()[-3000:]
    assert await holders(url) == held  # nobody lost a shard meanwhile
    await stop_cleanly([a, b])


@pytest.mark.slow(seconds=30)
@pytest.mark.postgres_only
async def test_the_mini_app_is_answered_by_the_instance_that_plays_the_game(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    """Each instance serves the Mini App on its own address (as behind nginx, which
    tries them in turn): for each game, asked directly, the holder of its group's shard
    answers and the other says 503 to the state, the event stream and a press alike."""
    database = tmp_path / "domino.sqlite3"
    app_env = webapp_env()
    fakegram.add_web_app(app_env["WEBAPP_SHORT_NAME"], app_env["WEBAPP_URL"])
    # The same app (its URL) on every instance; each listens on an address of its own.
    a = instance(fakegram, tmp_path, "a", database, **app_env)
    b_env = {**app_env, "WEBAPP_LISTEN": f"127.0.0.1:{free_port()}"}
    b = instance(fakegram, tmp_path, "b", database, **b_env)
    await a.start()
    await b.start()
    held = await shared_two_and_two(a.env["DATABASE_URL"], 10 * LEASE)
    games = await open_games(fakegram, [(1, 1)] * SHARDS, at_once=SHARDS)
    by_name = {bot.env["INSTANCE_NAME"]: bot for bot in (a, b)}
    async with ClientSession() as http:
        for game in games:
            table = game.table.table
            assert table is not None
            link = table.button(text=OPEN_TABLE).url
            assert link is not None and "startapp=" in link
            token = link.rpartition("startapp=")[2]
            launch = game.players[0].user.open_web_app(link)
            headers = {"Authorization": launch.authorization}
            owner = held[shards.shard_of(game.table.group.id, SHARDS)]
            for name, bot in by_name.items():
                base = f"http://{bot.env['WEBAPP_LISTEN']}"
                async with http.get(
                    f"{base}/api/state", params={"g": token}, headers=headers
                ) as state:
                    body = await state.json()
                    assert state.status == (200 if name == owner else 503), (name, body)
                async with http.get(
                    f"{base}/api/events", params={"g": token}, headers=headers
                ) as events:
                    assert events.status == (200 if name == owner else 503), name
                    events.close()
                press = {"g": token, "do": "back"}  # «back to the table»: refused, or kept
                async with http.post(f"{base}/api/act", json=press, headers=headers) as act:
                    answer = await act.json()
                    assert act.status == (200 if name == owner else 503), (name, answer)
                    assert ("ok" in answer) == (name == owner)
    await stop_cleanly([a, b])
