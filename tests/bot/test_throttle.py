"""The command cooldown of one person in one group (handlers/throttle.py)."""

from __future__ import annotations

import pytest

from handlers import throttle
from handlers.throttle import COOLDOWN, LIMIT, WINDOW, CommandThrottle

GROUP = -100


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_more_than_the_limit_in_the_window_gets_one_notice_then_silence() -> None:
    clock = Clock()
    gate = CommandThrottle(clock)
    verdicts = []
    for _ in range(LIMIT + 5):
        verdicts.append(gate.count(GROUP, 1))
        clock.now += 0.1
    assert verdicts == ["go"] * LIMIT + ["notice"] + ["quiet"] * 4
    assert gate.count(GROUP, 2) == "go"  # somebody else is not affected ...
    assert gate.count(-200, 1) == "go"  # ... nor the same person in another group
    clock.now += COOLDOWN
    assert gate.count(GROUP, 1) == "go"  # the cooldown is over: counting starts afresh


def test_a_steady_player_never_reaches_the_limit() -> None:
    clock = Clock()
    gate = CommandThrottle(clock)
    spacing = WINDOW / LIMIT + 0.01  # LIMIT commands a window, for ever
    for _ in range(10 * LIMIT):
        assert gate.count(GROUP, 1) == "go"
        clock.now += spacing


def test_records_are_forgotten_once_over_and_never_exceed_the_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = Clock()
    gate = CommandThrottle(clock)
    for person in range(50):
        gate.count(GROUP, person)
    assert gate.tracked == 50
    clock.now += WINDOW + 1
    gate.count(GROUP, 999)  # everyone else's window is over: forgotten
    assert gate.tracked == 1

    for _ in range(LIMIT + 1):  # person 7 is in a cooldown: kept while it lasts
        gate.count(GROUP, 7)
    clock.now += WINDOW + 1
    gate.count(GROUP, 8)
    assert gate.tracked == 2 and gate.count(GROUP, 7) == "quiet"

    monkeypatch.setattr(throttle, "MAX_TRACKED", 10)
    for person in range(100, 200):
        gate.count(GROUP, person)
        assert gate.tracked <= 10
