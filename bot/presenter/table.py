"""The group's side of a match: the caption under the table picture and the
announcements of a finished round and match. Built from the public view only: no
tile of anyone's hand is ever written in the group."""

from __future__ import annotations

import html
from collections.abc import Sequence

from bot.i18n import Lang, t
from bot.presenter.common import score_line, score_text, short_name, side_names, variant_name
from domino.actions import Event, Knocked, Played
from domino.views import MatchView, OutcomeKind, RoundResult


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


def open_ends_text(view: MatchView, lang: Lang) -> str | None:
    """The pips a tile can go on ("концы: 3 · 5"); None on an empty table."""
    ends = view.round.layout.open_ends
    if not ends:
        return None
    return t("table.ends", lang, ends=" · ".join(str(pip) for _, pip in ends))


def table_caption(view: MatchView, names: Sequence[str], lang: Lang) -> str:
    """The caption under the group's table picture; built from the public view."""
    rnd = view.round
    lines = [
        t("table.title", lang, variant=variant_name(view.ruleset.variant, lang), n=view.round_no)
    ]
    if view.over:
        lines.append(t("table.over", lang))
    elif rnd.turn is not None:
        lines.append(t("table.turn", lang, name=html.escape(short_name(names[rnd.turn]))))
    lines.append("")
    for side, seats in enumerate(view.sides):
        score = score_text(view, side)
        for seat in seats:
            marker = "▶️ " if rnd.turn == seat and not view.over else ""
            lines.append(
                f"{marker}{html.escape(short_name(names[seat]))} — "
                + t("table.tiles", lang, n=rnd.hand_counts[seat])
                + ("" if len(seats) > 1 else f" · {score}")
            )
        if len(seats) > 1:
            team = html.escape(side_names(names, seats))
            lines.append(t("table.team_score", lang, names=team, score=score))
    lines.append("")
    facts = [t("table.bazaar", lang, n=rnd.bazaar_size)]
    ends = open_ends_text(view, lang)
    if ends is not None:
        facts.append(ends)
    if view.eggs:
        facts.append(f"🥚 +{view.eggs}")
    lines.append(" · ".join(facts))
    events = recent_events(view)
    if events:
        lines.append(" → ".join(html.escape(event_text(e, names, lang)) for e in events))
    return "\n".join(lines)


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
        taker = html.escape(side_names(names, view.sides[result.eggs_taken_by]))
        lines.append(t("announce.eggs_taken", lang, name=taker, points=result.eggs_before))
    return "\n".join(lines)


def match_end_text(view: MatchView, names: Sequence[str], lang: Lang) -> str:
    """«🐐 Козёл — NAME» (or the winner in Классика) with the final scores."""

    def side(index: int) -> str:
        return html.escape(side_names(names, view.sides[index]))

    if view.losers:  # the game's points are bad (K-10): the match names its козёл
        lines = [t("announce.goat", lang, names=", ".join(side(s) for s in view.losers))]
    else:
        lines = [t("announce.winner", lang, names=", ".join(side(s) for s in view.winners))]
    order = sorted(range(len(view.sides)), key=lambda index: view.scores[index].recorded)
    lines.extend(score_line(side(index), view.scores[index].recorded) for index in order)
    return "\n".join(lines)
