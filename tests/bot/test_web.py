"""/metrics, /healthz and the web servers, in-process through real HTTP on
127.0.0.1; and LOG_FORMAT=json's lines. The webhook itself is tested end to end
(tests/e2e/test_webhook_e2e.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramEntityTooLarge,
    TelegramForbiddenError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import AnswerCallbackQuery, SendMessage, TelegramMethod
from aiohttp import ClientSession, web
from prometheus_client.parser import text_string_to_metric_families
from pydantic import SecretStr

from bot.infra import perf
from bot.server.config import Address
from bot.server.logs import JsonFormatter, formatter
from bot.server.metrics import Health, Metrics, TelegramMetrics, add_routes, error_code
from bot.server.web import CannotListen, WebServer, webhook_secret
from bot.telegram.outgoing import Caller, Lane, Limits, Outgoing
from storage.connect import open_database
from storage.db import Database
from tests.e2e.harness import free_port

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def samples(text: str) -> Samples:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "web.sqlite3")
    try:
        yield database
    finally:
        await database.close()


async def never(method: TelegramMethod[Any]) -> Any:
    raise AssertionError("nothing is sent")


class Served:
    """`/metrics` and `/healthz` on a free port of 127.0.0.1, with their parts."""

    def __init__(self, db: Database, call: Caller = never, **health: Any) -> None:
        self.out = Outgoing(call, Limits.off())
        self.metrics = Metrics(db, self.out)
        self.health = Health(db, **health)
        app = web.Application()
        add_routes(app, self.metrics, self.health)
        self.server = WebServer(app, Address("127.0.0.1", free_port()))

    async def get(self, path: str) -> tuple[int, str]:
        async with (
            ClientSession() as http,
            http.get(f"http://{self.server.address}{path}") as response,
        ):
            return response.status, await response.text()


@contextlib.asynccontextmanager
async def serving(db: Database, call: Caller = never, **health: Any) -> AsyncIterator[Served]:
    served = Served(db, call, **health)
    await served.server.start()
    served.health.start()
    try:
        yield served
    finally:
        await served.health.close()
        await served.server.stop()
        await served.out.close()


@pytest.fixture
async def served(db: Database) -> AsyncIterator[Served]:
    async with serving(db) as served:
        yield served


async def test_metrics_show_the_work_counters_the_queues_and_the_games(served: Served) -> None:
    perf.count("moves", 3)
    status, text = await served.get("/metrics")
    assert status == 200
    found = samples(text)
    assert found[("domino_moves_total", ())] >= 3
    assert found[("domino_db_statements_total", ())] > 0  # the migrations, at least
    assert found[("domino_db_seconds_total", ())] > 0
    assert found[("domino_games", (("status", "lobby"),))] == 0
    assert found[("domino_games", (("status", "playing"),))] == 0
    for lane in ("game", "reply"):
        assert found[("domino_outgoing_waiting", (("lane", lane),))] == 0
    for name in ("domino_telegram_flood_waits_total", "domino_telegram_retries_total"):
        assert found[(name, ())] == 0
    assert ("domino_press_answer_seconds_count", ()) in found
    assert any(name == "process_cpu_seconds_total" for name, _ in found)


async def test_the_calls_waiting_are_shown_per_lane(db: Database) -> None:
    gate = asyncio.Event()

    async def held(method: TelegramMethod[Any]) -> Any:
        await gate.wait()  # Telegram slow to answer: each chat's first call is in flight
        return True

    async with serving(db, held) as served:
        out = served.out
        calls = [
            out.call(-5, SendMessage(chat_id=-5, text="first")),
            out.call(-5, SendMessage(chat_id=-5, text="waits")),
            out.call(-5, SendMessage(chat_id=-5, text="reply"), lane=Lane.REPLY),
            out.call(7, SendMessage(chat_id=7, text="first")),
        ]
        found = samples((await served.get("/metrics"))[1])
        assert found[("domino_outgoing_waiting", (("lane", "game"),))] == 1
        assert found[("domino_outgoing_waiting", (("lane", "reply"),))] == 1
        gate.set()
        await asyncio.gather(*calls)
        found = samples((await served.get("/metrics"))[1])
        assert found[("domino_outgoing_waiting", (("lane", "game"),))] == 0
        assert found[("domino_outgoing_sent_total", ())] == 4


async def test_healthz_answers_200_while_the_loop_turns_and_the_database_answers(
    served: Served,
) -> None:
    status, text = await served.get("/healthz")
    assert status == 200
    assert json.loads(text)["status"] == "ok"


async def test_healthz_answers_503_when_the_database_does_not(served: Served, db: Database) -> None:
    await db.close()
    status, text = await served.get("/healthz")
    assert status == 503
    found = json.loads(text)
    assert found["status"] == "failing"
    assert any("database" in problem for problem in found["problems"])
    status, text = await served.get("/metrics")  # the other figures are still shown
    assert status == 200 and "domino_db_statements_total" in text


async def test_healthz_answers_503_when_the_loop_has_not_turned(db: Database) -> None:
    async with serving(db, stale_after=0.0, beat=60.0) as served:  # no beat since the first
        status, text = await served.get("/healthz")
    assert status == 503
    assert any("event loop" in problem for problem in json.loads(text)["problems"])


async def test_a_taken_address_is_one_line_for_the_admin(served: Served) -> None:
    again = WebServer(web.Application(), served.server.address)
    with pytest.raises(CannotListen, match=f"^cannot listen on {served.server.address}: "):
        await again.start()


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (TelegramBadRequest, "400"),
        (TelegramForbiddenError, "403"),
        (TelegramServerError, "5xx"),
        (TelegramNetworkError, "network"),
        (TelegramEntityTooLarge, "413"),
    ],
)
def test_telegram_errors_count_by_code(error: type[TelegramAPIError], code: str) -> None:
    method = SendMessage(chat_id=1, text="x")
    assert error_code(error(method, "refused")) == code
    assert error_code(TelegramRetryAfter(method, "flood", retry_after=3)) == "429"


async def test_every_refused_attempt_is_counted_and_an_answer_to_a_press_timed(
    db: Database,
) -> None:
    metrics = Metrics(db, Outgoing(never, Limits.off()))
    middleware = TelegramMetrics(metrics)
    forbidden = SendMessage(chat_id=1, text="x")

    async def refuse(bot: Any, method: TelegramMethod[Any]) -> Any:
        raise TelegramForbiddenError(method, "Forbidden: bot was blocked by the user")

    async def accept(bot: Any, method: TelegramMethod[Any]) -> Any:
        return True

    for _ in range(2):
        with pytest.raises(TelegramForbiddenError):
            await middleware(refuse, None, forbidden)
    await middleware(accept, None, AnswerCallbackQuery(callback_query_id="1"))  # no press
    found = samples((await metrics.exposition()).decode())
    assert found[("domino_telegram_errors_total", (("code", "403"),))] == 2
    assert found[("domino_press_answer_seconds_count", ())] == 0


async def test_a_made_webhook_secret_is_kept_and_a_set_one_wins(db: Database) -> None:
    made = await webhook_secret(None, db)
    assert 1 <= len(made) <= 256 and made.replace("-", "").replace("_", "").isalnum()
    assert await webhook_secret(None, db) == made
    assert await webhook_secret(SecretStr("mine"), db) == "mine"


def test_json_log_lines_carry_the_chat_and_the_game() -> None:
    log = logging.getLogger("tests.json")
    record = log.makeRecord(
        log.name,
        logging.INFO,
        __file__,
        1,
        "chat %s game %s: moves %d to %d",
        (-5, 7, 1, 2),
        None,
        extra={"chat_id": -5, "game_id": 7},
    )
    entry = json.loads(JsonFormatter().format(record))
    assert entry["message"] == "chat -5 game 7: moves 1 to 2"
    assert entry["level"] == "INFO" and entry["logger"] == "tests.json"
    assert entry["chat_id"] == -5 and entry["game_id"] == 7
    assert entry["time"].endswith("Z")
    plain = log.makeRecord(log.name, logging.WARNING, __file__, 1, "Ёлка", (), None)
    assert json.loads(formatter("json").format(plain)).keys() == {
        "time",
        "level",
        "logger",
        "message",
    }
    assert "WARNING tests.json: Ёлка" in formatter("text").format(plain)


def test_a_json_line_keeps_the_traceback_in_one_line() -> None:
    log = logging.getLogger("tests.json")
    try:
        raise ValueError("boom")
    except ValueError:
        record = log.makeRecord(log.name, logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    line = JsonFormatter().format(record)
    assert "\n" not in line
    assert "ValueError: boom" in json.loads(line)["exception"]
