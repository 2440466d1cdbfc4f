"""Which game a group plays (issue 13), end to end through the fake Telegram with the bot as
a process: a whole match of Классика opened by `/domino classic`, an unknown game answered
politely, the lobby's game button, the group's default game in /settings, and /rules for
the game in the chat."""

from __future__ import annotations

from tests.e2e.harness import (
    BotProcess,
    Person,
    assert_hands_private,
    button_data,
    play_until,
    set_turn_timer,
    settle,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.world import FakeChat, FakeUser, StoredMessage

WAIT = 60.0  # generous: a loaded machine only makes the bot slower, never wrong


async def press_and_wait(
    user: FakeUser, group: FakeChat, lobby: StoredMessage, fragment: str, shows: str
) -> None:
    """`user` presses the lobby's button containing `fragment`, until the lobby shows `shows`."""
    answer = await user.press(lobby, data=button_data(lobby, fragment), timeout=WAIT)
    assert answer.answered and not answer.show_alert, answer
    await group.wait_for_message(lambda m: m is lobby and shows in m.content, timeout=WAIT)


async def test_a_whole_match_of_classic_from_domino_classic_to_its_winner(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    group = fakegram.add_group("Домино во дворе", members=[alice, bob], admins=[alice])
    for person in (alice, bob):
        await person.start()
        await person.private_chat.wait_for_message(lambda m: "Привет" in m.content)
    await set_turn_timer(group, alice)  # off: only the people and computers move the game

    await alice.command(group, "domino", "classic")
    lobby = await group.wait_for_message(lambda m: "Игроки" in m.content, timeout=WAIT)
    assert "Домино: Классика" in lobby.content and "игра до 100" in lobby.content
    assert "Рыба:" not in lobby.content  # K-9's fish modes are Козёл's
    assert any(b.text == "🎲 Игра: Классика" for b in lobby.buttons)
    assert any(b.text == "🎯 До 100" for b in lobby.buttons)  # T-6: the lowest target

    answer = await bob.press(lobby, data=button_data(lobby, "Играю"), timeout=WAIT)
    assert answer.answered and answer.url is None
    for _ in range(2):
        await alice.press(lobby, data=button_data(lobby, "компьютер"), timeout=WAIT)
    await group.wait_for_message(lambda m: m is lobby and "(4/4)" in m.content, timeout=WAIT)
    answer = await alice.press(lobby, data=button_data(lobby, "Начать"), timeout=WAIT)
    assert answer.answered and not answer.show_alert, answer

    table = await group.wait_for_message(
        lambda m: m.photo is not None and "раунд 1" in m.content, timeout=WAIT
    )
    assert "Классика" in table.content

    people = [Person(fakegram, alice), Person(fakegram, bob)]
    await play_until(
        fakegram, people, lambda: any("Победа —" in m.content for m in group.bot_messages)
    )
    await settle(fakegram)

    match = bot.stored_match()
    assert match.ruleset.variant.value == "classic" and match.ruleset.target == 100
    assert match.over and match.winners and not match.losers
    assert not any("Козёл —" in m.content for m in group.bot_messages)  # a winner, no козёл
    end = next(m.content for m in group.bot_messages if "Победа —" in m.content)
    names = ["Алиса", "Боб", "🤖 Компьютер 1", "🤖 Компьютер 2"]
    winner_line = end.splitlines()[0]
    for side in match.winners:
        assert names[side] in winner_line
    for side, account in enumerate(match.scores):
        assert f"{names[side]}: {account.recorded}" in end
    assert max(account.recorded for account in match.scores) >= 100  # T-6
    await group.wait_for_message(lambda m: m is table and "Партия окончена" in m.content)
    checked = assert_hands_private(fakegram, match, {0: alice.id, 1: bob.id})
    assert checked > 20
    assert sum(p.presses for p in people) > 5


async def test_the_lobby_switches_games_and_a_group_keeps_a_default_game(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")  # an admin
    bob = fakegram.add_user("Боб", username="bob")  # a member
    group = fakegram.add_group("Домино во дворе", members=[alice, bob], admins=[alice])
    for person in (alice, bob):
        await person.start()
        await person.private_chat.wait_for_message(lambda m: "Привет" in m.content)

    # An unknown game is answered politely with the games there are; no lobby opens.
    await alice.command(group, "domino", "xyz")
    refused = await group.wait_for_message(lambda m: "Не знаю такой игры" in m.content)
    assert "/domino kozel — Козёл" in refused.content
    assert "/domino classic — Классика" in refused.content
    await settle(fakegram)
    assert bot.stored("SELECT id FROM games WHERE chat_id = ?", group.id) == []

    # A plain /domino opens the group's default game, Козёл; the button switches it.
    await alice.command(group, "domino")
    lobby = await group.wait_for_message(lambda m: "Игроки" in m.content, timeout=WAIT)
    assert "Домино: Козёл" in lobby.content and "Рыба:" in lobby.content
    await press_and_wait(alice, group, lobby, "🎯", "игра до 125")
    answer = await bob.press(lobby, data=button_data(lobby, "🎲"), timeout=WAIT)
    assert answer.show_alert and "админы чата" in (answer.text or ""), answer
    await press_and_wait(alice, group, lobby, "🎲 Игра: Козёл", "Домино: Классика")
    assert "игра до 100" in lobby.content and "Рыба:" not in lobby.content
    assert any(b.text == "🎲 Игра: Классика" for b in lobby.buttons)
    await press_and_wait(alice, group, lobby, "🎯", "игра до 150")
    # /rules tells the rules of the game in the group, to its target (the rules name tiles
    # of no hand: this test checks no hand's privacy), and in private the person's own.
    before = group.bot_messages[-1]
    await bob.command(group, "rules")
    rules = await group.wait_for_message(lambda m: "Классика" in m.content, after=before)
    assert "150 очков, тот и победил" in rules.content and "25" in rules.content
    await alice.command(None, "rules")
    await alice.private_chat.wait_for_message(lambda m: "Классика — кто" in m.content)
    await bob.command(None, "rules")
    await bob.private_chat.wait_for_message(lambda m: "Козёл — кто" in m.content)
    await press_and_wait(alice, group, lobby, "🎲 Игра: Классика", "Домино: Козёл")
    assert "игра до 101" in lobby.content  # back to Козёл's own defaults
    await press_and_wait(alice, group, lobby, "Отменить", "Набор в игру отменён")

    # An admin makes Классика the group's game: a plain /domino and /rules follow it.
    before = group.bot_messages[-1]
    await bob.command(group, "settings")
    shown = await group.wait_for_message(
        lambda m: any(b.callback_data == "dg1:classic" for b in m.buttons), after=before
    )
    assert [b.text for b in shown.buttons if (b.callback_data or "").startswith("dg1:")] == [
        "✅ 🎲 Козёл",
        "🎲 Классика",
    ]
    answer = await bob.press(shown, data="dg1:classic", timeout=WAIT)
    assert answer.show_alert, answer  # admins only
    answer = await alice.press(shown, data="dg1:classic", timeout=WAIT)
    assert answer.answered and not answer.show_alert and "Классика" in (answer.text or "")
    await group.wait_for_message(
        lambda m: m is shown and any(b.text == "✅ 🎲 Классика" for b in m.buttons)
    )
    before = group.bot_messages[-1]
    await bob.command(group, "rules")
    await group.wait_for_message(lambda m: "Классика" in m.content, after=before)
    before = group.bot_messages[-1]
    await alice.command(group, "domino")
    lobby = await group.wait_for_message(
        lambda m: "Игроки" in m.content, after=before, timeout=WAIT
    )
    assert "Домино: Классика" in lobby.content
    # The game named after /domino wins over the group's default, in any case.
    await press_and_wait(alice, group, lobby, "Отменить", "Набор в игру отменён")
    before = group.bot_messages[-1]
    await alice.command(group, "domino", "КОЗЁЛ")
    lobby = await group.wait_for_message(
        lambda m: "Игроки" in m.content, after=before, timeout=WAIT
    )
    assert "Домино: Козёл" in lobby.content
