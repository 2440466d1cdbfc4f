"""The stored shapes of people, chats and games, as frozen dataclasses.

Repositories (`storage.repo`) read and write these; the use cases change a game with
its methods (`with_seat`, `left_by`, `ended`, ...: each returns the changed record) and
save it back with the version they loaded, so a change
made meanwhile by another press is detected instead of overwritten.

`ScoredMatch` is a finished game as the standings count it (`bot.app.standings.score`
works it out), in the shape `storage.stats.record_match` stores.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum

from domino.ai import Level
from domino.match import Match
from domino.rules import Ruleset, Variant
from domino.timing import DEFAULT_TURN_TIMER, TurnTimer
from domino.tournament import Bye, Format, Line, TableResult, standings
from domino.variants import VARIANTS


class GameStatus(StrEnum):
    LOBBY = "lobby"  # players are joining; options may change
    PLAYING = "playing"
    FINISHED = "finished"  # the match reached its end (K-10 / T-6)
    CANCELLED = "cancelled"  # ended by the creator or an admin before its end

    @property
    def active(self) -> bool:
        return self in (GameStatus.LOBBY, GameStatus.PLAYING)


class Ending(StrEnum):
    """How a match ended, as the stats count it (K-11)."""

    FINISHED = "finished"  # a side reached the target (K-10 / T-6)
    SURRENDER = "surrender"  # a person gave up (/surrender): they are the козёл
    TIMEOUT = "timeout"  # a person ran out of time three times and was replaced (K-11)
    LEFT = "left"  # a person left the running match (/leave): scored as TIMEOUT
    CANCELLED = "cancelled"  # /cancel or a vote to cancel: counted for nobody
    DRAW = "draw"  # every person agreed to a draw: nobody wins, loses or gains rating


@dataclass(frozen=True, slots=True)
class Abandonment:
    """The first person to abandon a running match, and every seat's points then.

    K-11's timeout rule scores the match from this moment: `seat` gains nothing, every
    other player by their lead over it then (`bot.app.standings.abandonment_gains`).
    """

    seat: int
    reason: Ending  # SURRENDER, TIMEOUT or LEFT
    points: tuple[int, ...]  # Match.seat_points() when it happened
    # Another seat that gave up (/surrender) after it: a surrenderer gains no rating and
    # wins nothing, whoever abandoned first (`bot.app.standings`).
    surrendered: int | None = None
    # Rounds over when it happened (None: not known, as in a record stored without it).
    # After a /leave the computer plays the seat out, and what it does there is not the
    # person's.
    rounds: int | None = None

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {
            "seat": self.seat,
            "reason": self.reason.value,
            "points": list(self.points),
        }
        if self.surrendered is not None:
            data["surrendered"] = self.surrendered
        if self.rounds is not None:
            data["rounds"] = self.rounds
        return data

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Abandonment:
        points = data["points"]
        assert isinstance(points, list)
        surrendered = data.get("surrendered")
        rounds = data.get("rounds")
        return cls(
            int(str(data["seat"])),
            Ending(str(data["reason"])),
            tuple(int(p) for p in points),
            None if surrendered is None else int(str(surrendered)),
            None if rounds is None else int(str(rounds)),
        )

    def played_for(self, seat: int, round_no: int) -> bool:
        """Whether round `round_no` (1-based) was played by the computer for `seat` because
        the person had left the match for good (/leave) before it ended."""
        return (
            seat == self.seat
            and self.reason is Ending.LEFT
            and self.rounds is not None
            and round_no > self.rounds
        )

    def given_up_by(self, seat: int) -> Abandonment:
        """`seat` gave up (/surrender) after this abandonment: the culprit stays (K-11,
        the first abandonment counts), the surrenderer is remembered to gain nothing."""
        return self if seat == self.seat else replace(self, surrendered=seat)


@dataclass(frozen=True, slots=True)
class UserRecord:
    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language: str = "ru"
    can_message: bool = False  # pressed Start in the private chat and has not blocked the bot

    @property
    def display_name(self) -> str:
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name


@dataclass(frozen=True, slots=True)
class ChatRecord:
    id: int
    type: str
    title: str | None = None
    bot_member: bool = True


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int
    user_id: int | None  # None: a computer player from the start
    name: str
    away: bool = False  # a computer plays for the person for now (turn-timer strikes)
    left: bool = False  # the person left the match for good; a computer plays the seat
    strikes: int = 0  # turns the timer ran out on in this match
    level: Level = Level.MEDIUM  # how strong a computer seat plays (chosen in the lobby)

    @property
    def plays_at(self) -> Level:
        """The level the computer moves this seat at: a computer seat's own; a person's
        seat a computer plays for (timeouts, takeovers, /leave) at medium."""
        return self.level if self.is_computer else Level.MEDIUM

    @property
    def is_computer(self) -> bool:
        """A computer player from the start: no person behind the seat at all."""
        return self.user_id is None

    @property
    def by_computer(self) -> bool:
        """The computer makes this seat's moves now (a computer, or a person away or gone)."""
        return self.user_id is None or self.away or self.left


class Role(StrEnum):
    LOBBY = "lobby"
    TABLE = "table"
    HAND = "hand"


@dataclass(frozen=True, slots=True)
class MessageRecord:
    """A message that shows a game, and a digest of what it shows now."""

    game_id: int
    role: Role
    seat: int  # the hand's seat; -1 for the lobby and the table
    chat_id: int
    message_id: int
    file_id: str | None = None
    digest: str | None = None


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    chat_id: int
    status: GameStatus
    creator_id: int
    ruleset: Ruleset
    seats_wanted: int
    seats: tuple[SeatRecord, ...] = ()
    match: Match | None = None
    version: int = 0
    # The forum topic the game was opened in, where all its group's messages go (its
    # message_thread_id); None: a group that is no forum, or the forum's General topic.
    thread_id: int | None = None
    created_at: datetime = field(default_factory=datetime.now)
    started_at: datetime | None = None
    ended_at: datetime | None = None
    ending: Ending | None = None  # set when the game ends (status FINISHED or CANCELLED)
    abandonment: Abandonment | None = None  # the first person who abandoned the match
    join_token: str | None = None  # the secret of the lobby's deep link
    lobby_deadline: datetime | None = None  # when the lobby closes if nobody starts it
    # When the person's turn in progress runs out (bot.app.timers), written with the move
    # that began it, in the same statement; None: untimed or not known yet.
    turn_deadline: TurnDeadline | None = None
    # The seats as the database holds them, known from the load or the last save, so a
    # save that changes none writes none and reads none back.
    stored_seats: tuple[SeatRecord, ...] | None = field(default=None, compare=False, repr=False)
    stored_active: bool | None = field(default=None, compare=False, repr=False)
    # The tournament table the game is played at (None: an ordinary game); set when the
    # table's lobby is created, never changed.
    tournament: TableRef | None = None

    def seat_of(self, user_id: int) -> SeatRecord | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat
        return None

    @property
    def people(self) -> tuple[SeatRecord, ...]:
        return tuple(s for s in self.seats if not s.is_computer)

    # --- changes: each returns the changed game (records are frozen) ------------------

    def with_seat(self, user_id: int | None, name: str) -> GameRecord:
        """One more seat at the end of the table (a person, or a computer: `user_id` None)."""
        return replace(self, seats=(*self.seats, SeatRecord(len(self.seats), user_id, name)))

    def without_seat(self, seat: int) -> GameRecord:
        """The lobby without `seat`; the seats after it move up one (a computer keeps its
        level)."""
        remaining = [s for s in self.seats if s.seat != seat]
        return replace(
            self,
            seats=tuple(
                SeatRecord(i, s.user_id, s.name, level=s.level) for i, s in enumerate(remaining)
            ),
        )

    def with_level(self, seat: int, level: Level) -> GameRecord:
        """The lobby with the computer in `seat` playing at `level`."""
        return self._seat_changed(seat, lambda s: replace(s, level=level))

    def _seat_changed(self, seat: int, change: Callable[[SeatRecord], SeatRecord]) -> GameRecord:
        return replace(self, seats=tuple(change(s) if s.seat == seat else s for s in self.seats))

    def left_by(self, seat: int) -> GameRecord:
        """The person of `seat` left the running match for good: a computer plays it. The
        first person to abandon a match is remembered with the points of that moment (K-11)."""
        return self._seat_changed(seat, lambda s: replace(s, left=True)).abandoned_by(
            seat, Ending.LEFT
        )

    def struck(self, seat: int, strikes: int, *, away: bool) -> GameRecord:
        """`seat`'s turn timed out: its strikes, and whether a computer now plays for it."""
        return self._seat_changed(seat, lambda s: replace(s, strikes=strikes, away=away))

    def back(self, seat: int) -> GameRecord:
        """The person of `seat` plays again, with no strikes; a timeout of theirs that was the
        match's abandonment is withdrawn (K-11)."""
        changed = self._seat_changed(seat, lambda s: replace(s, away=False, strikes=0))
        first = self.abandonment
        if first is not None and first.seat == seat and first.reason is Ending.TIMEOUT:
            changed = replace(changed, abandonment=None)
        return changed

    def abandoned_by(self, seat: int, reason: Ending) -> GameRecord:
        """`seat` abandoned the running match (`reason`); only the first abandonment counts
        (K-11), kept with every seat's points at that moment."""
        if self.abandonment is not None or self.match is None:
            return self
        first = Abandonment(seat, reason, self.match.seat_points(), rounds=len(self.match.results))
        return replace(self, abandonment=first)

    def ended(self, status: GameStatus, at: datetime, ending: Ending | None = None) -> GameRecord:
        """The game over (`FINISHED` or `CANCELLED`) at `at`, and how it ended."""
        if ending is None:
            ending = Ending.FINISHED if status is GameStatus.FINISHED else Ending.CANCELLED
        return replace(self, status=status, ended_at=at, ending=ending)


# A finished match as the standings count it ----------------------------------------


@dataclass(frozen=True, slots=True)
class ScoredSeat:
    """One seat of a recorded match: what the standings credit it with."""

    seat: int
    user_id: int | None  # None: a computer from the start
    name: str  # the seat's name when the match ended
    side: int
    points: int  # final points (a team's for both partners)
    goat: bool  # the козёл: last place
    won: bool  # first place
    good: bool  # a good match for the streak (else a bad one)
    rating_gain: int
    went_out: int  # rounds the seat went out
    fish_made: int  # rounds ended by a fish with the seat as the рыбак
    eggs_taken: int  # rounds in which the seat's side took carried eggs (K-9)
    drawn: bool = False  # the match ended drawn by agreement


@dataclass(frozen=True, slots=True)
class ScoredPair:
    """Two people who were partners in a team match, whatever their seats."""

    user_ids: tuple[int, int]  # low, high
    rating_gain: int
    goat: bool
    won: bool
    points: int


@dataclass(frozen=True, slots=True)
class ScoredMatch:
    """A finished game as the standings count it, worked out before anything is written
    (`bot.app.standings.score`); `storage.stats.record_match` stores it."""

    game: Variant
    ending: Ending  # as stored: an abandoned game's is the abandonment's reason
    culprit: int | None  # the seat that abandoned the match first
    seats: tuple[ScoredSeat, ...]  # in seat order
    pairs: tuple[ScoredPair, ...]  # team play: partners who are both people
    # Per seat, 0 the best; None: the match counts for nobody's Elo. Only a match of
    # people alone (no computer seat) has places.
    elo_places: tuple[int, ...] | None


# Turn timers -----------------------------------------------------------------------


# A language a group chose for its messages, as a code (a folder of i18n's catalogues;
# which of them this version has is the reader's question, `bot.app.group_settings`).
LANG_CODE = re.compile(r"^[a-z]{2,3}$")
LOBBY_TIMEOUTS = (0, 5, 10, 30)  # minutes an unstarted lobby stays open; 0: no limit
DEFAULT_LOBBY_TIMEOUT = 10
GAME_KEYS = frozenset(game.key.value for game in VARIANTS)  # a group's default game is one
DEFAULT_GAME = "kozel"  # Козёл, until a group picks another game


class HandsPlace(StrEnum):
    """Where a person's hand is shown: in the group, as an ephemeral message only they
    see (the table's «✋ Мои кости» brings it), in their private chat with the bot, or
    both. A person's choice (`users.hands`, the private /settings) or a group's default
    (`ChatSettings.hands`). The group's button works whatever the choice; the choice
    says whether the private hand is kept too, and where turn notices go."""

    GROUP = "group"
    PRIVATE = "private"
    BOTH = "both"

    @property
    def private(self) -> bool:
        """The hand is kept in the private chat too (if the bot may write there)."""
        return self is not HandsPlace.GROUP

    @property
    def group(self) -> bool:
        return self is not HandsPlace.PRIVATE


DEFAULT_HANDS = HandsPlace.BOTH  # a group's default until its admins pick another


def hands_place(value: object) -> HandsPlace | None:
    """A stored value as a `HandsPlace`; None for anything else (NULL, an unknown value)."""
    if not isinstance(value, str):
        return None
    try:
        return HandsPlace(value)
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class ChatSettings:
    """A group's settings, stored as JSON in `chats.settings` (unknown keys are ignored,
    missing ones take their defaults, so old rows and new fields both read back)."""

    turn_timer: TurnTimer = DEFAULT_TURN_TIMER
    group_lang: str | None = None  # a language code for the group's messages; None: the creator's
    lobby_timeout: int = DEFAULT_LOBBY_TIMEOUT  # minutes (LOBBY_TIMEOUTS); 0: no limit
    default_game: str = DEFAULT_GAME  # the `GameVariant.key` a plain /domino opens
    hints: bool = True  # the «💡 Подсказка» button on the hands
    hands: HandsPlace = DEFAULT_HANDS  # where hands are shown, for whoever did not choose

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"turn_timer": self.turn_timer.value}
        if self.group_lang is not None:
            data["group_lang"] = self.group_lang
        if self.lobby_timeout != DEFAULT_LOBBY_TIMEOUT:
            data["lobby_timeout"] = self.lobby_timeout
        if self.default_game != DEFAULT_GAME:
            data["default_game"] = self.default_game
        if not self.hints:
            data["hints"] = False
        if self.hands is not DEFAULT_HANDS:
            data["hands"] = self.hands.value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> ChatSettings:
        timer = data.get("turn_timer")
        try:
            turn_timer = TurnTimer(str(timer)) if timer is not None else DEFAULT_TURN_TIMER
        except ValueError:
            turn_timer = DEFAULT_TURN_TIMER  # a value this version no longer offers
        lang = data.get("group_lang")
        minutes = data.get("lobby_timeout", DEFAULT_LOBBY_TIMEOUT)
        game = data.get("default_game")
        return cls(
            turn_timer=turn_timer,
            group_lang=lang if isinstance(lang, str) and LANG_CODE.match(lang) else None,
            lobby_timeout=(
                minutes
                if isinstance(minutes, int) and minutes in LOBBY_TIMEOUTS
                else DEFAULT_LOBBY_TIMEOUT
            ),
            default_game=game if isinstance(game, str) and game in GAME_KEYS else DEFAULT_GAME,
            hints=data.get("hints") is not False,
            hands=hands_place(data.get("hands")) or DEFAULT_HANDS,
        )


@dataclass(frozen=True, slots=True)
class TurnDeadline:
    """When the turn in progress of a game runs out: `move` is the match's move number
    (len(match.log)) it is for, `deadline` a UTC moment, `limit` the seconds it got."""

    game_id: int
    move: int
    deadline: datetime
    limit: float


# Tournaments (docs/tournaments.md) ---------------------------------------------------


class TournamentStatus(StrEnum):
    SIGNUP = "signup"  # people sign up; the organiser sets the options
    RUNNING = "running"
    PAUSED = "paused"  # no new table opens; matches running go on
    FINISHED = "finished"  # the last round is over
    CANCELLED = "cancelled"  # ended by the organiser, without a winner

    @property
    def live(self) -> bool:
        return self in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING, TournamentStatus.PAUSED)


class TableState(StrEnum):
    PLANNED = "planned"  # a later round of the round robin's fixed schedule
    DUE = "due"  # to be opened by the front end (`Tournaments.open_table`)
    OPEN = "open"  # its lobby waits for the people drawn to it
    PLAYING = "playing"
    DONE = "done"  # its result is stored

    @property
    def in_play(self) -> bool:
        """A table with a game on: its lobby waiting, or its match running."""
        return self in (TableState.OPEN, TableState.PLAYING)


@dataclass(frozen=True, slots=True)
class TournamentOptions:
    game: str  # a `GameVariant.key` value
    format: Format
    table_size: int  # entrants a table: 2, 3 or 4; with pairs always 2 (two pairs)
    pairs: bool  # fixed pairs (games of four in teams)
    rounds: int | None  # Swiss: rounds set at the start; round robin: None
    computers: Level | None  # the computers' level; None: off
    show_up_minutes: int  # 5, 10 or 30

    @property
    def seats(self) -> int:
        """Seats at a full table."""
        return self.table_size * (2 if self.pairs else 1)

    def to_dict(self) -> dict[str, object]:
        return {
            "game": self.game,
            "format": self.format.value,
            "table_size": self.table_size,
            "pairs": self.pairs,
            "rounds": self.rounds,
            "computers": None if self.computers is None else self.computers.value,
            "show_up_minutes": self.show_up_minutes,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> TournamentOptions:
        rounds, computers = data.get("rounds"), data.get("computers")
        return cls(
            game=str(data["game"]),
            format=Format(str(data["format"])),
            table_size=int(str(data["table_size"])),
            pairs=data.get("pairs") is True,
            rounds=None if rounds is None else int(str(rounds)),
            computers=None if computers is None else Level(str(computers)),
            show_up_minutes=int(str(data["show_up_minutes"])),
        )


@dataclass(frozen=True, slots=True)
class EntrantRecord:
    number: int  # 0-based, in sign-up order
    user_id: int | None  # None: a computer
    name: str
    partner_id: int | None = None  # fixed pairs: the second person
    partner_name: str | None = None
    level: Level | None = None  # a computer's
    withdrawn_round: int | None = None  # forfeited from this round on

    @property
    def people(self) -> tuple[int, ...]:
        """The user ids of the entrant's people (none for a computer)."""
        return tuple(u for u in (self.user_id, self.partner_id) if u is not None)

    def withdrawn_by(self, round_no: int) -> bool:
        """Forfeited at every table of round `round_no`."""
        return self.withdrawn_round is not None and self.withdrawn_round <= round_no


@dataclass(frozen=True, slots=True)
class TableRecord:
    round_no: int
    table_no: int
    entrants: tuple[int, ...]  # entrant numbers in seat order
    state: TableState
    game_id: int | None = None
    thread_id: int | None = None
    result: TableResult | None = None
    absent: frozenset[int] = frozenset()  # entrants forfeited at this table


@dataclass(frozen=True, slots=True)
class TableDue:
    """A table the front end should open (make a topic for it if it can, then call
    `Tournaments.open_table`)."""

    tournament_id: int
    chat_id: int
    thread_id: int | None  # the tournament's topic
    round_no: int
    table_no: int
    names: tuple[str, ...]  # the entrants' names, for a topic's title


@dataclass(frozen=True, slots=True)
class TableRef:
    """The tournament table a game is played at."""

    tournament_id: int
    round_no: int
    table_no: int


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    id: int
    chat_id: int
    thread_id: int | None
    creator_id: int
    status: TournamentStatus
    options: TournamentOptions
    entrants: tuple[EntrantRecord, ...] = ()
    tables: tuple[TableRecord, ...] = ()
    byes: tuple[Bye, ...] = ()
    current_round: int = 0
    version: int = 0
    created_at: datetime | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None

    def standings(self, upto_round: int | None = None) -> tuple[Line, ...]:
        """The standings of what is stored (`domino.tournament.standings`); with
        `upto_round`, of its rounds up to that one only (a table's result is shown with
        the standings of its round, without what a later round already counted: a
        forfeit decided the moment that round was drawn)."""
        results = [
            t.result
            for t in self.tables
            if t.result is not None and (upto_round is None or t.round_no <= upto_round)
        ]
        byes = tuple(b for b in self.byes if upto_round is None or b.round <= upto_round)
        withdrawn = [e.number for e in self.entrants if e.withdrawn_round is not None]
        return standings(len(self.entrants), self.options.format, results, byes, withdrawn)

    def round_count(self) -> int:
        """Planned rounds: the round robin's schedule; Swiss, the rounds set."""
        if self.options.format is Format.SWISS:
            return self.options.rounds or 0
        return max((t.round_no for t in self.tables), default=0)

    def table(self, round_no: int, table_no: int) -> TableRecord | None:
        return next(
            (t for t in self.tables if (t.round_no, t.table_no) == (round_no, table_no)), None
        )

    def entrant_of(self, user_id: int) -> EntrantRecord | None:
        return next((e for e in self.entrants if user_id in e.people), None)

    def with_table(self, table: TableRecord) -> TournamentRecord:
        """The tournament with `table` (same round and number) replaced."""
        key = (table.round_no, table.table_no)
        return replace(
            self,
            tables=tuple(table if (t.round_no, t.table_no) == key else t for t in self.tables),
        )

    def with_entrant(self, entrant: EntrantRecord) -> TournamentRecord:
        return replace(
            self,
            entrants=tuple(entrant if e.number == entrant.number else e for e in self.entrants),
        )
