"""Who controls a lobby, removing seated people, lobbies that close by themselves, and
very long names, end to end through the fake."""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

from bot.app.names import short_name
from bot.telegram.callbacks import SettingsSection
from tests.e2e.harness import (
    BotProcess,
    Person,
    button_data,
    open_game,
    open_settings,
    running_bot,
    settle,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.world import FakeChat, MemberStatus

WAIT = 60.0  # a window with no progress at all (tests.fakegram.waiting), not a deadline
ANONYMOUS_ADMIN = {
    "id": 1087968824,
    "is_bot": True,
    "first_name": "Group",
    "username": "GroupAnonymousBot",
}
_message_ids = itertools.count(700_000_001)


def as_anonymous_admin(fake: FakeTelegram, group: FakeChat, text: str) -> int:
    """A message from an admin who writes as the group, as Telegram delivers it: sent by
    `GroupAnonymousBot`, with the group as `sender_chat`."""
    body: dict[str, Any] = {
        "message_id": next(_message_ids),
        "date": int(time.time()),
        "chat": group.to_api(),
        "from": ANONYMOUS_ADMIN,
        "sender_chat": group.to_api(),
        "text": text,
        "entities": fake.client_entities(text),
    }
    return fake.push_update("message", body)


def stored_lobby(bot: BotProcess, group: FakeChat) -> list[tuple[object, ...]]:
    return [
        *bot.stored(
            "SELECT id, status, version, seats_wanted FROM games WHERE chat_id = ?", group.id
        ),
        *bot.stored(
            "SELECT s.seat, s.user_id, s.name FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE g.chat_id = ?",
            group.id,
        ),
    ]


async def test_a_lobby_opened_by_an_anonymous_admin_is_run_by_the_chats_admins(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")  # an admin
    bob = fakegram.add_user("Боб", username="bob")  # a member
    group = fakegram.add_group("Домино во дворе", members=[alice, bob], admins=[alice])
    for user in (alice, bob):
        await user.start()
    as_anonymous_admin(fakegram, group, f"/domino@{fakegram.bot_username}")
    lobby = await group.wait_for_message(lambda m: "Игроки" in m.content, timeout=WAIT)
    assert "Игроки (0/4)" in lobby.content  # nobody can write to the anonymous admin
    assert "админы чата" in lobby.content  # the lobby says who may start it

    before = stored_lobby(bot, group)
    for control in ("Начать", "👥", "компьютер", "Отменить", "Убрать"):
        if not any(control in b.text for b in lobby.buttons):
            continue
        answer = await bob.press(lobby, data=button_data(lobby, control), timeout=WAIT)
        assert answer.show_alert and "админы чата" in (answer.text or ""), (control, answer)
    await settle(fakegram)
    assert stored_lobby(bot, group) == before, "a member who is no admin changed the lobby"

    # An admin runs it: two seats, sits down, adds a computer, starts.
    shown = lobby.content
    await alice.press(lobby, data=button_data(lobby, "👥"), timeout=WAIT)
    await group.wait_for_message(lambda m: m is lobby and m.content != shown, timeout=WAIT)
    while "Игроков: 2" not in lobby.content:
        seen = lobby.content
        await alice.press(lobby, data=button_data(lobby, "👥"), timeout=WAIT)
        await group.wait_for_message(
            lambda m, seen=seen: m is lobby and m.content != seen,  # type: ignore[misc]
            timeout=WAIT,
        )
    await alice.press(lobby, data=button_data(lobby, "Играю"), timeout=WAIT)
    await alice.press(lobby, data=button_data(lobby, "компьютер"), timeout=WAIT)
    await group.wait_for_message(lambda m: m is lobby and "(2/2)" in m.content, timeout=WAIT)
    started = await alice.press(lobby, data=button_data(lobby, "Начать"), timeout=WAIT)
    assert started.answered and not started.show_alert, started
    await group.wait_for_message(lambda m: m.photo is not None, timeout=WAIT)

    # The anonymous admin's /cancel is an admin's: it asks for confirmation at once.
    as_anonymous_admin(fakegram, group, f"/cancel@{fakegram.bot_username}")
    confirm = await group.wait_for_message(
        lambda m: any(b.callback_data and b.callback_data.startswith("x1:") for b in m.buttons),
        timeout=WAIT,
    )
    refused = await bob.press(confirm, data=confirm.buttons[0].callback_data, timeout=WAIT)
    assert refused.show_alert, refused
    done = await alice.press(confirm, data=confirm.buttons[0].callback_data, timeout=WAIT)
    assert done.answered and not done.show_alert, done
    await fakegram.wait_for(
        lambda: bot.stored("SELECT status FROM games")[0][0] == "cancelled", timeout=WAIT
    )


async def test_the_creator_or_an_admin_removes_a_seated_person(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")  # creates the game
    bob = fakegram.add_user("Боб", username="bob")
    carol = fakegram.add_user("Карина", username="carol")
    dave = fakegram.add_user("Денис", username="dave")  # an admin who does not play
    game = await open_game(fakegram, [alice, bob, carol], seats=4, start=False)
    group = game.group
    group.members[alice.id] = MemberStatus.MEMBER  # the creator need not be an admin
    group.members[dave.id] = MemberStatus.ADMINISTRATOR
    await settle(fakegram)
    before = stored_lobby(bot, group)

    refused = await bob.press(game.lobby, data=button_data(game.lobby, "Убрать"), timeout=WAIT)
    assert refused.show_alert and "админы чата" in (refused.text or ""), refused
    await settle(fakegram)
    assert stored_lobby(bot, group) == before

    last = group.bot_messages[-1]
    await dave.press(game.lobby, data=button_data(game.lobby, "Убрать"), timeout=WAIT)
    choices = await group.wait_for_message(
        lambda m: "Кого убрать" in m.content, after=last, timeout=WAIT
    )
    assert [b.text for b in choices.buttons] == ["🚫 Алиса", "🚫 Боб", "🚫 Карина"]
    remove_carol = button_data(choices, "Карина")

    # Someone who may not remove people presses a name: nothing happens.
    refused = await bob.press(choices, data=remove_carol, timeout=WAIT)
    assert refused.show_alert and "админы чата" in (refused.text or ""), refused
    await settle(fakegram)
    assert stored_lobby(bot, group) == before

    removed = await dave.press(choices, data=remove_carol, timeout=WAIT)
    assert removed.answered and "Карина" in (removed.text or ""), removed
    await group.wait_for_message(
        lambda m: m is game.lobby and "Карина" not in m.content and "(2/4)" in m.content,
        timeout=WAIT,
    )
    await group.wait_for_message(lambda m: m is choices and "больше не за столом" in m.content)
    # The old list, pressed again: Карина sits nowhere now.
    again = await alice.forge_press(choices, remove_carol, timeout=WAIT)
    assert again.answered and "уже нет" in (again.text or ""), again
    # The creator may remove people too, and the one removed may sit down again.
    await alice.press(game.lobby, data=button_data(game.lobby, "Убрать"), timeout=WAIT)
    second = await group.wait_for_message(
        lambda m: "Кого убрать" in m.content, after=choices, timeout=WAIT
    )
    assert [b.text for b in second.buttons] == ["🚫 Боб"]  # not the creator asking
    await alice.press(second, data=button_data(second, "Боб"), timeout=WAIT)
    await group.wait_for_message(lambda m: m is game.lobby and "Боб" not in m.content, timeout=WAIT)
    back = await carol.press(game.lobby, data=button_data(game.lobby, "Играю"), timeout=WAIT)
    assert back.answered and not back.show_alert, back
    await group.wait_for_message(lambda m: m is game.lobby and "Карина" in m.content, timeout=WAIT)


async def test_a_lobby_nobody_starts_closes_after_the_groups_time_also_across_a_restart(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    # TURN_TIME_SCALE shrinks the group's minutes too: 0.02 makes 5 min 6 s.
    async with running_bot(fakegram, tmp_path, PACING="false", TURN_TIME_SCALE="0.02") as bot:
        alice = fakegram.add_user("Алиса", username="alice")
        bob = fakegram.add_user("Боб", username="bob")
        group = fakegram.add_group("Двор", members=[alice, bob], admins=[alice])
        await alice.start()
        settings = await open_settings(group, alice, SettingsSection.LOBBY)
        assert "⌛ Несыгранная игра закрывается через: 10 мин" in settings.content  # the default
        refused = await bob.press(settings, data=button_data(settings, "5 мин"), timeout=WAIT)
        assert refused.show_alert, refused
        chosen = await alice.press(settings, data=button_data(settings, "5 мин"), timeout=WAIT)
        assert chosen.answered and "5 мин" in (chosen.text or ""), chosen
        await group.wait_for_message(
            lambda m: m is settings and "закрывается через: 5 мин" in m.content
        )

        await alice.command(group, "domino")
        lobby = await group.wait_for_message(lambda m: "Игроки" in m.content, timeout=WAIT)
        notice = await group.wait_for_message(lambda m: "никто не начал" in m.content, timeout=WAIT)
        assert "5 мин" in notice.content and "/domino" in notice.content
        await group.wait_for_message(lambda m: m is lobby and "отменён" in m.content, timeout=WAIT)
        assert bot.stored("SELECT status FROM games") == [("cancelled",)]

        # A lobby whose bot was killed closes after the restart, at its stored deadline.
        await alice.command(group, "domino")
        second = await group.wait_for_message(
            lambda m: "Игроки" in m.content, after=notice, timeout=WAIT
        )
        (deadline,) = bot.stored("SELECT lobby_deadline FROM games WHERE status = 'lobby'")[0]
        assert deadline is not None
        await bot.kill()
        await bot.start()
        await group.wait_for_message(
            lambda m: "никто не начал" in m.content, after=second, timeout=WAIT
        )
        await fakegram.wait_for(
            lambda: bot.stored("SELECT status FROM games WHERE id = 2") == [("cancelled",)],
            timeout=WAIT,
        )


async def test_a_128_emoji_name_is_shortened_wherever_it_is_shown(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    long = fakegram.add_user("😀" * 128, username="smiley")
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(fakegram, [long, bob], seats=2)
    # Cut by the columns a phone draws (an emoji takes two): `bot.app.names.NAME_LIMIT`.
    cut = short_name(long.first_name)
    assert cut == "😀" * 15 + "…"
    assert cut in game.lobby.content and "😀" * 16 not in game.lobby.content
    smiley, other = game.people
    (game_id,) = bot.stored("SELECT id FROM games")[0]

    def smileys_turn() -> bool:
        return smiley.my_turn() and other.hand() is not None

    await fakegram.wait_for(lambda: smiley.my_turn() or other.my_turn(), timeout=WAIT)
    if other.my_turn():
        assert await other.take_turn()
    await fakegram.wait_for(smileys_turn, timeout=WAIT)
    hand = other.hand()
    assert hand is not None
    # An off-turn tile of Боб's: «сейчас ходит <name>», which must fit Telegram's 200.
    answer = await other.user.forge_press(hand, f"hb1:{game_id}:0:i:", timeout=WAIT)
    assert answer.answered and "Сейчас ходит" in (answer.text or ""), answer
    assert cut in (answer.text or "")
    assert isinstance(smiley, Person)
