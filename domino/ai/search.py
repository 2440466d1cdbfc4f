"""The hard level: search over the hands it cannot see, valued by the match's outcome.

`HardPlayer.decide`:

1. a forced move (one legal action) is returned at once ("only", "draw", "knock",
   "go_out");
2. otherwise it works out what its seat knows (`domino.ai.knowledge`) and samples
   worlds consistent with it (`domino.ai.sampling`: the other hands and the bazaar);
3. in every world it tries each of the `CANDIDATES` legal actions the medium level
   scores best (the same worlds for all of them: common random numbers), plays the
   round out (`Round.greedy_playout`), scores it with the game's own scoring
   (`GameVariant.seat_values`, `GameVariant.score_round`) from the view's accounts
   and eggs,
4. and values the accounts after it by the chance that its side wins the match
   (`MatchValue`): where points are bad (Козёл, Осёл) the chance of not being the
   козёл, elsewhere the chance of winning. It plays the action of the best mean value
   if that beats the medium level's own choice by more than `MARGIN` standard errors
   of their paired differences over the worlds; else the medium level's choice.

The reason a hint shows is what the sample can support (`_searched_reason`): the medium
level's own reason where its choice stands; "search" (the move did best in the deals
played out, no number) where the search chose another; "search_likely" (the match is
likely won, or not lost as the козёл, with it) only when at least `LIKELY_WORLDS`
worlds were searched and their mean, less two standard errors, is at least `LIKELY`.
No chance is shown in figures: a few dozen play-outs by a simple policy, valued by a
model of the rounds to come, give a rough estimate, not a percentage to read.

Why it searches this way (each choice weighed on paired deals, `python -m domino
ladder`):

- The play-outs on a line follow `_core.line_smart_playout`: every seat blocks and keeps
  its suits as a careful player does, guessing the others' tiles from what it does not
  see. That loses the match far less often than every seat shedding its heaviest tile,
  and less than the same policy reading the sampled hands outright. Doubling the
  worlds, blending in the medium level's choice, and fish-awareness in the play-outs
  gave nothing measurable.
- Only the medium level's best `CANDIDATES` moves are searched, and the play-outs this
  saves go to more worlds (`DEFAULT_WORLDS`): together they lose fewer matches than
  searching every move, for somewhat more time per decision. Either alone, two
  candidates, or worlds weighted by how likely the others' past plays made them
  gained nothing clear.
- The medium level's own choice stands unless a searched move beats it by `MARGIN`
  standard errors: without that, the play-outs' noise and their policy's bias undo
  sound choices.

On a spinner or with closes (Осёл) the play-outs step through the API with the greedy
policy, fewer of them (`SLOW_ROLLOUTS`).

Where moves score as they are played (All Fives, threes and fives: F-3, on F-2's table
whose first double is the spinner), a play-out steps through `Round` too and does what
`Match` does: every play's points (`GameVariant.move_points`) go at once to the
mover's side, and a play that brings the side to the target stops the round there
(F-6, `Round.stop`, `OutcomeKind.REACHED`); the round's end is then scored by the
game (F-5) on top of the points made in play, and the accounts valued as above (a side
at the target has won). Every seat of a play-out plays the move that scores the most
at once, the heaviest among equals (`_ScoringPlayout`): in these games the points on
the ends, not the pips shed, are what a player goes for. Its budget is
`IN_PLAY_ROLLOUTS`: each step prices every legal play on a copy of the table.

It is anytime: with a `deadline` (an absolute `time.monotonic()`) it stops after the
world in hand once the deadline has passed and plays the best so far; with no deadline
hit it searches its fixed number of worlds, so a seed reproduces its decision.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from domino._core import tiles_in
from domino.actions import (
    DRAW,
    END_TURN,
    KNOCK,
    Action,
    Close,
    Closed,
    Play,
    PlayDoubles,
    Played,
)
from domino.ai.decision import Decision
from domino.ai.heuristic import (
    DEFAULT_WEIGHTS,
    MediumPlayer,
    _Position,
    ruleset_pips_per_point,
)
from domino.ai.knowledge import knowledge
from domino.ai.sampling import Sampler
from domino.errors import NotYourTurn
from domino.layout import Layout, layout_of
from domino.round import Round
from domino.rules import LayoutKind, RoundEnd, Ruleset
from domino.scoring import match_deciders, seat_values
from domino.tiles import ALL_TILES, BLANK_DOUBLE, TILE_VALUE, Tile
from domino.variants import Classic, Kozel, Sport
from domino.views import Account, MatchView, RoundOutcome

DEFAULT_WORLDS = 53
"""The most worlds a decision samples when no deadline cuts the search short."""

CANDIDATES = 3
"""The moves searched: the medium level's best few by its own score
(`domino.ai.heuristic`), so that the play-outs go to fewer moves, in more worlds."""

ROLLOUTS = 160
"""Round play-outs a decision may spend (worlds times legal actions) on a line, where
the mask kernel plays them; a position with many choices searches fewer worlds
(`HardPlayer.worlds_for`), never fewer than `MIN_WORLDS`."""

SLOW_ROLLOUTS = 40
"""The same on a spinner or with closes (Осёл), where play-outs step through the API."""

IN_PLAY_ROLLOUTS = 100
"""The same where moves score in play (F-3): play-outs that score every move. With 40
the hard level won no more often than the medium one beyond the noise in All Fives;
100 win clearly more often, and a decision still takes a small part of a hard move's
time."""

MIN_WORLDS = 6

LIKELY = 0.8
"""The chance of winning the match (where points are bad: of not being the козёл) whose
lower bound, the mean less two standard errors, lets a hint say the match is likely won."""

LIKELY_WORLDS = 20
"""The fewest worlds from which a hint says anything about the match's outcome."""

MARGIN = 1.0
"""How many standard errors a searched move must beat the medium level's own choice by
to be played instead of it (the search's noise must not undo a sound choice)."""

_ROUND_GAIN: dict[tuple[str, int, int], tuple[float, float]] = {
    ("kozel", 2, 2): (6.9, 146.0),
    ("kozel", 3, 3): (7.4, 158.0),
    ("kozel", 4, 4): (4.9, 162.0),
    ("kozel", 4, 2): (9.5, 246.0),
    ("classic", 2, 2): (6.6, 108.0),
    ("classic", 3, 3): (9.1, 251.0),
    ("classic", 4, 4): (8.9, 293.0),
    ("classic", 4, 2): (11.6, 227.0),
    ("classic", 5, 5): (10.7, 526.0),
    ("sea_kozel", 2, 2): (8.6, 598.0),
    ("sea_kozel", 4, 4): (6.2, 308.0),
    ("sea_kozel", 4, 2): (7.8, 358.0),
    ("osel", 2, 2): (10.2, 185.0),
    ("osel", 3, 3): (9.8, 168.0),
    ("osel", 4, 4): (8.0, 128.0),
    ("osel", 4, 2): (14.2, 240.0),
    ("sport", 4, 2): (10.2, 219.0),
    ("all_fives", 2, 2): (30.1, 395.0),
    ("all_fives", 3, 3): (22.5, 418.0),
    ("all_fives", 4, 4): (23.0, 464.0),
    ("all_fives", 4, 2): (39.5, 542.0),
    ("threes_and_fives", 2, 2): (22.3, 243.0),
    ("threes_and_fives", 3, 3): (17.9, 303.0),
    ("threes_and_fives", 4, 4): (17.7, 353.0),
    ("threes_and_fives", 4, 2): (29.6, 319.0),
    ("bergen", 2, 2): (3.7, 6.1),
    ("bergen", 3, 3): (2.7, 5.7),
    ("bergen", 4, 4): (1.9, 4.4),
    ("bergen", 4, 2): (3.8, 6.0),
    ("dubli", 2, 2): (4.5, 5.0),
    ("dubli", 3, 3): (3.0, 3.0),
    ("dubli", 4, 4): (2.5, 3.0),
    ("dubli", 4, 2): (5.1, 5.0),
    ("blitz", 2, 2): (14.8, 890.0),
    ("blitz", 3, 3): (16.3, 1010.0),
    ("blitz", 4, 4): (16.2, 1159.0),
    ("blitz", 4, 2): (21.2, 831.0),
    ("cross", 2, 2): (26.6, 1549.0),
    ("cross", 3, 3): (21.5, 1431.0),
    ("cross", 4, 4): (21.9, 1801.0),
    ("cross", 4, 2): (28.5, 1118.0),
    ("shesterka", 2, 2): (8.2, 156.0),
    ("shesterka", 3, 3): (10.3, 307.0),
    ("shesterka", 4, 4): (10.5, 400.0),
    ("shesterka", 4, 2): (13.6, 289.0),
    ("shesterka", 5, 5): (10.5, 498.0),
    ("dark", 2, 2): (15.9, 449.0),
    ("dark", 3, 3): (19.7, 936.0),
    ("dark", 4, 4): (19.7, 1315.0),
    ("dark", 4, 2): (26.7, 875.0),
}
"""(game, players, sides) -> the mean and variance of the points one side gets recorded
in a round (K-7's remembered points count once recorded; a round a side writes nothing
counts 0), measured over 1,500 rounds of default-rules matches between greedy players
(`domino.players.GreedyPlayer`). All Fives and threes and fives: the points made in play
and at the round's end (F-3, F-5), over 1,200-7,200 side-rounds of default-rules matches
between medium players (greedy ones ignore the points on the ends), rounds stopped at
the target (F-6) left out. Bergen, Дубли and the children's games (B-1, B-2, section
V), pairs in them included, and Классика at five: the same over 500-3,700 side-rounds;
without them a match to 10 was valued as if a round gave 8 points, and a small lead read
as a won match. `MatchValue` falls back to 8 and 200 for a table not measured."""


_ROUND_GAIN_IN_FIVES: dict[tuple[str, int, int], tuple[float, float]] = {
    ("threes_and_fives", 2, 2): (16.9, 72.0),
    ("threes_and_fives", 3, 3): (11.7, 48.0),
    ("threes_and_fives", 4, 4): (11.9, 49.0),
    ("threes_and_fives", 4, 2): (22.0, 86.0),
}
"""The same as `_ROUND_GAIN` where the round's end scores in fives though the game's
default does not (threes and fives on the pub game's board, 61 or 121: F-5's points
divided by 5), measured as the All Fives rows."""


def round_gain(ruleset: Ruleset, players: int, sides: int) -> tuple[float, float]:
    """The mean and variance of a side's points in a round under `ruleset`
    (`_ROUND_GAIN`, or `_ROUND_GAIN_IN_FIVES` where the round's end is scored in
    another unit than the game's default); 8 and 200 where nothing was measured."""
    key = (ruleset.variant.value, players, sides)
    default = ruleset.game.ruleset
    if ruleset_pips_per_point(ruleset) != ruleset_pips_per_point(default):
        found = _ROUND_GAIN_IN_FIVES.get(key)
        if found is not None:
            return found
    return _ROUND_GAIN.get(key, (8.0, 200.0))


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def race(distances: Sequence[float], mean: float, variance: float) -> list[float]:
    """The chance of each side to reach the target first, `distances` points away,
    gaining per round `mean` points with `variance` (each round independent).

    Renewal theory: the rounds a side needs are about normal with mean d/m and variance
    d·v/m³; that variance is widened by half, plus half a round, which the outcomes of
    greedy matches called for (predicted against seen chances, by tenths, within a few
    points in 4-player Козёл, Козёл 2x2 and Спортивное). The chance to come first is
    the product of the pairwise chances (exact for two sides), normalised."""
    mus = [max(d, 0.0) / mean for d in distances]
    vs = [1.5 * max(d, 0.0) * variance / mean**3 + 0.5 for d in distances]
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

    __slots__ = ("_bad", "_cache", "_mean", "_ruleset", "_side", "_variance")

    def __init__(self, ruleset: Ruleset, players: int, sides: int, side: int) -> None:
        self._ruleset = ruleset
        self._side = side
        self._bad = ruleset.game.points_are_bad
        self._mean, self._variance = round_gain(ruleset, players, sides)
        self._cache: dict[tuple[Account, ...], float] = {}

    def __call__(self, accounts: Sequence[Account], eggs: int) -> float:
        key = (*accounts, Account(eggs))
        cached = self._cache.get(key)
        if cached is None:
            cached = self._cache[key] = self._value(accounts, eggs)
        return cached

    def _value(self, accounts: Sequence[Account], eggs: int) -> float:
        """Choices: remembered points (K-7) count 0.7 of their worth toward the target
        (they are recorded when the account opens, lost when the side goes out first);
        eggs carried (K-9, M-5) are shared out evenly."""
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


def _shed(action: Action) -> int:
    """A play-out's rank of a move among those that score alike (`_ScoringPlayout`):
    the pips it sheds, twice, plus one for a double (`Round.greedy_playout`'s policy)."""
    if type(action) is Play:
        t = action.tile
        return 2 * TILE_VALUE[t.index] + t.is_double
    if type(action) is PlayDoubles:
        return 2 * sum(TILE_VALUE[p.tile.index] for p in action.plays) + 1
    if type(action) is Close:
        return 2 * TILE_VALUE[action.tile.index] - 1
    return -1


class HardPlayer:
    """Search over sampled worlds (see the module's docstring). `worlds`: the most
    worlds a decision samples; `deadline`: an absolute `time.monotonic()` for every
    decision, after which the search stops with its best so far; `smart`: play-outs by
    the careful policy on a line (else greedy everywhere). `searched` tells how many
    worlds the last decision searched."""

    def __init__(
        self,
        rng: random.Random,
        *,
        worlds: int = DEFAULT_WORLDS,
        deadline: float | None = None,
        smart: bool = True,
    ) -> None:
        self.rng = rng
        self.worlds = worlds
        self.deadline = deadline
        self.smart = smart
        self.searched = 0

    def worlds_for(self, view: MatchView, choices: int) -> int:
        """The worlds a decision among `choices` legal actions samples: the play-outs
        `ROLLOUTS` (`SLOW_ROLLOUTS` off the line kernel, `IN_PLAY_ROLLOUTS` where moves
        score) shared among the choices,
        within `MIN_WORLDS` and `worlds`. Fixed by the position, so a seed reproduces
        the decision."""
        game = view.ruleset.game
        if game.scores_in_play:
            budget = IN_PLAY_ROLLOUTS
        elif (
            view.ruleset.layout is LayoutKind.LINE and not game.may_close and not game.many_per_turn
        ):
            budget = ROLLOUTS
        else:
            budget = SLOW_ROLLOUTS
        return min(self.worlds, max(MIN_WORLDS, budget // min(choices, CANDIDATES)))

    def choose(self, view: MatchView) -> Action:
        return self.decide(view).action

    def decide(self, view: MatchView) -> Decision:
        rv = view.round
        legal = rv.legal
        if not legal or rv.seat is None:
            raise NotYourTurn(f"seat {rv.seat} has no action to choose now")
        self.searched = 0
        if len(legal) == 1:
            return Decision(legal[0], _forced_reason(legal[0], rv.hand_counts[rv.seat]))
        seed = self.rng.getrandbits(64)
        return self._search(view, legal, seed)

    def _search(self, view: MatchView, legal: tuple[Action, ...], seed: int) -> Decision:
        rv = view.round
        seat = rv.seat
        assert seat is not None
        ruleset = view.ruleset
        players = rv.players
        deadline = self.deadline
        if deadline is not None and time.monotonic() >= deadline:
            return _fallback(view)
        mid_turn = END_TURN in legal  # section V: a tile laid this turn, more may follow
        legal, favourite = _candidates(view, legal)
        sampler = Sampler(knowledge(view))
        layout = layout_of(ruleset.layout, rv.layout.placements)
        scorer = _Scorer(view, view.side_of(seat))
        scoring = _ScoringPlayout(view, scorer) if ruleset.game.scores_in_play else None
        rng = random.Random(seed)
        values: list[list[float]] = [[] for _ in legal]
        searched = 0
        for _ in range(self.worlds_for(view, len(legal))):
            if deadline is not None and time.monotonic() >= deadline:
                break
            world = sampler.sample(rng)
            bazaar = [ALL_TILES[i] for i in world.bazaar]
            stacks = _stacks(rv.face_down, world.hands, rng, seat, rv.turned_up)
            for index, action in enumerate(legal):
                sim = Round.from_position(
                    ruleset,
                    players,
                    world.hands,
                    bazaar,
                    layout,
                    seat,
                    laid=mid_turn,
                    stacks=stacks,
                    turned_up=rv.turned_up,
                )
                if scoring is not None:
                    values[index].append(scoring(sim, action))
                    continue
                sim.apply(action)
                values[index].append(scorer(*sim.greedy_playout(smart=self.smart)))
            searched += 1
        self.searched = searched
        if not searched:
            return _fallback(view)
        totals = [sum(v) for v in values]
        best = max(range(len(legal)), key=lambda i: totals[i])
        if best != favourite and not _clearly_better(values[best], values[favourite]):
            best = favourite
        action = legal[best]
        if _goes_out(action, rv.hand_counts[seat]):
            return Decision(action, "go_out")
        return _searched_reason(view, action, values[best])


def _stacks(
    face_down: Sequence[bool],
    hands: Sequence[int],
    rng: random.Random,
    mover: int,
    turned_up: Tile | None,
) -> list[list[Tile] | None] | None:
    """Втемную: a world's face-down stacks, each a sampled hand in a random order (nobody
    knows the order), less the `mover`'s tile `turned_up` that waits for its end (in the
    hand, out of the stack); None in the other games."""
    if not face_down:
        return None
    stacks: list[list[Tile] | None] = []
    for seat, (down, hand) in enumerate(zip(face_down, hands, strict=True)):
        if down:
            if seat == mover and turned_up is not None:
                hand &= ~turned_up.bit
            stack = list(tiles_in(hand))
            rng.shuffle(stack)
            stacks.append(stack)
        else:
            stacks.append(None)
    return stacks


def _candidates(view: MatchView, legal: tuple[Action, ...]) -> tuple[tuple[Action, ...], int]:
    """The `CANDIDATES` legal actions the medium level scores best (in legal order), and
    the index among them of its own choice."""
    position = _Position(view, DEFAULT_WEIGHTS)
    scores = [position.score(action)[0] for action in legal]
    ranked = sorted(range(len(legal)), key=lambda i: -scores[i])
    best = sorted(ranked[:CANDIDATES])
    return tuple(legal[i] for i in best), best.index(ranked[0])


def _clearly_better(rival: Sequence[float], favourite: Sequence[float]) -> bool:
    """Whether `rival` beats `favourite` by more than `MARGIN` standard errors of the
    mean of their paired differences (the same worlds)."""
    n = len(rival)
    diffs = [a - b for a, b in zip(rival, favourite, strict=True)]
    mean = sum(diffs) / n
    if n < 2:
        return mean > 0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > MARGIN * math.sqrt(var / n)


class _Scorer:
    """The game's own scoring of an imagined round's end (`GameVariant.seat_values`
    and `score_round`, as `domino.scoring.score_round` calls them), valued for the
    seat's side by `MatchValue`; equal ends are scored once."""

    __slots__ = (
        "_cache",
        "_eggs",
        "_game",
        "_needs_hands",
        "_round_no",
        "_ruleset",
        "_scores",
        "_sides",
        "_value",
    )

    def __init__(self, view: MatchView, side: int) -> None:
        self._ruleset = view.ruleset
        self._game = view.ruleset.game
        self._sides = view.sides
        self._round_no = view.round_no
        self._scores = view.scores
        self._eggs = view.eggs
        self._value = MatchValue(view.ruleset, view.players, len(view.sides), side)
        self._cache: dict[tuple[RoundOutcome, tuple[int, ...], bool, tuple[int, ...]], float] = {}
        # The values come from the hands' pip sums alone unless the game scores tiles.
        self._needs_hands = bool(view.ruleset.held_double_six) or not isinstance(
            self._game, Kozel | Classic | Sport
        )

    def __call__(
        self,
        outcome: RoundOutcome,
        hands: tuple[int, ...],
        last: int,
        gained: tuple[int, ...] = (),
    ) -> float:
        """The value of the round ending in `outcome`; `gained`: per side, the points
        made in play on the way (F-3), added to the accounts before the round's end is
        scored."""
        ruleset = self._ruleset
        if self._needs_hands:  # M-2's special hands, T-4's held 6-6
            values = self._game.seat_values(ruleset, outcome, [tiles_in(h) for h in hands])
        else:
            values = seat_values(ruleset, outcome)
        key = (outcome, values, last == BLANK_DOUBLE.index, gained)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        before = self._scores
        if gained:
            before = tuple(
                Account(a.recorded + g, a.remembered, a.opened)
                for a, g in zip(before, gained, strict=True)
            )
        end = RoundEnd(
            ruleset=ruleset,
            round_no=self._round_no,
            outcome=outcome,
            before=before,
            eggs=self._eggs,
            values=values,
            sides=self._sides,
            last_tile=ALL_TILES[last] if last >= 0 else None,
            hands=[tiles_in(h) for h in hands] if self._needs_hands else None,
        )
        result = self._game.score_round(end)
        value = self._value(result.after, result.eggs_after)
        self._cache[key] = value
        return value


def _fallback(view: MatchView) -> Decision:
    """No time to search: the medium level's choice and reason (well under a
    millisecond; its reasons hold for the game played, `domino.ai.heuristic`)."""
    return MediumPlayer(random.Random(0)).decide(view)


def _searched_reason(view: MatchView, action: Action, values: Sequence[float]) -> Decision:
    """The reason for the searched `action`, `values` its worth in each world (the
    chance of winning, or of not being the козёл): what the sample supports (see the
    module's docstring). `args`: the worlds, and for "search_likely" the chance's lower
    bound in % (for the log and tests; the text shows no figure)."""
    worlds = len(values)
    mean = sum(values) / worlds
    if worlds >= LIKELY_WORLDS:
        var = sum((v - mean) ** 2 for v in values) / (worlds - 1)
        low = mean - 2.0 * math.sqrt(var / worlds)
        if low >= LIKELY:
            return Decision(action, "search_likely", {"worlds": worlds, "chance": int(100 * low)})
    medium = MediumPlayer(random.Random(0)).decide(view)
    if medium.action == action:
        return medium
    return Decision(action, "search", {"worlds": worlds})


class _ScoringPlayout:
    """A play-out where moves score in play (F-3, F-6; see the module's docstring):
    `(round, action)` applies `action` to the imagined round, plays it to its end with
    every seat taking the move that scores the most (the heaviest among equals), and
    values it by the `_Scorer` with the points each side made on the way."""

    __slots__ = ("_game", "_ruleset", "_scorer", "_side_of", "_sides", "_start", "_target")

    def __init__(self, view: MatchView, scorer: _Scorer) -> None:
        self._ruleset = view.ruleset
        self._game = view.ruleset.game
        self._scorer = scorer
        self._side_of = tuple(view.side_of(seat) for seat in range(view.players))
        self._sides = len(view.sides)
        self._start = tuple(account.recorded for account in view.scores)
        self._target = view.ruleset.target

    def __call__(self, sim: Round, action: Action) -> float:
        gained = [0] * self._sides
        start, target, side_of = self._start, self._target, self._side_of
        while True:
            mover = sim.turn
            assert mover is not None
            sim.apply(action)
            if type(action) is Play or type(action) is PlayDoubles:
                points = self._points(sim.layout)
                if points:
                    side = side_of[mover]
                    gained[side] += points
                    if sim.outcome is None and start[side] + gained[side] >= target:
                        sim.stop(mover)  # F-6: the match is decided in mid-round
            if sim.outcome is not None:
                break
            action = self._policy(sim)
        hands = tuple(sim.hand_mask(seat) for seat in range(sim.players))
        history = sim.history
        last_event = history[-1] if history else None
        last = last_event.tile.index if isinstance(last_event, Played | Closed) else -1
        return self._scorer(sim.outcome, hands, last, tuple(gained))

    def _points(self, layout: Layout) -> int:
        return self._game.move_points(self._ruleset, layout.view())[0]

    def _policy(self, sim: Round) -> Action:
        """The move that scores the most at once, the heaviest among equals."""
        legal = sim.legal_actions()
        if len(legal) == 1:
            return legal[0]
        layout = sim.layout
        best = legal[0]
        best_key = (-1, -1)
        for action in legal:
            if type(action) is Play:
                after = layout.copy()
                after.place(action.tile, action.end)
                key = (self._points(after), _shed(action))
            else:
                key = (0, _shed(action))
            if key > best_key:
                best, best_key = action, key
        return best


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
