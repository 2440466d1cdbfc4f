"""Rulesets as data: options, validation and the JSON round trip."""

from __future__ import annotations

import json

import pytest

from domino.errors import BadRuleset
from domino.rules import CLASSIC, KOZEL, FishMode, Ruleset


@pytest.mark.parametrize("ruleset", [KOZEL, CLASSIC], ids=lambda r: r.variant)
def test_to_dict_from_dict_round_trip_through_json(ruleset: Ruleset) -> None:
    data = json.loads(json.dumps(ruleset.to_dict()))
    assert Ruleset.from_dict(data) == ruleset


def test_with_options_changes_only_the_named_options() -> None:
    changed = KOZEL.with_options(target=125, teams=True, fish=FishMode.EACH, bazaar_reserve=2)
    assert (changed.target, changed.teams, changed.fish, changed.bazaar_reserve) == (
        125,
        True,
        FishMode.EACH,
        2,
    )
    assert changed.open_threshold == KOZEL.open_threshold
    assert KOZEL.target == 101  # the original is untouched
    assert Ruleset.from_dict(json.loads(json.dumps(changed.to_dict()))) == changed


def test_with_options_refuses_unknown_names() -> None:
    with pytest.raises(BadRuleset, match=r"unknown ruleset option.*colour"):
        KOZEL.with_options(colour="red")


@pytest.mark.parametrize(
    "options",
    [{"target": 0}, {"bazaar_reserve": -1}, {"hand_sizes": {4: 8}}, {"hand_sizes": {1: 7}}],
)
def test_invalid_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(BadRuleset):
        KOZEL.with_options(**options)


def test_hand_sizes_per_player_count() -> None:
    assert [KOZEL.hand_size(n) for n in (2, 3, 4)] == [7, 7, 7]  # K-1
    assert [CLASSIC.hand_size(n) for n in (2, 3, 4, 5)] == [7, 5, 5, 4]  # T-1
    with pytest.raises(BadRuleset, match="2-4 players, not 5"):
        KOZEL.hand_size(5)


def test_from_dict_names_what_it_cannot_read() -> None:
    with pytest.raises(BadRuleset, match="cannot read a ruleset"):
        Ruleset.from_dict({"variant": "chess"})
