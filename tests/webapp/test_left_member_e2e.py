"""Someone who leaves the group sees its table no more, at once: Telegram's service
message of their leaving reaches the Mini App's membership cache, which otherwise keeps
Telegram's word on a member for a minute."""

from __future__ import annotations

from pathlib import Path

from aiohttp import ClientSession

from tests.e2e.harness import open_game, running_bot, webapp_env
from tests.fakegram import FakeTelegram
from tests.fakegram.webapp import WebAppLaunch
from tests.fakegram.world import MemberStatus

OPEN_TABLE = "🃏 Открыть стол"


async def test_a_watcher_who_leaves_the_group_is_refused_at_once(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    env = webapp_env()
    fakegram.add_web_app(env["WEBAPP_SHORT_NAME"], env["WEBAPP_URL"])
    async with running_bot(fakegram, tmp_path, PACING="false", **env):
        alice = fakegram.add_user("Алиса", username="alice")
        bob = fakegram.add_user("Боб", username="bob")
        vera = fakegram.add_user("Вера", username="vera")  # watches, holds no seat
        game = await open_game(fakegram, [alice, bob], seats=2)
        group = game.group
        group.members[vera.id] = MemberStatus.MEMBER
        table = game.table
        assert table is not None
        async with ClientSession(env["WEBAPP_URL"]) as http:

            async def status(launch: WebAppLaunch) -> int:
                async with http.get(
                    "/api/state",
                    params={"g": launch.start_param or ""},
                    headers={"Authorization": launch.authorization},
                ) as response:
                    return response.status

            veras = vera.open_web_app_button(table, text=OPEN_TABLE)
            assert await status(veras) == 200  # a member: the table (and Telegram's word kept)
            # Вера leaves, then Боб: the bot takes the updates in order, and Боб's leaving
            # is the one the group hears of.
            await vera.leave(group)
            await bob.leave(group)
            await group.wait_for_message(lambda m: "Боб уходит" in m.content)
            assert await status(veras) == 403
