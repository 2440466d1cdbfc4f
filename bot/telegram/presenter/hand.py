"""A player's hand in their private chat: the text above it and the tiles as buttons.
Built only from the owner's own view (`MatchView.round.hand`).

In games that score during play (F-3) a group that allows hints sees on each playable
tile what its play would score («✅ 5|5 +10»), and in the choice of ends what each end
would: the table is laid again from the view with that tile on that end and the game
asked (`GameVariant.move_points`)."""

from __future__ import annotations

import functools
import html
from collections.abc import Mapping, Sequence

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.telegram.callbacks import BackCb, HandMenu, MoveCb, MoveKind, doubles_payload
from bot.telegram.presenter.common import (
    score_text,
    short_name,
    side_names,
    tile_label,
    tile_rows,
    variant_name,
)
from bot.telegram.presenter.table import has_bazaar, listed_ends, result_lines
from domino.actions import (
    Action,
    Close,
    Draw,
    EndTurn,
    Flip,
    Knock,
    Play,
    PlayDoubles,
    Played,
)
from domino.geometry import End
from domino.layout import SumSixLayout, layout_of
from domino.round import FACE_UP
from domino.rules import LayoutKind
from domino.tiles import Tile
from domino.views import MatchView
from i18n import Lang, t

ARROWS = {End.LEFT: "⬅️", End.RIGHT: "➡️", End.UP: "⬆️", End.DOWN: "⬇️"}
POINTS_TILES_PER_ROW = 3
"""Tile buttons a row when they carry points («✅ 5|5 +10»): four such do not fit a
phone's row without being cut."""


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
    a computer moves for them, so their turns read like anyone else's.

    Втемную: while the player's tiles lie face down the hand shows none (the view holds
    none: nobody sees them, not even their owner), only how many there are, and on
    their turn what «🁢 Открыть верхнюю» does; once turned up, that they may lay
    several a turn."""
    rnd = view.round
    assert rnd.seat is not None, "a hand is drawn from its owner's view"
    lines = [
        t(
            "hand.title",
            lang,
            variant=variant_name(view.ruleset.variant, lang),
            chat=html.escape(short_name(chat_title, 40)),
            n=view.round_no,
        )
    ]
    scores = t(
        "hand.scores",
        lang,
        scores=" · ".join(
            f"{html.escape(side_names(names, seats))} {score_text(view, side)}"
            for side, seats in enumerate(view.sides)
        ),
    )
    partners = [seat for seat in view.sides[view.side_of(rnd.seat)] if seat != rnd.seat]
    if view.over:
        # Over (also ended early, `bot.telegram.presenter.endings.ended_view`): no turn, the result.
        lines.append(t("hand.over", lang))
        lines.extend(result_lines(view, names, lang))
        lines.append(scores)
        return "\n".join(lines)
    if rnd.turn != rnd.seat or away:
        # Off turn the text changes only with the player's own hand and the scores (and
        # in pairs as the partner's turn comes and goes), so opponents' moves cost no
        # edit here (Telegram's limits); the tile buttons answer whose turn it is.
        # Pairs (issue 15, item 6): who the partner is (at the turn `others_text` says).
        if partners:
            partner = ", ".join(html.escape(short_name(names[seat])) for seat in partners)
            lines.append(t("hand.your_partner", lang, name=partner))
        if rnd.turn is not None and rnd.turn in partners:
            name = html.escape(short_name(names[rnd.turn]))
            lines.append(t("hand.partner_turn", lang, name=name))
        elif len(rnd.hand_counts) == 2 and rnd.turn is not None and rnd.turn != rnd.seat:
            # One opponent: named (the text still changes only when the turn does).
            name = html.escape(short_name(names[rnd.turn]))
            lines.append(t("hand.waiting_for", lang, name=name))
        else:
            # Втемную face down: the one button is the stack, «🁢 × 5».
            lines.append(t("hand.waiting_face_down" if face_down(view) else "hand.waiting", lang))
        if face_down(view):
            lines.append(face_down_text(view, lang))
        lines.append(scores)
        if view.eggs:  # the pot changes only between rounds: no edit more off turn
            lines.append(f"🥚 +{view.eggs}")
        return "\n".join(lines)
    lines.append(t("hand.your_turn", lang))
    if face_down(view):
        lines.extend((face_down_text(view, lang), flip_text(view, lang)))
    elif rnd.face_down:
        lines.append(t("hand.turned_up", lang))
    laid = laid_this_turn(view)
    if laid:
        lines.append(t("hand.mid_turn", lang, n=laid))
    if drew:
        lines.append(t("hand.drew", lang, tiles=", ".join(tile_label(x) for x in drew)))
    lines.append(ends_text(view, lang) or empty_table_text(view, lang))
    lines.append(others_text(view, names, lang))
    lines.append(scores)
    if view.eggs:
        lines.append(f"🥚 +{view.eggs}")
    return "\n".join(lines)


def face_down(view: MatchView) -> bool:
    """Втемную: whether the viewer's own tiles lie face down (their only move a `Flip`)."""
    rnd = view.round
    return rnd.seat is not None and bool(rnd.face_down) and rnd.face_down[rnd.seat]


def face_down_text(view: MatchView, lang: Lang) -> str:
    """Втемную: «🁢 Ваши кости лежат рубашкой вверх: 5 костей…», the count alone."""
    rnd = view.round
    assert rnd.seat is not None, "a hand is drawn from its owner's view"
    return t("hand.face_down", lang, n=rnd.hand_counts[rnd.seat], up=FACE_UP)


def flip_text(view: MatchView, lang: Lang) -> str:
    """Втемную: what «🁢 Открыть верхнюю» does; while the bazaar has a tile to give, also
    that one goes face down on top of the stack after a miss (`domino.round.Round._flip`)."""
    rnd = view.round
    bazaar = rnd.bazaar_size > view.ruleset.bazaar_reserve
    return t("hand.flip_bazaar" if bazaar else "hand.flip", lang)


def laid_this_turn(view: MatchView) -> int:
    """Section V (Блиц, Крест): the tiles the viewer laid in the turn still in progress,
    where they may lay another or end the turn («✔️ Сходить» is among their legal
    actions); 0 otherwise. A turn's events are the seat's own last ones in the round."""
    rnd = view.round
    if (
        rnd.seat is None
        or rnd.turn != rnd.seat
        or not any(isinstance(a, EndTurn) for a in rnd.legal)
    ):
        return 0
    laid = 0
    for event in reversed(rnd.history):
        if not isinstance(event, Played) or event.seat != rnd.seat:
            break
        laid += 1
    return laid


def ends_text(view: MatchView, lang: Lang) -> str | None:
    """The open ends, each with the arrow its end-choice button shows («концы: ⬅️ 3 ·
    ➡️ 5», Осёл's four with ⬆️ and ⬇️), where the game sums them as each counts and the
    sum («концы: ⬅️ 0 · ➡️ 6+6 = 12», `bot.telegram.presenter.table.listed_ends`); None on an
    empty table.

    Choice: the arrows are shown in every game, not only where more than two ends are
    open, so the hand reads the same way as its «3|5 на ➡️ 5» buttons everywhere."""
    return listed_ends(view, lang, lambda end, text: f"{ARROWS[end]} {text}")


def empty_table_text(view: MatchView, lang: Lang) -> str:
    """«Стол пуст.», and at a fixed opening which tile opens and why (`opening_text`)."""
    empty = t("hand.empty_table", lang)
    opening = opening_text(view, lang)
    return empty if opening is None else f"{empty} {opening}"


def opening_tile(view: MatchView) -> Tile | None:
    """The one tile the viewer must open the round with, on their turn at an empty table
    where the first round's opening is fixed (K-3, T-2, B-1: a given double, else a given
    tile) and they hold others; None when any tile of theirs may open, or another moves."""
    rnd = view.round
    if rnd.layout.placements or rnd.turn != rnd.seat or len(rnd.hand) < 2:
        return None
    only = rnd.legal[0] if len(rnd.legal) == 1 else None
    return only.tile if isinstance(only, Play) else None


def opening_text(view: MatchView, lang: Lang) -> str | None:
    """Why the round must open with `opening_tile`, in the game's rule of the opening
    («Первый ход — самым младшим дублем: 1|1.»); None where any tile may open."""
    tile = opening_tile(view)
    if tile is None:
        return None
    kind = "double" if tile.is_double else "tile"
    key = f"answer.opening.{view.ruleset.opening.value}"
    try:
        return t(key, lang, tile=tile_label(tile), kind=kind)
    except KeyError:  # an opening with no fixed tile (F-1, S-2) never comes here
        return None


def tile_refusal(view: MatchView, lang: Lang) -> str:
    """The answer to pressing a tile that cannot be played now, on the presser's own turn
    (`view` theirs): at a fixed opening, which tile opens and why (`opening_text`); else
    that the tile does not fit and the ✅ ones do; in Шестёрка, which half each end takes
    (a newcomer looks for the equal number); in Втемную, to a player whose tiles lie face
    down (an old keyboard's stack pressed), what «🁢 Открыть верхнюю» does."""
    if face_down(view):
        return flip_text(view, lang)
    opening = opening_text(view, lang)
    if opening is not None:
        return opening
    layout = view.round.layout
    if view.ruleset.layout is LayoutKind.SUM_SIX and layout.open_ends:
        total = SumSixLayout.sums_to
        pips = dict(layout.open_ends)  # equal ends once
        ends = ", ".join(
            t("answer.end_takes", lang, pip=pip, wanted=total - pip)
            for pip in sorted(set(pips.values()))
        )
        return t("answer.tile_sum_six", lang, ends=ends)
    return t("answer.tile_does_not_fit", lang)


def others_text(view: MatchView, names: Sequence[str], lang: Lang) -> str:
    """How many tiles everyone else holds: the partner apart from the opponents in pair
    games (K-1, M-1, S-1), then the bazaar, when the deal left one at all (C-3). In
    Втемную a 🁢 after the count of tiles that still lie face down («Боб — 5 🁢»)."""
    rnd = view.round
    assert rnd.seat is not None, "a hand is drawn from its owner's view"
    own = next(seats for seats in view.sides if rnd.seat in seats)

    def counts(seats: Sequence[int]) -> str:
        return ", ".join(
            f"{html.escape(short_name(names[seat]))} — {rnd.hand_counts[seat]}"
            + (" 🁢" if rnd.face_down and rnd.face_down[seat] else "")
            for seat in seats
        )

    partners = [seat for seat in own if seat != rnd.seat]
    rivals = [seat for seat in range(view.players) if seat not in own]
    parts = [t("hand.partner", lang, partner=counts(partners))] if partners else []
    parts.append(t("hand.others", lang, others=counts(rivals), n=len(rivals)))
    if has_bazaar(view):
        parts.append(t("table.bazaar", lang, n=rnd.bazaar_size))
    return " · ".join(parts)


def _play_ends(legal: Sequence[Action]) -> dict[Tile, list[End | None]]:
    ends: dict[Tile, list[End | None]] = {}
    for action in legal:
        if isinstance(action, Play):
            ends.setdefault(action.tile, []).append(action.end)
    return ends


def play_points(view: MatchView, plays: Mapping[Tile, Sequence[End | None]]) -> dict[Play, int]:
    """F-3: what each of `plays` (tile -> the ends it fits) would score, in games that
    score during play ({} in the others): the table of `view` laid again, the tile put on
    the end, the game asked (`GameVariant.move_points`). Only the public table and the
    viewer's own tiles are read."""
    game = view.ruleset.game
    if not game.scores_in_play or not plays:
        return {}
    table = layout_of(view.ruleset.layout, view.round.layout.placements)
    points: dict[Play, int] = {}
    for tile, ends in plays.items():
        for end in ends:
            after = table.copy()
            after.place(tile, end)
            points[Play(tile, end)] = game.move_points(view.ruleset, after.view())[0]
    return points


def _points_label(points: int) -> str:
    """A play's points on its button, «+10»; nothing for none."""
    return f" +{points}" if points else ""


def _end_label(view: MatchView, end: End | None) -> str:
    for open_end, pip in view.round.layout.open_ends:
        if open_end is end:
            return f"{ARROWS[open_end]} {pip}"
    return "•"


@functools.lru_cache(maxsize=4096)
def _info(game_id: int) -> str:
    """A tile button that is no move: it carries no move number, so it never changes (or
    needs an edit) as the game moves on; pressing it tells whose turn it is."""
    return MoveCb(game=game_id, move=0, kind=MoveKind.INFO).pack()


# A hand's keyboard is built again for every change its text shows (another's move, a
# clock), its buttons mostly the same: the buttons and their data made last are kept
# (issue 16: pydantic's checks and `pack` were ~7% of the bot's CPU per move). The
# buttons are never changed once made, so one may sit in several keyboards.
@functools.lru_cache(maxsize=16384)
def _button(text: str, data: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data)


@functools.lru_cache(maxsize=16384)
def _move_data(game_id: int, move: int, kind: MoveKind, tile: int, end: str) -> str:
    return MoveCb(game=game_id, move=move, kind=kind, tile=tile, end=end).pack()


def doubles_label(action: PlayDoubles) -> str:
    """A way to lay several doubles at once, in the order they are laid, each with the
    arrow of its end: «3|3 ⬅️ + 5|5 ➡️»."""
    return " + ".join(
        f"{tile_label(play.tile)} {ARROWS[play.end]}" for play in action.plays if play.end
    )


def hand_keyboard(
    view: MatchView,
    game_id: int,
    move: int,
    lang: Lang,
    *,
    choosing: Tile | HandMenu | None = None,
    hints: bool = False,
) -> InlineKeyboardMarkup | None:
    """Tiles as buttons: playable ones marked on the player's turn; draw or knock when
    those are the legal actions, «✔️ Сходить» in the middle of a turn of several tiles
    (section V: Блиц, Крест). Where the game allows them, one button opens the ways
    to lay several doubles at once (M-3, O-2) and one the ends a double may close (O-3).
    `choosing` shows a choice instead of the tiles: the ends for that tile, or the menu.
    `hints` (the group allows them, issue 14): on the player's turn a last row
    «💡 Подсказка», which carries the move number like every move button (not while
    Втемную's tiles lie face down: the one move needs no hint); in games that
    score during play each playable tile shows its points too (`play_points`): «✅ 5|5
    +10», «до +10» where its ends score differently, each end's in the choice of ends.

    Втемную: while the player's tiles lie face down, no tiles (none is shown, not even to
    them) but one button: «🁢 Открыть верхнюю» on their turn (`Flip`, their only move),
    else the stack «🁢 × 5» that tells whose turn it is (`_face_down_keyboard`).

    Every legal action is reachable by exactly one path of presses: a play by its tile
    (then its end, when it fits several), several doubles and a closing double from
    their menus, a draw, knock, end of the turn or flip by its button; a choice has a
    way back to the tiles."""
    rnd = view.round
    if view.over or rnd.turn is None:
        return None
    if face_down(view):
        return _face_down_keyboard(view, game_id, move, lang)
    plays = _play_ends(rnd.legal)
    points = play_points(view, plays) if hints else {}
    doubles = [a for a in rnd.legal if isinstance(a, PlayDoubles)]
    closes = [a for a in rnd.legal if isinstance(a, Close)]

    def button(
        text: str,
        kind: MoveKind,
        tile: Tile | None = None,
        end: End | None = None,
        where: str = "",
    ) -> InlineKeyboardButton:
        data = _move_data(
            game_id, move, kind, tile.index if tile else -1, end.value if end else where
        )
        return _button(text, data)

    def choice(rows: list[list[InlineKeyboardButton]]) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup(
            inline_keyboard=[*rows, [button(t("btn.back", lang), MoveKind.BACK)]]
        )

    if isinstance(choosing, Tile) and len(plays.get(choosing, [])) > 1:
        return choice(
            [
                [
                    button(
                        t("btn.end", lang, end=_end_label(view, end), tile=tile_label(choosing))
                        + _points_label(points.get(Play(choosing, end), 0)),
                        MoveKind.PLAY,
                        choosing,
                        end,
                    )
                    for end in plays[choosing]
                ]
            ]
        )
    if choosing is HandMenu.DOUBLES and doubles:
        return choice(
            [
                [button(doubles_label(action), MoveKind.DOUBLES, where=doubles_where(action))]
                for action in doubles
            ]
        )
    if choosing is HandMenu.CLOSE and closes:
        return choice(
            [
                [
                    button(
                        t(
                            "btn.close_end",
                            lang,
                            tile=tile_label(action.tile),
                            end=_end_label(view, action.end),
                        ),
                        MoveKind.CLOSE,
                        action.tile,
                        action.end,
                    )
                ]
                for action in closes
            ]
        )

    tiles: list[InlineKeyboardButton] = []
    for tile in rnd.hand:
        ends = plays.get(tile, [])
        label = f"✅ {tile_label(tile)}" + _tile_points(tile, ends, points, lang)
        if len(ends) == 1:
            tiles.append(button(label, MoveKind.PLAY, tile, ends[0]))
        elif len(ends) > 1:
            tiles.append(button(label, MoveKind.CHOOSE_END, tile))
        else:
            tiles.append(_button(tile_label(tile), _info(game_id)))
    rows = tile_rows(tiles, POINTS_TILES_PER_ROW if any(points.values()) else None)
    game = view.ruleset.game
    if doubles:
        text = t("btn.choose_doubles", lang, n=game.max_doubles)
        rows.append([button(text, MoveKind.CHOOSE_DOUBLES)])
    if closes:
        rows.append([button(t("btn.choose_close", lang), MoveKind.CHOOSE_CLOSE)])
    extra: list[InlineKeyboardButton] = []
    if any(isinstance(a, Draw) for a in rnd.legal):
        extra.append(button(t("btn.draw", lang), MoveKind.DRAW))
    if any(isinstance(a, Knock) for a in rnd.legal):
        # The knock's own name in the game: «Стучу», «Пас» in Спортивное (S-3).
        extra.append(button(t("btn.knock", lang, game=game.key.value), MoveKind.KNOCK))
    if any(isinstance(a, EndTurn) for a in rnd.legal):
        # Section V: a tile laid this turn, more may follow; this ends the turn.
        extra.append(button(t("btn.end_turn", lang), MoveKind.END_TURN))
    if extra:
        rows.append(extra)
    if hints and rnd.turn == rnd.seat and rnd.legal:
        rows.append([button(t("btn.hint", lang), MoveKind.HINT)])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def _face_down_keyboard(
    view: MatchView, game_id: int, move: int, lang: Lang
) -> InlineKeyboardMarkup:
    """Втемную, the viewer's tiles face down: «🁢 Открыть верхнюю» on their turn, else the
    stack as one button that tells whose turn it is. No «💡 Подсказка» even where the
    group allows hints: it could only say «другого хода нет», and would count in /stats
    (a forged press is refused, `bot.app.usecases.hints`)."""
    rnd = view.round
    if rnd.turn != rnd.seat or not any(isinstance(a, Flip) for a in rnd.legal):
        return InlineKeyboardMarkup(inline_keyboard=[[_stack_button(view, game_id, lang)]])
    flip = _move_data(game_id, move, MoveKind.FLIP, -1, "")
    return InlineKeyboardMarkup(inline_keyboard=[[_button(t("btn.flip", lang), flip)]])


def _stack_button(view: MatchView, game_id: int, lang: Lang) -> InlineKeyboardButton:
    """Втемную: the viewer's face-down stack, «🁢 × 5»; pressed, it says whose turn it is."""
    rnd = view.round
    assert rnd.seat is not None, "a hand is drawn from its owner's view"
    return _button(t("btn.face_down", lang, n=rnd.hand_counts[rnd.seat]), _info(game_id))


def _tile_points(
    tile: Tile, ends: Sequence[End | None], points: Mapping[Play, int], lang: Lang
) -> str:
    """A playable tile's points on its button: « +10», « до +10» when its ends score
    differently (the choice of ends shows each), "" when no end scores."""
    scores = {points.get(Play(tile, end), 0) for end in ends}
    best = max(scores, default=0)
    if not best:
        return ""
    if len(scores) > 1:
        return " " + t("btn.points_up_to", lang, points=best)
    return _points_label(best)


def action_text(view: MatchView, action: Action, lang: Lang) -> str:
    """A move in the words of the hand's own buttons: «5|5 на ⬅️ 3» (a tile on an end),
    «5|5» (the round's first tile), «3|3 ⬅️ + 5|5 ➡️», «🔒 Закрыть …», «🎲 Взять из
    базара», «✊ Стучу» / «🤚 Пас», «✔️ Сходить»,
    «🁢 Открыть верхнюю». `view` is the position the move is for."""
    if isinstance(action, Play):
        if action.end is None:
            return tile_label(action.tile)
        return t("btn.end", lang, end=_end_label(view, action.end), tile=tile_label(action.tile))
    if isinstance(action, PlayDoubles):
        return doubles_label(action)
    if isinstance(action, Close):
        return t(
            "btn.close_end", lang, tile=tile_label(action.tile), end=_end_label(view, action.end)
        )
    if isinstance(action, Draw):
        return t("btn.draw", lang)
    if isinstance(action, EndTurn):
        return t("btn.end_turn", lang)
    if isinstance(action, Flip):
        return t("btn.flip", lang)
    return t("btn.knock", lang, game=view.ruleset.game.key.value)


def hint_text(
    view: MatchView, action: Action, reason: str, args: Mapping[str, int], lang: Lang
) -> str:
    """A hint as its alert shows it, to the presser only (issue 14): the move and its
    one-line reason, «💡 5|5 на ⬅️ 3 — дубль лучше сбросить пораньше». The reason is the
    text `hint.reason.<reason>` (`domino.ai.REASONS`) with its numbers and the game's
    key (a chance reads as the game counts: to stay козёл, or to win); a reason this
    version has no text for, or whose numbers do not fit its text, leaves the move alone.

    «✔️ Сходить» (section V) keeps only the reasons that tell why the table and the hand
    are best left as they are (`END_TURN_REASONS`); one that speaks of a tile laid
    (a heavy tile, a double, going out) would not fit it, and `hint.end_turn` says
    instead that the other tiles are best kept for later turns."""
    move = action_text(view, action, lang)
    if isinstance(action, EndTurn) and reason not in END_TURN_REASONS:
        return t("hint.shown", lang, move=move, reason=t("hint.end_turn", lang))
    try:
        why = t(f"hint.reason.{reason}", lang, **args, game=view.ruleset.game.key.value)
    except KeyError:
        return t("hint.move_only", lang, move=move)
    return t("hint.shown", lang, move=move, reason=why)


END_TURN_REASONS = frozenset(
    ("keep_suits", "block", "block_leader", "avoid_fish", "search", "safe_ends")
)
"""The reasons of `domino.ai.REASONS` that also tell why a turn of several tiles is best
ended now: what is kept in hand, the ends left to the others, a fish avoided, a search."""


def doubles_where(action: PlayDoubles) -> str:
    """`MoveCb.end` of the button that lays `action`'s doubles (`bot.telegram.callbacks.Where`)."""
    return doubles_payload((play.tile.low, play.end.value) for play in action.plays if play.end)


def away_keyboard(view: MatchView, game_id: int, lang: Lang) -> InlineKeyboardMarkup:
    """The hand of a person a computer plays for: their tiles (press: whose turn it is),
    in Втемную while they lie face down the stack instead, and "I'm back"."""
    tiles = [_button(tile_label(tile), _info(game_id)) for tile in view.round.hand]
    if face_down(view):
        tiles = [_stack_button(view, game_id, lang)]
    back = InlineKeyboardButton(
        text=t("btn.back_in_game", lang), callback_data=BackCb(game=game_id).pack()
    )
    return InlineKeyboardMarkup(inline_keyboard=[*tile_rows(tiles), [back]])
