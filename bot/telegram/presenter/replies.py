"""A use case's `Reply` (a key and values) as the text Telegram shows: each domain value
written as every screen writes it (`common`), the hint and a refused tile composed by
the hand's presenter."""

from __future__ import annotations

from collections.abc import Mapping

from bot.app.reply import Hint, Loser, Reply, SeatScore, Side, TileRefused, Tiles
from bot.telegram.presenter.common import score_line, short_name, tile_label
from bot.telegram.presenter.hand import tile_refusal
from bot.telegram.presenter.moves import hint_text
from domino.ai import Level
from domino.tiles import Tile
from i18n import Lang, t


def reply_text(reply: Reply, lang: Lang) -> str:
    """The reply's text in `lang`; "" for a reply with no text."""
    if not reply.key:
        return ""
    hint = reply.values.get("hint")
    if isinstance(hint, Hint):
        return hint_text(hint.view, hint.action, hint.reason, hint.args, lang)
    refused = reply.values.get("refused")
    if isinstance(refused, TileRefused):
        return tile_refusal(refused.view, lang)
    return t(reply.key, lang, **shown_values(reply.values, lang))


def shown_values(values: Mapping[str, object], lang: Lang) -> dict[str, object]:
    """Values as a text takes them: numbers and strings as they are, domain values
    written out (plain text: an HTML caller escapes the result)."""
    return {key: shown(value, lang) for key, value in values.items()}


def shown(value: object, lang: Lang) -> object:
    if isinstance(value, Level):  # as the lobby's buttons name it: «Сильный»
        return t(f"level.{value.value}", lang)
    if isinstance(value, Tile):
        return tile_label(value)
    if isinstance(value, Tiles):
        return ", ".join(tile_label(tile) for tile in value.tiles)
    if isinstance(value, Side):
        return side_text(value)
    if isinstance(value, Loser):
        return t(f"loser.{value.game}", lang, names=side_text(value.side))
    if isinstance(value, tuple) and all(isinstance(v, SeatScore) for v in value):
        return "\n".join(
            score_line(short_name(v.name), v.points, v.gain)
            for v in value
            if isinstance(v, SeatScore)
        )
    return value


def side_text(side: Side) -> str:
    return " + ".join(short_name(name) for name in side.names)
