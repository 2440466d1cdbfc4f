"""Осёл's closed ends in the hand, end to end: once an end is closed by a double laid
face down (O-3), the hand's «концы:» line keeps it in its place, «⬅️ 🔒 · ➡️ 3», instead
of dropping it (the table picture still shows its arrow's end with the lock).

Runs the bot as `python -m bot` against tests/fakegram (see harness.py)."""

from __future__ import annotations

from tests.e2e.harness import BotProcess, open_game, play_until
from tests.e2e.test_variants_e2e import Player
from tests.fakegram import FakeTelegram
from tests.fakegram.world import FakeUser, StoredMessage

ARROWS = ("⬅️", "➡️", "⬆️", "⬇️")


def versions(message: StoredMessage) -> list[str]:
    return [v.text or v.caption or "" for v in message.history] + [message.content]


def ends_lines(users: list[FakeUser]) -> list[str]:
    """Every «концы:» line the hands showed in these people's private chats."""
    return [
        line
        for user in users
        for message in user.private_chat.messages.values()
        if message.from_bot
        for text in versions(message)
        for line in text.splitlines()
        if line.startswith("концы: ")
    ]


async def test_a_closed_end_stays_in_the_hands_list_of_ends(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    users = [fakegram.add_user(name, username=name.lower()) for name in ("Маша", "Оля")]
    await open_game(fakegram, users, game="osel")
    people = [Player(fakegram, user, closes=3) for user in users]
    for person in people:
        person.table = list(people)

    def closed_shown() -> bool:
        return any("🔒" in line for line in ends_lines(users))

    await play_until(fakegram, people, lambda: closed_shown() or bot.match_over())
    closed = [line for line in ends_lines(users) if "🔒" in line]
    assert closed, "no end was closed in a whole match"
    for line in closed:
        terms = line.removeprefix("концы: ").split(" · ")
        assert all(term.split()[0] in ARROWS for term in terms), line
        assert any(term.split()[1] == "🔒" for term in terms), line
