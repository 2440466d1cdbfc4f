"""A person who blocks the bot is told to the group once, and served again after /start
(bot/telegram/publisher.py, bot/app/usecases/chats.py, bot/app/people.py).

The race a loaded machine showed (tests/e2e/test_play_e2e.py): a hand sent while the
person still blocked the bot is refused, but the refusal is taken up only after their
/start marked them reachable again. It answers the old block, not a new one, so the
group is not told a second time and the person stays reachable.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiogram.exceptions import TelegramForbiddenError
from aiogram.methods import TelegramMethod

from bot.app.people import Person
from bot.app.usecases.lobby_options import LobbyOption
from bot.telegram.presenter.replies import reply_text
from i18n import Lang, t
from storage import repo
from storage.connect import open_database
from tests.bot.app_setup import (
    ALICE,
    CHAT,
    FakeTelegram,
    FakeTime,
    Setup,
    eventually,
    make,
    no_admin,
    seed_where_seat_0_opens,
    settle,
)
from tests.bot.test_play import alice_to_move, greedy_press
from tests.fakegram.waiting import within

BOB = Person(502, "Боб", language_code="ru")
BOBS_SEAT = 1
# The group shows hands in the group (its default): Боб plays on from there.
UNREACHABLE = t("notice.unreachable_hand_in_group", Lang.RU, name="Боб", bot="domino_test_bot")


class BlockingTelegram(FakeTelegram):
    """Refuses every call to a person in `blocked` (403, kept in `refused`); with `held`
    set, the next such call waits for it before it is refused, as a refusal slow to come
    back does."""

    def __init__(self) -> None:
        super().__init__()
        self.blocked: set[int] = set()
        self.refused: list[TelegramMethod[Any]] = []
        self.held: asyncio.Event | None = None
        self.holding = asyncio.Event()  # a refused call waits for `held`

    async def __call__(self, method: TelegramMethod[Any]) -> Any:
        chat_id = int(getattr(method, "chat_id", 0))
        if chat_id in self.blocked:
            held, self.held = self.held, None
            if held is not None:
                self.holding.set()
                await held.wait()
            self.refused.append(method)
            raise TelegramForbiddenError(method, "Forbidden: bot was blocked by the user")
        return await super().__call__(method)


@pytest.fixture
async def setup(tmp_path: Path) -> AsyncIterator[Setup]:
    db = await open_database(tmp_path / "unreachable.sqlite3")
    made = make(db, FakeTime(), seed_where_seat_0_opens(), BlockingTelegram())
    await made.app.resume()
    try:
        yield made
    finally:
        await made.close()
        await db.close()


async def quiet(setup: Setup) -> None:
    """Every event taken up, every message and announcement sent."""
    for _ in range(3):
        await settle()
        await setup.app.publisher.idle()
        await setup.out.drain()


async def told_unreachable(setup: Setup) -> int:
    """How many times the group was told the bot cannot write to Боб."""
    await quiet(setup)
    return setup.telegram.sent_to(CHAT.id).count(UNREACHABLE)


async def bob_reachable(setup: Setup) -> bool:
    user = await repo.get_user(setup.db, BOB.id)
    assert user is not None
    return user.can_message


async def bob_comes_back(setup: Setup, telegram: BlockingTelegram) -> None:
    """Боб unblocks the bot and presses Start in the private chat."""
    telegram.blocked.discard(BOB.id)
    greeting = await setup.run(setup.app.lobby.start(BOB))
    assert reply_text(greeting, Lang.RU) == t("start.back_in_game", Lang.RU)


async def started_with_bob_blocking(setup: Setup) -> BlockingTelegram:
    """Алиса and Боб at a started game (Алиса to move); Боб blocked the bot just before
    the deal, so the group was told once."""
    telegram = setup.telegram
    assert isinstance(telegram, BlockingTelegram)
    for person in (ALICE, BOB):
        await setup.app.people.remember(person, can_message=True)
    await setup.run(setup.app.lobby.open(CHAT, ALICE))
    lobby = setup.app.lobby
    await setup.run(lobby.join(1, CHAT.id, BOB))
    telegram.blocked.add(BOB.id)
    await setup.run(lobby.set_option(1, CHAT.id, ALICE, LobbyOption.SEATS, no_admin))  # 4 -> 2
    await setup.run(lobby.start_game(1, CHAT.id, ALICE, no_admin))
    assert await told_unreachable(setup) == 1
    assert not await bob_reachable(setup)
    assert setup.telegram.sent_to(BOB.id) == []
    return telegram


async def test_a_refusal_that_comes_back_after_the_persons_start_tells_nobody_again(
    setup: Setup,
) -> None:
    telegram = setup.telegram
    assert isinstance(telegram, BlockingTelegram)
    for person in (ALICE, BOB):
        await setup.app.people.remember(person, can_message=True)
    await setup.run(setup.app.lobby.open(CHAT, ALICE))
    lobby = setup.app.lobby
    await setup.run(lobby.join(1, CHAT.id, BOB))
    await setup.run(lobby.set_option(1, CHAT.id, ALICE, LobbyOption.SEATS, no_admin))  # 4 -> 2
    await setup.run(lobby.start_game(1, CHAT.id, ALICE, no_admin))
    await quiet(setup)
    assert len(telegram.sent_to(BOB.id)) == 1  # his hand
    # He blocks the bot; his hand is shown again (a hand not known to be refused is
    # tried) and Telegram's refusal of that call is slow.
    telegram.blocked.add(BOB.id)
    held = telegram.held = asyncio.Event()
    setup.app.publisher.redraw_hand(1, BOBS_SEAT)
    await within(telegram.holding.wait(), 5, "the hand's call to Telegram")
    marked = setup.app.people.reachable_mark(BOB.id)
    coming_back = asyncio.create_task(bob_comes_back(setup, telegram))

    # His /start is taken (the old hand is closed behind the held call in his chat)...
    async def started() -> bool:
        return setup.app.people.reachable_mark(BOB.id) > marked

    await eventually(started)
    held.set()  # ...and only now the refusal of the call begun before it arrives
    await within(coming_back, 5, "his /start")
    assert await told_unreachable(setup) == 0
    assert await bob_reachable(setup)
    assert len(setup.telegram.sent_to(BOB.id)) == 2  # his hand again, after all


async def test_a_person_who_comes_back_and_blocks_the_bot_again_is_told_again(
    setup: Setup,
) -> None:
    telegram = await started_with_bob_blocking(setup)
    await bob_comes_back(setup, telegram)
    await quiet(setup)
    assert await bob_reachable(setup) and len(setup.telegram.sent_to(BOB.id)) == 1
    telegram.blocked.add(BOB.id)  # a new block: his hand changes at Алиса's move
    await eventually(lambda: alice_to_move(setup))
    await setup.run(setup.app.playing.play(*greedy_press(await setup.game())))
    assert await told_unreachable(setup) == 2
    assert not await bob_reachable(setup)
