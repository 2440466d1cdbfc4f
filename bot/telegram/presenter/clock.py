"""What a running turn timer adds to the texts: the time left, the warning, the strikes
and the computer standing in."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

from bot.app.timers import STRIKES_TO_TAKE_OVER, TurnClock
from bot.telegram.presenter.common import short_name
from i18n import Lang, t
from storage.records import GameRecord, GameStatus


def turn_clock_current(game: GameRecord, clock: TurnClock | None) -> TurnClock | None:
    """`clock` if it times the turn in progress of `game`, else None (an old clock)."""
    match = game.match
    if (
        clock is None
        or match is None
        or game.status is not GameStatus.PLAYING
        or clock.move != len(match.log)
        or clock.seat != match.turn
    ):
        return None
    return clock


def hand_timer_lines(
    game: GameRecord, seat: int, clock: TurnClock | None, now: float, lang: Lang
) -> str:
    """What the turn timer adds to a hand's text: the computer standing in, the strikes
    so far, the time left on the player's own turn (the warning once it is near)."""
    record = game.seats[seat]
    lines = []
    if record.away:
        lines.append(t("hand.away", lang))
    elif record.strikes:
        lines.append(t("hand.strikes", lang, n=record.strikes, limit=STRIKES_TO_TAKE_OVER))
    clock = turn_clock_current(game, clock)
    if clock is not None and clock.seat == seat and not record.by_computer:
        left = clock.seconds_left(now)
        if clock.warned:
            lines.append(t("hand.time_warning", lang, s=left))
        else:
            lines.append(t("hand.time_left", lang, time=time_left(left, lang)))
    return "".join("\n" + line for line in lines)


def time_left(seconds: int, lang: Lang) -> str:
    """A turn's time left as people read it after «до»: whole minutes from a minute on,
    else seconds, rounded up so that the text stays true until the next edit («10
    минут» for 600 s, «2 минут» for 61 s, «45 секунд»).

    Choice: no countdown and no clock time. Telegram shows a text as it was last edited,
    and an edit a second is beyond its limits; a clock time («до 14:32») needs the
    group's time zone, which the bot does not know."""
    if seconds >= 60:
        return t("clock.minutes", lang, n=math.ceil(seconds / 60))
    return t("clock.seconds", lang, n=seconds)


def table_timer_line(
    game: GameRecord, clock: TurnClock | None, now: float, names: Sequence[str], lang: Lang
) -> str:
    """The table caption's «⏳ NAME: на ход — не больше 10 секунд» once the turn's
    warning moment has passed (the seconds rounded up: true until the next edit)."""
    clock = turn_clock_current(game, clock)
    if clock is None or not clock.warned:
        return ""
    name = html.escape(short_name(names[clock.seat]))
    return "\n" + t("table.time_warning", lang, name=name, s=clock.seconds_left(now))
