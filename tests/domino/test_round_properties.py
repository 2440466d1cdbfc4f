"""Invariants of random seeded rounds (hypothesis): every state the engine reaches
keeps the 28 tiles in one place each, changes only the mover, accepts exactly its
legal actions, round-trips through JSON and shows nobody another seat's tiles."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from domino.actions import DRAW, KNOCK, Action, Close, Draw, Drew, Knock, Play, PlayDoubles
from domino.errors import IllegalMove, NotYourTurn
from domino.geometry import End
from domino.osel import OSEL
from domino.round import Round
from domino.rules import CLASSIC, KOZEL, Ruleset
from domino.sea_kozel import SEA_KOZEL
from domino.tiles import ALL_TILES, DOUBLES_MASK, FULL_SET_MASK, Tile, mask_of, tiles_of
from domino.views import OutcomeKind

CONFIGS: list[tuple[Ruleset, int]] = [
    (KOZEL, 2),
    (KOZEL, 3),
    (KOZEL, 4),
    (CLASSIC, 2),
    (CLASSIC, 3),
    (CLASSIC, 4),
    (CLASSIC, 5),
    (KOZEL.with_options(bazaar_reserve=1), 2),
    (KOZEL.with_options(bazaar_reserve=2), 3),
    (SEA_KOZEL, 2),
    (OSEL, 2),
    (OSEL, 3),
    (OSEL, 4),
]

DOUBLES = tiles_of(DOUBLES_MASK)

rounds = st.tuples(st.sampled_from(CONFIGS), st.integers(0, 2**32 - 1))
SETTINGS = settings(max_examples=150, deadline=None, derandomize=True)


def bazaar_left(round_: Round) -> tuple[Tile, ...]:
    bazaar = round_.deal.bazaar
    return bazaar[len(bazaar) - round_.bazaar_size :]


def check_tiles_accounted(round_: Round) -> None:
    places = [round_.hand_mask(seat) for seat in range(round_.players)]
    places += [mask_of(bazaar_left(round_)), round_.layout.table_mask]
    union = 0
    for mask in places:
        assert not union & mask, "a tile is in two places"
        union |= mask
    assert union == FULL_SET_MASK
    assert sum(mask.bit_count() for mask in places) == 28


def check_fish_rule(round_: Round) -> None:
    """C-8 by brute force: the round goes on exactly while a live tile fits an open end."""
    pips = {pip for _, pip in round_.layout.open_ends()}
    reserve = round_.ruleset.bazaar_reserve
    left = bazaar_left(round_)
    live = [t for seat in range(round_.players) for t in round_.hand(seat)]
    live += left[: max(0, len(left) - reserve)]
    fits = any(t.has(pip) for t in live for pip in pips)
    outcome = round_.outcome
    if outcome is None or outcome.kind is OutcomeKind.FISH:
        assert fits == (outcome is None)


def check_views(round_: Round) -> None:
    table = set(round_.layout.placements and [p.tile for p in round_.layout.placements])
    for seat in range(round_.players):
        view = round_.view(seat)
        own = set(round_.hand(seat))
        assert view.hand == round_.hand(seat)
        assert set(view.drawn) <= own | table
        others = {t for other in range(round_.players) if other != seat for t in round_.hand(other)}
        secret = others | set(bazaar_left(round_))
        assert not (set(view.hand) | set(view.drawn)) & secret
        assert view.legal == (round_.legal_actions() if seat == round_.turn else ())
    public = round_.view(None)
    assert public.hand == () and public.drawn == () and public.legal == ()
    assert all(not hasattr(event, "tile") for event in public.history if isinstance(event, Drew))


def random_action(rng: random.Random) -> Action:
    kind = rng.random()
    if kind < 0.1:
        return DRAW
    if kind < 0.2:
        return KNOCK
    if kind < 0.3:  # M-3, O-2: some doubles on some ends, legal or not
        count = rng.randint(1, 5)
        return PlayDoubles(
            tuple(Play(rng.choice(DOUBLES), rng.choice(list(End))) for _ in range(count))
        )
    if kind < 0.4:  # O-3: any tile on any end, legal or not
        return Close(rng.choice(ALL_TILES), rng.choice(list(End)))
    return Play(rng.choice(ALL_TILES), rng.choice([None, *End]))


@SETTINGS
@given(rounds)
def test_random_rounds_keep_every_invariant(config: tuple[tuple[Ruleset, int], int]) -> None:
    (ruleset, players), seed = config
    rng = random.Random(seed)
    round_ = Round.start(ruleset, players, rng)
    check_tiles_accounted(round_)
    while not round_.over:
        legal = round_.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        mover = round_.turn
        assert mover is not None
        for action in legal:  # every legal action applies
            probe = round_.copy()
            probe.apply(action, mover)
            check_tiles_accounted(probe)
        before = round_.copy()
        for _ in range(4):  # random other actions are refused and change nothing
            action = random_action(rng)
            assert round_.is_legal(action) == (action in legal)
            if action not in legal:
                try:
                    round_.apply(action)
                except IllegalMove:
                    pass
                else:
                    raise AssertionError(f"{action} was accepted")
                assert round_ == before
        wrong_seat = (mover + 1) % players
        try:
            round_.apply(legal[0], wrong_seat)
        except NotYourTurn:
            pass
        else:
            raise AssertionError("another seat moved")
        assert round_ == before
        action = rng.choice(legal)
        round_.apply(action, mover)
        for seat in range(players):  # only the mover's hand changes
            if seat != mover:
                assert round_.hand_mask(seat) == before.hand_mask(seat)
        assert round_.turn_no == before.turn_no + 1
        check_tiles_accounted(round_)
        if not isinstance(action, Draw | Knock):
            check_fish_rule(round_)
        if rng.random() < 0.1:
            check_views(round_)
    check_views(round_)
    outcome = round_.outcome
    assert outcome is not None
    assert outcome.hand_values == round_.hand_values()
    if outcome.kind is OutcomeKind.WENT_OUT:
        assert round_.hand(outcome.seat) == ()


@SETTINGS
@given(rounds, st.integers(0, 40))
def test_playout_does_not_mutate_and_ends_consistently(
    config: tuple[tuple[Ruleset, int], int], steps: int
) -> None:
    (ruleset, players), seed = config
    rng = random.Random(seed)
    round_ = Round.start(ruleset, players, rng)
    for _ in range(steps):
        if round_.over:
            break
        round_.apply(rng.choice(round_.legal_actions()))
    before = round_.copy()
    history, hands = round_.history, [round_.hand(seat) for seat in range(players)]
    outcome = round_.playout(random.Random(seed))
    assert round_ == before and round_.history == history
    assert [round_.hand(seat) for seat in range(players)] == hands
    assert len(outcome.hand_values) == players
    assert round_.playout(random.Random(seed)) == outcome  # a seed replays the playout
    if outcome.kind is OutcomeKind.WENT_OUT:
        assert outcome.hand_values[outcome.seat] == 0
    # tiles only leave hands for the table or enter them from the drawable bazaar
    left = bazaar_left(round_)
    drawable = left[: max(0, len(left) - ruleset.bazaar_reserve)]
    ceiling = sum(round_.hand_values()) + sum(t.value for t in drawable)
    assert sum(outcome.hand_values) <= ceiling


def reference_playout(round_: Round, rng: random.Random) -> Round:
    """The playout policy spelled out with the public API, on a copy."""
    sim = round_.copy()
    while not sim.over:
        legal = sim.legal_actions()
        if legal[0] in (DRAW, KNOCK):
            sim.apply(legal[0])
        else:
            sim.apply(legal[int(rng.random() * len(legal))])
    return sim


@settings(max_examples=200, deadline=None, derandomize=True)
@given(rounds, st.integers(0, 30))
def test_the_playout_kernel_plays_the_public_api_game(
    config: tuple[tuple[Ruleset, int], int], steps: int
) -> None:
    (ruleset, players), seed = config
    rng = random.Random(seed)
    round_ = Round.start(ruleset, players, rng)
    for _ in range(steps):
        if round_.over:
            break
        round_.apply(rng.choice(round_.legal_actions()))
    expected = reference_playout(round_, random.Random(seed)).outcome
    assert round_.playout(random.Random(seed)) == expected
