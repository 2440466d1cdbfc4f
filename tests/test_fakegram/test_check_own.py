"""`FakeTelegram(check_own=False)` (bench/e2e.py's load generator): the fake no longer
checks its own answers, but every call a bot makes is still checked against the Bot API."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from tests.fakegram import FakeTelegram
from tests.test_fakegram.helpers import raw_call


async def test_calls_are_still_checked_and_answered_alike(
    fakegram_factory: Callable[..., Awaitable[FakeTelegram]],
) -> None:
    answers: list[dict[str, Any]] = []
    for check_own in (True, False):
        fake = await fakegram_factory(check_own=check_own)
        user = fake.add_user("Алиса", started=True)
        text = "<b>Ваш ход</b> &amp; ещё"
        status, body = await raw_call(
            fake, "sendMessage", json={"chat_id": user.id, "text": text, "parse_mode": "HTML"}
        )
        assert status == 200, body
        result = body["result"]
        answers.append({k: result[k] for k in ("text", "entities")})
        status, body = await raw_call(fake, "sendMessage", json={"chat_id": user.id, "txt": "x"})
        assert status == 400  # a call the Bot API does not allow is refused either way
    assert answers[0] == answers[1]
    assert answers[0]["text"] == "Ваш ход & ещё"
