"""Four seats at full speed with Telegram's flood limits on: not one 429.

The fake answers like Telegram (about one message a second per chat with a burst of
three, twenty a minute per group, thirty a second overall, edits included); the bot
runs with its own pacing on, as in production, and the people press as fast as the
bot lets them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.harness import (
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


@pytest.fixture
async def paced_bot(fakegram: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    async with running_bot(fakegram, tmp_path, PACING="true") as process:
        yield process


@pytest.mark.slow(seconds=70)
async def test_three_rounds_under_flood_limits_get_no_429(
    fakegram: FakeTelegram, paced_bot: BotProcess
) -> None:
    fakegram.enable_flood_limits()
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(fakegram, [alice, bob], computers=2)
    # Three rounds: every kind of message (lobby, table edits, hands, drawn tiles, round
    # announcements with their score sheets) at the pace of the people's presses; a whole
    # match only repeats them and would cost minutes of the CI budget. A deal may end the
    # match sooner (a fish of 101 or more): then the whole match, its end announced too.
    await play_until(
        fakegram,
        game.people,
        lambda: rounds_announced(game) >= ROUNDS or paced_bot.match_over(),
    )
    await settle(fakegram)
    refused = [call for call in fakegram.transcript.calls() if call.error_code == 429]
    assert refused == []
    match = paced_bot.stored_match()
    assert len(match.results) >= ROUNDS or match.over
    assert_hands_private(fakegram, match, {0: alice.id, 1: bob.id})


ROUNDS = 3


def rounds_announced(game: Table) -> int:
    """Round-end announcements (each a picture, besides the table's pictures: the table
    is sent anew at a round's start once a round's end buried it) so far."""
    return sum(
        1
        for m in game.group.bot_messages
        if m.photo is not None and not TABLE_TITLE.search(m.content)
    )


@pytest.mark.slow(seconds=60)
async def test_hands_inside_the_group_share_its_budget_and_get_no_429(
    fakegram: FakeTelegram, paced_bot: BotProcess
) -> None:
    """Two people play from inside the group (ephemeral hands, none in private): every
    ephemeral message and edit counts against the group's twenty a minute, as the fake
    counts them (the conservative reading, README: admins), and the bot's pacing keeps
    the table and the hands within it."""
    fakegram.enable_flood_limits()
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(fakegram, [alice, bob], computers=2, in_group=[alice, bob])
    await play_until(
        fakegram,
        game.people,
        lambda: len(paced_bot.stored_match().log) >= GROUP_MOVES or paced_bot.match_over(),
    )
    await settle(fakegram)
    refused = [call for call in fakegram.transcript.calls() if call.error_code == 429]
    assert refused == []
    ephemeral = [
        call
        for call in fakegram.transcript.calls()
        if call.params.get("chat_id") == game.group.id
        and ("ephemeral" in call.method.lower() or "ephemeral_message_parameters" in call.params)
    ]
    assert len(ephemeral) >= 4  # the hands were there, and edited
    assert not [c for c in fakegram.transcript.calls("sendMessage") if c.params["chat_id"] > 0]
    match = paced_bot.stored_match()
    assert_hands_private(fakegram, match, {0: alice.id, 1: bob.id})


GROUP_MOVES = 5  # moves of the match, people's and computers'
