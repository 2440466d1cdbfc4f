"""/rules through Telegram: the rules of the chat's game with a button per game; a press
shows that game's rules in the same message; a press that names no game, or comes forged
onto another message, is answered politely and changes nothing."""

from __future__ import annotations

from bot.telegram.callbacks import RulesCb
from tests.e2e.harness import BotProcess
from tests.fakegram import FakeTelegram

GAMES = [
    "📖 Козёл",
    "Классика",
    "Морской козёл",
    "Осёл",
    "Спортивное",
    "Пятёрки",
    "Тройки и пятёрки",
    "Берген",
    "Дубли",
    "Блиц",
    "Крест",
    "Шестёрка",
    "Втемную",
]


async def test_rules_page_through_the_games_in_place(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    john = fakegram.add_user("John", username="john", language_code="en")
    group = fakegram.add_group("Двор", members=[alice, john], admins=[alice])

    await alice.command(group, "rules")
    rules = await group.wait_for_message(lambda m: "Козёл" in m.content and bool(m.buttons))
    assert rules.content.startswith("Козёл — кто первым наберёт 101 очко, тот и козёл.")
    assert [button.text for button in rules.buttons] == GAMES

    answer = await alice.press(rules, text="Осёл")
    assert not answer.show_alert
    await group.wait_for_message(lambda m: m is rules and m.content.startswith("Осёл"))
    assert "125 очков, тот и осёл" in rules.content and "рубашкой вверх" in rules.content
    assert [button.text for button in rules.buttons][3] == "📖 Осёл"
    again = await john.press(rules, text="📖 Осёл")  # the page shown: answered, unchanged
    assert not again.show_alert and rules.content.startswith("Осёл")
    await john.press(rules, text="Спортивное")  # in the message's language, not John's
    await group.wait_for_message(lambda m: m is rules and "200 очков" in m.content)
    assert "пас" in rules.content
    await john.press(rules, text="Пятёрки")  # a game that scores during play
    await group.wait_for_message(lambda m: m is rules and m.content.startswith("Пятёрки"))
    assert "250 очков" in rules.content and "даже посреди раунда" in rules.content

    forged = await alice.forge_press(rules, RulesCb(game="chess", lang="ru").pack())
    assert forged.show_alert and "Таких правил нет" in (forged.text or "")
    await alice.command(group, "help")
    help_text = await group.wait_for_message(lambda m: "/surrender" in m.content)
    onto_help = await alice.forge_press(help_text, RulesCb(game="osel", lang="ru").pack())
    assert onto_help.show_alert and "устарела" in (onto_help.text or "")
    assert "/surrender" in help_text.content and not help_text.buttons
    assert "250 очков" in rules.content  # nothing else moved

    await john.start()
    await john.command(None, "rules")
    private = await john.private_chat.wait_for_message(lambda m: "goat" in m.content)
    await john.press(private, text="Sea Kozel (Sea Goat)")
    await john.private_chat.wait_for_message(lambda m: m is private and "naked goat" in m.content)
    assert not bot.problems(), bot.problem_report()
