"""Turn timers end to end: /settings (its sections; timer, group language) by an admin
only, the group's one language settled by its first game; a person
who never presses is moved for, a strike each time, a computer takes the seat at the
third, announced once; "I'm back" returns the seat; a restart in the middle of a turn
still times it out.

The bot runs with TURN_TIME_SCALE=0.05 times the machine's pace, so the 30 s setting
gives 1.5 s turns on an idle machine: the turns and their warnings are what is tested, and
on a busy machine they get as much longer as the bot gets slower, so that a warning shown
a quarter of a turn before its end still has the time to be drawn and sent.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.telegram.callbacks import TimerCb
from domino.timing import TurnTimer
from tests.e2e.harness import (
    TABLE_TITLE,
    BotProcess,
    GroupPerson,
    assert_hands_private,
    button_data,
    open_game,
    running_bot,
    set_turn_timer,
    settle,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.waiting import pace
from tests.fakegram.world import FakeChat, FakeUser, StoredMessage

SCALE = 0.05  # on an idle machine; times the pace at the test's start


@pytest.fixture
async def timed_bot(fakegram: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    scale = f"{SCALE * pace():.3f}"
    async with running_bot(
        fakegram, tmp_path, PACING="false", TURN_TIME_SCALE=scale, COMPUTER_DELAY="1.0"
    ) as process:
        yield process


def turn_seconds(bot: BotProcess, setting: float = 30) -> float:
    """How long a turn of `setting` seconds lasts for the bot (its TURN_TIME_SCALE)."""
    return setting * float(bot.env["TURN_TIME_SCALE"])


def contents(message: StoredMessage) -> list[str]:
    """Every version the message ever showed, oldest first."""
    return [v.text or v.caption or "" for v in message.history] + [message.content]


def said(chat: FakeChat, fragment: str) -> int:
    return sum(1 for m in chat.bot_messages if fragment in m.content)


def table_captions(group: FakeChat) -> list[str]:
    """Every caption any table picture of the group showed (also a table since sent anew
    at a round's start, the one before it deleted)."""
    return [
        text
        for m in group.messages.values()
        if m.from_bot and m.photo is not None and TABLE_TITLE.search(m.content)
        for text in contents(m)
    ]


async def test_settings_only_admins_change_and_everyone_sees(
    fakegram: FakeTelegram, timed_bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    anna = fakegram.add_user("Anna", username="anna", language_code="en")
    group = fakegram.add_group("Двор", members=[alice, bob, anna], admins=[alice])
    await bob.command(group, "settings")
    shown = await group.wait_for_message(lambda m: "Таймер хода" in m.content)
    # Every value in force in the text, named; a short button a section, two a row.
    for line in (
        "🎲 Игра по умолчанию: Козёл",
        "⏱ Таймер хода: 60 с",
        "🌐 Язык группы: русский",  # Боб opened the settings first: his language
        "✋ Кости игроков: в группе и в личке",
    ):
        assert line in shown.content.splitlines(), shown.content
    assert [[b.text for b in row] for row in shown.keyboard] == [
        ["🎲 Игра", "⏱ Таймер"],
        ["🌐 Язык", "⌛ Набор"],
        ["💡 Подсказки", "✋ Кости"],
    ]
    assert json.loads(stored_settings(timed_bot, group)) == {"turn_timer": "60", "group_lang": "ru"}

    # Боб is no admin: a section stays shut to him, and a choice changes nothing.
    refused = await bob.press(shown, data=button_data(shown, "Таймер"))
    assert refused.show_alert and "админы" in (refused.text or "")
    refused = await bob.forge_press(shown, TimerCb(timer="120").pack())
    assert refused.show_alert and "админы" in (refused.text or "")
    stale = await alice.forge_press(shown, "se1:z")  # a section of no version
    assert stale.show_alert, stale
    await settle(fakegram)
    assert "⏱ Таймер хода: 60 с" in shown.content and len(shown.buttons) == 6

    await open_section(alice, group, shown, "⏱ Таймер")
    assert "⏱ Таймер хода: 60 с" in shown.content.splitlines()
    assert "✅ 60 с" in [b.text for b in shown.buttons]
    done = await alice.press(shown, data=button_data(shown, "спорт"))
    assert not done.show_alert and "со следующего хода" in (done.text or "")
    await group.wait_for_message(
        lambda m: m is shown and "⏱ Таймер хода: спортивный" in m.content and len(m.buttons) == 6
    )
    assert json.loads(stored_settings(timed_bot, group))["turn_timer"] == "sport"
    # «↩️ Назад» shows the sections again, changing nothing.
    await open_section(alice, group, shown, "🌐 Язык")
    assert "В личке — каждому на его языке" in shown.content
    await alice.press(shown, data=button_data(shown, "Назад"))
    await group.wait_for_message(lambda m: m is shown and len(m.buttons) == 6)
    await bob.start()
    await bob.command(None, "settings")
    await bob.private_chat.wait_for_message(lambda m: "/settings в группе" in m.content)

    # The group's language: English for everything said in the group, whoever asks.
    await open_section(alice, group, shown, "🌐 Язык")
    refused = await bob.press(shown, data=button_data(shown, "English"))
    assert refused.show_alert
    old = await alice.forge_press(shown, "gl1:auto")  # «as the creator's»: no choice any more
    assert old.show_alert, old
    chosen = await alice.press(shown, data=button_data(shown, "English"))
    assert chosen.text == "Язык группы: английский.", chosen
    await group.wait_for_message(lambda m: m is shown and "Turn timer" in m.content)
    await bob.command(group, "domino")
    await group.wait_for_message(lambda m: "Dominoes" in m.content and "Players" in m.content)
    before = group.bot_messages[-1]
    await bob.command(group, "help")  # Боб's Telegram speaks Russian: the group does not
    await group.wait_for_message(lambda m: "/domino — a new game" in m.content, after=before)
    await bob.command(None, "help")  # his private chat speaks his own
    await bob.private_chat.wait_for_message(lambda m: "Здесь приходят ваши кости" in m.content)


async def test_the_first_game_sets_the_groups_language_for_everyone_after(
    fakegram: FakeTelegram, timed_bot: BotProcess
) -> None:
    anna = fakegram.add_user("Anna", username="anna", language_code="en")
    bob = fakegram.add_user("Боб", username="bob")
    group = fakegram.add_group("Yard", members=[anna, bob], admins=[anna])
    await anna.command(group, "domino")
    lobby = await group.wait_for_message(lambda m: "Players" in m.content)
    await anna.press(lobby, data=button_data(lobby, "Cancel"))
    await group.wait_for_message(lambda m: m is lobby and "called off" in m.content)
    # Боб, Russian, opens the next game: the group, its answers to him included, speaks English.
    await bob.command(group, "domino")
    second = await group.wait_for_message(lambda m: "Players" in m.content, after=lobby)
    assert "Домино" not in second.content
    before = group.bot_messages[-1]
    await bob.command(group, "domino")  # the game is there already: told in English
    await group.wait_for_message(lambda m: "already gathering" in m.content, after=before)
    refused = await bob.press(second, data=button_data(second, "Start"))  # one seated of 4
    assert refused.show_alert and "Players needed" in (refused.text or ""), refused
    assert json.loads(stored_settings(timed_bot, group))["group_lang"] == "en"


def stored_settings(bot: BotProcess, group: FakeChat) -> str:
    """The group's settings as the bot stored them (JSON)."""
    ((settings,),) = bot.stored("SELECT settings FROM chats WHERE id = ?", group.id)
    assert isinstance(settings, str)
    return settings


async def open_section(admin: FakeUser, group: FakeChat, shown: StoredMessage, button: str) -> None:
    """`admin` opens a section of the settings message `shown`, until it shows its choices."""
    answer = await admin.press(shown, data=button_data(shown, button))
    assert answer.answered and not answer.show_alert, answer
    await group.wait_for_message(lambda m: m is shown and any("↩️" in b.text for b in m.buttons))


async def test_timeouts_strikes_takeover_back_and_restart(
    fakegram: FakeTelegram, timed_bot: BotProcess
) -> None:
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(fakegram, [bob], computers=1, start=False, turn_timer=None)
    group = game.group
    await set_turn_timer(group, bob, TurnTimer.S30)
    answer = await bob.press(game.lobby, data=button_data(game.lobby, "Начать"))
    assert answer.answered and not answer.show_alert, answer
    # The waits below are windows of no progress (tests.fakegram.waiting), each longer
    # than the longest the bot sleeps meanwhile: a turn, or a computer's 1 s pause.
    quiet = 5 + 2 * turn_seconds(timed_bot)
    await group.wait_for_message(lambda m: m.photo is not None, timeout=quiet)

    # Bob never presses: three timeouts, then the computer plays for him, announced once.
    await group.wait_for_message(
        lambda m: "Боб: трижды кончилось время на ход" in m.content, timeout=quiet
    )
    assert timed_bot.stored("SELECT strikes, away FROM seats WHERE user_id = ?", bob.id) == [(3, 1)]
    # Bob never pressed: every move of his seat is a timeout's (or the computer's after).
    assert sum(1 for entry in timed_bot.stored_match().log if entry.seat == 0) >= 3
    reason = timed_bot.stored("SELECT abandonment FROM games")[0][0]
    assert isinstance(reason, str) and '"reason": "timeout"' in reason and '"seat": 0' in reason
    history = [text for m in bob.private_chat.bot_messages for text in contents(m)]
    assert any("⏱ На ход:" in text for text in history)
    assert any("Осталось" in text for text in history), "the hand warned before the end"
    assert any("вышло 2 раза из 3" in text for text in history)
    # The table's warning is checked at the end: on a loaded machine the group's table
    # lags behind the game (its edits coalesce), and may show a warning only later.

    # "I'm back" from /hand.
    before = bob.private_chat.last_bot_message
    await bob.command(None, "hand")
    away_hand = await bob.private_chat.wait_for_message(
        lambda m: any("Я снова играю" in b.text for b in m.buttons), after=before
    )
    assert "За вас играет компьютер" in away_hand.content
    back = await bob.press(away_hand, data=button_data(away_hand, "Я снова играю"))
    assert "С возвращением" in (back.text or ""), back
    await group.wait_for_message(lambda m: "Боб снова в игре" in m.content)
    # Strikes start again from none (a 1.5 s turn may already have run out once more by the
    # time a loaded machine reads them).
    [(count, away)] = timed_bot.stored("SELECT strikes, away FROM seats WHERE user_id = ?", bob.id)
    assert away == 0 and count in (0, 1), (count, away)
    assert timed_bot.stored("SELECT abandonment FROM games") == [(None,)]
    assert said(group, "Боб: трижды кончилось время на ход") == 1

    # A restart in the middle of Bob's turn: the stored deadline still runs out. (The
    # deadline is written a moment after the move that began the turn commits.) On a
    # loaded machine the 1.5 s turn may run out before the kill lands: then the next turn
    # of Bob's is tried, as long as strikes are left before a takeover.
    def turn_stored() -> bool:
        stored = timed_bot.stored("SELECT turn_move FROM games")
        return game.people[0].my_turn() and stored == [(len(timed_bot.stored_match().log),)]

    def strikes() -> int:
        [(count,)] = timed_bot.stored("SELECT strikes FROM seats WHERE user_id = ?", bob.id)
        return int(str(count))

    while True:
        await fakegram.wait_for(turn_stored, timeout=quiet)
        await timed_bot.kill()
        struck = strikes()
        match = timed_bot.stored_match()
        open_turn = timed_bot.stored("SELECT turn_move FROM games") == [(len(match.log),)]
        if open_turn and match.turn == 0:
            break  # killed in the middle of Bob's turn
        assert struck < 2, "every turn of Bob's ran out before the kill"
        await timed_bot.start()
    await timed_bot.start()
    await fakegram.wait_for(lambda: strikes() == struck + 1, timeout=quiet)
    # A third strike would hand the seat to the computer again, announced once more.
    assert said(group, "Боб: трижды кончилось время на ход") == 1 + (struck + 1 == 3)
    # In one of the turns of Bob's that ran out (four at least), the table's caption warned:
    # under load the table's edits lag behind the game (each picture takes its time to
    # draw), so the last of them may still be on its way.
    await fakegram.wait_for(
        lambda: any("⏳ Боб:" in text for text in table_captions(group)),
        timeout=quiet,
        what="the table's caption never warned («⏳ Боб:»)",
    )
    checked = assert_hands_private(fakegram, timed_bot.stored_match(), {0: bob.id})
    assert checked > 0


async def test_im_back_on_the_hand_inside_the_group_returns_the_seat(
    fakegram: FakeTelegram, timed_bot: BotProcess
) -> None:
    """Боб plays from the group and never presses: after three timeouts a computer plays
    for him, and his hand inside the group offers «🙋 Я снова играю»; pressed there, it
    gives him his seat back. The same button's data pressed in another group, on a
    message that is not his hand, changes nothing."""
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(
        fakegram, [bob], computers=1, start=False, turn_timer=None, in_group=[bob]
    )
    group, person = game.group, game.people[0]
    assert isinstance(person, GroupPerson)
    await set_turn_timer(group, bob, TurnTimer.S30)
    answer = await bob.press(game.lobby, data=button_data(game.lobby, "Начать"))
    assert answer.answered and not answer.show_alert, answer
    quiet = 5 + 2 * turn_seconds(timed_bot)
    await group.wait_for_message(
        lambda m: "Боб: трижды кончилось время на ход" in m.content, timeout=quiet
    )
    assert timed_bot.stored("SELECT away FROM seats WHERE user_id = ?", bob.id) == [(1,)]

    def away_hand() -> StoredMessage | None:
        hand = person.hand()
        return hand if hand is not None and "Я снова играю" in str(hand.buttons) else None

    await fakegram.wait_for(lambda: person.table_message() is not None, timeout=quiet)
    brought = await person.bring_hand()
    assert brought is not None and brought.answered and not brought.show_alert, brought
    await fakegram.wait_for(lambda: away_hand() is not None, timeout=quiet)
    hand = away_hand()
    assert hand is not None and "За вас играет компьютер" in hand.content
    data = button_data(hand, "Я снова играю")

    # Forged: the same data pressed in another group, on a message that is no hand of his.
    other = fakegram.add_group("Другой двор", members=[bob], admins=[bob])
    await bob.command(other, "top")
    elsewhere = await other.wait_for_message(lambda m: m.from_bot)
    refused = await bob.forge_press(elsewhere, data)
    assert refused.answered and refused.show_alert, refused
    assert timed_bot.stored("SELECT away FROM seats WHERE user_id = ?", bob.id) == [(1,)]

    back = await bob.press(hand, data=data)
    assert "С возвращением" in (back.text or ""), back
    assert timed_bot.stored("SELECT away FROM seats WHERE user_id = ?", bob.id) == [(0,)]
