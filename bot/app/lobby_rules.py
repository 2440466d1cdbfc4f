"""What a lobby offers: the games the bot plays, the table sizes a game is played by,
whether it fixes its pairs; and its join links' secret tokens."""

from __future__ import annotations

import re

from domino.errors import BadRuleset, UnknownVariant
from domino.rules import Ruleset
from domino.variants import VARIANTS, GameVariant, find_variant

PLAYABLE = tuple(game.key.value for game in VARIANTS)
"""The keys of the games the bot offers (`GameVariant.key`), in the lobby's order: every
game of `domino.variants.VARIANTS`, since the hand keyboards
offer every kind of move the engine has (a play, several doubles at once, closing an
end, draw, knock or pass, the end of a turn of several tiles)."""


def playable_games() -> tuple[GameVariant, ...]:
    """The games the bot offers, in the registry's order."""
    return tuple(game for game in VARIANTS if game.key.value in PLAYABLE)


def seat_choices(rules: Ruleset, seated: int = 0) -> tuple[int, ...]:
    """The table sizes a lobby offers (2 to 4) that the game is played by and that leave
    nobody already seated (`seated`) without a seat: Спортивное only 4 (S-1)."""
    return tuple(n for n in (2, 3, 4) if n in rules.hand_sizes and n >= seated)


def at_table(rules: Ruleset, players: int, was: int | None = None) -> Ruleset:
    """`rules` at a table of `players`: a target the group left at the game's default
    for the table it had (`was`; None: the game was just chosen, its target is the
    default) becomes the default at this one (`GameVariant.default_target`, B-1:
    Bergen's three play to 10, two and four to 15); a target the group chose stays."""
    game = rules.game
    if players not in rules.hand_sizes:
        return rules
    if was is not None and rules.target != game.default_target(was):
        return rules
    target = game.default_target(players)
    return rules if rules.target == target else rules.with_options(target=target)


def pairs_fixed(rules: Ruleset) -> bool:
    """Whether the game decides by itself if four play in pairs (Спортивное: always,
    S-1), so the lobby offers no choice: the ruleset with the other choice is no game."""
    try:
        rules.with_options(teams=not rules.teams)
    except BadRuleset:
        return True
    return False


def playable_game(key: str | None) -> GameVariant:
    """The playable game `key` names, else the first one (a group's stored default that
    the bot no longer offers opens the first game)."""
    games = playable_games()
    return next((game for game in games if game.key.value == key), games[0])


def game_of_key(key: str) -> GameVariant | None:
    """The game `key` names (`GameVariant.key`); None for a key no game has (forged, or
    of a game this version no longer has)."""
    try:
        return find_variant(key)
    except UnknownVariant:
        return None


START_JOIN = "j"  # a lobby's join link: "j" + the game's join token
JOIN_TOKEN_BYTES = 12  # secrets.token_urlsafe(12): 16 characters, 96 random bits
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16}")


def is_join_token(token: str) -> bool:
    """Whether `token` reads as a join token: 16 URL-safe characters, not all digits
    (those would be taken for an old numbered link)."""
    return bool(_TOKEN.fullmatch(token)) and not token.isdigit()
