"""asyncpg's pool noise while the server is down: one line a minute, no traceback."""

from __future__ import annotations

import logging

import pytest

from storage.postgres import PoolNoise


def test_a_reconnect_failure_is_one_line_a_minute_without_its_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [0.0]
    logger = logging.getLogger("test.asyncpg.pool")
    noise = PoolNoise(clock=lambda: now[0])
    logger.addFilter(noise)
    try:
        with caplog.at_level(logging.WARNING, logger.name):
            for second in range(130):
                now[0] = float(second)
                try:
                    raise ConnectionRefusedError(111, "Connect call failed")
                except ConnectionRefusedError:
                    logger.warning(
                        "Failed to restore the pool connection floor; retrying", exc_info=True
                    )
    finally:
        logger.removeFilter(noise)
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 3  # at 0 s, 60 s and 120 s
    assert all(record.exc_info is None for record in caplog.records)
    assert "ConnectionRefusedError" in lines[0] and "more like it" not in lines[0]
    assert lines[1].endswith("(59 more like it in the last minute)")
    assert "Traceback" not in caplog.text
