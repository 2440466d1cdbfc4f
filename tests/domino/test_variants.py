"""Games as objects: the registry, each game's hooks by value, the listing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domino.__main__ import main
from domino.errors import BadRuleset, DominoError, UnknownVariant
from domino.match import Match
from domino.rules import CLASSIC, KOZEL, FishMode, RoundEnd, Ruleset, Variant, register
from domino.scoring import initial_scores, score_round, seat_values, sides_for
from domino.variants import (
    VARIANTS,
    AllFives,
    Bergen,
    Blitz,
    Classic,
    Cross,
    Dark,
    Dubli,
    GameVariant,
    Kozel,
    Osel,
    SeaKozel,
    Shesterka,
    Sport,
    ThreesAndFives,
    find_variant,
)
from domino.views import Account, OutcomeKind, RoundOutcome

STORED = Path(__file__).parent / "stored"


def out(seat: int, *hand_values: int) -> RoundOutcome:
    return RoundOutcome(OutcomeKind.WENT_OUT, seat, hand_values)


def fish(seat: int, *hand_values: int) -> RoundOutcome:
    return RoundOutcome(OutcomeKind.FISH, seat, hand_values)


def test_the_registry_lists_every_game_once_by_its_stable_key() -> None:
    assert [v.key.value for v in VARIANTS] == [
        "kozel",
        "classic",
        "sea_kozel",
        "osel",
        "sport",
        "all_fives",
        "threes_and_fives",
        "bergen",
        "dubli",
        "blitz",
        "cross",
        "shesterka",
        "dark",
    ]
    assert [type(v) for v in VARIANTS] == [
        Kozel,
        Classic,
        SeaKozel,
        Osel,
        Sport,
        AllFives,
        ThreesAndFives,
        Bergen,
        Dubli,
        Blitz,
        Cross,
        Shesterka,
        Dark,
    ]
    for variant in VARIANTS:
        assert isinstance(variant, GameVariant)
        assert find_variant(variant.key.value) is variant
        assert find_variant(variant.key) is variant  # the stored enum is the same key
    assert repr(find_variant("kozel")) == "<Kozel 'kozel'>"


def test_an_unknown_key_is_refused_by_name() -> None:
    with pytest.raises(
        UnknownVariant,
        match=r"no game 'chess'; the games are kozel, classic, sea_kozel, osel, sport, all_fives",
    ):
        find_variant("chess")
    assert issubclass(UnknownVariant, BadRuleset) and issubclass(UnknownVariant, DominoError)


def test_a_key_names_one_game() -> None:
    kozel = find_variant("kozel")
    assert register(kozel) == (kozel,) and find_variant("kozel") is kozel
    with pytest.raises(DominoError, match="the key 'kozel' is <Kozel 'kozel'>'s"):
        register(Kozel())
    assert find_variant("kozel") is kozel
    assert {game.key for game in VARIANTS} == set(Variant)


def test_a_ruleset_gives_its_game_and_each_game_its_default_ruleset() -> None:
    assert KOZEL.game is find_variant("kozel") and KOZEL.game.ruleset is KOZEL
    assert CLASSIC.game is find_variant("classic") and CLASSIC.game.ruleset is CLASSIC
    assert KOZEL.with_options(target=125, teams=True).game is KOZEL.game


@pytest.mark.parametrize("name", sorted(p.name for p in STORED.glob("*.json")))
def test_stored_rulesets_keep_their_form_and_find_their_game(name: str) -> None:
    stored = json.loads((STORED / name).read_text(encoding="utf-8"))["ruleset"]
    ruleset = Ruleset.from_dict(stored)
    assert ruleset.to_dict() == stored
    assert ruleset.game.key == stored["variant"]


def test_names_and_text_keys() -> None:
    kozel, classic = find_variant("kozel"), find_variant("classic")
    assert (kozel.name_key, kozel.rules_key) == (
        "variant.kozel",
        "rules.kozel",
    )
    assert (classic.name_key, classic.rules_key) == (
        "variant.classic",
        "rules.classic",
    )


def test_options_a_group_may_change_with_their_defaults_among_them() -> None:
    kozel, classic = find_variant("kozel"), find_variant("classic")
    assert dict(kozel.choices) == {
        "target": (101, 125),  # K-10
        "open_threshold": (13, 25, 31, 0),  # K-7
        "fish": (FishMode.MAX_TAKES_ALL, FishMode.EACH, FishMode.FISHERMAN_TAKES_ALL),  # K-9
    }
    assert dict(classic.choices) == {"target": (100, 150, 200)}  # T-6
    assert kozel.offers("fish") and kozel.offers("open_threshold")
    assert not classic.offers("fish") and not classic.offers("open_threshold")
    for variant in VARIANTS:
        for option, values in variant.choices.items():
            assert values[0] == getattr(variant.ruleset, option)  # the default comes first


def test_whether_points_are_bad_and_the_rule_of_13() -> None:
    assert (Kozel.points_are_bad, Kozel.rule_of_13) == (True, True)  # K-7, K-10
    assert (Classic.points_are_bad, Classic.rule_of_13) == (False, False)  # T-6
    assert initial_scores(KOZEL, 2) == (Account(0, 0, False),) * 2
    assert initial_scores(KOZEL.with_options(open_threshold=0), 2) == (Account(0, 0, True),) * 2
    assert initial_scores(CLASSIC, 2) == (Account(0, 0, True),) * 2


def test_score_round_gives_the_game_the_round_as_one_value() -> None:
    before = (Account(0, 3, False), Account(20, 0, True), Account(0, 0, False))
    outcome = fish(1, 9, 4, 12)
    end = RoundEnd(
        ruleset=KOZEL,
        round_no=4,
        outcome=outcome,
        before=before,
        eggs=6,
        values=seat_values(KOZEL, outcome),
        sides=sides_for(KOZEL, 3),
    )
    assert end.last_tile is None and end.hands is None
    assert score_round(KOZEL, 4, outcome, before, eggs=6) == KOZEL.game.score_round(end)


def test_scoring_a_round_is_the_games() -> None:
    sides = ((0,), (1,), (2,))
    before = (Account(0, 0, True),) * 3
    # K-6: the points stay with whoever holds them; T-4: the one who went out takes them all.
    kozel = find_variant("kozel").score_round(
        RoundEnd(KOZEL, 1, out(0, 0, 5, 7), before, 0, (0, 5, 7), sides)
    )
    classic = find_variant("classic").score_round(
        RoundEnd(CLASSIC, 1, out(0, 0, 5, 7), before, 0, (0, 5, 7), sides)
    )
    assert kozel.points == (0, 5, 7)
    assert classic.points == (12, 0, 0)
    with pytest.raises(DominoError, match="Классика has no eggs"):
        find_variant("classic").score_round(
            RoundEnd(CLASSIC, 1, out(0, 0, 5, 7), before, 5, (0, 5, 7), sides)
        )


def test_who_opens_the_next_round() -> None:
    kozel, classic = find_variant("kozel"), find_variant("classic")
    assert kozel.next_leader(KOZEL, fish(2, 9, 4, 6), None) == 2  # K-4: the fisherman
    assert classic.next_leader(CLASSIC, fish(2, 9, 4, 6), None) == 1  # T-2: the fish's winner
    assert classic.next_leader(CLASSIC, out(0, 0, 4, 6), None) == 0


def test_the_rating_rule_and_its_mirror() -> None:
    kozel, classic = find_variant("kozel"), find_variant("classic")
    assert kozel.rating_gains((25, 101, 0)) == (8, 1, 10)  # K-11
    assert classic.rating_gains((25, 101, 0)) == (3, 10, 1)
    assert kozel.abandoned_rating_gains((30, 13, 32), 2) == (1, 2, 0)  # K-11's timeout
    assert classic.abandoned_rating_gains((75, 20, 40), 2) == (4, 1, 0)


def test_the_last_sides_have_the_worst_points() -> None:
    scores = (Account(30, 0, True), Account(13, 5, False), Account(30, 0, True))
    assert find_variant("kozel").last_sides(scores) == (0, 2)
    assert find_variant("classic").last_sides(scores) == (1,)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.key.value)
def test_a_finished_match_names_its_losers_or_winners_as_the_game_says(
    variant: GameVariant,
) -> None:
    match = Match.new(variant.ruleset.with_options(target=20), variant.ruleset.min_players, seed=5)
    while not match.over:
        match.apply(match.legal_actions()[0])
    decided = match.losers if variant.points_are_bad else match.winners
    assert decided and (match.winners if variant.points_are_bad else match.losers) == ()
    assert match.rating() == variant.rating_gains(match.seat_points())
    if variant.points_are_bad:
        assert variant.last_sides(match.scores) == match.losers


def test_the_command_line_lists_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[0] for line in lines] == [v.key.value for v in VARIANTS]
    assert lines[0] == "kozel\t2-4\t101\tbad"  # no words: the names are the bot's texts
    assert "sport\t4\t200\tgood" in lines


@pytest.mark.parametrize("key", [v.value for v in Variant])
def test_simulate_accepts_every_key(key: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--variant", key, "--matches", "2", "--players", "4"]) == 0
    assert f"variant: {key} " in capsys.readouterr().out
