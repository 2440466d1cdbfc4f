"""What people see, as pure functions of stored games and engine views.

Texts, captions and inline keyboards for the lobby, the group's table message, each
player's private hand message, and the announcements. Nothing here talks to
Telegram or the database, so every screen can be tested by value.

Hidden information: the group's texts are built from the public view only, and a
hand keyboard only from its owner's view (`MatchView.round.hand`).
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import (
    BackCb,
    CancelCb,
    GroupLangCb,
    LobbyAction,
    LobbyCb,
    LobbyOption,
    LobbyTimeCb,
    MoveCb,
    MoveKind,
    RemoveCb,
    SurrenderCb,
    TimerCb,
)
from bot.i18n import Lang, t
from bot.timers import STRIKES_TO_TAKE_OVER, TurnClock
from domino.actions import Action, Draw, Event, Knock, Knocked, Play, Played
from domino.layout import End
from domino.rules import FishMode, Ruleset, Scoring, Variant
from domino.tiles import Tile
from domino.timing import TurnTimer
from domino.views import MatchView, OutcomeKind, RoundResult
from storage.records import (
    GROUP_LANGS,
    LOBBY_TIMEOUTS,
    ChatSettings,
    GameRecord,
    GameStatus,
    SeatRecord,
)

NAME_LIMIT = 32
TILES_PER_ROW = 4


def short_name(name: str, limit: int = NAME_LIMIT) -> str:
    """A name cut to `limit` characters with an ellipsis; never empty. Every text built
    from a person's name uses this (issue 11, item 14: a 128-emoji name must still fit an
    alert's 200 characters)."""
    name = " ".join(name.split()) or "?"
    return name if len(name) <= limit else name[: limit - 1] + "…"


def tile_label(tile: Tile) -> str:
    return f"{tile.low}|{tile.high}"


def variant_name(ruleset: Ruleset, lang: Lang) -> str:
    return t(f"variant.{ruleset.variant.value}", lang)


def fish_mode_name(mode: FishMode, lang: Lang) -> str:
    return t(f"fish.{mode.value}", lang)


# --- the lobby ------------------------------------------------------------------------


def lobby_text(game: GameRecord, lang: Lang) -> str:
    rules = game.ruleset
    lines = [
        t("lobby.title", lang, variant=variant_name(rules, lang)),
        "",
        t("lobby.options", lang, seats=game.seats_wanted, target=rules.target),
    ]
    if rules.variant is Variant.KOZEL:
        lines.append(
            t(
                "lobby.kozel_options",
                lang,
                fish=fish_mode_name(rules.fish, lang),
                threshold=rules.open_threshold or t("lobby.off", lang),
            )
        )
    if game.seats_wanted == 4:
        lines.append(t("lobby.teams_on" if rules.teams else "lobby.teams_off", lang))
    lines.append("")
    lines.append(t("lobby.players", lang, joined=len(game.seats), wanted=game.seats_wanted))
    for seat in game.seats:
        marker = "🤖" if seat.is_computer else "👤"
        lines.append(f"{marker} {html.escape(short_name(seat.name))}")
    lines.append("")
    lines.append(t("lobby.hint", lang))
    lines.append(t("lobby.controls", lang))
    return "\n".join(lines)


def lobby_closed_text(game: GameRecord, lang: Lang) -> str:
    """What the lobby message says once the game started or was called off."""
    if game.status is GameStatus.CANCELLED and game.match is None:
        return t("lobby.closed_cancelled", lang)
    names = ", ".join(html.escape(short_name(seat.name)) for seat in game.seats)
    return t("lobby.closed_started", lang, names=names)


def lobby_keyboard(game: GameRecord, lang: Lang) -> InlineKeyboardMarkup:
    def button(
        text_key: str, action: LobbyAction, option: LobbyOption = LobbyOption.NONE, **values: object
    ) -> InlineKeyboardButton:
        data = LobbyCb(game=game.id, action=action, option=option).pack()
        return InlineKeyboardButton(text=t(text_key, lang, **values), callback_data=data)

    rules = game.ruleset
    rows = [
        [button("btn.join", LobbyAction.JOIN), button("btn.leave", LobbyAction.LEAVE)],
        [button("btn.add_computer", LobbyAction.ADD_COMPUTER)],
        [
            button("btn.opt_seats", LobbyAction.OPTION, LobbyOption.SEATS, n=game.seats_wanted),
            button("btn.opt_target", LobbyAction.OPTION, LobbyOption.TARGET, n=rules.target),
        ],
    ]
    if rules.variant is Variant.KOZEL:
        rows.append(
            [
                button(
                    "btn.opt_fish",
                    LobbyAction.OPTION,
                    LobbyOption.FISH,
                    mode=fish_mode_name(rules.fish, lang),
                ),
                button(
                    "btn.opt_threshold",
                    LobbyAction.OPTION,
                    LobbyOption.THRESHOLD,
                    n=rules.open_threshold or t("lobby.off", lang),
                ),
            ]
        )
    if game.seats_wanted == 4:
        rows.append(
            [
                button(
                    "btn.opt_teams_on" if rules.teams else "btn.opt_teams_off",
                    LobbyAction.OPTION,
                    LobbyOption.TEAMS,
                )
            ]
        )
    if game.people:
        rows.append([button("btn.remove_player", LobbyAction.REMOVE)])
    rows.append([button("btn.start", LobbyAction.START), button("btn.cancel", LobbyAction.CANCEL)])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def removal_keyboard(
    game: GameRecord, people: Sequence[SeatRecord], lang: Lang
) -> InlineKeyboardMarkup:
    """One button per seated person: pressing it removes them from the lobby (issue 11)."""
    rows = []
    for seat in people:
        assert seat.user_id is not None
        data = RemoveCb(game=game.id, seat=seat.seat, user=seat.user_id).pack()
        text = t("btn.remove_seat", lang, name=short_name(seat.name))
        rows.append([InlineKeyboardButton(text=text, callback_data=data)])
    return InlineKeyboardMarkup(inline_keyboard=rows)


# --- the table in the group -----------------------------------------------------------


def score_text(view: MatchView, side: int, lang: Lang) -> str:
    """Козёл: remembered points as `+N`, an open account as a plain number (K-7)."""
    account = view.scores[side]
    if view.ruleset.scoring is Scoring.KOZEL and not account.opened:
        return f"+{account.remembered}" if account.remembered else "0"
    return str(account.recorded)


def side_names(view: MatchView, side: int, names: Sequence[str]) -> str:
    return " + ".join(short_name(names[seat]) for seat in view.sides[side])


def event_text(event: Event, names: Sequence[str], lang: Lang) -> str:
    name = short_name(names[event.seat])
    if isinstance(event, Played):
        # No tile in the text: the picture shows the table, and the privacy check of the
        # tests can then demand that no tile is ever written in the group at all.
        return t("event.played", lang, name=name)
    if isinstance(event, Knocked):
        return t("event.knocked", lang, name=name)
    return t("event.drew", lang, name=name)


def recent_events(view: MatchView, limit: int = 3) -> Sequence[Event]:
    """The last few public events, with a run of draws by one seat folded into one."""
    folded: list[Event] = []
    for event in view.round.history:
        if (
            folded
            and type(event) is type(folded[-1])
            and not isinstance(event, Played)
            and event.seat == folded[-1].seat
        ):
            continue
        folded.append(event)
    return folded[-limit:]


def table_caption(view: MatchView, names: Sequence[str], lang: Lang) -> str:
    """The caption under the group's table picture; built from the public view."""
    rnd = view.round
    lines = [t("table.title", lang, variant=variant_name(view.ruleset, lang), n=view.round_no)]
    if view.over:
        lines.append(t("table.over", lang))
    elif rnd.turn is not None:
        lines.append(t("table.turn", lang, name=html.escape(short_name(names[rnd.turn]))))
    lines.append("")
    for side, seats in enumerate(view.sides):
        for seat in seats:
            marker = "▶️ " if rnd.turn == seat and not view.over else ""
            lines.append(
                f"{marker}{html.escape(short_name(names[seat]))} — "
                f"{t('table.tiles', lang, n=rnd.hand_counts[seat])}"
                + ("" if len(seats) > 1 else f" · {score_text(view, side, lang)}")
            )
        if len(seats) > 1:
            lines.append(
                t(
                    "table.team_score",
                    lang,
                    names=html.escape(side_names(view, side, names)),
                    score=score_text(view, side, lang),
                )
            )
    lines.append("")
    facts = [t("table.bazaar", lang, n=rnd.bazaar_size)]
    if rnd.layout.open_ends:
        facts.append(
            t("table.ends", lang, ends=" · ".join(str(pip) for _, pip in rnd.layout.open_ends))
        )
    if view.eggs:
        facts.append(f"🥚 +{view.eggs}")
    lines.append(" · ".join(facts))
    events = recent_events(view)
    if events:
        lines.append(" → ".join(html.escape(event_text(e, names, lang)) for e in events))
    return "\n".join(lines)


# --- the hand in the private chat -----------------------------------------------------


def hand_text(
    view: MatchView,
    names: Sequence[str],
    chat_title: str,
    lang: Lang,
    *,
    drew: Sequence[Tile] = (),
    away: bool = False,
) -> str:
    """The text above a player's hand keyboard. `view` is that player's own view; `away`:
    a computer moves for them, so their turns read like anyone else's."""
    rnd = view.round
    assert rnd.seat is not None, "a hand is drawn from its owner's view"
    lines = [
        t(
            "hand.title",
            lang,
            variant=variant_name(view.ruleset, lang),
            chat=html.escape(short_name(chat_title, 40)),
            n=view.round_no,
        )
    ]
    scores = [
        f"{html.escape(side_names(view, side, names))} {score_text(view, side, lang)}"
        for side in range(len(view.sides))
    ]
    if view.over or rnd.turn != rnd.seat or away:
        # Off turn the text changes only with the player's own hand and the scores, so
        # other people's moves cost no edit here (Telegram's limits); the tile buttons
        # answer whose turn it is when pressed.
        lines.append(t("hand.over" if view.over else "hand.waiting", lang))
        lines.append(t("hand.scores", lang, scores=" · ".join(scores)))
        return "\n".join(lines)
    lines.append(t("hand.your_turn", lang))
    if drew:
        lines.append(t("hand.drew", lang, tiles=", ".join(str(x) for x in drew)))
    ends = rnd.layout.open_ends
    if ends:
        lines.append(t("table.ends", lang, ends=" · ".join(str(pip) for _, pip in ends)))
    else:
        lines.append(t("hand.empty_table", lang))
    others = [
        f"{html.escape(short_name(names[seat]))}: {rnd.hand_counts[seat]}"
        for seat in range(view.players)
        if seat != rnd.seat
    ]
    lines.append(t("hand.others", lang, others=", ".join(others), bazaar=rnd.bazaar_size))
    lines.append(t("hand.scores", lang, scores=" · ".join(scores)))
    if view.eggs:
        lines.append(f"🥚 +{view.eggs}")
    return "\n".join(lines)


def _play_ends(legal: Sequence[Action]) -> dict[Tile, list[End | None]]:
    ends: dict[Tile, list[End | None]] = {}
    for action in legal:
        if isinstance(action, Play):
            ends.setdefault(action.tile, []).append(action.end)
    return ends


def hand_keyboard(
    view: MatchView, game_id: int, move: int, lang: Lang, *, choosing: Tile | None = None
) -> InlineKeyboardMarkup | None:
    """Tiles as buttons: playable ones marked on the player's turn; draw or knock when
    those are the legal actions; with `choosing`, the choice of end for that tile."""
    rnd = view.round
    if view.over or rnd.turn is None:
        return None
    plays = _play_ends(rnd.legal)

    def cb(kind: MoveKind, tile: Tile | None = None, end: End | None = None) -> str:
        return MoveCb(
            game=game_id,
            move=move,
            kind=kind,
            tile=tile.index if tile else -1,
            end=end.value if end else "",
        ).pack()

    if choosing is not None and len(plays.get(choosing, [])) > 1:
        row = [
            InlineKeyboardButton(
                text=t("btn.end", lang, end=_end_label(view, end), tile=str(choosing)),
                callback_data=cb(MoveKind.PLAY, choosing, end),
            )
            for end in plays[choosing]
        ]
        back = InlineKeyboardButton(text=t("btn.back", lang), callback_data=cb(MoveKind.BACK))
        return InlineKeyboardMarkup(inline_keyboard=[row, [back]])

    buttons: list[InlineKeyboardButton] = []
    for tile in rnd.hand:
        ends = plays.get(tile, [])
        if len(ends) == 1:
            text, data = f"✅ {tile_label(tile)}", cb(MoveKind.PLAY, tile, ends[0])
        elif len(ends) > 1:
            text, data = f"✅ {tile_label(tile)}", cb(MoveKind.CHOOSE_END, tile)
        else:
            # Informational: no move number, so it does not change (or need an edit) as the
            # game moves on; pressing it tells whose turn it is.
            text = tile_label(tile)
            data = MoveCb(game=game_id, move=0, kind=MoveKind.INFO).pack()
        buttons.append(InlineKeyboardButton(text=text, callback_data=data))
    rows = [buttons[i : i + TILES_PER_ROW] for i in range(0, len(buttons), TILES_PER_ROW)]
    extra: list[InlineKeyboardButton] = []
    if any(isinstance(a, Draw) for a in rnd.legal):
        extra.append(
            InlineKeyboardButton(text=t("btn.draw", lang), callback_data=cb(MoveKind.DRAW))
        )
    if any(isinstance(a, Knock) for a in rnd.legal):
        extra.append(
            InlineKeyboardButton(text=t("btn.knock", lang), callback_data=cb(MoveKind.KNOCK))
        )
    if extra:
        rows.append(extra)
    return InlineKeyboardMarkup(inline_keyboard=rows)


def _end_label(view: MatchView, end: End | None) -> str:
    for open_end, pip in view.round.layout.open_ends:
        if open_end is end:
            arrow = {End.LEFT: "⬅️", End.RIGHT: "➡️", End.UP: "⬆️", End.DOWN: "⬇️"}[end]
            return f"{arrow} {pip}"
    return "•"


# --- announcements --------------------------------------------------------------------


def round_end_text(view: MatchView, result: RoundResult, names: Sequence[str], lang: Lang) -> str:
    """The announcement of a finished round: who went out, or fish and the fisherman."""
    who = html.escape(short_name(names[result.outcome.seat]))
    if result.outcome.kind is OutcomeKind.WENT_OUT:
        lines = [t("announce.went_out", lang, name=who, n=result.round_no)]
    else:
        lines = [t("announce.fish", lang, name=who, n=result.round_no)]
    if result.eggs_after > result.eggs_before or (
        result.eggs_after and result.eggs_taken_by is None
    ):
        lines.append(t("announce.eggs", lang, points=result.eggs_after))
    elif result.eggs_taken_by is not None and result.eggs_before:
        lines.append(
            t(
                "announce.eggs_taken",
                lang,
                name=html.escape(side_names(view, result.eggs_taken_by, names)),
                points=result.eggs_before,
            )
        )
    return "\n".join(lines)


def match_end_text(view: MatchView, names: Sequence[str], lang: Lang) -> str:
    """«🐐 Козёл — NAME» (or the winner in Классика) with the final scores."""
    if view.ruleset.scoring is Scoring.KOZEL:
        who = ", ".join(html.escape(side_names(view, side, names)) for side in view.losers)
        lines = [t("announce.goat", lang, names=who)]
    else:
        who = ", ".join(html.escape(side_names(view, side, names)) for side in view.winners)
        lines = [t("announce.winner", lang, names=who)]
    order = sorted(range(len(view.sides)), key=lambda side: view.scores[side].recorded)
    for side in order:
        lines.append(f"{html.escape(side_names(view, side, names))}: {view.scores[side].recorded}")
    return "\n".join(lines)


def cancel_confirm_keyboard(game_id: int, lang: Lang) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text=t("btn.cancel_yes", lang),
                    callback_data=CancelCb(game=game_id, confirm=True).pack(),
                ),
                InlineKeyboardButton(
                    text=t("btn.cancel_no", lang),
                    callback_data=CancelCb(game=game_id, confirm=False).pack(),
                ),
            ]
        ]
    )


def surrender_confirm_keyboard(
    game_id: int, move: int, user_id: int, lang: Lang
) -> InlineKeyboardMarkup:
    """«Да, сдаюсь / Нет»: for this person only, valid while the match stays at `move`."""

    def data(confirm: bool) -> str:
        return SurrenderCb(game=game_id, move=move, user=user_id, confirm=confirm).pack()

    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text=t("btn.surrender_yes", lang), callback_data=data(True)),
                InlineKeyboardButton(text=t("btn.surrender_no", lang), callback_data=data(False)),
            ]
        ]
    )


# --- turn timers and /settings (issue 7) ----------------------------------------------


def timer_name(timer: TurnTimer, lang: Lang) -> str:
    return t(f"timer.{timer.value}", lang)


def settings_text(chat_title: str, settings: ChatSettings, lang: Lang) -> str:
    title = t(
        "settings.title",
        lang,
        chat=html.escape(short_name(chat_title, 40)),
        timer=timer_name(settings.turn_timer, lang),
    )
    chosen = t(f"group_lang.{settings.group_lang or 'auto'}", lang)
    language = t("settings.lang", lang, lang=chosen)
    lobby = t("settings.lobby_timeout", lang, time=lobby_timeout_name(settings.lobby_timeout, lang))
    return title + "\n" + language + "\n" + lobby + "\n\n" + t("settings.hint", lang)


def lobby_timeout_name(minutes: int, lang: Lang) -> str:
    return t("lobby_timeout.off", lang) if not minutes else t("lobby_timeout.min", lang, n=minutes)


def settings_keyboard(settings: ChatSettings, lang: Lang) -> InlineKeyboardMarkup:
    """One button per turn-timer choice, the current one marked."""

    def button(timer: TurnTimer) -> InlineKeyboardButton:
        mark = "✅ " if timer is settings.turn_timer else ""
        return InlineKeyboardButton(
            text=mark + timer_name(timer, lang), callback_data=TimerCb(timer=timer.value).pack()
        )

    rows = [
        [button(TurnTimer.OFF), button(TurnTimer.S30), button(TurnTimer.S60)],
        [button(TurnTimer.S120), button(TurnTimer.S300)],
        [button(TurnTimer.SPORT)],
    ]
    languages = []
    for code in ("auto", *GROUP_LANGS):
        mark = "✅ " if code == (settings.group_lang or "auto") else ""
        languages.append(
            InlineKeyboardButton(
                text=mark + t(f"btn.group_lang.{code}", lang),
                callback_data=GroupLangCb(lang=code).pack(),
            )
        )
    rows.append(languages)
    waits = []
    for minutes in LOBBY_TIMEOUTS:
        mark = "✅ " if minutes == settings.lobby_timeout else ""
        waits.append(
            InlineKeyboardButton(
                text=mark + t("btn.lobby_timeout", lang, time=lobby_timeout_name(minutes, lang)),
                callback_data=LobbyTimeCb(minutes=minutes).pack(),
            )
        )
    rows.append(waits)
    return InlineKeyboardMarkup(inline_keyboard=rows)


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
        key = "hand.time_warning" if clock.warned else "hand.time_left"
        lines.append(t(key, lang, s=clock.seconds_left(now)))
    return "".join("\n" + line for line in lines)


def table_timer_line(
    game: GameRecord, clock: TurnClock | None, now: float, names: Sequence[str], lang: Lang
) -> str:
    """The table caption's "⏳ NAME: 10 s" once the turn's warning moment has passed."""
    clock = turn_clock_current(game, clock)
    if clock is None or not clock.warned:
        return ""
    name = html.escape(short_name(names[clock.seat]))
    return "\n" + t("table.time_warning", lang, name=name, s=clock.seconds_left(now))


def away_keyboard(view: MatchView, game_id: int, lang: Lang) -> InlineKeyboardMarkup:
    """The hand of a person a computer plays for: their tiles (press: whose turn it is)
    and "I'm back"."""
    info = MoveCb(game=game_id, move=0, kind=MoveKind.INFO).pack()
    buttons = [
        InlineKeyboardButton(text=tile_label(tile), callback_data=info) for tile in view.round.hand
    ]
    rows = [buttons[i : i + TILES_PER_ROW] for i in range(0, len(buttons), TILES_PER_ROW)]
    back = InlineKeyboardButton(
        text=t("btn.back_in_game", lang), callback_data=BackCb(game=game_id).pack()
    )
    return InlineKeyboardMarkup(inline_keyboard=[*rows, [back]])
