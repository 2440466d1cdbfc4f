"""A player's hand in their private chat: the text above it and the tiles as buttons.
Built only from the owner's own view (`MatchView.round.hand`)."""

from __future__ import annotations

import html
from collections.abc import Sequence

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import BackCb, MoveCb, MoveKind
from bot.i18n import Lang, t
from bot.presenter.common import (
    score_text,
    short_name,
    side_names,
    tile_label,
    tile_rows,
    variant_name,
)
from bot.presenter.table import open_ends_text
from domino.actions import Action, Draw, Knock, Play
from domino.geometry import End
from domino.tiles import Tile
from domino.views import MatchView

ARROWS = {End.LEFT: "⬅️", End.RIGHT: "➡️", End.UP: "⬆️", End.DOWN: "⬇️"}


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
    if view.over or rnd.turn != rnd.seat or away:
        # Off turn the text changes only with the player's own hand and the scores, so
        # other people's moves cost no edit here (Telegram's limits); the tile buttons
        # answer whose turn it is when pressed.
        lines.append(t("hand.over" if view.over else "hand.waiting", lang))
        lines.append(scores)
        return "\n".join(lines)
    lines.append(t("hand.your_turn", lang))
    if drew:
        lines.append(t("hand.drew", lang, tiles=", ".join(str(x) for x in drew)))
    lines.append(open_ends_text(view, lang) or t("hand.empty_table", lang))
    others = [
        f"{html.escape(short_name(names[seat]))}: {rnd.hand_counts[seat]}"
        for seat in range(view.players)
        if seat != rnd.seat
    ]
    lines.append(t("hand.others", lang, others=", ".join(others), bazaar=rnd.bazaar_size))
    lines.append(scores)
    if view.eggs:
        lines.append(f"🥚 +{view.eggs}")
    return "\n".join(lines)


def _play_ends(legal: Sequence[Action]) -> dict[Tile, list[End | None]]:
    ends: dict[Tile, list[End | None]] = {}
    for action in legal:
        if isinstance(action, Play):
            ends.setdefault(action.tile, []).append(action.end)
    return ends


def _end_label(view: MatchView, end: End | None) -> str:
    for open_end, pip in view.round.layout.open_ends:
        if open_end is end:
            return f"{ARROWS[open_end]} {pip}"
    return "•"


def _info(game_id: int) -> str:
    """A tile button that is no move: it carries no move number, so it never changes (or
    needs an edit) as the game moves on; pressing it tells whose turn it is."""
    return MoveCb(game=game_id, move=0, kind=MoveKind.INFO).pack()


def hand_keyboard(
    view: MatchView, game_id: int, move: int, lang: Lang, *, choosing: Tile | None = None
) -> InlineKeyboardMarkup | None:
    """Tiles as buttons: playable ones marked on the player's turn; draw or knock when
    those are the legal actions; with `choosing`, the choice of end for that tile."""
    rnd = view.round
    if view.over or rnd.turn is None:
        return None
    plays = _play_ends(rnd.legal)

    def button(
        text: str, kind: MoveKind, tile: Tile | None = None, end: End | None = None
    ) -> InlineKeyboardButton:
        data = MoveCb(
            game=game_id,
            move=move,
            kind=kind,
            tile=tile.index if tile else -1,
            end=end.value if end else "",
        ).pack()
        return InlineKeyboardButton(text=text, callback_data=data)

    if choosing is not None and len(plays.get(choosing, [])) > 1:
        row = [
            button(
                t("btn.end", lang, end=_end_label(view, end), tile=str(choosing)),
                MoveKind.PLAY,
                choosing,
                end,
            )
            for end in plays[choosing]
        ]
        return InlineKeyboardMarkup(
            inline_keyboard=[row, [button(t("btn.back", lang), MoveKind.BACK)]]
        )

    tiles: list[InlineKeyboardButton] = []
    for tile in rnd.hand:
        ends = plays.get(tile, [])
        if len(ends) == 1:
            tiles.append(button(f"✅ {tile_label(tile)}", MoveKind.PLAY, tile, ends[0]))
        elif len(ends) > 1:
            tiles.append(button(f"✅ {tile_label(tile)}", MoveKind.CHOOSE_END, tile))
        else:
            tiles.append(InlineKeyboardButton(text=tile_label(tile), callback_data=_info(game_id)))
    rows = tile_rows(tiles)
    extra: list[InlineKeyboardButton] = []
    if any(isinstance(a, Draw) for a in rnd.legal):
        extra.append(button(t("btn.draw", lang), MoveKind.DRAW))
    if any(isinstance(a, Knock) for a in rnd.legal):
        extra.append(button(t("btn.knock", lang), MoveKind.KNOCK))
    if extra:
        rows.append(extra)
    return InlineKeyboardMarkup(inline_keyboard=rows)


def away_keyboard(view: MatchView, game_id: int, lang: Lang) -> InlineKeyboardMarkup:
    """The hand of a person a computer plays for: their tiles (press: whose turn it is)
    and "I'm back"."""
    tiles = [
        InlineKeyboardButton(text=tile_label(tile), callback_data=_info(game_id))
        for tile in view.round.hand
    ]
    back = InlineKeyboardButton(
        text=t("btn.back_in_game", lang), callback_data=BackCb(game=game_id).pack()
    )
    return InlineKeyboardMarkup(inline_keyboard=[*tile_rows(tiles), [back]])
