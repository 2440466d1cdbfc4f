"""The heuristic levels: `MediumPlayer` weighs every legal move by what the seat's view
tells, `EasyPlayer` plays a simple sensible move with a human rate of mistakes.

Neither searches: a decision looks at each legal action once (well under a
millisecond). What the medium level weighs, for the hand after the move and the ends
it leaves open (`_Position.score`):

- going out first (C-8 a), whatever else;
- the pips shed (K-6: points left in hand are bad, and where points are good the
  winner writes them, T-4, M-1, S-4, F-5; none in Bergen and Дубли, whose rounds score
  no pips, B-1, B-2: `shed_reason`), doubles more (they fit one suit only);
- the tiles kept: how many suits the hand still holds, and each tile's chance to be
  placed later: a tile whose suits are nearly all on the table (counted from the tiles
  still unseen) is a tile the seat may be left holding;
- the others' chances to follow on the ends left open: a seat that knocked or drew on a
  suit holds none of it (C-6, C-7; `domino.ai.knowledge`), the rest by counting the
  unseen tiles; blocking the next opponent most, a seat about to go out more, the side
  that leads the match more when it is near the target, and never the partner in pairs
  (K-1, S-1);
- a move that ends the round in a fish (C-8 b) is taken only when the seat's side is
  expected to come out of it well under the game's fish rule (K-9's modes, T-5, M-1,
  S-5), and avoided when it would lose.

Where moves score as they are played (`GameVariant.scores_in_play`: All Fives and
threes and fives, F-3) it weighs as well, in the same unit (a point is worth the pips
that score it at the round's end, `pips_per_point`: 1 in All Fives, 5 in threes and
fives, F-5):

- the points the move makes (`GameVariant.move_points`), and a move that brings the
  side to the target wins the match at once (F-6), above going out;
- the next opponent's best reply on the ends left: the expected most it can score with
  one tile, from the tiles it may hold (each unseen tile it may hold with the same
  chance), and far more when that reply would bring its side to the target;
- the seat's own best score with the tiles it keeps on the ends it leaves (the next
  opponent may spoil it, so it counts less);
- pips shed matter less (they cost only when another side goes out or wins a fish,
  F-5), and a blocked opponent still draws and plays (F-4), so blocking weighs less.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from domino._core import tiles_in
from domino.actions import END_TURN, Action, Close, Draw, Knock, Play, PlayDoubles
from domino.ai.decision import Decision
from domino.ai.knowledge import Knowledge, knowledge
from domino.ai.sampling import Sampler
from domino.layout import Layout, new_layout
from domino.players import _menu
from domino.rules import FishMode, RoundEnd, Ruleset
from domino.scoring import initial_scores
from domino.tiles import ALL_TILES, BLANK_DOUBLE, SIX_DOUBLE, SUIT_MASK, TILE_VALUE
from domino.variants import GameVariant
from domino.views import MatchView, OutcomeKind, RoundOutcome, RoundResult

_GO_OUT = 1000.0
_WIN = 2 * _GO_OUT  # F-6: a move that scores the match's target wins it


@dataclass(frozen=True, slots=True)
class Weights:
    """The medium level's weights (pips are the unit).

    Those of scoring in play (F-3) were set by paired 2-player All Fives matches of the
    medium level against itself with other weights: weighing the points at all wins far
    more often than a medium level blind to them (`points`, `reply`, `reply_target` and
    `setup` 0); these `reply` and `keep_in_play` win more often than `reply` 0.8 and
    `keep_in_play` 1.0 in All Fives, and as often in threes and fives. Other values of
    `reply`, `setup`, `shed_in_play` and `block_in_play` made no difference beyond the
    noise."""

    shed: float = 1.0  # per pip taken out of the hand
    double: float = 6.0  # per double laid
    double_scarce: float = 4.0  # more when few unseen tiles of the double's suit remain
    suits: float = 1.5  # per suit the hand still holds
    follow: float = 1.0  # per tile of the hand that fits the ends left open
    stuck: float = 0.6  # times the pips of a tile that may never be placed
    block: float = 8.0  # the next opponent's chance to have nothing for the ends
    block_decay: float = 0.5  # weight of each later seat's chance, relative to the one before
    partner: float = 6.0  # the partner's chance to have nothing (pairs), as a cost
    threat: float = 1.5  # block weight grows for a seat this close to going out
    leader: float = 1.0  # block weight grows for the match leader near the target
    fish: float = 2.0  # times the estimated value of a fish the move makes
    thirteen: float = 3.0  # K-7: the hand drops below the threshold of a closed account
    close: float = 6.0  # O-3: the cost of closing an end (it shuts the seat's own suits too)
    # Where moves score in play (F-3), a point counting `pips_per_point` pips:
    points: float = 1.0  # per point the move makes
    reply: float = 1.2  # per point the next opponent is expected to make on the ends left
    reply_target: float = 400.0  # that reply bringing the opponent's side to the target
    setup: float = 0.35  # per point of the seat's own best next score on the ends left
    shed_in_play: float = 0.3  # times `shed`: pips cost only if another side goes out
    block_in_play: float = 0.5  # times `block`: a blocked seat draws and plays (F-4)
    keep_in_play: float = 0.5  # times the hand's prospects (`keep_suits`): a seat draws (F-4)


DEFAULT_WEIGHTS = Weights()


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _mask_value(mask: int) -> int:
    return sum(TILE_VALUE[i] for i in _bits(mask))


def _tiles_of(action: Action) -> tuple[Play, ...]:
    if isinstance(action, Play):
        return (action,)
    if isinstance(action, PlayDoubles):
        return action.plays
    return ()


def _chance_none(pool: int, fit: int, count: int) -> float:
    """The chance that `count` tiles taken at random from `pool` tiles, `fit` of which
    fit, hold none that fits (hypergeometric)."""
    if fit <= 0 or count <= 0:
        return 1.0
    if pool - fit < count:
        return 0.0
    p = 1.0
    for j in range(count):
        p *= (pool - fit - j) / (pool - j)
    return p


def hand_value(game: GameVariant, view: MatchView, hand_mask: int, *, fish: bool) -> int:
    """The value `hand_mask` would count at the end of the round (C-9, K-6, T-4, M-2)."""
    ruleset = view.ruleset
    if not hand_mask:
        return 0
    if game.min_written:  # M-2: Морской козёл's lone 0-0, lone 6-6, both
        if hand_mask == BLANK_DOUBLE.bit:
            return 25
        if hand_mask == SIX_DOUBLE.bit:
            return 50
        if hand_mask == BLANK_DOUBLE.bit | SIX_DOUBLE.bit:
            return 75
        return _mask_value(hand_mask)
    if hand_mask == BLANK_DOUBLE.bit:
        return ruleset.lone_blank if (ruleset.lone_blank_on_fish or not fish) else 0
    total = _mask_value(hand_mask)
    if ruleset.held_double_six and hand_mask & SIX_DOUBLE.bit:
        total += ruleset.held_double_six - 12
    return total


class _Position:
    """One decision: the seat's view, what it knows, and the table as a layout."""

    def __init__(self, view: MatchView, weights: Weights) -> None:
        rv = view.round
        self.view = view
        self.w = weights
        self.game = view.ruleset.game
        self.seat = rv.seat if rv.seat is not None else 0
        self.players = rv.players
        self.know: Knowledge = knowledge(view)
        # Втемную: a seat whose tiles lie face down sees none of them but the one it
        # turned up that waits for its end; the rest are `concealed`, unseen to it too.
        self.hand = self.know.hand
        if rv.turned_up is not None and rv.seat == rv.turn:
            self.hand |= rv.turned_up.bit
        self.unseen = self.know.unseen & ~self.hand
        self.concealed = 0 if rv.seat is None else rv.hand_counts[rv.seat] - self.hand.bit_count()
        self.unseen_count = [(self.unseen & SUIT_MASK[p]).bit_count() for p in range(7)]
        self.layout: Layout = new_layout(view.ruleset.layout)
        for p in rv.layout.placements:
            self.layout.place(p.tile, p.end, closed=p.closed)
        my_side = view.side_of(self.seat)
        self.my_side = my_side
        self.partners = tuple(s for s in view.sides[my_side] if s != self.seat)
        # the other seats in the order they move after this one, with their weights
        self.others: list[tuple[int, float, int]] = []  # (seat, weight, possible mask)
        factor = 1.0
        leader_sides = self._leader_sides()
        for d in range(1, self.players):
            s = (self.seat + d) % self.players
            possible = self.know.possible(s) & self.unseen
            count = rv.hand_counts[s]
            if s in self.partners:
                weight = -weights.partner * factor
            else:
                weight = weights.block * factor
                if count:
                    weight *= 1.0 + weights.threat / count
                if view.side_of(s) in leader_sides:
                    weight *= 1.0 + weights.leader * leader_sides[view.side_of(s)]
            self.others.append((s, weight, possible))
            factor *= weights.block_decay
        self.leader_sides = leader_sides
        # K-9: carried eggs go to whoever holds the most this round, so pips weigh more
        eggs = view.eggs if self.game.points_are_bad else 0
        self.shed_weight = weights.shed * (1.0 + eggs / 50.0)
        self.shed_reason = shed_reason(self.game)
        if self.shed_reason is None:  # B-1, B-2: the pips left in hand never score
            self.shed_weight = 0.0
        # K-7: below the threshold, a closed account only remembers the round's points
        account = view.scores[my_side] if view.scores else None
        closed = self.game.rule_of_13 and account is not None and not account.opened
        self.threshold = view.ruleset.open_threshold if closed else 0
        self.value_now = self._value(self.hand)
        self.in_play = self.game.scores_in_play
        if self.in_play:
            self.point_worth = pips_per_point(view)
            self.shed_weight *= weights.shed_in_play
            self.others = [
                (s, weight * weights.block_in_play, possible) for s, weight, possible in self.others
            ]
            target = view.ruleset.target
            self.to_target = [target - account.recorded for account in view.scores]

    def _value(self, hand: int) -> int:
        return hand_value(self.game, self.view, hand, fish=False)

    def _leader_sides(self) -> dict[int, float]:
        """Where points are good: the other sides ahead of this one, by how near the
        target they are (0..1); nobody where points are bad (the others' points help)."""
        view = self.view
        if self.game.points_are_bad or not view.scores:
            return {}
        target = view.ruleset.target
        mine = view.scores[self.my_side].recorded
        out = {}
        for side, account in enumerate(view.scores):
            if side != self.my_side and account.recorded > mine:
                out[side] = max(0.0, min(1.0, account.recorded / target))
        return out

    # --- one move ----------------------------------------------------------------------

    def score(self, action: Action) -> tuple[float, dict[str, float]]:
        """The move's value and its parts by reason (for a fish: its value, and what
        the move would be worth by the other parts, as "plain")."""
        w = self.w
        plays = _tiles_of(action)
        layout = self.layout.copy()
        laid = 0
        if isinstance(action, Close):
            layout.place(action.tile, action.end, closed=True)
            laid = action.tile.bit
        for play in plays:
            layout.place(play.tile, play.end)
            laid |= play.tile.bit
        hand = self.hand & ~laid
        parts: dict[str, float] = {}
        made = self._made(layout) if self.in_play and plays else 0
        wins = made > 0 and made >= self.to_target[self.my_side]  # F-6: the match is won here
        if not hand and not self.concealed:
            parts["go_out"] = _WIN if wins else _GO_OUT
            if made:
                parts["go_out"] += self.w.points * self.point_worth * made
            return parts["go_out"], parts
        if wins:
            parts["scores"] = _WIN
            return _WIN, parts
        if made:
            parts["scores"] = self.w.points * self.point_worth * made
        fit = layout.fit_mask
        fish = not fit & (hand | self.unseen)
        shed = 0.0
        doubles = 0.0
        for i in _bits(laid):
            t = ALL_TILES[i]
            shed += self.shed_weight * t.value
            if t.is_double:
                left = self.unseen_count[t.low]
                doubles += w.double + w.double_scarce * (1.0 - left / 6.0)
        if self.threshold and self.value_now >= self.threshold > self._value(hand):
            shed += w.thirteen
        parts["heavy"] = shed
        parts["double"] = doubles
        parts["keep_suits"] = self._keep(hand, fit) * (w.keep_in_play if self.in_play else 1.0)
        block = 0.0
        leader = 0.0
        for s, weight, possible in self.others:
            count = self.view.round.hand_counts[s]
            stuck = _chance_none(possible.bit_count(), (possible & fit).bit_count(), count)
            block += weight * stuck
            if weight > 0 and self.view.side_of(s) in self.leader_sides:
                base = weight / (1.0 + w.leader * self.leader_sides[self.view.side_of(s)])
                leader += (weight - base) * stuck
        parts["block"] = block - leader
        parts["block_leader"] = leader
        if isinstance(action, Close):
            parts["close"] = -w.close
        if fish:  # C-8 b: the round ends here; only the fish's outcome counts (and F-3's points)
            value = w.fish * self._fish_value(hand) + parts.get("scores", 0.0)
            plain = sum(parts.values())
            return value, {"fish_win" if value > 0 else "avoid_fish": value, "plain": plain}
        if self.in_play:
            parts["safe_ends"] = -self._reply(layout)
            parts["keep_suits"] += w.setup * self.point_worth * self._best_score(layout, hand)
        return sum(parts.values()), parts

    def points(self, action: Action) -> int:
        """The points `action` makes as it is played (F-3; 0 where moves do not score)."""
        plays = _tiles_of(action)
        if not self.in_play or not plays:
            return 0
        layout = self.layout.copy()
        for play in plays:
            layout.place(play.tile, play.end)
        return self._made(layout)

    def _made(self, layout: Layout) -> int:
        """F-3: what the move that left the table as `layout` scores."""
        return self.game.move_points(self.view.ruleset, layout.view())[0]

    def _scores_on(self, layout: Layout, tiles: int) -> list[int]:
        """For each of `tiles` that fits the table: the most it scores laid on an end."""
        best: dict[int, int] = {}
        for end, end_mask in layout.end_masks():
            for i in _bits(tiles & end_mask):
                after = layout.copy()
                after.place(ALL_TILES[i], end)
                made = self._made(after)
                if made > best.get(i, -1):
                    best[i] = made
        return list(best.values())

    def _best_score(self, layout: Layout, hand: int) -> int:
        """The most the seat could score next turn with a tile it keeps, were the table
        left as it is."""
        return max(self._scores_on(layout, hand), default=0)

    def _reply(self, layout: Layout) -> float:
        """The next opponent's expected best score on the ends left, in pips (see the
        module's docstring): its tiles from those it may hold, each with the chance
        count / pool, independently; far more for a reply that reaches the target."""
        w = self.w
        view = self.view
        s = (self.seat + 1) % self.players
        side = view.side_of(s)
        if side == self.my_side:
            return 0.0
        count = view.round.hand_counts[s]
        possible = self.know.possible(s) & self.unseen
        pool = possible.bit_count()
        if not count or not pool:
            return 0.0
        held = min(1.0, count / pool)
        to_target = self.to_target[side]
        worths = sorted(
            (
                w.reply * self.point_worth * made + (w.reply_target if made >= to_target else 0.0)
                for made in self._scores_on(layout, possible)
                if made
            ),
            reverse=True,
        )
        expected = 0.0
        none_better = 1.0  # the chance it holds none of the better replies
        for worth in worths:
            expected += worth * held * none_better
            none_better *= 1.0 - held
        return expected

    def _keep(self, hand: int, fit: int) -> float:
        """The hand's prospects: suits held, tiles that fit the ends, tiles at risk."""
        w = self.w
        suits = 0
        for p in range(7):
            if hand & SUIT_MASK[p]:
                suits += 1
        follow = (hand & fit).bit_count()
        risk = 0.0
        for i in _bits(hand):
            t = ALL_TILES[i]
            if fit >> i & 1:
                continue
            # ends of its suits still to come: unseen tiles of them, and the hand's own
            live = self.unseen_count[t.low] + (hand & SUIT_MASK[t.low]).bit_count() - 1
            if not t.is_double:
                live += self.unseen_count[t.high] + (hand & SUIT_MASK[t.high]).bit_count() - 1
            risk += t.value / (1.0 + live)
        return w.suits * suits + w.follow * follow - w.stuck * risk

    def _fish_value(self, hand: int) -> float:
        """The estimated worth of ending the round in a fish now (C-8 b), in pips of the
        side's standing against the others: what it gains or loses under the game's fish
        rule (K-9's modes, T-5, M-1, S-5). Each hidden hand is estimated from the tiles
        it may hold (mean and spread of a draw without replacement), sides compared as
        normal variables; so is the seat's own concealed part (Втемную)."""
        if self.shed_reason is None:
            return self._fish_scored(hand)
        view = self.view
        game = self.game
        rv = view.round
        means = [0.0] * self.players
        variances = [0.0] * self.players
        hidden = [(s, rv.hand_counts[s], possible) for s, _weight, possible in self.others]
        if self.concealed:
            hidden.append((self.seat, self.concealed, self.know.possible(self.seat) & self.unseen))
        for s, count, possible in hidden:
            pool = possible or self.unseen
            values = [TILE_VALUE[i] for i in _bits(pool)]
            n = len(values)
            if not n or not count:
                continue
            mean = sum(values) / n
            var = sum((v - mean) ** 2 for v in values) / n
            means[s] = count * mean
            variances[s] = count * var * max(0.0, n - count) / max(1, n - 1)
        if not rv.bazaar_size:  # the hidden hands hold every unseen tile
            known = sum(means)
            if known:
                scale = _mask_value(self.unseen) / known
                means = [m * scale for m in means]
        means[self.seat] += float(hand_value(game, view, hand, fish=True))
        sides = [
            (sum(means[s] for s in seats), sum(variances[s] for s in seats)) for seats in view.sides
        ]
        me, my_var = sides[self.my_side]
        others = [side for i, side in enumerate(sides) if i != self.my_side]
        total = sum(mean for mean, _ in sides)
        # chance that each other side's total is above this side's
        above = [_normal_cdf((mean - me) / math.sqrt(var + my_var + 1.0)) for mean, var in others]
        if game.points_are_bad:
            mode = view.ruleset.fish
            if mode is FishMode.FISHERMAN_TAKES_ALL:
                return -total
            share = sum(mean for mean, _ in others) / len(others)
            if mode is FishMode.EACH:
                return 0.5 * (share - me)
            taker = 1.0 - math.prod(1.0 - p for p in above)  # somebody else has the most
            total += view.eggs  # K-9: the carried eggs go with the fish
            return taker * (total / len(others) + me) - (1.0 - taker) * total
        win = math.prod(above)  # this side has the least
        return (2.0 * win - 1.0) * total / len(others)

    def _fish_scored(self, hand: int) -> float:
        """The worth of a fish now where the pips left in hand do not count (B-1, B-2:
        the doubles held do): the game's own scoring of the block over `FISH_WORLDS`
        worlds of the others' hands (`domino.ai.sampling`, one fixed generator, so the
        same view is valued alike), the side's points against the other sides' mean, in
        pips (`pips_per_point`)."""
        view = self.view
        rng = random.Random(0)
        sampler = Sampler(self.know)
        my_side = self.my_side
        total = 0.0
        for _ in range(FISH_WORLDS):
            hands = list(sampler.sample(rng).hands)
            hands[self.seat] = hand | (hands[self.seat] & ~self.hand)  # and what it cannot see
            tiles = [tiles_in(mask) for mask in hands]
            values = tuple(_mask_value(mask) for mask in hands)
            end = RoundEnd(
                ruleset=view.ruleset,
                round_no=view.round_no,
                outcome=RoundOutcome(OutcomeKind.FISH, self.seat, values),
                before=view.scores,
                eggs=0,
                values=values,
                sides=view.sides,
                hands=tiles,
            )
            points = self.game.score_round(end).points
            others = [p for side, p in enumerate(points) if side != my_side]
            total += points[my_side] - sum(others) / len(others)
        return total / FISH_WORLDS * pips_per_point(view)


FISH_WORLDS = 24
"""The worlds a fish is valued over where the game scores the block by the tiles held
(`_Position._fish_scored`)."""


def pips_per_point(view: MatchView) -> float:
    """How many pips left in the hands a point is worth in the match of `view`
    (`ruleset_pips_per_point`)."""
    return ruleset_pips_per_point(view.ruleset)


def ruleset_pips_per_point(ruleset: Ruleset) -> float:
    """How many pips left in the hands a point is worth, by the game's own round-end
    scoring under `ruleset`: a side going out against a hand of 30 pips (F-5: 30
    points in All Fives and threes and fives, 6 in threes and fives on the pub game's
    board, so 1 and 5)."""
    points = _went_out_against(ruleset, 30).points[0]
    return 30 / points if points > 0 else 1.0


@functools.cache
def shed_reason(game: GameVariant) -> str | None:
    """Why a hand is better light in `game`, as a hint tells it: "heavy" where the pips
    left in hand are the holder's own bad points (K-6, O-5), "heavy_to_winner" where
    the round's winner writes them (T-4, M-1, S-4, F-5 and the children's games scored
    as Классика); None where no round's end counts them (Bergen, Дубли: B-1, B-2).

    Asked of the game's own scoring: a round one side goes out of, the other left with
    30 pips or with 10 (written and remembered, M-1's 25 either side of it)."""
    heavy, light = (_went_out_against(game.ruleset, left) for left in (30, 10))
    if (heavy.points, heavy.after) == (light.points, light.after):
        return None
    return "heavy" if game.points_are_bad else "heavy_to_winner"


def _went_out_against(ruleset: Ruleset, left: int) -> RoundResult:
    """The first round of a match of two under `ruleset`, as its game scores it: seat 0
    went out, seat 1 is left with `left` pips."""
    values = (0, left)
    end = RoundEnd(
        ruleset=ruleset,
        round_no=1,
        outcome=RoundOutcome(OutcomeKind.WENT_OUT, 0, values),
        before=initial_scores(ruleset, 2),
        eggs=0,
        values=values,
        sides=((0,), (1,)),
    )
    return ruleset.game.score_round(end)


def _normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


class MediumPlayer:
    """The medium level: the best legal move by `_Position.score`."""

    def __init__(self, rng: random.Random, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.rng = rng
        self.weights = weights

    def decide(self, view: MatchView) -> Decision:
        legal = _legal(view)
        single = _single(legal)
        if single is not None:
            return single
        if END_TURN in legal:
            # Section V: lay every tile that fits rather than end the turn early; weighing
            # whether to end it won clearly fewer matches against greedy players, in Блиц
            # and Крест, with three players and with four.
            legal = [action for action in legal if action is not END_TURN]
        position = _Position(view, self.weights)
        best: Action | None = None
        best_value = -math.inf
        best_parts: dict[str, float] = {}
        runner_up: dict[str, float] = {}
        runner_up_value = -math.inf
        tempting = -math.inf  # the best plain value of a move that makes a losing fish
        for action in legal:
            value, parts = position.score(action)
            if "avoid_fish" in parts:
                tempting = max(tempting, parts["plain"])
            if value > best_value:
                runner_up, runner_up_value = best_parts, best_value
                best, best_value, best_parts = action, value, parts
            elif value > runner_up_value:
                runner_up, runner_up_value = parts, value
        assert best is not None
        reason = _reason(
            best,
            best_parts,
            runner_up,
            tempting > best_value,
            position.shed_reason,
            end_only=view.round.turned_up is not None,
        )
        if reason == "scores":
            return Decision(best, reason, {"points": position.points(best)})
        return Decision(best, reason)

    def choose(self, view: MatchView) -> Action:
        return self.decide(view).action

    def __repr__(self) -> str:
        return "MediumPlayer()"


class EasyPlayer:
    """The easy level: a simple sensible move, a random one now and then.

    It goes out whenever it can; otherwise, with chance `mistakes`, it plays any legal
    move that does not make a fish it expects to lose (C-8 b); else the heaviest tile
    (a double among equals), as `domino.players.GreedyPlayer` does, and where moves score
    (F-3) the move that scores the most now, the heaviest among equals: it sees the
    points on the table, not what it leaves the next player.
    """

    def __init__(self, rng: random.Random, mistakes: float = 0.25) -> None:
        self.rng = rng
        self.mistakes = mistakes

    def decide(self, view: MatchView) -> Decision:
        legal = _legal(view)
        single = _single(legal)
        if single is not None:
            return single
        rv = view.round
        held = rv.hand_counts[rv.seat] if rv.seat is not None else 0  # face down too (Втемную)
        for action in legal:
            if _laid(action) and _laid(action).bit_count() == held:
                return Decision(action, "go_out")
        in_play = view.ruleset.game.scores_in_play
        position = _Position(view, DEFAULT_WEIGHTS) if in_play else None
        if self.rng.random() < self.mistakes:
            position = position or _Position(view, DEFAULT_WEIGHTS)
            sane = [a for a in legal if "avoid_fish" not in position.score(a)[1]] or list(legal)
            action = sane[self.rng.randrange(len(sane))]
        elif position is not None:
            made = {a: position.points(a) for a in legal}
            action = max(legal, key=lambda a: (made[a], _laid_value(a), _is_double(a)))
        else:
            action = max(legal, key=lambda a: (_laid_value(a), _is_double(a)))
        if in_play and position is not None:
            points = position.points(action)
            if points:
                return Decision(action, "scores", {"points": points})
        heaviest = max(_laid_value(a) for a in legal)
        if _is_double(action):
            return Decision(action, "close" if isinstance(action, Close) else "double")
        shed = shed_reason(view.ruleset.game)
        if shed is not None and _laid_value(action) == heaviest:
            return Decision(action, shed)
        return Decision(action, "keep_suits")

    def choose(self, view: MatchView) -> Action:
        return self.decide(view).action

    def __repr__(self) -> str:
        return "EasyPlayer()"


def _legal(view: MatchView) -> Sequence[Action]:
    return _menu(view.round)  # the legal actions, or NotYourTurn


def _single(legal: Sequence[Action]) -> Decision | None:
    if len(legal) != 1:
        return None
    action = legal[0]
    if isinstance(action, Draw):
        return Decision(action, "draw")
    if isinstance(action, Knock):
        return Decision(action, "knock")
    return Decision(action, "only")


def _laid(action: Action) -> int:
    if isinstance(action, Close):
        return action.tile.bit
    mask = 0
    for play in _tiles_of(action):
        mask |= play.tile.bit
    return mask


def _laid_value(action: Action) -> int:
    return _mask_value(_laid(action))


def _is_double(action: Action) -> bool:
    return isinstance(action, PlayDoubles | Close) or (
        isinstance(action, Play) and action.tile.is_double
    )


def _reason(
    action: Action,
    parts: dict[str, float],
    runner_up: dict[str, float],
    fish_avoided: bool,
    shed: str | None,
    *,
    end_only: bool = False,
) -> str:
    """What decided the move: going out, a fish, a close, a fish avoided, else the part
    by which it beat the next best move most (where moves score, F-3: the points made,
    or the ends left on which the next opponent scores little). The pips shed are told
    as the game counts them (`shed`, from `shed_reason`), and never where they do not
    count. `end_only`: the tile is given and only its end is chosen (Втемную's tile
    turned up, the hand unseen), so only what the ends leave the others can tell."""
    if "go_out" in parts:
        return "go_out"
    if "fish_win" in parts:
        return "fish_win"
    if isinstance(action, Close):
        return "close"
    if fish_avoided:
        return "avoid_fish"
    reasons: tuple[str, ...] = (
        "double",
        "keep_suits",
        "block",
        "block_leader",
        "scores",
        "safe_ends",
    )
    if end_only:
        reasons = ("block", "block_leader")
    elif shed is not None:
        reasons = ("heavy", *reasons)
    if "plain" in runner_up:  # the next best was a fish: compare with its plain parts
        runner_up = {}
    reason = max(reasons, key=lambda k: parts.get(k, -math.inf) - runner_up.get(k, 0.0))
    return shed if reason == "heavy" and shed is not None else reason
