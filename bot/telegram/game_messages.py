"""What each message of a game shows, as pure functions of the committed game: the
table's caption and a person's hand (text and buttons), with the turn's clock and the
line a match that ended early adds. The publisher sends them (`bot.telegram.publisher`)."""

from __future__ import annotations

import dataclasses
import hashlib
import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.app.effects import Menu
from bot.telegram import presenter
from bot.telegram.callbacks import GroupHandCb
from bot.telegram.web_app_links import WebAppLinks
from domino.actions import Drew
from domino.tiles import Tile
from domino.views import MatchView
from i18n import Lang, t
from storage.records import Ending, GameRecord, GameStatus

if TYPE_CHECKING:
    from bot.app.timers import TurnClock


def table_caption(
    game: GameRecord,
    view: MatchView,
    names: Sequence[str],
    lang: Lang,
    clock: TurnClock | None,
    now: float,
) -> str:
    """The caption under the group's table picture, with the turn's clock at `now`."""
    caption = presenter.table_caption(shown_view(game, view), names, lang)
    if game.status is GameStatus.CANCELLED:
        caption += "\n\n" + t("table.cancelled", lang)
    elif game.ending is Ending.SURRENDER and (note := surrender_note(game, lang)):
        caption += "\n\n" + note
    return caption + presenter.table_timer_line(game, clock, now, names, lang)


def table_keyboard(
    game: GameRecord, lang: Lang, web_app: WebAppLinks | None = None
) -> InlineKeyboardMarkup | None:
    """The table's buttons while the match runs: «✋ Мои кости», which brings the presser's
    hand inside the group, for them alone (`bot.telegram.group_hands`), and beside it,
    with the Mini App on, «🃏 Открыть стол»: the app's direct link naming the game (a
    group takes no `web_app` button)."""
    if game.status is not GameStatus.PLAYING:
        return None
    row = [
        InlineKeyboardButton(
            text=t("btn.my_hand", lang), callback_data=GroupHandCb(game=game.id).pack()
        )
    ]
    link = web_app.table_link(game) if web_app is not None else None
    if link is not None:
        row.append(InlineKeyboardButton(text=t("btn.open_table", lang), url=link))
    return InlineKeyboardMarkup(inline_keyboard=[row])


def table_face(view: MatchView, names: Sequence[str], lang: str) -> str:
    """A digest of what the table picture of `view` shows: equal for two views that
    draw the same picture, computed without drawing it, so the picture is drawn only
    when the message really changes. The picture is a function of the public
    view, the names and the language (`render.render_table`); what it never shows is left
    out (the round's history, the legal actions, the seat's own hand), so a change there
    draws nothing. The `repr` of these frozen dataclasses, tuples and enums is the same
    in every process, so a face stored before a restart still matches."""
    shown = dataclasses.replace(
        view,
        round=dataclasses.replace(
            view.round,
            seat=None,
            hand=(),
            drawable=0,
            turn_no=0,
            history=(),
            drawn=(),
            legal=(),
        ),
    )
    text = repr((shown, tuple(names), lang))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def hand_message(
    game: GameRecord,
    seat: int,
    lang: Lang,
    *,
    names: Sequence[str],
    chat_title: str,
    clock: TurnClock | None,
    now: float,
    table_message_id: int | None,
    choosing: Tile | Menu | None = None,
    hints: bool = False,
    in_group: bool = False,
    app_url: str | None = None,
) -> tuple[str, InlineKeyboardMarkup | None] | None:
    """The hand of `seat` (a person's, still seated): its text and buttons, with a link
    to the group's table; None before the match. `choosing` asks on which end to lay
    that tile (it fits several), or shows a menu of moves (`Menu`); `hints`: the
    group allows «💡 Подсказка»; `in_group`: the hand shown inside the group (no link to
    the table, which is right there); `app_url`: the Mini App's address for the private
    hand's «🃏 Стол в приложении» (`WebAppLinks.hand_url`), last, below the tiles, while
    the match runs (a `web_app` button works in a private chat only)."""
    if game.match is None:
        return None
    person = game.seats[seat]
    view = shown_view(game, game.match.view(seat))
    text = presenter.hand_text(
        view,
        names,
        chat_title,
        lang,
        drew=drawn_this_turn(view),
        away=person.away,
        here=in_group,
    )
    text += presenter.hand_timer_lines(game, seat, clock, now, lang)
    if game.status is GameStatus.CANCELLED:
        text += "\n\n" + t("hand.cancelled", lang)
    elif game.ending is Ending.SURRENDER and (note := surrender_note(game, lang)):
        text += "\n\n" + note
    markup = None
    if game.status is GameStatus.PLAYING and person.away:
        markup = presenter.away_keyboard(view, game.id, lang)
    elif game.status is GameStatus.PLAYING:
        markup = presenter.hand_keyboard(
            view, game.id, len(game.match.log), lang, choosing=choosing, hints=hints
        )
    below: list[list[InlineKeyboardButton]] = []
    if (
        game.status is GameStatus.PLAYING
        and choosing is None  # a choice shows its options and the way back only
        and not person.left
        and game.abandonment is None
    ):
        below.append([presenter.offer_draw_button(game.id, len(game.match.results) + 1, lang)])
    link = table_link(game.chat_id, table_message_id, game.thread_id)
    if link:
        below.append([InlineKeyboardButton(text=t("btn.table", lang), url=link)])
    if app_url is not None and not in_group and game.status is GameStatus.PLAYING:
        app = WebAppInfo(url=app_url)
        below.append([InlineKeyboardButton(text=t("btn.app_table", lang), web_app=app)])
    if below:
        markup = InlineKeyboardMarkup(
            inline_keyboard=[*(markup.inline_keyboard if markup else []), *below]
        )
    return text, markup


def shown_view(game: GameRecord, view: MatchView) -> MatchView:
    """`view` as the game's messages show it: a game that ended before its match did
    (/surrender, /cancel, a vote) is over, with no turn, its loser and winner by K-11's
    timeout rule from its first abandonment, if any."""
    if game.status.active:
        return view
    first = game.abandonment
    if first is None:
        return presenter.ended_view(view)
    return presenter.ended_view(view, first.seat, first.points, first.surrendered)


def surrender_note(game: GameRecord, lang: Lang) -> str:
    """The line under a table and the hands of a match that ended by /surrender: who
    gave up (the culprit, or whoever surrendered after the culprit left or timed out)."""
    abandonment = game.abandonment
    if abandonment is None:
        return ""
    if abandonment.reason is Ending.SURRENDER:
        seat = abandonment.seat
    elif abandonment.surrendered is not None:
        seat = abandonment.surrendered
    else:
        return ""
    return t(
        "table.surrendered", lang, name=html.escape(presenter.short_name(game.seats[seat].name))
    )


def drawn_this_turn(view: MatchView) -> tuple[Tile, ...]:
    """The tiles the viewer drew in the turn still in progress (C-6), to tell them."""
    rnd = view.round
    if rnd.seat is None or rnd.turn != rnd.seat:
        return ()
    count = 0
    for event in reversed(rnd.history):
        if not isinstance(event, Drew) or event.seat != rnd.seat:
            break
        count += 1
    return tuple(rnd.drawn[-count:]) if count else ()


def table_link(chat_id: int, message_id: int | None, thread_id: int | None = None) -> str | None:
    """A t.me link to the group's table message (in its forum topic `thread_id`, which
    the link names so that it opens there); only supergroups have such links."""
    text = str(chat_id)
    if message_id is None or not text.startswith("-100"):
        return None
    topic = f"{thread_id}/" if thread_id is not None else ""
    return f"https://t.me/c/{text[4:]}/{topic}{message_id}"
