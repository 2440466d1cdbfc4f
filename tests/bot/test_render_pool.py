"""The render pool (bot/infra/render_pool.py): a picture by a module-level renderer
is drawn in a worker process, any other renderer on a thread of the bot's own, a killed
worker is replaced and its picture still comes, so is a hung one, and `close` ends the
processes.

Nothing here sleeps: each test awaits the picture itself, and waits for a killed
worker on its process's sentinel."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import AsyncIterator
from multiprocessing.connection import wait
from pathlib import Path

import pytest

from bot.infra import render_pool, worker_pool
from bot.infra.render_pool import NICENESS, RenderPool, table_picture
from domino.match import Match
from domino.rules import KOZEL
from render import render_table
from tests.bot.render_helpers import drawn_by, hangs_once, niceness


@pytest.fixture
async def pool() -> AsyncIterator[RenderPool]:
    made = RenderPool()
    yield made
    await made.close()


async def test_a_module_level_renderer_draws_in_a_worker_process(pool: RenderPool) -> None:
    pid = int(await pool.draw(drawn_by, "view", ("Маша",), "ru"))
    workers = [process.pid for process in pool.processes()]
    assert pid != os.getpid()
    assert workers == [pid]
    # The same worker draws the next picture: the pool is made once, not per picture.
    assert int(await pool.draw(drawn_by)) == pid


async def test_the_workers_yield_the_cpu_to_the_event_loop(pool: RenderPool) -> None:
    """A worker runs `NICENESS` below the bot (at most 19, Linux's floor), so on a busy
    machine answers to presses go before pictures."""
    expected = min(os.nice(0) + NICENESS, 19)
    assert int(await pool.draw(niceness)) == expected


async def test_the_table_drawn_in_the_pool_is_the_table_drawn_here(pool: RenderPool) -> None:
    """The view, names and language reach the worker whole (they pickle)."""
    view = Match.new(KOZEL, 4, seed=1).view(None)
    names = ("Маша", "Алексей", "Оля", "Серёга")
    assert await pool.draw(table_picture, view, names, "en") == render_table(view, names, "en")
    assert pool.processes()


async def test_a_renderer_a_worker_cannot_import_draws_on_a_thread(pool: RenderPool) -> None:
    loop_thread = threading.get_ident()

    def drawn_here() -> bytes:
        return f"{os.getpid()} {threading.get_ident()}".encode()

    for renderer in (lambda: drawn_here(), drawn_here):
        pid, thread = map(int, (await pool.draw(renderer)).split())
        assert pid == os.getpid() and thread != loop_thread
    assert pool.processes() == []  # no process started for them


async def test_a_killed_worker_is_replaced_and_the_picture_still_comes(
    pool: RenderPool,
) -> None:
    first = int(await pool.draw(drawn_by))
    (worker,) = pool.processes()
    os.kill(first, signal.SIGKILL)
    await asyncio.to_thread(wait, [worker.sentinel])  # it is gone
    second = int(await pool.draw(drawn_by))
    assert second not in (first, os.getpid())
    assert [process.pid for process in pool.processes()] == [second]
    assert int(await pool.draw(drawn_by)) == second


async def test_a_hung_worker_is_killed_and_a_new_pool_draws_the_picture(
    pool: RenderPool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A picture the pool does not draw within `DRAW_SECONDS` (here 5 s: the worker hangs)
    is drawn by a new pool, and the hung worker is killed: what waits behind a picture
    (the announcements) is never held up for good."""
    monkeypatch.setattr(render_pool, "DRAW_SECONDS", 5.0)
    marker = str(tmp_path / "hung")
    await pool.draw(drawn_by)  # the pool is up
    (hung,) = pool.processes()
    drawn = int(await pool.draw(hangs_once, marker))
    assert drawn not in (hung.pid, os.getpid())
    await asyncio.to_thread(wait, [hung.sentinel])  # killed, not left behind
    assert [process.pid for process in pool.processes()] == [drawn]


async def test_pictures_waiting_behind_a_hung_one_are_not_timed_by_the_wait(
    pool: RenderPool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Three pictures asked for while the worker hangs on a fourth wait for a free worker,
    not in the pool's queue: only the hung picture's time runs out, one new pool draws all
    four, and the hung pool is let go once (three timeouts of one pool, each letting it go,
    crashed the bot on a busy machine: `processes` of a pool already shut down)."""
    monkeypatch.setattr(render_pool, "DRAW_SECONDS", 5.0)
    marker = str(tmp_path / "hung")
    await pool.draw(drawn_by)  # the pool is up
    (hung,) = pool.processes()
    drawn = await asyncio.gather(
        pool.draw(hangs_once, marker), *(pool.draw(drawn_by) for _ in range(3))
    )
    (worker,) = {int(pid) for pid in drawn}
    assert worker not in (hung.pid, os.getpid())
    timeouts = [r for r in caplog.records if "no picture after" in r.getMessage()]
    assert len(timeouts) == 1, timeouts


def test_a_shut_down_pool_has_no_processes() -> None:
    made = worker_pool.new_pool(1, "forkserver")
    made.submit(os.getpid).result()
    made.shutdown(wait=True)
    assert worker_pool.processes(made) == []


async def test_close_ends_the_workers_and_later_pictures_draw_on_a_thread() -> None:
    pool = RenderPool(workers=2)
    drawn = await asyncio.gather(*(pool.draw(drawn_by) for _ in range(4)))
    workers = pool.processes()
    assert len(workers) == 2
    assert {int(pid) for pid in drawn} <= {worker.pid for worker in workers}
    await pool.close()
    assert not any(worker.is_alive() for worker in workers)
    assert all(worker.exitcode is not None for worker in workers)
    assert pool.processes() == []
    assert int(await pool.draw(drawn_by)) == os.getpid()
    await pool.close()  # twice is fine
