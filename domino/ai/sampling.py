"""Worlds a seat cannot tell from the truth: the hidden hands and the bazaar, sampled.

A world gives every unseen tile (`Knowledge.unseen`) a place: a part of a hidden hand
(`Holding`, which allows only some tiles) or the bazaar, with the parts' counts and
the bazaar's size exactly as the seat knows them. `Sampler` draws worlds uniformly
among all such assignments, exactly, not by rejection:

- tiles allowed in the same places are interchangeable, so they form a type; the
  number of assignments is counted by a dynamic programme over (type, place, tiles of
  the type left, room left in every place), with binomial weights for which tiles of
  a type go where; it is built once per `Sampler` (once per decision), constraint-first
  (the most constrained types first, so dead ends are cut early) and memoised;
- a sample walks the programme, choosing each count with probability proportional to
  the assignments it leaves, then shares each type's tiles out at random; the bazaar's
  order is a uniform shuffle.

Uniform over the present assignments is close to, not exactly, the posterior of a
random deal: it ignores how the others chose their moves (a player who kept a tile
back is no likelier to hold it here), and where a hand's parts were merged
(`domino.ai.knowledge`) an assignment may stand for more or fewer deals than another.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import comb

from domino.ai.knowledge import Knowledge
from domino.errors import DominoError
from domino.tiles import iter_tiles


@dataclass(frozen=True, slots=True)
class World:
    """One possible truth: every seat's hand (masks; the viewer's own as it is) and the
    bazaar's tile indices in draw order."""

    hands: tuple[int, ...]
    bazaar: tuple[int, ...]


class Sampler:
    """Uniform worlds consistent with `known` (see the module's docstring)."""

    __slots__ = ("_counts", "_known", "_owners", "_places", "_types", "total")

    def __init__(self, known: Knowledge) -> None:
        self._known = known
        places = [holding.allowed for holding in known.holdings]
        rooms = [holding.count for holding in known.holdings]
        self._owners = [holding.seat for holding in known.holdings]
        if known.bazaar_size:
            places.append(known.unseen)
            rooms.append(known.bazaar_size)
            self._owners.append(-1)
        by_type: dict[tuple[int, ...], list[int]] = {}
        for t in iter_tiles(known.unseen):
            key = tuple(p for p, allowed in enumerate(places) if allowed >> t.index & 1)
            by_type.setdefault(key, []).append(t.index)
        if sum(rooms) != known.unseen.bit_count() or () in by_type:
            raise DominoError("the seat's knowledge leaves no world: counts or tiles do not add up")
        # Constraint-first: the types allowed in the fewest places go first.
        self._types = sorted(by_type.items(), key=lambda item: (len(item[0]), item[0]))
        self._places = len(places)
        self._counts: dict[tuple[int, int, int, tuple[int, ...]], int] = {}
        self.total = self._count(0, 0, len(self._types[0][1]) if self._types else 0, tuple(rooms))
        if not self.total:
            raise DominoError("the seat's knowledge leaves no world")

    def _count(self, t: int, p: int, left: int, rooms: tuple[int, ...]) -> int:
        """Assignments of the tiles from type `t` on, `left` of type `t` still to place
        from its `p`-th allowed place on, with `rooms` left in each place."""
        types = self._types
        if t == len(types):
            return 1 if not any(rooms) else 0
        key = (t, p, left, rooms)
        cached = self._counts.get(key)
        if cached is not None:
            return cached
        allowed = types[t][0]
        place = allowed[p]
        total = 0
        if p == len(allowed) - 1:
            if left <= rooms[place]:
                after = (*rooms[:place], rooms[place] - left, *rooms[place + 1 :])
                nxt = t + 1
                total = self._count(nxt, 0, len(types[nxt][1]) if nxt < len(types) else 0, after)
        else:
            for k in range(min(left, rooms[place]) + 1):
                after = (*rooms[:place], rooms[place] - k, *rooms[place + 1 :])
                ways = self._count(t, p + 1, left - k, after)
                if ways:
                    total += comb(left, k) * ways
        self._counts[key] = total
        return total

    def sample(self, rng: random.Random) -> World:
        """One world, uniformly among all (`total` of them, counting each assignment of
        tiles to places once and each bazaar order once)."""
        known = self._known
        types = self._types
        rooms = [h.count for h in known.holdings]
        if known.bazaar_size:
            rooms.append(known.bazaar_size)
        chosen: list[list[int]] = [[] for _ in range(self._places)]
        for t, (allowed, tiles) in enumerate(types):
            pool = tiles[:]
            rng.shuffle(pool)
            left = len(pool)
            for p, place in enumerate(allowed):
                if p == len(allowed) - 1:
                    k = left
                else:
                    here = tuple(rooms)
                    target = rng.random() * self._count(t, p, left, here)
                    k = last = 0
                    for k in range(min(left, rooms[place]) + 1):
                        after = (*here[:place], here[place] - k, *here[place + 1 :])
                        weight = comb(left, k) * self._count(t, p + 1, left - k, after)
                        if weight:
                            last = k
                            target -= weight
                            if target < 0:
                                break
                    k = last  # (the last possible one, should rounding leave target >= 0)
                chosen[place].extend(pool[left - k : left])
                del pool[left - k :]
                left -= k
                rooms[place] -= k
        hands = [0] * known.players
        if known.seat is not None:
            hands[known.seat] = known.hand
        bazaar: list[int] = []
        for place, tiles in enumerate(chosen):
            owner = self._owners[place]
            if owner < 0:
                bazaar = tiles
            else:
                for index in tiles:
                    hands[owner] |= 1 << index
        rng.shuffle(bazaar)
        return World(tuple(hands), tuple(bazaar))
