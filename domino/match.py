"""A whole match: rounds one after another, scored until a side reaches the target.

`Match` drives `Round`s: it forwards each action to the current round, and when the
round ends it scores it (`domino.scoring`), checks the end of the match (K-10, T-6)
and, unless the match is over, deals the next round at once with the leader of
K-4 / T-2. Every round's deal comes from a generator seeded with a SHA-256 hash of
the match seed and the round number (C-12), so the seed and the action log replay
the whole match, while the tiles of one round say nothing about the next.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import operator
import random
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domino.actions import DRAW, Action, Closed, Draw, Event, Played, parse_action
from domino.errors import BadState, DominoError, MatchOver, StaleAction
from domino.players import Player
from domino.round import Round
from domino.rules import Ruleset, Sides
from domino.scoring import (
    initial_scores,
    match_deciders,
    next_leader,
    score_round,
    side_of,
    sides_for,
    written_result,
)
from domino.tiles import Tile
from domino.views import Account, MatchView, OutcomeKind, RoundOutcome, RoundResult, Scored

FORMAT_VERSION = 2
"""Version of `Match.to_json`: the ruleset, the seed, the action log and the results."""

READABLE_VERSIONS = (1, FORMAT_VERSION)
"""Versions `from_json` reads. Version 1 stored, besides, the current and the finished
round (deal and actions), the totals, and in each result its number, the accounts
before it and the eggs carried in; the seed, the log and the results give all of them
again, so it reads as version 2 does."""


@dataclass(frozen=True, slots=True)
class LoggedAction:
    """One applied action, with the round it belongs to and the seat that made it."""

    round_no: int
    seat: int
    action: Action

    def __str__(self) -> str:
        return f"{self.round_no}:{self.seat}:{self.action}"

    @classmethod
    def parse(cls, text: str) -> LoggedAction:
        """Read back `str(entry)`, e.g. `3:1:p2-5L`."""
        return _read_logged_action(text)


@functools.lru_cache(maxsize=1 << 14)
def _read_logged_action(text: str) -> LoggedAction:
    """`LoggedAction.parse`, remembered: every press loads a stored match and reads its
    whole log again (`bench/engine.py`), and entries are immutable, so equal ones are
    shared."""
    try:
        round_no, seat, action = text.split(":")
        return LoggedAction(int(round_no), int(seat), parse_action(action))
    except ValueError as exc:
        raise BadState(f"cannot read a logged action from {text!r}: {exc}") from None


def round_rng(seed: int, round_no: int) -> random.Random:
    """The generator that deals round `round_no` of the match with `seed` (C-12)."""
    digest = hashlib.sha256(f"domino-round:{seed}:{round_no}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


class Match:
    """A match of one ruleset between `players` seats, from the first deal to the end.

    Read the state through the properties; change it only with `apply`. Scores,
    results, eggs and the outcome are per side (`sides`: one seat each, or the two
    teams 0+2 and 1+3).
    """

    __slots__ = (
        "_eggs",
        "_finished_round",
        "_log",
        "_losers",
        "_over",
        "_players",
        "_results",
        "_round",
        "_round_no",
        "_round_points",
        "_ruleset",
        "_scored",
        "_scores",
        "_seed",
        "_sides",
        "_winners",
    )

    def __init__(
        self,
        ruleset: Ruleset,
        players: int,
        seed: int,
        *,
        round_: Round,
        round_no: int = 1,
        results: Sequence[RoundResult] = (),
        log: Sequence[LoggedAction] = (),
    ) -> None:
        """The match as round `round_no` (`round_`) is dealt, after the rounds `results`
        scored and the actions `log` played them; use `new`, `replay` or `from_json`.
        The finished round, if any, is dealt and replayed from the log when first asked for."""
        self._ruleset = ruleset
        self._players = players
        self._seed = seed
        self._sides: Sides = sides_for(ruleset, players)
        self._round = round_
        self._round_no = round_no
        self._finished_round: Round | None = None
        self._results = list(results)
        last = self._results[-1] if self._results else None
        self._scores = last.after if last else initial_scores(ruleset, len(self._sides))
        self._eggs = last.eggs_after if last else 0
        self._log = list(log)
        self._round_points = (0,) * len(self._sides)  # F-3: scored in play this round
        self._scored: Scored | None = None  # F-3: the round's last move that scored
        deciders = match_deciders(ruleset, self._scores)
        self._over = bool(deciders)
        bad = ruleset.game.points_are_bad
        self._losers = deciders if bad else ()
        self._winners = () if bad else deciders

    # --- construction -------------------------------------------------------------------

    @classmethod
    def new(cls, ruleset: Ruleset, players: int, seed: int | None = None) -> Match:
        """Deal the first round (K-3 / T-2 opener). Without a seed the match uses a
        cryptographically secure one (C-12); keep `seed` to replay it."""
        ruleset.hand_size(players)
        if seed is None:
            seed = secrets.randbits(64)
        first = Round.start(ruleset, players, round_rng(seed, 1))
        return cls(ruleset, players, seed, round_=first)

    @classmethod
    def replay(
        cls,
        ruleset: Ruleset,
        players: int,
        seed: int,
        actions: Iterable[LoggedAction | Action],
    ) -> Match:
        """Rebuild a match from its seed and its action log (`Match.log`).

        Plain actions are applied for whoever is to move; logged ones must belong to
        the current round and seat, or the log does not belong to this match
        (`BadState`).
        """
        match = cls.new(ruleset, players, seed)
        match._replay(actions)
        return match

    def _replay(self, entries: Iterable[LoggedAction | Action], first: int = 0) -> None:
        """Apply `entries` (numbered from `first` in messages) as `replay` does."""
        for index, entry in enumerate(entries, first):
            if isinstance(entry, LoggedAction):
                if entry.round_no != self._round_no:
                    raise BadState(
                        f"log entry {index} ({entry}) is for round {entry.round_no},"
                        f" but the match is in round {self._round_no}"
                    )
                action, seat = entry.action, entry.seat
            else:
                action, seat = entry, None
            try:
                self.apply(action, seat)
            except DominoError as exc:
                raise BadState(f"log entry {index} ({entry}) does not apply: {exc}") from None

    # --- state --------------------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        return self._ruleset

    @property
    def players(self) -> int:
        return self._players

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def sides(self) -> Sides:
        return self._sides

    @property
    def round(self) -> Round:
        """The current round; after the match has ended, the last one."""
        return self._round

    @property
    def round_no(self) -> int:
        """1-based number of the current (after the end: the last) round."""
        return self._round_no

    @property
    def finished_round(self) -> Round | None:
        """The last round that ended, kept so its final table can still be shown."""
        if self._finished_round is None and self._results:
            self._finished_round = self._replayed_round(len(self._results))
        return self._finished_round

    def ended_round(self, round_no: int) -> Round:
        """Round `round_no` (1-based) as it ended: its final layout and the tiles left in
        each hand, for showing them. The last one is kept (`finished_round`), earlier ones
        are replayed (C-12); `DominoError` for a round that has not ended. Do not apply
        actions to it."""
        if not 1 <= round_no <= len(self._results):
            raise DominoError(f"round {round_no} has not ended: {len(self._results)} round(s) have")
        if round_no == len(self._results):
            ended = self.finished_round
            assert ended is not None  # a result exists, so the last round can be replayed
            return ended
        return self._replayed_round(round_no)

    def after_round(self, round_no: int) -> Match:
        """The match as it stood the moment round `round_no` (1-based) ended: its scores,
        results and eggs then, the next round dealt or the match over. For showing a
        round's end however far the match has moved on since (an announcement that goes
        out late). Replayed from the seed and the log (C-12) unless nothing was played
        since; `DominoError` for a round that has not ended. Do not apply actions to it."""
        if not 1 <= round_no <= len(self._results):
            raise DominoError(f"round {round_no} has not ended: {len(self._results)} round(s) have")
        entries = [entry for entry in self._log if entry.round_no <= round_no]
        if len(entries) == len(self._log):
            return self
        return Match.replay(self._ruleset, self._players, self._seed, entries)

    def _replayed_round(self, round_no: int) -> Round:
        """Round `round_no` dealt from the seed (C-12) and played as the log says; its
        first action names the seat that opened it (K-4 / T-2)."""
        entries = [entry for entry in self._log if entry.round_no == round_no]
        leader = _opener(self._ruleset, round_no, entries[0].seat)
        round_ = Round.start(
            self._ruleset, self._players, round_rng(self._seed, round_no), leader=leader
        )
        for entry in entries:
            round_.apply(entry.action, entry.seat)
        outcome = self._results[round_no - 1].outcome
        if outcome.kind is OutcomeKind.REACHED:
            round_.stop(outcome.seat)  # F-6: it stopped where a move reached the target
        return round_

    @property
    def results(self) -> tuple[RoundResult, ...]:
        return tuple(self._results)

    @property
    def scores(self) -> tuple[Account, ...]:
        """Each side's account now."""
        return self._scores

    @property
    def eggs(self) -> int:
        """K-9: points carried over to the next round ("🥚 +N")."""
        return self._eggs

    @property
    def over(self) -> bool:
        return self._over

    @property
    def losers(self) -> tuple[int, ...]:
        """Козёл: the side(s) that are козёл (K-10); () until the end and in Классика."""
        return self._losers

    @property
    def winners(self) -> tuple[int, ...]:
        """Классика: the side(s) that won (T-6); () until the end and in Козёл."""
        return self._winners

    @property
    def log(self) -> tuple[LoggedAction, ...]:
        """Every applied action in order, for `replay`."""
        return tuple(self._log)

    @property
    def turn(self) -> int | None:
        """The seat to move, or None once the match is over."""
        return None if self._over else self._round.turn

    def side_of(self, seat: int) -> int:
        return side_of(self._sides, seat)

    def seat_points(self) -> tuple[int, ...]:
        """Each seat's recorded points (a team's points for both partners)."""
        return tuple(
            self._scores[side_of(self._sides, seat)].recorded for seat in range(self._players)
        )

    # --- play ---------------------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        return () if self._over else self._round.legal_actions()

    def apply(self, action: Action, seat: int | None = None, *, move: int | None = None) -> Event:
        """Apply `action` for `seat` (None: whoever is to move) in the current round.

        `move`, if given, is the number of actions the match had when the action was
        chosen (`len(match.log)`, e.g. from a button): if the match has moved on since,
        `StaleAction`. Refused actions raise (`MatchOver`, `StaleAction`, `NotYourTurn`,
        `IllegalMove`) and change nothing. When the action ends the round, the round is
        scored, the end of the match is checked and, unless it is over, the next round
        is dealt.
        """
        self._refuse_when_over()
        if move is not None and move != len(self._log):
            raise StaleAction(
                f"the action was chosen at move {move}, but the match is at move {len(self._log)}"
            )
        mover = self._round.turn
        event = self._round.apply(action, seat)
        assert mover is not None  # the round accepted an action, so someone was to move
        self._log.append(LoggedAction(self._round_no, mover, action))
        game = self._ruleset.game
        if game.scores_in_play and type(event) is Played:
            self._score_in_play(game.move_points(self._ruleset, self._round.layout.view()), mover)
        if self._round.over:
            self._end_round()
        elif self._scored is not None and match_deciders(self._ruleset, self._scores):
            self._end_at_target(mover)
        return event

    def _score_in_play(self, scored: tuple[int, int], mover: int) -> None:
        """F-3: the mover's side scores what the move made, at once."""
        points, count = scored
        if not points:
            return
        side = self.side_of(mover)
        self._scores = tuple(
            Account(account.recorded + points, account.remembered, account.opened)
            if index == side
            else account
            for index, account in enumerate(self._scores)
        )
        self._round_points = tuple(
            total + points if index == side else total
            for index, total in enumerate(self._round_points)
        )
        self._scored = Scored(mover, points, count)

    def _round_start(self) -> tuple[Account, ...]:
        """The accounts as the current round began (before any point it scored in play)."""
        if self._results:
            return self._results[-1].after
        return initial_scores(self._ruleset, len(self._sides))

    def _end_at_target(self, mover: int) -> None:
        """F-6: a move scored the target in play: the round stops where it stands, its
        line holds the points scored in it, and the match is decided."""
        ended = self._round
        ended.stop(mover)
        assert ended.outcome is not None
        result = written_result(
            self._round_no, ended.outcome, self._round_start(), self._round_points
        )
        self._close_round(result, ended)

    def draw_until_playable(self, seat: int) -> tuple[Tile, ...]:
        """C-6: `seat` draws one tile at a time until one fits or nothing is left to draw;
        the tiles drawn, sorted. Refused like `apply(DRAW, seat)` when `seat` may not
        draw now (`MatchOver`, `NotYourTurn`, `IllegalMove`), and then nothing changes.

        Choice: a person's draw is this whole sequence at once (one press of «Взять из
        базара», after which they are told the tiles drawn), since each single draw has
        only one legal outcome. The turn stays with the drawer: a drawn tile that fits
        must then be played, in the same turn (C-5, C-6)."""
        self.apply(DRAW, seat)
        count = 1
        while self._round.is_legal(DRAW, seat):
            self.apply(DRAW, seat)
            count += 1
        return tuple(sorted(self._round.drawn(seat)[-count:]))

    def take_turn(self, seat: int, player: Player) -> None:
        """One whole turn of `seat` as `player` chooses it: its draws (C-6, the turn stays
        with the drawer), the play or the knock (C-7) that passes the turn, and where a
        turn lays several tiles (section V) each further tile or `EndTurn` until the turn
        passes or the round ends (every such action lays a tile or ends the turn, so this
        ends; in Втемную a tile turned up that fits two ends is laid on one). What a person
        whose time ran out gets. `MatchOver` or `NotYourTurn` if
        `seat` is not to move (the latter from `player`, which has nothing to choose from)."""
        self._refuse_when_over()
        round_no = self._round_no
        action = player.choose(self.view(seat))
        self.apply(action, seat)
        while (
            not self._over
            and self._round_no == round_no
            and (
                isinstance(action, Draw)
                or self._round.mid_turn
                or self._round.turned_up is not None  # Втемную: its end still to choose
            )
        ):
            action = player.choose(self.view(seat))
            self.apply(action, seat)

    def autoplay(self, player: Player, plays: Callable[[int], bool]) -> int:
        """Let `player` move for each seat to move while `plays(seat)` holds, up to the end
        of the current round (or of the match); the number of actions applied.

        The computers' moves: `plays` tells which seats a computer plays. The next
        round is left to a later call, so the end of a round can be shown first.
        """
        round_no = self._round_no
        applied = 0
        while not self._over and self._round_no == round_no:
            seat = self._round.turn
            assert seat is not None  # a round that is not over has a seat to move
            if not plays(seat):
                break
            self.apply(player.choose(self.view(seat)), seat)
            applied += 1
        return applied

    def _refuse_when_over(self) -> None:
        if self._over:
            raise MatchOver(f"the match ended in round {self._round_no}: no more actions are taken")

    def _end_round(self) -> None:
        ended = self._round
        outcome = ended.outcome
        assert outcome is not None  # called only once the round is over
        hands = tuple(ended.hand(seat) for seat in range(self._players))
        last = ended.history[-1]
        assert isinstance(last, Played | Closed)  # a round ends with a play (C-8, O-3)
        result = score_round(
            self._ruleset, self._round_no, outcome, self._scores, self._eggs, hands, last.tile
        )
        if any(self._round_points):  # F-3: the line shows the points scored in play too
            result = dataclasses.replace(
                result,
                before=self._round_start(),
                points=tuple(map(operator.add, result.points, self._round_points)),
            )
        if not self._close_round(result, ended):
            return
        self._round_no += 1
        self._round_points = (0,) * len(self._sides)
        self._scored = None
        leader = None  # Крест: every round opens as the first does
        if not self._ruleset.opening_every_round:
            leader = next_leader(self._ruleset, outcome, hands)  # K-4, T-2
        self._round = Round.start(
            self._ruleset, self._players, round_rng(self._seed, self._round_no), leader=leader
        )

    def _close_round(self, result: RoundResult, ended: Round) -> bool:
        """Write the ended round's line; decide the match if a side is at the target
        (K-10, T-6, F-6). Whether the match goes on."""
        self._results.append(result)
        self._scores = result.after
        self._eggs = result.eggs_after
        self._finished_round = ended
        deciders = match_deciders(self._ruleset, self._scores)
        if not deciders:
            return True
        self._over = True
        if self._ruleset.game.points_are_bad:
            self._losers = deciders
        else:
            self._winners = deciders
        return False

    def won_by_last_tile(self) -> bool:
        """Whether the tile that ended the last round decided the match: the game scores
        that round differently without it (M-4's «голый козёл», going out on `0-0`). The
        game is asked by scoring the round again without its last tile, so a game whose
        scoring reads that tile needs nothing more here."""
        ended = self._finished_round
        if not self._over or ended is None or not self._results:
            return False
        result = self._results[-1]
        if result.outcome.kind is not OutcomeKind.WENT_OUT:
            return False
        hands = tuple(ended.hand(seat) for seat in range(self._players))
        last = ended.history[-1]
        assert isinstance(last, Played | Closed)  # a round ends with a play (C-8, O-3)

        def scored(last_tile: Tile | None) -> tuple[Account, ...]:
            # From the round's start in both: the points scored in play (F-3) are not
            # the last tile's doing, and `result.before` does not hold them.
            return score_round(
                self._ruleset,
                result.round_no,
                result.outcome,
                result.before,
                result.eggs_before,
                hands,
                last_tile,
            ).after

        return scored(None) != scored(last.tile)

    # --- views and rating ---------------------------------------------------------------

    def view(self, seat: int | None) -> MatchView:
        """What `seat` may know (None: the public, e.g. the group chat)."""
        return MatchView(
            ruleset=self._ruleset,
            players=self._players,
            round_no=self._round_no,
            round=self._round.view(seat),
            sides=self._sides,
            scores=self._scores,
            eggs=self._eggs,
            results=tuple(self._results),
            over=self._over,
            losers=self._losers,
            winners=self._winners,
            round_points=self._round_points,
            scored=self._scored,
        )

    def rating(self) -> tuple[int, ...]:
        """Rating gains per seat for the finished match, as the game rates it (K-11 or
        its mirror, `GameVariant.rating_gains`). Partners gain their team's amount."""
        if not self._over:
            raise DominoError("the match is not over yet: rating is given for finished matches")
        return self._ruleset.game.rating_gains(self.seat_points(), target=self._ruleset.target)

    # --- text form ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The match as JSON-safe data (see `to_json`)."""
        return {
            "version": FORMAT_VERSION,
            "ruleset": self._ruleset.to_dict(),
            "players": self._players,
            "seed": self._seed,
            "results": [_result_to_dict(result) for result in self._results],
            "log": [str(entry) for entry in self._log],
        }

    def to_json(self) -> str:
        """The match as versioned JSON text: `{"version": 2, ...}`.

        It holds what cannot be worked out again: the ruleset, the seed and the action
        log (C-12), and, so that loading stays fast, each finished round's result:
        `from_json` deals and replays only the current round (see `_resume`).
        """
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Match:
        """Read back `to_json` (any of `READABLE_VERSIONS`); `BadState` for another
        version or for data that does not make a match."""
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise BadState(f"match state is not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise BadState("match state must be a JSON object")
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Match:
        """Read back `to_dict`; `BadState` for another version or broken data."""
        version = data.get("version")
        if version not in READABLE_VERSIONS:
            raise BadState(
                f"match state version {version!r} cannot be read"
                f" (expected one of {', '.join(map(str, READABLE_VERSIONS))})"
            )
        try:
            ruleset = Ruleset.from_dict(data["ruleset"])
            players = _int(data["players"])
            seed = _int(data["seed"])
            start = initial_scores(ruleset, len(sides_for(ruleset, players)))
            results = _results_from_list(data["results"], start)
            log = list(map(_read_logged_action, data["log"]))
            return cls._resume(ruleset, players, seed, results, log)
        except BadState:
            raise
        except (DominoError, KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            raise BadState(f"cannot read a match: {type(exc).__name__}: {exc}") from None

    @classmethod
    def _resume(
        cls,
        ruleset: Ruleset,
        players: int,
        seed: int,
        results: Sequence[RoundResult],
        log: Sequence[LoggedAction],
    ) -> Match:
        """The match whose finished rounds scored `results` and whose actions are `log`.

        Once the current round has begun, only it is dealt from the seed (C-12) and
        replayed, opened by the seat of its first action (K-4 / T-2); before that, or
        once the match is over, the last finished round is replayed instead, which
        deals the next one or ends the match and must give the stored result. A log
        that does not apply, or does not give the stored results, is refused
        (`BadState`). The rounds before are taken as stored.
        """
        finished = len(results)
        start = len(log)
        while start and log[start - 1].round_no > finished:
            start -= 1
        first = finished + 1  # the first round dealt and replayed
        if finished and start == len(log):  # the next round has not begun, or never will
            first = finished
            while start and log[start - 1].round_no >= finished:
                start -= 1
            if start == len(log):
                raise BadState(f"the log has no action of round {finished}, which has a result")
        leader = _opener(ruleset, first, log[start].seat) if first > 1 else None
        match = cls(
            ruleset,
            players,
            seed,
            round_=Round.start(ruleset, players, round_rng(seed, first), leader=leader),
            round_no=first,
            results=results[: first - 1],
            log=log[:start],
        )
        match._replay(log[start:], start)
        if match._results != list(results):
            raise BadState(
                f"the log gives {len(match._results)} round results that are not the"
                f" {len(results)} stored"
            )
        return match

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def _key(self) -> tuple[Any, ...]:
        return (
            self._ruleset,
            self._players,
            self._seed,
            self._round_no,
            self._round,
            self.finished_round,
            self._results,
            self._scores,
            self._eggs,
            self._over,
            self._losers,
            self._winners,
            self._log,
        )

    def __repr__(self) -> str:
        state = "over" if self._over else f"turn {self._round.turn}"
        return (
            f"Match({self._ruleset.variant}, {self._players} players, round {self._round_no},"
            f" {state})"
        )


def _opener(ruleset: Ruleset, round_no: int, first_seat: int) -> int | None:
    """The `leader` that deals round `round_no` again, whose first action `first_seat`
    made: that seat in a later round (K-4, T-2), None where the round opens as the first
    does (the first round; every round with `opening_every_round`, Крест)."""
    return first_seat if round_no > 1 and not ruleset.opening_every_round else None


def _int(value: Any) -> int:
    if type(value) is not int:  # JSON's true and false are ints to isinstance
        raise BadState(f"expected an integer, not {value!r}")
    return value


def _account_to_list(account: Account) -> list[Any]:
    return [account.recorded, account.remembered, account.opened]


def _account_from_list(item: Sequence[Any]) -> Account:
    recorded, remembered, opened = item
    return _account(recorded, remembered, opened)


@functools.lru_cache(maxsize=1 << 12, typed=True)
def _account(recorded: Any, remembered: Any, opened: Any) -> Account:
    """An account read back, remembered as `_read_logged_action` is: the results hold
    two accounts per side and round, most of them equal to another."""
    if not isinstance(opened, bool):
        raise BadState(f"an account's opened flag must be true or false, not {opened!r}")
    return Account(_int(recorded), _int(remembered), opened)


def _result_to_dict(result: RoundResult) -> dict[str, Any]:
    """A finished round's result without what the previous one gives: its number, the
    accounts before it and the eggs carried into it."""
    outcome = result.outcome
    return {
        "outcome": [outcome.kind.value, outcome.seat, list(outcome.hand_values)],
        "points": list(result.points),
        "after": [_account_to_list(account) for account in result.after],
        "eggs": [result.eggs_after, result.eggs_taken_by],
    }


def _results_from_list(
    items: Sequence[Mapping[str, Any]], start: tuple[Account, ...]
) -> list[RoundResult]:
    """Read back `_result_to_dict` of each round in order, the first from `start`."""
    results = []
    before, eggs_before = start, 0
    for round_no, item in enumerate(items, 1):
        kind, seat, hand_values = item["outcome"]
        eggs_after, taken_by = item["eggs"][-2:]  # format 1 put the eggs carried in first
        result = RoundResult(
            round_no=round_no,
            outcome=RoundOutcome(OutcomeKind(kind), _int(seat), tuple(map(_int, hand_values))),
            before=before,
            points=tuple(map(_int, item["points"])),
            after=tuple(map(_account_from_list, item["after"])),
            eggs_before=eggs_before,
            eggs_after=_int(eggs_after),
            eggs_taken_by=None if taken_by is None else _int(taken_by),
        )
        results.append(result)
        before, eggs_before = result.after, result.eggs_after
    return results
