"""The words players read, end to end: a lobby whose creator never pressed Start in the
bot's chat says why its table is empty, and stops saying it once someone sits down.

Runs the bot as `python -m bot` against tests/fakegram (see harness.py)."""

from __future__ import annotations

from i18n import Lang, t
from tests.e2e.harness import REPLY_SECONDS, BotProcess, button_data
from tests.fakegram import FakeTelegram


async def test_a_lobby_whose_creator_never_started_the_bot_says_why_it_is_empty(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    dora = fakegram.add_user("Дора", username="dora")  # never pressed Start
    group = fakegram.add_group("Двор", members=[dora], admins=[dora])
    await dora.command(group, "domino")
    lobby = await group.wait_for_message(lambda m: "Игроки" in m.content, timeout=REPLY_SECONDS)
    assert "(0/4)" in lobby.content
    assert t("lobby.nobody", Lang.RU) in lobby.content

    answer = await dora.press(lobby, data=button_data(lobby, "Играю"))
    assert answer.answered and answer.url is not None  # the deep link to the bot's chat
    await dora.start(answer.url.rpartition("start=")[2])
    await group.wait_for_message(
        lambda m: m is lobby and "(1/4)" in m.content, timeout=REPLY_SECONDS
    )
    assert t("lobby.nobody", Lang.RU) not in lobby.content
