"""Shard mode: a group taken over by this instance while a pass over the outbox runs. The
pass passed over its older announcements while another instance played it, so it sends
none of the group's; the next pass (the one its shard's pickup asks for) sends them all,
oldest first (commit 15677f7: before it, the newer one went out first)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from aiogram.methods import SendMessage, TelegramMethod

from i18n import Lang, t
from storage import repo
from storage.connect import open_database
from tests.bot.app_setup import FakeTelegram, FakeTime, make, seed_where_seat_0_opens

TAKEN_OVER = -100501  # the group another instance plays when the pass begins
PLAYED_HERE = -100502  # a group this instance plays all along


class TakenOverMidPass:
    """Plays every chat but `TAKEN_OVER` until `take_over()`, then that one too."""

    def __init__(self) -> None:
        self.taken_over = False

    def take_over(self) -> None:
        self.taken_over = True

    def owns(self, chat_id: int) -> bool:
        return chat_id != TAKEN_OVER or self.taken_over

    def acting(self, chat_id: int) -> contextlib.AbstractContextManager[object]:
        return contextlib.nullcontext()


class TakeOverOnFirstSend(FakeTelegram):
    """Telegram as `FakeTelegram`; the first message into `PLAYED_HERE` hands `TAKEN_OVER`
    to this instance, in the middle of the pass that sends it."""

    def __init__(self, ownership: TakenOverMidPass) -> None:
        super().__init__()
        self.ownership = ownership

    async def __call__(self, method: TelegramMethod[Any]) -> Any:
        answer = await super().__call__(method)
        if isinstance(method, SendMessage) and method.chat_id == PLAYED_HERE:
            self.ownership.take_over()
        return answer


def left(name: str) -> dict[str, Any]:
    """The payload of a notice, outside any game, that `name` left: one text per name."""
    return {"key": "notice.left", "values": {"name": name}}


async def test_a_group_taken_over_mid_pass_gets_its_announcements_in_order_next_pass(
    tmp_path: Path,
) -> None:
    """Outbox: Маша's notice into the group played elsewhere, one into a group played here
    (whose sending hands the first group over), Олег's into the first group."""
    ownership = TakenOverMidPass()
    db = await open_database(tmp_path / "takeover.sqlite3")
    setup = make(db, FakeTime(), seed_where_seat_0_opens(), TakeOverOnFirstSend(ownership))
    await setup.app.resume()
    announcer = setup.app.publisher.announcer
    await announcer.idle()  # the pickup's pass, over an empty outbox
    announcer.ownership = ownership
    try:
        async with db.transaction() as tx:
            for chat_id, payload in (
                (TAKEN_OVER, left("Маша")),  # passed over: played elsewhere yet
                (PLAYED_HERE, left("Вика")),  # sent, and the group above is taken over
                (TAKEN_OVER, left("Олег")),  # owed after Маша's: must not go first
            ):
                await repo.enqueue(
                    tx, game_id=None, chat_id=chat_id, kind="notice", payload=payload
                )
        announcer.announce()
        await announcer.idle()
        assert ownership.taken_over
        assert setup.telegram.sent_to(PLAYED_HERE) == [t("notice.left", Lang.RU, name="Вика")]
        assert setup.telegram.sent_to(TAKEN_OVER) == []  # none of the group's in this pass

        announcer.announce()  # what the shard's pickup asks for
        await announcer.idle()
        assert setup.telegram.sent_to(TAKEN_OVER) == [
            t("notice.left", Lang.RU, name="Маша"),
            t("notice.left", Lang.RU, name="Олег"),
        ]
        assert len(setup.telegram.sent_to(PLAYED_HERE)) == 1
        assert await repo.oldest_owed(db) is None
    finally:
        await setup.close()
        await db.close()
