"""300 `/top` in a group while a game plays there: the table keeps moving.

The bot runs with its pacing on, as in production (a group takes about 16 messages a
minute from it). A first-in-first-out queue would put 300 replies in front of the table
and freeze its picture for over a minute, so the game's messages go first, identical
replies waiting are sent once, and each spammer gets one cooldown notice after 8
commands, then silence.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.harness import (
    TABLE_TITLE,
    BotProcess,
    Table,
    open_game,
    play_across_matches,
    running_bot,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.world import FakeUser, StoredMessage

SPAM = 300
EDITS = 5  # table pictures measured after the spam began
# How many replies to the spam may go out between two pictures of the table. The game's
# messages go first, so a reply only takes a slot of the group's pace that no game
# message wanted (a person thinking, a new match being set up): one or two. A queue in
# order of arrival would send the replies in front of the table back to back, the table
# waiting for all of them (over a minute). Counted in messages, not seconds: a loaded machine
# slows the game and the replies alike.
REPLIES_BETWEEN_PICTURES = 4


@pytest.fixture
async def paced_bot(fakegram: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    async with running_bot(fakegram, tmp_path, PACING="true") as process:
        yield process


def table_edits(fake: FakeTelegram, game: Table) -> list[float]:
    """When (the fake's clock) the group's table showed a new picture: edited, or sent
    anew at a round's start when the commands had buried it (bot.telegram.table_pin)."""
    return [
        call.at
        for call in fake.transcript.calls(ok=True)
        if call.params.get("chat_id") == game.group.id
        and (
            call.method == "editMessageMedia"
            or (call.method == "sendPhoto" and TABLE_TITLE.search(call.result.get("caption", "")))
        )
    ]


def worst_gap(moments: list[float]) -> float:
    return max(b - a for a, b in itertools.pairwise(moments))


def sent_at(fake: FakeTelegram, game: Table, messages: list[StoredMessage]) -> list[float]:
    """When (the fake's clock) the bot sent these messages to the group."""
    ids = {m.message_id for m in messages}
    return [
        call.at
        for call in fake.transcript.calls(ok=True)
        if call.method == "sendMessage"
        and call.params.get("chat_id") == game.group.id
        and call.result.get("message_id") in ids
    ]


def crowded_gap(
    fake: FakeTelegram, game: Table, pictures: list[float], replies: list[float]
) -> tuple[int, str]:
    """The most replies sent between two pictures of the table, and what the bot sent
    the group in that gap (for the failure message)."""
    crowd, start, end = max(
        (sum(a < r < b for r in replies), a, b) for a, b in itertools.pairwise(pictures)
    )
    lines = [
        f"{call.at - start:7.2f} {call.method} "
        f"{str(call.params.get('text') or call.params.get('caption') or '')[:60]!r}"
        for call in fake.transcript.calls()
        if call.params.get("chat_id") == game.group.id and start <= call.at <= end
    ]
    return crowd, f"{crowd} replies in {end - start:.1f} s between two tables:\n" + "\n".join(lines)


def notice_for(messages: list[StoredMessage], person: FakeUser) -> bool:
    return any(
        "слишком много команд" in m.content and m.content.startswith(f"⏳ {person.first_name},")
        for m in messages
    )


@pytest.mark.slow(seconds=110)
async def test_three_hundred_top_commands_do_not_hold_the_table_back(
    fakegram: FakeTelegram, paced_bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(fakegram, [alice, bob], computers=2)

    # Some play before the spam: the worst wait between two pictures, for the record.
    await play_across_matches(
        fakegram, paced_bot, game, lambda: len(table_edits(fakegram, game)) > EDITS, computers=2
    )
    baseline = worst_gap(table_edits(fakegram, game))

    names = ("Вера", "Глеб", "Дина")
    spammers = [fakegram.add_user(name, username=f"s{k}") for k, name in enumerate(names)]
    for spammer in spammers:
        await spammer.join(game.group)
    sent: list[StoredMessage] = []

    async def spam() -> None:
        for k in range(SPAM):
            sent.append(await spammers[k % len(spammers)].command(game.group, "top"))

    def replies() -> list[StoredMessage]:
        return [m for m in game.group.bot_messages if m.reply_to in sent]

    def answered(person: FakeUser) -> bool:
        """A table of standings came after their first /top, and their notice."""
        place = {id(m): k for k, m in enumerate(game.group.messages.values())}
        first = next((m for m in sent if m.sender is person), None)
        shown = replies()
        return (
            first is not None
            and any("🏆" in m.content and place[id(m)] > place[id(first)] for m in shown)
            and notice_for(shown, person)
        )

    began = fakegram.clock()
    spamming = asyncio.create_task(spam())
    try:
        # The game goes on through the spam: the people play until the table has moved
        # EDITS times since it began and the spam has been taken.
        await play_across_matches(
            fakegram,
            paced_bot,
            game,
            lambda: (
                spamming.done()
                and fakegram.pending_updates == 0
                and len([t for t in table_edits(fakegram, game) if t > began]) >= EDITS
            ),
            computers=2,
        )
    finally:
        spamming.cancel()
    await spamming  # its failure, if any, is the test's
    try:  # the replies come at the group's pace, the game's messages first
        await fakegram.wait_for(lambda: all(answered(s) for s in spammers), timeout=120)
    except TimeoutError:
        raise AssertionError(f"not everyone was answered:\n{paced_bot.log()[-6000:]}") from None

    during = [began] + [t for t in table_edits(fakegram, game) if t > began]
    shown = replies()
    tops = [m for m in shown if "🏆" in m.content]
    crowd, report = crowded_gap(fakegram, game, during, sent_at(fakegram, game, shown))
    print(
        f"\nspam: {SPAM} /top from {len(spammers)} people; worst gap between table pictures "
        f"{baseline:.1f} s before, {worst_gap(during):.1f} s during; {len(tops)} /top replies, "
        f"{len(shown) - len(tops)} other replies, at most {crowd} between two pictures"
    )
    assert crowd <= REPLIES_BETWEEN_PICTURES, report
    # One notice each, then silence: 8 commands a person answered, identical replies once.
    assert len(shown) - len(tops) == len(spammers)
    assert 1 <= len(tops) <= 8 * len(spammers)
