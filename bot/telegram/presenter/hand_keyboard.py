"""A player's hand as buttons, built only from the owner's own view
(`MatchView.round.hand`).

A move button carries the engine's text of its action (`MoveCb`: `str(action)`); the
buttons that make no move (a choice to open, back, a tile that cannot go, the hint)
carry a `HandCb`. In games that score during play (F-3) a group that allows hints sees
on each playable tile what its play would score («✅ 5|5 +10»), and in the choice of
ends what each end would (`play_points`)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.app.effects import Menu
from bot.telegram.callbacks import BackCb, HandCb, HandKind, MoveCb
from bot.telegram.presenter.common import tile_label, tile_rows
from bot.telegram.presenter.hand import face_down
from bot.telegram.presenter.moves import (
    doubles_label,
    end_label,
    play_points,
    points_label,
)
from domino.actions import (
    DRAW,
    END_TURN,
    FLIP,
    KNOCK,
    Action,
    Close,
    Draw,
    EndTurn,
    Flip,
    Knock,
    Play,
    PlayDoubles,
)
from domino.geometry import End
from domino.tiles import Tile
from domino.views import MatchView
from i18n import Lang, t

POINTS_TILES_PER_ROW = 3
"""Tile buttons a row when they carry points («✅ 5|5 +10»): four such do not fit a
phone's row without being cut."""


# A hand's keyboard is built again for every change its text shows (another's move, a
# clock), its buttons mostly the same: the buttons and their data made last are kept,
# since pydantic's checks and `pack` are a noticeable part of a move's work. The
# buttons are never changed once made, so one may sit in several keyboards.
@functools.lru_cache(maxsize=16384)
def _button(text: str, data: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data)


@functools.lru_cache(maxsize=16384)
def _move_data(game_id: int, move: int, action: Action) -> str:
    return MoveCb(game=game_id, move=move, action=str(action)).pack()


@functools.lru_cache(maxsize=16384)
def _hand_data(game_id: int, move: int, kind: HandKind, tile: Tile | None = None) -> str:
    return HandCb(game=game_id, move=move, kind=kind, tile=str(tile) if tile else "").pack()


def _info(game_id: int) -> str:
    """A tile button that is no move: it carries no move number, so it never changes (or
    needs an edit) as the game moves on; pressing it tells why not, or whose turn it is."""
    return _hand_data(game_id, 0, HandKind.INFO)


def offer_draw_button(game_id: int, round_no: int, lang: Lang) -> InlineKeyboardButton:
    """«🤝 Предложить ничью» under a running match's hand: it carries the round it was
    drawn in (a press from an earlier round is stale; one offer a round is the core's)."""
    return _button(t("btn.offer_draw", lang), _hand_data(game_id, round_no, HandKind.OFFER_DRAW))


def _play_ends(legal: Sequence[Action]) -> dict[Tile, list[End | None]]:
    ends: dict[Tile, list[End | None]] = {}
    for action in legal:
        if isinstance(action, Play):
            ends.setdefault(action.tile, []).append(action.end)
    return ends


def hand_keyboard(
    view: MatchView,
    game_id: int,
    move: int,
    lang: Lang,
    *,
    choosing: Tile | Menu | None = None,
    hints: bool = False,
) -> InlineKeyboardMarkup | None:
    """Tiles as buttons: playable ones marked on the player's turn; draw or knock when
    those are the legal actions, «✔️ Сходить» in the middle of a turn of several tiles
    (section V: Блиц, Крест). Where the game allows them, one button opens the ways
    to lay several doubles at once (M-3, O-2) and one the ends a double may close (O-3).
    `choosing` shows a choice instead of the tiles: the ends for that tile, or the menu.
    `hints` (the group allows them): on the player's turn a last row «💡 Подсказка»,
    which carries the move number like every move button (not while Втемную's tiles
    lie face down: the one move needs no hint); in games that score during play each
    playable tile shows its points too (`play_points`): «✅ 5|5 +10», «до +10» where
    its ends score differently, each end's in the choice of ends.

    Втемную: while the player's tiles lie face down, no tiles (none is shown, not even to
    them) but one button: «⬛ Открыть верхнюю» on their turn (`Flip`, their only move),
    else the stack «⬛ × 5» that tells whose turn it is; once they turned up a tile that
    fits both ends, its two ends to choose from (`_face_down_keyboard`).

    Every legal action is reachable by exactly one path of presses: a play by its tile
    (then its end, when it fits several), several doubles and a closing double from
    their menus, a draw, knock, end of the turn or flip by its button; a choice has a
    way back to the tiles."""
    rnd = view.round
    if view.over or rnd.turn is None:
        return None
    if face_down(view):
        return _face_down_keyboard(view, game_id, move, lang, hints=hints)
    plays = _play_ends(rnd.legal)
    points = play_points(view, plays) if hints else {}
    doubles = [a for a in rnd.legal if isinstance(a, PlayDoubles)]
    closes = [a for a in rnd.legal if isinstance(a, Close)]

    def move_button(text: str, action: Action) -> InlineKeyboardButton:
        return _button(text, _move_data(game_id, move, action))

    def hand_button(text: str, kind: HandKind, tile: Tile | None = None) -> InlineKeyboardButton:
        return _button(text, _hand_data(game_id, move, kind, tile))

    def choice(rows: list[list[InlineKeyboardButton]]) -> InlineKeyboardMarkup:
        back = hand_button(t("btn.back", lang), HandKind.BACK)
        return InlineKeyboardMarkup(inline_keyboard=[*rows, [back]])

    if isinstance(choosing, Tile) and len(plays.get(choosing, [])) > 1:
        return choice([_end_buttons(view, game_id, move, choosing, plays[choosing], points, lang)])
    if choosing is Menu.DOUBLES and doubles:
        return choice([[move_button(doubles_label(action), action)] for action in doubles])
    if choosing is Menu.CLOSE and closes:
        return choice(
            [
                [
                    move_button(
                        t(
                            "btn.close_end",
                            lang,
                            tile=tile_label(action.tile),
                            end=end_label(view, action.end),
                        ),
                        action,
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
            tiles.append(move_button(label, Play(tile, ends[0])))
        elif len(ends) > 1:
            tiles.append(hand_button(label, HandKind.ENDS, tile))
        else:
            tiles.append(_button(tile_label(tile), _info(game_id)))
    rows = tile_rows(tiles, POINTS_TILES_PER_ROW if any(points.values()) else None)
    game = view.ruleset.game
    if doubles:
        text = t("btn.choose_doubles", lang, n=game.max_doubles)
        rows.append([hand_button(text, HandKind.DOUBLES)])
    if closes:
        rows.append([hand_button(t("btn.choose_close", lang), HandKind.CLOSE)])
    extra: list[InlineKeyboardButton] = []
    if any(isinstance(a, Draw) for a in rnd.legal):
        extra.append(move_button(t("btn.draw", lang), DRAW))
    if any(isinstance(a, Knock) for a in rnd.legal):
        # The knock's own name in the game: «Стучу», «Пас» in Спортивное (S-3).
        extra.append(move_button(t("btn.knock", lang, game=game.key.value), KNOCK))
    if any(isinstance(a, EndTurn) for a in rnd.legal):
        # Section V: a tile laid this turn, more may follow; this ends the turn.
        extra.append(move_button(t("btn.end_turn", lang), END_TURN))
    if extra:
        rows.append(extra)
    if hints and rnd.turn == rnd.seat and rnd.legal:
        rows.append([hand_button(t("btn.hint", lang), HandKind.HINT)])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def _end_buttons(
    view: MatchView,
    game_id: int,
    move: int,
    tile: Tile,
    ends: Sequence[End | None],
    points: Mapping[Play, int],
    lang: Lang,
) -> list[InlineKeyboardButton]:
    """The choice of ends for a tile that fits several: «3|5 на ⬅️ 3», «3|5 на ➡️ 5», each
    with its points where the play scores (`play_points`)."""
    return [
        _button(
            t("btn.end", lang, end=end_label(view, end), tile=tile_label(tile))
            + points_label(points.get(Play(tile, end), 0)),
            _move_data(game_id, move, Play(tile, end)),
        )
        for end in ends
    ]


def _face_down_keyboard(
    view: MatchView, game_id: int, move: int, lang: Lang, *, hints: bool
) -> InlineKeyboardMarkup:
    """Втемную, the viewer's tiles face down: «⬛ Открыть верхнюю» on their turn, else the
    stack as one button that tells whose turn it is. No «💡 Подсказка» for the flip even
    where the group allows hints: it could only say «другого хода нет», and would count
    in /stats (a forged press is refused, `bot.app.usecases.hints`).

    A tile they turned up that fits both ends (`RoundView.turned_up`, public) is theirs
    to lay: the turn's buttons are its two plays, as in the choice of ends for any tile
    that fits two (no way back: there is no other move), and «💡 Подсказка» where the
    group allows hints, since this choice is a real one."""
    rnd = view.round
    if rnd.turn == rnd.seat and rnd.turned_up is not None:
        ends = _play_ends(rnd.legal).get(rnd.turned_up, [])
        points = play_points(view, {rnd.turned_up: ends}) if hints else {}
        rows = [_end_buttons(view, game_id, move, rnd.turned_up, ends, points, lang)]
        if hints:
            rows.append([_button(t("btn.hint", lang), _hand_data(game_id, move, HandKind.HINT))])
        return InlineKeyboardMarkup(inline_keyboard=rows)
    if rnd.turn != rnd.seat or not any(isinstance(a, Flip) for a in rnd.legal):
        return InlineKeyboardMarkup(inline_keyboard=[[_stack_button(view, game_id, lang)]])
    flip = _move_data(game_id, move, FLIP)
    return InlineKeyboardMarkup(inline_keyboard=[[_button(t("btn.flip", lang), flip)]])


def _stack_button(view: MatchView, game_id: int, lang: Lang) -> InlineKeyboardButton:
    """Втемную: the viewer's face-down stack, «⬛ × 5»; pressed, it says whose turn it is."""
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
    return points_label(best)


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
