"""The group's side of a match: the caption under the table picture and the
announcements of a finished round and match. Built from the public view only: no
tile of anyone's hand is ever written in the group (the picture shows the table; the
tile Втемную turns up that fits nowhere is everyone's to see, `event_text`).

Nothing here asks which game is played: the words that differ between games are text
keys built from the game's key (`announce.loser.kozel`, `event.knocked.sport`), and
the rest is asked of the game object (`MatchView.ruleset.game`): in games that score
during play (`GameVariant.scores_in_play`: F-3, B-1) the caption adds what each recent
play scored («Алиса кладёт кость: +10») and, where that sum scores, the sum of the open
ends, in the same edited message (a group takes about 20 messages a minute: no message
per scoring move)."""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.app.names import ELLIPSIS
from bot.telegram.presenter.common import (
    score_line,
    score_text,
    short_name,
    side_names,
    tile_label,
    variant_name,
)
from domino.actions import Closed, Drew, Ended, Event, Flipped, Knocked, Played, TurnedUp
from domino.all_fives import end_halves
from domino.geometry import End
from domino.layout import SumSixLayout, new_layout
from domino.rules import LayoutKind
from domino.tiles import SET_SIZE
from domino.variants import find_variant
from domino.views import MatchView, OutcomeKind, RoundResult
from i18n import Lang, t


@dataclass(frozen=True, slots=True)
class Shown:
    """One line of the caption's recent moves: an event, how many plays by the same
    seat it stands for (several doubles laid in one turn, M-3 and O-2, are one move, and
    so are the tiles of a turn of several in Блиц and Крест, section V),
    how many times in a row the seat made that same move (`times`: tiles drawn one after
    another, «берёт из базара ×3»), and the points those plays scored as they were
    played (F-3; 0 in other games)."""

    event: Event
    plays: int = 1
    points: int = 0
    times: int = 1


def event_text(shown: Shown, names: Sequence[str], game_key: str, lang: Lang) -> str:
    """A move as the group reads it, «×N» after a move made N times in a row. No tile in
    the text: the picture shows the table, and the privacy check of the tests can then
    demand that no tile of a hand is ever written in the group. The one exception is
    Втемную's tile turned up that fitted nowhere (`Flipped`): everyone at the table saw
    it before it went under its stack, so the caption names it, «Алиса открывает 2|5: не
    подходит, уходит под стопку» (a tile that fits reads as any play); and one that fits
    both ends (`TurnedUp`), in sight until its owner lays it, «Алиса открывает 3|5:
    подходит к обоим концам — выбирает конец» (the play that follows reads as any)."""
    text = _move_text(shown, names, game_key, lang)
    return text if shown.times == 1 else t("event.repeated", lang, move=text, n=shown.times)


def _move_text(shown: Shown, names: Sequence[str], game_key: str, lang: Lang) -> str:
    event = shown.event
    name = short_name(names[event.seat])
    if isinstance(event, Played):
        if shown.plays > 1:  # no game that scores during play lays several at once
            several = "event.tiles" if find_variant(game_key).many_per_turn else "event.doubles"
            return t(several, lang, name=name, n=shown.plays)
        if shown.points:
            return t("event.scored", lang, name=name, points=shown.points)
        return t("event.played", lang, name=name)
    if isinstance(event, Closed):
        return t("event.closed", lang, name=name)
    if isinstance(event, Knocked):
        return t(f"event.knocked.{game_key}", lang, name=name)
    if isinstance(event, Ended):  # folded into its turn's tiles (`recent_events`) if there
        return t("event.ended", lang, name=name)
    if isinstance(event, Flipped):
        key = "event.flipped_drew" if event.drew else "event.flipped"
        return t(key, lang, name=name, tile=tile_label(event.tile))
    if isinstance(event, TurnedUp):
        return t("event.flip_choice", lang, name=name, tile=tile_label(event.tile))
    return t("event.drew", lang, name=name)


def recent_events(view: MatchView, limit: int = 3) -> Sequence[Shown]:
    """The last few public moves, none the same as the one before it: a run of draws (or
    knocks) by one seat folded into one, counted (`Shown.times`), and the doubles one
    seat laid in one turn (consecutive plays of one seat) into one; each with the points
    its plays scored, in games that score during play.

    Section V (Блиц, Крест): the tiles of one turn are consecutive plays of one seat too,
    «Алиса кладёт 3 кости»; a turn ended by «✔️ Сходить» (`Ended`) adds nothing to its
    line (the turn marker has moved on), so a turn reads the same however it ended."""
    folded: list[tuple[int, Shown]] = []  # (index of the first event in the history, shown)
    for index, event in enumerate(view.round.history):
        if folded:
            first, shown = folded[-1]
            last = shown.event
            same_seat = event.seat == last.seat
            if same_seat and isinstance(event, Drew | Knocked) and type(event) is type(last):
                folded[-1] = (first, dataclasses.replace(shown, times=shown.times + 1))
                continue
            if same_seat and isinstance(event, Played) and isinstance(last, Played):
                folded[-1] = (first, Shown(event, shown.plays + 1))
                continue
            if same_seat and isinstance(event, Ended) and isinstance(last, Played):
                continue
        folded.append((index, Shown(event)))
    recent = folded[-limit:]
    if not recent:
        return []
    scored = play_points(view, since=recent[0][0])
    ends = [first for first, _ in recent[1:]] + [len(view.round.history)]
    return [
        dataclasses.replace(shown, points=sum(scored.get(i, 0) for i in range(first, end)))
        for (first, shown), end in zip(recent, ends, strict=True)
    ]


def play_points(view: MatchView, since: int = 0) -> dict[int, int]:
    """F-3: the points each play of the current round scored as it was laid, by its
    index in `view.round.history` (from `since` on; plays that scored nothing left out),
    in games that score during play; {} in the others. The table is laid again from its
    placements (each play or closed double laid one, in order) and the game asked what
    each play scored (`GameVariant.move_points`), so «+N» goes with the very play that
    made it (`MatchView.scored` names only the round's last such play)."""
    game = view.ruleset.game
    if not game.scores_in_play:
        return {}
    placements = view.round.layout.placements
    layout = new_layout(view.ruleset.layout)
    points: dict[int, int] = {}
    laid = 0
    for index, event in enumerate(view.round.history):
        if not isinstance(event, Played | Closed):
            continue
        placement = placements[laid]
        layout.place(placement.tile, placement.end, closed=placement.closed)
        laid += 1
        if isinstance(event, Played) and index >= since:
            scored, _ = game.move_points(view.ruleset, layout.view())
            if scored:
                points[index] = scored
    return points


def has_bazaar(view: MatchView) -> bool:
    """Whether the deal left a bazaar anybody may draw from (C-3: four players with seven
    tiles each, as in Спортивное, leave none; Блиц shares out all 28, and with three the
    one tile left lies face down all round, C-6's reserve): the caption then does not
    count it (as the picture, `render.labels.has_bazaar`)."""
    ruleset = view.ruleset
    return SET_SIZE - ruleset.hand_size(view.players) * view.players > ruleset.bazaar_reserve


def listed_ends(
    view: MatchView,
    lang: Lang,
    label: Callable[[End, str], str] = lambda _, text: text,
    *,
    closed: bool = False,
) -> str | None:
    """The open ends, each as `label` writes it (the hand adds its arrows); None on an
    empty table. Where the game scores the sum of the open ends (`GameVariant.sums_ends`,
    F-3) each end is written as it counts and the sum follows, so that it visibly adds
    up: «концы: 0 · 6+6 = 12» (a double across an end counts both halves), «5 — пока
    пусто (0)» for a spinner's arm with no tile yet; in Шестёрка each end with the half
    it takes, «концы: 2 (к нему — 4) · 0 (к нему — 6)»; elsewhere the pips alone,
    «концы: 3 · 5», and with `closed` the ends closed for good among them in their
    place, «концы: ⬅️ 3 · ➡️ 🔒 · ⬆️ 5» (O-3: the hand, whose arrows name every end)."""
    layout = view.round.layout
    if not layout.open_ends:
        return None
    game = view.ruleset.game
    if view.ruleset.layout is LayoutKind.SUM_SIX:
        # Шестёрка: an end takes the half that makes 6 with it, which the list says.
        total = SumSixLayout.sums_to
        pips = " · ".join(
            label(end, t("table.end_wanted", lang, pip=pip, wanted=total - pip))
            for end, pip in layout.open_ends
        )
        return t("table.ends", lang, ends=pips)
    if not game.sums_ends:
        shown = [(end, str(pip)) for end, pip in layout.open_ends]
        if closed:
            shown += [(end, "🔒") for end in layout.closed_ends]
            shown.sort(key=lambda item: list(End).index(item[0]))
        pips = " · ".join(label(end, text) for end, text in shown)
        return t("table.ends", lang, ends=pips)
    halves = end_halves(layout)  # F-3, end by end
    terms = " · ".join(
        label(end, _counted(pip, halves[end], lang)) for end, pip in layout.open_ends
    )
    _, count = game.move_points(view.ruleset, layout)
    return t("table.ends_sum", lang, ends=terms, count=count)


def _counted(pip: int, halves: int, lang: Lang) -> str:
    """An end as it counts in the sum: «6», «6+6» (both halves), «5 — пока пусто
    (0)» (a spinner's arm with no tile yet counts nothing, F-3)."""
    if not halves:
        return t("table.end_uncounted", lang, pip=pip)
    return "+".join([str(pip)] * halves)


def open_ends_text(view: MatchView, lang: Lang) -> str | None:
    """The caption's open ends: «концы: 3 · 5», where the game sums them «концы: 0 · 6+6
    = 12» (`listed_ends`); None on an empty table."""
    return listed_ends(view, lang)


def cut_names_stopped(text: str) -> str:
    """`text` with no full stop after a cut name's «…»: a sentence that ends on the name
    ends on its ellipsis («Ходит Вильгельмо…», not «Вильгельмо….»)."""
    return text.replace(ELLIPSIS + ".", ELLIPSIS)


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
    # Seats in turn order (in pairs too, partners are not adjacent);
    # a seat alone on its side shows its score, pairs' scores follow the seats. In
    # Втемную the tiles that still lie face down say so («5 костей рубашкой вверх»).
    for seat in range(view.players):
        side = view.side_of(seat)
        marker = "▶️ " if rnd.turn == seat and not view.over else ""
        alone = len(view.sides[side]) == 1
        tiles = t("table.tiles", lang, n=rnd.hand_counts[seat])
        if rnd.face_down and rnd.face_down[seat]:
            tiles = t("table.face_down", lang, tiles=tiles)
        lines.append(
            f"{marker}{html.escape(short_name(names[seat]))} — "
            + tiles
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
    return cut_names_stopped("\n".join(lines))


def result_lines(view: MatchView, names: Sequence[str], lang: Lang) -> list[str]:
    """Who lost and who won a match that is over, in the game's own
    words: «🐐 Козёл: Алиса.», «Проигрыш: Алиса.» (K-10, O-6; a match someone abandoned,
    K-11), «🏆 Победа — Боб» (T-6, M-6, S-6); nothing for a match cancelled with nobody
    to blame. Plain names, escaped for HTML."""

    def sides(indices: Sequence[int]) -> str:
        return ", ".join(html.escape(side_names(names, view.sides[s])) for s in indices)

    lines = []
    if view.losers:
        lines.append(t(f"loser.{view.ruleset.game.key.value}", lang, names=sides(view.losers)))
    if view.winners:
        lines.append(winner_line(view, names, lang))
    return lines


def winner_line(view: MatchView, names: Sequence[str], lang: Lang) -> str:
    """«🏆 Победа — Боб»; the winning sides by their names, escaped for HTML, and how
    many people they are (one winner or several)."""
    winners = ", ".join(html.escape(side_names(names, view.sides[s])) for s in view.winners)
    people = sum(len(view.sides[s]) for s in view.winners)
    return t("announce.winner", lang, names=winners, n=people)


def side_text(view: MatchView, names: Sequence[str], side: int, lang: Lang) -> str:
    """A side in a sentence, escaped for HTML: the name alone, or «пара A + B»."""
    seats = view.sides[side]
    text = html.escape(side_names(names, seats))
    return text if len(seats) == 1 else t("announce.pair", lang, names=text)


def round_end_text(view: MatchView, result: RoundResult, names: Sequence[str], lang: Lang) -> str:
    """The announcement of a finished round: who went out, or fish and the fisherman,
    or the side whose move reached the match's target mid-round (F-6); a draw where
    nobody scores (a fish tied for the lowest, T-5, S-5), or a winner with too little
    to write (M-1); the eggs; in games that score during play, each side's points in
    the round (its moves' and its end's together, as `RoundResult.points` holds them)."""
    outcome = result.outcome
    who = html.escape(short_name(names[outcome.seat]))
    game = view.ruleset.game
    if outcome.kind is OutcomeKind.WENT_OUT:
        lines = [t("announce.went_out", lang, name=who, n=result.round_no)]
    elif outcome.kind is OutcomeKind.FISH:
        lines = [t("announce.fish", lang, name=who, n=result.round_no, game=game.key.value)]
    else:
        side = view.side_of(outcome.seat)
        lines = [
            t(
                "announce.reached",
                lang,
                name=side_text(view, names, side, lang),
                points=result.after[side].recorded,
                n=result.round_no,
            )
        ]
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
    if game.scores_in_play:
        points = " · ".join(
            f"{html.escape(side_names(names, seats))} +{result.points[side]}"
            for side, seats in enumerate(view.sides)
        )
        lines.append(t("announce.round_points", lang, points=points))
    if not view.over and any(account.remembered for account in (*result.before, *result.after)):
        # K-7: the sheet drawn above shows remembered points as «+N»; said once here,
        # while the match runs (once it is over, nothing is left to write them to).
        lines.append(t("announce.remembered", lang, threshold=view.ruleset.open_threshold))
    return "\n".join(lines)


def match_end_text(
    view: MatchView,
    names: Sequence[str],
    lang: Lang,
    *,
    last_tile_won: bool = False,
    notes: Sequence[str] = (),
) -> str:
    """The end of a match: the loser in the game's own word where points are bad
    («🐐 Козёл — NAME», «🐴 Осёл — NAME», K-10, O-6), else the winner(s) (T-6, M-6,
    S-6), as `view` has them (the stats' result of a match someone abandoned:
    `bot.telegram.game_messages.shown_view`), then `notes` (why, and the rating:
    `presenter.endings.played_out_notes`); then the final scores on the board, best
    first. `last_tile_won`: the last round's tile decided the match
    (`Match.won_by_last_tile`), said first."""

    def side(index: int) -> str:
        return html.escape(side_names(names, view.sides[index]))

    game = view.ruleset.game
    lines = []
    if last_tile_won and view.results:
        who = html.escape(short_name(names[view.results[-1].outcome.seat]))
        lines.append(t(f"announce.last_tile.{game.key.value}", lang, name=who))
    if view.losers and game.points_are_bad:
        losers = ", ".join(side(s) for s in view.losers)
        lines.append(t(f"announce.loser.{game.key.value}", lang, names=losers))
    else:
        lines.append(winner_line(view, names, lang))
    lines.extend(notes)
    order = sorted(
        range(len(view.sides)),
        key=lambda index: view.scores[index].recorded,
        reverse=not game.points_are_bad,
    )
    lines.extend(score_line(side(index), view.scores[index].recorded) for index in order)
    return "\n".join(lines)
