"""Commands in the group and in private: /rules, /help, /cancel, /leave, /hand, one game
per person and per group, and a fresh game after the end."""

from __future__ import annotations

from tests.e2e.harness import (
    PRESS_SECONDS,
    BotProcess,
    button_data,
    open_game,
    play_until,
    settle,
)
from tests.fakegram import FakeTelegram


async def test_rules_help_and_commands_in_the_wrong_chat(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    english = fakegram.add_user("John", username="john", language_code="en")
    group = fakegram.add_group("Двор", members=[alice, english], admins=[alice])
    await alice.command(group, "rules")
    rules = await group.wait_for_message(lambda m: "Козёл" in m.content)
    assert "101" in rules.content and "базар" in rules.content and "стучу" in rules.content
    # Алиса used the bot here first: the group speaks Russian, to John too; his private
    # chat speaks his own.
    await english.command(group, "rules")
    again = await group.wait_for_message(lambda m: "Козёл" in m.content, after=rules)
    assert "стучу" in again.content and "knock" not in again.content
    await english.start()
    await english.command(None, "rules")
    await english.private_chat.wait_for_message(lambda m: "goat" in m.content)
    await alice.command(group, "help")
    await group.wait_for_message(lambda m: "/domino" in m.content and "/cancel" in m.content)

    await alice.start()
    await alice.command(None, "domino")
    await alice.private_chat.wait_for_message(lambda m: "в группе" in m.content)
    await alice.command(None, "cancel")
    await alice.private_chat.wait_for_message(lambda m: "/cancel" in m.content)
    await alice.command(None, "nonsense")
    await alice.private_chat.wait_for_message(lambda m: "Не знаю такой команды" in m.content)
    await alice.command(None, "hand")
    await alice.private_chat.wait_for_message(lambda m: "не играете" in m.content)
    await alice.command(group, "hand")  # not seated here: no pointer to an empty chat
    await group.wait_for_message(lambda m: "Вы сейчас не играете здесь" in m.content)
    assert not any("личном чате" in m.content for m in group.bot_messages)
    before = alice.private_chat.last_bot_message
    await alice.start("hand")  # an old link: not in a game, so a welcome
    await alice.private_chat.wait_for_message(lambda m: "Привет" in m.content, after=before)

    # The «/» menus are set once polling runs (not before the first poll), in both languages.
    await settle(fakegram)
    assert {"domino", "rules", "help", "stats"} <= set(fakegram.commands_for())
    assert fakegram.commands_for(language_code="en") == fakegram.commands_for()


async def test_one_game_per_group_and_per_person(fakegram: FakeTelegram, bot: BotProcess) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(fakegram, [alice], seats=2, start=False, title="Первая")
    await alice.command(game.group, "domino")
    await game.group.wait_for_message(lambda m: "уже собирается игра" in m.content)

    second = fakegram.add_group("Вторая", members=[alice, bob], admins=[bob])
    await alice.command(second, "domino")
    await second.wait_for_message(lambda m: "Вы уже играете в «Первая»" in m.content)
    await bob.start()
    await bob.command(second, "domino")
    lobby = await second.wait_for_message(lambda m: "Игроки" in m.content)
    refused = await alice.press(lobby, data=button_data(lobby, "Играю"))
    assert refused.show_alert and "другой игре" in (refused.text or "")
    assert "Алиса" not in lobby.content
    assert bot.stored("SELECT COUNT(*) FROM seats WHERE user_id = ?", alice.id) == [(1,)]


async def test_cancel_asks_first_and_only_the_creator_or_an_admin_may(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(fakegram, [alice, bob], computers=2)
    await bob.command(game.group, "cancel")
    await game.group.wait_for_message(lambda m: "создатель или админ" in m.content)

    await alice.command(game.group, "cancel")
    confirm = await game.group.wait_for_message(lambda m: "Отменить текущую игру" in m.content)
    yes, no = button_data(confirm, "Да"), button_data(confirm, "Нет")
    # «Нет» forged onto another message of the bot's leaves that message as it is.
    lobby_text = game.lobby.content
    await alice.forge_press(game.lobby, no)
    assert game.lobby.content == lobby_text
    shrugged = await bob.press(confirm, data=no)
    assert shrugged.text == "Играем дальше."  # not his to answer: the confirmation stays
    forged = await bob.press(confirm, data=yes)
    assert forged.show_alert and "создатель или админ" in (forged.text or "")
    kept = await alice.press(confirm, data=button_data(confirm, "Нет"))
    assert kept.text == "Играем дальше."
    # Answered by her, the confirmation closes: a second press on it does nothing.
    await game.group.wait_for_message(
        lambda m: m is confirm and not m.buttons and m.content.endswith("Играем дальше.")
    )
    assert bot.stored("SELECT status FROM games") == [("playing",)]

    await alice.command(game.group, "cancel")
    confirm = await game.group.wait_for_message(
        lambda m: "Отменить текущую игру" in m.content and bool(m.buttons)
    )
    done = await alice.press(confirm, data=button_data(confirm, "Да"))
    assert done.text == "Игра отменена."
    assert bot.stored("SELECT status FROM games") == [("cancelled",)]
    assert game.table is not None
    await game.group.wait_for_message(lambda m: m is game.table and "Игра отменена" in m.content)
    for person in game.people:
        await person.chat.wait_for_message(lambda m: "Игра отменена" in m.content)
        assert person.hand() is None

    # The group is free again at once.
    await bob.command(game.group, "domino")
    await game.group.wait_for_message(lambda m: "Игроки" in m.content and m is not game.lobby)


async def test_leave_hands_the_seat_to_a_computer_and_hand_resends(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб <&>", username="bob")  # notices are HTML: names escaped
    game = await open_game(fakegram, [alice, bob], computers=2)
    alice_person, bob_person = game.people

    first = await alice.private_chat.wait_for_message(lambda m: "Козёл в «" in m.content)
    await alice.command(game.group, "hand")  # seated: the hand comes right in the group
    await fakegram.wait_for(
        lambda: any("Козёл в «" in m.content for m in game.group.ephemeral_for(alice))
    )
    assert not game.group.ephemeral_for(bob)  # hers alone
    await alice.start("hand")  # an old pointer link: back in the game, hand anew
    await alice.private_chat.wait_for_message(lambda m: "Вы за столом" in m.content)
    await alice.private_chat.wait_for_message(lambda m: m is first and "ниже" in m.content)
    assert not first.buttons
    anew = await alice.private_chat.wait_for_message(
        lambda m: "Козёл в «" in m.content and m.buttons, after=first
    )
    await alice.command(None, "hand")  # and again
    again = await alice.private_chat.wait_for_message(
        lambda m: "Козёл в «" in m.content and m.buttons, after=anew
    )
    await alice.private_chat.wait_for_message(lambda m: m is anew and "ниже" in m.content)
    assert again.buttons and not anew.buttons

    await bob.command(game.group, "leave")
    await game.group.wait_for_message(
        lambda m: "🚪 Боб <&> уходит — партия засчитана как проигрыш" in m.content
    )
    await bob.private_chat.wait_for_message(lambda m: "Вы покинули эту игру" in m.content)
    assert bob_person.hand() is None
    await play_until(
        fakegram,
        [alice_person],
        lambda: any("Козёл —" in m.content for m in game.group.bot_messages),
    )
    assert bot.stored_match().over
    # Archived: a new game can start in the same group.
    await bob.command(game.group, "domino")
    await game.group.wait_for_message(lambda m: "Игроки" in m.content and m is not game.lobby)


async def test_leaving_the_group_leaves_its_lobby_and_its_match(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    """A person who leaves the group (or is removed) leaves its game as by /leave: out of
    the lobby before the start, their seat to a computer in a match, the group told."""
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    vera = fakegram.add_user("Вера", username="vera")
    game = await open_game(fakegram, [alice, bob, vera], computers=1, start=False)
    lobby = game.lobby
    assert "Вера" in lobby.content and "(4/4)" in lobby.content
    await vera.leave(game.group)
    await game.group.wait_for_message(
        lambda m: m is lobby and "(3/4)" in m.content and "Вера" not in m.content
    )
    answer = await alice.press(lobby, data=button_data(lobby, "компьютер"), timeout=PRESS_SECONDS)
    assert answer.answered and not answer.show_alert, answer
    await game.group.wait_for_message(lambda m: m is lobby and "(4/4)" in m.content)
    answer = await alice.press(lobby, data=button_data(lobby, "Начать"), timeout=PRESS_SECONDS)
    assert answer.answered and not answer.show_alert, answer
    await bob.private_chat.wait_for_message(lambda m: "Козёл в «" in m.content and m.buttons)
    assert not any("Козёл в «" in m.content for m in vera.private_chat.bot_messages)

    await bob.leave(game.group)
    await game.group.wait_for_message(
        lambda m: "🚪 Боб уходит — партия засчитана как проигрыш" in m.content
    )
    await bob.private_chat.wait_for_message(lambda m: "Вы покинули эту игру" in m.content)
    assert game.people[1].hand() is None
    seats = bot.stored("SELECT seat, user_id, has_left FROM seats WHERE game_id = 1 ORDER BY seat")
    assert [(s, left) for s, _, left in seats] == [(0, 0), (1, 1), (2, 0), (3, 0)]
