"""A game as the JSON the Mini App draws, for one viewer: `game_view(game, seat, lang, ...)`.

Pure: built from the stored game and the engine's view for that viewer
(`Match.view(seat)`, which holds only the viewer's own hand), never reading another
hand, the bazaar's tiles, a face-down stack or the seed. The one exception is the round
that has ended (`round_end`): its hands are laid open as the round-end picture shows
them, public by then.

The app shows what the group's picture and the private hand show, from the same pieces,
so that all three agree: the table's geometry and its end badges are `render`'s
(`render.geometry.table_geometry`, `render.table.end_badges`, `just_laid`); the texts
are the messages' own pure functions (`bot.telegram.presenter`: recent moves, round and
match endings, moves in the words of the hand's buttons; `render.labels`: the status
line as the picture writes it), with Telegram's HTML taken out, so a text in the app
never disagrees with the same text in a message; the page's own labels are the
`webapp.*` texts.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.app.names import computer_name, short_name
from bot.telegram.presenter.common import score_text, side_names, variant_name
from bot.telegram.presenter.endings import ended_view, played_out_notes
from bot.telegram.presenter.hand import (
    face_down,
    face_down_text,
    laid_this_turn,
    opening_text,
    turned_up_text,
)
from bot.telegram.presenter.lobby import lobby_options
from bot.telegram.presenter.moves import action_text, doubles_label
from bot.telegram.presenter.table import (
    event_text,
    match_end_text,
    recent_events,
    round_end_text,
)
from domino.actions import Action, Close, Draw, EndTurn, Flip, Knock, Play, PlayDoubles
from domino.geometry import End
from domino.round import Round
from domino.tiles import Tile
from domino.timing import TurnTimer
from domino.views import LayoutView, MatchView, RoundResult
from i18n import Lang, t
from render import counts, labels
from render.geometry import Rect, TableGeometry, table_geometry
from render.table import ARROWS, TABLE_AREA, Badge, end_badges, just_laid
from storage.records import GameRecord, GameStatus

VERSION = 1
"""The protocol's version (`bot.webapp`)."""

AREA = Rect(0, 0, TABLE_AREA.width, TABLE_AREA.height)
"""The table's area in the app's coordinates: the picture's, moved to the origin, so
that the tiles lie as on the group's picture."""

NARROW_AREA = Rect(0, 0, 640, 640)
"""The table's area for a phone held upright: a square, where the picture's wide felt
would shrink the tiles to a third (the same tiles and ends, laid again)."""

EVENTS = 6
"""How many recent moves the state carries."""

PAGE_TEXTS = (
    "connecting",
    "reconnecting",
    "error",
    "lobby",
    "spectator",
    "your_turn",
    "choose_end",
    "sheet",
    "events",
    "round_end",
    "next",
    "close",
    "bazaar",
    "face_down",
    "empty_table",
    "away",
    "score",
    "tiles",
    "round",
    "menu_back",
    "no_fit",
    "lobby_wait",
    "match_over",
)
"""The page's own labels (`webapp.<key>`), sent in `texts`."""

BUTTON_TEXTS = ("join", "hint", "back", "back_in_game", "start", "add_computer", "offer_draw")
"""The buttons' words the page shares with the messages (`btn.<key>`), in `texts`."""

_TAG = re.compile(r"<[^>]+>")


def plain(text: str) -> str:
    """A message's text without Telegram's HTML: tags out, entities back to characters."""
    return html.unescape(_TAG.sub("", text))


def seat_names(game: GameRecord, lang: Lang) -> list[str]:
    """Each seat's name as the messages show it: a computer's in `lang`, a person the
    computer plays for marked so (as `bot.telegram.delivery.seat_names`)."""
    return [
        t("computer.instead", lang, name=short_name(seat.name))
        if seat.by_computer and seat.user_id
        else short_name(computer_name(seat.name, lang) if seat.user_id is None else seat.name)
        for seat in game.seats
    ]


def page_texts(lang: Lang) -> dict[str, str]:
    """The page's labels in `lang` (a copy: the state is the caller's)."""
    return dict(_page_texts(lang))


@functools.cache
def _page_texts(lang: Lang) -> dict[str, str]:
    """The labels, looked up once a language: a state carries them all, every time."""
    texts = {key: t(f"webapp.{key}", lang) for key in PAGE_TEXTS}
    texts.update({key: t(f"btn.{key}", lang) for key in BUTTON_TEXTS})
    return texts


def _ms(moment: datetime) -> int:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def game_view(
    game: GameRecord,
    seat: int | None,
    lang: Lang,
    *,
    now: datetime,
    hints: bool,
    may_join: bool,
    chat_title: str = "",
    timer: TurnTimer | None = None,
    controls: bool = False,
) -> dict[str, Any]:
    """The state of the protocol (`bot.webapp`, «The state») of `game` for `seat` (None:
    the public view, a group member who is not seated), in `lang`. `hints`: the group
    allows them; `may_join`: the viewer may take a seat in the lobby; `now`: the
    server's moment, for the page's clock; `timer`: the group's turn timer, for the
    lobby's line on a game's own turn times (None: not said); `controls`: the viewer
    opened the lobby, and the page offers its start and its computers."""
    names = seat_names(game, lang)
    match = game.match
    record = game.seats[seat] if seat is not None and seat < len(game.seats) else None
    away = record is not None and record.by_computer
    state: dict[str, Any] = {
        "v": VERSION,
        "lang": lang.value,
        "now": _ms(now),
        "game": {
            "title": variant_name(game.ruleset.variant, lang),
            "chat": chat_title,
            "status": game.status.value,
            "move": 0 if match is None else len(match.log),
            "round": 0 if match is None else match.round_no,
            "target": game.ruleset.target,
        },
        "viewer": {
            "seat": seat,
            "spectator": seat is None,
            "may_join": may_join,
            "away": away,
            "controls": controls,
        },
        "texts": page_texts(lang),
    }
    if match is None:
        state.update(_lobby(game, names, lang, timer))
        return state
    view = match.view(seat)
    if not game.status.active:
        first = game.abandonment
        view = (
            ended_view(view)
            if first is None
            else ended_view(view, first.seat, first.points, first.surrendered)
        )
    rnd = view.round
    turn = None if view.over else rnd.turn
    state["seats"] = [
        {
            "seat": index,
            "name": names[index],
            "computer": game.seats[index].is_computer,
            "away": game.seats[index].by_computer and not game.seats[index].is_computer,
            "tiles": rnd.hand_counts[index],
            "side": view.side_of(index),
            "turn": turn == index,
            "you": index == seat,
            "face_down": rnd.hand_counts[index] if rnd.face_down and rnd.face_down[index] else 0,
        }
        for index in range(view.players)
    ]
    state["sides"] = [
        {
            "seats": list(seats),
            "name": side_names(names, seats),
            "score": view.scores[side].recorded,
            "shown": score_text(view, side),
        }
        for side, seats in enumerate(view.sides)
    ]
    state["turn"] = _turn(game, view, turn)
    state["status"] = _status(game, view, names, lang)
    state["events"] = [
        plain(event_text(shown, names, view.ruleset.game.key.value, lang))
        for shown in recent_events(view, EVENTS)
    ]
    table, end_index = table_state(view)
    state["table"] = table
    state["hand"] = (
        _hand(view, end_index, lang, hints=hints, away=away)
        if seat is not None and not view.over and game.status is GameStatus.PLAYING
        else None
    )
    if state["hand"] is not None:
        # «🤝 Предложить ничью»: the round it offers in (as the hand's button carries it),
        # or None where the viewer may not offer (left, or the match counts already).
        may_offer = record is not None and not record.left and game.abandonment is None
        state["hand"]["offer_draw"] = len(match.results) + 1 if may_offer else None
    state["sheet"] = _sheet(view, names, lang)
    state["round_end"] = _round_end(game, view, names, lang)
    return state


def _lobby(
    game: GameRecord, names: Sequence[str], lang: Lang, timer: TurnTimer | None
) -> dict[str, Any]:
    """A game not yet dealt: its seats so far, its options (`lobby_rules`), no table and
    no hand."""
    full = len(game.seats) >= game.seats_wanted
    status = t("webapp.lobby_status", lang, n=len(game.seats), wanted=game.seats_wanted)
    if full:
        status = t("webapp.lobby_full", lang)
    if game.status is GameStatus.CANCELLED:
        status = t("webapp.cancelled", lang)
    return {
        "seats": [
            {
                "seat": seat.seat,
                "name": name,
                "computer": seat.is_computer,
                "away": False,
                "tiles": 0,
                "side": seat.seat,
                "turn": False,
                "you": False,
                "face_down": 0,
            }
            for seat, name in zip(game.seats, names, strict=True)
        ],
        "sides": [],
        "turn": {"seat": None, "deadline": None, "limit": None},
        "status": status,
        "events": [],
        "table": None,
        "hand": None,
        "sheet": None,
        "round_end": None,
        "lobby": {"rules": lobby_rules(game, lang, timer), "full": full},
    }


def lobby_rules(game: GameRecord, lang: Lang, timer: TurnTimer | None = None) -> list[str]:
    """The lobby's options, one a line, in the lobby message's own words
    (`bot.telegram.presenter.lobby.lobby_options`) without its HTML, who sits with whom
    among them (the page lists the seats by themselves); the group's `timer` None: a
    game's own turn times not said. The game's name is the page's title (`game.title`),
    not repeated here."""
    return [plain(line) for line in lobby_options(game, lang, timer, pairs=True)]


def _turn(game: GameRecord, view: MatchView, turn: int | None) -> dict[str, Any]:
    """Whose turn, and when it runs out where the turn is timed (the stored deadline of
    the move in progress)."""
    deadline = game.turn_deadline
    match = game.match
    if (
        turn is None
        or deadline is None
        or match is None
        or game.status is not GameStatus.PLAYING
        or deadline.move != len(match.log)
    ):
        return {"seat": turn, "deadline": None, "limit": None}
    return {"seat": turn, "deadline": _ms(deadline.deadline), "limit": round(deadline.limit)}


def _status(game: GameRecord, view: MatchView, names: Sequence[str], lang: Lang) -> str:
    """One line, as the table picture's title writes it: the match's end (a cancelled
    game says so, and who loses it where it still counts, K-11), the round's end, who
    leads by the turned tiles (S-2), whose turn."""
    if view.over:
        if game.status is GameStatus.CANCELLED:
            cancelled = t("webapp.cancelled", lang)
            if not view.losers and not view.winners:
                return cancelled
            return f"{cancelled} · {labels.match_end(view, names, lang)}"
        return labels.match_end(view, names, lang)
    rnd = view.round
    if rnd.outcome is not None:
        score = view.scores[view.side_of(rnd.outcome.seat)].recorded
        return labels.outcome(view, rnd.outcome, names, lang, score)
    if view.results and not rnd.history:
        result = view.results[-1]
        return labels.outcome(
            view,
            result.outcome,
            names,
            lang,
            labels.reached_score(view, result),
            round_no=result.round_no,
        )
    if rnd.turned and not rnd.layout.placements:
        return labels.word("turned", lang)
    if rnd.turn is not None:
        return labels.word("turn_of", lang, name=names[rnd.turn])
    return ""


def _tile(tile: Tile) -> list[int]:
    return [tile.low, tile.high]


def table_state(view: MatchView) -> tuple[dict[str, Any], dict[End, int]]:
    """The table of `view` where the picture lays it (`render.geometry` in `AREA`), laid
    again in `NARROW_AREA` for a phone (`narrow`: the same ends in the same order), and
    each end's index in `ends`."""
    rnd = view.round
    layout = rnd.layout
    wide, index = _placed(view, AREA)
    narrow, _ = _placed(view, NARROW_AREA)
    summed = counts.sums_ends(view)
    shown = not layout.placements and bool(rnd.turned)
    return (
        {
            **wide,
            "narrow": narrow,
            "bazaar": rnd.bazaar_size if labels.has_bazaar(view) else None,
            "turned_up": None if rnd.turned_up is None else _tile(rnd.turned_up),
            "turned": [_tile(tile) for tile in rnd.turned] if shown else [],
            "sum": _ends_sum(view) if summed else None,
        },
        index,
    )


def _placed(view: MatchView, area: Rect) -> tuple[dict[str, Any], dict[End, int]]:
    """The tiles and ends of `view`'s table laid in `area`: each tile's rectangle and
    halves, the just laid (`just_laid`) and the spinner (C-10) marked, a double closing
    its end face down (O-3); each open end's badge as the picture places it
    (`end_badges`: where the ends are summed, F-3, muted or with what it counts), then
    the closed ends; and each end's index among them."""
    layout = view.round.layout
    summed = tuple(counts.end_counts(layout).items()) if counts.sums_ends(view) else None
    geometry, badges = _laid_out(layout, area, summed)
    marked = just_laid(view) if len(geometry.tiles) > 1 else frozenset()
    tiles = []
    for box in geometry.tiles:
        first, second = box.halves
        r = box.rect
        tiles.append(
            {
                "a": first.pip,
                "b": second.pip,
                "x": r.x0,
                "y": r.y0,
                "w": r.width,
                "h": r.height,
                "new": box.placement.seq in marked,
                "spinner": box.placement.seq == geometry.spinner,
                "closed": box.placement.closed,
            }
        )
    ends: list[dict[str, Any]] = []
    index: dict[End, int] = {}
    for badge in badges:
        (x, y), tag = badge.centre, badge.tag
        index[badge.end] = len(ends)
        ends.append(
            {
                "x": round(x),
                "y": round(y),
                "r": badge.diameter // 2,
                "pip": int(badge.label),
                "label": ARROWS[badge.end],
                "closed": False,
                "arm": badge.end.name.lower(),
                "muted": badge.muted,
                "count": None if tag is None else tag.label,
            }
        )
    for end in layout.closed_ends:
        closed = _closed_end(geometry, end)
        if closed is not None:
            index[end] = len(ends)
            ends.append(closed)
    placed = {
        "width": area.width,
        "height": area.height,
        "unit": geometry.unit,
        "tiles": tiles,
        "ends": ends,
    }
    return placed, index


@functools.lru_cache(maxsize=1024)
def _laid_out(
    layout: LayoutView, area: Rect, end_counts: tuple[tuple[End, int | None], ...] | None
) -> tuple[TableGeometry, tuple[Badge, ...]]:
    """The table's geometry and its ends' badges: the same for every viewer of a move,
    so worked out once for them all (the geometry is most of a state's work)."""
    geometry = table_geometry(layout, area)
    return geometry, end_badges(geometry, None if end_counts is None else dict(end_counts))


def _ends_sum(view: MatchView) -> int:
    """F-3: the sum of the open ends as the game counts it."""
    _, count = view.ruleset.game.move_points(view.ruleset, view.round.layout)
    return count


def _closed_end(geometry: TableGeometry, end: End) -> dict[str, Any] | None:
    """An end closed for good (O-3): a lock on the face-down double at its arm's tip."""
    for arm, boxes in geometry.arms:
        if arm is end and boxes:
            x, y = boxes[-1].rect.centre
            return {
                "x": round(x),
                "y": round(y),
                "r": max(7, geometry.unit * 9 // 10),
                "pip": None,
                "label": ARROWS[end],
                "closed": True,
                "arm": end.name.lower(),
                "muted": True,
                "count": None,
            }
    return None


def _hand(
    view: MatchView, end_index: dict[End, int], lang: Lang, *, hints: bool, away: bool
) -> dict[str, Any]:
    """The viewer's own hand with its legal moves grouped as the hand's buttons group them
    (`bot.telegram.presenter.hand_keyboard`): a tile's plays (one per end it fits), the
    draw, knock, end of turn and flip, and the menus of several doubles (M-3, O-2) and
    of closing an end (O-3). A person the computer plays for sees no move."""
    rnd = view.round
    mine = rnd.turn == rnd.seat and not away
    legal: Sequence[Action] = rnd.legal if mine else ()
    plays: dict[Tile, list[Play]] = {}
    for action in legal:
        if isinstance(action, Play):
            plays.setdefault(action.tile, []).append(action)

    def shown(action: Action) -> dict[str, Any]:
        return {"action": str(action), "label": plain(action_text(view, action, lang))}

    def play(action: Play) -> dict[str, Any]:
        end = None if action.end is None else end_index.get(action.end)
        return {**shown(action), "end": end}

    held: list[Tile] = list(rnd.hand)
    if rnd.turned_up is not None and rnd.turned_up in plays and rnd.turned_up not in held:
        held.append(rnd.turned_up)  # Втемную: the tile turned up, its owner's to lay
    tiles = [
        {"a": tile.low, "b": tile.high, "plays": [play(p) for p in plays.get(tile, [])]}
        for tile in held
    ]
    moves = [shown(a) for a in legal if isinstance(a, Draw | Knock | EndTurn | Flip)]
    menus = []
    doubles = [a for a in legal if isinstance(a, PlayDoubles)]
    if doubles:
        menus.append(
            {
                "kind": "doubles",
                "label": t("btn.choose_doubles", lang, n=view.ruleset.game.max_doubles),
                "options": [{"action": str(a), "label": doubles_label(a)} for a in doubles],
            }
        )
    closes = [a for a in legal if isinstance(a, Close)]
    if closes:
        menus.append(
            {
                "kind": "close",
                "label": t("btn.choose_close", lang),
                "options": [shown(a) for a in closes],
            }
        )
    dark = face_down(view)
    count = 0
    if dark:
        assert rnd.seat is not None
        count = rnd.hand_counts[rnd.seat] - (rnd.turned_up is not None and rnd.turn == rnd.seat)
    return {
        "tiles": tiles,
        "face_down": count,
        "face_down_text": plain(face_down_text(view, lang)) if dark else None,
        "moves": moves,
        "menus": menus,
        "your_turn": mine,
        "hint": hints and mine and bool(legal) and (not dark or rnd.turned_up is not None),
        "note": _hand_note(view, lang, mine, away),
    }


def _hand_note(view: MatchView, lang: Lang, mine: bool, away: bool) -> str | None:
    """What the private hand's text says the viewer may do now: that the computer plays
    for them (`away`); on their turn which tile opens the round and why (K-3, T-2, B-1),
    the tile turned up to lay or what the flip does (Втемную), that their tiles are
    turned up, the tiles laid so far in a turn of several (section V)."""
    if away:
        return plain(t("hand.away", lang))
    if not mine:
        return None
    rnd = view.round
    if face_down(view):
        return plain(turned_up_text(view, lang))
    laid = laid_this_turn(view)
    if laid:
        return plain(t("hand.mid_turn", lang, n=laid))
    if rnd.face_down:
        return plain(t("hand.turned_up", lang))
    opening = opening_text(view, lang)
    return None if opening is None else plain(opening)


def _sheet(view: MatchView, names: Sequence[str], lang: Lang) -> dict[str, Any]:
    """The score sheet by names: a row per round played, each side's points in it, and
    each side's account now (K-8; remembered points as «+N», K-7)."""
    return {
        "heads": [
            t("webapp.round", lang),
            *(side_names(names, seats) for seats in view.sides),
        ],
        "rows": [
            [str(result.round_no), *(str(points) for points in result.points)]
            for result in view.results
        ],
        "totals": [
            t("webapp.total", lang),
            *(score_text(view, side) for side in range(len(view.sides))),
        ],
    }


def showing_round_end(game: GameRecord) -> bool:
    """Whether the round that ended last is shown laid open: until the next round's
    first move, and for good once the match is over (played to its end, also by the
    computers after everyone left). A game that ended before its match did (a
    surrender) shows it only if it ended between two rounds, before the next round's
    first move; a cancelled game never does: its status says it was cancelled, and an
    earlier round's end would read as if the round had just ended."""
    match = game.match
    if match is None or not match.results or game.status is GameStatus.CANCELLED:
        return False
    return match.over or not match.round.history


def _round_end(
    game: GameRecord, view: MatchView, names: Sequence[str], lang: Lang
) -> dict[str, Any] | None:
    """The round that ended, laid open as the round-end picture shows it: its table as
    the last move left it, every hand left with what it counts, and the announcement's
    lines (`round_end_text`); at the match's end the lines of its announcement too
    (`match_lines`)."""
    match = game.match
    if match is None or not showing_round_end(game):
        return None
    result = view.results[-1]
    ended = match.ended_round(result.round_no)
    return {
        "round": result.round_no,
        "title": labels.word("results", lang, n=result.round_no),
        "lines": _round_end_lines(view, result, names, lang),
        "match_lines": _match_lines(game, view, names, lang),
        "table": _ended_table(view, ended),
        "hands": [
            {
                "seat": seat,
                "name": names[seat],
                "tiles": [_tile(tile) for tile in ended.hand(seat)],
                "total": hand_total(ended.hand(seat), lang, counts.doubles_count(view)),
            }
            for seat in range(view.players)
        ],
    }


def _round_end_lines(
    view: MatchView, result: RoundResult, names: Sequence[str], lang: Lang
) -> list[str]:
    """The round's announcement as the group reads it, then what the group's picture
    shows beside it and the app's round-end view does not: each side's points in the
    round (games that score only at the round's end; the others' announcement says it)
    and the score now (remembered points as «+N», K-7)."""
    text = plain(round_end_text(view, result, names, lang))
    lines = [line for line in text.split("\n") if line.strip()]
    if not view.ruleset.game.scores_in_play:
        points = " · ".join(
            f"{side_names(names, seats)} +{result.points[side]}"
            for side, seats in enumerate(view.sides)
        )
        lines.append(plain(t("announce.round_points", lang, points=points)))
    scores = " · ".join(
        f"{side_names(names, seats)} {score_text(view, side)}"
        for side, seats in enumerate(view.sides)
    )
    lines.append(t("webapp.round_scores", lang, scores=scores))
    return lines


def _match_lines(game: GameRecord, view: MatchView, names: Sequence[str], lang: Lang) -> list[str]:
    """The match's end as the group's announcement says it (`match_end_text`, plain, a
    line each): who won or lost it (as the stats count a match someone abandoned,
    `ended_view`), why and the rating (`played_out_notes`), the final scores best
    first; nothing while the match goes on or for a game cancelled."""
    match = game.match
    if match is None or not view.over or game.status is not GameStatus.FINISHED:
        return []
    text = match_end_text(
        view,
        names,
        lang,
        last_tile_won=match.won_by_last_tile(),
        notes=played_out_notes(game, lang),
    )
    return [line for line in plain(text).split("\n") if line.strip()]


def _ended_table(view: MatchView, ended: Round) -> dict[str, Any]:
    """The table of round `ended` as its last move left it (public)."""
    played = MatchView(
        ruleset=view.ruleset,
        players=view.players,
        round_no=view.round_no,
        round=ended.view(None),
        sides=view.sides,
        scores=view.scores,
        eggs=view.eggs,
        results=view.results,
        over=view.over,
        losers=view.losers,
        winners=view.winners,
    )
    table, _ = table_state(played)
    return table


def hand_total(hand: Sequence[Tile], lang: Lang, doubles: bool) -> str:
    """What a hand left at the round's end counts, as the round-end picture writes it
    after it: its pip sum (C-9), the doubles left where they count instead (B-1, B-2),
    or that it holds none."""
    if not hand:
        return labels.word("no_tiles", lang)
    if doubles:
        return labels.doubles_left(sum(tile.is_double for tile in hand), lang)
    return f"= {sum(tile.low + tile.high for tile in hand)}"
