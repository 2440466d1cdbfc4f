"""The words players read, end to end: a lobby whose creator never pressed Start in the
bot's chat, in a group that keeps hands in private, has an empty table until they go
by the join link; where hands are shown in the group, it seats them at once
(tests/e2e/test_hands_settings_e2e.py).

Runs the bot as `python -m bot` against tests/fakegram (see harness.py)."""

from __future__ import annotations

from i18n import Lang, t
from storage.records import HandsPlace
from tests.e2e.harness import REPLY_SECONDS, BotProcess, button_data, set_group_hands
from tests.fakegram import FakeTelegram


async def test_where_hands_are_kept_in_private_a_creator_never_started_sits_by_the_link(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    dora = fakegram.add_user("Дора", username="dora")  # never pressed Start
    group = fakegram.add_group("Двор", members=[dora], admins=[dora])
    await set_group_hands(group, dora, HandsPlace.PRIVATE)
    await dora.command(group, "domino")
    lobby = await group.wait_for_message(lambda m: "Игроки" in m.content, timeout=REPLY_SECONDS)
    assert "(0/4)" in lobby.content
    assert t("lobby.nobody", Lang.RU) in lobby.content  # a group with hands in private
    assert t("lobby.hint_in_group", Lang.RU) not in lobby.content

    answer = await dora.press(lobby, data=button_data(lobby, "Играю"))
    assert answer.answered and answer.url is not None  # the deep link to the bot's chat
    await dora.start(answer.url.rpartition("start=")[2])
    await group.wait_for_message(
        lambda m: m is lobby and "(1/4)" in m.content, timeout=REPLY_SECONDS
    )
    assert t("lobby.nobody", Lang.RU) not in lobby.content
    assert t("lobby.nobody_in_group", Lang.RU) not in lobby.content
