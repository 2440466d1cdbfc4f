"""Joining, bad presses, restarts, blocked people and a removed bot, end to end.

Each test runs the bot as `python -m bot` against tests/fakegram (see harness.py).
"""

from __future__ import annotations

import asyncio

from domino.match import Match
from storage.records import HandsPlace
from tests.databases import stored_execute
from tests.e2e.harness import (
    MOVE_PREFIX,
    REPLY_SECONDS,
    BotProcess,
    Person,
    Press,
    assert_hands_private,
    button_data,
    kind_of,
    open_game,
    play_until,
    settle,
)
from tests.fakegram import FakeTelegram


def hand_message_ids(person: Person) -> list[int]:
    return [m.message_id for m in person.chat.bot_messages if "Козёл в «" in m.content]


def goat_announced(group_messages: list) -> bool:  # type: ignore[type-arg]
    return any("Козёл —" in m.content for m in group_messages)


async def settle_at_a_person(
    fakegram: FakeTelegram, bot: BotProcess, *, people_seats: set[int]
) -> Match:
    """The stored match once the bot is idle and a person is to move (or it is over).

    A quiet moment alone is not enough: a computer may be thinking or waiting out its
    pause, and a kill then would leave its move to the restarted bot."""
    watch = fakegram.watch(REPLY_SECONDS, f"no seat of {sorted(people_seats)} came to move")
    while True:
        await settle(fakegram)
        match = bot.stored_match()
        if match.over or match.turn in people_seats:
            return match
        watch.check()
        await asyncio.sleep(0.05)


async def test_a_person_who_never_started_the_bot_joins_through_the_deep_link(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    """In a group that keeps hands in private; where they are shown in the group,
    «Играю» seats her at once (tests/e2e/test_hands_settings_e2e.py)."""
    alice = fakegram.add_user("Алиса", username="alice")
    carol = fakegram.add_user("Карина", username="carol")  # never pressed Start
    game = await open_game(fakegram, [alice], seats=2, start=False, hands=HandsPlace.PRIVATE)
    game.group.members[carol.id] = game.group.members[alice.id].__class__.MEMBER

    answer = await carol.press(game.lobby, data=button_data(game.lobby, "Играю"))
    link = "https://t.me/domino_test_bot?start="
    assert answer.answered and answer.url is not None and answer.url.startswith(link + "j")
    payload = answer.url.removeprefix(link)
    assert len(payload) == 17 and payload != "j1"  # a secret token, not the game's number
    assert "Карина" not in game.lobby.content  # not seated until she starts the bot

    await carol.start(payload)
    welcome = await carol.private_chat.wait_for_message(lambda m: "за столом" in m.content)
    assert "Домино во дворе" in welcome.content
    await game.group.wait_for_message(lambda m: m is game.lobby and "Карина" in m.content)

    # Pressing the link again (or Join) does not seat her twice.
    await carol.start(payload)
    await carol.private_chat.wait_for_message(lambda m: "уже за столом" in m.content)
    assert game.lobby.content.count("Карина") == 1


async def test_double_stale_foreign_and_forged_presses_change_nothing(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    eve = fakegram.add_user("Ева", username="eve")
    game = await open_game(fakegram, [alice, bob], computers=2)
    game.group.members[eve.id] = game.group.members[alice.id].__class__.MEMBER
    people = game.people
    await fakegram.wait_for(lambda: any(p.my_turn() for p in people), timeout=60)
    mover = next(p for p in people if p.my_turn())
    hand = mover.hand()
    assert hand is not None
    data = mover.choice(hand)
    assert data is not None
    assert kind_of(data) in {Press.PLAY, Press.ENDS, Press.DRAW, Press.KNOCK}
    moves_before = len(bot.stored_match().log)

    # Two presses of the same button at once: one applies, the other is refused.
    first, second = await asyncio.gather(
        mover.user.press(hand, data=data), mover.user.forge_press(hand, data)
    )
    await settle(fakegram)
    after = bot.stored_match()
    if kind_of(data) is Press.ENDS:  # the first press only asked for the end
        assert len(after.log) == moves_before
    else:
        assert len(after.log) > moves_before
        assert [first.show_alert, second.show_alert].count(True) == 1
        assert any("устарела" in (a.text or "") for a in (first, second))
    moves = len(after.log)

    # A stale keyboard (an earlier version of the hand message) is refused.
    stale = await mover.user.press(hand, data=data, stale=True)
    assert stale.show_alert and "устарела" in (stale.text or "")

    # Someone outside the game forges a press on the group's table (hand buttons only
    # live in private chats) or in their own private chat: refused, politely.
    assert game.table is not None
    foreign = await eve.forge_press(game.table, f"{MOVE_PREFIX}1:{moves}:p0-0L")
    assert foreign.answered and foreign.show_alert and "устарела" in (foreign.text or "")
    await eve.start()
    own = await eve.private_chat.wait_for_message(lambda m: "Привет" in m.content)
    foreign = await eve.forge_press(own, f"{MOVE_PREFIX}1:{moves}:p0-0L")
    assert foreign.answered and foreign.show_alert and "не играете" in (foreign.text or "")

    # Junk, malformed and out-of-range payloads, and hand buttons of the old layout.
    for junk in (
        "",
        "x",
        "m1:1:abc:p:0:L",
        f"m1:1:{moves}:p:99:L",
        "m1:999:0:p:0:L",
        f"m1:1:{moves}:p:0:Q",
        "m2:1:abc:d",
        f"m2:1:{moves}:p9-9L",
        "m2:999:0:p0-0L",
        f"m2:1:{moves}:p0-0Q",
        f"m2:1:{moves}:d+d",
        f"hb1:1:{moves}:e:9-9",
        "l1:1:j:-",
        "x1:abc:1",
        "zz:" + "9" * 60,
    ):
        if not junk:
            continue
        answer = await alice.forge_press(alice.private_chat.bot_messages[-1], junk)
        assert answer.answered, junk
    await settle(fakegram)
    assert len(bot.stored_match().log) == moves

    # The game still plays to its end, and then its old buttons say so.
    await play_until(fakegram, people, lambda: goat_announced(game.group.bot_messages))
    await settle(fakegram)
    old = next(m for m in people[0].chat.bot_messages if "Козёл в «" in m.content)
    assert not old.buttons  # the finished hand keeps no buttons ...
    data = next(
        button.callback_data
        for version in reversed(old.history)
        for row in version.keyboard or ()
        for button in row
        if (button.callback_data or "").startswith(MOVE_PREFIX)
    )
    late = await people[0].user.press(old, data=data or "", stale=True)  # ... an old client has
    assert late.show_alert and "закончилась" in (late.text or "")
    assert_hands_private(fakegram, bot.stored_match(), {0: alice.id, 1: bob.id})


async def test_sigkill_mid_round_and_the_match_goes_on_with_the_same_buttons(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(fakegram, [alice, bob], computers=2)
    people = game.people
    await play_until(fakegram, people, lambda: sum(p.presses for p in people) >= 4)
    before = await settle_at_a_person(fakegram, bot, people_seats={0, 1})
    hand_ids = {p.user.id: hand_message_ids(p) for p in people}
    sent_before = len(fakegram.transcript.calls("sendPhoto")) + len(
        fakegram.transcript.calls("sendMessage")
    )

    await bot.restart(kill=True)
    await settle(fakegram)
    after = bot.stored_match()
    assert after == before  # nothing lost, nothing applied twice
    sent_after = len(fakegram.transcript.calls("sendPhoto")) + len(
        fakegram.transcript.calls("sendMessage")
    )
    assert sent_after == sent_before  # the restart re-sends nothing

    await play_until(fakegram, people, lambda: goat_announced(game.group.bot_messages))
    await settle(fakegram)
    final = bot.stored_match()
    assert final.over
    # The same hand messages carried the game to its end.
    assert {p.user.id: hand_message_ids(p) for p in people} == hand_ids
    photos = [m for m in game.group.bot_messages if m.photo is not None]
    assert len(photos) == 1 + len(final.results)  # one table, one score sheet per round
    assert_hands_private(fakegram, final, {0: alice.id, 1: bob.id})


async def test_a_restart_sends_the_final_edits_a_just_finished_match_still_owed(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    game = await open_game(fakegram, [alice], computers=1)
    await play_until(fakegram, game.people, lambda: goat_announced(game.group.bot_messages))
    table = game.table  # the live one: a table buried by the rounds' ends is sent anew
    assert table is not None
    await game.group.wait_for_message(lambda m: m is table and "Партия окончена" in m.content)
    # Every announcement is recorded as sent before the kill: a kill in the moment between
    # Telegram taking one and its record is the at-least-once repeat the SIGKILL test
    # measures, not what this test is about.
    await fakegram.wait_for(
        lambda: not bot.stored("SELECT id FROM outbox WHERE sent_at IS NULL"),
        timeout=REPLY_SECONDS,
        what="the announcements were not all recorded as sent",
    )
    await bot.kill()
    # As if the bot had died between the match's last commit and the table's final edit:
    # the stored table message says it still shows an earlier position.
    stored_execute(
        bot.database, "UPDATE messages SET digest = 'an earlier position' WHERE role = 'table'"
    )
    versions = len(table.history)
    await bot.start()
    await game.group.wait_for_message(lambda m: m is table and len(m.history) > versions)
    await settle(fakegram)
    assert "Партия окончена" in table.content and len(table.history) == versions + 1
    assert sum(goat_announced([m]) for m in game.group.bot_messages) == 1  # nothing twice
    assert_hands_private(fakegram, bot.stored_match(), {0: alice.id})


async def test_a_person_who_blocks_the_bot_is_reported_and_can_come_back(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(fakegram, [alice, bob], computers=2, start=False)
    people = game.people
    # Blocked before the deal, so his first hand is refused whoever moves first (with no
    # turn timer, a hand sent before the block would not change while he is to move).
    await bob.block()
    answer = await alice.press(game.lobby, data=button_data(game.lobby, "Начать"))
    assert answer.answered and not answer.show_alert, answer
    await play_until(
        fakegram,
        people[:1],
        lambda: any("Боб: не могу написать" in m.content for m in game.group.bot_messages),
    )
    await bob.unblock()
    await bob.start()
    await bob.private_chat.wait_for_message(lambda m: "Вы за столом" in m.content)
    await play_until(fakegram, people, lambda: goat_announced(game.group.bot_messages))
    notices = [m for m in game.group.bot_messages if "не могу написать" in m.content]
    assert len(notices) == 1


async def test_the_bot_removed_from_the_group_stops_the_game_and_tells_the_players(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(fakegram, [alice, bob], computers=2)
    await fakegram.remove_bot(game.group)
    for person in game.people:
        await person.chat.wait_for_message(lambda m: "удалили" in m.content)
        # The hand message says so and keeps no buttons to press.
        await person.chat.wait_for_message(lambda m: "Игра отменена" in m.content)
        assert person.hand() is None
    rows = bot.stored("SELECT status FROM games")
    assert rows == [("cancelled",)]
    # A new game can be opened elsewhere at once: nobody is stuck in the dead one.
    other = fakegram.add_group("Другая группа", members=[alice], admins=[alice])
    await alice.command(other, "domino")
    await other.wait_for_message(lambda m: "Игроки" in m.content)
