"""A plain message in the private chat gets a short help with the buttons to start, once
in a while (a chatty person is not answered at every line), in the person's language."""

from __future__ import annotations

from bot.telegram.callbacks import RulesCb
from tests.e2e.harness import BotProcess, settle
from tests.fakegram import FakeTelegram


async def test_a_plain_question_in_private_gets_a_short_help_with_buttons(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    await alice.start()
    welcome = await alice.private_chat.wait_for_message(lambda m: "Привет" in m.content)
    await alice.send(None, "привет, как играть?")
    helped = await alice.private_chat.wait_for_message(
        lambda m: "/domino" in m.content, after=welcome
    )
    assert "добавьте меня в группу" in helped.content
    [add], [rules] = [[b] for b in helped.buttons]
    assert add.text == "➕ Добавить в группу"
    assert add.url == "https://t.me/domino_test_bot?startgroup=true"
    assert rules.text == "📖 Правила" and rules.callback_data is not None
    assert RulesCb.unpack(rules.callback_data).lang == "ru"
    # The button opens the rules in the same message.
    answer = await alice.press(helped, data=rules.callback_data)
    assert answer.answered and not answer.show_alert
    await fakegram.wait_for(lambda: "101" in helped.content)

    # More chatter right away: no second help (counted after the bot fell quiet).
    await alice.send(None, "а дальше?")
    await alice.send(None, "алло")
    await settle(fakegram)
    helps = [m for m in alice.private_chat.bot_messages if "/help" in m.content]
    assert len(helps) == 1, [m.content for m in alice.private_chat.bot_messages]


async def test_the_private_help_speaks_the_persons_language(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    john = fakegram.add_user("John", username="john", language_code="en")
    await john.start()
    welcome = await john.private_chat.wait_for_message(lambda m: "Hi" in m.content)
    await john.send(None, "hi, how do I play?")
    helped = await john.private_chat.wait_for_message(
        lambda m: "/domino" in m.content, after=welcome
    )
    assert "add me to a group" in helped.content
    assert [b.text for b in helped.buttons] == ["➕ Add to a group", "📖 Rules"]
