"""A tournament's tables as they count and move on, inside the transaction of whatever
ended them (docs/tournaments.md, "Running it"): a match's end (`table_ended`, called by
`bot.app.usecases.base.end_game`), a forfeit, a withdrawal. Each records the table's
result, then draws what is due next (the next round, Swiss-paired from the stored
results) or finishes the tournament (`advance`), and owes the group its announcements
in the same transaction.

Kept apart from `bot.app.usecases.tournaments` (the use cases people press) because the
game's own use cases reach it through `end_game`: it imports nothing of the use cases.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from datetime import UTC, datetime

from bot.app import standings as match_standings
from bot.app.effects import NOTHING, Effects
from domino import elo
from domino.tournament import (
    Bye,
    Format,
    TableResult,
    bye_half_points,
    swiss_round,
)
from storage import repo
from storage import tournaments as store
from storage.db import Transaction
from storage.records import (
    Ending,
    EntrantRecord,
    GameRecord,
    TableDue,
    TableRecord,
    TableState,
    TournamentRecord,
    TournamentStatus,
)

log = logging.getLogger(__name__)

# The outbox's kinds for tournaments (payloads: `announce`).
ROUND = "tournament_round"  # {tournament_id, round_no}: a round's tables announced
TABLE = "tournament_table"  # {tournament_id, round_no, table_no}: a result, the standings
END = "tournament_end"  # {tournament_id}: the final standings, the winner
FORFEIT = "tournament_forfeit"  # {tournament_id, round_no, table_no}: who did not show up


def utcnow() -> datetime:
    return datetime.now(UTC)


async def announce(tx: Transaction, tournament: TournamentRecord, kind: str, **values: int) -> None:
    """Owe the tournament's group an announcement of `kind`, sent after the commit."""
    await repo.enqueue(
        tx,
        game_id=None,
        chat_id=tournament.chat_id,
        kind=kind,
        payload={"tournament_id": tournament.id, **values},
    )


def entrant_name(entrant: EntrantRecord) -> str:
    """An entrant as the group reads it: a pair as both names."""
    if entrant.partner_name is not None:
        return f"{entrant.name} + {entrant.partner_name}"
    return entrant.name


def due_of(tournament: TournamentRecord) -> tuple[TableDue, ...]:
    """The tournament's tables for the front ends to open; none while it is not running
    (a paused one opens nothing new)."""
    if tournament.status is not TournamentStatus.RUNNING:
        return ()
    return tuple(
        TableDue(
            tournament.id,
            tournament.chat_id,
            tournament.thread_id,
            table.round_no,
            table.table_no,
            tuple(entrant_name(tournament.entrants[n]) for n in table.entrants),
        )
        for table in tournament.tables
        if table.state is TableState.DUE
    )


def absent_from_outset(tournament: TournamentRecord, table: TableRecord) -> frozenset[int]:
    """The table's entrants forfeited before it opens: those withdrawn by its round."""
    return (
        frozenset(n for n in table.entrants if tournament.entrants[n].withdrawn_by(table.round_no))
        | table.absent
    )


def forfeit_result(table: TableRecord, absent: frozenset[int]) -> TableResult:
    """A table where no match is played (fewer than two present): the present score
    against each absentee, the absent nothing (`domino.tournament.table_half_points`)."""
    places = tuple(1 if n in absent else 0 for n in table.entrants)
    return TableResult(
        table.round_no, table.entrants, places, tuple(0.0 for _ in table.entrants), absent
    )


def match_result(table: TableRecord, game: GameRecord) -> TableResult:
    """The table's result from its ended match, ranked as the stats rank it
    (`bot.app.standings.score`): by final points, the better first by the game's
    direction; after an abandonment by the points then, the culprit's side last. A
    match that counts for nobody (cancelled with nobody to blame, a lobby cancelled) and
    a match drawn by agreement put everyone level. Seat `i` is entrant
    `entrants[i % n]` (in pairs, partners sit opposite); an entrant forfeited at the
    table (a computer played the seat) is ranked by nothing, the present among
    themselves. The margin is an entrant's final points against the present others'
    average, turned so that more is better."""
    entrants, absent = table.entrants, table.absent
    match = game.match
    level = tuple(0 if n not in absent else 1 for n in entrants)
    zero = tuple(0.0 for _ in entrants)
    if match is None:
        return TableResult(table.round_no, entrants, level, zero, absent)
    scored = match_standings.score(game)
    drawn = game.ending is Ending.DRAW and game.abandonment is None
    if scored is None or drawn:
        return TableResult(table.round_no, entrants, level, zero, absent)
    variant = match.ruleset.game
    first = game.abandonment
    if first is not None:
        place_points = first.points
        last: tuple[int, ...] = match.sides[match.side_of(first.seat)]
    else:
        place_points, last = match.seat_points(), ()
    seat_places = elo.places(place_points, fewer_is_better=variant.points_are_bad, last=last)
    points = match.seat_points()
    count = len(entrants)
    place_of = {entrants[i]: seat_places[i] for i in range(count)}  # a pair: its first seat
    points_of = {entrants[i]: points[i] for i in range(count)}
    present = [n for n in entrants if n not in absent]
    ranks = sorted({place_of[n] for n in present})
    places = tuple(ranks.index(place_of[n]) if n not in absent else len(ranks) for n in entrants)
    sign = -1.0 if variant.points_are_bad else 1.0
    margins = []
    for n in entrants:
        others = [points_of[m] for m in present if m != n]
        if n in absent or not others:
            margins.append(0.0)
        else:
            margins.append(sign * (points_of[n] - sum(others) / len(others)))
    return TableResult(table.round_no, entrants, places, tuple(margins), absent)


async def record(
    tx: Transaction, tournament: TournamentRecord, table: TableRecord, result: TableResult
) -> TournamentRecord:
    """The table counts: its result stored (DONE) and announced with the standings."""
    done = dataclasses.replace(table, state=TableState.DONE, result=result, absent=result.absent)
    await announce(tx, tournament, TABLE, round_no=table.round_no, table_no=table.table_no)
    return tournament.with_table(done)


async def settle_due(tx: Transaction, tournament: TournamentRecord) -> TournamentRecord:
    """The due tables of the current round where fewer than two can be present (the
    others withdrew): no match, the forfeit counted at once."""
    for table in tournament.tables:
        if table.state is not TableState.DUE or table.round_no != tournament.current_round:
            continue
        absent = absent_from_outset(tournament, table)
        if len(table.entrants) - len(absent) < 2:
            current = tournament.table(table.round_no, table.table_no)
            assert current is not None
            tournament = await record(tx, tournament, current, forfeit_result(table, absent))
    return tournament


def round_byes(tournament: TournamentRecord, round_no: int, byes: Sequence[int]) -> tuple[Bye, ...]:
    """The round's byes (`bye_half_points`: nothing in a round robin)."""
    options = tournament.options
    halves = bye_half_points(options.format, options.table_size)
    return tuple(Bye(round_no, entrant, halves) for entrant in byes)


def draw_round(tournament: TournamentRecord, number: int) -> TournamentRecord | None:
    """Round `number` drawn and due: the round robin's planned round, or the next Swiss
    round paired by the standings of what was played, among those not withdrawn. None
    when it cannot be drawn (fewer than two left to pair)."""
    options = tournament.options
    if options.format is Format.ROUND_ROBIN:
        tables = tuple(
            dataclasses.replace(t, state=TableState.DUE)
            if t.round_no == number and t.state is TableState.PLANNED
            else t
            for t in tournament.tables
        )
        seated = {n for t in tables if t.round_no == number for n in t.entrants}
        if not seated:
            return None
        byes = [e.number for e in tournament.entrants if e.number not in seated]
        return dataclasses.replace(
            tournament,
            tables=tables,
            byes=tournament.byes + round_byes(tournament, number, byes),
            current_round=number,
        )
    active = [e.number for e in tournament.entrants if not e.withdrawn_by(number)]
    if len(active) < 2:
        return None
    results = [t.result for t in tournament.tables if t.result is not None]
    drawn = swiss_round(number, active, options.table_size, results, tournament.byes)
    new_tables = tuple(
        TableRecord(number, table_no, table.entrants, TableState.DUE)
        for table_no, table in enumerate(drawn.tables, start=1)
    )
    return dataclasses.replace(
        tournament,
        tables=tournament.tables + new_tables,
        byes=tournament.byes + round_byes(tournament, number, drawn.byes),
        current_round=number,
    )


async def begin_round(
    tx: Transaction, tournament: TournamentRecord, number: int
) -> TournamentRecord | None:
    """Round `number` drawn, announced, its forfeits counted; None if it cannot be. A
    paused tournament's round is announced when it resumes (`announce_unopened`): none
    of its tables opens before, and nobody is told to take a seat that is not there."""
    drawn = draw_round(tournament, number)
    if drawn is None:
        return None
    if drawn.status is TournamentStatus.RUNNING:
        await announce(tx, drawn, ROUND, round_no=number)
    return await settle_due(tx, drawn)


async def announce_unopened(tx: Transaction, tournament: TournamentRecord) -> None:
    """The tournament resumed: its current round is announced if it was drawn during the
    pause (tables due, none of them opened yet)."""
    current = [t for t in tournament.tables if t.round_no == tournament.current_round]
    if any(t.state is TableState.DUE for t in current) and all(t.game_id is None for t in current):
        await announce(tx, tournament, ROUND, round_no=tournament.current_round)


async def advance(tx: Transaction, tournament: TournamentRecord) -> TournamentRecord:
    """What is due after a change: while the current round is all done, the next one is
    drawn (its forfeits counted at once may end it too), or, after the last round (or
    with nobody left to pair), the tournament is finished. Saved; the caller's effects
    come from `effects_of`."""
    tournament = await settle_due(tx, tournament)
    while all(
        t.state is TableState.DONE
        for t in tournament.tables
        if t.round_no == tournament.current_round
    ):
        number = tournament.current_round + 1
        drawn = None
        if number <= tournament.round_count():
            drawn = await begin_round(tx, tournament, number)
        if drawn is None:
            tournament = dataclasses.replace(
                tournament, status=TournamentStatus.FINISHED, ended_at=utcnow()
            )
            await announce(tx, tournament, END)
            log.info("chat %s tournament %s: finished", tournament.chat_id, tournament.id)
            break
        tournament = drawn
    return await store.save(tx, tournament)


def effects_of(tournament: TournamentRecord) -> Effects:
    """A committed change of the tournament: its message, its tables due, its
    announcements."""
    return Effects(tournaments=(tournament.id,), tables_due=due_of(tournament), announcements=True)


async def table_ended(tx: Transaction, game: GameRecord) -> Effects:
    """`end_game`'s step for a game at a tournament table: the table's result, once
    (only while the table waits for this game), and what is due next. A game of a
    cancelled tournament counts for nobody there. An ordinary game's end frees its
    topic: the tables due in its group are offered again."""
    ref = game.tournament
    if ref is None:
        return await topic_freed(tx, game.chat_id)
    tournament = await store.load(tx, ref.tournament_id)
    if tournament is None or tournament.status not in (
        TournamentStatus.RUNNING,
        TournamentStatus.PAUSED,
    ):
        return NOTHING
    table = tournament.table(ref.round_no, ref.table_no)
    if table is None or table.game_id != game.id or not table.state.in_play:
        return NOTHING
    result = match_result(table, game)
    tournament = await record(tx, tournament, table, result)
    saved = await advance(tx, tournament)
    log.info(
        "chat %s tournament %s: round %d table %d counted (game %s)",
        game.chat_id,
        saved.id,
        ref.round_no,
        ref.table_no,
        game.id,
    )
    return effects_of(saved)


async def topic_freed(tx: Transaction, chat_id: int) -> Effects:
    """A game of the group that was no tournament's ended, or its lobby closed unplayed:
    its topic is free, so the tables due in the group are offered again."""
    due: list[TableDue] = []
    for waiting in await store.with_due_tables(tx, chat_id=chat_id):
        due.extend(due_of(waiting))
    return Effects(tables_due=tuple(due)) if due else NOTHING


async def group_lost(tx: Transaction, chat_id: int) -> Effects:
    """The bot was removed from the group: its tournaments end there, cancelled, before
    their tables' games are (so those count for nobody in them and open no next table
    in a group the bot cannot write to)."""
    effects = NOTHING
    for tournament_id in await store.live_of_chat(tx, chat_id):
        tournament = await store.load(tx, tournament_id)
        if tournament is None:
            continue
        ended = dataclasses.replace(
            tournament, status=TournamentStatus.CANCELLED, ended_at=utcnow()
        )
        await store.save(tx, ended)
        log.warning(
            "chat %s tournament %s: the bot was removed from the group", chat_id, tournament_id
        )
        effects += Effects(tournaments=(tournament_id,))
    return effects
