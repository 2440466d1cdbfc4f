"""Announcements are delivered at least once, and marked sent right after Telegram took them.

Every announcement the bot sends leaves two lines in its log: "sending announcement
<id> (<kind>)" for each attempt and "announcement <id> (<kind>) sent as message <n>"
once its outbox row is marked. This test plays a round to its end, checks that each
announcement went out once and is logged so, then kills the bot with SIGKILL and
restarts it: nothing already announced is announced again. (How often a SIGKILL in
the remaining window repeats one is measured by the SIGKILL test, counting "sending"
lines per id across restarts.)
"""

from __future__ import annotations

import re
from collections import Counter

from tests.e2e.harness import BotProcess, open_game, play_until
from tests.fakegram import FakeTelegram

SENDING = re.compile(r"sending announcement (\d+) \((\w+)\)")
SENT = re.compile(r"announcement (\d+) \((\w+)\) sent as message (\d+)")


async def test_each_announcement_goes_out_once_and_a_sigkill_after_it_repeats_none(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(fakegram, [alice, bob])

    def announced() -> list[tuple[object, ...]]:
        return bot.stored("SELECT id, kind FROM outbox WHERE sent_at IS NOT NULL ORDER BY id")

    await play_until(
        fakegram, game.people, lambda: any(kind == "round_end" for _, kind in announced())
    )
    await fakegram.idle()
    rows = {int(str(row_id)): str(kind) for row_id, kind in announced()}
    log = bot.log()
    sending = Counter(int(m[1]) for m in SENDING.finditer(log))
    sent = {int(m[1]): (m[2], int(m[3])) for m in SENT.finditer(log)}
    assert rows and set(sending) == set(rows) == set(sent), (rows, sending, sent)
    assert all(count == 1 for count in sending.values()), sending
    shown = {m.message_id: m for m in game.group.bot_messages}
    for row_id, (kind, message_id) in sent.items():
        assert kind == rows[row_id] and message_id in shown, (row_id, kind, message_id)
    messages_before = len(game.group.bot_messages)

    await bot.restart(kill=True)  # SIGKILL: every row was marked before the kill
    await fakegram.idle()
    after = bot.log().split(f"--- start {bot.starts}")[-1]
    assert not SENDING.search(after), after[-2000:]
    announcements = {message_id for _, message_id in sent.values()}
    repeated = [
        m
        for m in game.group.bot_messages[messages_before:]
        if any(m.content == shown[n].content for n in announcements)
    ]
    assert repeated == []
