"""The Mini App's other presses through the bot as a process and the fake Telegram: the
hint on the person's own turn (the same alert as the hand's «💡 Подсказка», refused
off their turn and where the group turned hints off), and «🙋 Я снова играю» for a
person whose seat a computer took after three timeouts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from aiohttp import ClientSession

from domino.timing import TurnTimer
from tests.e2e.harness import (
    button_data,
    open_game,
    running_bot,
    set_turn_timer,
    webapp_env,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.waiting import pace
from tests.fakegram.webapp import WebAppLaunch

OPEN_TABLE = "🃏 Открыть стол"
SCALE = 0.05  # turn time, times the machine's pace (as tests/e2e/test_timers_e2e.py)


class App:
    """One person's app, opened from the group's table, speaking the API."""

    def __init__(self, http: ClientSession, launch: WebAppLaunch) -> None:
        self.http = http
        self.launch = launch
        assert launch.start_param is not None
        self.token = launch.start_param

    async def state(self) -> dict[str, Any]:
        async with self.http.get(
            "/api/state",
            params={"g": self.token},
            headers={"Authorization": self.launch.authorization},
        ) as response:
            assert response.status == 200, await response.text()
            state: dict[str, Any] = await response.json()
            return state

    async def act(self, kind: str, **body: object) -> dict[str, Any]:
        async with self.http.post(
            "/api/act",
            data=json.dumps({"g": self.token, "do": kind, **body}),
            headers={"Authorization": self.launch.authorization},
        ) as response:
            assert response.status == 200, await response.text()
            answer: dict[str, Any] = await response.json()
            return answer


async def test_a_hint_from_the_app_on_ones_own_turn_only(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    env = webapp_env()
    fakegram.add_web_app(env["WEBAPP_SHORT_NAME"], env["WEBAPP_URL"])
    async with running_bot(fakegram, tmp_path, PACING="false", **env) as bot:
        alice = fakegram.add_user("Алиса", username="alice")
        bob = fakegram.add_user("Боб", username="bob")
        game = await open_game(fakegram, [alice, bob], seats=2)
        table = game.table
        assert table is not None
        async with ClientSession(env["WEBAPP_URL"]) as http:
            apps = {
                seat: App(http, person.user.open_web_app_button(table, text=OPEN_TABLE))
                for seat, person in enumerate(game.people)
            }
            turn = bot.stored_match().turn
            assert turn is not None
            mover, waiter = apps[turn], apps[1 - turn]
            state = await mover.state()
            assert state["hand"]["hint"] is True and state["hand"]["your_turn"] is True
            move = state["game"]["move"]
            moves = len(bot.stored_match().log)

            hint = await mover.act("hint", move=move)
            assert hint["ok"] is True and hint["alert"] is True, hint
            assert hint["text"] and "%" not in hint["text"], hint
            assert await mover.act("hint", move=move) == hint  # the same hint, kept
            [(count,)] = bot.stored("SELECT count FROM hints WHERE seat = ?", turn)
            assert count == 1

            other = await waiter.act("hint", move=move)  # not their turn: politely refused
            assert other["ok"] is False and "Сейчас ходит" in (other["text"] or ""), other
            assert len(bot.stored_match().log) == moves  # a hint changes no game


async def test_back_from_the_app_after_the_computer_took_the_seat(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    env = webapp_env()
    fakegram.add_web_app(env["WEBAPP_SHORT_NAME"], env["WEBAPP_URL"])
    scale = f"{SCALE * pace():.3f}"
    async with running_bot(
        fakegram, tmp_path, PACING="false", TURN_TIME_SCALE=scale, COMPUTER_DELAY="1.0", **env
    ) as bot:
        bob = fakegram.add_user("Боб", username="bob")
        game = await open_game(fakegram, [bob], computers=1, start=False, turn_timer=None)
        group = game.group
        await set_turn_timer(group, bob, TurnTimer.S30)
        answer = await bob.press(game.lobby, data=button_data(game.lobby, "Начать"))
        assert answer.answered and not answer.show_alert, answer
        # Windows of no progress, each longer than a turn or a computer's pause.
        quiet = 5 + 2 * 30 * float(scale)
        table = await group.wait_for_message(lambda m: m.photo is not None, timeout=quiet)
        await group.wait_for_message(
            lambda m: "Боб: трижды кончилось время на ход" in m.content, timeout=quiet
        )
        async with ClientSession(env["WEBAPP_URL"]) as http:
            app = App(http, bob.open_web_app_button(table, text=OPEN_TABLE))
            state = await app.state()
            assert state["viewer"]["away"] is True

            back = await app.act("back")
            assert back["ok"] is True and "С возвращением" in (back["text"] or ""), back
            await group.wait_for_message(lambda m: "Боб снова в игре" in m.content, timeout=quiet)
            [(strikes, away)] = bot.stored(
                "SELECT strikes, away FROM seats WHERE user_id = ?", bob.id
            )
            assert away == 0 and strikes in (0, 1), (strikes, away)  # a short turn may run out
            assert (await app.state())["viewer"]["away"] is False

            again = await app.act("back")  # pressed twice: nothing more to do
            assert again["ok"] is False and "и так играете" in (again["text"] or ""), again
