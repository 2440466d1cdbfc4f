"""The group's side of a match: the caption under the table picture and the
announcements of a finished round and match. Built from the public view only: no
tile of anyone's hand is ever written in the group (the picture shows the table).

Nothing here asks which game is played: the words that differ between games are text
keys built from the game's key (`announce.loser.kozel`, `event.knocked.sport`), and
the rest is asked of the game object (`MatchView.ruleset.game`)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import Lang, t
from bot.presenter.common import score_line, score_text, short_name, side_names, variant_name
from domino.actions import Closed, Drew, Event, Knocked, Played
from domino.tiles import SET_SIZE
from domino.views import MatchView, OutcomeKind, RoundResult


@dataclass(frozen=True, slots=True)
class Shown:
    """One line of the caption's recent moves: an event, and how many plays by the same
    seat it stands for (several doubles laid in one turn, M-3 and O-2, are one move)."""

    event: Event
    plays: int = 1


def event_text(shown: Shown, names: Sequence[str], game_key: str, lang: Lang) -> str:
    """A move as the group reads it. No tile in the text: the picture shows the table,
    and the privacy check of the tests can then demand that no tile is ever written in
    the group at all."""
    event = shown.event
    name = short_name(names[event.seat])
    if isinstance(event, Played):
        if shown.plays > 1:
            return t("event.doubles", lang, name=name, n=shown.plays)
        return t("event.played", lang, name=name)
    if isinstance(event, Closed):
        return t("event.closed", lang, name=name)
    if isinstance(event, Knocked):
        return t(f"event.knocked.{game_key}", lang, name=name)
    return t("event.drew", lang, name=name)


def recent_events(view: MatchView, limit: int = 3) -> Sequence[Shown]:
    """The last few public moves: a run of draws by one seat folded into one, and the
    doubles one seat laid in one turn (consecutive plays of one seat) into one."""
    folded: list[Shown] = []
    for event in view.round.history:
        last = folded[-1].event if folded else None
        if last is not None and event.seat == last.seat:
            if isinstance(event, Drew) and isinstance(last, Drew):
                continue
            if isinstance(event, Played) and isinstance(last, Played):
                folded[-1] = Shown(event, folded[-1].plays + 1)
                continue
        folded.append(Shown(event))
    return folded[-limit:]


def has_bazaar(view: MatchView) -> bool:
    """Whether the deal left a bazaar at all (C-3: four players with seven tiles each,
    as in Спортивное, leave none, and the caption then does not count it)."""
    return view.ruleset.hand_size(view.players) * view.players < SET_SIZE


def open_ends_text(view: MatchView, lang: Lang) -> str | None:
    """The pips a tile can go on ("концы: 3 · 5"); None on an empty table."""
    ends = view.round.layout.open_ends
    if not ends:
        return None
    return t("table.ends", lang, ends=" · ".join(str(pip) for _, pip in ends))


def table_caption(view: MatchView, names: Sequence[str], lang: Lang) -> str:
    """The caption under the group's table picture; built from the public view."""
    rnd = view.round
    game = view.ruleset.game
    lines = [
        t("table.title", lang, variant=variant_name(view.ruleset.variant, lang), n=view.round_no)
    ]
    if view.over:
        lines.append(t("table.over", lang))
        lines.extend(result_lines(view, names, lang))
    elif rnd.turn is not None:
        lines.append(t("table.turn", lang, name=html.escape(short_name(names[rnd.turn]))))
    if rnd.turned and not rnd.layout.placements and rnd.turn is not None and not view.over:
        # S-2: who leads was decided by the turned tiles, which the picture shows.
        lines.append(t("table.turned", lang, name=html.escape(short_name(names[rnd.turn]))))
    lines.append("")
    # Seats in turn order (issue 15, item 6: in pairs too, partners are not adjacent);
    # a seat alone on its side shows its score, pairs' scores follow the seats.
    for seat in range(view.players):
        side = view.side_of(seat)
        marker = "▶️ " if rnd.turn == seat and not view.over else ""
        alone = len(view.sides[side]) == 1
        lines.append(
            f"{marker}{html.escape(short_name(names[seat]))} — "
            + t("table.tiles", lang, n=rnd.hand_counts[seat])
            + (f" · {score_text(view, side)}" if alone else "")
        )
    for side, seats in enumerate(view.sides):
        if len(seats) > 1:
            team = html.escape(side_names(names, seats))
            lines.append(t("table.team_score", lang, names=team, score=score_text(view, side)))
    facts = [t("table.bazaar", lang, n=rnd.bazaar_size)] if has_bazaar(view) else []
    ends = open_ends_text(view, lang)
    if ends is not None:
        facts.append(ends)
    if rnd.layout.closed_ends:
        facts.append(t("table.closed", lang, n=len(rnd.layout.closed_ends)))
    if view.eggs:
        facts.append(f"🥚 +{view.eggs}")
    tail = [" · ".join(facts)] if facts else []
    events = recent_events(view)
    if events:
        moves = " → ".join(html.escape(event_text(e, names, game.key.value, lang)) for e in events)
        tail.append(t("table.recent", lang, moves=moves))
    if tail:
        lines.extend(["", *tail])
    return "\n".join(lines)


def result_lines(view: MatchView, names: Sequence[str], lang: Lang) -> list[str]:
    """Who lost and who won a match that is over (issue 15, item 4), in the game's own
    words: «🐐 Козёл: Алиса.», «Проигрыш: Алиса.» (K-10, O-6; a match someone abandoned,
    K-11), «🏆 Победа — Боб» (T-6, M-6, S-6); nothing for a match cancelled with nobody
    to blame. Plain names, escaped for HTML."""

    def sides(indices: Sequence[int]) -> str:
        return ", ".join(html.escape(side_names(names, view.sides[s])) for s in indices)

    lines = []
    if view.losers:
        lines.append(t(f"loser.{view.ruleset.game.key.value}", lang, names=sides(view.losers)))
    if view.winners:
        lines.append(t("announce.winner", lang, names=sides(view.winners)))
    return lines


def round_end_text(view: MatchView, result: RoundResult, names: Sequence[str], lang: Lang) -> str:
    """The announcement of a finished round: who went out, or fish and the fisherman;
    a draw where nobody scores (a fish tied for the lowest, T-5, S-5), or a winner with
    too little to write (M-1); the eggs."""
    who = html.escape(short_name(names[result.outcome.seat]))
    game = view.ruleset.game
    if result.outcome.kind is OutcomeKind.WENT_OUT:
        lines = [t("announce.went_out", lang, name=who, n=result.round_no)]
    else:
        lines = [t("announce.fish", lang, name=who, n=result.round_no)]
    if game.drawn(result):
        lines.append(t("announce.draw", lang))
    elif game.too_few(result):
        lines.append(t("announce.too_few", lang, points=game.min_written))
    if result.eggs_after > result.eggs_before or (
        result.eggs_after and result.eggs_taken_by is None
    ):
        lines.append(t("announce.eggs", lang, points=result.eggs_after))
    elif result.eggs_taken_by is not None and result.eggs_before:
        taker = html.escape(side_names(names, view.sides[result.eggs_taken_by]))
        lines.append(t("announce.eggs_taken", lang, name=taker, points=result.eggs_before))
    if not view.over and any(account.remembered for account in (*result.before, *result.after)):
        # K-7: the sheet drawn above shows remembered points as «+N»; said once here,
        # while the match runs (once it is over, nothing is left to write them to).
        lines.append(t("announce.remembered", lang, threshold=view.ruleset.open_threshold))
    return "\n".join(lines)


def match_end_text(
    view: MatchView, names: Sequence[str], lang: Lang, *, last_tile_won: bool = False
) -> str:
    """The end of a match: the loser in the game's own word where points are bad
    («🐐 Козёл — NAME», «🫏 Осёл — NAME», K-10, O-6), else the winner (T-6, M-6, S-6);
    then the final scores, best first, so the loser comes last. `last_tile_won`: the
    last round's tile decided the match (`Match.won_by_last_tile`), said first."""

    def side(index: int) -> str:
        return html.escape(side_names(names, view.sides[index]))

    game = view.ruleset.game
    lines = []
    if last_tile_won and view.results:
        who = html.escape(short_name(names[view.results[-1].outcome.seat]))
        lines.append(t(f"announce.last_tile.{game.key.value}", lang, name=who))
    if view.losers:
        losers = ", ".join(side(s) for s in view.losers)
        lines.append(t(f"announce.loser.{game.key.value}", lang, names=losers))
    else:
        lines.append(t("announce.winner", lang, names=", ".join(side(s) for s in view.winners)))
    order = sorted(
        range(len(view.sides)),
        key=lambda index: view.scores[index].recorded,
        reverse=not game.points_are_bad,
    )
    lines.extend(score_line(side(index), view.scores[index].recorded) for index in order)
    return "\n".join(lines)
