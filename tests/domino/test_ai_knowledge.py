"""domino.ai.knowledge against the real engine: whatever the seat is told, the truth
(every hidden hand as it is) must stay among the worlds the knowledge allows."""

from __future__ import annotations

import random

import pytest

from domino.actions import DRAW, KNOCK, Played
from domino.ai import Level, computer
from domino.ai.knowledge import Holding, Knowledge, knowledge
from domino.children import CROSS
from domino.match import Match
from domino.rules import Ruleset
from domino.tiles import ALL_TILES, FULL_SET_MASK, SUIT_MASK, iter_tiles, tile
from domino.variants import VARIANTS


def _fits(hand: int, parts: list[Holding]) -> bool:
    """Whether the tiles of `hand` can be shared out among `parts`, each tile to a part
    that allows it, each part getting exactly its count."""
    tiles = list(iter_tiles(hand))
    if len(tiles) != sum(part.count for part in parts):
        return False
    room = [part.count for part in parts]

    def place(i: int) -> bool:
        if i == len(tiles):
            return True
        for j, part in enumerate(parts):
            if room[j] and part.allowed & tiles[i].bit:
                room[j] -= 1
                if place(i + 1):
                    return True
                room[j] += 1
        return False

    return place(0)


def _check(match: Match, seat: int | None) -> Knowledge:
    known = knowledge(match.view(seat))
    round_ = match.round
    hands = [round_.hand_mask(s) for s in range(match.players)]
    assert known.hand_counts == tuple(h.bit_count() for h in hands)
    assert known.table == round_.layout.table_mask
    if seat is not None and round_.face_down(seat):
        assert known.seat is None  # Втемную: knows no more than the public
        seat = None
    assert known.hand == (hands[seat] if seat is not None else 0)
    hidden = 0
    for s in range(match.players):
        if s == seat:
            continue
        hidden |= hands[s]
        parts = [h for h in known.holdings if h.seat == s]
        assert all(part.allowed & ~known.unseen == 0 for part in parts)
        assert _fits(hands[s], parts), (s, match.log)
        for pip in known.void_suits(s):
            assert not hands[s] & SUIT_MASK[pip]
    assert known.unseen.bit_count() == hidden.bit_count() + round_.bazaar_size
    assert hidden & ~known.unseen == 0
    assert known.unseen | known.table | known.hand == FULL_SET_MASK
    return known


def _rulesets() -> list[tuple[Ruleset, int]]:
    cases = []
    for game in VARIANTS:
        for players in sorted(game.ruleset.hand_sizes):
            if players <= 4:
                cases.append((game.ruleset, players))
    kozel = VARIANTS[0].ruleset
    cases.append((kozel.with_options(bazaar_reserve=2), 2))
    cases.append((kozel.with_options(teams=True), 4))
    dark = next(game.ruleset for game in VARIANTS if game.ruleset.game.face_down)
    cases.append((dark.with_options(flip_choice=True), 3))  # a tile turned up waits (TurnedUp)
    return cases


def _case_id(case: object) -> str:
    if isinstance(case, Ruleset):
        extra = "-teams" if case.teams else "-choice" if case.flip_choice else ""
        return f"{case.variant}{extra}-r{case.bazaar_reserve}"
    return str(case)


@pytest.mark.parametrize(("ruleset", "players"), _rulesets(), ids=_case_id)
def test_the_truth_is_always_possible(ruleset: Ruleset, players: int) -> None:
    """C-6, C-7, K-3: random matches, every seat's knowledge checked after every action."""
    rng = random.Random(f"{ruleset.variant}-{players}")
    narrowed = 0
    for seed in range(2):
        match = Match.new(ruleset, players, seed)
        for _ in range(120):
            if match.over:
                break
            for seat in (*range(players), None):
                known = _check(match, seat)
                narrowed += sum(h.allowed != known.unseen for h in known.holdings if h.seat != seat)
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
    assert narrowed  # the history told something


def test_a_knock_rules_out_the_suits_open_then() -> None:
    """C-7: after a knock with ends 3 and 5, the knocker holds neither suit, for good."""
    ruleset = VARIANTS[0].ruleset
    for seed in range(200):
        match = Match.new(ruleset, 4, seed)
        while not match.over and match.round_no == 1:
            legal = match.legal_actions()
            if legal == (KNOCK,):
                knocker = match.round.turn
                assert knocker is not None
                ends = {pip for _, pip in match.round.layout.open_ends()}
                match.apply(KNOCK)
                viewer = (knocker + 1) % 4
                voids = set(knowledge(match.view(viewer)).void_suits(knocker))
                assert ends <= voids
                return
            match.apply(legal[0])
    pytest.fail("no knock in 200 matches")


def test_drawn_tiles_are_unknown_but_counted() -> None:
    """C-6: a seat that drew keeps the tiles it drew that did not fit; they are hidden
    tiles that fit none of the ends open when it drew."""
    ruleset = VARIANTS[0].ruleset
    for seed in range(200):
        match = Match.new(ruleset, 2, seed)
        while not match.over and match.round_no == 1:
            legal = match.legal_actions()
            turn = match.round.turn
            assert turn is not None
            if legal == (DRAW,):
                fit = match.round.layout.fit_mask
                draws = 0
                while match.legal_actions() == (DRAW,):
                    match.apply(DRAW)
                    draws += 1
                match.apply(match.legal_actions()[0])
                if draws > 1 and not match.over and match.round_no == 1:
                    known = knowledge(match.view(1 - turn))
                    parts = [h for h in known.holdings if h.seat == turn]
                    assert any(part.allowed & fit == 0 for part in parts)
                    assert sum(p.count for p in parts) == match.round.hand_mask(turn).bit_count()
                    return
                continue
            match.apply(legal[0])
    pytest.fail("no double draw in 200 matches")


def test_the_forced_opening_rules_out_lower_doubles() -> None:
    """K-3: in round 1 the 2-2 opened, so nobody was dealt the 1-1."""
    ruleset = VARIANTS[0].ruleset
    for seed in range(500):
        match = Match.new(ruleset, 2, seed)
        opening = match.round.opening_tile
        if opening is tile(2, 2):
            match.apply(match.legal_actions()[0])
            known = knowledge(match.view(0))
            assert not known.can_hold(1, tile(1, 1).index)
            assert known.can_hold(1, tile(3, 3).index) or match.round.hand_mask(0) & tile(3, 3).bit
            return
    pytest.fail("no round opened by 2-2")


def test_every_round_of_cross_opens_by_force_and_tells_what_was_not_dealt() -> None:
    """Крест opens every round with the youngest double dealt (`opening_every_round`), so
    a later round tells as much as the first: seed 53's round 2 at three puts 0-0 away
    and 1-1 opens, so no hand holds 0-0, in everyone's knowledge, and the truth stays
    possible."""
    assert CROSS.opening_every_round
    match = Match.new(CROSS, 3, 53)
    players = [computer(Level.MEDIUM, seed=seat) for seat in range(3)]
    while match.round_no == 1 or not match.round.history:
        assert not match.over
        seat = match.turn
        assert seat is not None
        match.apply(players[seat].choose(match.view(seat)), seat)
    opening = match.round.history[0]
    assert match.round_no == 2 and isinstance(opening, Played) and opening.tile is tile(1, 1)
    blank = tile(0, 0).index
    assert not any(match.round.hand_mask(seat) >> blank & 1 for seat in range(3))
    for viewer in (*range(3), None):
        known = _check(match, viewer)
        assert not any(known.can_hold(seat, blank) for seat in range(3) if seat != viewer)


def test_the_own_hand_is_known_and_nothing_else_is_read() -> None:
    match = Match.new(VARIANTS[0].ruleset, 4, 7)
    known = knowledge(match.view(0))
    assert known.possible(0) == match.round.hand_mask(0)
    assert known.unseen == FULL_SET_MASK ^ known.hand
    assert all(h.allowed == known.unseen for h in known.holdings)
    assert len(ALL_TILES) == 28
