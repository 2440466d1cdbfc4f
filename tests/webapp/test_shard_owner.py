"""The Mini App with several instances that all play (shard mode, issue 35): the API is
served by whichever instance the proxy hands a request to, and only the one that plays
the game's chat answers it. Another answers 503 having done nothing (no Telegram call,
no change), so that the proxy passes the request on (deploy/nginx.conf); the owner
carries a press out in the chat's shard scope, so a press made while the shard moved
is refused whole (503 again); an event stream ends once the chat is played elsewhere.
(One instance plays every chat: test_access.py.)"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientResponse, web
from aiohttp.test_utils import TestClient, TestServer

from bot.app.people import Person
from bot.app.usecases.viewing import Viewing
from bot.server.shard_mode import ShardOwnership
from bot.webapp.access import Access
from bot.webapp.auth import InitDataCheck
from bot.webapp.server import RateLimits, WebAppServer
from storage import shards
from storage.connect import open_database
from storage.db import Database, Deposed, Fence
from storage.records import GameRecord
from tests.bot.app_setup import ALICE, CHAT, FakeTime, Setup, make, two_seated
from tests.fakegram.webapp import init_data

TOKEN = "123456:ABC-shard-owner"
COUNT = 16
SHARD = shards.shard_of(CHAT.id, COUNT)
BOB = Person(502, "Боб", language_code="ru")


class Keeper:
    """The part of `ShardKeeper` the ownership asks: the shards held (shard → term) and
    their fences, a refusal losing the shard as the real keeper's does."""

    def __init__(self) -> None:
        self.count = COUNT
        self.held: dict[int, int] = {}
        self.lost: list[int] = []

    def owned(self) -> dict[int, int]:
        return dict(self.held)

    def fence_for(self, shard: int) -> Fence | None:
        term = self.held.get(shard)
        if term is None:
            return None

        def deposed(refusal: Deposed) -> None:
            self.lost.append(shard)
            self.held.pop(shard, None)

        return Fence(shards.lease_name(shard), term, deposed)


@dataclass
class Api:
    setup: Setup
    client: TestClient[Any, Any]
    game: GameRecord
    keeper: Keeper
    member_calls: list[tuple[int, int]]

    @property
    def db(self) -> Database:
        return self.setup.db

    @property
    def token(self) -> str:
        assert self.game.join_token is not None
        return self.game.join_token

    def auth(self, person: Person) -> dict[str, str]:
        user = {"id": person.id, "is_bot": False, "first_name": person.first_name}
        return {"Authorization": "tma " + init_data(TOKEN, user)}

    async def state(self, person: Person) -> ClientResponse:
        return await self.client.get(
            "/api/state", params={"g": self.token}, headers=self.auth(person)
        )

    async def events(self, person: Person) -> ClientResponse:
        return await self.client.get(
            "/api/events", params={"g": self.token}, headers=self.auth(person)
        )

    async def act(self, person: Person, body: dict[str, Any]) -> ClientResponse:
        return await self.client.post(
            "/api/act", data=json.dumps({"g": self.token, **body}), headers=self.auth(person)
        )

    async def a_move(self) -> tuple[Person, dict[str, Any]]:
        """Who is to move, and a press of theirs that moves the game on (asked while
        the game is played here)."""
        game = await self.setup.game(self.game.id)
        assert game.match is not None
        mover = ALICE if game.match.turn == 0 else BOB
        state = await (await self.state(mover)).json()
        play = (
            next((p for tile in state["hand"]["tiles"] for p in tile["plays"]), None)
            or state["hand"]["moves"][0]
        )
        return mover, {"do": "play", "move": state["game"]["move"], "action": play["action"]}


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[Api]:
    setup = make(await open_database(tmp_path / "app.sqlite3"), FakeTime(), seed=3)
    await setup.app.resume()
    calls: list[tuple[int, int]] = []

    async def is_member(chat_id: int, user_id: int) -> bool:
        calls.append((chat_id, user_id))  # a call to Telegram (getChatMember)
        return chat_id == CHAT.id and user_id in (ALICE.id, BOB.id)

    assert await shards.take_shard(setup.db, SHARD, "me", now=1000.0, ttl=1e9) == 1
    keeper = Keeper()
    keeper.held[SHARD] = 1
    app = setup.app
    server = WebAppServer(
        Access(InitDataCheck(TOKEN)),
        app.web,
        app.dispatch,
        viewing=Viewing(app.lobby.context, is_member),
        playing=app.playing,
        hints=app.hints,
        lobby=app.lobby,
        endings=app.endings,
        limits=RateLimits(rate=1000, burst=1000),
        keepalive=0.1,
        ownership=ShardOwnership(keeper),  # type: ignore[arg-type]
    )
    web_app = web.Application()
    server.add_routes(web_app)
    client = TestClient(TestServer(web_app))
    await client.start_server()
    try:
        game = await two_seated(setup, "kozel", BOB)
        yield Api(setup, client, game, keeper, calls)
    finally:
        await client.close()
        await setup.close()
        await setup.db.close()


async def test_a_game_played_by_another_instance_is_answered_503_with_nothing_done(
    api: Api,
) -> None:
    mover, press = await api.a_move()
    before = await api.setup.game(api.game.id)
    api.keeper.held.clear()  # the shard is another instance's now
    api.member_calls.clear()

    for response in (await api.state(mover), await api.events(mover), await api.act(mover, press)):
        assert response.status == 503
        assert response.headers["Retry-After"] == "1"
        assert response.headers["Cache-Control"] == "no-store"
        assert "ничего не изменилось" in (await response.json())["error"]
    assert api.member_calls == []  # Telegram was not asked
    assert (await api.setup.game(api.game.id)).version == before.version
    assert api.keeper.lost == []


async def test_a_game_played_here_is_answered_and_its_press_checks_its_shard_s_fence(
    api: Api,
) -> None:
    mover, press = await api.a_move()
    before = await api.setup.game(api.game.id)
    response = await api.act(mover, press)
    assert response.status == 200
    assert (await response.json())["ok"] is True
    moved = await api.setup.game(api.game.id)
    assert moved.version > before.version

    # Another instance took the shard (this one stalled past its lease, say): the next
    # press is refused by the shard's fence, whole, and the shard is lost here.
    assert await shards.take_shard(api.db, SHARD, "other", now=2e9, ttl=15.0) == 2
    mover, press = await api.a_move()
    response = await api.act(mover, press)
    assert response.status == 503
    assert (await api.setup.game(api.game.id)).version == moved.version
    assert api.keeper.lost == [SHARD]
    assert (await api.state(mover)).status == 503  # and played elsewhere from now on


async def test_an_event_stream_ends_once_its_game_is_played_elsewhere(api: Api) -> None:
    response = await api.events(ALICE)
    assert response.status == 200
    first = await response.content.readline()
    assert first.startswith(b"event: state")
    api.keeper.held.clear()  # the shard moved: no change of the game reaches this stream
    async with asyncio.timeout(5):
        rest = await response.content.read()
    assert b"event: state" not in rest  # ended, for the app to open it again elsewhere
