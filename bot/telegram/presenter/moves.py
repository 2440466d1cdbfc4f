"""Moves in the words of the hand's own buttons: a tile on an end («5|5 на ⬅️ 3»),
several doubles, a closing double, a draw, a knock; what a play would score where the
game scores during play (F-3); and a hint as its alert shows it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.telegram.presenter.common import tile_label
from domino.actions import Action, Close, Draw, EndTurn, Flip, Play, PlayDoubles
from domino.geometry import End
from domino.layout import layout_of
from domino.tiles import Tile
from domino.views import MatchView
from i18n import Lang, t

ARROWS = {End.LEFT: "⬅️", End.RIGHT: "➡️", End.UP: "⬆️", End.DOWN: "⬇️"}


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


def points_label(points: int) -> str:
    """A play's points on its button, «+10»; nothing for none."""
    return f" +{points}" if points else ""


def end_label(view: MatchView, end: End | None) -> str:
    """An open end as the buttons show it, its arrow and pip («⬅️ 3»); «•» for none."""
    for open_end, pip in view.round.layout.open_ends:
        if open_end is end:
            return f"{ARROWS[open_end]} {pip}"
    return "•"


def doubles_label(action: PlayDoubles) -> str:
    """A way to lay several doubles at once, in the order they are laid, each with the
    arrow of its end: «3|3 ⬅️ + 5|5 ➡️»."""
    return " + ".join(
        f"{tile_label(play.tile)} {ARROWS[play.end]}" for play in action.plays if play.end
    )


def action_text(view: MatchView, action: Action, lang: Lang) -> str:
    """A move in the words of the hand's own buttons: «5|5 на ⬅️ 3» (a tile on an end),
    «5|5» (the round's first tile), «3|3 ⬅️ + 5|5 ➡️», «🔒 Закрыть …», «🎲 Взять из
    базара», «✊ Стучу» / «🤚 Пас», «✔️ Сходить»,
    «⬛ Открыть верхнюю». `view` is the position the move is for."""
    if isinstance(action, Play):
        if action.end is None:
            return tile_label(action.tile)
        return t("btn.end", lang, end=end_label(view, action.end), tile=tile_label(action.tile))
    if isinstance(action, PlayDoubles):
        return doubles_label(action)
    if isinstance(action, Close):
        return t(
            "btn.close_end", lang, tile=tile_label(action.tile), end=end_label(view, action.end)
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
    """A hint as its alert shows it, to the presser only: the move and its
    one-line reason, «💡 5|5 на ⬅️ 3 — дубль лучше сбросить пораньше». The reason is the
    text `hint.reason.<reason>` (`domino.ai.REASONS`) with its numbers and the game's
    key (a likely outcome reads as the game counts: not the козёл, or the match won); a
    reason this version has no text for, or whose numbers do not fit its text, leaves the
    move alone.

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
    ("keep_suits", "block", "block_leader", "avoid_fish", "search", "search_likely", "safe_ends")
)
"""The reasons of `domino.ai.REASONS` that also tell why a turn of several tiles is best
ended now: what is kept in hand, the ends left to the others, a fish avoided, a search."""
