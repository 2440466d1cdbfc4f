"""domino.ai.sampling: every sampled world agrees with what the seat knows, and the
worlds come uniformly."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, permutations

from domino.ai.knowledge import Holding, Knowledge, knowledge
from domino.ai.sampling import Sampler
from domino.match import Match
from domino.tiles import FULL_SET_MASK, iter_tiles
from domino.variants import VARIANTS
from tests.domino.test_ai_knowledge import _fits


def test_worlds_agree_with_the_knowledge() -> None:
    """Every world: the own hand as it is, each hidden hand fits its parts, the bazaar
    holds the rest; and the true world is among those counted (total > 0)."""
    rng = random.Random(5)
    for game in VARIANTS:
        for players in sorted(game.ruleset.hand_sizes):
            if players > 4:
                continue
            match = Match.new(game.ruleset, players, 11)
            for _ in range(60):
                if match.over:
                    break
                seat = match.round.turn
                assert seat is not None
                known = knowledge(match.view(seat))
                sampler = Sampler(known)
                assert sampler.total > 0
                down = match.round.face_down(seat)  # Втемную: its own tiles unknown too
                for _ in range(3):
                    world = sampler.sample(rng)
                    if not down:
                        assert world.hands[seat] == match.round.hand_mask(seat)
                    union = 0
                    for s, hand in enumerate(world.hands):
                        assert hand.bit_count() == known.hand_counts[s]
                        assert not union & hand
                        union |= hand
                        if s != seat or down:
                            assert _fits(hand, [h for h in known.holdings if h.seat == s])
                    bazaar = sum(1 << i for i in world.bazaar)
                    assert len(world.bazaar) == known.bazaar_size
                    assert union | bazaar | known.table == FULL_SET_MASK
                legal = match.legal_actions()
                match.apply(legal[rng.randrange(len(legal))])


def test_worlds_are_uniform_on_a_small_case() -> None:
    """Five unseen tiles: seat 1 holds two of the first three, seat 2 one of any, the
    bazaar two (in either order): each of the possible worlds comes about equally often."""
    tiles = [t.index for t in iter_tiles((1 << 5) - 1)]  # 0-0 .. 0-4
    first3 = sum(1 << i for i in tiles[:3])
    unseen = sum(1 << i for i in tiles)
    known = Knowledge(
        seat=0,
        players=3,
        hand=1 << 20,
        table=FULL_SET_MASK ^ unseen ^ (1 << 20),
        unseen=unseen,
        hand_counts=(1, 2, 1),
        bazaar_size=2,
        drawable=2,
        holdings=(Holding(1, 2, first3), Holding(2, 1, unseen)),
        played=(0, 0, 0),
    )
    expected = set()
    for pair in combinations(tiles[:3], 2):
        rest = [i for i in tiles if i not in pair]
        for one in rest:
            for order in permutations([i for i in rest if i != one]):
                expected.add((sum(1 << i for i in pair), 1 << one, order))
    sampler = Sampler(known)
    assert sampler.total * 2 == len(expected)  # total counts sets; the order doubles it
    rng = random.Random(2024)
    draws = 200 * len(expected)
    seen = Counter(
        (w.hands[1], w.hands[2], w.bazaar) for w in (sampler.sample(rng) for _ in range(draws))
    )
    assert set(seen) == expected
    assert max(seen.values()) < 1.3 * 200 and min(seen.values()) > 0.7 * 200
