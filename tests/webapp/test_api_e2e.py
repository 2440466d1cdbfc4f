"""The Mini App's API through real HTTP, against the bot as a process and the fake
Telegram (tests/e2e/harness.py): the app opened from the group table's «🃏 Открыть стол»
as a client opens it (initData signed with the fake's token). A person outside the
game's group is refused and changes nothing; a member who holds no seat sees the table
and no hand; a seated person plays through `/api/act` and the group's table, their
private hand and `/api/events` follow; a stale move is refused politely; another game's
and another user's launch data are refused; a person past the rate limit gets 429."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from aiohttp import ClientSession

from tests.e2e.harness import (
    REPLY_SECONDS,
    Person,
    open_game,
    running_bot,
    webapp_env,
    webhook_env,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.webapp import WebAppLaunch, init_data
from tests.fakegram.world import MemberStatus

OPEN_TABLE = "🃏 Открыть стол"


class Events:
    """An `/api/events` stream read in the background: the states it sent, in order."""

    def __init__(self) -> None:
        self.states: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()

    async def wait_for(
        self, check: Callable[[dict[str, Any]], bool], timeout: float = REPLY_SECONDS
    ) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            while True:
                found = next((s for s in reversed(self.states) if check(s)), None)
                if found is not None:
                    return found
                self.arrived.clear()
                await self.arrived.wait()

    async def read(self, http: ClientSession, token: str, launch: WebAppLaunch) -> None:
        async with http.get(
            "/api/events", params={"g": token}, headers={"Authorization": launch.authorization}
        ) as response:
            assert response.status == 200
            assert response.headers["Content-Type"].startswith("text/event-stream")
            kind = None
            async for raw in response.content:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    kind = line.removeprefix("event: ")
                elif line.startswith("data: ") and kind == "state":
                    self.states.append(json.loads(line.removeprefix("data: ")))
                    self.arrived.set()


@contextlib.asynccontextmanager
async def streaming(http: ClientSession, token: str, launch: WebAppLaunch) -> AsyncIterator[Events]:
    events = Events()
    task = asyncio.create_task(events.read(http, token, launch))
    try:
        yield events
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def test_the_api_end_to_end(fakegram: FakeTelegram, tmp_path: Path) -> None:
    env = webapp_env()
    fakegram.add_web_app(env["WEBAPP_SHORT_NAME"], env["WEBAPP_URL"])
    async with running_bot(fakegram, tmp_path, PACING="false", **env) as bot:
        alice = fakegram.add_user("Алиса", username="alice")
        bob = fakegram.add_user("Боб", username="bob")
        carol = fakegram.add_user("Карина", username="carol")  # in the group, no seat
        eve = fakegram.add_user("Ева", username="eve")  # not in the group
        game = await open_game(fakegram, [alice, bob], seats=2)
        game.group.members[carol.id] = MemberStatus.MEMBER
        table = game.table
        assert table is not None
        link = table.button(text=OPEN_TABLE).url
        assert link is not None and "startapp=" in link
        token = link.rpartition("startapp=")[2]

        async with ClientSession(env["WEBAPP_URL"]) as http:

            async def state(launch: WebAppLaunch, g: str = token) -> tuple[int, Any]:
                async with http.get(
                    "/api/state", params={"g": g}, headers={"Authorization": launch.authorization}
                ) as response:
                    assert response.headers["Cache-Control"] == "no-store"
                    return response.status, await response.json()

            async def act(launch: WebAppLaunch, body: Any) -> tuple[int, Any]:
                data = body if isinstance(body, str) else json.dumps(body)
                async with http.post(
                    "/api/act", data=data, headers={"Authorization": launch.authorization}
                ) as response:
                    return response.status, await response.json()

            def stored_log() -> int:
                return len(bot.stored_match().log)

            # The page itself, with its headers.
            async with http.get("/") as page:
                assert page.status == 200
                policy = page.headers["Content-Security-Policy"]
                assert (
                    "frame-ancestors https://web.telegram.org " + fakegram.url.rstrip("/") in policy
                )

            # Ева is no member of the group: refused, whatever she asks; nothing changes.
            moves = stored_log()
            eves = eve.open_web_app(link)
            status, body = await state(eves)
            assert status == 403 and "группы" in body["error"]
            status, body = await act(eves, {"g": token, "do": "play", "move": moves, "action": "d"})
            assert status == 403
            status, body = await act(eves, {"g": token, "do": "join"})
            assert status == 403
            assert stored_log() == moves

            # Карина is a member: the table, nobody's hand.
            carols = carol.open_web_app_button(table, text=OPEN_TABLE)
            assert carols.start_param == token
            status, public = await state(carols)
            assert status == 200
            assert public["viewer"]["seat"] is None and public["hand"] is None
            assert public["viewer"]["spectator"] is True

            # Another game's launch (its startapp names another token), and launch data
            # made for another user or signed by another bot, are refused.
            other = ("B" if token[0] != "B" else "C") + token[1:]
            foreign = WebAppLaunch("", init_data(fakegram.token, alice.to_api(), start_param=other))
            assert (await state(foreign))[0] == 403
            forged = carols.init_data.replace(str(carol.id), str(alice.id))
            assert (await state(WebAppLaunch("", forged)))[0] == 401
            wrong_bot = WebAppLaunch("", init_data("1:other", alice.to_api(), start_param=token))
            assert (await state(wrong_bot))[0] == 401
            assert stored_log() == moves

            # The person to move plays from the app.
            match = bot.stored_match()
            people = {0: game.people[0], 1: game.people[1]}
            mover: Person = people[match.turn or 0]
            waiter = people[1 - (match.turn or 0)]
            launch = mover.user.open_web_app_button(table, text=OPEN_TABLE)
            status, mine = await state(launch)
            assert status == 200 and mine["viewer"]["seat"] == match.turn
            assert mine["hand"]["your_turn"] is True
            move = mine["game"]["move"]
            play = (
                next((p for tile in mine["hand"]["tiles"] for p in tile["plays"]), None)
                or mine["hand"]["moves"][0]
            )

            async with (
                streaming(http, token, launch) as events,
                streaming(http, token, carols) as watching,
            ):
                first = await events.wait_for(lambda s: True)
                assert first["game"]["move"] == move  # at once, the current state
                await watching.wait_for(lambda s: s["game"]["move"] == move)

                # Junk and a stale move: refused politely, nothing changes.
                for junk in ("{", {"g": token, "do": "dance"}, {"g": "x", "do": "join"}):
                    status, body = await act(launch, junk)
                    assert status == 400 and body["error"]
                status, answer = await act(
                    launch, {"g": token, "do": "play", "move": move + 3, "action": play["action"]}
                )
                assert status == 200 and answer["ok"] is False
                assert "устарела" in answer["text"]
                assert stored_log() == moves

                table_version = len(table.history)
                hand = mover.hand()
                assert hand is not None
                hand_version = len(hand.history)
                status, answer = await act(
                    launch, {"g": token, "do": "play", "move": move, "action": play["action"]}
                )
                assert status == 200 and answer["ok"] is True, answer
                assert stored_log() > moves

                # The group's table and the private hand follow, and so do both apps.
                await fakegram.wait_for(
                    lambda: len(table.history) > table_version,
                    timeout=REPLY_SECONDS,
                    what="the group's table edited",
                )
                await fakegram.wait_for(
                    lambda: (
                        (h := mover.hand()) is not None
                        and (h is not hand or len(h.history) > hand_version)
                    ),
                    timeout=REPLY_SECONDS,
                    what="the private hand edited",
                )
                await fakegram.wait_for(waiter.my_turn, timeout=REPLY_SECONDS)
                moved = await events.wait_for(lambda s: s["game"]["move"] > move)
                assert moved["hand"] is not None and moved["hand"]["your_turn"] is False
                seen = await watching.wait_for(lambda s: s["game"]["move"] > move)
                assert seen["hand"] is None
                assert len(seen["table"]["tiles"]) >= len(public["table"]["tiles"])

            # Past the rate limit: 429, politely.
            statuses = await asyncio.gather(*(state(carols) for _ in range(60)))
            refused = [body for status, body in statuses if status == 429]
            assert refused and all("подождите" in body["error"].lower() for body in refused)
            assert {status for status, _ in statuses} <= {200, 429}

            # A stream open when the bot stops ends cleanly, and the bot exits at once.
            events = Events()
            reading = asyncio.create_task(events.read(http, token, launch))
            await events.wait_for(lambda s: True)
            assert await bot.stop() == 0
            async with asyncio.timeout(REPLY_SECONDS):
                await reading
        log = bot.log()
        assert "Traceback" not in log
        assert "initData" in log  # the refusals were logged, by their reason only
        for secret in (launch.fields["hash"], carols.fields["hash"], fakegram.token):
            assert secret not in log


async def test_with_a_webhook_the_app_is_served_by_the_webhook_server(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    env = webhook_env()
    env["WEBAPP_URL"] = f"http://{env['WEBHOOK_LISTEN']}/"
    env["WEBAPP_SHORT_NAME"] = "table"
    fakegram.add_web_app("table", env["WEBAPP_URL"])
    async with running_bot(fakegram, tmp_path, PACING="false", **env) as bot:
        alice = fakegram.add_user("Алиса", username="alice")
        bob = fakegram.add_user("Боб", username="bob")
        game = await open_game(fakegram, [alice, bob], seats=2)
        table = game.table
        assert table is not None
        launch = alice.open_web_app_button(table, text=OPEN_TABLE)
        async with ClientSession(env["WEBAPP_URL"]) as http:
            async with http.get("/") as page:
                assert page.status == 200 and "Content-Security-Policy" in page.headers
            async with http.get(
                "/api/state",
                params={"g": launch.start_param or ""},
                headers={"Authorization": launch.authorization},
            ) as response:
                assert response.status == 200
                assert (await response.json())["viewer"]["seat"] == 0
            async with http.get("/healthz") as health:
                assert health.status == 200
            # A stream open when the bot stops ends cleanly, and the bot exits at once.
            events = Events()
            reading = asyncio.create_task(events.read(http, launch.start_param or "", launch))
            await events.wait_for(lambda s: True)
            code = await bot.stop()
            assert code == 0
            async with asyncio.timeout(REPLY_SECONDS):
                await reading  # the stream ended
