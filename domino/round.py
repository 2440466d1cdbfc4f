"""One round of a chain game: deal, opening, plays, draws, knocks, going out, fish.

Representation
--------------
A `Round` is a mutable state machine behind a readable API. Inside, each hand is
an `int` bitmask (bit `i` is `ALL_TILES[i]`, see `domino.tiles`), the bazaar is the
dealt tuple in draw order plus a count of tiles drawn so far, and the table is a
`Layout` (`domino.layout`). Legal moves come from masks: the tiles of a hand that
fit an end showing `n` are `hand & SUIT_MASK[n]`. `Play` actions and events are
interned (`domino._core`), so listing moves allocates only the result tuple. The
public history (`Played`, `Closed`, `Drew`, `Knocked`) together with the deal determines
the whole state, which is how a stored match rebuilds its rounds (`domino.match`).

Rules implemented (ids from docs/RULES.md)
-----------------------------------------
- C-3, C-11, K-2: the deal and redeal (`domino.deal`).
- K-3 / T-2: the first round's leader must open with the tile `first_leader` names
  (`opening_tile`); K-4 / later rounds: a given `leader` opens with any tile.
- S-2: in a game opened by turned tiles, the first round's leader is the seat that
  turned the highest (`turned`, `domino.deal.turned_leader`) and opens with any tile.
- C-4: every later tile goes on an open end with an equal half; the ends a tile is
  offered on are the layout's (`Layout.end_masks`; equal ends of a line: `LineLayout`).
- C-5: holding a playable tile, the mover must play; with several fits they choose
  the tile and the end (one `Play` per tile and end).
- M-3, O-2: where the game allows it (`GameVariant.max_doubles` above 1), a mover
  holding doubles that fit different open ends may instead lay several at once
  (`PlayDoubles`, up to `max_doubles`), each on its own end open when the turn began.
- O-3: where the game allows it (`GameVariant.may_close`), a double that fits an open end
  may be laid there face down (`Close`), closing that end for the rest of the round.
  Choices: a close is a play of that double, so it is offered beside every other play
  (the mover need not have nothing else); only an end open at the start of the turn can
  be closed (a spinner's UP and DOWN only once they have opened); a close is a whole
  turn: one end per turn, never together with other doubles (`PlayDoubles` lays its
  doubles face up). A closed end is blocked for C-8: a round whose open ends are all
  closed ends in fish, and a mover who closes with the last tile went out.
- Section V (Блиц, Крест): where the game allows it (`GameVariant.many_per_turn`), a
  mover who laid a tile keeps the turn while another of their tiles fits, and may lay
  it or end the turn (`EndTurn`, «✔️ Сходить»); the turn passes by itself once nothing
  more fits. Choices: the first tile of a turn follows C-5/C-6 as always (play if able,
  else draw or knock); a drawn tile that fits opens the run; a turn ended by choice is
  public (`Ended`), one that ran out of tiles that fit is not an event.
- Section V, Втемную (`GameVariant.face_down`): each seat's tiles are a face-down
  stack in the order dealt (`Deal.stacks`), hidden from its owner too. Such a seat's
  only move is `Flip`: its top tile is turned up and laid on the open end it fits (an
  empty table takes it as the opening), else it goes under the stack and, while the
  bazaar has tiles, one goes face down on top (`Flipped`); either way the turn passes.
  A tile that fits two ends (`flip_choice`) waits, turned up for all to see
  (`TurnedUp`, `turned_up`), for its owner's `Play` on one of them, the turn's only
  moves (without the option: the first end it fits, in `legal_actions`' end order). A
  stack laid down to `FACE_UP` tiles is turned up for its owner for the rest of the
  round, who then plays as in Блиц (several tiles a turn, C-6 draws, C-7 knocks).
- C-6 / K-5 / T-3: with nothing playable, `Draw` takes one tile (`bazaar[0]` of what
  is left) and the turn stays; once a drawn tile fits it is the only playable tile
  and must be played. The last `bazaar_reserve` tiles are never drawn.
- C-7: nothing playable and nothing drawable: `Knock` passes the turn.
- C-8: after a play, the mover with an empty hand went out (even if the table is now
  blocked); otherwise, if no tile in any hand nor any drawable bazaar tile fits an
  open end, the round ends at once in fish and the mover is the fisherman. The test
  is on masks (tiles not on the table and not in the reserve, against the suits of
  the open ends), so every block is found, not only the textbook one.
- C-9: the outcome's `hand_values` are plain pip sums; special values are scoring's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from domino import _core
from domino._core import mask_of_tiles, tiles_in
from domino.actions import (
    DRAW,
    END_TURN,
    FLIP,
    KNOCK,
    Action,
    Close,
    Closed,
    Draw,
    Drew,
    Ended,
    EndTurn,
    Event,
    Flip,
    Flipped,
    Knock,
    Play,
    PlayDoubles,
    Played,
    TurnedUp,
)
from domino.deal import Deal, first_leader_masks, turned_leader
from domino.deal import deal as deal_tiles
from domino.errors import DominoError, IllegalMove, NotYourTurn, RoundOver
from domino.geometry import End
from domino.layout import Layout, LineLayout, new_layout
from domino.rules import Opening, Ruleset
from domino.tiles import (
    ALL_TILES,
    BLANK_DOUBLE,
    DOUBLES_MASK,
    FULL_SET_MASK,
    SUIT_MASK,
    Tile,
    mask_value,
)
from domino.views import OutcomeKind, RoundOutcome, RoundView

_OPENING_RULE = {
    Opening.LOWEST_DOUBLE_FROM_ONE: "K-3",
    Opening.HIGHEST_DOUBLE: "T-2",
    Opening.LOWEST_DOUBLE: "B-1",
}

FACE_UP = 3
"""Втемную: a face-down stack laid down to this many tiles is turned up for its owner."""


def _tile_list(tiles: Sequence[object]) -> str:
    names = [str(t) for t in tiles]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _greedy_rank(action: Action) -> int:
    """`Round.greedy_playout`'s rank of a move (higher is played)."""
    if type(action) is Play:
        t = action.tile
        return 2 * (t.low + t.high) + (t.low == t.high)
    if type(action) is PlayDoubles:
        return 2 * sum(p.tile.low + p.tile.high for p in action.plays) + 1
    if type(action) is Close:
        return 2 * (action.tile.low + action.tile.high) - 1
    return -1


class Round:
    """The state of one round; `apply` is the only way it changes.

    Attributes read by callers: `ruleset`, `players`, `leader` (the seat that opened),
    `opening_tile` (the tile the first round must open with, None when any tile may
    open), `redeals` (C-11 reshuffles of this deal), `turned` (S-2: the tile each seat
    turned before the first round, public; () otherwise), `turn` (seat to move, None
    when over), `turn_no` (actions applied so far), `outcome` (None until over).
    """

    __slots__ = (
        "_bazaar",
        "_deal",
        "_drawn",
        "_hands",
        "_history",
        "_laid",
        "_layout",
        "_many",
        "_max_doubles",
        "_may_close",
        "_reserved_mask",
        "_stacks",
        "_turned_up",
        "leader",
        "opening_tile",
        "outcome",
        "players",
        "redeals",
        "ruleset",
        "turn",
        "turn_no",
        "turned",
    )

    ruleset: Ruleset
    players: int
    leader: int
    opening_tile: Tile | None
    redeals: int
    turned: tuple[Tile, ...]
    turn: int | None
    turn_no: int
    outcome: RoundOutcome | None
    _deal: Deal
    _hands: list[int]  # bitmask per seat
    _bazaar: tuple[Tile, ...]  # as dealt, in draw order
    _drawn: int  # bazaar tiles drawn so far
    _reserved_mask: int  # the bazaar tiles nobody may draw (C-6 bazaar_reserve)
    _layout: Layout
    _history: list[Event]
    _max_doubles: int  # M-3, O-2: doubles the game lets a mover lay in one turn
    _may_close: bool  # O-3: the game lets a mover close an end with a double face down
    _many: bool  # section V: the game lets a mover lay several tiles in one turn
    _laid: bool  # section V: the mover has laid a tile this turn and may lay more
    _stacks: list[list[Tile] | None] | None  # Втемную: per seat its face-down stack, top
    # first, None once turned up; None in the other games
    _turned_up: Tile | None  # Втемную: the mover's tile turned up that fits two ends

    # ----------------------------------------------------------------- creation

    @classmethod
    def start(
        cls, ruleset: Ruleset, players: int, rng: random.Random, *, leader: int | None = None
    ) -> Round:
        """Deal with `rng` (C-11 redeals included) and set up the opening.

        `leader` None: the first round, opened per `ruleset.opening` (K-3 / T-2) with a
        forced tile, by the seat that turned the highest tile (S-2) or by a seat drawn by
        lot with `rng` before the deal (F-1), with any tile; a seat: a later round that
        seat opens with any tile (K-4, T-2, S-2, F-1).
        """
        if leader is None and ruleset.opening is Opening.RANDOM_LEADER:
            leader = rng.randrange(players)  # F-1: the first leader is drawn by lot
        deal = deal_tiles(ruleset, players, rng, first=leader is None)
        masks = [mask_of_tiles(hand) for hand in deal.hands]
        return cls._dealt(ruleset, players, deal, masks, leader)

    @classmethod
    def from_deal(
        cls, ruleset: Ruleset, players: int, deal: Deal, *, leader: int | None = None
    ) -> Round:
        """A round from a given deal (as `start`, without shuffling).

        Any partition of the 28 tiles into `players` non-empty hands and a bazaar is
        accepted, so tests and puzzles can craft positions; `domino.deal.deal`
        deals the ruleset's hand sizes. The first round of a game opened by S-2 needs
        `deal.turned` (one tile per seat); any other round refuses it.
        """
        ruleset.hand_size(players)  # refuses a player count the variant does not allow
        if len(deal.hands) != players:
            raise DominoError(f"the deal has {len(deal.hands)} hands for {players} players")
        masks = [mask_of_tiles(hand) for hand in deal.hands]
        every = sum(map(len, deal.hands)) + len(deal.bazaar)
        union = mask_of_tiles(deal.bazaar)
        for mask in masks:
            union |= mask
        if every != len(ALL_TILES) or union != FULL_SET_MASK:
            raise DominoError("a deal must hold each of the 28 tiles exactly once")
        if not all(masks):
            raise DominoError("every hand of a deal needs at least one tile")
        hands = tuple(map(tiles_in, masks))
        if deal.stacks and [mask_of_tiles(stack) for stack in deal.stacks] != masks:
            raise DominoError("each stack of a deal must hold exactly its seat's hand")
        if hands != deal.hands:
            deal = Deal(hands, deal.bazaar, deal.redeals, deal.turned, deal.stacks)
        return cls._dealt(ruleset, players, deal, masks, leader)

    @classmethod
    def from_position(
        cls,
        ruleset: Ruleset,
        players: int,
        hands: Sequence[int],
        bazaar: Sequence[Tile],
        layout: Layout,
        turn: int,
        *,
        opening_tile: Tile | None = None,
        turn_no: int = 0,
        laid: bool = False,
        stacks: Sequence[Sequence[Tile] | None] | None = None,
        turned_up: Tile | None = None,
    ) -> Round:
        """A round at a position in mid-play: each seat's hand (`hands`, bitmasks), the
        bazaar left (in draw order), the table (`layout`, copied) and the seat to move.

        For computer players that play on from a world they imagine (`domino.ai`), so it
        is quick and trusts its input: the tiles must be the 28 once each. The position
        is the round's start as far as it knows: `deal` holds these hands and this
        bazaar, `history` and `drawn` only what is applied from here on. `opening_tile`:
        the tile an empty table must open with (K-3, T-2), None for any tile. `laid`:
        the mover has laid a tile this turn and may lay more or end it (section V).
        `stacks`: in Втемную, per seat its face-down stack (top first, the tiles of its
        hand) or None where its tiles are face up; not given, every hand is face up.
        `turned_up`: in Втемную, the mover's tile turned up that fits two ends, in its
        hand and out of its stack, waiting for the end (`RoundView.turned_up`).
        """
        self = cls.__new__(cls)
        self.ruleset = ruleset
        self.players = players
        self.leader = turn
        self.opening_tile = opening_tile if layout.is_empty else None
        self.redeals = 0
        self.turned = ()
        self.turn = turn
        self.turn_no = turn_no
        self.outcome = None
        bazaar = tuple(bazaar)
        self._deal = Deal(tuple(map(tiles_in, hands)), bazaar)
        self._hands = list(hands)
        self._bazaar = bazaar
        self._drawn = 0
        reserve = min(ruleset.bazaar_reserve, len(bazaar))
        self._reserved_mask = mask_of_tiles(bazaar[len(bazaar) - reserve :])
        self._layout = layout.copy()
        self._history = []
        game = ruleset.game
        self._max_doubles = game.max_doubles
        self._may_close = game.may_close
        self._many = game.many_per_turn
        self._laid = laid and self._many
        self._stacks = None
        if game.face_down and stacks is not None:
            self._stacks = [None if stack is None else list(stack) for stack in stacks]
        self._turned_up = turned_up if self._stacks is not None else None
        return self

    @classmethod
    def _dealt(
        cls, ruleset: Ruleset, players: int, deal: Deal, masks: list[int], leader: int | None
    ) -> Round:
        """The round of a deal known to be whole with sorted hands (as `domino.deal.deal`
        deals them), `masks` being those hands: the opening (K-3, T-2, S-2) and the state."""
        opening: Tile | None = None
        turns = leader is None and ruleset.opening is Opening.TURNED_TILE
        if deal.turned and not turns:
            raise DominoError("only the first round of a game opened by S-2 has turned tiles")
        if turns:
            leader = turned_leader(deal.turned, players)
        elif leader is None:
            leader, opening = first_leader_masks(ruleset, masks)
        elif not 0 <= leader < players:
            raise DominoError(f"no seat {leader} among {players} players")
        self = cls.__new__(cls)
        self.ruleset = ruleset
        self.players = players
        self.leader = leader
        self.opening_tile = opening
        self.redeals = deal.redeals
        self.turned = deal.turned
        self.turn = leader
        self.turn_no = 0
        self.outcome = None
        self._deal = deal
        self._hands = masks
        self._bazaar = deal.bazaar
        self._drawn = 0
        reserve = min(ruleset.bazaar_reserve, len(deal.bazaar))
        self._reserved_mask = mask_of_tiles(deal.bazaar[len(deal.bazaar) - reserve :])
        self._layout = new_layout(ruleset.layout)
        self._history = []
        game = ruleset.game
        self._max_doubles = game.max_doubles
        self._may_close = game.may_close
        self._many = game.many_per_turn
        self._laid = False
        self._stacks = None
        if game.face_down:
            dealt = deal.stacks or deal.hands
            self._stacks = [list(stack) if len(stack) > FACE_UP else None for stack in dealt]
        self._turned_up = None
        return self

    # ------------------------------------------------------------------ reading

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def history(self) -> tuple[Event, ...]:
        """Public events in order; a `Drew` does not name the tile."""
        return tuple(self._history)

    @property
    def layout(self) -> Layout:
        """The table. Read it; change it only through `apply`."""
        return self._layout

    @property
    def bazaar_size(self) -> int:
        return len(self._bazaar) - self._drawn

    @property
    def drawable(self) -> int:
        """Bazaar tiles that may still be drawn (C-6 `bazaar_reserve`)."""
        return max(0, len(self._bazaar) - self._drawn - self.ruleset.bazaar_reserve)

    @property
    def deal(self) -> Deal:
        """The deal this round started from (all hands and the bazaar order: secret)."""
        return self._deal

    def _seat(self, seat: int) -> int:
        if not 0 <= seat < self.players:
            raise DominoError(f"no seat {seat} among {self.players} players")
        return seat

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """The tiles `seat` holds, sorted (low tiles first)."""
        return tiles_in(self._hands[self._seat(seat)])

    def hand_mask(self, seat: int) -> int:
        return self._hands[self._seat(seat)]

    def hand_values(self) -> tuple[int, ...]:
        """Pips in each hand as plain sums (C-9 without special values)."""
        return tuple(mask_value(hand) for hand in self._hands)

    def drawn(self, seat: int) -> tuple[Tile, ...]:
        """The tiles `seat` drew this round, in the order drawn (secret to others)."""
        self._seat(seat)
        tiles: list[Tile] = []
        count = 0
        for event in self._history:
            if type(event) is Drew:
                if event.seat == seat:
                    tiles.append(self._bazaar[count])
                count += 1
            elif type(event) is Flipped and event.drew:
                count += 1  # Втемную: drawn face down onto the stack, seen by nobody
        return tuple(tiles)

    def face_down(self, seat: int) -> bool:
        """Втемную: whether `seat`'s tiles lie face down (its only move is `Flip`)."""
        stacks = self._stacks
        return stacks is not None and stacks[self._seat(seat)] is not None

    def stack(self, seat: int) -> tuple[Tile, ...]:
        """Втемную: `seat`'s face-down stack, top first; () once turned up (secret to all)."""
        stacks = self._stacks
        stack = stacks[self._seat(seat)] if stacks is not None else None
        return tuple(stack) if stack is not None else ()

    def _playable(self, hand: int) -> int:
        """The mover's tiles that may be played now (C-4, K-3 opening)."""
        layout = self._layout
        if layout.is_empty:
            opening = self.opening_tile
            return hand & opening.bit if opening is not None else hand
        return hand & layout.fit_mask

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the seat to move; () when the round is over.

        Plays are ordered by tile (index order), and for one tile LEFT before RIGHT
        (then UP, DOWN); then, where the game allows them, the `PlayDoubles` (M-3, O-2:
        fewer doubles first, each set's plays in end order), then the `Close` actions
        (O-3, by tile, then end); last `END_TURN` in the middle of a turn of several
        tiles (section V). With nothing playable, exactly one of `DRAW` (C-6) or
        `KNOCK` (C-7). A seat whose tiles lie face down (Втемную): only `FLIP`, and once
        it turned up a tile that fits two ends, only that tile's plays on them.
        """
        turn = self.turn
        if turn is None:
            return ()
        if self._turned_up is not None:  # Втемную: the turned-up tile's ends
            bit = self._turned_up.bit
            plays = _core.PLAYS
            index = self._turned_up.index
            return tuple(plays[end][index] for end, mask in self._layout.end_masks() if mask & bit)
        if self._stacks is not None and self._stacks[turn] is not None:
            return (FLIP,)  # Втемную: the tiles lie face down
        hand = self._hands[turn]
        layout = self._layout
        if not layout.table_mask:
            opening = self.opening_tile
            if opening is not None:
                return (_core.OPENING_PLAYS[opening.index],)
            return tuple(_core.OPENING_PLAYS[t.index] for t in tiles_in(hand))
        playable = hand & layout.fit_mask
        if not playable:
            if len(self._bazaar) - self._drawn > self.ruleset.bazaar_reserve:
                return (DRAW,)
            return (KNOCK,)
        end_masks = layout.end_masks()
        plays = _core.PLAYS
        actions: list[Action] = []
        while playable:
            bit = playable & -playable
            index = bit.bit_length() - 1
            for end, end_mask in end_masks:
                if end_mask & bit:
                    actions.append(plays[end][index])
            playable ^= bit
        if self._max_doubles > 1 or self._may_close:
            actions.extend(self._double_moves(hand & DOUBLES_MASK & layout.fit_mask, end_masks))
        if self._laid:
            actions.append(END_TURN)
        return tuple(actions)

    @property
    def turned_up(self) -> Tile | None:
        """Втемную: the mover's tile turned up that fits two ends, waiting for its owner to
        choose one (public: everyone saw it turned up); None otherwise."""
        return self._turned_up

    @property
    def mid_turn(self) -> bool:
        """Section V: the mover has laid a tile this turn and may lay more or end it."""
        return self._laid

    def _double_moves(
        self, doubles: int, end_masks: tuple[tuple[End, int], ...]
    ) -> list[PlayDoubles | Close]:
        """The moves beyond one tile that the game allows with the mover's playable
        `doubles` (a mask): the sets of doubles (M-3, O-2), then the closes (O-3)."""
        moves: list[PlayDoubles | Close] = []
        if self._max_doubles > 1:
            moves.extend(self._double_sets(doubles, end_masks, self._max_doubles))
        if self._may_close:
            while doubles:
                bit = doubles & -doubles
                tile = ALL_TILES[bit.bit_length() - 1]
                moves.extend(Close(tile, end) for end, mask in end_masks if mask & bit)
                doubles ^= bit
        return moves

    @staticmethod
    def _double_sets(
        doubles: int, end_masks: tuple[tuple[End, int], ...], most: int
    ) -> list[PlayDoubles]:
        """M-3, O-2: every way to lay from two to `most` of the mover's playable
        `doubles` (a mask) on as many different open ends. A double fits only the ends
        showing its pip, so each end takes at most one of them; ends showing the same
        pip give different sets (different arms grow) but never share a double."""
        plays = _core.PLAYS
        fitting = [(end, mask & doubles) for end, mask in end_masks if mask & doubles]
        sets = []
        for size in range(2, min(most, len(fitting)) + 1):
            for chosen in combinations(fitting, size):
                used = 0
                for _, bit in chosen:
                    used |= bit
                if used.bit_count() == size:
                    sets.append(
                        PlayDoubles(tuple(plays[end][bit.bit_length() - 1] for end, bit in chosen))
                    )
        return sets

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
        """Whether `apply(action, seat)` would be accepted."""
        return self._refusal(action, seat) is None

    def _must_play(self, playable: int, turn: int) -> IllegalMove:
        history = self._history
        if history and type(history[-1]) is Drew and history[-1].seat == turn:
            drawn = self._bazaar[self._drawn - 1]
            return IllegalMove(f"you drew {drawn}, which fits: you must play it (C-6)")
        tiles = tiles_in(playable)
        if len(tiles) == 1:
            return IllegalMove(f"you hold {tiles[0]}, which fits: you must play it (C-5)")
        return IllegalMove(
            f"you hold {_tile_list(tiles)}, which fit: you must play one of them (C-5)"
        )

    def _refusal(self, action: Action, seat: int | None) -> DominoError | None:
        """Why `action` (by `seat`, if given) may not be applied now; None if it may."""
        turn = self.turn
        if turn is None:
            return RoundOver("the round is over: no more moves")
        if seat is not None and seat != turn:
            return NotYourTurn(f"it is seat {turn}'s turn, not seat {seat}'s")
        turned_up = self._turned_up
        if turned_up is not None:
            if not isinstance(action, Play) or action.tile is not turned_up:
                return IllegalMove(f"you turned up {turned_up}: choose the end to lay it on")
            return self._play_refusal(action, self._hands[turn], self._layout)
        face_down = self._stacks is not None and self._stacks[turn] is not None
        if isinstance(action, Flip):
            if self._stacks is None:
                return IllegalMove("only in Втемную do tiles lie face down to be turned up")
            if not face_down:
                return IllegalMove("your tiles are face up: play one that fits, draw or knock")
            return None
        if face_down:
            return IllegalMove("your tiles lie face down: turn up the top one (Flip)")
        hand = self._hands[turn]
        layout = self._layout
        if isinstance(action, Play):
            return self._play_refusal(action, hand, layout)
        if isinstance(action, PlayDoubles):
            return self._doubles_refusal(action, hand, layout)
        if isinstance(action, Close):
            return self._close_refusal(action, hand, layout)
        if isinstance(action, EndTurn):
            if not self._many:
                return IllegalMove(
                    "one tile per turn: a turn of several tiles is Блиц's and Крест's"
                )
            if not self._laid:
                return IllegalMove("a turn ends after a tile at least: play, draw or knock")
            return None
        if self._laid:
            return IllegalMove("you laid a tile this turn: lay another that fits or end the turn")
        if layout.is_empty:
            return IllegalMove("the round opens with a play, not a draw or a knock")
        playable = hand & layout.fit_mask
        if playable:
            return self._must_play(playable, turn)
        if isinstance(action, Draw):
            if not self.drawable:
                if self.bazaar_size:
                    return IllegalMove(
                        f"the last {self.bazaar_size} bazaar tile(s) may not be drawn (C-6): knock"
                    )
                return IllegalMove("the bazaar is empty: knock (C-7)")
            return None
        if type(action) is not Knock:
            return IllegalMove(f"{action!r} is not an action: play, draw or knock")
        if self.drawable:
            return IllegalMove(
                f"the bazaar has {self.drawable} tile(s) to draw: draw, do not knock (C-6)"
            )
        return None

    def _play_refusal(self, action: Play, hand: int, layout: Layout) -> DominoError | None:
        tile, end = action.tile, action.end
        if not hand & tile.bit:
            return IllegalMove(f"you do not hold {tile}")
        if layout.is_empty:
            opening = self.opening_tile
            if end is not None:
                return IllegalMove(f"{tile} opens the round: play it without an end")
            if opening is not None and tile is not opening:
                rule = _OPENING_RULE[self.ruleset.opening]
                return IllegalMove(f"the first round opens with {opening} ({rule}): play it")
            return None
        if end is None:
            return IllegalMove(f"the table is open: choose an end for {tile}")
        if end in layout.closed_ends:
            return IllegalMove(f"the end {end.name} is closed (O-3): no tile goes there")
        end_masks = layout.end_masks()
        for choice, end_mask in end_masks:
            if choice is end and end_mask & tile.bit:
                return None
        open_ends = layout.open_ends()
        pips = dict(open_ends)
        fits = [choice for choice, end_mask in end_masks if end_mask & tile.bit]
        if not fits:
            shown = _tile_list([pip for _, pip in open_ends])
            return IllegalMove(f"{tile} does not fit the open ends {shown}")
        if end not in pips:
            return IllegalMove(f"the end {end.name} is not open on this table")
        if pips[end] == pips.get(fits[0]):
            return IllegalMove(
                f"both ends show {pips[end]}: play {tile} on the {fits[0].name} end,"
                " which gives the same table"
            )
        return IllegalMove(
            f"{tile} does not fit the {end.name} end, which shows {pips[end]};"
            f" it fits the {' or '.join(f.name for f in fits)} end"
        )

    def _doubles_refusal(
        self, action: PlayDoubles, hand: int, layout: Layout
    ) -> DominoError | None:
        """M-3, O-2: from two to `max_doubles` different doubles, each on its own end open
        at the start of the turn (checked one by one against the table before any), named
        in the order of their ends as `legal_actions` lists them, so that a move has one
        text (in the log, on a button)."""
        plays = action.plays
        most = self._max_doubles
        if most < 2:
            return IllegalMove(
                "one tile per turn: several doubles at once are Морской козёл's (M-3)"
                " and Осёл's (O-2)"
            )
        if layout.is_empty:
            return IllegalMove("the round opens with one tile: play it alone")
        if not 2 <= len(plays) <= most:
            return IllegalMove(
                f"from 2 to {most} doubles go down at once (M-3, O-2), not {len(plays)}"
            )
        tiles = [play.tile for play in plays]
        if not all(t.is_double for t in tiles) or len(set(tiles)) != len(tiles):
            return IllegalMove(
                f"only different doubles go down together (M-3, O-2), not {_tile_list(tiles)}"
            )
        if len({play.end for play in plays}) != len(plays):
            return IllegalMove("lay each double on a different open end (M-3, O-2)")
        for play in plays:
            refusal = self._play_refusal(play, hand, layout)
            if refusal is not None:
                return refusal
        by_end = {play.end: play for play in plays}
        in_order = tuple(by_end[end] for end in End if end in by_end)
        if plays != in_order:
            return IllegalMove(
                "name the doubles in the order of their ends (LEFT, RIGHT, UP, DOWN):"
                f" {PlayDoubles(in_order)}"
            )
        return None

    def _close_refusal(self, action: Close, hand: int, layout: Layout) -> DominoError | None:
        """O-3: a double the mover holds, laid face down on an open end it fits."""
        tile = action.tile
        if not self._may_close:
            return IllegalMove("closing an end with a double face down is Осёл's (O-3)")
        if not tile.is_double:
            return IllegalMove(f"only a double closes an end (O-3), and {tile} is not one")
        if layout.is_empty:
            return IllegalMove("the round opens with a tile face up: no end is open to close")
        return self._play_refusal(Play(tile, action.end), hand, layout)

    # ----------------------------------------------------------------- changing

    def apply(self, action: Action, seat: int | None = None) -> Event:
        """Apply the mover's `action` and return the public event.

        `seat` given and not the mover: `NotYourTurn`; the round over: `RoundOver`;
        anything else not legal: `IllegalMove` naming the problem. A refused action
        changes nothing.
        """
        turn = self.turn
        if turn is None or (seat is not None and seat != turn) or not self._allowed(action, turn):
            raise self._refusal(action, seat) or DominoError(f"cannot apply {action!r}")
        event: Event
        if type(action) is Play:
            tile = action.tile
            hand = self._hands[turn] ^ 1 << tile.index
            self._hands[turn] = hand
            self._layout.place(tile, action.end)
            event = _core.played(turn, action.end, tile.index)
            if self._turned_up is not None:
                self._turned_up = None
                self._laid_from_stack(turn, hand)
            else:
                self._after_play(turn, hand)
        elif type(action) is PlayDoubles:
            event = self._lay_doubles(turn, action)
            self._after_play(turn, self._hands[turn])
        elif type(action) is Close:
            tile = action.tile
            hand = self._hands[turn] ^ 1 << tile.index
            self._hands[turn] = hand
            self._layout.place(tile, action.end, closed=True)
            event = Closed(turn, tile, action.end)
            self._after_play(turn, hand)
        elif type(action) is Draw:
            drawn = self._bazaar[self._drawn]
            self._drawn += 1
            self._hands[turn] |= 1 << drawn.index
            event = _core.drew(turn)  # C-6: the turn stays with the drawer
        elif type(action) is EndTurn:
            event = Ended(turn)  # section V: the mover stops laying tiles
            self._laid = False
            self.turn = (turn + 1) % self.players
        elif type(action) is Flip:
            event = self._flip(turn)
        else:
            event = _core.knocked(turn)
            self.turn = (turn + 1) % self.players
        self._history.append(event)
        self.turn_no += 1
        return event

    def _after_play(self, turn: int, hand: int, *, more: bool = True) -> None:
        """End the round after the mover's play (C-8), keep the turn where the mover may
        lay another tile (section V; not after a `Flip`, `more` False), or pass it."""
        layout = self._layout
        if not hand:  # C-8 (a): went out, even if the table is now blocked
            self._finish(OutcomeKind.WENT_OUT, turn)
        elif not layout.fit_mask & ~(layout.table_mask | self._reserved_mask):
            self._finish(OutcomeKind.FISH, turn)  # C-8 (b): nothing live fits
        elif more and self._many and hand & layout.fit_mask:
            self._laid = True
        else:
            self._laid = False
            self.turn = (turn + 1) % self.players

    def _flip(self, turn: int) -> Event:
        """Втемную: turn up the mover's top tile; lay it on the open end it fits (an
        empty table: as the opening), or, fitting two ends with `flip_choice`, keep the
        turn for its owner's choice (`TurnedUp`); or put it under the stack and a bazaar
        tile face down on top. The turn passes once the tile is laid or under the stack
        (or the round ends, C-8)."""
        stacks = self._stacks
        assert stacks is not None
        stack = stacks[turn]
        assert stack is not None
        tile = stack.pop(0)
        layout = self._layout
        bit = tile.bit
        fits = not layout.table_mask
        ends = [choice for choice, mask in layout.end_masks() if mask & bit] if not fits else []
        if len(ends) > 1 and self.ruleset.flip_choice:
            self._turned_up = tile  # «выкладывают на поле»: its owner lays it
            return TurnedUp(turn, tile)
        if fits or ends:
            end = ends[0] if ends else None
            hand = self._hands[turn] ^ bit
            self._hands[turn] = hand
            layout.place(tile, end)
            self._laid_from_stack(turn, hand)
            return _core.played(turn, end, tile.index)
        stack.append(tile)
        drew = len(self._bazaar) - self._drawn > self.ruleset.bazaar_reserve
        if drew:
            drawn = self._bazaar[self._drawn]
            self._drawn += 1
            self._hands[turn] |= drawn.bit
            stack.insert(0, drawn)
        self.turn = (turn + 1) % self.players
        return Flipped(turn, tile, drew)

    def _laid_from_stack(self, turn: int, hand: int) -> None:
        """Втемную: a tile from the mover's stack was laid: the stack is turned up for its
        owner once `FACE_UP` tiles are left, and the turn passes (or the round ends)."""
        stacks = self._stacks
        assert stacks is not None
        if hand.bit_count() <= FACE_UP:
            stacks[turn] = None  # turned up for its owner
        self._after_play(turn, hand, more=False)

    def _lay_doubles(self, turn: int, action: PlayDoubles) -> Event:
        """M-3, O-2: lay the doubles in the order given, except that a `0-0` goes down
        last, so that going out on them is M-4's «голый козёл» (the table is the same
        either way: the ends differ). Each gets its `Played`; all but the last go to the
        history here, the last is returned."""
        plays = sorted(action.plays, key=lambda play: play.tile == BLANK_DOUBLE)
        for play in plays:
            self._hands[turn] ^= play.tile.bit
            self._layout.place(play.tile, play.end)
        events = [_core.played(turn, play.end, play.tile.index) for play in plays]
        self._history.extend(events[:-1])
        return events[-1]

    def _allowed(self, action: Action, turn: int) -> bool:
        """The quick yes of `_refusal` for the seat to move (no message built)."""
        if self._turned_up is not None:
            return action in self.legal_actions()
        if self._stacks is not None and self._stacks[turn] is not None:
            return type(action) is Flip
        if type(action) is Flip:
            return False
        hand = self._hands[turn]
        layout = self._layout
        if type(action) is Play:
            bit = 1 << action.tile.index
            if not hand & bit:
                return False
            if not layout.table_mask:
                opening = self.opening_tile
                return action.end is None and (opening is None or action.tile is opening)
            for end, end_mask in layout.end_masks():
                if end is action.end:
                    return bool(end_mask & bit)
            return False
        if type(action) is PlayDoubles:
            return self._doubles_refusal(action, hand, layout) is None
        if type(action) is Close:
            return self._close_refusal(action, hand, layout) is None
        if type(action) is EndTurn:
            return self._laid
        if not layout.table_mask or hand & layout.fit_mask:
            return False
        drawable = len(self._bazaar) - self._drawn > self.ruleset.bazaar_reserve
        if type(action) is Draw:
            return drawable
        return type(action) is Knock and not drawable

    def stop(self, seat: int) -> None:
        """F-6: end the round where it stands: `seat`'s move scored the match's target
        (`OutcomeKind.REACHED`); the hands are kept as they are."""
        if self.outcome is not None:
            raise RoundOver("the round is over already")
        self._finish(OutcomeKind.REACHED, seat)

    def _finish(self, kind: OutcomeKind, seat: int) -> None:
        self.outcome = RoundOutcome(kind, seat, self.hand_values())
        self.turn = None

    def playout(self, rng: random.Random) -> RoundOutcome:
        """Play a copy to the end with uniformly random legal actions; `self` is untouched.

        For computer players' simulations and the benchmark. Policy: a forced draw or
        knock takes no randomness, otherwise the play `legal[int(rng.random() * n)]`
        of the `n` legal actions. On a line the mask kernel `_core.line_playout`
        plays exactly that game without building actions or copying the round
        (`_line_playout`); other layouts, and games with several doubles in one turn,
        closed ends or several tiles in a turn (M-3, O-2, O-3, section V, which the
        kernel does not know), step through `legal_actions` and `apply`.
        """
        if self.outcome is not None:
            return self.outcome
        layout = self._layout
        turn = self.turn
        if (
            type(layout) is LineLayout
            and self._max_doubles == 1
            and not self._may_close
            and not self._many
            and turn is not None
        ):
            return self._line_playout(layout, turn, rng)
        sim = self.copy()
        while sim.outcome is None:
            sim._random_step(rng)
        return sim.outcome

    def _line_playout(self, layout: LineLayout, turn: int, rng: random.Random) -> RoundOutcome:
        """`playout` on a line by the mask kernel, on copies of the hands only. An
        empty table's opening play is chosen here as `legal_actions` lists it (the
        playable tiles in index order, one `Play` each); it lies low half LEFT, high
        half RIGHT (`LineLayout`), and ends the round as `_after_play` would (C-8)."""
        hands = self._hands.copy()
        blocked = layout.table_mask | self._reserved_mask
        if layout.table_mask:
            left, right = layout.pips
        else:
            playable = self._playable(hands[turn])
            for _ in range(int(rng.random() * playable.bit_count())):
                playable &= playable - 1
            bit = playable & -playable
            index = bit.bit_length() - 1
            hands[turn] ^= bit
            blocked |= bit
            left, right = _core.TILE_LOW[index], _core.TILE_HIGH[index]
            if not hands[turn]:
                return RoundOutcome(OutcomeKind.WENT_OUT, turn, tuple(map(mask_value, hands)))
            if not (SUIT_MASK[left] | SUIT_MASK[right]) & ~blocked:
                return RoundOutcome(OutcomeKind.FISH, turn, tuple(map(mask_value, hands)))
            turn = (turn + 1) % self.players
        end = len(self._bazaar) - min(self.ruleset.bazaar_reserve, len(self._bazaar))
        drawable = tuple(t.index for t in self._bazaar[self._drawn : end])
        went_out, seat = _core.line_playout(hands, left, right, turn, drawable, blocked, rng)
        kind = OutcomeKind.WENT_OUT if went_out else OutcomeKind.FISH
        return RoundOutcome(kind, seat, tuple(map(mask_value, hands)))

    def greedy_playout(self, *, smart: bool = False) -> tuple[RoundOutcome, tuple[int, ...], int]:
        """Play `self` to its end (it changes) with every seat shedding its heaviest
        move: the outcome, each seat's hand left (masks) and the index of the last tile
        laid (M-4). For computer players' rollouts (`domino.ai.search`).

        Policy: the move of the highest rank, the first of equal ones in
        `legal_actions` order; a tile ranks twice its pips plus one for a double, a
        `PlayDoubles` twice all its pips plus one, a `Close` (O-3) twice its pips less
        one; `EndTurn` last, so a turn of several tiles lays all that fit. On a line
        without closes or turns of several tiles the kernel `_core.line_greedy_playout` plays the
        same game on masks (M-3's two doubles included); other tables step through
        `legal_actions` and `apply`. `smart`: on a line, the careful policy of
        `_core.line_smart_playout` instead (elsewhere it changes nothing).
        """
        if self.outcome is None and self.turn is not None:
            layout = self._layout
            if (
                type(layout) is LineLayout
                and layout.table_mask
                and not self._may_close
                and not self._many
            ):
                left, right = layout.pips
                end = len(self._bazaar) - min(self.ruleset.bazaar_reserve, len(self._bazaar))
                drawable = tuple(t.index for t in self._bazaar[self._drawn : end])
                blocked = layout.table_mask | self._reserved_mask
                hands = self._hands
                pairs = self._max_doubles > 1
                if smart:
                    teams = self.ruleset.teams and self.players == 4
                    went_out, seat, last = _core.line_smart_playout(
                        hands, left, right, self.turn, drawable, blocked, pairs, teams
                    )
                else:
                    went_out, seat, last = _core.line_greedy_playout(
                        hands, left, right, self.turn, drawable, blocked, pairs
                    )
                kind = OutcomeKind.WENT_OUT if went_out else OutcomeKind.FISH
                self.turn = None
                self.outcome = RoundOutcome(kind, seat, tuple(map(mask_value, hands)))
                return self.outcome, tuple(hands), last
            while self.outcome is None:
                legal = self.legal_actions()
                best = legal[0]
                if len(legal) > 1:
                    best_rank = _greedy_rank(best)
                    for action in legal[1:]:
                        rank = _greedy_rank(action)
                        if rank > best_rank:
                            best, best_rank = action, rank
                self.apply(best)
        assert self.outcome is not None
        last_event = self._history[-1] if self._history else None
        last = last_event.tile.index if isinstance(last_event, Played | Closed) else -1
        return self.outcome, tuple(self._hands), last

    def _random_step(self, rng: random.Random) -> None:
        """The playout policy: a forced draw or knock, else a uniform random play."""
        legal = self.legal_actions()
        first = legal[0]
        if first is DRAW or first is KNOCK:
            self.apply(first)
        else:
            self.apply(legal[int(rng.random() * len(legal))])

    def copy(self) -> Round:
        new = Round.__new__(Round)
        new.ruleset = self.ruleset
        new.players = self.players
        new.leader = self.leader
        new.opening_tile = self.opening_tile
        new.redeals = self.redeals
        new.turned = self.turned
        new.turn = self.turn
        new.turn_no = self.turn_no
        new.outcome = self.outcome
        new._deal = self._deal
        new._hands = self._hands.copy()
        new._bazaar = self._bazaar
        new._drawn = self._drawn
        new._reserved_mask = self._reserved_mask
        new._layout = self._layout.copy()
        new._history = self._history.copy()
        new._max_doubles = self._max_doubles
        new._may_close = self._may_close
        new._many = self._many
        new._laid = self._laid
        stacks = self._stacks
        new._stacks = None if stacks is None else [s if s is None else s.copy() for s in stacks]
        new._turned_up = self._turned_up
        return new

    # -------------------------------------------------------------------- views

    def view(self, seat: int | None) -> RoundView:
        """What `seat` may know (None: the public): own hand (none while it lies face down,
        Втемную) and drawn tiles, counts of the others, bazaar size, the table, history;
        `legal` only on its turn."""
        if seat is not None:
            self._seat(seat)
        stacks = self._stacks
        face_down = () if stacks is None else tuple(stack is not None for stack in stacks)
        hand = () if seat is None or (face_down and face_down[seat]) else self.hand(seat)
        return RoundView(
            seat=seat,
            players=self.players,
            hand=hand,
            hand_counts=tuple(hand.bit_count() for hand in self._hands),
            bazaar_size=self.bazaar_size,
            drawable=self.drawable,
            layout=self._layout.view(),
            turn=self.turn,
            turn_no=self.turn_no,
            history=self.history,
            drawn=self.drawn(seat) if seat is not None else (),
            legal=self.legal_actions() if seat is not None and seat == self.turn else (),
            outcome=self.outcome,
            turned=self.turned,
            face_down=face_down,
            turned_up=self._turned_up,
        )

    def _key(self) -> tuple[Any, ...]:
        return (
            self.ruleset,
            self.players,
            self.leader,
            self.opening_tile,
            self.redeals,
            self.turned,
            self.turn,
            self.turn_no,
            self.outcome,
            self._deal,
            self._hands,
            self._drawn,
            self._layout,
            self._history,
            self._stacks,
            self._turned_up,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Round):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        state = "over" if self.outcome else f"seat {self.turn} to move"
        return f"<Round {self.ruleset.variant} {self.players}p, turn {self.turn_no}, {state}>"
