"""A whole match of Козёл in a group, through the fake Telegram, with the bot as a process."""

from __future__ import annotations

from tests.e2e.harness import (
    BotProcess,
    Person,
    assert_hands_private,
    button_data,
    live_table,
    play_until,
    set_turn_timer,
    settle,
)
from tests.fakegram import FakeTelegram


async def test_two_people_and_two_computers_play_to_the_goat(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    await play_to_the_goat(fakegram, bot)


async def play_to_the_goat(fakegram: FakeTelegram, bot: BotProcess) -> int:
    """Алиса and Боб open a lobby, seat two computers and play the match out; its
    messages are checked against the stored match (also run with the bot on a webhook:
    tests/e2e/test_webhook_e2e.py). Returns how many presses the two made on their hands."""
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    group = fakegram.add_group("Домино во дворе", members=[alice, bob], admins=[alice])
    for person in (alice, bob):  # both pressed Start in the bot's chat before
        await person.start()
        await person.private_chat.wait_for_message(lambda m: "Привет" in m.content)
    await set_turn_timer(group, alice)  # off: only the people and computers move the game

    await alice.command(group, "domino")
    lobby = await group.wait_for_message(lambda m: "Игроки" in m.content)
    assert "Алиса" in lobby.content  # the creator sits down at once: she has started the bot

    answer = await bob.press(lobby, data=button_data(lobby, "Играю"))
    assert answer.answered and answer.url is None
    await group.wait_for_message(lambda m: "Боб" in m.content)
    for _ in range(2):
        await alice.press(lobby, data=button_data(lobby, "компьютер"))
    await group.wait_for_message(lambda m: "(4/4)" in m.content)
    answer = await alice.press(lobby, data=button_data(lobby, "Начать"))
    assert answer.answered

    table = await group.wait_for_message(lambda m: m.photo is not None and "раунд 1" in m.content)
    people = [Person(fakegram, alice), Person(fakegram, bob)]
    await play_until(
        fakegram, people, lambda: any("Козёл —" in m.content for m in group.bot_messages)
    )
    await settle(fakegram)
    # The live table: sent anew at a round's start once the rounds' ends buried it.
    live = live_table(group, table)
    assert live is not None and not live.deleted
    table = live

    match = bot.stored_match()
    assert match.over and match.losers
    goat_line = next(m.content for m in group.bot_messages if "Козёл —" in m.content)
    names = ["Алиса", "Боб", "🤖 Компьютер 1", "🤖 Компьютер 2"]
    for side in match.losers:
        assert names[side] in goat_line
    # Every round was announced, and one table message stands.
    round_ends = [m for m in group.bot_messages if m.photo is not None and m is not table]
    assert len(round_ends) == len(match.results)
    for result, message in zip(match.results, round_ends, strict=True):
        assert (f"Раунд {result.round_no}" in message.content) or ("Рыба" in message.content)
    # Final scores in the announcement equal what the engine computed.
    for side, account in enumerate(match.scores):
        assert f"{names[side]}: {account.recorded}" in goat_line
    # The table message, edited in place up to the final position. It was sent anew at the
    # last round's start, and the edits of a short round coalesce under load: one at least.
    await group.wait_for_message(lambda m: m is table and "Партия окончена" in m.content)
    assert table.photo is not None and table.history
    assert f"раунд {len(match.results)}" in table.content
    checked = assert_hands_private(fakegram, match, {0: alice.id, 1: bob.id})
    # At least each person's hand of every round was checked (how many edits there were
    # depends on the machine's pace: under load they merge).
    assert checked >= 2 * len(match.results)
    # Both people played from their hands (a short match may take only a few presses).
    assert all(p.presses > 0 for p in people)
    return sum(p.presses for p in people)
