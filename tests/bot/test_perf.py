"""The garbage collector's counters and settings, and the memory line (`bot.infra.perf`)."""

from __future__ import annotations

import gc
import json
import logging
import tracemalloc
from collections.abc import Iterator

import pytest

from bot.infra import perf


@pytest.fixture
def restored_gc() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)
    if perf._on_gc in gc.callbacks:
        gc.callbacks.remove(perf._on_gc)


def test_tune_gc_freezes_what_the_start_made_and_collects_the_young_less_often(
    restored_gc: None,
) -> None:
    made_at_start = [object() for _ in range(10)]  # noqa: F841  # alive, as the start's are
    perf.tune_gc()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold()[0] == perf.GC_YOUNG


def test_watch_gc_counts_each_pass_and_its_pause(restored_gc: None) -> None:
    before = perf.snapshot()
    perf.watch_gc()
    perf.watch_gc()  # once only: a second call adds no second callback
    assert gc.callbacks.count(perf._on_gc) == 1
    gc.collect(0)
    gc.collect(2)
    grown = perf.since(before)
    assert grown["gc.0"] >= 1 and grown["gc.2"] >= 1
    assert perf.snapshot()["gc.us"] >= 0


def memory_lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, object]]:
    return [
        json.loads(record.getMessage().removeprefix(perf.MEMORY_PREFIX))
        for record in caplog.records
        if record.getMessage().startswith(perf.MEMORY_PREFIX)
    ]


def test_the_memory_line_names_the_lines_that_hold_the_most(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger=perf.log.name)
    perf.log_counters()
    assert memory_lines(caplog) == []  # not traced: nothing said, nothing costs
    tracemalloc.start()
    try:
        held = [bytearray(4096) for _ in range(256)]  # 1 MiB on this very line
        perf.log_counters()
    finally:
        tracemalloc.stop()
    (line,) = memory_lines(caplog)
    assert line["traced_kib"] >= 1024  # type: ignore[operator]
    top = line["top"]
    assert isinstance(top, list) and len(top) <= perf.MEMORY_TOP
    file, _, kib, blocks = top[0]
    assert file == __file__ and kib >= 1024 and blocks >= len(held)
