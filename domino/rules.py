"""Options as data: a `Ruleset` says hand size, who opens, drawing, scoring, target.

What differs between games as behaviour is in `domino.variants` (`ruleset.game`); a
game's default options are one `Ruleset` value here. The policy functions that read
these fields live in `domino.round` (opening, drawing, fish) and `domino.scoring`
(points). Options a group may change are plain fields, changed with
`ruleset.with_options(target=125, teams=True)`, which validates the result.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from domino.errors import BadRuleset

if TYPE_CHECKING:
    from domino.variants import GameVariant


class Variant(StrEnum):
    """The stable key of a game, as stored (`domino.variants.find_variant`)."""

    KOZEL = "kozel"  # K: points are bad, the first to the target is the козёл
    CLASSIC = "classic"  # T: points are good, the first to the target wins
    SEA_KOZEL = "sea_kozel"  # M: the round's winner writes, the first to 125 wins
    OSEL = "osel"  # O: Козёл on a spinner with double tricks, the one at 125 is the осёл
    SPORT = "sport"  # S: two pairs, the winning pair writes, the first to 200 wins
    ALL_FIVES = "all_fives"  # F: All Fives / Muggins, multiples of 5 on the ends score
    THREES_AND_FIVES = "threes_and_fives"  # F-3's option as a game: multiples of 3 and 5
    BERGEN = "bergen"  # B-1: equal ends score, the first to 15 wins
    DUBLI = "dubli"  # B-2: doubles and equal ends score, the children's game
    BLITZ = "blitz"  # V: all tiles shared out, any number of tiles per turn
    CROSS = "cross"  # V: a cross from the first double, any number of tiles per turn
    SHESTERKA = "shesterka"  # V: touching halves add up to 6
    DARK = "dark"  # V (Втемную): play from a face-down stack, the last three tiles face up


class LayoutKind(StrEnum):
    LINE = "line"  # C-4: two open ends
    SPINNER = "spinner"  # C-10: the spinner double is open on four sides
    FIRST_DOUBLE = "first_double"  # F-2: the first double played is the spinner, anywhere
    SUM_SIX = "sum_six"  # V (Шестёрка): a line whose touching halves add up to 6


class Opening(StrEnum):
    """Who leads the first round, and with which tile."""

    # K-3: 1-1, 2-2 ... 6-6, then 0-0, then the highest tile
    LOWEST_DOUBLE_FROM_ONE = "lowest_double_from_one"
    HIGHEST_DOUBLE = "highest_double"  # T-2: 6-6, 5-5 ... 0-0, then highest tile
    TURNED_TILE = "turned_tile"  # S-2: the highest turned tile leads, with any tile
    RANDOM_LEADER = "random_leader"  # F-1: a seat drawn by lot leads, with any tile
    LOWEST_DOUBLE = "lowest_double"  # B-1: 0-0, 1-1 ... 6-6, then the lowest tile


class Scoring(StrEnum):
    """Kept in the stored form of a ruleset; the game's scoring is `ruleset.game`'s."""

    KOZEL = "kozel"  # K-6 .. K-10
    CLASSIC = "classic"  # T-4 .. T-6
    SEA_KOZEL = "sea_kozel"  # M-1 .. M-6
    OSEL = "osel"  # O-5, O-6 (K-6, K-7 with 13, to 125)
    SPORT = "sport"  # S-4 .. S-6
    ALL_FIVES = "all_fives"  # F-3, F-5, F-6 (threes and fives too)
    BERGEN = "bergen"  # B-1, B-2


class FishMode(StrEnum):
    """K-9: who takes the points of a fish."""

    EACH = "each"  # "рыба на всех"
    MAX_TAKES_ALL = "max_takes_all"  # "рыба на одного" (default; ties make eggs)
    FISHERMAN_TAKES_ALL = "fisherman_takes_all"  # "всё на рыбака"


def _frozen(mapping: Mapping[int, int]) -> Mapping[int, int]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Ruleset:
    """Everything that makes one variant differ from another."""

    variant: Variant
    scoring: Scoring
    opening: Opening
    layout: LayoutKind = LayoutKind.LINE
    # Players -> tiles dealt to each (K-1, T-1).
    hand_sizes: Mapping[int, int] = field(default_factory=lambda: _frozen({2: 7, 3: 7, 4: 7}))
    bazaar_reserve: int = 0  # C-6: tiles at the bottom of the bazaar nobody may draw
    redeal_doubles: int = 5  # C-11: a hand with this many doubles forces a redeal (0 = never)
    redeal_suit: int = 0  # C-11 option: a hand with this many tiles of one suit (0 = off; 6)
    teams: bool = False  # K-1: with four players, partners opposite (0+2 against 1+3)
    target: int = 101  # K-10 / T-6
    # Козёл (K-6 .. K-9)
    open_threshold: int = 13  # K-7: 0 switches the rule of 13 off
    lone_blank: int = 10  # K-6: a lone 0-0 left in hand counts this much (T-4: 25)
    lone_blank_on_fish: bool = True  # K-6: whether the lone 0-0 value also applies on fish
    fish: FishMode = FishMode.MAX_TAKES_ALL  # K-9
    # Классика (T-2, T-4)
    blank_may_open: bool = True  # T-2 option: 0-0 may not open a round
    held_double_six: int = 0  # T-4 option: a 6-6 left in hand counts this much (50), 0 = off

    def __post_init__(self) -> None:
        object.__setattr__(self, "hand_sizes", _frozen(self.hand_sizes))
        self.validate()

    @property
    def game(self) -> GameVariant:
        """The game these options are for: its behaviour where games differ."""
        from domino.variants import find_variant  # variants imports this module

        return find_variant(self.variant)

    @property
    def min_players(self) -> int:
        return min(self.hand_sizes)

    @property
    def max_players(self) -> int:
        return max(self.hand_sizes)

    def hand_size(self, players: int) -> int:
        try:
            return self.hand_sizes[players]
        except KeyError:
            raise BadRuleset(
                f"{self.variant} is played by {self.min_players}-{self.max_players} players,"
                f" not {players}"
            ) from None

    def validate(self) -> None:
        if self.target <= 0:
            raise BadRuleset(f"target must be positive, not {self.target}")
        if self.bazaar_reserve < 0 or self.open_threshold < 0 or self.lone_blank < 0:
            raise BadRuleset("bazaar_reserve, open_threshold and lone_blank cannot be negative")
        for players, size in self.hand_sizes.items():
            if players < 2 or size < 1 or players * size > 28:
                raise BadRuleset(f"{players} players x {size} tiles do not fit in 28 tiles")
        if self.variant is Variant.SPORT and not (self.teams and set(self.hand_sizes) == {4}):
            raise BadRuleset("Спортивное is played by exactly 4 players in two pairs (S-1)")

    def with_options(self, **options: Any) -> Ruleset:
        """A copy with some options changed; unknown options are refused by name."""
        names = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(options) - names)
        if unknown:
            raise BadRuleset(f"unknown ruleset option(s): {', '.join(unknown)}")
        return dataclasses.replace(self, **options)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "hand_sizes":
                value = {str(k): v for k, v in value.items()}
            data[f.name] = value.value if isinstance(value, StrEnum) else value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruleset:
        kwargs = dict(data)
        try:
            kwargs["variant"] = Variant(kwargs["variant"])
            kwargs["scoring"] = Scoring(kwargs["scoring"])
            kwargs["opening"] = Opening(kwargs["opening"])
            kwargs["layout"] = LayoutKind(kwargs.get("layout", LayoutKind.LINE))
            kwargs["fish"] = FishMode(kwargs.get("fish", FishMode.MAX_TAKES_ALL))
            if "hand_sizes" in kwargs:
                kwargs["hand_sizes"] = {int(k): int(v) for k, v in kwargs["hand_sizes"].items()}
            return cls(**kwargs)
        except (KeyError, ValueError, TypeError) as exc:
            raise BadRuleset(f"cannot read a ruleset from {dict(data)!r}: {exc}") from None

    def __reduce__(self) -> tuple[object, tuple[dict[str, Any]]]:
        """Pickled as its stored form (`to_dict`): its read-only mappings do not pickle,
        and a view crosses to the computers' process pool pickled."""
        return (Ruleset.from_dict, (self.to_dict(),))


KOZEL = Ruleset(
    variant=Variant.KOZEL,
    scoring=Scoring.KOZEL,
    opening=Opening.LOWEST_DOUBLE_FROM_ONE,
    hand_sizes={2: 7, 3: 7, 4: 7},
    target=101,
)
"""«Козёл» (K-1 .. K-11): the flagship variant."""

CLASSIC = Ruleset(
    variant=Variant.CLASSIC,
    scoring=Scoring.CLASSIC,
    opening=Opening.HIGHEST_DOUBLE,
    hand_sizes={2: 7, 3: 5, 4: 5, 5: 4},  # T-1, with the fifth-player option
    target=100,
    lone_blank=25,  # T-4
    open_threshold=0,  # the rule of 13 is Козёл's
)
"""«Классика» (T-1 .. T-6): the traditional draw game, points are good."""
