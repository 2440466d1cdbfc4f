"""What one seat knows of the hidden tiles, worked out from its `MatchView` alone.

The seat sees its own hand, the table, each hand's size, the bazaar's size and the
public history. From them: the unseen tiles (neither in its hand nor on the table),
and, per other seat, which of them that seat may still hold.

How the history narrows a hand (every step exact or weaker, never stronger: a world
that is possible is never excluded):

- C-6, C-7: a seat that knocks, or draws, holds no tile that fits an open end at that
  moment (`Layout.fit_mask`). A turn of draws ends in the play of the last tile drawn
  (the only one that fits) or in a knock, so after it the seat's whole hand, the tiles
  it drew included, holds no tile of that mask.
- A later draw brings in tiles the old constraint does not cover. So a hand is kept as
  parts (`Holding`): each part a number of tiles and the unseen tiles it may hold. The
  dealt tiles are one part; the tiles kept from a turn of draws another; a knock or a
  draw narrows every part of that seat. A play removes its tile from the one part
  that may hold it; if several may, they are merged into one part allowed what either
  allowed (weaker, never wrong). Parts with the same allowed tiles are merged (exact).
- Втемную: a seat whose tiles lie face down lays what it turns up, knowing nothing, so
  its plays and failed turns narrow nothing; a tile it turned up that did not fit went
  under its stack (the seat holds it for sure: taken out of the part that held it, as
  a play, and kept as a part of one tile), and a bazaar tile it took face down is a
  part allowed anything. A tile it turned up that fits two ends (`TurnedUp`) is held
  for sure until its owner lays it: pinned the same way.
- K-3, T-2: in a round opened by force (the first round of a game with a forced
  opening, and every round where the ruleset opens each one so, `opening_every_round`:
  Крест), no hand was dealt a tile that would have opened before the tile that did (a
  lower double under K-3, a higher one under T-2; with no double opening, no double at
  all and no higher tile); this narrows the dealt part of every hand.

The bazaar holds the unseen tiles no hand holds, in an order nobody knows.
"""

from __future__ import annotations

from dataclasses import dataclass

from domino.actions import Closed, Drew, Flipped, Knocked, Played, TurnedUp
from domino.deal import first_leader_masks
from domino.layout import new_layout
from domino.rules import Opening
from domino.tiles import ALL_TILES, FULL_SET_MASK, SUIT_MASK
from domino.views import MatchView


@dataclass(frozen=True, slots=True)
class Holding:
    """A part of a hidden hand: `count` tiles of `seat`, each one of `allowed` (a mask
    of unseen tiles)."""

    seat: int
    count: int
    allowed: int


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What `seat` knows of the hidden tiles (`seat` None: the public's knowledge).

    Masks are tile bitmasks (`domino.tiles`). `holdings` cover every hidden hand (all
    seats but `seat`), their counts adding up to `hand_counts`; the bazaar holds the
    rest of `unseen` (`bazaar_size` tiles, `drawable` of them may be drawn).
    """

    seat: int | None
    players: int
    hand: int  # the seat's own tiles
    table: int  # tiles on the table (closed ones included, O-3)
    unseen: int  # tiles in the other hands or the bazaar
    hand_counts: tuple[int, ...]
    bazaar_size: int
    drawable: int
    holdings: tuple[Holding, ...]
    played: tuple[int, ...]  # per seat: the tiles it laid this round

    def possible(self, seat: int) -> int:
        """The unseen tiles `seat` may hold (its own hand, for the seat itself)."""
        if seat == self.seat:
            return self.hand
        mask = 0
        for holding in self.holdings:
            if holding.seat == seat:
                mask |= holding.allowed
        return mask

    def void_suits(self, seat: int) -> tuple[int, ...]:
        """The pips (suits) of which `seat` surely holds no tile, in order: those it
        knocked or drew on, and those whose unseen tiles are all ruled out for it."""
        possible = self.possible(seat)
        return tuple(pip for pip, suit in enumerate(SUIT_MASK) if not suit & possible)

    def can_hold(self, seat: int, tile_index: int) -> bool:
        return bool(self.possible(seat) >> tile_index & 1)


def _opening_exclusion(view: MatchView) -> int:
    """K-3, T-2: the tiles no hand was dealt, given the round's forced opening (round 1,
    or every round with `opening_every_round`; a later round's winner opens with any
    tile, which tells nothing)."""
    ruleset = view.ruleset
    forced = view.round_no == 1 or ruleset.opening_every_round
    if not forced or ruleset.opening in (Opening.TURNED_TILE, Opening.RANDOM_LEADER):
        return 0
    history = view.round.history
    if not history:
        return 0
    first = history[0]
    assert isinstance(first, Played)
    opening = first.tile
    excluded = 0
    for other in ALL_TILES:
        if other is not opening:
            _, leads = first_leader_masks(ruleset, [opening.bit | other.bit])
            if leads is other:
                excluded |= other.bit
    return excluded


def knowledge(view: MatchView) -> Knowledge:
    """Work out what the view's seat knows (see the module's docstring)."""
    rv = view.round
    seat = rv.seat
    if seat is not None and rv.face_down and rv.face_down[seat]:
        seat = None  # Втемную: a seat whose tiles lie face down knows what the public does
    players = rv.players
    hand = 0
    for t in rv.hand:
        hand |= t.bit
    hidden = [s for s in range(players) if s != seat]
    dealt = view.ruleset.hand_size(players)
    start = FULL_SET_MASK ^ _opening_exclusion(view)
    # Per hidden seat, its parts as [count, allowed]; `allowed` narrowed as we go.
    parts: dict[int, list[list[int]]] = {s: [[dealt, start]] for s in hidden}
    pending = [0] * players  # draws of the seat's current turn
    played = [0] * players
    layout = new_layout(view.ruleset.layout)
    for event in rv.history:
        kind = type(event)
        if kind is Played or kind is Closed:
            assert isinstance(event, Played | Closed)
            s = event.seat
            bit = event.tile.bit
            played[s] |= bit
            if s in parts:
                if pending[s]:  # C-6: the tile played is the last one drawn
                    if pending[s] > 1:
                        parts[s].append([pending[s] - 1, FULL_SET_MASK ^ layout.fit_mask])
                    pending[s] = 0
                    _merge_equal(parts[s])
                else:
                    _remove(parts[s], bit)
            layout.place(event.tile, event.end, closed=kind is Closed)
        elif kind is Drew:
            assert isinstance(event, Drew)
            s = event.seat
            if s in parts:
                if not pending[s]:
                    _narrow(parts[s], layout.fit_mask)
                pending[s] += 1
        elif kind is Flipped:
            assert isinstance(event, Flipped)
            s = event.seat
            if s in parts:  # the tile stays in the hand, now known: pin it
                _remove(parts[s], event.tile.bit)
                parts[s].append([1, event.tile.bit])
                if event.drew:
                    parts[s].append([1, FULL_SET_MASK])
                _merge_equal(parts[s])
        elif kind is TurnedUp:
            assert isinstance(event, TurnedUp)
            s = event.seat
            if s in parts:  # in the hand, turned up for all to see, until it is laid
                _remove(parts[s], event.tile.bit)
                parts[s].append([1, event.tile.bit])
                _merge_equal(parts[s])
        elif kind is Knocked:
            assert isinstance(event, Knocked)
            s = event.seat
            if s in parts:
                fit = layout.fit_mask
                if pending[s]:  # the draws brought nothing that fits
                    parts[s].append([pending[s], FULL_SET_MASK ^ fit])
                    pending[s] = 0
                _narrow(parts[s], fit)
    for s in hidden:
        if pending[s]:  # a turn of draws still going on: the last tile may fit
            if pending[s] > 1:
                parts[s].append([pending[s] - 1, FULL_SET_MASK ^ layout.fit_mask])
            parts[s].append([1, FULL_SET_MASK])
            _merge_equal(parts[s])
    table = 0  # from the table as shown (the history's replay gives the same)
    for placement in rv.layout.placements:
        table |= placement.tile.bit
    unseen = FULL_SET_MASK ^ table ^ hand
    holdings = tuple(
        Holding(s, count, allowed & unseen) for s in hidden for count, allowed in parts[s] if count
    )
    return Knowledge(
        seat=seat,
        players=players,
        hand=hand,
        table=table,
        unseen=unseen,
        hand_counts=rv.hand_counts,
        bazaar_size=rv.bazaar_size,
        drawable=rv.drawable,
        holdings=holdings,
        played=tuple(played),
    )


def _narrow(parts: list[list[int]], fit: int) -> None:
    """C-6, C-7: the seat holds no tile of `fit` in any part."""
    for part in parts:
        part[1] &= ~fit
    _merge_equal(parts)


def _remove(parts: list[list[int]], bit: int) -> None:
    """The seat played the tile `bit` from one of its parts: from the only one that may
    hold it, or from several merged (see the module's docstring)."""
    able = [part for part in parts if part[1] & bit]
    rest = [part for part in parts if not part[1] & bit]
    if not able:  # cannot happen with a true history; stay safe: forget the constraints
        able, rest = parts, []
        for part in able:
            part[1] = FULL_SET_MASK
    merged = [sum(part[0] for part in able) - 1, 0]
    for part in able:
        merged[1] |= part[1]
    parts[:] = [*rest, merged] if merged[0] else rest
    _merge_equal(parts)


def _merge_equal(parts: list[list[int]]) -> None:
    """Parts allowed the same tiles are one part (exact)."""
    by_allowed: dict[int, list[int]] = {}
    for count, allowed in parts:
        same = by_allowed.get(allowed)
        if same is None:
            by_allowed[allowed] = [count, allowed]
        else:
            same[0] += count
    parts[:] = by_allowed.values()
