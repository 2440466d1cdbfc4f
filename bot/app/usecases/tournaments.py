"""Tournaments (docs/tournaments.md): open one in a group's topic, sign up and off, set
its options, start it, open its tables, pause, resume, cancel it, remove someone; and
the steps its tables take inside the lobby's use cases (only the people drawn to a
table sit there, the match starts once they are all in, the show-up time forfeits the
absent). What a table's end counts and what is due next is
`bot.app.usecases.tournament_tables`, reached from `end_game`.

Deviations from the agreed core API (all additions; nothing agreed was renamed):
`TableState.PLANNED` (a later round of the round robin's stored schedule, not due
yet); `TableRecord.absent` (the entrants forfeited at the table); `Tournaments.manageable`
(the organiser's menus ask it first); `Context.show_up_deadline` (the tables' lobby
deadlines on the timers' clock); `Effects.tables_due` is also given when an ordinary
game's end frees a topic where tables wait. The unconfirmed `cancel` and `remove`
answer with the front end's own questions, `tournament.ask_cancel` and
`tournament.ask_remove_one` (`name`).

Who may: signing up and off is anyone's; the options, the start, pause, resume,
cancel and removals are the organiser's (who opened it) or an admin's of its group. A
tournament named from another chat is refused as one that does not exist.
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
from collections.abc import Awaitable, Callable

from bot.app.effects import Done, Effects
from bot.app.lobby_rules import (
    JOIN_TOKEN_BYTES,
    at_table,
    game_of_key,
    is_join_token,
    pairs_fixed,
    playable_game,
    playable_games,
    seat_choices,
)
from bot.app.names import short_name
from bot.app.people import Person
from bot.app.reply import NO_REPLY, Reply
from bot.app.usecases.base import (
    ChatCheck,
    Context,
    Refusal,
    UseCases,
    chat_title,
    end_game,
    utcnow,
)
from bot.app.usecases.lobby_options import started
from bot.app.usecases.tournament_tables import (
    FORFEIT,
    absent_from_outset,
    advance,
    announce,
    announce_unopened,
    begin_round,
    due_of,
    effects_of,
    entrant_name,
    forfeit_result,
    record,
)
from domino.ai import Level
from domino.rules import Ruleset
from domino.tournament import Format, round_robin, swiss_rounds_allowed
from i18n import Lang, t
from storage import repo
from storage import tournaments as store
from storage.db import Transaction
from storage.records import (
    ChatRecord,
    EntrantRecord,
    GameRecord,
    GameStatus,
    SeatRecord,
    TableDue,
    TableRecord,
    TableRef,
    TableState,
    TournamentOptions,
    TournamentRecord,
    TournamentStatus,
)

log = logging.getLogger(__name__)

ROUND_ROBIN_ENTRANTS = range(3, 9)  # docs/tournaments.md: round robin takes 3-8
SWISS_ENTRANTS = range(2, 33)  # Swiss up to 32
MAX_SIGNUPS = 64  # people: 32 pairs at most
SHOW_UP_MINUTES = (5, 10, 30)
DEFAULT_SHOW_UP = 10
DEFAULT_SWISS_ROUNDS = 3
OPTION_NAMES = ("game", "format", "table_size", "pairs", "rounds", "computers", "show_up")
ON = ("on", "1", "true", "yes")
OFF = ("off", "0", "false", "no")

Change = tuple[TournamentRecord | None, Reply, Effects]
"""What a change of a tournament gives: the tournament to save (None: nothing changes,
or saved already), the answer, and the effects of the commit."""


# Options ------------------------------------------------------------------------------


def can_pair(rules: Ruleset) -> bool:
    """Whether the game is played by two pairs of two (a team game of four)."""
    if 4 not in seat_choices(rules):
        return False
    try:
        rules.with_options(teams=True)
    except ValueError:
        return False
    return True


def default_options(key: str | None) -> TournamentOptions:
    """A new tournament's options: the group's default game at its smallest table (in
    pairs where the game always is), round robin, no computers, 10 minutes to show up."""
    rules = playable_game(key).ruleset
    pairs = pairs_fixed(rules) and rules.teams
    return TournamentOptions(
        game=rules.variant.value,
        format=Format.ROUND_ROBIN,
        table_size=2 if pairs else seat_choices(rules)[0],
        pairs=pairs,
        rounds=None,
        computers=None,
        show_up_minutes=DEFAULT_SHOW_UP,
    )


def with_game(options: TournamentOptions, key: str) -> TournamentOptions:
    """Another game: the table size and pairs kept where it is played so, else its own."""
    game = game_of_key(key)
    if game is None or game not in playable_games():
        raise Refusal("tournament.bad_option")
    rules = game.ruleset
    pairs = rules.teams if pairs_fixed(rules) else options.pairs and can_pair(rules)
    size = options.table_size
    if pairs:
        size = 2
    elif size not in seat_choices(rules):
        size = seat_choices(rules)[0]
    return dataclasses.replace(options, game=key, pairs=pairs, table_size=size)


def with_option(options: TournamentOptions, name: str, value: str) -> TournamentOptions:
    """`options` with `name` set to `value` (as a front end carries it); refused when the
    value is no choice there."""
    rules = _rules(options)
    value = value.strip().lower()
    if name == "game":
        return with_game(options, value)
    if name == "format":
        if value == Format.ROUND_ROBIN.value:
            return dataclasses.replace(options, format=Format.ROUND_ROBIN, rounds=None)
        if value == Format.SWISS.value:
            rounds = options.rounds or DEFAULT_SWISS_ROUNDS
            return dataclasses.replace(options, format=Format.SWISS, rounds=rounds)
    elif name == "table_size" and value.isdigit():
        size = int(value)
        if options.pairs:
            raise Refusal("tournament.table_size_pairs")
        if size not in seat_choices(rules):
            raise Refusal("tournament.table_size_not_played", n=size)
        return dataclasses.replace(options, table_size=size)
    elif name == "pairs" and value in ON + OFF:
        pairs = value in ON
        if pairs_fixed(rules) and pairs != rules.teams:
            raise Refusal("tournament.pairs_fixed")
        if pairs and not can_pair(rules):
            raise Refusal("tournament.pairs_need_four")
        size = options.table_size
        if pairs:
            size = 2
        elif size not in seat_choices(rules):
            size = seat_choices(rules)[0]
        return dataclasses.replace(options, pairs=pairs, table_size=size)
    elif name == "rounds" and value.isdigit():
        if options.format is not Format.SWISS:
            raise Refusal("tournament.rounds_swiss_only")
        rounds = int(value)
        if not 1 <= rounds < SWISS_ENTRANTS.stop - 1:
            raise Refusal("tournament.bad_option")
        return dataclasses.replace(options, rounds=rounds)
    elif name == "computers":
        if value in OFF:
            return dataclasses.replace(options, computers=None)
        if value in {level.value for level in Level}:
            return dataclasses.replace(options, computers=Level(value))
    elif name == "show_up" and value.isdigit() and int(value) in SHOW_UP_MINUTES:
        return dataclasses.replace(options, show_up_minutes=int(value))
    raise Refusal("tournament.bad_option")


def _rules(options: TournamentOptions) -> Ruleset:
    return playable_game(options.game).ruleset


def table_ruleset(options: TournamentOptions, seats: int) -> Ruleset:
    """The rules a table of `seats` plays by: the game's own options, in pairs or not
    (K-1), its target at that table (`at_table`, B-1)."""
    rules = _rules(options)
    teams = options.pairs and seats == 4
    if rules.teams != teams and not pairs_fixed(rules):
        rules = rules.with_options(teams=teams)
    return at_table(rules, seats)


def new_join_token() -> str:
    """A table's lobby link secret, as any lobby's (`LobbyChanges.new_join_token`)."""
    while True:
        token = secrets.token_urlsafe(JOIN_TOKEN_BYTES)
        if is_join_token(token):
            return token


# The tables' lobbies ---------------------------------------------------------------------


async def drawn_table(
    tx: repo.Reader, game: GameRecord
) -> tuple[TournamentRecord, TableRecord] | None:
    """The tournament and the table whose lobby `game` is, while it waits for its
    people (None: the table is no longer waiting for this game)."""
    ref = game.tournament
    if ref is None:
        return None
    tournament = await store.load(tx, ref.tournament_id)
    if tournament is None or tournament.status not in (
        TournamentStatus.RUNNING,
        TournamentStatus.PAUSED,
    ):
        return None
    table = tournament.table(ref.round_no, ref.table_no)
    if table is None or table.game_id != game.id or table.state is not TableState.OPEN:
        return None
    return tournament, table


async def check_drawn(tx: repo.Reader, game: GameRecord, person: Person) -> None:
    """Only the people drawn to a tournament table may sit at it (and not once they are
    out of the tournament); refused with the names of those it waits for."""
    found = await drawn_table(tx, game)
    if found is None:
        raise Refusal("alert.lobby_closed")
    tournament, table = found
    entrant = tournament.entrant_of(person.id)
    if (
        entrant is None
        or entrant.number not in table.entrants
        or entrant.number in absent_from_outset(tournament, table)
    ):
        names = ", ".join(entrant_name(tournament.entrants[n]) for n in table.entrants)
        raise Refusal("tournament.not_your_table", names=names)


def ordered_seats(
    tournament: TournamentRecord,
    table: TableRecord,
    game: GameRecord,
    absent: frozenset[int],
    lang: Lang,
) -> tuple[SeatRecord, ...]:
    """The table's seats in its drawn order, whoever sat down first: seat `i` is entrant
    `entrants[i % n]` (a pair's second member at `i + n`, opposite its partner); a
    computer entrant plays at its level, an absentee's seat by a computer at the
    tournament's level (Средний when computers are off)."""
    count = len(table.entrants)
    per = 2 if tournament.options.pairs else 1
    by_user = {s.user_id: s for s in game.seats if s.user_id is not None}
    stand_in = tournament.options.computers or Level.MEDIUM
    computers = sum(1 for n in table.entrants if tournament.entrants[n].user_id is None)
    seats = []
    for i in range(count * per):
        entrant = tournament.entrants[table.entrants[i % count]]
        if entrant.user_id is None:
            seats.append(SeatRecord(i, None, entrant.name, level=entrant.level or Level.MEDIUM))
        elif entrant.number in absent:
            computers += 1
            name = t("computer.name", lang, n=computers)
            seats.append(SeatRecord(i, None, name, level=stand_in))
        else:
            user_id = entrant.people[i // count]
            seats.append(SeatRecord(i, user_id, by_user[user_id].name))
    return tuple(seats)


async def fill_table(
    tx: Transaction,
    tournament: TournamentRecord,
    table: TableRecord,
    game: GameRecord,
    context: Context,
    lang: Lang,
    *,
    deadline: bool = False,
) -> tuple[GameRecord | None, TournamentRecord]:
    """The table's lobby after a change (someone sat down, withdrew, or the show-up time
    ran out: `deadline`). While some of those drawn may still come, it waits. Once all
    are in, or at the deadline, the forfeit rule of docs/tournaments.md: fewer than two
    present, no match (the lobby closes, the forfeit counts); else the match starts
    with the seats in their drawn order, computers in the absent seats. The changed
    game (None: unchanged) and the tournament (not saved: the caller `advance`s it)."""
    absent = absent_from_outset(tournament, table)
    seated = {s.user_id for s in game.seats if s.user_id is not None}
    missing = frozenset(
        n
        for n in table.entrants
        if n not in absent and not all(u in seated for u in tournament.entrants[n].people)
    )
    if missing and deadline:
        await announce(tx, tournament, FORFEIT, round_no=table.round_no, table_no=table.table_no)
        absent |= missing
    elif missing and len(table.entrants) - len(absent) >= 2:
        return None, tournament  # still waiting; with too few left (withdrawn), no match
    now = utcnow()
    if len(table.entrants) - len(absent) < 2:
        counted = await record(tx, tournament, table, forfeit_result(table, absent))
        return game.ended(GameStatus.CANCELLED, now), counted
    seats = ordered_seats(tournament, table, game, absent, lang)
    dealt = started(
        dataclasses.replace(game, seats=seats, seats_wanted=len(seats)), context.new_seed(), now
    )
    dealt = dataclasses.replace(dealt, turn_deadline=context.turn_deadline(dealt))
    playing = dataclasses.replace(table, state=TableState.PLAYING, absent=absent)
    log.info(
        "chat %s tournament %s: round %d table %d starts (game %s, %d absent)",
        tournament.chat_id,
        tournament.id,
        table.round_no,
        table.table_no,
        game.id,
        len(absent),
    )
    return dealt, tournament.with_table(playing)


async def seated_at_table(
    tx: Transaction, game: GameRecord, context: Context, lang: Lang
) -> tuple[GameRecord, Effects]:
    """A person just sat down at a tournament table's lobby (`game`, unsaved): the match
    starts by itself once all drawn are in. The game to save and the effects."""
    found = await drawn_table(tx, game)
    if found is None:
        return game, Effects()
    tournament, table = found
    changed, tournament = await fill_table(tx, tournament, table, game, context, lang)
    if changed is None:
        return game, Effects(tournaments=(tournament.id,))
    saved = await advance(tx, tournament)
    return changed, effects_of(saved)


async def table_deadline(
    tx: Transaction, game: GameRecord, context: Context, lang: Lang
) -> tuple[GameRecord, Effects] | None:
    """The show-up time of a tournament table's lobby ran out: the absent are forfeited
    (`fill_table`). None when the table no longer waits for this lobby."""
    found = await drawn_table(tx, game)
    if found is None:
        return None
    tournament, table = found
    changed, tournament = await fill_table(
        tx, tournament, table, game, context, lang, deadline=True
    )
    assert changed is not None  # at the deadline the table always resolves
    saved = await advance(tx, tournament)
    return changed, effects_of(saved)


# The use cases -----------------------------------------------------------------------------


class Tournaments(UseCases):
    """A group's tournaments, each checked against the chat it is asked from."""

    async def open(self, chat: ChatRecord, thread_id: int | None, person: Person) -> Done[Reply]:
        """/tournament in a group's topic: a tournament signing up there, with the
        group's default game. Nobody is signed up by opening it: the organiser may run
        it without playing."""
        async with self.db.transaction() as tx:
            await repo.upsert_chat(tx, chat)
            await repo.upsert_user(tx, person.record())
        lang = self.people.noticed(person)
        await self.context.settings.settle_language(chat, lang)
        options = default_options(self.context.settings.of(chat.id).default_game)
        try:
            async with self.db.transaction() as tx:
                if await store.live_in_topic(tx, chat.id, thread_id) is not None:
                    raise Refusal("tournament.already_open")
                created = await store.create(
                    tx,
                    chat_id=chat.id,
                    thread_id=thread_id,
                    creator_id=person.id,
                    options=options,
                    at=utcnow(),
                )
        except store.TournamentBusy:
            return Done(Reply("tournament.already_open", alert=True))
        except Refusal as refusal:
            return Done(refusal.reply)
        log.info("chat %s tournament %s: opened by %s", chat.id, created.id, person.id)
        return Done(NO_REPLY, Effects(tournaments=(created.id,)))

    async def sign_up(self, tournament_id: int, chat_id: int | None, person: Person) -> Done[Reply]:
        """«✅ Участвую»: the person joins the list, in sign-up order."""

        async def sign_up(tx: Transaction, tournament: TournamentRecord) -> Change:
            if person.anonymous_admin:
                raise Refusal("tournament.anonymous")
            if tournament.status is not TournamentStatus.SIGNUP:
                raise Refusal("tournament.signup_closed")
            if tournament.entrant_of(person.id) is not None:
                raise Refusal("tournament.already_signed_up", alert=False)
            if len(tournament.entrants) >= MAX_SIGNUPS:
                raise Refusal("tournament.full", n=len(tournament.entrants))
            entrant = EntrantRecord(len(tournament.entrants), person.id, short_name(person.name))
            changed = dataclasses.replace(tournament, entrants=(*tournament.entrants, entrant))
            return changed, Reply("tournament.signed_up"), Effects()

        return await self._change(tournament_id, chat_id, person, None, "sign up", sign_up)

    async def sign_off(
        self, tournament_id: int, chat_id: int | None, person: Person
    ) -> Done[Reply]:
        """«🚪 Не участвую»: off the list while it signs up; once it runs, out of it:
        forfeited from the next table on (their played matches stay)."""

        async def sign_off(tx: Transaction, tournament: TournamentRecord) -> Change:
            entrant = tournament.entrant_of(person.id)
            if entrant is None:
                raise Refusal("tournament.not_signed_up", alert=False)
            if tournament.status is TournamentStatus.SIGNUP:
                return (
                    without_signup(tournament, person.id),
                    Reply("tournament.signed_off"),
                    Effects(),
                )
            if not tournament.status.live:
                raise Refusal("tournament.over")
            if entrant.withdrawn_round is not None:
                raise Refusal("tournament.not_signed_up", alert=False)
            _, effects = await self._withdraw(tx, tournament, entrant)
            return None, Reply("tournament.withdrawn_now"), effects

        return await self._change(tournament_id, chat_id, person, None, "sign off", sign_off)

    async def set_option(
        self,
        tournament_id: int,
        chat_id: int | None,
        person: Person,
        is_admin: ChatCheck,
        name: str,
        value: str,
    ) -> Done[Reply]:
        """An option changed while it signs up: `name` one of `OPTION_NAMES`, `value` as
        the front end carries it (a game's key, "round_robin"/"swiss", "2".."4",
        "on"/"off", a number of rounds, "off" or a computer level, "5"/"10"/"30")."""

        async def change(tx: Transaction, tournament: TournamentRecord) -> Change:
            if tournament.status is not TournamentStatus.SIGNUP:
                raise Refusal("tournament.signup_closed")
            if name not in OPTION_NAMES:
                raise Refusal("tournament.bad_option")
            options = with_option(tournament.options, name, value)
            if options == tournament.options:
                return None, NO_REPLY, Effects()
            return dataclasses.replace(tournament, options=options), NO_REPLY, Effects()

        what = f"option {name}={value[:20]}"
        return await self._change(tournament_id, chat_id, person, is_admin, what, change)

    async def start(
        self, tournament_id: int, chat_id: int | None, person: Person, is_admin: ChatCheck
    ) -> Done[Reply]:
        """«▶️ Начать»: the entrants fixed (pairs formed in sign-up order, computers
        added to fill the last table when on), the round robin's whole schedule stored
        or Swiss round 1 paired, round 1's tables due."""

        async def start(tx: Transaction, tournament: TournamentRecord) -> Change:
            if tournament.status is not TournamentStatus.SIGNUP:
                raise Refusal("tournament.signup_closed")
            lang = await self.people.language_of(tournament.creator_id, tx)
            begun = begin(tournament, lang)
            drawn = await begin_round(tx, begun, 1)
            assert drawn is not None  # two entrants at least
            saved = await advance(tx, drawn)
            asked, rounds = tournament.options.rounds, begun.options.rounds
            if asked is not None and rounds is not None and rounds < asked:
                # Fewer rounds than set: as many as these entrants can play, said so.
                answer = Reply.of(
                    "tournament.started_fewer_rounds", rounds=rounds, n=len(begun.entrants)
                )
                return None, answer, effects_of(saved)
            return None, Reply("tournament.started"), effects_of(saved)

        return await self._change(tournament_id, chat_id, person, is_admin, "start", start)

    async def pause(
        self, tournament_id: int, chat_id: int | None, person: Person, is_admin: ChatCheck
    ) -> Done[Reply]:
        """No new table opens; the matches running go on."""

        async def pause(tx: Transaction, tournament: TournamentRecord) -> Change:
            if tournament.status is not TournamentStatus.RUNNING:
                raise Refusal("tournament.not_running")
            paused = dataclasses.replace(tournament, status=TournamentStatus.PAUSED)
            return paused, Reply("tournament.paused_now"), Effects()

        return await self._change(tournament_id, chat_id, person, is_admin, "pause", pause)

    async def resume(
        self, tournament_id: int, chat_id: int | None, person: Person, is_admin: ChatCheck
    ) -> Done[Reply]:
        """The paused tournament goes on: its tables due are offered again."""

        async def resume(tx: Transaction, tournament: TournamentRecord) -> Change:
            if tournament.status is not TournamentStatus.PAUSED:
                raise Refusal("tournament.not_paused")
            running = dataclasses.replace(tournament, status=TournamentStatus.RUNNING)
            saved = await store.save(tx, running)
            await announce_unopened(tx, saved)
            shown = Effects(tournaments=(saved.id,), tables_due=due_of(saved), announcements=True)
            return None, Reply("tournament.resumed"), shown

        return await self._change(tournament_id, chat_id, person, is_admin, "resume", resume)

    async def cancel(
        self,
        tournament_id: int,
        chat_id: int | None,
        person: Person,
        is_admin: ChatCheck,
        confirmed: bool,
    ) -> Done[Reply]:
        """The tournament ends without a winner (asked to confirm first): its tables'
        games running or waiting are cancelled and count for nobody in it (the stats
        count them as any cancelled match, K-11)."""

        async def cancel(tx: Transaction, tournament: TournamentRecord) -> Change:
            if not tournament.status.live:
                raise Refusal("tournament.over")
            if not confirmed:
                return None, Reply("tournament.ask_cancel"), Effects()
            ended = dataclasses.replace(
                tournament, status=TournamentStatus.CANCELLED, ended_at=utcnow()
            )
            saved = await store.save(tx, ended)  # first: the games' ends count nothing
            effects = Effects(tournaments=(saved.id,))
            for table in saved.tables:
                if table.game_id is None or not table.state.in_play:
                    continue
                game = await repo.load_game(tx, table.game_id)
                if game is None or not game.status.active:
                    continue
                closed = await repo.save_game(tx, game.ended(GameStatus.CANCELLED, utcnow()))
                effects += Effects(games=(closed,)) + await end_game(tx, closed)
            return None, Reply("tournament.cancelled_now"), effects

        return await self._change(tournament_id, chat_id, person, is_admin, "cancel", cancel)

    async def remove(
        self,
        tournament_id: int,
        chat_id: int | None,
        person: Person,
        is_admin: ChatCheck,
        entrant: int,
        confirmed: bool,
    ) -> Done[Reply]:
        """Someone taken out (asked to confirm first): off the list while it signs up;
        once it runs, forfeited from then on, their played matches kept."""

        async def remove(tx: Transaction, tournament: TournamentRecord) -> Change:
            if not tournament.status.live:
                raise Refusal("tournament.over")
            if not 0 <= entrant < len(tournament.entrants):
                raise Refusal("tournament.no_such_entrant")
            target = tournament.entrants[entrant]
            name = entrant_name(target)
            if target.withdrawn_round is not None or target.user_id is None:
                raise Refusal("tournament.no_such_entrant")
            if not confirmed:
                return None, Reply.of("tournament.ask_remove_one", name=name), Effects()
            answer = Reply.of("tournament.removed", name=name)
            if tournament.status is TournamentStatus.SIGNUP:
                return without_signup(tournament, target.user_id), answer, Effects()
            _, effects = await self._withdraw(tx, tournament, target)
            return None, answer, effects

        what = f"remove entrant {entrant}"
        return await self._change(tournament_id, chat_id, person, is_admin, what, remove)

    async def person_left(self, chat_id: int, user_id: int) -> Done[None]:
        """The person left the group (or was removed from it): off the sign-up list of
        its tournaments, out of those running (forfeited from then on, as `sign_off`)."""
        effects = Effects()
        for tournament_id in await store.live_with_person(self.db, chat_id, user_id):
            async with self.db.transaction() as tx:
                tournament = await store.load(tx, tournament_id)
                entrant = tournament.entrant_of(user_id) if tournament is not None else None
                if tournament is None or entrant is None or not tournament.status.live:
                    continue
                if tournament.status is TournamentStatus.SIGNUP:
                    await store.save(tx, without_signup(tournament, user_id))
                    effects += Effects(tournaments=(tournament_id,))
                elif entrant.withdrawn_round is None:
                    _, withdrawn = await self._withdraw(tx, tournament, entrant)
                    effects += withdrawn
        return Done(None, effects)

    async def _withdraw(
        self, tx: Transaction, tournament: TournamentRecord, entrant: EntrantRecord
    ) -> tuple[TournamentRecord, Effects]:
        """`entrant` is out of the running tournament: forfeited from its table of this
        round if that has not begun, else from the next round on. Its people leave
        the lobby of its table if it waits; the table resolves then if it can. Saved."""
        number = tournament.current_round
        mine = next(
            (
                table
                for table in tournament.tables
                if table.round_no == number and entrant.number in table.entrants
            ),
            None,
        )
        begun = mine is not None and mine.state in (TableState.PLAYING, TableState.DONE)
        out = dataclasses.replace(entrant, withdrawn_round=number + 1 if begun else number)
        tournament = tournament.with_entrant(out)
        effects = Effects()
        if mine is not None and mine.state is TableState.OPEN and mine.game_id is not None:
            game = await repo.load_game(tx, mine.game_id)
            if game is not None and game.status is GameStatus.LOBBY:
                for user_id in entrant.people:
                    seat = game.seat_of(user_id)
                    if seat is not None:
                        game = game.without_seat(seat.seat)
                lang = await self.people.language_of(tournament.creator_id, tx)
                changed, tournament = await fill_table(
                    tx, tournament, mine, game, self.context, lang
                )
                saved_game = await repo.save_game(tx, changed or game)
                effects += Effects(games=(saved_game,))
        saved = await advance(tx, tournament)
        log.info(
            "chat %s tournament %s: entrant %d out from round %d",
            saved.chat_id,
            saved.id,
            entrant.number,
            out.withdrawn_round,
        )
        return saved, effects + effects_of(saved)

    async def open_table(
        self, tournament_id: int, round_no: int, table_no: int, thread_id: int | None
    ) -> Done[None]:
        """The front end opens a due table in the topic `thread_id` (one it made for the
        table, or the tournament's): a lobby with the table's computers seated, waiting
        for its people until the show-up time. A topic busy with another game leaves
        the table due (offered again when a table's game ends). Once opened, or when the
        tournament is paused or over, this does nothing."""
        shown = await store.load(self.db, tournament_id)
        if shown is None:
            return Done(None)
        lang = await self.people.language_of(shown.creator_id)
        try:
            async with self.db.transaction() as tx:
                tournament = await store.load(tx, tournament_id)
                if tournament is None or tournament.status is not TournamentStatus.RUNNING:
                    return Done(None)
                table = tournament.table(round_no, table_no)
                if table is None or table.state is not TableState.DUE:
                    return Done(None)
                if await repo.active_game_in_chat(tx, tournament.chat_id, thread_id) is not None:
                    return Done(None)
                absent = absent_from_outset(tournament, table)
                per = 2 if tournament.options.pairs else 1
                seats = len(table.entrants) * per
                computers = [
                    tournament.entrants[n]
                    for n in table.entrants
                    if tournament.entrants[n].user_id is None
                ]
                game = await repo.create_game(
                    tx,
                    chat_id=tournament.chat_id,
                    creator_id=tournament.creator_id,
                    ruleset=table_ruleset(tournament.options, seats),
                    seats_wanted=seats,
                    seats=[
                        SeatRecord(i, None, c.name, level=c.level or Level.MEDIUM)
                        for i, c in enumerate(c for c in computers for _ in range(per))
                    ],
                    join_token=new_join_token(),
                    lobby_deadline=self.context.show_up_deadline(
                        tournament.options.show_up_minutes
                    ),
                    thread_id=thread_id,
                    tournament=TableRef(tournament.id, round_no, table_no),
                )
                opened = dataclasses.replace(
                    table,
                    state=TableState.OPEN,
                    game_id=game.id,
                    thread_id=thread_id,
                    absent=absent,
                )
                tournament = tournament.with_table(opened)
                changed, tournament = await fill_table(
                    tx, tournament, opened, game, self.context, lang
                )
                if changed is not None:
                    game = await repo.save_game(tx, changed)
                told = False
                if game.status is GameStatus.LOBBY:
                    told = await self._tell_drawn(tx, tournament, opened)
                saved = await advance(tx, tournament)
        except repo.ChatBusy:
            return Done(None)
        log.info(
            "chat %s tournament %s: round %d table %d opened (game %s)",
            saved.chat_id,
            saved.id,
            round_no,
            table_no,
            game.id,
        )
        effects = Effects(games=(game,), tournaments=(saved.id,), announcements=told)
        if changed is not None and changed.status is GameStatus.CANCELLED:
            effects += effects_of(saved)
        return Done(None, effects)

    async def _tell_drawn(
        self, tx: Transaction, tournament: TournamentRecord, table: TableRecord
    ) -> bool:
        """Each person drawn to the table who has the bot's private chat is told there
        that it opened (someone not watching the group would miss it and lose by
        forfeit): in their language, plain text. Whether anyone was told."""
        title = await chat_title(tx, tournament.chat_id)
        told = False
        for number in table.entrants:
            if number in table.absent:
                continue
            for user_id in tournament.entrants[number].people:
                user = await repo.get_user(tx, user_id)
                if user is None or not user.can_message:
                    continue
                await repo.enqueue(
                    tx,
                    game_id=None,
                    chat_id=user_id,
                    kind="notice",
                    payload={
                        "key": "tournament.your_table",
                        "lang": (await self.people.language_of(user_id, tx)).value,
                        "values": {
                            "chat": title,
                            "round": table.round_no,
                            "table": table.table_no,
                            "minutes": tournament.options.show_up_minutes,
                        },
                    },
                )
                told = True
        return told

    # Reads

    async def manageable(
        self, tournament_id: int, chat_id: int | None, person: Person, is_admin: ChatCheck
    ) -> TournamentRecord:
        """The tournament, for its organiser's menus (settings, removals, confirmations),
        when asked from its own group by the organiser or an admin there. Raises
        Refusal, as the changes themselves do."""
        tournament = await store.load(self.db, tournament_id)
        if tournament is None or chat_id is None or tournament.chat_id != chat_id:
            raise Refusal("tournament.not_here")
        if not await self.may_organise(tournament, person, is_admin):
            raise Refusal("tournament.organiser_only")
        return tournament

    async def due_tables(self) -> list[TableDue]:
        """Every running tournament's tables due: what a restarted bot opens again."""
        due: list[TableDue] = []
        for tournament in await store.with_due_tables(self.db):
            due.extend(due_of(tournament))
        return due

    async def get(self, tournament_id: int) -> TournamentRecord | None:
        return await store.load(self.db, tournament_id)

    async def current(self, chat_id: int, thread_id: int | None) -> TournamentRecord | None:
        """The tournament signing up, running or paused in the chat's topic."""
        return await store.live_in_topic(self.db, chat_id, thread_id)

    async def finished_of_chat(self, chat_id: int, limit: int) -> list[TournamentRecord]:
        """The group's finished tournaments, newest first (/history)."""
        return await store.finished_of_chat(self.db, chat_id, limit)

    async def person_marks(self, chat_id: int, user_id: int) -> tuple[int, int]:
        """The group's finished tournaments the person played in, and won: first place
        of the final standings, shared first counting for each (/stats)."""
        played = won = 0
        for tournament in await store.finished_with_person(self.db, chat_id, user_id):
            entrant = tournament.entrant_of(user_id)
            if entrant is None:
                continue
            played += 1
            line = next(x for x in tournament.standings() if x.entrant == entrant.number)
            won += line.place == 1
        return played, won

    # The common steps

    @staticmethod
    async def may_organise(
        tournament: TournamentRecord, person: Person, is_admin: ChatCheck
    ) -> bool:
        """The organiser (who opened it) or an admin of its group."""
        return person.id == tournament.creator_id or await is_admin(tournament.chat_id)

    async def _change(
        self,
        tournament_id: int,
        chat_id: int | None,
        person: Person,
        is_admin: ChatCheck | None,
        what: str,
        change: Callable[[Transaction, TournamentRecord], Awaitable[Change]],
    ) -> Done[Reply]:
        """Apply `change` to the tournament, asked in `chat_id`: refused as missing when
        that is not its group; with `is_admin`, only the organiser or an admin may."""
        self.people.noticed(person)
        try:
            shown = await store.load(self.db, tournament_id)
            if shown is None or chat_id is None or shown.chat_id != chat_id:
                raise Refusal("tournament.not_here")
            if is_admin is not None and not await self.may_organise(shown, person, is_admin):
                raise Refusal("tournament.organiser_only")
            async with self.db.transaction() as tx:
                await repo.upsert_user(tx, person.record())
                await lock_table_games(tx, shown)
                tournament = await store.load(tx, tournament_id)
                assert tournament is not None  # never deleted
                changed, answer, effects = await change(tx, tournament)
                if changed is not None:
                    await store.save(tx, changed)
                    effects += Effects(tournaments=(tournament_id,))
        except Refusal as refusal:
            return Done(refusal.reply)
        if changed is not None or effects.tournaments:
            log.info("chat %s tournament %s: %s by %s", chat_id, tournament_id, what, person.id)
        return Done(answer, effects)


async def lock_table_games(tx: Transaction, tournament: TournamentRecord) -> None:
    """Lock the games of the tournament's tables in play before the tournament itself,
    the order a match's end takes (its game, then its table's tournament in `end_game`):
    so a cancel or a removal and a match ending at the same moment wait for each other
    on PostgreSQL instead of deadlocking. A no-op where the database locks whole."""
    if not tx.locks_rows:
        return
    games = {table.game_id for table in tournament.tables if table.state.in_play}
    for game_id in sorted(g for g in games if g is not None):
        await repo.load_game(tx, game_id)


def without_signup(tournament: TournamentRecord, user_id: int) -> TournamentRecord:
    """The sign-up list without the person; the later ones move up (sign-up order)."""
    kept = [e for e in tournament.entrants if user_id not in e.people]
    return dataclasses.replace(
        tournament,
        entrants=tuple(dataclasses.replace(e, number=i) for i, e in enumerate(kept)),
    )


def entrant_bounds(options: TournamentOptions) -> range:
    return SWISS_ENTRANTS if options.format is Format.SWISS else ROUND_ROBIN_ENTRANTS


def begin(tournament: TournamentRecord, lang: Lang) -> TournamentRecord:
    """The tournament's entrants fixed and its schedule stored (the round robin's whole
    schedule PLANNED; Swiss rounds set within what its entrants allow); refused when
    there are too few or too many, or an odd number of people for pairs."""
    options = tournament.options
    people = tournament.entrants
    if options.pairs:
        if len(people) % 2:
            raise Refusal("tournament.odd_pairs", n=len(people))
        entrants = [
            EntrantRecord(
                i, first.user_id, first.name, partner_id=second.user_id, partner_name=second.name
            )
            for i, (first, second) in enumerate(zip(people[::2], people[1::2], strict=True))
        ]
    else:
        entrants = [dataclasses.replace(e, number=i) for i, e in enumerate(people)]
    bounds = entrant_bounds(options)
    # With pairs the entrants are pairs, and the refusals count pairs.
    too_few, too_many = (
        ("tournament.too_few_pairs", "tournament.too_many_pairs")
        if options.pairs
        else ("tournament.too_few", "tournament.too_many")
    )
    if len(entrants) < 2:
        raise Refusal(too_few, n=len(entrants), min=bounds.start)
    if options.computers is not None:
        for n in range(1, (-len(entrants)) % options.table_size + 1):
            name = t("computer.name", lang, n=n)
            entrants.append(EntrantRecord(len(entrants), None, name, level=options.computers))
    count = len(entrants)
    if count < bounds.start:
        raise Refusal(too_few, n=count, min=bounds.start)
    if count > bounds.stop - 1:
        raise Refusal(too_many, n=count, max=bounds.stop - 1)
    tables: tuple[TableRecord, ...] = ()
    if options.format is Format.ROUND_ROBIN:
        tables = tuple(
            TableRecord(r.number, table_no, table.entrants, TableState.PLANNED)
            for r in round_robin(count, options.table_size)
            for table_no, table in enumerate(r.tables, start=1)
        )
    else:
        allowed = swiss_rounds_allowed(count, options.table_size)
        rounds = min(options.rounds or DEFAULT_SWISS_ROUNDS, allowed.stop - 1)
        options = dataclasses.replace(options, rounds=rounds)
    return dataclasses.replace(
        tournament,
        status=TournamentStatus.RUNNING,
        options=options,
        entrants=tuple(entrants),
        tables=tables,
        started_at=utcnow(),
    )
