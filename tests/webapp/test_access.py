"""Who sees what through the Mini App's API, in one process: the application over a real
database file and a fake Bot API (tests/bot/app_setup.py), the app's routes on an
aiohttp test server, initData signed by the fake's signer. A seated person gets their
seat's view, a member of the group the public view (no hand), anyone else 403; junk is
answered 400 and changes nothing; the page's files and headers; the live front end
keeps the newest record only. (Through the bot as a process: test_api_e2e.py.)"""

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
from bot.app.usecases.base import Refusal
from bot.app.usecases.viewing import MEMBER_SECONDS, Viewing
from bot.webapp.access import Access
from bot.webapp.auth import InitDataCheck
from bot.webapp.live import WebAppFrontEnd
from bot.webapp.server import STREAMS_PER_PERSON, RateLimits, WebAppServer, plain
from domino.rules import KOZEL
from storage.connect import open_database
from storage.records import GameRecord, GameStatus
from tests.bot.app_setup import ALICE, CHAT, FakeTime, Setup, make, two_seated
from tests.fakegram.webapp import init_data

TOKEN = "123456:ABC-webapp-test"
BOB = Person(502, "Боб", language_code="ru")
CAROL = Person(503, "Карина", language_code="ru")  # in the group, not seated
EVE = Person(504, "Ева", language_code="en")  # not in the group


def user(person: Person) -> dict[str, Any]:
    return {
        "id": person.id,
        "is_bot": False,
        "first_name": person.first_name,
        "language_code": person.language_code,
    }


@dataclass
class Api:
    setup: Setup
    client: TestClient[Any, Any]
    game: GameRecord
    member_calls: list[tuple[int, int]]

    @property
    def token(self) -> str:
        assert self.game.join_token is not None
        return self.game.join_token

    def auth(self, person: Person, *, start_param: str | None = None) -> dict[str, str]:
        return {"Authorization": "tma " + init_data(TOKEN, user(person), start_param=start_param)}

    async def state(self, person: Person, **kwargs: Any) -> ClientResponse:
        return await self.client.get(
            "/api/state", params={"g": self.token}, headers=self.auth(person, **kwargs)
        )

    async def act(self, person: Person, body: Any) -> ClientResponse:
        data = body if isinstance(body, str | bytes) else json.dumps(body)
        return await self.client.post("/api/act", data=data, headers=self.auth(person))


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[Api]:
    setup = make(await open_database(tmp_path / "app.sqlite3"), FakeTime(), seed=3)
    await setup.app.resume()
    calls: list[tuple[int, int]] = []

    async def is_member(chat_id: int, user_id: int) -> bool:
        calls.append((chat_id, user_id))
        return chat_id == CHAT.id and user_id in (ALICE.id, BOB.id, CAROL.id)

    app = setup.app
    viewing = Viewing(app.lobby.context, is_member)
    server = WebAppServer(
        Access(InitDataCheck(TOKEN)),
        app.web,
        app.dispatch,
        viewing=viewing,
        playing=app.playing,
        hints=app.hints,
        lobby=app.lobby,
        endings=app.endings,
        frame_ancestors=["http://127.0.0.1:9999"],
        limits=RateLimits(rate=1000, burst=1000),
        keepalive=0.2,
    )
    web_app = web.Application()
    server.add_routes(web_app)
    client = TestClient(TestServer(web_app))
    await client.start_server()
    try:
        game = await two_seated(setup, "kozel", BOB)
        yield Api(setup, client, game, calls)
    finally:
        await client.close()
        await setup.close()
        await setup.db.close()


async def test_a_seated_person_sees_their_seat_and_a_member_the_table_only(api: Api) -> None:
    response = await api.state(ALICE)
    assert response.status == 200
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    mine = await response.json()
    assert mine["viewer"]["seat"] == 0 and mine["hand"] is not None
    assert mine["game"]["status"] == "playing"

    response = await api.state(CAROL)
    assert response.status == 200
    public = await response.json()
    assert public["viewer"]["seat"] is None and public["hand"] is None
    assert public["viewer"]["may_join"] is False  # a running game has no seat to take
    # The public view holds no tile of any hand.
    seat_tiles = {(t["a"], t["b"]) for t in mine["hand"]["tiles"]}
    laid = {(t["a"], t["b"]) for t in public["table"]["tiles"]}
    assert not seat_tiles & laid or mine["game"]["move"] > 0
    assert "tiles" not in json.dumps(public["seats"]) or all(
        isinstance(s["tiles"], int) for s in public["seats"]
    )


async def test_anyone_else_is_refused_and_membership_is_asked_once_a_while(api: Api) -> None:
    response = await api.state(EVE)
    assert response.status == 403
    assert "group" in (await response.json())["error"]  # her own language: English
    for _ in range(3):
        assert (await api.state(CAROL)).status == 200
    assert api.member_calls.count((CHAT.id, CAROL.id)) == 1  # kept for a while
    assert (CHAT.id, ALICE.id) not in api.member_calls  # a seat needs no asking


async def test_no_init_data_or_a_launch_of_another_game_is_refused(api: Api) -> None:
    for headers in ({}, {"Authorization": "Bearer x"}, {"Authorization": "tma junk"}):
        response = await api.client.get("/api/state", params={"g": api.token}, headers=headers)
        assert response.status == 401
    other = "Zz" + api.token[2:] if not api.token.startswith("Zz") else "Yy" + api.token[2:]
    assert (await api.state(ALICE, start_param=other)).status == 403
    assert (await api.state(ALICE, start_param=api.token)).status == 200
    response = await api.client.get("/api/state", params={"g": "A" * 16}, headers=api.auth(ALICE))
    assert response.status == 404


async def test_junk_is_answered_400_and_changes_nothing(api: Api, caplog: Any) -> None:
    before = await api.setup.game(api.game.id)
    move = len(before.match.log) if before.match else 0
    for body in (
        "{",
        "[]",
        b"\xff\xfe",
        {"g": api.token},
        {"g": api.token, "do": "dance"},
        {"g": "../../etc", "do": "play", "move": move, "action": "d"},
        {"g": 5, "do": "play", "move": move, "action": "d"},
        {"g": api.token, "do": "play", "move": "1", "action": "d"},
        {"g": api.token, "do": "play", "move": True, "action": "d"},
        {"g": api.token, "do": "play", "move": -1, "action": "d"},
        {"g": api.token, "do": "play", "move": move, "action": "zz9"},
        {"g": api.token, "do": "play", "move": move, "action": ""},
        {"g": api.token, "do": "play", "move": move, "action": "x" * 5000},
        {"g": api.token, "do": "hint"},
    ):
        response = await api.act(ALICE, body)
        assert response.status == 400, body
        assert (await response.json())["error"]
    for params in ({}, {"g": ""}, {"g": "a/b"}, {"g": "1234567890123456"}):
        response = await api.client.get("/api/state", params=params, headers=api.auth(ALICE))
        assert response.status == 400
    assert (await api.setup.game(api.game.id)).version == before.version
    assert "Traceback" not in caplog.text


async def test_a_body_in_pieces_is_read_whole_and_one_too_large_is_refused(api: Api) -> None:
    body = json.dumps({"g": api.token, "do": "join"}).encode()

    async def pieces() -> AsyncIterator[bytes]:
        for start in range(0, len(body), 5):
            yield body[start : start + 5]

    response = await api.client.post("/api/act", data=pieces(), headers=api.auth(CAROL))
    assert response.status == 200  # chunked, no length: read whole
    assert (await response.json())["ok"] is False  # the lobby is closed: a polite no

    async def endless() -> AsyncIterator[bytes]:
        yield b'{"g": "' + b"x" * 10_000

    response = await api.client.post("/api/act", data=endless(), headers=api.auth(CAROL))
    assert response.status == 400


async def test_a_stale_move_is_refused_politely_and_changes_nothing(api: Api) -> None:
    game = await api.setup.game(api.game.id)
    assert game.match is not None
    mover = ALICE if game.match.turn == 0 else BOB
    state = await (await api.state(mover)).json()
    play = (
        next((p for tile in state["hand"]["tiles"] for p in tile["plays"]), None)
        or state["hand"]["moves"][0]
    )
    response = await api.act(
        mover,
        {"g": api.token, "do": "play", "move": state["game"]["move"] + 5, "action": play["action"]},
    )
    assert response.status == 200
    answer = await response.json()
    assert answer["ok"] is False and "устарела" in answer["text"]
    assert (await api.setup.game(api.game.id)).match.log == game.match.log  # type: ignore[union-attr]

    # The same press on the current move is made.
    response = await api.act(
        mover,
        {"g": api.token, "do": "play", "move": state["game"]["move"], "action": play["action"]},
    )
    answer = await response.json()
    assert answer["ok"] is True, answer
    assert len((await api.setup.game(api.game.id)).match.log) > len(game.match.log)  # type: ignore[union-attr]
    # A person not seated cannot play.
    response = await api.act(
        CAROL, {"g": api.token, "do": "play", "move": 0, "action": play["action"]}
    )
    assert (await response.json())["ok"] is False


async def test_the_page_and_its_files_with_their_headers(api: Api) -> None:
    static = Path(__file__).resolve().parents[2] / "bot" / "webapp" / "static"
    page = await api.client.get("/")
    if (static / "index.html").is_file():
        assert page.status == 200
        assert page.headers["Content-Type"].startswith("text/html")
        policy = page.headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy
        assert "frame-ancestors https://web.telegram.org http://127.0.0.1:9999" in policy
        assert page.headers["X-Content-Type-Options"] == "nosniff"
    for name in ("../server.py", "..%2Fserver.py", ".hidden", "nothing.js", "x.py"):
        response = await api.client.get(f"/static/{name}")
        assert response.status == 404, name
    for path in sorted(static.glob("*.js"))[:1] + sorted(static.glob("*.css"))[:1]:
        response = await api.client.get(f"/static/{path.name}")
        assert response.status == 200
        assert response.headers["Content-Type"].split(";")[0] in {"text/javascript", "text/css"}


async def test_the_rate_limit_answers_429(api: Api) -> None:
    limits = RateLimits(rate=1, burst=3, clock=lambda: 100.0)
    assert [limits.allow(7) for _ in range(5)] == [True, True, True, False, False]
    assert limits.allow(8)
    later = RateLimits(rate=1, burst=3, size=2)
    for uid in range(10):
        later.allow(uid)
    assert len(later._buckets) == 2  # bounded


def record(version: int) -> GameRecord:
    return GameRecord(
        id=1,
        chat_id=-1,
        status=GameStatus.LOBBY,
        creator_id=1,
        ruleset=KOZEL,
        seats_wanted=2,
        version=version,
    )


async def test_the_live_front_end_keeps_the_newest_record_only() -> None:
    live = WebAppFrontEnd()
    first, second = live.subscribe(1), live.subscribe(1)
    other = live.subscribe(2)
    live.show(record(5))
    live.show(record(7))
    live.show(record(6))  # late: dropped
    newest, reload = first.take()
    assert newest is not None and newest.version == 7 and not reload
    assert not first.changed.is_set()
    live.show(record(7))  # the same again is handed over (a hand may have changed)
    live.show_hand(1, 0)
    newest, reload = first.take()
    assert newest is not None and reload
    assert second.newest is not None and second.newest.version == 7
    assert other.newest is None and not other.changed.is_set()
    live.reload(1)
    live.show(record(2))  # after a reload: taken whatever its version
    newest, reload = first.take()
    assert newest is not None and newest.version == 2 and reload
    live.unsubscribe(first)
    live.unsubscribe(second)
    live.unsubscribe(other)
    assert live.open_apps() == 0


def test_plain_text_has_no_tags() -> None:
    assert plain("<b>Алиса</b> &amp; Боб") == "Алиса & Боб"
    assert plain("x < y") == "x < y"


async def test_the_event_stream_sends_the_state_keepalives_and_each_change_once(
    api: Api,
) -> None:
    game = await api.setup.game(api.game.id)
    assert game.match is not None
    mover = ALICE if game.match.turn == 0 else BOB
    response = await api.client.get("/api/events", params={"g": api.token}, headers=api.auth(mover))
    assert response.status == 200
    assert response.headers["Content-Type"].startswith("text/event-stream")
    lines: list[str] = []

    async def until(check: Any) -> None:
        async with asyncio.timeout(10):
            while not check():
                lines.append((await response.content.readline()).decode().rstrip("\n"))

    def states() -> list[dict[str, Any]]:
        return [json.loads(line[6:]) for line in lines if line.startswith("data: ")]

    await until(lambda: len(states()) == 1)
    first = states()[0]
    await until(lambda: ": keepalive" in lines)
    # The same record shown again (a hand redrawn) sends nothing new.
    api.setup.app.web.show(game)
    api.setup.app.web.show_hand(game.id, 0)
    play = next((p for tile in first["hand"]["tiles"] for p in tile["plays"]), None)
    play = play or first["hand"]["moves"][0]
    body = {"g": api.token, "do": "play", "move": first["game"]["move"], "action": play["action"]}
    assert (await (await api.act(mover, body)).json())["ok"] is True
    await until(lambda: len(states()) == 2)
    a, b = states()
    assert b["game"]["move"] > first["game"]["move"], {k for k in a if a[k] != b[k]}
    keepalives = lines.count(": keepalive")
    await until(lambda: lines.count(": keepalive") > keepalives)
    assert len(states()) == 2  # nothing changed meanwhile: nothing sent
    response.close()


async def test_one_person_holds_a_bounded_number_of_streams(api: Api) -> None:
    opened = []
    for _ in range(STREAMS_PER_PERSON):
        response = await api.client.get(
            "/api/events", params={"g": api.token}, headers=api.auth(CAROL)
        )
        assert response.status == 200
        opened.append(response)
    response = await api.client.get("/api/events", params={"g": api.token}, headers=api.auth(CAROL))
    assert response.status == 429
    for stream in opened:
        stream.close()


async def test_in_a_lobby_a_member_may_join_and_membership_is_asked_again_later(
    tmp_path: Path,
) -> None:
    setup = make(await open_database(tmp_path / "lobby.sqlite3"), FakeTime(), seed=3)
    await setup.app.resume()
    now = [0.0]
    asked: list[int] = []
    members = {ALICE.id, CAROL.id}

    async def is_member(chat_id: int, user_id: int) -> bool:
        asked.append(user_id)
        return user_id in members

    viewing = Viewing(setup.app.lobby.context, is_member, clock=lambda: now[0])
    try:
        await setup.app.people.remember(ALICE, can_message=True)
        await setup.app.people.remember(CAROL, can_message=True)
        assert await setup.run(setup.app.lobby.open(CHAT, ALICE)) is None
        lobby = await setup.game(1)
        assert lobby.join_token is not None
        seen = await viewing.see(lobby.join_token, CAROL)
        assert seen.seat is None and seen.may_join and seen.chat == CHAT.title
        mine = await viewing.see(lobby.join_token, ALICE)
        assert mine.seat == 0 and not mine.may_join
        with pytest.raises(Refusal):
            await viewing.see(lobby.join_token, EVE)
        with pytest.raises(Refusal):
            await viewing.see("A" * 16, CAROL)
        with pytest.raises(Refusal):
            await viewing.see("../etc/passwd", CAROL)

        # Карина takes the seat (the server calls Lobby.join after this check).
        await setup.run(setup.app.lobby.join(lobby.id, lobby.chat_id, CAROL))
        joined = await viewing.see(lobby.join_token, CAROL)
        assert joined.seat == 1 and not joined.may_join

        # Telegram's word is kept a while, then asked again: one who left is refused.
        members.discard(EVE.id)
        asked.clear()
        outsider = Person(505, "Гость")
        members.add(outsider.id)
        await viewing.see(lobby.join_token, outsider)
        members.discard(outsider.id)
        await viewing.see(lobby.join_token, outsider)  # still within the minute
        assert asked == [outsider.id]
        now[0] += MEMBER_SECONDS + 1
        with pytest.raises(Refusal):
            await viewing.see(lobby.join_token, outsider)
        assert asked == [outsider.id, outsider.id]
    finally:
        await setup.close()
        await setup.db.close()


async def test_a_draw_is_offered_from_the_app_once_a_round(api: Api) -> None:
    state = await (await api.state(ALICE)).json()
    assert state["hand"]["offer_draw"] == 1
    assert state["texts"]["offer_draw"] == "🤝 Предложить ничью"
    public = await (await api.state(CAROL)).json()
    assert public["hand"] is None  # a member who is not seated has no hand to offer from
    stale = await api.act(ALICE, {"g": api.token, "do": "draw", "move": 2})
    assert (await stale.json())["ok"] is False
    response = await api.act(ALICE, {"g": api.token, "do": "draw", "move": 1})
    answer = await response.json()
    assert answer["ok"] is True and "Ничья предложена" in answer["text"], answer
    again = await (await api.act(BOB, {"g": api.token, "do": "draw", "move": 1})).json()
    assert again["ok"] is False and "уже предлагали" in again["text"]
    outsider = await (await api.act(CAROL, {"g": api.token, "do": "draw", "move": 1})).json()
    assert outsider["ok"] is False
    rows = await api.setup.db.fetch_all("SELECT kind, state, started_by FROM cancel_votes")
    assert [tuple(row) for row in rows] == [("draw", "open", ALICE.id)]
