"""«🔔 Ваш ход»: a person whose turn starts is notified in their private chat, and the
notice goes when the turn ends; muted in the private /settings; none for a quick press.

Each test runs the bot as `python -m bot` against tests/fakegram (see harness.py), with
its own TURN_NOTICE_AFTER.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bot.telegram.callbacks import TurnNoticesCb
from tests.e2e.harness import (
    REPLY_SECONDS,
    STALL_SECONDS,
    Person,
    Stall,
    assert_hands_private,
    open_game,
    running_bot,
    settle,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.world import StoredMessage

NOTICE = "🔔 Ваш ход — Домино во дворе"


def notices(person: Person, *, deleted: bool = True) -> list[StoredMessage]:
    """Every notice the person was sent (with `deleted` False: those still shown)."""
    return [
        m
        for m in person.chat.messages.values()
        if m.from_bot and m.content == NOTICE and (deleted or not m.deleted)
    ]


def notified(person: Person) -> Callable[[], bool]:
    """Whether a notice is shown in the person's chat now."""
    return lambda: bool(notices(person, deleted=False))


def cleared(person: Person) -> Callable[[], bool]:
    """Whether no notice is shown in the person's chat now."""
    return lambda: not notices(person, deleted=False)


def to_move(people: list[Person]) -> Person | None:
    return next((p for p in people if p.my_turn()), None)


async def test_a_person_whose_turn_starts_gets_a_notice_deleted_after_their_move(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    async with running_bot(fakegram, tmp_path, PACING="false", TURN_NOTICE_AFTER="0") as bot:
        alice = fakegram.add_user("Алиса", username="alice")
        bob = fakegram.add_user("Боб", username="bob")
        game = await open_game(fakegram, [alice, bob])
        people = game.people
        stall = Stall.of_chats(fakegram, [alice, bob])
        for _ in range(4):  # four turns, each person's notice comes and goes
            await fakegram.wait_for(lambda: to_move(people) is not None, timeout=STALL_SECONDS)
            mover = to_move(people)
            assert mover is not None
            await fakegram.wait_for(notified(mover), timeout=30)
            shown = notices(mover, deleted=False)
            assert len(shown) == 1 and not shown[0].buttons
            assert mover.hand() is not None and mover.hand() is not shown[0]
            if bot.match_over():
                break
            await mover.take_turn()
            # Drawing keeps the turn (and its notice); a play or a knock ends it.
            while mover.my_turn() and not bot.match_over():
                await settle(fakegram)
                if mover.my_turn():
                    assert len(notices(mover, deleted=False)) == 1
                    await mover.take_turn()
            await fakegram.wait_for(cleared(mover), timeout=30)
            await settle(fakegram)  # the mover's hand no longer says it is their turn
            stall.check()
        # Nobody ever had two notices at once, and no notice named a tile.
        await settle(fakegram)
        for person in people:
            assert len(notices(person, deleted=False)) <= 1
        owners = {0: alice.id, 1: bob.id}
        assert assert_hands_private(fakegram, bot.stored_match(), owners) > 0


async def test_a_person_who_muted_notices_in_private_settings_gets_none(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    async with running_bot(fakegram, tmp_path, PACING="false", TURN_NOTICE_AFTER="0") as bot:
        alice = fakegram.add_user("Алиса", username="alice")
        bob = fakegram.add_user("Боб", username="bob")
        await alice.start()
        before = alice.private_chat.bot_messages[-1] if alice.private_chat.bot_messages else None
        await alice.command(alice.private_chat, "settings")
        off = TurnNoticesCb(on=False).pack()
        settings = await alice.private_chat.wait_for_message(
            lambda m: any(b.callback_data == off for b in m.buttons),
            after=before,
            timeout=REPLY_SECONDS,
        )
        assert "Ваши настройки" in settings.content and "вкл" in settings.content
        assert "/settings в группе" in settings.content
        answer = await alice.press(settings, data=off)
        assert answer.answered and answer.text and "выкл" in answer.text
        on = TurnNoticesCb(on=True).pack()
        await fakegram.wait_for(lambda: any(b.callback_data == on for b in settings.buttons))
        assert bot.stored("SELECT turn_notices FROM users WHERE id = ?", alice.id) == [(0,)]

        game = await open_game(fakegram, [alice, bob])
        people = game.people
        stall = Stall.of_chats(fakegram, [alice, bob])
        alice_person, bob_person = people
        turns_of_alice = 0
        bob_notified = False
        while (turns_of_alice < 2 or not bob_notified) and not bot.match_over():
            await fakegram.wait_for(lambda: to_move(people) is not None, timeout=STALL_SECONDS)
            mover = to_move(people)
            assert mover is not None
            if mover is bob_person:
                # Bob's notice shows the notices are on for others; Alice's turn may
                # then wait as long as Bob's took, and still gets none.
                await fakegram.wait_for(lambda: bool(notices(bob_person)), timeout=30)
                bob_notified = True
            else:
                turns_of_alice += 1
                await settle(fakegram)
            await mover.take_turn()
            await settle(fakegram)
            stall.check()
        await settle(fakegram)
        assert notices(alice_person) == []


async def test_a_quick_press_gets_no_notice(fakegram: FakeTelegram, tmp_path: Path) -> None:
    async with running_bot(fakegram, tmp_path, PACING="false", TURN_NOTICE_AFTER="600") as bot:
        alice = fakegram.add_user("Алиса", username="alice")
        bob = fakegram.add_user("Боб", username="bob")
        game = await open_game(fakegram, [alice, bob])
        people = game.people
        stall = Stall.of_chats(fakegram, [alice, bob])
        for _ in range(6):
            if bot.match_over():
                break
            await fakegram.wait_for(lambda: to_move(people) is not None, timeout=STALL_SECONDS)
            mover = to_move(people)
            assert mover is not None
            await mover.take_turn()
            await settle(fakegram)
            stall.check()
        await settle(fakegram)
        assert all(notices(person) == [] for person in people)


async def test_a_restart_deletes_the_notice_the_last_run_left(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    async with running_bot(fakegram, tmp_path, PACING="false", TURN_NOTICE_AFTER="0") as bot:
        alice = fakegram.add_user("Алиса", username="alice")
        bob = fakegram.add_user("Боб", username="bob")
        game = await open_game(fakegram, [alice, bob])
        people = game.people
        await fakegram.wait_for(lambda: to_move(people) is not None, timeout=STALL_SECONDS)
        mover = to_move(people)
        assert mover is not None
        await fakegram.wait_for(notified(mover), timeout=30)
        left = notices(mover, deleted=False)[0]
        await fakegram.wait_for(
            lambda: bool(bot.stored("SELECT message_id FROM turn_notice_messages")), timeout=30
        )
        await bot.restart(kill=True)
        # The old notice goes; the turn is still the person's, so a new one comes.
        await fakegram.wait_for(lambda: left.deleted, timeout=REPLY_SECONDS)
        await fakegram.wait_for(notified(mover), timeout=30)
        assert notices(mover, deleted=False)[0] is not left
        stored = bot.stored("SELECT message_id FROM turn_notice_messages")
        assert (left.message_id,) not in stored
