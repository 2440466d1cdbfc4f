"""The turn's time as the hand and the table say it: rounded up to whole minutes from a
minute on, else seconds, with the language's plurals; a static text that stays true
until the next edit (Telegram cannot count down without an edit a second)."""

from __future__ import annotations

import pytest

from bot.app.timers import TurnClock
from bot.telegram import presenter
from bot.telegram.presenter.clock import time_left
from domino.match import Match
from domino.rules import KOZEL
from i18n import Lang
from storage.records import GameRecord, GameStatus, SeatRecord

NAMES = ("Маша", "Олег")


def playing() -> GameRecord:
    return GameRecord(
        id=7,
        chat_id=-100,
        status=GameStatus.PLAYING,
        creator_id=1,
        ruleset=KOZEL,
        seats_wanted=2,
        seats=(SeatRecord(0, 1, NAMES[0]), SeatRecord(1, 2, NAMES[1])),
        match=Match.new(KOZEL, 2, seed=1),
    )


def clock_of(game: GameRecord, limit: float, *, warned: bool = False) -> TurnClock:
    assert game.match is not None and game.match.turn is not None
    return TurnClock(7, 0, game.match.turn, 1000.0 + limit, limit, 1000.0 + limit - 15, warned)


@pytest.mark.parametrize(
    ("seconds", "ru", "en"),
    [
        (600, "10 минут", "10 minutes"),
        (1260, "21 минуты", "21 minutes"),
        (120, "2 минут", "2 minutes"),
        (61, "2 минут", "2 minutes"),  # rounded up: «до 1 минуты» would be false
        (60, "1 минуты", "1 minute"),
        (45, "45 секунд", "45 seconds"),
        (21, "21 секунды", "21 seconds"),
        (1, "1 секунды", "1 second"),
    ],
)
def test_the_time_left_reads_in_minutes_where_they_fit(seconds: int, ru: str, en: str) -> None:
    assert time_left(seconds, Lang.RU) == ru
    assert time_left(seconds, Lang.EN) == en


def test_a_ten_minute_turn_reads_as_minutes_not_600_seconds() -> None:
    game = playing()
    clock = clock_of(game, 600)
    seat = clock.seat
    assert presenter.hand_timer_lines(game, seat, clock, 1000.0, Lang.RU) == (
        "\n⏱ На ход: до 10 минут"
    )
    assert presenter.hand_timer_lines(game, seat, clock, 1000.0, Lang.EN) == (
        "\n⏱ Time to move: up to 10 minutes"
    )


def test_the_text_stays_true_until_the_next_edit() -> None:
    """Whatever moment the hand is drawn at, the bound it names is never below the time
    really left then, nor a minute above it: left as it is, it stays true."""
    game = playing()
    clock = clock_of(game, 300)
    for step in range(0, 300 * 4):
        now = 1000.0 + step / 4
        line = presenter.hand_timer_lines(game, clock.seat, clock, now, Lang.EN)
        number, unit = line.removeprefix("\n⏱ Time to move: up to ").split()
        bound = int(number) * (60 if unit.startswith("minute") else 1)
        left = clock.deadline - now
        assert left <= bound < left + 60, (now, line)


def test_the_warning_names_the_seconds_with_their_plural() -> None:
    game = playing()
    warned = clock_of(game, 600, warned=True)
    now = warned.deadline - 2.5
    assert presenter.hand_timer_lines(game, warned.seat, warned, now, Lang.RU) == (
        "\n⏳ <b>Осталось не больше 3 секунд!</b> Потом за вас сходит компьютер."
    )
    name = NAMES[warned.seat]
    assert presenter.table_timer_line(game, warned, now, NAMES, Lang.RU) == (
        f"\n⏳ {name}: на ход — не больше 3 секунд"
    )
    assert presenter.table_timer_line(game, warned, warned.deadline - 0.5, NAMES, Lang.EN) == (
        f"\n⏳ {name}: at most 1 second to move"
    )
