"""A whole match: rounds one after another, scored until a side reaches the target.

`Match` drives `Round`s: it forwards each action to the current round, and when the
round ends it scores it (`domino.scoring`), checks the end of the match (K-10, T-6)
and, unless the match is over, deals the next round at once with the leader of
K-4 / T-2. Every round's deal comes from a generator seeded with a SHA-256 hash of
the match seed and the round number (C-12), so the seed and the action log replay
the whole match, while the tiles of one round say nothing about the next.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domino.actions import DRAW, Action, Draw, Event, parse_action
from domino.errors import BadState, DominoError, MatchOver, StaleAction
from domino.players import Player
from domino.rating import classic_rating_gains, rating_gains
from domino.round import Round
from domino.rules import Ruleset, Scoring
from domino.scoring import (
    Sides,
    initial_scores,
    match_deciders,
    next_leader,
    score_round,
    side_of,
    sides_for,
)
from domino.tiles import Tile
from domino.views import Account, MatchView, OutcomeKind, RoundOutcome, RoundResult

FORMAT_VERSION = 1
"""Version of `Match.to_json`; `from_json` refuses any other."""


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
        try:
            round_no, seat, action = text.split(":")
            return cls(int(round_no), int(seat), parse_action(action))
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
        "_ruleset",
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
        finished_round: Round | None = None,
        results: Sequence[RoundResult] = (),
        scores: Sequence[Account] | None = None,
        eggs: int = 0,
        log: Sequence[LoggedAction] = (),
    ) -> None:
        """Assemble a match from its parts; use `new`, `replay` or `from_json` instead."""
        self._ruleset = ruleset
        self._players = players
        self._seed = seed
        self._sides: Sides = sides_for(ruleset, players)
        self._round = round_
        self._round_no = round_no
        self._finished_round = finished_round
        self._results = list(results)
        self._scores = (
            tuple(scores) if scores is not None else initial_scores(ruleset, len(self._sides))
        )
        self._eggs = eggs
        self._log = list(log)
        deciders = match_deciders(ruleset, self._scores)
        self._over = bool(deciders)
        kozel = ruleset.scoring is Scoring.KOZEL
        self._losers = deciders if kozel else ()
        self._winners = () if kozel else deciders

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
        for index, entry in enumerate(actions):
            if isinstance(entry, LoggedAction):
                if entry.round_no != match.round_no:
                    raise BadState(
                        f"log entry {index} ({entry}) is for round {entry.round_no},"
                        f" but the match is in round {match.round_no}"
                    )
                action, seat = entry.action, entry.seat
            else:
                action, seat = entry, None
            try:
                match.apply(action, seat)
            except DominoError as exc:
                raise BadState(f"log entry {index} ({entry}) does not apply: {exc}") from None
        return match

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
        return self._finished_round

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
        if self._round.over:
            self._end_round()
        return event

    def draw_until_playable(self, seat: int) -> tuple[Tile, ...]:
        """C-6: `seat` draws one tile at a time until one fits or nothing is left to draw;
        the tiles drawn, sorted. Refused like `apply(DRAW, seat)` when `seat` may not
        draw now (`MatchOver`, `NotYourTurn`, `IllegalMove`), and then nothing changes."""
        self.apply(DRAW, seat)
        count = 1
        while self._round.is_legal(DRAW, seat):
            self.apply(DRAW, seat)
            count += 1
        return tuple(sorted(self._round.drawn(seat)[-count:]))

    def take_turn(self, seat: int, player: Player) -> None:
        """One whole turn of `seat` as `player` chooses it: its draws (C-6, the turn stays
        with the drawer) and then the play or the knock (C-7) that passes the turn.
        What a person whose time ran out gets. `MatchOver` or `NotYourTurn` if `seat`
        is not to move (the latter from `player`, which has nothing to choose from)."""
        self._refuse_when_over()
        action = player.choose(self._round.view(seat))
        self.apply(action, seat)
        while isinstance(action, Draw):
            action = player.choose(self._round.view(seat))
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
            self.apply(player.choose(self._round.view(seat)), seat)
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
        result = score_round(
            self._ruleset, self._round_no, outcome, self._scores, self._eggs, hands
        )
        self._results.append(result)
        self._scores = result.after
        self._eggs = result.eggs_after
        self._finished_round = ended
        deciders = match_deciders(self._ruleset, self._scores)
        if deciders:
            self._over = True
            if self._ruleset.scoring is Scoring.KOZEL:
                self._losers = deciders
            else:
                self._winners = deciders
            return
        self._round_no += 1
        self._round = Round.start(
            self._ruleset,
            self._players,
            round_rng(self._seed, self._round_no),
            leader=next_leader(self._ruleset, outcome, hands),
        )

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
        )

    def rating(self) -> tuple[int, ...]:
        """Rating gains per seat for the finished match (K-11; Классика: see
        `classic_rating_gains`). Partners gain their team's amount."""
        if not self._over:
            raise DominoError("the match is not over yet: rating is given for finished matches")
        points = self.seat_points()
        if self._ruleset.scoring is Scoring.KOZEL:
            return rating_gains(points)
        return classic_rating_gains(points)

    # --- text form ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The full state as JSON-safe data (see `to_json`)."""
        return {
            "version": FORMAT_VERSION,
            "ruleset": self._ruleset.to_dict(),
            "players": self._players,
            "seed": self._seed,
            "round_no": self._round_no,
            "round": self._round.to_dict(),
            "finished_round": (
                None if self._finished_round is None else self._finished_round.to_dict()
            ),
            "results": [_result_to_dict(result) for result in self._results],
            "scores": [_account_to_list(account) for account in self._scores],
            "eggs": self._eggs,
            "over": self._over,
            "losers": list(self._losers),
            "winners": list(self._winners),
            "log": [str(entry) for entry in self._log],
        }

    def to_json(self) -> str:
        """The full state as versioned JSON text: `{"version": 1, ...}`."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Match:
        """Read back `to_json`; `BadState` for another version or broken data."""
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
        if version != FORMAT_VERSION:
            raise BadState(
                f"match state version {version!r} cannot be read (expected {FORMAT_VERSION})"
            )
        try:
            ruleset = Ruleset.from_dict(data["ruleset"])
            players = _int(data["players"])
            finished = data["finished_round"]
            match = cls(
                ruleset,
                players,
                _int(data["seed"]),
                round_=Round.from_dict(data["round"]),
                round_no=_int(data["round_no"]),
                finished_round=None if finished is None else Round.from_dict(finished),
                results=[_result_from_dict(item) for item in data["results"]],
                scores=[_account_from_list(item) for item in data["scores"]],
                eggs=_int(data["eggs"]),
                log=[LoggedAction.parse(item) for item in data["log"]],
            )
            stored_end = (bool(data["over"]), tuple(data["losers"]), tuple(data["winners"]))
        except BadState:
            raise
        except (DominoError, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise BadState(f"cannot read a match: {type(exc).__name__}: {exc}") from None
        match._check(stored_end)
        return match

    def _check(self, stored_end: tuple[bool, tuple[Any, ...], tuple[Any, ...]]) -> None:
        """Refuse state whose parts contradict each other (`BadState`)."""
        problems = []
        if stored_end != (self._over, self._losers, self._winners):
            problems.append("the stored end of the match does not follow from the scores")
        if len(self._scores) != len(self._sides):
            problems.append(f"{len(self._scores)} accounts for {len(self._sides)} sides")
        if self._round.players != self._players:
            problems.append(f"the round has {self._round.players} players, not {self._players}")
        expected_rounds = self._round_no if self._over else self._round_no - 1
        if len(self._results) != expected_rounds:
            problems.append(f"{len(self._results)} results for round {self._round_no}")
        if self._results and self._results[-1].after != self._scores:
            problems.append("the scores differ from the last round's result")
        if self._eggs < 0 or (self._results and self._results[-1].eggs_after != self._eggs):
            problems.append("the eggs differ from the last round's result")
        if self._over != self._round.over:
            problems.append("the match and its current round disagree on being over")
        for name, rnd in (("round", self._round), ("finished round", self._finished_round)):
            if rnd is not None and rnd.ruleset != self._ruleset:
                problems.append(f"the {name} is played under another ruleset")
        if self._over and self._finished_round != self._round:
            problems.append("a finished match's last round must be its finished round")
        if not self._log_fits():
            problems.append("the action log does not match the rounds")
        if problems:
            raise BadState("inconsistent match state: " + "; ".join(problems))

    def _log_fits(self) -> bool:
        """The log's round numbers run 1, 2, ... and each kept round's count of
        actions equals its `turn_no`."""
        per_round: dict[int, int] = {}
        last = 1
        for entry in self._log:
            if not last <= entry.round_no <= self._round_no:
                return False
            last = entry.round_no
            per_round[entry.round_no] = per_round.get(entry.round_no, 0) + 1
        if per_round.get(self._round_no, 0) != self._round.turn_no:
            return False
        finished = self._finished_round
        if finished is None or self._over:  # when over, the finished round is the current one
            return True
        return per_round.get(self._round_no - 1, 0) == finished.turn_no

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
            self._finished_round,
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


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadState(f"expected an integer, not {value!r}")
    return value


def _account_to_list(account: Account) -> list[Any]:
    return [account.recorded, account.remembered, account.opened]


def _account_from_list(item: Sequence[Any]) -> Account:
    recorded, remembered, opened = item
    if not isinstance(opened, bool):
        raise BadState(f"an account's opened flag must be true or false, not {opened!r}")
    return Account(_int(recorded), _int(remembered), opened)


def _result_to_dict(result: RoundResult) -> dict[str, Any]:
    outcome = result.outcome
    return {
        "round_no": result.round_no,
        "outcome": [outcome.kind.value, outcome.seat, list(outcome.hand_values)],
        "before": [_account_to_list(account) for account in result.before],
        "points": list(result.points),
        "after": [_account_to_list(account) for account in result.after],
        "eggs": [result.eggs_before, result.eggs_after, result.eggs_taken_by],
    }


def _result_from_dict(item: Mapping[str, Any]) -> RoundResult:
    kind, seat, hand_values = item["outcome"]
    eggs_before, eggs_after, taken_by = item["eggs"]
    return RoundResult(
        round_no=_int(item["round_no"]),
        outcome=RoundOutcome(OutcomeKind(kind), _int(seat), tuple(map(_int, hand_values))),
        before=tuple(_account_from_list(account) for account in item["before"]),
        points=tuple(map(_int, item["points"])),
        after=tuple(_account_from_list(account) for account in item["after"]),
        eggs_before=_int(eggs_before),
        eggs_after=_int(eggs_after),
        eggs_taken_by=None if taken_by is None else _int(taken_by),
    )
