"""What every use case shares: its context, the answers and refusals, and the steps
several use cases take inside their transaction (saving moves, owing a notice,
closing a match's votes).

Every use case follows one pattern: in one transaction load the game, check the
request, change the game (through the engine and the record's own methods), save it
with its version together with any announcements owed, and return `Done(value,
effects)`; the effects are carried out only after the commit (`bot.app.effects`). So
nothing is shown that is not stored, a crash loses nothing that was confirmed, and a
second press of the same button finds the game moved on (its move number no longer
matches) and is answered as stale instead of being applied twice.

Refusals are answers, not errors: a press by an outsider, a stale button, a command
in the wrong place all get a short polite `Reply` (a text key, `bot.app.reply`) and
change nothing. What a use case may raise is the database failing for the moment
(`is_transient`): another process holds its write lock, or the disk is full. Its
transaction was rolled back, so nothing changed, and the same request may succeed when
tried again; a front end asks the person to.

A use case is asked about a chat as a `ChatRecord` (its id, type and title).
"""

from __future__ import annotations

import dataclasses
import functools
import html
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.app import standings
from bot.app.effects import Effects
from bot.app.group_settings import GroupSettings
from bot.app.names import short_name
from bot.app.people import People
from bot.app.reply import Reply, SeatScore, Side, stored
from bot.app.usecases import tournament_tables
from bot.infra import perf
from domino.match import Match
from storage import repo, stats
from storage import votes as vote_store
from storage.db import Database, Transaction
from storage.db import is_transient as is_transient
from storage.records import ChatRecord as ChatRecord
from storage.records import GameRecord, GameStatus, TurnDeadline

log = logging.getLogger(__name__)

# Asked of Telegram by the handlers, so the use cases hold no Bot: whether the
# person who pressed or wrote is an admin of the chat with the given id ...
ChatCheck = Callable[[int], Awaitable[bool]]
# ... and whether the person with the given id is a member of the chat (chat id, user id).
MemberCheck = Callable[[int, int], Awaitable[bool]]


@dataclass(frozen=True, slots=True)
class Context:
    """What the use cases read and write through."""

    db: Database
    people: People
    settings: GroupSettings
    bot_username: str
    new_seed: Callable[[], int]  # a new match's seed (secret: never logged or shown)
    vote_time: timedelta  # how long a vote to cancel stays open
    lobby_deadline: Callable[[int], datetime | None]  # when a lobby opened now in a chat closes
    # The deadline of the turn a game now stands at (None: untimed), stored with the move.
    turn_deadline: Callable[[GameRecord], TurnDeadline | None] = lambda game: None
    # When a tournament table's lobby opened now closes, given its show-up minutes.
    show_up_deadline: Callable[[int], datetime] = lambda minutes: (
        utcnow() + timedelta(minutes=minutes)
    )
    # The newest committed record of a game this process holds in memory (the front
    # end's), None if it holds none: never newer than the database's (a database that
    # went back is found at the pickup, which drops it), so a press it already proves
    # stale is stale (`Playing.known_stale`).
    newest_known: Callable[[int], GameRecord | None] = lambda game_id: None


class Refusal(Exception):
    """A request that changes nothing, with the text (key) that explains why."""

    def __init__(self, key: str, *, alert: bool = True, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.alert = alert
        self.values = values

    @property
    def reply(self) -> Reply:
        return Reply.of(self.key, alert=self.alert, **self.values)


class Stale(Refusal):
    """A button drawn for a position the running game has left. The press changes
    nothing, but it shows that the presser's message is behind the game: `game` (as
    loaded, the newest committed) is shown again and the presser's hand edited again
    whatever its digest says. So a hand whose edit never came (a COMMIT reported
    failed though it was kept) or was overwritten (a late edit of an instance deposed
    meanwhile) is mended by the press that found it; a double press costs one edit,
    which Telegram answers "not modified"."""

    def __init__(self, game: GameRecord, seat: int) -> None:
        super().__init__("alert.stale")
        self.game = game
        self.seat = seat  # the presser's

    def effects(self) -> Effects:
        return Effects(games=(self.game,), redrawn=((self.game.id, self.seat),))


class NotCreatorOrAdmin(Refusal):
    """Only the game's creator or an admin of its chat may do this outright (a player
    may still open a vote to cancel)."""

    def __init__(self) -> None:
        super().__init__("alert.creator_or_admin")


def utcnow() -> datetime:
    return datetime.now(UTC)


def checked_press(
    game: GameRecord | None,
    user_id: int,
    move: int,
    *,
    current: bool = True,
    group: int | None = None,
) -> tuple[int, Match]:
    """The pressing person's seat and the match; refused unless the press is theirs, the
    game is running and (`current`) the button was drawn for the position as it is now.
    `group`: the press came from a hand shown inside that group, which must be the
    game's own (None: from the person's private chat)."""
    if game is None:
        raise Refusal("alert.stale")
    if group is not None and game.chat_id != group:
        raise Refusal("alert.foreign_game")
    seat = game.seat_of(user_id)
    if seat is None:
        raise Refusal("alert.not_in_game")
    if game.status is not GameStatus.PLAYING or game.match is None:
        raise Refusal("alert.finished")
    if current and move != len(game.match.log):
        raise Stale(game, seat.seat)
    return seat.seat, game.match


def not_your_turn(game: GameRecord, match: Match) -> Refusal:
    return Refusal(
        "alert.not_your_turn", alert=False, name=short_name(game.seats[match.turn or 0].name)
    )


async def notice(tx: Transaction, game: GameRecord, key: str, **values: object) -> None:
    """Owe the game's group a notice (a text key and its values), sent after the commit.
    Notices are HTML: every text value is escaped here; the names inside sides and
    scores (`bot.app.reply.stored`) when the notice is written out."""
    escaped = {
        k: html.escape(v, quote=False) if isinstance(v, str) else stored(v)
        for k, v in values.items()
    }
    await repo.enqueue(
        tx,
        game_id=game.id,
        chat_id=game.chat_id,
        kind="notice",
        payload={"key": key, "values": escaped},
    )


async def chat_title(db: repo.Reader, chat_id: int) -> str:
    chat = await repo.get_chat(db, chat_id)
    return chat.title if chat and chat.title else "?"


async def close_votes(tx: Transaction, game: GameRecord) -> Effects:
    """The match ended another way: its open vote closes (the message follows once the
    transaction commits)."""
    return Effects(votes=tuple(await vote_store.close_votes_of_game(tx, game.id, utcnow())))


async def end_game(tx: Transaction, game: GameRecord) -> Effects:
    """Store a game that just ended (finished or cancelled): it counts in the stats if it
    should (`bot.app.standings.score` says which and how), its open vote closes, and a
    tournament table's result counts there with what is due next, in this same
    transaction (`tournament_tables.table_ended`: never without the match's end, never
    twice)."""
    scored = standings.score(game)
    if scored is not None:
        await stats.record_match(tx, game, scored)
    closed = await close_votes(tx, game)
    return closed + await tournament_tables.table_ended(tx, game)


@dataclass(frozen=True, slots=True)
class Before:
    """Where the match stood before the moves of a use case: its move number and the
    number of rounds it had finished."""

    move: int
    results: int

    @classmethod
    def of(cls, match: Match) -> Before:
        return cls(len(match.log), len(match.results))


async def save_moves(
    tx: Transaction,
    game: GameRecord,
    match: Match,
    before: Before,
    actor: int | None,
    deadline: Callable[[GameRecord], TurnDeadline | None],
) -> tuple[GameRecord, Effects]:
    """Save the match moved on since `before` (by person `actor`, or a computer), with
    the `deadline` of the turn it now stands at; owe the announcements of every round
    it finished and of the match's end."""
    move = before.move
    ids = {"chat_id": game.chat_id, "game_id": game.id}  # fields of a JSON log
    perf.count("moves", len(match.log) - move)
    # One line per batch of moves: numbers and seats, never a tile; told only once the
    # moves are committed (a change refused, or rolled back, is no move).
    tx.after_commit(
        functools.partial(
            log.info,
            "chat %s game %s: moves %d to %d by seat %s (%s)",
            game.chat_id,
            game.id,
            move + 1,
            len(match.log),
            match.log[move].seat if len(match.log) > move else "-",
            f"user {actor}" if actor is not None else "computer",
            extra=ids,
        )
    )
    changed = dataclasses.replace(game, match=match)
    if match.over:
        changed = changed.ended(GameStatus.FINISHED, utcnow())
    changed = dataclasses.replace(changed, turn_deadline=deadline(changed))
    saved = await repo.save_game(tx, changed)
    effects = Effects(games=(saved,))
    for result in match.results[before.results :]:
        await repo.enqueue(
            tx,
            game_id=game.id,
            chat_id=game.chat_id,
            kind="round_end",
            payload={"round_no": result.round_no},
        )
        tx.after_commit(
            functools.partial(
                log.info,
                "chat %s game %s: round %d over (%s, seat %d), points %s",
                game.chat_id,
                game.id,
                result.round_no,
                result.outcome.kind.value,
                result.outcome.seat,
                "/".join(str(p) for p in result.points),
                extra=ids,
            )
        )
        effects += Effects(announcements=True)
    if match.over:
        await repo.enqueue(tx, game_id=game.id, chat_id=game.chat_id, kind="match_end", payload={})
        # A match someone abandoned: its end announcement says how it counts, in one
        # message (`presenter.played_out_notes`), with no notice of its own.
        effects += await end_game(tx, saved) + Effects(announcements=True)
        tx.after_commit(
            functools.partial(
                log.info,
                "chat %s game %s: match over after %d rounds",
                game.chat_id,
                game.id,
                len(match.results),
                extra=ids,
            )
        )
    return saved, effects


async def tell_abandonment_scoring(tx: Transaction, game: GameRecord, key: str) -> None:
    """A match someone abandoned ended early: how the stats count it (K-11), in the words
    of `key` (/cancel's says it was cancelled). The notice names the first to abandon it
    (`name`), its loser's side and every seat's points then."""
    assert game.abandonment is not None
    name = game.seats[game.abandonment.seat].name
    await notice(tx, game, key, name=name, **abandonment_values(game))


def abandonment_values(game: GameRecord) -> dict[str, object]:
    """What the group is told of an abandoned match: the козёл's side (`goat`), and every
    seat's points when it was abandoned with the rating it gains for it (`lines`, as the
    stats record it: K-11's timeout rule, `domino.rating`; none for a computer's seat,
    which the stats do not keep)."""
    first, match = game.abandonment, game.match
    assert first is not None and match is not None
    gains = standings.abandonment_gains(first, match.ruleset.game, match.ruleset.target)
    lines = tuple(
        SeatScore(
            seat.name,
            first.points[seat.seat],
            None if seat.user_id is None else gains[seat.seat],
        )
        for seat in game.seats
    )
    return {"goat": side_of(game, first.seat), "lines": lines}


def side_of(game: GameRecord, seat: int) -> Side:
    """The side of `seat` by its seats' names."""
    match = game.match
    assert match is not None
    return Side(tuple(game.seats[s].name for s in match.sides[match.side_of(seat)]))


class UseCases:
    """A group of use cases over one context."""

    def __init__(self, context: Context) -> None:
        self.context = context
        self.db = context.db
        self.people = context.people
