"""A draw offered from the Mini App, through the bot as a process and the fake Telegram:
the app's «🤝 Предложить ничью» (`{"do": "draw", "move": <round>}`) asks the group as
the hand's button does, a second offer in the round and an offer naming another round
are refused and change nothing, a spectator's app has no offer, and the other person's
«✅ За ничью» in the group ends the match drawn, which the app then shows."""

from __future__ import annotations

from pathlib import Path

from aiohttp import ClientSession

from tests.e2e.harness import button_data, open_game, running_bot, webapp_env
from tests.fakegram import FakeTelegram
from tests.webapp.test_api_turns_e2e import OPEN_TABLE, App


async def test_a_draw_offered_from_the_app_is_asked_in_the_group(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    env = webapp_env()
    fakegram.add_web_app(env["WEBAPP_SHORT_NAME"], env["WEBAPP_URL"])
    async with running_bot(fakegram, tmp_path, PACING="false", **env) as bot:
        alice = fakegram.add_user("Алиса", username="alice")
        bob = fakegram.add_user("Боб", username="bob")
        eve = fakegram.add_user("Ева", username="eve")
        game = await open_game(fakegram, [alice, bob], seats=2)
        await eve.join(game.group)
        table = game.table
        assert table is not None
        async with ClientSession(env["WEBAPP_URL"]) as http:
            app = App(http, alice.open_web_app_button(table, text=OPEN_TABLE))
            watcher = App(http, eve.open_web_app_button(table, text=OPEN_TABLE))
            state = await app.state()
            assert state["hand"]["offer_draw"] == 1, state["hand"]
            assert (await watcher.state())["hand"] is None  # a spectator has no offer

            wrong = await app.act("draw", move=2)  # a round the match is not in
            assert wrong["ok"] is False, wrong
            assert bot.stored("SELECT COUNT(*) FROM cancel_votes") == [(0,)]

            offered = await app.act("draw", move=1)
            assert offered["ok"] is True, offered
            assert offered["text"] == "🤝 Ничья предложена: ждём ответа остальных."
            asked = await game.group.wait_for_message(
                lambda m: "Алиса предлагает ничью" in m.content
            )
            again = await app.act("draw", move=1)  # once a round
            assert again["ok"] is False and again["text"], again
            assert bot.stored("SELECT kind, round_no, state FROM cancel_votes") == [
                ("draw", 1, "open")
            ]

            await bob.press(asked, data=button_data(asked, "За ничью"))
            await game.group.wait_for_message(lambda m: m.content.startswith("🤝 Ничья:"))
            assert bot.stored("SELECT status, ending FROM games") == [("finished", "draw")]
            final = await app.state()  # read from what is committed
            assert final["hand"] is None and final["game"]["status"] == "finished", final
