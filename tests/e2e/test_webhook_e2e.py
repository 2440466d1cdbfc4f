"""The bot on a webhook: the fake Telegram posts every update to the bot's server, with
the secret token the bot set; a post without it changes nothing; the secret survives a
restart; the same database back on polling deletes the webhook (and serves /healthz on
METRICS_LISTEN). And what a monitor reads from the webhook's server: /metrics and
/healthz, and LOG_FORMAT=json's lines."""

from __future__ import annotations

import json
from pathlib import Path

from aiohttp import ClientSession

from bot.server.web import SECRET_NAME
from tests.bot.test_web import samples
from tests.e2e.harness import BotProcess, free_port, running_bot, settle, webhook_env
from tests.e2e.test_match_e2e import play_to_the_goat
from tests.fakegram import FakeTelegram


async def test_a_match_by_webhook_with_metrics_and_json_logs(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    env = webhook_env()
    async with running_bot(fakegram, tmp_path, PACING="false", LOG_FORMAT="json", **env) as bot:
        assert fakegram.webhook_url == env["WEBHOOK_URL"]
        played = await play_to_the_goat(fakegram, bot)
        assert fakegram.long_polls == 0 and len(fakegram.delivered_updates) > 10
        async with ClientSession(f"http://{env['WEBHOOK_LISTEN']}") as http:
            async with http.get("/healthz") as response:
                assert response.status == 200
                assert (await response.json())["status"] == "ok"
            async with http.get("/metrics") as response:
                assert response.status == 200
                found = samples(await response.text())

    presses = found[("domino_press_answer_seconds_count", ())]
    assert presses >= played + 1  # every press on a hand, and Боб's «Играю», was answered
    assert found[("domino_updates_total", (("type", "callback_query"),))] >= presses
    assert found[("domino_moves_total", ())] > 10
    assert found[("domino_games", (("status", "playing"),))] == 0  # the match is over
    assert found[("domino_telegram_calls_total", (("method", "sendPhoto"),))] > 0
    assert found[("domino_render_seconds_count", (("picture", "table"),))] > 0
    assert found[("domino_db_seconds_total", ())] > 0
    assert found[("domino_outgoing_waiting", (("lane", "game"),))] >= 0

    lines = [line for line in bot.log().splitlines() if not line.startswith("--- start")]
    entries = [json.loads(line) for line in lines]
    assert {"time", "level", "logger", "message"} <= entries[0].keys()
    moves = [e for e in entries if ": moves " in e["message"]]
    assert moves and all(e["chat_id"] < 0 and e["game_id"] > 0 for e in moves)


async def test_a_wrong_secret_is_refused_the_secret_is_kept_and_polling_deletes_the_hook(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    env = webhook_env()
    bot = BotProcess(fakegram, tmp_path, PACING="false", LOG_LEVEL="DEBUG", **env)
    await bot.start()
    (hook,) = fakegram.transcript.calls("setWebhook", ok=True)
    secret = hook.params["secret_token"]
    assert hook.params["drop_pending_updates"] is False
    assert "callback_query" in hook.params["allowed_updates"]
    assert bot.stored("SELECT value FROM bot_values WHERE name = ?", SECRET_NAME) == [(secret,)]

    alice = fakegram.add_user("Алиса", username="alice")
    group = fakegram.add_group("Домино во дворе", members=[alice], admins=[alice])
    forged = {
        "update_id": 10_000,
        "message": {
            "message_id": 1,
            "date": 1,
            "chat": {"id": group.id, "type": "group", "title": group.title},
            "from": {"id": alice.id, "is_bot": False, "first_name": "Алиса"},
            "text": "/domino",
            "entities": [{"type": "bot_command", "offset": 0, "length": 7}],
        },
    }
    async with ClientSession() as http:
        for headers in ({"X-Telegram-Bot-Api-Secret-Token": "wrong"}, {}):
            async with http.post(env["WEBHOOK_URL"], json=forged, headers=headers) as response:
                assert response.status == 401
    await alice.command(group, "domino")  # delivered by the fake, with the secret
    await group.wait_for_message(lambda m: "Игроки" in m.content)
    await settle(fakegram)
    assert bot.stored("SELECT COUNT(*) FROM games") == [(1,)]  # the forged ones made none
    assert len(group.bot_messages) == 1

    await bot.restart(kill=False)
    again = fakegram.transcript.calls("setWebhook", ok=True)[-1]
    assert again.params["secret_token"] == secret

    assert await bot.stop() == 0
    bot.env = {name: value for name, value in bot.env.items() if not name.startswith("WEBHOOK_")}
    bot.env["METRICS_LISTEN"] = f"127.0.0.1:{free_port()}"  # polling: a server for them only
    await bot.start()  # up once it long-polls: the webhook went first
    assert fakegram.webhook_url is None
    assert fakegram.transcript.calls("deleteWebhook", ok=True)
    async with (
        ClientSession(f"http://{bot.env['METRICS_LISTEN']}") as http,
        http.get("/healthz") as response,
    ):
        assert response.status == 200
    assert await bot.stop() == 0
    assert not bot.problems(), bot.problem_report()
    assert secret not in bot.log()
