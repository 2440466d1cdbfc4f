"""Where hands are shown, chosen end to end: a person's own choice in the private
/settings, a group's default in its /settings (admins only), and joining a lobby
without ever opening the bot's private chat where the group shows hands in the group
(the default); a group that keeps hands in private still sends such a person by the
join link (tests/e2e/test_play_e2e.py, test_security_e2e.py, test_words_e2e.py).

Runs the bot as `python -m bot` against tests/fakegram (see harness.py)."""

from __future__ import annotations

import json

from bot.telegram.callbacks import HandsCb, SettingsSection
from i18n import Lang, t
from storage.records import HandsPlace
from tests.e2e.harness import (
    PRESS_SECONDS,
    REPLY_SECONDS,
    BotProcess,
    button_data,
    open_game,
    open_settings,
    set_group_hands,
    settle,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.world import MemberStatus


def hands_data(place: HandsPlace | None) -> str:
    return HandsCb(place=place.value if place else "default").pack()


async def test_a_person_chooses_where_their_hand_is_shown_in_the_private_settings(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    await alice.start()
    before = alice.private_chat.bot_messages[-1] if alice.private_chat.bot_messages else None
    await alice.command(alice.private_chat, "settings")
    settings = await alice.private_chat.wait_for_message(
        lambda m: any(b.callback_data == hands_data(None) for b in m.buttons),
        after=before,
        timeout=REPLY_SECONDS,
    )
    assert "Ваши кости: как в группе" in settings.content
    assert "«✋ Мои кости»" in settings.content
    assert "✅ Как в группе" in [b.text for b in settings.buttons]

    answer = await alice.press(settings, data=hands_data(HandsPlace.GROUP), timeout=PRESS_SECONDS)
    assert answer.answered and not answer.show_alert
    assert answer.text == "✋ Ваши кости: в группе.", answer
    await fakegram.wait_for(
        lambda: "✅ В группе" in [b.text for b in settings.buttons], timeout=REPLY_SECONDS
    )
    assert "Ваши кости: в группе" in settings.content
    assert bot.stored("SELECT hands FROM users WHERE id = ?", alice.id) == [("group",)]

    # Back to the group's default: nothing of her own is stored.
    answer = await alice.press(settings, data=hands_data(None), timeout=PRESS_SECONDS)
    assert answer.answered and not answer.show_alert, answer
    await fakegram.wait_for(
        lambda: "✅ Как в группе" in [b.text for b in settings.buttons], timeout=REPLY_SECONDS
    )
    assert bot.stored("SELECT hands FROM users WHERE id = ?", alice.id) == [(None,)]

    # A forged place changes nothing.
    forged = await alice.forge_press(settings, HandsCb(place="nowhere").pack())
    assert forged.show_alert, forged
    await settle(fakegram)
    assert bot.stored("SELECT hands FROM users WHERE id = ?", alice.id) == [(None,)]


async def test_an_admin_sets_where_the_group_shows_hands_and_nobody_else_may(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    group = fakegram.add_group("Двор", members=[alice, bob], admins=[alice])
    await bob.command(group, "settings")
    shown = await group.wait_for_message(lambda m: "Кости игроков" in m.content)
    assert "✋ Кости игроков: в группе и в личке" in shown.content  # the default
    refused = await bob.press(shown, data=button_data(shown, "✋ Кости"))
    assert refused.show_alert and "админы" in (refused.text or "")  # a section: admins only
    shown = await open_settings(group, alice, SettingsSection.HANDS)
    assert "✅ Там и там" in [b.text for b in shown.buttons]

    refused = await bob.press(shown, data=hands_data(HandsPlace.PRIVATE))
    assert refused.show_alert and "админы" in (refused.text or "")
    ((stored,),) = bot.stored("SELECT settings FROM chats WHERE id = ?", group.id)
    assert "hands" not in json.loads(stored)
    # The private chat's "as the group" is no group's choice.
    stale = await alice.forge_press(shown, hands_data(None))
    assert stale.show_alert, stale

    done = await alice.press(shown, data=hands_data(HandsPlace.PRIVATE))
    assert not done.show_alert and done.text == "✋ Кости игроков: в личке.", done
    await group.wait_for_message(lambda m: m is shown and "✋ Кости игроков: в личке" in m.content)
    ((stored,),) = bot.stored("SELECT settings FROM chats WHERE id = ?", group.id)
    assert json.loads(stored)["hands"] == "private"


async def test_someone_who_never_started_the_bot_sits_down_from_the_lobby(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    """The group shows hands in the group (its default): nobody needs the private chat,
    the creator included."""
    dora = fakegram.add_user("Дора", username="dora")  # never pressed Start
    carol = fakegram.add_user("Карина", username="carol")  # never pressed Start
    group = fakegram.add_group("Двор", members=[dora, carol], admins=[dora])
    await dora.command(group, "domino")
    lobby = await group.wait_for_message(lambda m: "Игроки" in m.content, timeout=REPLY_SECONDS)
    assert "(1/4)" in lobby.content and "Дора" in lobby.content
    assert t("lobby.hint_in_group", Lang.RU) in lobby.content

    answer = await carol.press(lobby, data=button_data(lobby, "Играю"), timeout=PRESS_SECONDS)
    assert answer.answered and answer.url is None and not answer.show_alert, answer
    await group.wait_for_message(
        lambda m: m is lobby and "(2/4)" in m.content and "Карина" in m.content,
        timeout=REPLY_SECONDS,
    )
    seated = bot.stored("SELECT user_id FROM seats ORDER BY seat")
    assert seated == [(dora.id,), (carol.id,)]
    assert carol.private_chat.bot_messages == []  # the bot never wrote to her


async def test_a_group_keeping_hands_in_private_still_sends_a_new_person_by_the_link(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    carol = fakegram.add_user("Карина", username="carol")  # never pressed Start
    game = await open_game(fakegram, [alice], seats=2, start=False, hands=HandsPlace.PRIVATE)
    game.group.members[carol.id] = MemberStatus.MEMBER
    answer = await carol.press(game.lobby, data=button_data(game.lobby, "Играю"))
    assert answer.answered and answer.url is not None, answer
    assert answer.url.startswith("https://t.me/domino_test_bot?start=j")
    await settle(fakegram)
    assert "Карина" not in game.lobby.content

    # Set back to both places, the next press seats her at once.
    await set_group_hands(game.group, alice, HandsPlace.BOTH)
    answer = await carol.press(game.lobby, data=button_data(game.lobby, "Играю"))
    assert answer.answered and answer.url is None and not answer.show_alert, answer
    await game.group.wait_for_message(
        lambda m: m is game.lobby and "Карина" in m.content, timeout=REPLY_SECONDS
    )
