"""The live table is the newest message of its game in the group: every round's result
comes above the next round's table, sent anew below it (the old one deleted, the pin
moved to the new one), in a basic group and in a supergroup, paced or not; after the
match's last words no table is sent any more."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.harness import (
    REPLY_SECONDS,
    TABLE_TITLE,
    BotProcess,
    Table,
    assert_hands_private,
    open_game,
    play_until,
    running_bot,
    settle,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.world import FakeChat, FakeUser, MemberStatus, StoredMessage

ROUND_NO = re.compile(r" · раунд (\d+)")
ROUND_END = re.compile(r"Раунд (\d+):")


@pytest.fixture
async def paced_bot(fakegram: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The bot as it runs in production: every chat paced to Telegram's limits."""
    async with running_bot(fakegram, tmp_path, PACING="true") as process:
        yield process


def is_table(message: StoredMessage) -> bool:
    return (
        message.from_bot and message.photo is not None and bool(TABLE_TITLE.search(message.content))
    )


def round_of(text: str) -> int:
    found = ROUND_NO.search(text)
    assert found is not None, text
    return int(found.group(1))


def round_ends(group: FakeChat, since: int) -> dict[int, StoredMessage]:
    """Each round's result picture in the group from message `since` on, by its round."""
    found = {}
    for message in game_messages(group, since):
        shown = ROUND_END.search(message.content)
        if message.photo is not None and shown is not None and not is_table(message):
            found[int(shown.group(1))] = message
    return found


def game_messages(group: FakeChat, since: int) -> list[StoredMessage]:
    """The bot's messages of the game everybody sees, from message `since` on."""
    return [m for m in group.bot_messages if m.message_id >= since and not m.ephemeral]


async def play_a_match_of_several_rounds(
    fake: FakeTelegram, bot: BotProcess, people: list[FakeUser], *, supergroup: bool = False
) -> tuple[Table, int]:
    """A match of Козёл played round by round to its end (`play_round_by_round`), again
    in the same group until one lasts two rounds at least (a deal can end it in one, a
    fish of 101); the game and the id of its first table. In a supergroup the bot is an
    admin who may pin."""
    game = await open_game(fake, people, computers=2, start=False, supergroup=supergroup)
    if supergroup:
        await fake.set_bot_status(game.group, MemberStatus.ADMINISTRATOR)
    while True:
        start = await game.people[0].user.press(game.lobby, data=start_button(game.lobby))
        assert start.answered and not start.show_alert, start
        first = await game.group.wait_for_message(is_table, after=game.lobby)
        game.table = first
        await play_round_by_round(fake, bot, game, first.message_id, pinned=supergroup)
        await match_end_announced(game.group, first.message_id)
        if len(bot.stored_match().results) >= 2:
            return game, first.message_id
        again = await open_game(fake, people, computers=2, start=False, group=game.group)
        game.lobby = again.lobby


def round_over(bot: BotProcess, played: int) -> bool:
    """Whether the match is over or a round more than `played` has been."""
    return bot.match_over() or len(bot.stored_match().results) > played


async def play_round_by_round(
    fake: FakeTelegram, bot: BotProcess, game: Table, since: int, *, pinned: bool
) -> None:
    """The people play the match to its end; after each round they stop until the group
    shows the next round's table as its newest message of the game, below the round's
    result (`pinned`: and pinned). A round cannot end while they wait."""
    played = 0

    def live_below_result() -> bool:
        table, ends = game.table, round_ends(game.group, since)
        return (
            table is not None
            and game_messages(game.group, since)[-1] is table
            and played in ends
            and table.message_id > ends[played].message_id
            and round_of(table.content) == played + 1
            and (game.group.pinned == [table] if pinned else game.group.pinned == [])
        )

    while True:
        await play_until(fake, game.people, functools.partial(round_over, bot, played))
        if bot.match_over():
            return
        played = len(bot.stored_match().results)
        await fake.wait_for(
            live_below_result,
            what=f"round {played + 1}'s table below round {played}'s result",
        )


def is_match_end(message: StoredMessage) -> bool:
    return message.from_bot and message.photo is None and "Козёл —" in message.content


async def match_end_announced(group: FakeChat, since: int) -> None:
    """The match's end is announced (after its last round's picture), then all is sent."""
    await group.wait_for_message(
        lambda m: is_match_end(m) and m.message_id > since, timeout=REPLY_SECONDS
    )
    await settle(group.fake)


def outline(group: FakeChat, since: int) -> list[tuple[int, bool, str]]:
    """The group's messages of the game, for a failure's report."""
    return [
        (m.message_id, m.deleted, m.content[:24].replace("\n", " "))
        for m in group.messages.values()
        if m.message_id >= since
    ]


def start_button(lobby: StoredMessage) -> str:
    data = next(b.callback_data for b in lobby.buttons if "Начать" in b.text)
    assert data is not None
    return data


def assert_each_round_is_drawn_below_the_last_ones_result(
    fake: FakeTelegram, game: Table, since: int, rounds: int
) -> None:
    """Every round after the first is drawn by a table sent below the last round's
    result, never into a table above it; once a round at most (twice if the result
    took longer than the table waits for it); no table after the match's end, and the
    last table keeps the final position, without its button."""
    group = game.group
    ends = round_ends(group, since)
    assert sorted(ends) == list(range(1, rounds + 1)), sorted(ends)
    sent = [
        (call.result["message_id"], round_of(call.result["caption"]))
        for call in fake.transcript.calls("sendPhoto", ok=True)
        if call.result["chat"]["id"] == group.id
        and call.result["message_id"] >= since
        and ROUND_NO.search(call.result.get("caption", ""))
    ]
    drawn = [round_no for _, round_no in sent]
    assert drawn == sorted(drawn) and max(Counter(drawn).values()) <= 2, sent
    for round_no in range(2, rounds + 1):
        result = ends[round_no - 1]
        assert any(
            message_id > result.message_id and shows == round_no for message_id, shows in sent
        ), (round_no, rounds, result.message_id, sent, outline(group, since))
        # No table above the result ever showed the next round (edited into it, buried).
        above = [
            m for m in group.messages.values() if is_table(m) and m.message_id < result.message_id
        ]
        for table in above:
            versions = [v.caption or "" for v in table.history] + [table.content]
            assert all(round_of(text) < round_no for text in versions), (round_no, versions)
    # One table stands: the last round's, above its result and the match's end, with no
    # button any more; nothing of the game's comes below the match's end.
    tables = [m for m in group.visible_messages if is_table(m) and m.message_id >= since]
    assert len(tables) == 1 and not tables[0].buttons, [m.content[:40] for m in tables]
    assert round_of(tables[0].content) == rounds
    last = game_messages(group, since)
    end = next(m for m in last if is_match_end(m))
    assert end is last[-1] and tables[0].message_id < ends[rounds].message_id < end.message_id


async def test_in_a_paced_basic_group_each_round_comes_below_the_last_ones_result(
    fakegram: FakeTelegram, paced_bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    since = len(fakegram.exposures)
    game, first = await play_a_match_of_several_rounds(fakegram, paced_bot, [alice, bob])
    rounds = len(paced_bot.stored_match().results)
    assert_each_round_is_drawn_below_the_last_ones_result(fakegram, game, first, rounds)
    assert fakegram.transcript.calls("pinChatMessage", ok=True) == []  # the bot is no admin
    assert_hands_private(fakegram, paced_bot.stored_match(), {0: alice.id, 1: bob.id}, since=since)


async def test_in_a_supergroup_the_pinned_table_is_the_live_one_below_each_result(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    since = len(fakegram.exposures)
    game, first = await play_a_match_of_several_rounds(fakegram, bot, [alice, bob], supergroup=True)
    await fakegram.wait_for(lambda: game.group.pinned == [])  # unpinned at the end
    rounds = len(bot.stored_match().results)
    assert_each_round_is_drawn_below_the_last_ones_result(fakegram, game, first, rounds)
    assert_hands_private(fakegram, bot.stored_match(), {0: alice.id, 1: bob.id}, since=since)
