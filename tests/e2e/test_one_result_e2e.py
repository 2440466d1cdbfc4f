"""One match, one result: a person whose time ran out three times loses the match for
the record and /stats (K-11: the first to abandon it), which the group is told at the
third timeout and once more, in the match's one end announcement, when the computer has
played the seat to the end, whatever the board's scores say; the rating it names is the
stored one, and only people's.

The bot runs with TURN_TIME_SCALE=0.05 times the machine's pace, so the 30 s setting
gives 1.5 s turns on an idle machine (as in `test_timers_e2e.py`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from domino.timing import TurnTimer
from tests.e2e.harness import (
    BotProcess,
    assert_hands_private,
    live_table,
    open_game,
    play_until,
    running_bot,
    settle,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.waiting import pace
from tests.fakegram.world import StoredMessage

SCALE = 0.05  # on an idle machine; times the pace at the test's start


def below(table: StoredMessage | None, message: StoredMessage) -> bool:
    return table is not None and not table.deleted and table.message_id > message.message_id


@pytest.fixture
async def timed_bot(fakegram: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    scale = f"{SCALE * pace():.3f}"
    async with running_bot(
        fakegram, tmp_path, PACING="false", TURN_TIME_SCALE=scale, COMPUTER_DELAY="0.3"
    ) as process:
        yield process


async def test_a_seat_a_computer_took_after_three_timeouts_is_the_one_loser(
    fakegram: FakeTelegram, timed_bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(fakegram, [alice, bob], seats=2, turn_timer=TurnTimer.S30)
    group = game.group
    quiet = 5 + 2 * 30 * float(timed_bot.env["TURN_TIME_SCALE"])

    # Боб never presses; Алиса plays whenever it is her turn, to the match's end.
    await play_until(
        fakegram,
        game.people[:1],
        lambda: (
            timed_bot.match_over()
            or any("Боб: трижды кончилось время" in m.content for m in group.bot_messages)
        ),
    )
    taken = await group.wait_for_message(
        lambda m: "Боб: трижды кончилось время на ход" in m.content, timeout=quiet
    )
    [(stored,)] = timed_bot.stored("SELECT abandonment FROM games")
    first_points = timed_bot.stored_match().seat_points() if stored is None else None
    assert stored is not None, first_points
    # Said at the third timeout: how the match counts from now, and how to undo it.
    assert taken.content.startswith(
        "🤖 Боб: трижды кончилось время на ход, дальше ходит компьютер.\n"
        "Если не вернуться в игру кнопкой «🙋 Я снова играю», партия пойдёт в зачёт как "
        "проигрыш: Боб; рейтинг остальным — за отрыв от счёта "
    ), taken.content
    assert "Козёл" not in taken.content and "тайм-аут" not in taken.content
    # The notice came below the table: the running match's table comes below it again.
    await fakegram.wait_for(
        lambda: timed_bot.match_over() or below(game.table, taken),
        timeout=quiet,
        what="the table sent anew below the notice",
    )
    if not timed_bot.match_over():
        assert game.table is not None and game.table.message_id > taken.message_id

    await play_until(fakegram, game.people[:1], timed_bot.match_over)
    end = await group.wait_for_message(
        lambda m: m.photo is None and m.content.startswith("🐐 Козёл — "), timeout=quiet
    )
    await settle(fakegram)

    # The stored record: Боб the козёл, his rating 0, Алиса's by her lead then.
    seats = timed_bot.stored(
        "SELECT seat, user_id, goat, rating_gain FROM stat_seats ORDER BY seat"
    )
    assert [(seat, user, goat) for seat, user, goat, _ in seats] == [
        (0, alice.id, 0),
        (1, bob.id, 1),
    ]
    gains = {seat: gain for seat, _, _, gain in seats}
    assert gains[1] == 0
    # One result, said once, in the words of the record.
    lines = end.content.split("\n")
    assert lines[:3] == [
        "🐐 Козёл — Боб (🤖)",
        "🤖 Боб: время на ход трижды вышло, и партию доиграл компьютер, поэтому в зачёт она "
        "идёт как проигрыш.",
        f"📈 Рейтинг за партию: Алиса +{gains[0]} · Боб +0",
    ], end.content
    texts = [m.content for m in group.bot_messages if m.photo is None]
    assert [text for text in texts if "Козёл —" in text or "Козёл:" in text] == [end.content]
    assert not [text for text in texts if "тайм-аут" in text or text.startswith("📊")], texts
    # The table's last caption says the same козёл (the live table: sent anew below the
    # announcements, its last edit maybe still being drawn on a busy machine).
    await group.wait_for_message(
        lambda m: m is live_table(group, game.table) and "Партия окончена" in m.content,
        timeout=quiet,
    )
    table = live_table(group, game.table)
    assert table is not None and "🐐 Козёл: Боб (🤖)." in table.content, table.content
    assert_hands_private(fakegram, timed_bot.stored_match(), {0: alice.id, 1: bob.id})
