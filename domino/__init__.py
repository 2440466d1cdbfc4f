"""The domino engine: tiles, rulesets, rounds, matches, scoring and computer players.

Standard library only; it knows nothing of Telegram. Start with `Match.new(KOZEL, 4)`,
read `match.view(seat)`, and `match.apply(action, seat)`; the games are `VARIANTS`
(`find_variant("kozel")`, `ruleset.game`).
"""

from domino.actions import (
    DRAW,
    END_TURN,
    KNOCK,
    Action,
    Close,
    Closed,
    Draw,
    Drew,
    Ended,
    EndTurn,
    Event,
    Knock,
    Knocked,
    Play,
    PlayDoubles,
    Played,
    parse_action,
)
from domino.deal import Deal
from domino.errors import (
    BadRuleset,
    BadState,
    DominoError,
    IllegalMove,
    MatchOver,
    NotYourTurn,
    RoundOver,
    StaleAction,
    UnknownVariant,
)
from domino.geometry import End, Placement
from domino.match import LoggedAction, Match
from domino.players import GreedyPlayer, Player, RandomPlayer
from domino.rating import classic_rating_gains, rating_gains, timeout_rating_gains
from domino.round import Round
from domino.rules import (
    CLASSIC,
    KOZEL,
    FishMode,
    LayoutKind,
    Opening,
    Ruleset,
    Scoring,
    Variant,
)
from domino.scoring import score_round
from domino.tiles import ALL_TILES, BadTile, Tile, tile
from domino.variants import VARIANTS, Classic, GameVariant, Kozel, Osel, Sport, find_variant
from domino.views import (
    Account,
    LayoutView,
    MatchView,
    OutcomeKind,
    RoundOutcome,
    RoundResult,
    RoundView,
)

__all__ = [
    "ALL_TILES",
    "CLASSIC",
    "DRAW",
    "END_TURN",
    "KNOCK",
    "KOZEL",
    "VARIANTS",
    "Account",
    "Action",
    "BadRuleset",
    "BadState",
    "BadTile",
    "Classic",
    "Close",
    "Closed",
    "Deal",
    "DominoError",
    "Draw",
    "Drew",
    "End",
    "EndTurn",
    "Ended",
    "Event",
    "FishMode",
    "GameVariant",
    "GreedyPlayer",
    "IllegalMove",
    "Knock",
    "Knocked",
    "Kozel",
    "LayoutKind",
    "LayoutView",
    "LoggedAction",
    "Match",
    "MatchOver",
    "MatchView",
    "NotYourTurn",
    "Opening",
    "Osel",
    "OutcomeKind",
    "Placement",
    "Play",
    "PlayDoubles",
    "Played",
    "Player",
    "RandomPlayer",
    "Round",
    "RoundOutcome",
    "RoundOver",
    "RoundResult",
    "RoundView",
    "Ruleset",
    "Scoring",
    "Sport",
    "StaleAction",
    "Tile",
    "UnknownVariant",
    "Variant",
    "classic_rating_gains",
    "find_variant",
    "parse_action",
    "rating_gains",
    "score_round",
    "tile",
    "timeout_rating_gains",
]
