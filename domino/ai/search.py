"""The hard level: search over the hands it cannot see, valued by the match's outcome.

`HardPlayer.decide`:

1. a forced move (one legal action) is returned at once ("only", "draw", "knock",
   "go_out");
2. otherwise it works out what its seat knows (`domino.ai.knowledge`) and samples
   worlds consistent with it (`domino.ai.sampling`: the other hands and the bazaar);
3. in every world it tries every legal action (the same worlds for all of them:
   common random numbers, and the same rollout generator per world), plays the round
   out with a greedy rollout policy (`rollout`: every seat sheds its heaviest
   fitting tile, as the table's usual players do), scores the round with the game's
   own scoring (`domino.scoring.score_round`) from the view's accounts and eggs,
4. and values the accounts after it by the chance that its side wins the match
   (`MatchValue`): where points are bad (Козёл, Осёл) the chance of not being the
   козёл, elsewhere the chance of winning. It plays the action of the best mean value.

It is anytime: with a `deadline` (an absolute `time.monotonic()`) it stops after the
world in hand once the deadline has passed and plays the best so far; with no deadline
hit it searches its fixed number of worlds, so a seed reproduces its decision.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from domino.actions import DRAW, KNOCK, Action, Close, Play, PlayDoubles
from domino.ai import Decision
from domino.ai.knowledge import knowledge
from domino.ai.sampling import Sampler
from domino.errors import NotYourTurn
from domino.layout import layout_of
from domino.round import Round
from domino.rules import Ruleset
from domino.scoring import match_deciders, score_round
from domino.tiles import ALL_TILES, TILE_VALUE, tiles_of
from domino.views import Account, MatchView

DEFAULT_WORLDS = 32
"""Worlds sampled per decision when no deadline cuts the search short."""

# Per game and number of sides: the mean and variance of the points a side gets
# recorded per round (K-7's remembered points included once recorded), measured by
# `bench/ai.py`-style self-play of greedy players (see `_ROUND_GAIN`'s docstring).
_ROUND_GAIN: dict[tuple[str, int], tuple[float, float]] = {}
"""Filled in below: (variant, sides) -> (mean, variance) of a side's recorded points per
round, from 2,000 greedy rounds each; `MatchValue` falls back to 12, 15² when absent."""


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def race(distances: Sequence[float], mean: float, variance: float) -> list[float]:
    """The chance of each side to reach the target first, `distances` points away,
    gaining per round `mean` points with `variance` (each round independent).

    Renewal theory: the rounds a side needs are about normal with mean d/m and variance
    d·v/m³ (plus ¼ for whole rounds); the chance to come first is taken as the product
    of the pairwise chances (exact for two sides), normalised."""
    mus = [max(d, 0.0) / mean for d in distances]
    vs = [max(d, 0.0) * variance / mean**3 + 0.25 for d in distances]
    raw = []
    for i, (mu, var) in enumerate(zip(mus, vs, strict=True)):
        p = 1.0
        for j, (mu_j, var_j) in enumerate(zip(mus, vs, strict=True)):
            if j != i:
                p *= _phi((mu_j - mu) / math.sqrt(var + var_j))
        raw.append(p)
    total = sum(raw)
    if total <= 0:
        return [1.0 / len(raw)] * len(raw)
    return [p / total for p in raw]


class MatchValue:
    """How good the accounts after a round are for `side`: the chance it wins the
    match (where points are bad: it is not the козёл, K-10; else it reaches the
    target first, T-6, M-6, S-6)."""

    __slots__ = ("_bad", "_mean", "_ruleset", "_side", "_variance")

    def __init__(self, ruleset: Ruleset, sides: int, side: int) -> None:
        self._ruleset = ruleset
        self._side = side
        self._bad = ruleset.game.points_are_bad
        self._mean, self._variance = _ROUND_GAIN.get((ruleset.variant.value, sides), (12.0, 225.0))

    def __call__(self, accounts: Sequence[Account], eggs: int) -> float:
        deciders = match_deciders(self._ruleset, accounts)
        if deciders:
            mine = self._side in deciders
            return float(not mine) if self._bad else float(mine)
        target = self._ruleset.target
        share = eggs / len(accounts)
        distances = [
            target - a.recorded - (0.0 if a.opened else 0.7 * a.remembered) - share
            for a in accounts
        ]
        first = race(distances, self._mean, self._variance)[self._side]
        return 1.0 - first if self._bad else first


def _shed(action: Action) -> float:
    """The rollout policy's rank of a move: the pips it sheds, a double a little more
    (the hardest to place later); a close (O-3) a little less than laying it."""
    if type(action) is Play:
        index = action.tile.index
        return TILE_VALUE[index] + (0.5 if action.tile.is_double else 0.0)
    if type(action) is PlayDoubles:
        return sum(TILE_VALUE[p.tile.index] for p in action.plays) + 0.5
    if type(action) is Close:
        return TILE_VALUE[action.tile.index] - 0.25
    return -1.0


def rollout(round_: Round) -> None:
    """Play `round_` to its end with the greedy policy for every seat (`_shed`, the
    first of equal moves)."""
    while round_.outcome is None:
        legal = round_.legal_actions()
        if len(legal) == 1:
            round_.apply(legal[0])
            continue
        best = legal[0]
        best_rank = _shed(best)
        for action in legal[1:]:
            rank = _shed(action)
            if rank > best_rank:
                best, best_rank = action, rank
        round_.apply(best)


class HardPlayer:
    """Search over sampled worlds (see the module's docstring). `worlds`: the most
    worlds a decision samples; `deadline`: an absolute `time.monotonic()` for every
    decision, after which the search stops with its best so far. `searched` tells how
    many worlds the last decision searched."""

    def __init__(
        self, rng: random.Random, *, worlds: int = DEFAULT_WORLDS, deadline: float | None = None
    ) -> None:
        self.rng = rng
        self.worlds = worlds
        self.deadline = deadline
        self.searched = 0

    def choose(self, view: MatchView) -> Action:
        return self.decide(view).action

    def decide(self, view: MatchView) -> Decision:
        rv = view.round
        legal = rv.legal
        if not legal or rv.seat is None:
            raise NotYourTurn(f"seat {rv.seat} has no action to choose now")
        self.searched = 0
        if len(legal) == 1:
            return Decision(legal[0], _forced_reason(legal[0], len(rv.hand)))
        seed = self.rng.getrandbits(64)
        return self._search(view, legal, seed)

    def _search(self, view: MatchView, legal: tuple[Action, ...], seed: int) -> Decision:
        rv = view.round
        seat = rv.seat
        assert seat is not None
        ruleset = view.ruleset
        players = rv.players
        sampler = Sampler(knowledge(view))
        layout = layout_of(ruleset.layout, rv.layout.placements)
        side = view.side_of(seat)
        value = MatchValue(ruleset, len(view.sides), side)
        scores, eggs, round_no = view.scores, view.eggs, view.round_no
        rng = random.Random(seed)
        totals = [0.0] * len(legal)
        deadline = self.deadline
        searched = 0
        for _ in range(self.worlds):
            if deadline is not None and time.monotonic() >= deadline:
                break
            world = sampler.sample(rng)
            bazaar = [ALL_TILES[i] for i in world.bazaar]
            for index, action in enumerate(legal):
                sim = Round.from_position(ruleset, players, world.hands, bazaar, layout, seat)
                sim.apply(action)
                rollout(sim)
                totals[index] += _value_of(sim, ruleset, round_no, scores, eggs, value)
            searched += 1
        self.searched = searched
        if not searched:
            best = max(range(len(legal)), key=lambda i: _shed(legal[i]))
            return Decision(legal[best], "heavy")
        best = max(range(len(legal)), key=lambda i: totals[i])
        action = legal[best]
        mean = totals[best] / searched
        chance = round(100 * ((1.0 - mean) if ruleset.game.points_are_bad else mean))
        if _goes_out(action, len(rv.hand)):
            return Decision(action, "go_out")
        return Decision(action, "search", {"chance": chance, "worlds": searched})


def _value_of(
    sim: Round,
    ruleset: Ruleset,
    round_no: int,
    scores: tuple[Account, ...],
    eggs: int,
    value: MatchValue,
) -> float:
    outcome = sim.outcome
    assert outcome is not None
    hands = [tiles_of(sim.hand_mask(s)) for s in range(sim.players)]
    last = sim.history[-1]
    tile = getattr(last, "tile", None)
    result = score_round(ruleset, round_no, outcome, scores, eggs, hands, tile)
    return value(result.after, result.eggs_after)


def _goes_out(action: Action, hand_size: int) -> bool:
    if type(action) is PlayDoubles:
        return len(action.plays) == hand_size
    return type(action) in (Play, Close) and hand_size == 1


def _forced_reason(action: Action, hand_size: int) -> str:
    if action is DRAW:
        return "draw"
    if action is KNOCK:
        return "knock"
    return "go_out" if _goes_out(action, hand_size) else "only"
