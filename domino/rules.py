"""Options as data and games as objects: a `Ruleset` and its game, a `GameVariant`.

A `Ruleset` says hand size, who opens, drawing, scoring, target: the options a group
chose. Options a group may change are plain fields, changed with
`ruleset.with_options(target=125, teams=True)`, which validates the result. What differs
between games as behaviour is code in a `GameVariant`: the base class is here, one
subclass per game in `domino.variants`, which registers each game (`register`).
`ruleset.game` is the game of the ruleset's `variant` and `game.ruleset` its default
options; the two refer to each other, so they live in this one module, below every
game, with what a game scores a finished round from (`RoundEnd`). The policy functions
that read the options live in `domino.round` (opening, drawing, fish) and
`domino.scoring` (points).
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, ClassVar

from domino import rating
from domino.errors import BadRuleset, DominoError, UnknownVariant
from domino.geometry import LayoutView
from domino.sheet import Account, OutcomeKind, RoundOutcome, RoundResult
from domino.tiles import Tile


class Variant(StrEnum):
    """The stable key of a game, as stored (`find_variant`)."""

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


LATER_OPTIONS = frozenset({"fish_by_pips", "opening_every_round", "flip_choice"})
"""`Ruleset` options added after games were stored: missing from a stored ruleset, each
takes its default, which keeps the rule those games were dealt under."""


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
    # T-5: a fish is won by the fewest pips, special values counting in losers' hands only
    # (off: as stored before it, the special values count in the comparison too)
    fish_by_pips: bool = False
    # V (Крест): every round opens as the first does (`opening`: with a double), not by
    # the last round's winner with any tile
    opening_every_round: bool = False
    # V (Втемную): a tile turned up that fits two ends waits for its owner's choice of end
    # (off: as stored before it, it goes to the first end it fits)
    flip_choice: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "hand_sizes", _frozen(self.hand_sizes))
        self.validate()

    @property
    def game(self) -> GameVariant:
        """The game these options are for: its behaviour where games differ."""
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
        """The stored form; an option added later (`LATER_OPTIONS`) is written only when
        it is not at its default, which is the rule as played before it, so a stored
        ruleset keeps its form and reads back to the rules it was dealt under."""
        data: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name in LATER_OPTIONS and value == f.default:
                continue
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


Sides = tuple[tuple[int, ...], ...]
"""The seats of each side: `((0, 2), (1, 3))` in team play, else one per seat
(`domino.scoring.sides_for`)."""


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """A finished round as its game scores it (`GameVariant.score_round`).

    `domino.scoring.score_round` builds it: it checks the accounts and the eggs against
    the sides and works out `values` (`GameVariant.seat_values`) and `sides`.
    """

    ruleset: Ruleset
    round_no: int  # 1-based
    outcome: RoundOutcome
    before: tuple[Account, ...]  # per side: the accounts before the round
    eggs: int  # K-9: the points carried into the round
    values: tuple[int, ...]  # per seat: the hand's value at the round's end (C-9)
    sides: Sides
    # The tile whose play ended the round, for games that score it (M-4); None when
    # not known.
    last_tile: Tile | None = None
    # The tiles left in each seat's hand, for games that score which tiles are left
    # (B-1, B-2: a hand without doubles); None when not known.
    hands: Sequence[Sequence[Tile]] | None = None


class GameVariant(ABC):
    """One game: its key, its options and the rules where games differ. Its name and
    rules in words are texts of the catalogues, named by `name_key` and `rules_key`.

    Options a group may change in the lobby are `choices` (option name -> the allowed
    values, cycled in this order); the default of each is in `ruleset`.
    """

    key: ClassVar[Variant]
    name_key: ClassVar[str]  # the bot's text key of the name
    rules_key: ClassVar[str]  # the bot's text key of the rules
    ruleset: ClassVar[Ruleset]  # the default options
    choices: ClassVar[Mapping[str, tuple[Any, ...]]]
    points_are_bad: ClassVar[bool]  # the first to the target loses (Козёл) or wins
    rule_of_13: ClassVar[bool]  # K-7: points are remembered until an account opens
    max_doubles: ClassVar[int] = 1  # doubles a mover may lay in one turn (M-3: 2, O-2: 4)
    many_per_turn: ClassVar[bool] = False  # section V: any number of tiles in one turn
    face_down: ClassVar[bool] = False  # Втемную: tiles lie face down, turned up one a turn
    min_written: ClassVar[int] = 0  # M-1: the round's winner writes only from this sum up
    may_close: ClassVar[bool] = False  # O-3: a double laid face down closes its end
    turn_timing: ClassVar[bool] = False  # S-7: K-12's turn times are on by default
    scores_in_play: ClassVar[bool] = False  # F-3: moves score as they are played
    sums_ends: ClassVar[bool] = False  # F-3: what scores is the sum of the open ends
    # The points worth 10 rating where points are good (`domino.rating.classic_rating_gains`).
    rating_scale: ClassVar[int] = 100
    # Default targets at some table sizes, where they differ from `ruleset.target` (B-1).
    table_targets: ClassVar[Mapping[int, int]] = MappingProxyType({})

    def move_points(self, ruleset: Ruleset, layout: LayoutView) -> tuple[int, int]:
        """What the move that left the table as `layout` scores, and the count that
        scored it (F-3); (0, 0) in games where points come only at the round's end."""
        return 0, 0

    def default_target(self, players: int) -> int:
        """The target a match of `players` is played to unless the group chooses another:
        `ruleset.target`, or the table's own (`table_targets`; B-1: Bergen's three to 10)."""
        return self.table_targets.get(players, self.ruleset.target)

    def rating_scale_for(self, players: int, target: int | None = None) -> int:
        """The points worth 10 rating in a match of `players` to `target` (None: not
        known): `rating_scale`, or the table's own default target where it has one."""
        return self.table_targets.get(players, self.rating_scale)

    def offers(self, option: str) -> bool:
        """Whether a group may change `option` (a `Ruleset` field) in the lobby."""
        return option in self.choices

    @abstractmethod
    def seat_values(
        self, ruleset: Ruleset, outcome: RoundOutcome, hands: Sequence[Sequence[Tile]] | None
    ) -> tuple[int, ...]:
        """Each seat's hand value at the end of the round (C-9), which `score_round` is
        given as `RoundEnd.values`; `hands` the tiles left in each seat's hand, None when
        not known."""

    @abstractmethod
    def score_round(self, end: RoundEnd) -> RoundResult:
        """The round's line on the score sheet (`domino.scoring.score_round` builds
        `end`, checking it)."""

    def next_leader(
        self, ruleset: Ruleset, outcome: RoundOutcome, hands: Sequence[Sequence[Tile]] | None
    ) -> int:
        """The seat that opens the next round with any tile (K-4, T-2)."""
        return outcome.seat

    def rating_gains(self, points: Sequence[int], *, target: int | None = None) -> tuple[int, ...]:
        """Rating gains per seat for a finished match (to `target`, where known): K-11
        where points are bad, its mirror where they are good
        (`domino.rating.classic_rating_gains`, `rating_scale_for`)."""
        if self.points_are_bad:
            return rating.rating_gains(points)
        scale = self.rating_scale_for(len(points), target)
        return rating.classic_rating_gains(points, scale=scale)

    def abandoned_rating_gains(
        self, points: Sequence[int], culprit: int, *, target: int | None = None
    ) -> tuple[int, ...]:
        """Rating gains per seat for a match `culprit` abandoned (K-11's timeout rule)."""
        scale = self.rating_scale_for(len(points), target)
        return rating.abandoned_rating_gains(
            points, culprit, points_are_bad=self.points_are_bad, scale=scale
        )

    def last_sides(self, scores: Sequence[Account]) -> tuple[int, ...]:
        """The sides with the worst recorded points: the most where points are bad, else
        the fewest (for a finished Козёл match they are its козёл(s), K-10)."""
        recorded = [account.recorded for account in scores]
        worst = max(recorded) if self.points_are_bad else min(recorded)
        return tuple(side for side, points in enumerate(recorded) if points == worst)

    def drawn(self, result: RoundResult) -> bool:
        """Whether the round was a draw: a fish nobody scored that carries nothing on
        (a fish tied for the lowest, T-5, S-5). Where a game has a minimum to write
        (M-1) a scoreless round had a winner with too little (`too_few`), and its tied
        fish makes eggs (M-5): never a draw."""
        return (
            not self.min_written
            and result.outcome.kind is OutcomeKind.FISH
            and not any(result.points)
            and not result.eggs_after
        )

    def too_few(self, result: RoundResult) -> bool:
        """M-1: the round had a winner, but what it would write was below `min_written`,
        so nobody wrote (any eggs carry on); a tied fish is eggs instead (M-5)."""
        return (
            bool(self.min_written)
            and not any(result.points)
            and result.eggs_after <= result.eggs_before
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key.value!r}>"


_GAMES: dict[str, GameVariant] = {}


def register(*games: GameVariant) -> tuple[GameVariant, ...]:
    """Make each of `games` the game its key finds (`find_variant`, `Ruleset.game`), in
    the order given; returns them. `domino.variants` registers every game, and importing
    `domino` imports it. A key names one game: another game under a taken key is refused."""
    for game in games:
        taken = _GAMES.setdefault(game.key.value, game)
        if taken is not game:
            raise DominoError(f"the key {game.key.value!r} is {taken!r}'s, not {game!r}'s")
    return games


def find_variant(key: str) -> GameVariant:
    """The game whose stable key is `key` (a `Variant`: `kozel`, `classic`, ...)."""
    try:
        return _GAMES[key]
    except KeyError:
        known = ", ".join(_GAMES)
        raise UnknownVariant(f"no game {key!r}; the games are {known}") from None


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
    fish_by_pips=True,  # T-5
)
"""«Классика» (T-1 .. T-6): the traditional draw game, points are good."""
