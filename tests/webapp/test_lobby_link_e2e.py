"""The lobby and the Mini App: its «🃏 Открыть стол» stays through the list of games
(the handler that draws the list, and the lobby's buttons again on «↩️ Назад», keeps the
app's link, as the publisher draws it after any change); its creator fills and starts
it from the app."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from aiohttp import ClientSession

from tests.e2e.harness import (
    PRESS_SECONDS,
    button_data,
    open_game,
    running_bot,
    webapp_env,
)
from tests.fakegram import FakeTelegram

OPEN_TABLE = "🃏 Открыть стол"


async def test_the_lobbys_app_link_survives_the_list_of_games(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    env = webapp_env()
    fakegram.add_web_app(env["WEBAPP_SHORT_NAME"], env["WEBAPP_URL"])
    async with running_bot(fakegram, tmp_path, PACING="false", **env):
        alice = fakegram.add_user("Алиса", username="alice")
        game = await open_game(fakegram, [alice], start=False)
        lobby = game.lobby
        link = lobby.button(text=OPEN_TABLE).url
        assert link is not None and "startapp=" in link

        shown = lobby.content, tuple(b.text for b in lobby.buttons)
        answer = await alice.press(lobby, data=button_data(lobby, "🎲"), timeout=PRESS_SECONDS)
        assert answer.answered and not answer.show_alert, answer
        await fakegram.wait_for(lambda: OPEN_TABLE not in [b.text for b in lobby.buttons])

        answer = await alice.press(lobby, data=button_data(lobby, "Назад"), timeout=PRESS_SECONDS)
        assert answer.answered and not answer.show_alert, answer
        await fakegram.wait_for(lambda: any(b.text == OPEN_TABLE for b in lobby.buttons))
        assert lobby.button(text=OPEN_TABLE).url == link
        assert (lobby.content, tuple(b.text for b in lobby.buttons)) == shown


async def test_the_lobbys_creator_fills_and_starts_it_from_the_app(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    """The creator's app offers the lobby's «🤖 Добавить компьютер» and «▶️ Начать», which
    act as the lobby's buttons do; someone else seated is refused (only the creator or
    an admin of the group), and their app offers neither."""
    env = webapp_env()
    fakegram.add_web_app(env["WEBAPP_SHORT_NAME"], env["WEBAPP_URL"])
    async with running_bot(fakegram, tmp_path, PACING="false", **env) as bot:
        alice = fakegram.add_user("Алиса", username="alice")  # the creator, the admin
        bob = fakegram.add_user("Боб", username="bob")
        game = await open_game(fakegram, [alice, bob], seats=4, start=False)
        lobby = game.lobby
        async with ClientSession(env["WEBAPP_URL"]) as http:
            launches = {
                user.first_name: user.open_web_app_button(lobby, text=OPEN_TABLE)
                for user in (alice, bob)
            }

            async def call(name: str, method: str, path: str, body: object = None) -> Any:
                launch = launches[name]
                headers = {"Authorization": launch.authorization}
                async with http.request(
                    method,
                    path,
                    params={"g": launch.start_param or ""} if method == "GET" else None,
                    data=None if body is None else json.dumps(body),
                    headers=headers,
                ) as response:
                    assert response.status == 200, await response.text()
                    return await response.json()

            token = launches["Алиса"].start_param
            assert (await call("Алиса", "GET", "/api/state"))["viewer"]["controls"] is True
            assert (await call("Боб", "GET", "/api/state"))["viewer"]["controls"] is False

            refused = await call("Боб", "POST", "/api/act", {"g": token, "do": "start"})
            assert refused["ok"] is False and "создатель" in (refused["text"] or ""), refused
            refused = await call("Боб", "POST", "/api/act", {"g": token, "do": "add_computer"})
            assert refused["ok"] is False, refused
            assert bot.stored("SELECT status FROM games") == [("lobby",)]

            for seated in ("(3/4)", "(4/4)"):
                added = await call("Алиса", "POST", "/api/act", {"g": token, "do": "add_computer"})
                assert added["ok"] is True, added
                await fakegram.wait_for(lambda seated=seated: seated in lobby.content)
            started = await call("Алиса", "POST", "/api/act", {"g": token, "do": "start"})
            assert started["ok"] is True, started
            await game.group.wait_for_message(lambda m: m.photo is not None)  # the table
            assert bot.stored("SELECT status FROM games") == [("playing",)]
            state = await call("Алиса", "GET", "/api/state")
            assert state["viewer"]["controls"] is False and state["hand"] is not None
