"""Tournaments through the core's use cases (`bot.app.usecases.tournaments`, the lobby's
hooks, `end_game`'s): a real database file, no front end. Sign-up, options and who may
set them; the start (its refusals, computers, pairs, the stored schedule); the tables'
lobbies (only the drawn join, the match starts by itself); every ending counted once
at its table and the next round due; the show-up deadline's forfeits; withdrawals;
pause, resume, cancel; a restart; /history and /stats."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.app.effects import Done, Effects
from bot.app.group_settings import GroupSettings
from bot.app.people import People, Person
from bot.app.reply import Reply
from bot.app.thinker import Thinker
from bot.app.usecases import Chats, Context, Endings, Lobby, Playing, Tournaments, Viewing
from bot.app.usecases.base import end_game
from bot.app.usecases.endings import first_abandoner
from domino.ai import Level
from domino.tournament import Format
from i18n import Lang
from i18n import t as text_of
from storage import repo
from storage.connect import open_database
from storage.db import Database
from storage.records import (
    ChatRecord,
    ChatSettings,
    Ending,
    GameRecord,
    GameStatus,
    HandsPlace,
    TableDue,
    TableRecord,
    TableState,
    TournamentRecord,
    TournamentStatus,
)
from tests.bot.app_setup import FakeTime, make

CHAT = ChatRecord(-100500, "supergroup", "Турнирная")
OTHER = ChatRecord(-100600, "supergroup", "Соседи")
PEOPLE = [
    Person(700 + i, name, language_code="ru")
    for i, name in enumerate(("Алиса", "Боб", "Вера", "Гена", "Дина", "Егор", "Жора", "Зоя", "Ира"))
]
ALICE, BOB, VERA, GENA = PEOPLE[:4]
OUTSIDER = Person(799, "Чужой", language_code="ru")


async def no_admin(chat_id: int) -> bool:
    return False


async def admin(chat_id: int) -> bool:
    return True


@dataclasses.dataclass
class Core:
    db: Database
    context: Context
    tournaments: Tournaments
    lobby: Lobby
    endings: Endings
    playing: Playing
    effects: list[Effects] = dataclasses.field(default_factory=list)

    async def run(self, work: Any) -> Any:
        done = await work
        assert isinstance(done, Done)
        self.effects.append(done.effects)
        return done.value

    async def get(self, tournament_id: int = 1) -> TournamentRecord:
        tournament = await self.tournaments.get(tournament_id)
        assert tournament is not None
        return tournament

    async def table(self, tournament_id: int, round_no: int, table_no: int) -> TableRecord:
        table = (await self.get(tournament_id)).table(round_no, table_no)
        assert table is not None
        return table

    async def game(self, game_id: int) -> GameRecord:
        game = await repo.load_game(self.db, game_id)
        assert game is not None
        return game

    async def outbox(self, kind: str) -> list[dict[str, Any]]:
        return [item.payload for item in await repo.pending_outbox(self.db) if item.kind == kind]


def build(db: Database) -> Core:
    people = People(db)
    settings = GroupSettings(db, people)
    context = Context(
        db=db,
        people=people,
        settings=settings,
        bot_username="domino_test_bot",
        new_seed=lambda: 7,
        vote_time=timedelta(minutes=2),
        lobby_deadline=lambda chat_id: None,
    )
    return Core(
        db,
        context,
        Tournaments(context),
        Lobby(context),
        Endings(context),
        Playing(context, Thinker(workers=1)),
    )


@pytest.fixture
async def core(tmp_path: Path) -> AsyncIterator[Core]:
    database = await open_database(tmp_path / "tournaments.sqlite3")
    built = build(database)
    await built.context.settings.load()
    try:
        yield built
    finally:
        await database.close()


async def opened(core: Core, people: int, **options: str) -> int:
    """A tournament opened by Алиса in CHAT, the first `people` signed up in order, the
    options set by her: its id."""
    await core.run(core.tournaments.open(CHAT, None, ALICE))
    tournament = await core.tournaments.current(CHAT.id, None)
    assert tournament is not None
    for person in PEOPLE[:people]:
        assert await core.run(core.tournaments.sign_up(tournament.id, CHAT.id, person)) == Reply(
            "tournament.signed_up"
        )
    for name, value in options.items():
        answer = await core.run(
            core.tournaments.set_option(tournament.id, CHAT.id, ALICE, no_admin, name, value)
        )
        assert answer == Reply(), (name, value, answer)
    return tournament.id


async def started(core: Core, people: int, **options: str) -> int:
    tid = await opened(core, people, **options)
    answer = await core.run(core.tournaments.start(tid, CHAT.id, ALICE, no_admin))
    assert answer == Reply("tournament.started")
    return tid


def person_of(user_id: int) -> Person:
    return next(p for p in PEOPLE if p.id == user_id)


async def open_and_seat(core: Core, tid: int, round_no: int, table_no: int) -> GameRecord:
    """The table opened and every person drawn to it seated: its game (started, unless
    someone is missing)."""
    await core.run(core.tournaments.open_table(tid, round_no, table_no, None))
    tournament = await core.get(tid)
    table = tournament.table(round_no, table_no)
    assert table is not None and table.game_id is not None
    for number in table.entrants:
        for user_id in tournament.entrants[number].people:
            answer = await core.run(core.lobby.join(table.game_id, CHAT.id, person_of(user_id)))
            assert answer == Reply("answer.joined"), answer
    return await core.game(table.game_id)


async def surrender(core: Core, game: GameRecord, person: Person) -> None:
    answer = await core.run(core.endings.surrender(game.id, CHAT.id, person, first_abandoner(game)))
    assert answer.key != "alert.stale"


async def play_round_by_surrender(core: Core, tid: int) -> None:
    """Every due table of the current round opened, seated, and its first seat's person
    giving up (one table at a time: one topic)."""
    tournament = await core.get(tid)
    for table in [t for t in tournament.tables if t.state is TableState.DUE]:
        game = await open_and_seat(core, tid, table.round_no, table.table_no)
        assert game.status is GameStatus.PLAYING
        loser = next(s for s in game.seats if s.user_id is not None)
        await surrender(core, game, person_of(loser.user_id or 0))


# Sign-up and options ---------------------------------------------------------------------


async def test_sign_up_options_and_who_may_change_them(core: Core) -> None:
    tid = await opened(core, 3)
    tournaments = core.tournaments
    assert await core.run(tournaments.sign_up(tid, CHAT.id, BOB)) == Reply(
        "tournament.already_signed_up"
    )
    before = await core.get(tid)
    # Somebody else than the organiser is refused politely, and nothing changes.
    refused = await core.run(tournaments.set_option(tid, CHAT.id, BOB, no_admin, "show_up", "5"))
    assert refused == Reply("tournament.organiser_only", alert=True)
    assert await core.run(tournaments.start(tid, CHAT.id, BOB, no_admin)) == refused
    assert (await core.get(tid)).version == before.version
    # An admin may.
    assert (
        await core.run(tournaments.set_option(tid, CHAT.id, BOB, admin, "show_up", "5")) == Reply()
    )
    assert (await core.get(tid)).options.show_up_minutes == 5
    # Values that are no choice.
    for name, value, key in (
        ("show_up", "7", "tournament.bad_option"),
        ("table_size", "5", "tournament.table_size_not_played"),
        ("rounds", "3", "tournament.rounds_swiss_only"),
        ("colour", "red", "tournament.bad_option"),
        ("game", "chess", "tournament.bad_option"),
    ):
        answer = await core.run(tournaments.set_option(tid, CHAT.id, ALICE, no_admin, name, value))
        assert answer.key == key, (name, value)
    # Pairs: a game always played in pairs cannot be played otherwise.
    for name, value in (("game", "sport"), ("format", "swiss"), ("rounds", "2")):
        await core.run(tournaments.set_option(tid, CHAT.id, ALICE, no_admin, name, value))
    options = (await core.get(tid)).options
    assert (options.game, options.pairs, options.table_size, options.format, options.rounds) == (
        "sport",
        True,
        2,
        Format.SWISS,
        2,
    )
    off = await core.run(tournaments.set_option(tid, CHAT.id, ALICE, no_admin, "pairs", "off"))
    assert off.key == "tournament.pairs_fixed"
    three = await core.run(tournaments.set_option(tid, CHAT.id, ALICE, no_admin, "table_size", "3"))
    assert three.key == "tournament.table_size_pairs"
    # Another group's press names no tournament here.
    assert await core.run(tournaments.sign_up(tid, OTHER.id, GENA)) == Reply(
        "tournament.not_here", alert=True
    )
    assert await core.run(tournaments.start(tid, OTHER.id, ALICE, admin)) == Reply(
        "tournament.not_here", alert=True
    )
    assert await core.run(tournaments.sign_up(999, CHAT.id, GENA)) == Reply(
        "tournament.not_here", alert=True
    )
    # Signing off: the later ones move up.
    assert await core.run(tournaments.sign_off(tid, CHAT.id, ALICE)) == Reply(
        "tournament.signed_off"
    )
    entrants = (await core.get(tid)).entrants
    assert [(e.number, e.user_id) for e in entrants] == [(0, BOB.id), (1, VERA.id)]
    # One tournament at a time in a topic.
    assert (await core.run(tournaments.open(CHAT, None, BOB))).key == "tournament.already_open"
    assert await core.run(tournaments.open(CHAT, 42, BOB)) == Reply()


async def test_start_refuses_too_few_too_many_and_odd_pairs(core: Core) -> None:
    tid = await opened(core, 2)
    assert await core.run(core.tournaments.start(tid, CHAT.id, ALICE, no_admin)) == Reply.of(
        "tournament.too_few", alert=True, n=2, min=3
    )
    for person in PEOPLE[2:]:
        await core.run(core.tournaments.sign_up(tid, CHAT.id, person))
    assert await core.run(core.tournaments.start(tid, CHAT.id, ALICE, no_admin)) == Reply.of(
        "tournament.too_many", alert=True, n=9, max=8
    )
    assert (await core.get(tid)).status is TournamentStatus.SIGNUP
    await core.run(core.tournaments.set_option(tid, CHAT.id, ALICE, no_admin, "pairs", "on"))
    assert await core.run(core.tournaments.start(tid, CHAT.id, ALICE, no_admin)) == Reply.of(
        "tournament.odd_pairs", alert=True, n=9
    )


# A whole round robin --------------------------------------------------------------------


async def test_round_robin_runs_to_its_end_each_table_counted_once(core: Core) -> None:
    tid = await started(core, 3)
    tournament = await core.get(tid)
    assert tournament.status is TournamentStatus.RUNNING and tournament.round_count() == 3
    assert [t.state for t in tournament.tables] == [
        TableState.DUE,
        TableState.PLANNED,
        TableState.PLANNED,
    ]
    assert [b.entrant for b in tournament.byes] == [
        n for n in range(3) if n not in tournament.tables[0].entrants
    ]
    assert core.effects[-1].tables_due[0].round_no == 1
    assert await core.outbox("tournament_round") == [{"tournament_id": tid, "round_no": 1}]

    # The table's lobby: only the drawn join; the match starts once both are in.
    await core.run(core.tournaments.open_table(tid, 1, 1, None))
    table = (await core.get(tid)).table(1, 1)
    assert table is not None and table.state is TableState.OPEN and table.game_id is not None
    lobby = await core.game(table.game_id)
    assert lobby.tournament is not None and lobby.tournament.round_no == 1
    assert lobby.lobby_deadline is not None and lobby.status is GameStatus.LOBBY
    byed = person_of(tournament.entrants[tournament.byes[0].entrant].user_id or 0)
    refused = await core.run(core.lobby.join(lobby.id, CHAT.id, byed))
    assert refused.key == "tournament.not_your_table"
    assert (await core.game(lobby.id)).seats == ()
    # Nobody changes a tournament table's lobby.
    assert await core.run(core.lobby.start_game(lobby.id, CHAT.id, ALICE, admin)) == Reply(
        "tournament.table_fixed", alert=True
    )
    # Opening it again changes nothing.
    await core.run(core.tournaments.open_table(tid, 1, 1, None))
    assert (await core.get(tid)).table(1, 1) == table

    first, second = (person_of(tournament.entrants[n].user_id or 0) for n in table.entrants)
    await core.run(core.lobby.join(lobby.id, CHAT.id, second))
    assert (await core.game(lobby.id)).status is GameStatus.LOBBY
    await core.run(core.lobby.join(lobby.id, CHAT.id, first))
    game = await core.game(lobby.id)
    assert game.status is GameStatus.PLAYING
    assert [s.user_id for s in game.seats] == [first.id, second.id]  # in the drawn order
    assert (await core.table(tid, 1, 1)).state is TableState.PLAYING

    await surrender(core, game, first)
    tournament = await core.get(tid)
    done = tournament.table(1, 1)
    assert done is not None and done.state is TableState.DONE and done.result is not None
    assert done.result.places == (1, 0)  # the one who gave up is last
    assert tournament.current_round == 2
    assert (await core.table(tid, 2, 1)).state is TableState.DUE
    # The same end again counts nothing more.
    async with core.db.transaction() as tx:
        assert await end_game(tx, await repo.load_game(tx, game.id)) == Effects()  # type: ignore[arg-type]
    assert (await core.get(tid)).version == tournament.version

    await play_round_by_surrender(core, tid)
    await play_round_by_surrender(core, tid)
    tournament = await core.get(tid)
    assert tournament.status is TournamentStatus.FINISHED and tournament.ended_at is not None
    assert all(t.state is TableState.DONE for t in tournament.tables)
    assert await core.outbox("tournament_end") == [{"tournament_id": tid}]
    assert len(await core.outbox("tournament_table")) == 3
    lines = tournament.standings()
    assert sum(line.half_points for line in lines) == 3 * 2  # three matches, one point each
    assert await core.tournaments.due_tables() == []

    # /history and /stats.
    assert [t.id for t in await core.tournaments.finished_of_chat(CHAT.id, 5)] == [tid]
    assert await core.tournaments.finished_of_chat(OTHER.id, 5) == []
    winners = {tournament.entrants[line.entrant].user_id for line in lines if line.place == 1}
    for person in PEOPLE[:3]:
        played, won = await core.tournaments.person_marks(CHAT.id, person.id)
        assert (played, won) == (1, int(person.id in winners))
    assert await core.tournaments.person_marks(CHAT.id, OUTSIDER.id) == (0, 0)
    assert await core.tournaments.person_marks(OTHER.id, ALICE.id) == (0, 0)


async def test_computers_fill_the_last_table_and_a_match_played_out_counts(core: Core) -> None:
    tid = await started(core, 3, computers="easy")
    tournament = await core.get(tid)
    assert len(tournament.entrants) == 4
    computer = tournament.entrants[3]
    assert computer.user_id is None and computer.level is Level.EASY
    table = next(t for t in tournament.tables if t.round_no == 1 and 3 in t.entrants)
    await core.run(core.tournaments.open_table(tid, 1, table.table_no, None))
    game_id = (await core.table(tid, 1, table.table_no)).game_id
    assert game_id is not None
    lobby = await core.game(game_id)
    assert [s.user_id for s in lobby.seats] == [None]  # the computer seated at once
    person = person_of(tournament.entrants[next(n for n in table.entrants if n != 3)].user_id or 0)
    await core.run(core.lobby.join(game_id, CHAT.id, person))
    game = await core.game(game_id)
    assert game.status is GameStatus.PLAYING
    # The person lets the computer play for them: the match is played to its end.
    seat = game.seat_of(person.id)
    assert seat is not None
    async with core.db.transaction() as tx:
        await repo.save_game(tx, game.struck(seat.seat, 3, away=True))
    while (await core.game(game_id)).status is GameStatus.PLAYING:
        assert await core.run(core.playing.computers(game_id)) is None or True
    game = await core.game(game_id)
    assert game.status is GameStatus.FINISHED and game.ending is Ending.FINISHED
    result = (await core.table(tid, 1, table.table_no)).result
    assert result is not None
    assert sorted(result.places) == [0, 1]
    points = game.match.seat_points()  # type: ignore[union-attr]
    best = points.index(min(points))  # Козёл: fewer is better
    assert result.places[best] == 0
    assert result.margins[best] > 0 > result.margins[1 - best]


async def test_fixed_pairs_sit_opposite_and_play_in_teams(core: Core) -> None:
    tid = await started(core, 4, game="sport", format="swiss", rounds="1")
    tournament = await core.get(tid)
    assert [(e.user_id, e.partner_id) for e in tournament.entrants] == [
        (ALICE.id, BOB.id),
        (VERA.id, GENA.id),
    ]
    game = await open_and_seat(core, tid, 1, 1)
    assert game.status is GameStatus.PLAYING and game.ruleset.teams
    table = (await core.get(tid)).table(1, 1)
    assert table is not None
    first, second = (tournament.entrants[n] for n in table.entrants)
    assert [s.user_id for s in game.seats] == [
        first.user_id,
        second.user_id,
        first.partner_id,
        second.partner_id,
    ]
    await surrender(core, game, person_of(second.partner_id or 0))
    tournament = await core.get(tid)
    assert tournament.status is TournamentStatus.FINISHED
    lines = tournament.standings()
    assert lines[0].entrant == first.number and lines[0].place == 1
    played, won = await core.tournaments.person_marks(CHAT.id, first.partner_id or 0)
    assert (played, won) == (1, 1)
    assert await core.tournaments.person_marks(CHAT.id, second.user_id or 0) == (1, 0)


async def test_pairs_refused_where_the_game_has_no_table_of_four(core: Core) -> None:
    tid = await opened(core, 4, table_size="3")
    answer = await core.run(
        core.tournaments.set_option(tid, CHAT.id, ALICE, no_admin, "pairs", "on")
    )
    assert answer == Reply()  # Козёл is played by four in pairs: pairs at two pairs a table
    options = (await core.get(tid)).options
    assert (options.pairs, options.table_size) == (True, 2)


# Endings that are no win ------------------------------------------------------------------


async def test_a_cancelled_table_is_a_draw_and_a_drawn_match_too(core: Core) -> None:
    tid = await started(core, 4, format="swiss", rounds="1")
    game = await open_and_seat(core, tid, 1, 1)
    answer = await core.run(core.endings.cancel(game.id, CHAT.id, ALICE, admin))
    assert answer == Reply("answer.cancelled")
    result = (await core.table(tid, 1, 1)).result
    assert result is not None and result.places == (0, 0) and result.margins == (0.0, 0.0)

    other = await open_and_seat(core, tid, 1, 2)
    async with core.db.transaction() as tx:
        loaded = await repo.load_game(tx, other.id)
        assert loaded is not None
        drawn = await repo.save_game(
            tx, loaded.ended(GameStatus.FINISHED, loaded.created_at, Ending.DRAW)
        )
        await end_game(tx, drawn)
    tournament = await core.get(tid)
    assert (await core.table(tid, 1, 2)).result.places == (0, 0)
    assert tournament.status is TournamentStatus.FINISHED
    assert all(line.half_points == 1 for line in tournament.standings())


# The show-up time --------------------------------------------------------------------------


async def test_show_up_deadline_forfeits_the_absent(core: Core) -> None:
    # A table of 2 with one absent: no match, the present one wins.
    tid = await started(core, 4, format="swiss", rounds="1")
    await core.run(core.tournaments.open_table(tid, 1, 1, None))
    tournament = await core.get(tid)
    table = tournament.table(1, 1)
    assert table is not None and table.game_id is not None
    here, away = table.entrants
    await core.run(
        core.lobby.join(table.game_id, CHAT.id, person_of(tournament.entrants[here].user_id or 0))
    )
    await core.run(core.lobby.time_out(table.game_id))
    assert (await core.game(table.game_id)).status is GameStatus.CANCELLED
    result = (await core.table(tid, 1, 1)).result
    assert result is not None and result.absent == frozenset({away})
    assert await core.outbox("tournament_forfeit") == [
        {"tournament_id": tid, "round_no": 1, "table_no": 1}
    ]
    # Nobody at all: both forfeited, no match.
    await core.run(core.tournaments.open_table(tid, 1, 2, None))
    second = (await core.get(tid)).table(1, 2)
    assert second is not None and second.game_id is not None
    await core.run(core.lobby.time_out(second.game_id))
    tournament = await core.get(tid)
    assert (await core.table(tid, 1, 2)).result.absent == frozenset(second.entrants)
    assert tournament.status is TournamentStatus.FINISHED
    halves = {line.entrant: line.half_points for line in tournament.standings()}
    assert halves[here] == 2 and halves[away] == 0
    assert all(halves[n] == 0 for n in second.entrants)


async def test_show_up_at_a_table_of_three(core: Core) -> None:
    # Two of three present: a computer takes the absent seat and the match plays.
    tid = await started(core, 3, table_size="3")
    await core.run(core.tournaments.open_table(tid, 1, 1, None))
    tournament = await core.get(tid)
    table = tournament.table(1, 1)
    assert table is not None and table.game_id is not None
    absent = table.entrants[1]
    for n in (table.entrants[0], table.entrants[2]):
        who = person_of(tournament.entrants[n].user_id or 0)
        await core.run(core.lobby.join(table.game_id, CHAT.id, who))
    assert (await core.game(table.game_id)).status is GameStatus.LOBBY
    await core.run(core.lobby.time_out(table.game_id))
    game = await core.game(table.game_id)
    assert game.status is GameStatus.PLAYING
    assert game.seats[1].user_id is None and game.seats[1].level is Level.MEDIUM
    assert (await core.table(tid, 1, 1)).absent == frozenset({absent})
    loser = person_of(tournament.entrants[table.entrants[0]].user_id or 0)
    await surrender(core, game, loser)
    result = (await core.table(tid, 1, 1)).result
    assert result is not None and result.absent == frozenset({absent})
    places = dict(zip(result.entrants, result.places, strict=True))
    assert places[table.entrants[2]] < places[table.entrants[0]]
    halves = {line.entrant: line.half_points for line in (await core.get(tid)).standings()}
    assert halves == {table.entrants[2]: 4, table.entrants[0]: 2, absent: 0}


async def test_one_present_of_three_plays_no_match(core: Core) -> None:
    tid = await started(core, 3, table_size="3")
    await core.run(core.tournaments.open_table(tid, 1, 1, None))
    tournament = await core.get(tid)
    table = tournament.table(1, 1)
    assert table is not None and table.game_id is not None
    who = person_of(tournament.entrants[table.entrants[0]].user_id or 0)
    await core.run(core.lobby.join(table.game_id, CHAT.id, who))
    await core.run(core.lobby.time_out(table.game_id))
    assert (await core.game(table.game_id)).status is GameStatus.CANCELLED
    result = (await core.table(tid, 1, 1)).result
    assert result is not None and result.absent == frozenset(table.entrants[1:])


# Withdrawals ---------------------------------------------------------------------------


async def test_withdrawn_mid_way_forfeits_later_tables_and_keeps_what_was_played(
    core: Core,
) -> None:
    tid = await started(core, 4)
    await play_round_by_surrender(core, tid)
    played = [t.result for t in (await core.get(tid)).tables if t.result is not None]
    answer = await core.run(core.tournaments.sign_off(tid, CHAT.id, GENA))
    assert answer == Reply("tournament.withdrawn_now")
    tournament = await core.get(tid)
    gena = tournament.entrant_of(GENA.id)
    assert gena is not None and gena.withdrawn_round == 2
    # Round 2: Гена's table counted at once, without a match; the other is due.
    mine = next(t for t in tournament.tables if t.round_no == 2 and gena.number in t.entrants)
    assert mine.state is TableState.DONE and mine.game_id is None
    assert mine.result is not None and mine.result.absent == frozenset({gena.number})
    assert [t.result for t in tournament.tables if t.round_no == 1] == played
    await play_round_by_surrender(core, tid)
    await play_round_by_surrender(core, tid)
    tournament = await core.get(tid)
    assert tournament.status is TournamentStatus.FINISHED
    line = next(x for x in tournament.standings() if x.entrant == gena.number)
    assert line.withdrawn


async def test_removed_from_a_swiss_tournament_is_no_longer_paired(core: Core) -> None:
    tid = await started(core, 4, format="swiss", rounds="3")
    tournament = await core.get(tid)
    bob = tournament.entrant_of(BOB.id)
    assert bob is not None
    ask = await core.run(core.tournaments.remove(tid, CHAT.id, ALICE, no_admin, bob.number, False))
    assert ask == Reply.of("tournament.ask_remove_one", name="Боб")
    assert (await core.get(tid)).entrant_of(BOB.id).withdrawn_round is None  # type: ignore[union-attr]
    refused = await core.run(
        core.tournaments.remove(tid, CHAT.id, VERA, no_admin, bob.number, True)
    )
    assert refused.key == "tournament.organiser_only"
    await core.run(core.tournaments.remove(tid, CHAT.id, ALICE, no_admin, bob.number, True))
    # Боб's table of round 1 counts as his forfeit at once; the other plays.
    tournament = await core.get(tid)
    mine = next(t for t in tournament.tables if bob.number in t.entrants)
    assert mine.state is TableState.DONE and mine.result.absent == {bob.number}  # type: ignore[union-attr]
    await play_round_by_surrender(core, tid)
    tournament = await core.get(tid)
    assert tournament.current_round == 2
    later = [t for t in tournament.tables if t.round_no == 2]
    assert later and all(bob.number not in t.entrants for t in later)


async def test_withdrawing_from_a_waiting_table_of_two_ends_it(core: Core) -> None:
    tid = await started(core, 4, format="swiss", rounds="1")
    await core.run(core.tournaments.open_table(tid, 1, 1, None))
    tournament = await core.get(tid)
    table = tournament.table(1, 1)
    assert table is not None and table.game_id is not None
    stays, goes = (person_of(tournament.entrants[n].user_id or 0) for n in table.entrants)
    await core.run(core.lobby.join(table.game_id, CHAT.id, goes))
    await core.run(core.tournaments.sign_off(tid, CHAT.id, goes))
    assert (await core.game(table.game_id)).status is GameStatus.CANCELLED
    result = (await core.table(tid, 1, 1)).result
    assert result is not None and result.absent == frozenset({table.entrants[1]})
    assert stays.id != goes.id


# Pause, resume, cancel -------------------------------------------------------------------


async def test_pause_resume_and_cancel(core: Core) -> None:
    tid = await started(core, 4, format="swiss", rounds="2")
    game = await open_and_seat(core, tid, 1, 1)
    refused = await core.run(core.tournaments.pause(tid, CHAT.id, BOB, no_admin))
    assert refused.key == "tournament.organiser_only"
    assert await core.run(core.tournaments.pause(tid, CHAT.id, ALICE, no_admin)) == Reply(
        "tournament.paused_now"
    )
    # No new table opens; the one running goes on and counts.
    await core.run(core.tournaments.open_table(tid, 1, 2, None))
    assert (await core.table(tid, 1, 2)).state is TableState.DUE
    assert await core.tournaments.due_tables() == []
    await surrender(core, game, person_of(game.seats[0].user_id or 0))
    assert (await core.table(tid, 1, 1)).state is TableState.DONE
    assert await core.run(core.tournaments.resume(tid, CHAT.id, ALICE, no_admin)) == Reply(
        "tournament.resumed"
    )
    assert [(d.round_no, d.table_no) for d in core.effects[-1].tables_due] == [(1, 2)]
    assert core.effects[-1].tournaments == (tid,)  # its message shows it running again
    running = await open_and_seat(core, tid, 1, 2)
    ask = await core.run(core.tournaments.cancel(tid, CHAT.id, ALICE, no_admin, False))
    assert ask == Reply("tournament.ask_cancel")
    assert (await core.get(tid)).status is TournamentStatus.RUNNING
    assert await core.run(core.tournaments.cancel(tid, OTHER.id, ALICE, admin, True)) == Reply(
        "tournament.not_here", alert=True
    )
    assert await core.run(core.tournaments.cancel(tid, CHAT.id, ALICE, no_admin, True)) == Reply(
        "tournament.cancelled_now"
    )
    tournament = await core.get(tid)
    assert tournament.status is TournamentStatus.CANCELLED
    assert (await core.game(running.id)).status is GameStatus.CANCELLED
    assert (await core.table(tid, 1, 2)).result is None  # counted for nobody
    assert await core.tournaments.current(CHAT.id, None) is None
    assert await core.tournaments.finished_of_chat(CHAT.id, 5) == []


# A person elsewhere, a restart ---------------------------------------------------------


async def test_a_person_in_another_game_is_waited_for(core: Core) -> None:
    tid = await started(core, 4, format="swiss", rounds="1")
    tournament = await core.get(tid)
    table = tournament.table(1, 1)
    assert table is not None
    busy = person_of(tournament.entrants[table.entrants[0]].user_id or 0)
    await core.context.people.remember(busy, can_message=True)
    await core.run(core.lobby.open(OTHER, busy))  # a game in another group
    await core.run(core.tournaments.open_table(tid, 1, 1, None))
    game_id = (await core.table(tid, 1, 1)).game_id
    assert game_id is not None
    answer = await core.run(core.lobby.join(game_id, CHAT.id, busy))
    assert answer == Reply("tournament.finish_other_game", alert=True)
    assert (await core.table(tid, 1, 1)).state is TableState.OPEN


async def test_a_topic_busy_with_a_game_keeps_the_table_due(core: Core) -> None:
    tid = await started(core, 4, format="swiss", rounds="1")
    await core.run(core.tournaments.open_table(tid, 1, 1, None))
    await core.run(core.tournaments.open_table(tid, 1, 2, None))  # the same topic: busy
    assert (await core.table(tid, 1, 2)).state is TableState.DUE
    await core.run(core.tournaments.open_table(tid, 1, 2, 77))  # a topic of its own
    assert (await core.table(tid, 1, 2)).thread_id == 77


async def test_a_lobby_closed_unplayed_frees_the_topic_for_the_tables_due(core: Core) -> None:
    """An ordinary lobby holds the tournament's topic; cancelled, or closed by its own
    time, it offers the tables due again at once (not only at the next game's end)."""
    tid = await started(core, 4, format="swiss", rounds="1")
    guest = Person(990, "Гость")
    for attempt in ("cancel", "time_out"):
        await core.context.people.remember(guest, can_message=True)
        await core.run(core.lobby.open(CHAT, guest))
        lobby = await repo.active_game_in_chat(core.db, CHAT.id)
        assert lobby is not None and lobby.tournament is None
        await core.run(core.tournaments.open_table(tid, 1, 1, None))
        assert (await core.table(tid, 1, 1)).state is TableState.DUE  # the topic is busy
        if attempt == "cancel":
            await core.run(core.lobby.cancel(lobby.id, CHAT.id, guest, no_admin))
        else:
            await core.run(core.lobby.time_out(lobby.id))
        due = core.effects[-1].tables_due
        assert [(d.round_no, d.table_no) for d in due] == [(1, 1), (1, 2)], attempt


async def test_a_restart_finds_everything(core: Core, tmp_path: Path) -> None:
    tid = await started(core, 5, format="swiss", rounds="3")
    await play_round_by_surrender(core, tid)
    before = await core.get(tid)
    due = await core.tournaments.due_tables()
    assert due and all(d.round_no == 2 for d in due)
    await core.db.close()
    database = await open_database(tmp_path / "tournaments.sqlite3")
    try:
        again = build(database)
        await again.context.settings.load()
        after = await again.get(tid)
        assert after == before
        assert after.standings() == before.standings()
        assert await again.tournaments.due_tables() == due
        await play_round_by_surrender(again, tid)
        assert (await again.get(tid)).current_round == 3
    finally:
        await database.close()
    core.db = await open_database(tmp_path / "tournaments.sqlite3")  # for the fixture's close


async def test_the_pickup_hands_the_tables_due_to_the_front_ends(tmp_path: Path) -> None:
    """The whole application: the start's tables go to the front ends at once; after a
    restart its pickup hands them the tables still due."""
    database = await open_database(tmp_path / "pickup.sqlite3")
    setup = make(database, FakeTime(), seed=7)
    await setup.app.resume()
    try:
        app = setup.app
        await setup.run(app.tournaments.open(CHAT, None, ALICE))
        for person in PEOPLE[:4]:
            await setup.run(app.tournaments.sign_up(1, CHAT.id, person))
        await setup.run(app.tournaments.set_option(1, CHAT.id, ALICE, no_admin, "format", "swiss"))
        await setup.run(app.tournaments.start(1, CHAT.id, ALICE, no_admin))
        await app.tables.idle()  # each table is opened by a worker of its own
        tournament = await app.tournaments.get(1)
        assert tournament is not None
        # The first table opened in the tournament's topic; the second waits for it.
        assert [t.state for t in tournament.tables] == [TableState.OPEN, TableState.DUE]
    finally:
        await setup.close()
    again = make(database, FakeTime(), seed=7)
    offered: list[tuple[int, int]] = []

    async def open_tables(due: Sequence[TableDue]) -> None:
        offered.extend((table.round_no, table.table_no) for table in due)

    again.app.web.open_tables = open_tables  # type: ignore[method-assign]
    try:
        await again.app.resume()
        assert offered == [(1, 2)]
    finally:
        await again.close()
        await database.close()


async def test_a_join_link_seats_only_the_people_drawn(core: Core) -> None:
    """In a group that keeps hands in private, «✅ Я на месте» sends someone the bot may
    not write to yet to the lobby's link; the link seats only the people drawn too."""
    await core.context.settings.change(CHAT, ChatSettings(hands=HandsPlace.PRIVATE))
    tid = await started(core, 4, format="swiss", rounds="1")
    await core.run(core.tournaments.open_table(tid, 1, 1, None))
    tournament = await core.get(tid)
    table = await core.table(tid, 1, 1)
    assert table.game_id is not None
    first, second = (person_of(tournament.entrants[n].user_id or 0) for n in table.entrants)
    answer = await core.run(core.lobby.join(table.game_id, CHAT.id, first))
    token = (await core.game(table.game_id)).join_token
    assert answer.url is not None and token is not None and answer.url.endswith(token)

    async def member(chat_id: int, user_id: int) -> bool:
        return True

    other = next(p for p in PEOPLE[:4] if p.id not in (first.id, second.id))
    refused = await core.run(core.lobby.join_by_link(other, token, member))
    assert refused.key == "tournament.not_your_table"
    for person in (first, second):
        answer = await core.run(core.lobby.join_by_link(person, token, member))
        assert answer.key == "start.joined"
    game = await core.game(table.game_id)
    assert game.status is GameStatus.PLAYING
    assert [s.user_id for s in game.seats] == [first.id, second.id]


async def test_leaving_the_group_takes_a_person_out(core: Core) -> None:
    signing = await opened(core, 3)
    await core.run(core.tournaments.open(CHAT, 5, BOB))
    other = await core.tournaments.current(CHAT.id, 5)
    assert other is not None
    for person in PEOPLE[:4]:
        await core.run(core.tournaments.sign_up(other.id, CHAT.id, person))
    await core.run(core.tournaments.set_option(other.id, CHAT.id, BOB, no_admin, "format", "swiss"))
    await core.run(core.tournaments.start(other.id, CHAT.id, BOB, no_admin))
    await core.run(core.tournaments.person_left(CHAT.id, VERA.id))
    assert (await core.get(signing)).entrant_of(VERA.id) is None
    running = await core.get(other.id)
    vera = running.entrant_of(VERA.id)
    assert vera is not None and vera.withdrawn_round == 1
    assert core.effects[-1].tournaments
    await core.run(core.tournaments.person_left(OTHER.id, BOB.id))  # another group: nothing
    assert (await core.get(other.id)).version == running.version


async def test_the_bot_removed_from_the_group_ends_its_tournaments(core: Core) -> None:
    """Cancelled before their tables' games: those count for nobody in them, and no next
    table is offered in a group the bot cannot write to."""
    tid = await started(core, 4, format="swiss", rounds="2")
    game = await open_and_seat(core, tid, 1, 1)
    assert game.status is GameStatus.PLAYING
    await core.run(core.tournaments.open(CHAT, 5, BOB))  # another topic's, signing up
    signing = await core.tournaments.current(CHAT.id, 5)
    assert signing is not None
    await core.run(Chats(core.context).bot_left_group(CHAT.id))
    assert (await core.get(tid)).status is TournamentStatus.CANCELLED
    assert (await core.get(signing.id)).status is TournamentStatus.CANCELLED
    assert (await core.game(game.id)).status is GameStatus.CANCELLED
    assert (await core.table(tid, 1, 1)).result is None
    assert core.effects[-1].tables_due == ()
    assert await core.tournaments.due_tables() == []


async def test_the_mini_app_offers_a_table_only_to_those_drawn_to_it(core: Core) -> None:
    """In the app a tournament table's lobby has no start or computers for anyone (the
    tournament runs it), and its seat is offered only to the people drawn to it."""

    async def member(chat_id: int, user_id: int) -> bool:
        return True

    viewing = Viewing(core.context, member)
    tid = await started(core, 4, format="swiss", rounds="1")
    await core.run(core.tournaments.open_table(tid, 1, 1, None))
    tournament = await core.get(tid)
    table = tournament.table(1, 1)
    assert table is not None and table.game_id is not None
    game = await core.game(table.game_id)
    drawn = {u for n in table.entrants for u in tournament.entrants[n].people}
    for person in PEOPLE[:4]:
        seen = await viewing.seen(game, person)
        assert seen.may_join is (person.id in drawn), person
        assert seen.controls is False
    ordinary_lobby = await viewing.seen(dataclasses.replace(game, tournament=None), ALICE)
    assert ordinary_lobby.controls is (ALICE.id == game.creator_id)


async def test_a_round_drawn_during_a_pause_is_announced_when_it_resumes(core: Core) -> None:
    """Nobody is told to take a seat at a table that does not open: the next round is
    drawn as the last table ends, but announced only once the tournament resumes."""
    tid = await started(core, 4)
    first = await open_and_seat(core, tid, 1, 1)
    await surrender(core, first, person_of(first.seats[0].user_id or 0))
    last = await open_and_seat(core, tid, 1, 2)
    await core.run(core.tournaments.pause(tid, CHAT.id, ALICE, no_admin))
    await surrender(core, last, person_of(last.seats[0].user_id or 0))
    tournament = await core.get(tid)
    assert tournament.current_round == 2
    assert [t.state for t in tournament.tables if t.round_no == 2] == [TableState.DUE] * 2
    assert [p["round_no"] for p in await core.outbox("tournament_round")] == [1]
    await core.run(core.tournaments.resume(tid, CHAT.id, ALICE, no_admin))
    assert [p["round_no"] for p in await core.outbox("tournament_round")] == [1, 2]
    assert core.effects[-1].announcements


async def test_pairs_are_counted_as_pairs_when_too_few(core: Core) -> None:
    tid = await opened(core, 4, game="kozel", pairs="on")
    answer = await core.run(core.tournaments.start(tid, CHAT.id, ALICE, no_admin))
    assert answer == Reply.of("tournament.too_few_pairs", alert=True, n=2, min=3)


async def test_the_people_drawn_to_a_table_are_told_in_private_when_it_opens(core: Core) -> None:
    """Someone not watching the group would lose by forfeit: whoever has the bot's
    private chat hears there that their table opened; the others only in the group."""
    tid = await started(core, 4, format="swiss", rounds="1")
    tournament = await core.get(tid)
    table = tournament.table(1, 1)
    assert table is not None
    first, second = (tournament.entrants[n].user_id for n in table.entrants)
    await core.context.people.remember(person_of(first or 0), can_message=True)
    await core.run(core.tournaments.open_table(tid, 1, 1, None))
    told = [
        item
        for item in await repo.pending_outbox(core.db)
        if item.kind == "notice" and item.payload["key"] == "tournament.your_table"
    ]
    assert [item.chat_id for item in told] == [first]
    assert told[0].payload["values"] == {
        "chat": CHAT.title,
        "round": 1,
        "table": 1,
        "minutes": 10,
    }
    assert core.effects[-1].announcements
    assert second not in [item.chat_id for item in told]


async def test_fewer_rounds_than_set_are_said_at_the_start(core: Core) -> None:
    """Two entrants can play one Swiss round: the start says so instead of silently
    playing fewer than the organiser set."""
    tid = await opened(core, 2, format="swiss", rounds="4")
    answer = await core.run(core.tournaments.start(tid, CHAT.id, ALICE, no_admin))
    assert answer == Reply.of("tournament.started_fewer_rounds", rounds=1, n=2)
    assert (await core.get(tid)).options.rounds == 1
    assert text_of(answer.key, Lang.RU, **answer.values) == (
        "Турнир начался! Будет 1 тур: больше при 2 участниках не сыграть."
    )
