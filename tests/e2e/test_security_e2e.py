"""Nobody acts on another group's game, end to end.

A hostile person uses a modified client: they press buttons with data they made up,
on messages of their own group or private chat, naming games of other groups. Every
such press is answered politely and changes nothing in the database; deep links seat
only members of the lobby's group; ids out of SQLite's range are refused as old
buttons, with no traceback in the bot's log (the `bot` fixture checks the log).
"""

from __future__ import annotations

from storage.records import HandsPlace
from tests.e2e.harness import BotProcess, button_data, open_game, settle
from tests.fakegram import CallbackAnswer, FakeTelegram
from tests.fakegram.world import FakeChat, FakeUser, MemberStatus, StoredMessage

WAIT = 60.0  # a window with no progress at all (tests.fakegram.waiting), not a deadline
LINK = "https://t.me/domino_test_bot?start="


def snapshot(bot: BotProcess) -> list[tuple[object, ...]]:
    """Everything a press could change: games, seats, votes and ballots."""
    return [
        *bot.stored("SELECT id, chat_id, status, version, match, creator_id FROM games"),
        *bot.stored("SELECT game_id, seat, user_id, name, active, away FROM seats"),
        *bot.stored("SELECT id, game_id, state FROM cancel_votes"),
        *bot.stored("SELECT vote_id, user_id, in_favour FROM cancel_ballots"),
    ]


async def bot_message_in(user: FakeUser, chat: FakeChat | None) -> StoredMessage:
    """A message of the bot in `chat` (the user's private chat when None) to press on."""
    target = chat or user.private_chat
    before = target.bot_messages[-1].message_id if target.bot_messages else 0
    if chat is None:
        await user.start()
    else:
        await user.command(chat, "rules")
    return await target.wait_for_message(after=before, timeout=WAIT)


def refused(answer: CallbackAnswer, *fragments: str) -> bool:
    return (
        answer.answered
        and answer.show_alert
        and any(fragment in (answer.text or "") for fragment in fragments)
    )


async def test_an_admin_of_another_group_cancels_nothing_with_a_forged_press(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    mallory = fakegram.add_user("Мэллори", username="mallory")
    game = await open_game(fakegram, [alice, bob], computers=2)
    group_b = fakegram.add_group("Чужая группа", members=[mallory], admins=[mallory])
    (game_id,) = bot.stored("SELECT id FROM games WHERE chat_id = ?", game.group.id)[0]
    # A vote to cancel, so the ballot button can be forged too (Bob is no admin).
    await bob.command(game.group, "cancel")
    vote = await game.group.wait_for_message(
        lambda m: "предлагает отменить" in m.content, timeout=WAIT
    )
    (vote_id,) = bot.stored("SELECT id FROM cancel_votes WHERE game_id = ?", game_id)[0]
    await settle(fakegram)
    before = snapshot(bot)

    in_b = await bot_message_in(mallory, group_b)
    move = len(bot.stored_match(game_id).log)
    forged = {
        f"x1:{game_id}:1": ("не относится",),
        f"v1:{vote_id}:1": ("не относится",),
        f"l1:{game_id}:x:-": ("не относится",),
        # A score sheet forged onto a message that is no /history screen.
        f"h2:kozel:1:{game_id}": ("устарела",),
    }
    for data, texts in forged.items():
        answer = await mallory.forge_press(in_b, data, timeout=WAIT)
        assert refused(answer, *texts), (data, answer)

    # A player of the game, pressing the game's buttons on a message of another chat.
    group_b.members[alice.id] = MemberStatus.MEMBER
    in_b_by_alice = await bot_message_in(alice, group_b)
    for data in (
        f"m2:{game_id}:{move}:k",
        f"hb1:{game_id}:{move}:b:",
        f"s2:{game_id}:0:{alice.id}:1",
        f"r1:{game_id}",
        f"x1:{game_id}:1",  # Alice is the creator, but not of a game of this chat
    ):
        answer = await alice.forge_press(in_b_by_alice, data, timeout=WAIT)
        assert answer.answered and answer.show_alert, (data, answer)
    # Hand buttons pressed in someone else's private chat are refused too.
    in_mallorys_chat = await bot_message_in(mallory, None)
    for data in (
        f"m2:{game_id}:{move}:k",
        f"hb1:{game_id}:{move}:b:",
        f"r1:{game_id}",
        f"s2:{game_id}:0:{mallory.id}:1",
    ):
        answer = await mallory.forge_press(in_mallorys_chat, data, timeout=WAIT)
        assert answer.answered and answer.show_alert, (data, answer)
    # On the vote's own message in the game's group, a member who does not play may not vote.
    game.group.members[mallory.id] = MemberStatus.MEMBER
    stranger = await mallory.forge_press(vote, f"v1:{vote_id}:0", timeout=WAIT)
    assert stranger.answered and stranger.show_alert, stranger

    await settle(fakegram)
    assert snapshot(bot) == before, "a forged press changed a stored game"
    (status,) = bot.stored("SELECT status FROM games WHERE id = ?", game_id)[0]
    assert status == "playing"


async def test_only_the_groups_members_join_and_only_from_its_own_lobby(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    carol = fakegram.add_user("Карина", username="carol")  # in the group, never started the bot
    mallory = fakegram.add_user("Мэллори", username="mallory")  # in no group with the bot
    # A group that keeps hands in private: Карина goes by the join link.
    game = await open_game(fakegram, [alice], seats=3, start=False, hands=HandsPlace.PRIVATE)
    game.group.members[carol.id] = MemberStatus.MEMBER
    group_b = fakegram.add_group("Чужая группа", members=[mallory], admins=[mallory])
    (game_id,) = bot.stored("SELECT id FROM games WHERE chat_id = ?", game.group.id)[0]
    await settle(fakegram)
    before = snapshot(bot)

    # A forged "Join" of the lobby, pressed on a message of another group.
    in_b = await bot_message_in(mallory, group_b)
    for action in ("j", "c", "s", "o", "x", "r"):
        answer = await mallory.forge_press(in_b, f"l1:{game_id}:{action}:-", timeout=WAIT)
        assert refused(answer, "не относится"), (action, answer)

    # The sequential id no longer works as a link; the secret one works only for members.
    await mallory.start(f"j{game_id}")
    await mallory.private_chat.wait_for_message(lambda m: "устарела" in m.content, timeout=WAIT)
    join = await carol.press(game.lobby, data=button_data(game.lobby, "Играю"), timeout=WAIT)
    assert join.url is not None and join.url.startswith(LINK + "j"), join
    payload = join.url.removeprefix(LINK)
    assert len(payload) == 17  # "j" and 16 random characters: no game number in it
    await mallory.start(payload)
    refusal = await mallory.private_chat.wait_for_message(
        lambda m: "участники группы" in m.content, timeout=WAIT
    )
    assert "Домино во дворе" in refusal.content
    # Someone who left the group since is refused as well.
    game.group.members[mallory.id] = MemberStatus.LEFT
    await mallory.start(payload)
    await mallory.private_chat.wait_for_message(
        lambda m: "участники группы" in m.content, after=refusal, timeout=WAIT
    )
    await settle(fakegram)
    assert snapshot(bot) == before, "a stranger changed the lobby"
    assert "Мэллори" not in game.lobby.content

    # A member of the group follows the same link and is seated.
    await carol.start(payload)
    await carol.private_chat.wait_for_message(lambda m: "за столом" in m.content, timeout=WAIT)
    await game.group.wait_for_message(
        lambda m: m is game.lobby and "Карина" in m.content, timeout=WAIT
    )


async def test_ids_out_of_range_are_answered_as_old_buttons_without_a_traceback(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    game = await open_game(fakegram, [alice], computers=1, seats=2, start=False)
    in_private = await bot_message_in(alice, None)
    before = snapshot(bot)
    layouts = {
        "m2": "m2:{n}:0:k",
        "hb1": "hb1:{n}:0:i:",
        "l1": "l1:{n}:j:-",
        "x1": "x1:{n}:1",
        "r1": "r1:{n}",
        "s2": "s2:{n}:0:{me}:1",
        "v1": "v1:{n}:1",
        "h2": "h2:kozel:1:{n}",
        "t2": "t2:kozel:g:{n}",
    }
    for prefix, layout in layouts.items():
        for number in (2**63, 2**64, -1):
            data = layout.format(n=number, me=alice.id)
            for message in (game.lobby, in_private):
                answer = await alice.forge_press(message, data, timeout=WAIT)
                assert refused(answer, "устарела"), (prefix, data, answer)
    # The move number and the person of a confirmation are bounded as well.
    for data in (
        f"m2:1:{2**63}:k",
        f"s2:1:0:{2**64}:1",
        "m2:1:0:p7-7L",
        "m1:1:0:k",  # a hand button of the layout before the engine's action text
    ):
        answer = await alice.forge_press(in_private, data, timeout=WAIT)
        assert refused(answer, "устарела"), (data, answer)

    for payload in ("j²", "j99999999999999999999", "j٣", "j" + "x" * 60):
        last = alice.private_chat.bot_messages[-1]
        await alice.start(payload)
        told = await alice.private_chat.wait_for_message(after=last, timeout=WAIT)
        assert "устарела" in told.content, (payload, told)
    await settle(fakegram)
    assert snapshot(bot) == before
    assert "Traceback" not in bot.log()
