"""Names too long for a text, end to end: four people with long names play Спортивное in
pairs, and no hand they read ends a sentence on «Вильгельмина Константиновна Пре….»
(«Ходит ваш партнёр — …. Стол — в группе.»): a cut name's «…» stands for the full stop.

Runs the bot as `python -m bot` against tests/fakegram (see harness.py)."""

from __future__ import annotations

from tests.e2e.harness import BotProcess, open_game, play_until
from tests.fakegram import FakeTelegram
from tests.fakegram.world import FakeUser, StoredMessage

LONG = (
    "Вильгельмина Константиновна Преображенская",
    "Аполлинария Святославовна Воскресенская",
    "Елизавета Вениаминовна Новомосковская",
    "Констанция Ростиславовна Белокаменная",
)
PARTNER = "Ходит ваш партнёр — "


def versions(message: StoredMessage) -> list[str]:
    """Every text the message ever showed, oldest first."""
    return [v.text or v.caption or "" for v in message.history] + [message.content]


def hands_read(users: list[FakeUser]) -> list[str]:
    """Every text the bot showed in these people's private chats."""
    return [
        text
        for user in users
        for message in user.private_chat.messages.values()
        if message.from_bot
        for text in versions(message)
    ]


async def test_a_cut_name_ends_its_sentence_on_the_ellipsis(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    users = [fakegram.add_user(name, username=f"long{i}") for i, name in enumerate(LONG)]
    game = await open_game(fakegram, users, game="sport")

    def partner_named() -> bool:
        return any(PARTNER in text for text in hands_read(users))

    await play_until(fakegram, game.people, partner_named)
    shown = hands_read(users)
    partner = [line for text in shown for line in text.splitlines() if PARTNER in line]
    assert partner and all("…" in line for line in partner), partner
    assert not [text for text in shown if "…." in text], [t for t in shown if "…." in t][:3]
