"""The turn's time as a player reads it in their hand, end to end: a five-minute turn
says «⏱ На ход: до 5 минут», not «300 с» (a number of seconds that never counted
down read as broken).

Runs the bot as `python -m bot` against tests/fakegram (see harness.py)."""

from __future__ import annotations

from domino.timing import TurnTimer
from tests.e2e.harness import REPLY_SECONDS, BotProcess, open_game
from tests.fakegram import FakeTelegram


async def test_a_five_minute_turn_reads_in_minutes_in_the_hand(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    await open_game(fakegram, [alice], computers=1, turn_timer=TurnTimer.S300)
    hand = await alice.private_chat.wait_for_message(
        lambda m: "Ваш ход" in m.content and "⏱" in m.content, timeout=4 * REPLY_SECONDS
    )
    assert "⏱ На ход: до 5 минут" in hand.content.splitlines(), hand.content
    assert "300" not in hand.content, hand.content
