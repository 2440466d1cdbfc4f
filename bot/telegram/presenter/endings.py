"""The confirmations that end a match early: /cancel and /surrender, and how
a match ended so looks in its messages."""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Sequence

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.app import standings
from bot.app.usecases.endings import surrender_question
from bot.telegram.callbacks import CancelCb, SurrenderCb
from bot.telegram.presenter.common import short_name
from bot.telegram.presenter.replies import reply_text
from domino.views import MatchView
from i18n import Lang, t
from storage.records import Ending, GameRecord, GameStatus


def _yes_no(yes: str, no: str, data: dict[bool, str]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text=yes, callback_data=data[True]),
                InlineKeyboardButton(text=no, callback_data=data[False]),
            ]
        ]
    )


def cancel_confirm_keyboard(game_id: int, lang: Lang) -> InlineKeyboardMarkup:
    """«Да, отменить / Нет»: the creator's or an admin's confirmation of /cancel."""
    return _yes_no(
        t("btn.cancel_yes", lang),
        t("btn.cancel_no", lang),
        {confirm: CancelCb(game=game_id, confirm=confirm).pack() for confirm in (True, False)},
    )


def surrender_confirm_keyboard(
    game_id: int, first: int, user_id: int, lang: Lang
) -> InlineKeyboardMarkup:
    """«Да, сдаюсь / Нет»: for this person only, valid while whoever abandoned the match
    first is still `first` (`SurrenderCb`)."""
    return _yes_no(
        t("btn.surrender_yes", lang),
        t("btn.surrender_no", lang),
        {
            confirm: SurrenderCb(game=game_id, first=first, user=user_id, confirm=confirm).pack()
            for confirm in (True, False)
        },
    )


def ended_view(
    view: MatchView,
    culprit: int | None = None,
    points: Sequence[int] = (),
    gave_up: int | None = None,
) -> MatchView:
    """A match that ended before its engine finished it (/surrender, /cancel, a vote), as
    its messages show it: over, nobody to move, nothing legal. With an
    abandonment (K-11's timeout rule: `culprit` the first to abandon, `points` every
    seat's points then) the culprit's side is the loser (the козёл where points are bad)
    and the side(s) best placed by those points, never the culprit's nor that of
    `gave_up` (a seat that surrendered after the culprit abandoned), the winners, as the
    stats count it (`bot.app.standings`), also when the computers played the match to
    its end (the board's scores stay the board's); a match cancelled with nobody to blame
    has neither. A view the engine finished with nobody to blame is returned as it is."""
    losers: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    if culprit is None or len(points) != view.players:
        if view.over:
            return view
    else:
        losers = (view.side_of(culprit),)
        no_win = {*losers, *(() if gave_up is None else (view.side_of(gave_up),))}
        others = {
            side: points[seats[0]] for side, seats in enumerate(view.sides) if side not in no_win
        }
        if others:
            pick = min if view.ruleset.game.points_are_bad else max
            best = pick(others.values())
            winners = tuple(side for side, p in others.items() if p == best)
    rnd = dataclasses.replace(view.round, turn=None, legal=())
    return dataclasses.replace(view, round=rnd, over=True, losers=losers, winners=winners)


def surrender_confirm_text(game: GameRecord, seat: int, lang: Lang) -> str:
    """«🏳 Сдаться?» (plain text) with what it will do (`surrender_question`)."""
    return reply_text(surrender_question(game, seat), lang)


def played_out_notes(game: GameRecord, lang: Lang) -> list[str]:
    """The lines the end of a match adds when the computers played it to its end after
    someone abandoned it (timed out three times, or left): why it counts as that one's
    loss and not as the board says (K-11: the first to abandon a match loses it), and
    the rating each person gains for it, as the stats record it (`bot.app.standings`);
    none for a match nobody abandoned. The people by their own names (no mark of the
    computer that played for them), escaped for HTML."""
    first, match = game.abandonment, game.match
    if first is None or match is None or game.status is not GameStatus.FINISHED:
        return []
    gains = standings.abandonment_gains(first, match.ruleset.game, match.ruleset.target)
    reason = "left" if first.reason is Ending.LEFT else "timeout"
    rating = " · ".join(
        f"{html.escape(short_name(seat.name))} +{gains[seat.seat]}"
        for seat in sorted(game.seats, key=lambda seat: seat.seat)
        if seat.user_id is not None
    )
    name = html.escape(short_name(game.seats[first.seat].name))
    return [
        t("ending.played_out", lang, name=name, reason=reason),
        t("ending.rating", lang, lines=rating),
    ]
