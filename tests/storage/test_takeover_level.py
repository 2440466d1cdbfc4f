"""A computer that moves for a person (three strikes, /leave, a timeout) plays at medium,
whatever level is stored for the seat; a computer seat plays at its own level."""

from __future__ import annotations

import dataclasses

import pytest

from domino.ai import Level
from storage.records import SeatRecord


@pytest.mark.parametrize("level", list(Level))
def test_a_persons_seat_is_played_at_medium_and_a_computers_at_its_level(level: Level) -> None:
    person = SeatRecord(0, 42, "Алиса", level=level)
    assert person.plays_at is Level.MEDIUM
    for stood_in in (
        dataclasses.replace(person, away=True),
        dataclasses.replace(person, left=True),
        dataclasses.replace(person, strikes=3, away=True),
    ):
        assert stood_in.plays_at is Level.MEDIUM
    computer = SeatRecord(1, None, "🤖 Компьютер 1", level=level)
    assert computer.plays_at is level
