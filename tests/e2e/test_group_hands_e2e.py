"""Play without leaving the group: each hand is an ephemeral message in the group that its
person alone sees, brought by «✋ Мои кости» under the table (Bot API 10.3).

Whole matches played from the group alone, by people who never open the bot's private
chat; a hand that expires mid-turn and one sent while its person was offline, each
brought back with one press; a table of two people in the group, one in private and a
computer; and the presses nobody may make. Every transcript passes the hand privacy
check (`assert_hands_private`, and the fixture's check that no ephemeral message
reaches anyone but its receiver)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.telegram.callbacks import GroupHandCb
from domino.actions import Draw
from tests.e2e.harness import (
    REPLY_SECONDS,
    BotProcess,
    GroupPerson,
    Person,
    Press,
    Table,
    assert_hands_private,
    is_hand_button,
    kind_of,
    move_of,
    open_game,
    play_until,
    settle,
)
from tests.e2e.test_variants_e2e import MOVES, Player, final_announcement
from tests.fakegram import FakeTelegram, ManualClock
from tests.fakegram.transcript import Call
from tests.fakegram.world import FakeUser, StoredMessage

NAMES = ("Алиса", "Боб", "Вера", "Глеб")


@dataclass
class GroupPlayer(Player, GroupPerson):
    """`Player`'s choices (several doubles, closing ends) made on the hand inside the group."""

    async def take_turn(self) -> bool:
        if self.hand() is None:
            return await GroupPerson.take_turn(self)
        return await Player.take_turn(self)


def people_of(fake: FakeTelegram) -> list[FakeUser]:
    return [fake.add_user(name, username=name.lower()) for name in NAMES]


def calls_to(fake: FakeTelegram, method: str, chat_id: int) -> list[Call]:
    return [c for c in fake.transcript.calls(method) if c.params.get("chat_id") == chat_id]


def never_in_private(fake: FakeTelegram, users: list[FakeUser]) -> None:
    """Nobody opened the bot's private chat, and the bot wrote nobody there."""
    for user in users:
        for method in ("sendMessage", "editMessageText", "sendPhoto"):
            assert not calls_to(fake, method, user.id), (user.first_name, method)


async def test_a_whole_match_of_kozel_played_from_the_group_alone(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    users = people_of(fakegram)
    game = await open_game(fakegram, users, in_group=users)
    assert all(isinstance(person, GroupPerson) for person in game.people)
    table = game.table
    assert table is not None
    assert any(b.text == "✋ Мои кости" for b in table.buttons)
    await play_until(fakegram, game.people, lambda: bot.match_over())
    await settle(fakegram)

    match = bot.stored_match()
    assert match.over and match.ruleset.variant.value == "kozel"
    await final_announcement(game.group, match, list(NAMES))
    never_in_private(fakegram, users)
    for person in game.people:
        assert isinstance(person, GroupPerson) and person.brought >= 1
        assert person.presses >= 1  # they played from the hand in the group
    # Every move a person made is in the log as theirs.
    assert {entry.seat for entry in match.log if entry.seat is not None} == {0, 1, 2, 3}
    checked = assert_hands_private(fakegram, match, {i: u.id for i, u in enumerate(users)})
    assert checked > 50
    # Each hand went to its person alone: no ephemeral message to anyone else.
    for call in calls_to(fakegram, "sendMessage", game.group.id):
        params = call.params.get("ephemeral_message_parameters")
        if params is not None:
            assert params["receiver_user_id"] in {u.id for u in users}


async def test_a_whole_match_of_osel_with_doubles_and_closed_ends_from_the_group(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    users = people_of(fakegram)
    game = await open_game(fakegram, users, in_group=users, game="osel")
    assert game.table is not None and game.table.content.startswith("Осёл")
    people = [GroupPlayer(fakegram, user, group=game.group, closes=2) for user in users]
    for person in people:
        person.table = list(people)
    await play_until(fakegram, people, lambda: bot.match_over())
    await settle(fakegram)

    match = bot.stored_match()
    assert match.ruleset.variant.value == "osel" and match.over and match.losers
    await final_announcement(game.group, match, list(NAMES))
    never_in_private(fakegram, users)
    for seat, person in enumerate(people):
        made = {
            i for i, e in enumerate(match.log) if e.seat == seat and not isinstance(e.action, Draw)
        }
        pressed = [move_of(data) for data, _ in person.taken if kind_of(data) in MOVES]
        assert sorted(pressed) == sorted(made), person.user.first_name
    doubles = sum(p.pressed(Press.DOUBLES) for p in people)
    closed = sum(p.pressed(Press.CLOSE) for p in people)
    assert doubles >= 1 and closed >= 1, (doubles, closed)
    checked = assert_hands_private(fakegram, match, {i: u.id for i, u in enumerate(users)})
    assert checked > 50


async def test_two_in_the_group_one_in_private_and_a_computer(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice, bob, vera = (fakegram.add_user(name, username=name.lower()) for name in NAMES[:3])
    game = await open_game(fakegram, [alice, bob, vera], computers=1, in_group=[bob, vera])
    private, *in_group = game.people
    assert type(private) is Person and all(isinstance(p, GroupPerson) for p in in_group)
    await play_until(fakegram, game.people, lambda: bot.match_over())
    await settle(fakegram)

    match = bot.stored_match()
    assert match.over
    never_in_private(fakegram, [bob, vera])
    # Алиса played from her private chat: her hand is there, and not in the group.
    assert private.presses >= 1 and calls_to(fakegram, "sendMessage", alice.id)
    assert not [
        c
        for c in calls_to(fakegram, "sendMessage", game.group.id)
        if (c.params.get("ephemeral_message_parameters") or {}).get("receiver_user_id") == alice.id
    ]
    owners = {0: alice.id, 1: bob.id, 2: vera.id}
    assert assert_hands_private(fakegram, match, owners) > 30


async def first_turn_of_someone_in_group(game: Table) -> GroupPerson:
    """The person whose turn it is, once their hand is brought."""
    for person in game.people:
        assert isinstance(person, GroupPerson)
        await person.bring_hand()
    for person in game.people:
        await person.chat.fake.wait_for(
            lambda p=person: p.hand() is not None, timeout=REPLY_SECONDS
        )
    turn = [p for p in game.people if p.my_turn()]
    assert len(turn) == 1
    person = turn[0]
    assert isinstance(person, GroupPerson)
    return person


async def test_a_hand_that_expires_mid_turn_comes_back_with_one_press(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    clock = ManualClock()
    fakegram.clock = clock
    fakegram.ephemeral_lifetime = 60.0
    users = people_of(fakegram)[:2]
    game = await open_game(fakegram, users, in_group=users)
    person = await first_turn_of_someone_in_group(game)
    moves = len(bot.stored_match().log)
    clock.advance(61.0)  # the hand expires while it is this person's turn
    assert person.hand() is None
    answer = await person.bring_hand()
    assert answer is not None and answer.answered and not answer.show_alert
    await fakegram.wait_for(lambda: person.hand() is not None, timeout=REPLY_SECONDS)
    assert person.my_turn()
    assert await person.take_turn()
    await fakegram.wait_for(lambda: len(bot.stored_match().log) > moves, timeout=REPLY_SECONDS)
    await settle(fakegram)
    after = bot.stored_match()
    assert after.log[moves].seat == game.people.index(person)  # applied once, as theirs
    assert len([e for e in after.log[moves:] if e.seat == game.people.index(person)]) >= 1


async def test_a_hand_sent_while_offline_comes_back_with_one_press(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    users = people_of(fakegram)[:2]
    game = await open_game(fakegram, users, in_group=users)
    alice = game.people[0]
    assert isinstance(alice, GroupPerson)
    alice.user.online = False
    answer = await alice.bring_hand()
    assert answer is not None and answer.answered
    await settle(fakegram)
    assert alice.hand() is None  # sent, never delivered
    alice.user.online = True
    await alice.bring_hand()
    await fakegram.wait_for(lambda: alice.hand() is not None, timeout=REPLY_SECONDS)
    # One hand at a time: the undelivered one was deleted once the new one came.
    await settle(fakegram)
    hands = [
        m
        for m in game.group.ephemeral.values()
        if m.receiver is alice.user
        and not m.deleted
        and any(is_hand_button(b.callback_data) for b in m.buttons)
    ]
    assert len(hands) == 1
    await play_until(fakegram, game.people, lambda: bot.match_over())
    assert bot.stored_match().over


async def test_presses_nobody_may_make_change_nothing(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice, bob, stranger = (fakegram.add_user(n) for n in ("Алиса", "Боб", "Чужой"))
    game = await open_game(fakegram, [alice, bob], in_group=[alice, bob])
    await stranger.join(game.group)
    table = game.table
    assert table is not None
    data = GroupHandCb(game=bot.stored("SELECT id FROM games")[0][0]).pack()
    # Someone not at the table: told so, and nothing is sent to them.
    answer = await stranger.press(table, data=data, timeout=REPLY_SECONDS)
    assert answer.show_alert and "не играете" in (answer.text or "")
    # The same game's button forged into another group: refused.
    other = fakegram.add_group("Другая группа", members=[alice, stranger])
    note = await alice.send(other, "привет")
    answer = await alice.forge_press(note, data, timeout=REPLY_SECONDS)
    assert answer.show_alert
    await settle(fakegram)
    assert not game.group.ephemeral_for(stranger)
    assert not other.ephemeral_for(alice)
    # A hand button of Алиса's, pressed by Боб on his own hand in the group: refused as
    # not his game's position (he holds another seat), nothing changes.
    alices = game.people[0]
    assert isinstance(alices, GroupPerson)
    await alices.bring_hand()
    bobs = game.people[1]
    assert isinstance(bobs, GroupPerson)
    await bobs.bring_hand()
    await fakegram.wait_for(
        lambda: alices.hand() is not None and bobs.hand() is not None, timeout=REPLY_SECONDS
    )
    moves = len(bot.stored_match().log)
    hand = alices.hand()
    assert isinstance(hand, StoredMessage)
    mover = alices if alices.my_turn() else bobs
    other_person = bobs if mover is alices else alices
    mover_hand = mover.hand()
    assert mover_hand is not None
    data = mover.choice(mover_hand)
    assert data is not None
    own = other_person.hand()
    assert own is not None
    answer = await other_person.user.forge_press(own, data, timeout=REPLY_SECONDS)
    assert answer.show_alert or answer.text
    await settle(fakegram)
    assert len(bot.stored_match().log) == moves


async def test_a_private_hand_never_waits_for_the_groups_slow_queue(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    """Алиса keeps her hand in private and has brought it into the group too. While the
    group's queue hands nothing through (a busy group's budget spent: here the fake holds
    every edit of an ephemeral message there), her private hand still follows the game at
    once: after her move and Боб's, it says it is her turn again (the two hands have
    workers of their own; a newcomer saw both stuck on «Ваш ход!» after her move and most
    of her presses refused as out of date)."""
    users = people_of(fakegram)[:2]
    game = await open_game(fakegram, users)
    alice, bob = game.people
    table = next(
        m
        for m in reversed(game.group.bot_messages)
        if any((b.callback_data or "").startswith(GroupHandCb.__prefix__) for b in m.buttons)
    )
    data = next(
        b.callback_data
        for b in table.buttons
        if (b.callback_data or "").startswith(GroupHandCb.__prefix__)
    )
    answer = await alice.user.press(table, data=data)
    assert answer.answered and not answer.show_alert, answer

    def in_group() -> StoredMessage | None:
        shown = [
            m
            for m in game.group.ephemeral_for(alice.user)
            if any(is_hand_button(b.callback_data) for b in m.buttons)
        ]
        return shown[-1] if shown else None

    await fakegram.wait_for(lambda: in_group() is not None, timeout=REPLY_SECONDS)
    await settle(fakegram)
    released = fakegram.hold_calls("editEphemeralMessageText", game.group.id)
    try:
        await fakegram.wait_for(lambda: alice.my_turn() or bob.my_turn(), timeout=REPLY_SECONDS)
        if bob.my_turn():
            assert await bob.take_turn()
            await fakegram.wait_for(alice.my_turn, timeout=REPLY_SECONDS)
        # Her turn: she moves until it passes (a draw keeps it), the group's edits held.
        seat = game.people.index(alice)
        while bot.stored_match().turn == seat and not bot.match_over():
            moves = len(bot.stored_match().log)
            await fakegram.wait_for(alice.my_turn, timeout=REPLY_SECONDS)
            hand = alice.hand()
            before = None if hand is None else (hand.message_id, hand.content, hand.buttons)

            def answered(moves: int = moves, before: object = before) -> bool:
                """A move stored, or her private hand changed without one: a tile that
                fits two ends opens their choice, and a press on a hand one step behind
                is refused and the hand shown again (edited, or sent anew at the bottom);
                either way she presses again."""
                hand = alice.hand()
                now = None if hand is None else (hand.message_id, hand.content, hand.buttons)
                return len(bot.stored_match().log) > moves or now != before

            await alice.take_turn()
            await fakegram.wait_for(answered, timeout=REPLY_SECONDS)

        def hers_shown() -> bool:
            return bot.match_over() or (bot.stored_match().turn == seat and alice.my_turn())

        # Боб plays on from private until it is her turn again (a round may end meanwhile
        # and another seat begin the next): her private hand shows it.
        while not hers_shown():
            await fakegram.wait_for(lambda: bob.my_turn() or hers_shown(), timeout=REPLY_SECONDS)
            if bob.my_turn() and not hers_shown():
                await bob.take_turn()
        assert not released.is_set()
    finally:
        released.set()
    await play_until(fakegram, game.people, bot.match_over)
    assert_hands_private(fakegram, bot.stored_match(), {0: users[0].id, 1: users[1].id})
