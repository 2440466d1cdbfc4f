"""A player's hand in their private chat: the text above its buttons
(`bot.telegram.presenter.hand_keyboard`), and why a tile cannot go now. Built only from
the owner's own view (`MatchView.round.hand`)."""

from __future__ import annotations

import html
from collections.abc import Sequence

from bot.telegram.presenter.common import (
    score_text,
    short_name,
    side_names,
    tile_label,
    variant_name,
)
from bot.telegram.presenter.moves import ARROWS
from bot.telegram.presenter.table import (
    cut_names_stopped,
    has_bazaar,
    listed_ends,
    result_lines,
)
from domino.actions import EndTurn, Play, Played
from domino.layout import SumSixLayout
from domino.round import FACE_UP
from domino.rules import LayoutKind
from domino.tiles import Tile
from domino.views import MatchView
from i18n import Lang, t


def hand_text(
    view: MatchView,
    names: Sequence[str],
    chat_title: str,
    lang: Lang,
    *,
    drew: Sequence[Tile] = (),
    away: bool = False,
    here: bool = False,
) -> str:
    """The text above a player's hand keyboard. `view` is that player's own view; `away`:
    a computer moves for them, so their turns read like anyone else's; `here`: the hand
    shown inside the group, which need not say that the table is in the group.

    Втемную: while the player's tiles lie face down the hand shows none (the view holds
    none: nobody sees them, not even their owner), only how many there are, and on
    their turn what «⬛ Открыть верхнюю» does, or, once the tile it turned up fits both
    ends, that they choose the end (`turned_up_text`); once turned up, that they may lay
    several a turn."""
    rnd = view.round
    assert rnd.seat is not None, "a hand is drawn from its owner's view"
    suffix = "_here" if here else ""  # inside the group: no "the table is in the group"
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
            # «Имя: счёт»: a name ending in a digit («🤖 Компьютер 1») never runs into it.
            f"{html.escape(side_names(names, seats))}: {score_text(view, side)}"
            for side, seats in enumerate(view.sides)
        ),
    )
    partners = [seat for seat in view.sides[view.side_of(rnd.seat)] if seat != rnd.seat]
    if view.over:
        # Over (also ended early, `bot.telegram.presenter.endings.ended_view`): no turn, the result.
        lines.append(t("hand.over", lang))
        lines.extend(result_lines(view, names, lang))
        lines.append(scores)
        return cut_names_stopped("\n".join(lines))
    if rnd.turn != rnd.seat or away:
        # Off turn the text changes only with the player's own hand and the scores (and
        # in pairs as the partner's turn comes and goes), so opponents' moves cost no
        # edit here (Telegram's limits); the tile buttons answer whose turn it is.
        # Pairs: who the partner is (at the turn `others_text` says).
        if partners:
            partner = ", ".join(html.escape(short_name(names[seat])) for seat in partners)
            lines.append(t("hand.your_partner", lang, name=partner))
        if rnd.turn is not None and rnd.turn in partners:
            name = html.escape(short_name(names[rnd.turn]))
            lines.append(t("hand.partner_turn" + suffix, lang, name=name))
        elif len(rnd.hand_counts) == 2 and rnd.turn is not None and rnd.turn != rnd.seat:
            # One opponent: named (the text still changes only when the turn does).
            name = html.escape(short_name(names[rnd.turn]))
            lines.append(t("hand.waiting_for" + suffix, lang, name=name))
        else:
            # Втемную face down: the one button is the stack, «⬛ × 5».
            waiting = "hand.waiting_face_down" if face_down(view) else "hand.waiting"
            lines.append(t(waiting + suffix, lang))
        if face_down(view):
            lines.append(face_down_text(view, lang))
        lines.append(scores)
        if view.eggs:  # the pot changes only between rounds: no edit more off turn
            lines.append(f"🥚 +{view.eggs}")
        return cut_names_stopped("\n".join(lines))
    lines.append(t("hand.your_turn", lang))
    if face_down(view):
        lines.extend((face_down_text(view, lang), turned_up_text(view, lang)))
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
    return cut_names_stopped("\n".join(lines))


def face_down(view: MatchView) -> bool:
    """Втемную: whether the viewer's own tiles lie face down (their only move a `Flip`)."""
    rnd = view.round
    return rnd.seat is not None and bool(rnd.face_down) and rnd.face_down[rnd.seat]


def face_down_text(view: MatchView, lang: Lang) -> str:
    """Втемную: «⬛ Ваши кости лежат рубашкой вверх: 5 костей…», the count alone; a tile
    the viewer turned up, waiting for its end, no longer lies face down and is not
    counted."""
    rnd = view.round
    assert rnd.seat is not None, "a hand is drawn from its owner's view"
    n = rnd.hand_counts[rnd.seat] - (rnd.turned_up is not None and rnd.turn == rnd.seat)
    return t("hand.face_down", lang, n=n, up=FACE_UP)


def turned_up_text(view: MatchView, lang: Lang) -> str:
    """Втемную, on the viewer's turn with their tiles face down: the tile they turned up
    that fits both ends and is theirs to lay, «Открылась 3|5: …выберите, к какому концу
    её положить.» (`RoundView.turned_up`, public: everyone saw it), else what «⬛ Открыть
    верхнюю» does (`flip_text`)."""
    tile = view.round.turned_up
    if tile is None:
        return flip_text(view, lang)
    return t("hand.flip_choice", lang, tile=tile_label(tile))


def flip_text(view: MatchView, lang: Lang) -> str:
    """Втемную: what «⬛ Открыть верхнюю» does; while the bazaar has a tile to give, also
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
    sum («концы: ⬅️ 0 · ➡️ 6+6 = 12», `bot.telegram.presenter.table.listed_ends`); an end
    closed for good in its place, «➡️ 🔒» (O-3); None on an empty table.

    Choice: the arrows are shown in every game, not only where more than two ends are
    open, so the hand reads the same way as its «3|5 на ➡️ 5» buttons everywhere; the
    table picture writes the same arrow beside each end's badge (`render.table.ARROWS`),
    so «⬆️ 3» is found on the table however the arms wind."""
    return listed_ends(view, lang, lambda end, text: f"{ARROWS[end]} {text}", closed=True)


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
    down (an old keyboard's stack pressed), what «⬛ Открыть верхнюю» does, or, with a
    tile turned up that fits both ends, that they choose its end."""
    if face_down(view):
        return turned_up_text(view, lang)
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
    Втемную a ⬛ after the count of tiles that still lie face down («Боб — 5 ⬛»)."""
    rnd = view.round
    assert rnd.seat is not None, "a hand is drawn from its owner's view"
    own = next(seats for seats in view.sides if rnd.seat in seats)

    def counts(seats: Sequence[int]) -> str:
        return ", ".join(
            f"{html.escape(short_name(names[seat]))} — {rnd.hand_counts[seat]}"
            + (" ⬛" if rnd.face_down and rnd.face_down[seat] else "")
            for seat in seats
        )

    partners = [seat for seat in own if seat != rnd.seat]
    rivals = [seat for seat in range(view.players) if seat not in own]
    parts = [t("hand.partner", lang, partner=counts(partners))] if partners else []
    parts.append(t("hand.others", lang, others=counts(rivals), n=len(rivals)))
    if has_bazaar(view):
        parts.append(t("table.bazaar", lang, n=rnd.bazaar_size))
    return " · ".join(parts)
