"""A round's end through the fake Telegram: the group gets one picture of the round as it
ended (the final table, every hand laid open, the score sheet) with the announcement as
its caption, and it is exactly what `render_round_end` draws from the stored match."""

from __future__ import annotations

import re

from render import render_round_end
from tests.e2e.harness import BotProcess, assert_hands_private, open_game, play_until, settle
from tests.fakegram import FakeTelegram
from tests.fakegram.world import StoredMessage

FIRST_ROUND = re.compile(r"^(?:🏁|🐟) Раунд 1: ")


async def test_a_rounds_end_shows_its_final_table_and_every_hand_in_one_picture(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(fakegram, [alice, bob], seats=2)

    def announced() -> list[StoredMessage]:
        return [m for m in game.group.bot_messages if FIRST_ROUND.search(m.content)]

    await play_until(fakegram, game.people, lambda: bool(announced()))
    await settle(fakegram)
    [shown] = announced()
    assert shown.photo is not None
    match = bot.stored_match()
    result = match.results[0]
    names = ["Алиса", "Боб"]
    # The picture is the first round's end, as the match stood then, however far the
    # match has moved on since.
    then = match.after_round(1).view(None)
    expected = render_round_end(then, names, match.ended_round(1), result, "ru")
    assert shown.photo.data == expected
    # The caption names the round and who ended it; the points are in the picture.
    who = names[result.outcome.seat]
    assert who in shown.content.splitlines()[0], shown.content
    # One picture, not an album: the group's flood budget counts one message.
    calls = fakegram.transcript.calls()
    assert not [call for call in calls if call.method.lower() == "sendmediagroup"]
    assert_hands_private(fakegram, match, {0: alice.id, 1: bob.id})
