"""Games as objects: what differs between Козёл and Классика is code in one class each.

python-chess's `chess/variant.py` is the model: a base class (`GameVariant`, in
`domino.rules` beside the `Ruleset` it refers to) with the common behaviour, a subclass
per game here that overrides what differs, the games in order (`VARIANTS`), each
registered under its key (`domino.rules.register`), and `find_variant(key)`. A `Ruleset`
stays data (the options a group chose); `ruleset.game` is its variant object, and
everything outside `domino/` asks it instead of asking which game is played.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import ClassVar

from domino import all_fives, bergen, children, osel, sea_kozel, sport
from domino.errors import DominoError
from domino.rules import (
    CLASSIC,
    KOZEL,
    FishMode,
    GameVariant,
    LayoutKind,
    RoundEnd,
    Ruleset,
    Variant,
    find_variant,
    register,
)
from domino.scoring import (
    classic_next_leader,
    score_classic_round,
    score_kozel_round,
    seat_values,
    sides_for,
    written_result,
)
from domino.tiles import Tile
from domino.views import LayoutView, OutcomeKind, RoundOutcome, RoundResult

__all__ = [
    "VARIANTS",
    "AllFives",
    "Bergen",
    "Blitz",
    "Classic",
    "Cross",
    "Dark",
    "Dubli",
    "GameVariant",
    "Kozel",
    "Osel",
    "SeaKozel",
    "Shesterka",
    "Sport",
    "ThreesAndFives",
    "find_variant",
]


class Kozel(GameVariant):
    """«Козёл» (K-1 .. K-11): points are bad; the first to the target is the козёл."""

    key = Variant.KOZEL
    name_key = "variant.kozel"
    rules_key = "rules.kozel"
    ruleset = KOZEL
    choices = MappingProxyType(
        {
            "target": (101, 125),
            "open_threshold": (13, 25, 31, 0),
            "fish": (FishMode.MAX_TAKES_ALL, FishMode.EACH, FishMode.FISHERMAN_TAKES_ALL),
        }
    )
    points_are_bad = True
    rule_of_13 = True

    def seat_values(
        self, ruleset: Ruleset, outcome: RoundOutcome, hands: Sequence[Sequence[Tile]] | None
    ) -> tuple[int, ...]:
        """C-9, K-6 (`domino.scoring.seat_values`): the pips, a lone `0-0` counting
        `lone_blank`."""
        return seat_values(ruleset, outcome, hands)

    def score_round(self, end: RoundEnd) -> RoundResult:
        """K-6 .. K-9 (`domino.scoring.score_kozel_round`)."""
        return score_kozel_round(end)


class Classic(GameVariant):
    """«Классика» (T-1 .. T-6): points are good; the first to the target wins."""

    key = Variant.CLASSIC
    name_key = "variant.classic"
    rules_key = "rules.classic"
    ruleset = CLASSIC
    choices = MappingProxyType({"target": (100, 150, 200)})
    points_are_bad = False
    rule_of_13 = False

    def seat_values(
        self, ruleset: Ruleset, outcome: RoundOutcome, hands: Sequence[Sequence[Tile]] | None
    ) -> tuple[int, ...]:
        """C-9, T-4 (`domino.scoring.seat_values`): the pips, a lone `0-0` counting
        `lone_blank` and, with `held_double_six`, a held `6-6` that much."""
        return seat_values(ruleset, outcome, hands)

    def score_round(self, end: RoundEnd) -> RoundResult:
        """T-4, T-5 (`domino.scoring.score_classic_round`); Классика has no eggs."""
        if end.eggs:
            raise DominoError("Классика has no eggs (K-9 is Козёл's rule)")
        return score_classic_round(end)

    def next_leader(
        self, ruleset: Ruleset, outcome: RoundOutcome, hands: Sequence[Sequence[Tile]] | None
    ) -> int:
        """T-2 (`domino.scoring.classic_next_leader`)."""
        return classic_next_leader(ruleset, outcome, hands)


class SeaKozel(GameVariant):
    """«Морской козёл» (M-1 .. M-6, `domino.sea_kozel`): the round's winner writes;
    points are good, the first to the target (125) wins."""

    key = Variant.SEA_KOZEL
    name_key = "variant.sea_kozel"
    rules_key = "rules.sea_kozel"
    ruleset = sea_kozel.SEA_KOZEL
    choices = MappingProxyType({"target": (125, 101)})
    points_are_bad = False
    rule_of_13 = False
    max_doubles = 2  # M-3
    min_written = sea_kozel.MIN_WRITTEN  # M-1

    def seat_values(
        self, ruleset: Ruleset, outcome: RoundOutcome, hands: Sequence[Sequence[Tile]] | None
    ) -> tuple[int, ...]:
        """M-2 (`domino.sea_kozel.seat_values`): lone `0-0` 25, lone `6-6` 50, both 75."""
        return sea_kozel.seat_values(outcome, hands)

    def score_round(self, end: RoundEnd) -> RoundResult:
        """M-1, M-4, M-5 (`domino.sea_kozel.score_sea_kozel_round`)."""
        return sea_kozel.score_sea_kozel_round(end)


class Osel(Kozel):
    """«Осёл» (O-1 .. O-6, `domino.osel`): Козёл on a spinner, with several doubles in one
    turn (O-2) and ends closed by a double laid face down (O-3); points are bad, the one
    at the target (125) or above is the осёл.

    Scoring and rating are Козёл's (O-5: K-6 .. K-9 and K-11) with the game's options
    (`osel.OSEL`: the lone `0-0` counts only off a fish, `lone_blank_on_fish`)."""

    key = Variant.OSEL
    name_key = "variant.osel"
    rules_key = "rules.osel"
    ruleset = osel.OSEL
    choices = MappingProxyType(
        {
            "target": (125, 101),  # O-6
            "open_threshold": (13, 0),  # O-5
            "fish": (FishMode.EACH, FishMode.MAX_TAKES_ALL, FishMode.FISHERMAN_TAKES_ALL),
        }
    )
    max_doubles = 4  # O-2: one on each of the spinner's four ends
    may_close = True  # O-3


class Sport(GameVariant):
    """«Спортивное» (S-1 .. S-7, `domino.sport`): four players in fixed pairs, the
    winning pair writes every tile left; points are good, the first pair to the target
    (200) wins.

    S-6's drawn match cannot arise: only one pair writes in a round (S-4, S-5), and
    before it neither had reached the target, so at most one pair can be at or above
    the target when a round ends; no extra round is ever needed.
    """

    key = Variant.SPORT
    name_key = "variant.sport"
    rules_key = "rules.sport"
    ruleset = sport.SPORT
    choices = MappingProxyType({"target": (200, 100, 300)})
    points_are_bad = False
    rule_of_13 = False
    turn_timing = True  # S-7

    def seat_values(
        self, ruleset: Ruleset, outcome: RoundOutcome, hands: Sequence[Sequence[Tile]] | None
    ) -> tuple[int, ...]:
        """S-4, S-5: the pips left in each hand, with no special values."""
        return outcome.hand_values

    def score_round(self, end: RoundEnd) -> RoundResult:
        """S-4, S-5 (`domino.sport.score_sport_round`)."""
        return sport.score_sport_round(end)


class AllFives(GameVariant):
    """All Fives / Muggins (F-1 .. F-6, `domino.all_fives`): a move that leaves the open
    ends adding up to a multiple of 5 scores it; going out or a fish scores the other
    hands rounded to 5; points are good, the first side to the target (250) wins, in the
    middle of a round if a move gets it there.

    Choice for who opens the next round (F-1: "the previous round's winner"): who went
    out; after a fish the winning side's seat with the lowest hand, and after a tied fish
    the fisherman (as Классика's T-2, `domino.scoring.classic_next_leader`).

    F-2's option «Straight» is the `layout` choice `LayoutKind.SPINNER`: only the round's
    first tile can be the spinner, so a double opening spins (`SpinnerLayout`) and after
    any other opening the round is a plain line in which no double spins (a tile that is
    not a double has no number on its long sides); the default, `FIRST_DOUBLE`, spins the
    first double played wherever it lies (`FirstDoubleLayout`)."""

    key = Variant.ALL_FIVES
    name_key = "variant.all_fives"
    rules_key = "rules.all_fives"
    ruleset = all_fives.ALL_FIVES
    choices = MappingProxyType(
        {"target": (250, 200, 300), "layout": (LayoutKind.FIRST_DOUBLE, LayoutKind.SPINNER)}
    )
    rating_scale = 250  # its default target
    points_are_bad = False
    rule_of_13 = False
    scores_in_play = True
    sums_ends = True
    threes: ClassVar[bool] = False  # F-3's option: multiples of 3 score too

    def move_points(self, ruleset: Ruleset, layout: LayoutView) -> tuple[int, int]:
        """F-3 (`domino.all_fives.end_count`, `move_points`)."""
        count = all_fives.end_count(layout)
        return all_fives.move_points(count, threes=self.threes), count

    def seat_values(
        self, ruleset: Ruleset, outcome: RoundOutcome, hands: Sequence[Sequence[Tile]] | None
    ) -> tuple[int, ...]:
        """F-5: the pips left in each hand, with no special values."""
        return outcome.hand_values

    def score_round(self, end: RoundEnd) -> RoundResult:
        """F-5 (`domino.all_fives.score_round`); there are no eggs."""
        if end.eggs:
            raise DominoError("All Fives has no eggs (K-9 is Козёл's rule)")
        return all_fives.score_round(end, unit=self.round_unit(end.ruleset))

    def round_unit(self, ruleset: Ruleset) -> int:
        """F-5's points at the round's end are divided by this: 1, as F-5 says."""
        return 1

    def next_leader(
        self, ruleset: Ruleset, outcome: RoundOutcome, hands: Sequence[Sequence[Tile]] | None
    ) -> int:
        """F-1: the previous round's winner (see the class docstring)."""
        return classic_next_leader(ruleset, outcome, hands)


class ThreesAndFives(AllFives):
    """Threes and fives (F-3's option, `domino.all_fives.THREES_AND_FIVES`): a multiple
    of 3 on the ends scores a third of it, a multiple of 5 a fifth, both add up; the
    round's end as F-5; the first side to 250 wins (F-6). A match to 61 or 121 is the
    pub game (`all_fives.PUB_BOARD`): its round's end scores in fives."""

    key = Variant.THREES_AND_FIVES
    name_key = "variant.threes_and_fives"
    rules_key = "rules.threes_and_fives"
    ruleset = all_fives.THREES_AND_FIVES
    choices = MappingProxyType(
        {
            "target": (250, 200, 300, *all_fives.PUB_BOARD),
            "layout": AllFives.choices["layout"],
        }
    )
    rating_scale = 250  # its default target
    threes = True

    def round_unit(self, ruleset: Ruleset) -> int:
        """F-5's points divided by 5 on the pub's board (25 pips -> 5 points), else 1."""
        return 5 if ruleset.target in all_fives.PUB_BOARD else 1

    def rating_scale_for(self, players: int, target: int | None = None) -> int:
        """On the pub's board its first target (61) is worth 10 rating, else 250 is."""
        if target in all_fives.PUB_BOARD:
            return all_fives.PUB_BOARD[0]
        return super().rating_scale_for(players, target)


class Bergen(GameVariant):
    """Bergen (B-1, `domino.bergen`): a move that leaves both ends equal scores 2 (a
    double-header; opening with a double is one), 3 when one end is a double (a
    triple-header); going out or winning a block scores 2; points are good, the first to
    the target (15; at three 10, `table_targets`) wins, in the middle of a round if a
    move gets it there."""

    key = Variant.BERGEN
    name_key = "variant.bergen"
    rules_key = "rules.bergen"
    ruleset = bergen.BERGEN
    choices = MappingProxyType({"target": (15, 10)})
    rating_scale = 15  # its default target
    table_targets = MappingProxyType({3: 10})  # B-1: «при двух … до 15 очков, при трех до 10»
    points_are_bad = False
    rule_of_13 = False
    scores_in_play = True

    def move_points(self, ruleset: Ruleset, layout: LayoutView) -> tuple[int, int]:
        """B-1 (`domino.bergen.bergen_points`); the count is the header (0, 2 or 3)."""
        header = bergen.header(layout)
        return bergen.bergen_points(layout), header

    def seat_values(
        self, ruleset: Ruleset, outcome: RoundOutcome, hands: Sequence[Sequence[Tile]] | None
    ) -> tuple[int, ...]:
        """B-1: the pips left in each hand, with no special values."""
        return outcome.hand_values

    def score_round(self, end: RoundEnd) -> RoundResult:
        """B-1's round end (`domino.bergen.score_bergen_round`); a block needs `hands`
        (going out does not)."""
        if end.eggs:
            raise DominoError("Bergen has no eggs (K-9 is Козёл's rule)")
        if end.outcome.kind is OutcomeKind.REACHED:
            return written_result(end.round_no, end.outcome, end.before, (0,) * len(end.sides))
        if end.hands is None and end.outcome.kind is OutcomeKind.FISH:
            raise DominoError("B-1 scores a block by the doubles left in hand: give the hands")
        return bergen.score_bergen_round(end)

    def next_leader(
        self, ruleset: Ruleset, outcome: RoundOutcome, hands: Sequence[Sequence[Tile]] | None
    ) -> int:
        """`domino.bergen.next_leader`: the round's winner opens the next."""
        sides = sides_for(ruleset, len(outcome.hand_values))
        return bergen.next_leader(outcome, outcome.hand_values, sides)


class Dubli(Bergen):
    """«Дубли» (B-2, `domino.bergen`): laying a double scores 1, both ends equal 1, a
    double at one end and the same number at the other 2; going out 2 and a hand left
    without doubles 1; on Bergen's round; the first to the target (10) wins."""

    key = Variant.DUBLI
    name_key = "variant.dubli"
    rules_key = "rules.dubli"
    ruleset = bergen.DUBLI
    choices = MappingProxyType({"target": (10, 15)})
    rating_scale = 10  # its default target
    table_targets = MappingProxyType({})  # B-2 names one target

    def move_points(self, ruleset: Ruleset, layout: LayoutView) -> tuple[int, int]:
        """B-2 (`domino.bergen.dubli_points`); the count is the ends' header (0, 2, 3)."""
        return bergen.dubli_points(layout), bergen.header(layout)

    def score_round(self, end: RoundEnd) -> RoundResult:
        """B-2's round end (`domino.bergen.score_dubli_round`); without `hands` (an
        estimate that does not know them) only going out is scored."""
        if end.eggs:
            raise DominoError("Дубли has no eggs (K-9 is Козёл's rule)")
        if end.outcome.kind is OutcomeKind.REACHED:
            return written_result(end.round_no, end.outcome, end.before, (0,) * len(end.sides))
        return bergen.score_dubli_round(end)


class Blitz(Classic):
    """«Блиц» (section V, `domino.children`): all tiles shared out, no bazaar, and a turn
    lays any number of tiles one after another; scored as Классика (T-4, T-5), the first
    to 100 wins."""

    key = Variant.BLITZ
    name_key = "variant.blitz"
    rules_key = "rules.blitz"
    ruleset = children.BLITZ
    choices = MappingProxyType({"target": (100, 50, 150)})
    many_per_turn = True


class Cross(Blitz):
    """«Крест» (section V, `domino.children`): every tile shared out, no bazaar; each round
    opens with a double, the centre of a cross open on four sides, and a turn lays any
    number of tiles one after another; scored as Классика (T-4, T-5), the first to 100
    wins."""

    key = Variant.CROSS
    name_key = "variant.cross"
    rules_key = "rules.cross"
    ruleset = children.CROSS


class Shesterka(Classic):
    """«Шестёрка» (section V, `domino.children`): a line whose touching halves add up to 6
    (`domino.layout.SumSixLayout`), one tile a turn, drawing as C-6; scored as Классика
    (T-4, T-5), the first to 100 wins."""

    key = Variant.SHESTERKA
    name_key = "variant.shesterka"
    rules_key = "rules.shesterka"
    ruleset = children.SHESTERKA
    choices = MappingProxyType({"target": (100, 50, 150)})


class Dark(Classic):
    """«Втемную» (section V, `domino.children`): each player's tiles are a face-down stack
    the bot turns up one a turn (`domino.actions.Flip`); the last three are turned up and
    played as in Блиц; the one who goes out or makes the fish wins the round; scored as
    Классика otherwise, the first to 100 wins."""

    key = Variant.DARK
    name_key = "variant.dark"
    rules_key = "rules.dark"
    ruleset = children.DARK
    choices = MappingProxyType({"target": (100, 50, 150)})
    many_per_turn = True
    face_down = True

    def score_round(self, end: RoundEnd) -> RoundResult:
        """Классика's count, the fisherman winning a fish (`children.score_dark_round`)."""
        if end.eggs:
            raise DominoError("Втемную has no eggs (K-9 is Козёл's rule)")
        return children.score_dark_round(end)

    def next_leader(
        self, ruleset: Ruleset, outcome: RoundOutcome, hands: Sequence[Sequence[Tile]] | None
    ) -> int:
        """The round's winner: who went out, or the fisherman."""
        return outcome.seat


VARIANTS: tuple[GameVariant, ...] = register(
    Kozel(),
    Classic(),
    SeaKozel(),
    Osel(),
    Sport(),
    AllFives(),
    ThreesAndFives(),
    Bergen(),
    Dubli(),
    Blitz(),
    Cross(),
    Shesterka(),
    Dark(),
)
"""Every game, in the order they are listed; each registered under its key
(`find_variant`, `Ruleset.game`)."""
