"""The changes a lobby's creator (or a chat admin) may make to it, and the rules of each:
seating, the computers' levels, cycling the game and its options, and starting the
match.

The values of `LobbyOption` are short codes that stay stable, so a front end may carry
them as they are (Telegram's lobby buttons do)."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from enum import StrEnum
from typing import TypeVar

from bot.app.lobby_rules import at_table, pairs_fixed, playable_games, seat_choices
from bot.app.names import short_name
from bot.app.people import Person
from bot.app.usecases.base import Refusal
from domino.ai import Level
from domino.match import Match
from domino.rules import Ruleset
from storage.records import GameRecord, GameStatus, SeatRecord


class LobbyOption(StrEnum):
    """A rule option of a lobby the group may change: the game, the table size, pairs,
    the target ... (the letters are what the lobby's buttons carry)."""

    GAME = "v"  # the game (`bot.app.lobby_rules.PLAYABLE`), with its default options
    SEATS = "n"  # players 2-4
    TEAMS = "t"  # 2x2 when four
    TARGET = "g"  # 101 / 125
    FISH = "f"  # K-9 fish mode
    THRESHOLD = "h"  # K-7 open threshold
    SPINNER = "s"  # F-2: the first double played spins, or only an opening double (Straight)


RULE_OPTIONS = {
    LobbyOption.TARGET: "target",
    LobbyOption.FISH: "fish",
    LobbyOption.THRESHOLD: "open_threshold",
    LobbyOption.SPINNER: "layout",
}
"""The lobby's buttons that cycle a `Ruleset` option through the game's `choices`."""


def seated_at(game: GameRecord, person: Person) -> GameRecord:
    """The lobby with `person` seated, refused when it is full.

    Choice (C-2 fixes no order): seats follow the order of joining. The creator sits
    first (`Lobby.open`), every person or computer who joins takes the next seat at the
    end of the table (`GameRecord.with_seat`), and someone leaving or removed moves the
    later seats up. In team play seats 0+2 then play against 1+3
    (`domino.scoring.sides_for`)."""
    if len(game.seats) >= game.seats_wanted:
        raise Refusal("alert.table_full")
    return game.with_seat(person.id, short_name(person.name))


def computer_seat(game: GameRecord, number: int) -> SeatRecord:
    """The computer in seat `number`; refused politely when the request is older than the
    seats (someone left, the computer was removed) or forged: the seat is not there, or a
    person sits in it."""
    seat = next((s for s in game.seats if s.seat == number), None)
    if seat is None or not seat.is_computer:
        raise Refusal("alert.not_a_computer", alert=False)
    return seat


T = TypeVar("T")


def _cycle(options: tuple[T, ...], current: T) -> T:
    index = options.index(current) if current in options else -1
    return options[(index + 1) % len(options)]


def with_option(game: GameRecord, option: LobbyOption) -> GameRecord:
    """The creator cycles the game (`PLAYABLE`: every option goes back to the new game's
    own defaults, `GameVariant.ruleset`, pairs included; only the table size stays where
    the new game allows it) or one rule option (K-1 teams, K-7 threshold, K-9 fish, K-10
    target, F-2's spinner); the game says which options it offers and their values
    (`GameVariant.choices`), the table sizes it is played by (`seat_choices`), its
    default target at each (`at_table`: Bergen's three play to 10, B-1) and whether it
    fixes the pairs (`pairs_fixed`: Спортивное, S-1).

    Choice: switching games keeps the table size when the new game is played by it,
    else takes the next larger size it is played by (else its largest), so nobody
    seated loses a seat. A game played in pairs by default (Морской козёл, Спортивное)
    opens with pairs at a table of four; at a smaller table nobody plays in pairs."""
    rules: Ruleset = game.ruleset
    wanted = game.seats_wanted
    if option is LobbyOption.GAME:
        games = {g.key: g for g in playable_games()}
        chosen = games[_cycle(tuple(games), rules.variant)].ruleset
        choices = seat_choices(chosen, len(game.seats))
        if not choices:
            raise Refusal("alert.table_full")
        if wanted not in choices:
            wanted = next((n for n in choices if n > wanted), choices[-1])
        if chosen.teams and wanted != 4 and not pairs_fixed(chosen):
            chosen = chosen.with_options(teams=False)
        rules = at_table(chosen, wanted)
    elif option is LobbyOption.SEATS:
        if len(seat_choices(rules)) < 2:
            raise Refusal("alert.option_fixed")
        was, wanted = wanted, _cycle(seat_choices(rules, len(game.seats)), wanted)
        if wanted != 4 and rules.teams:
            rules = rules.with_options(teams=False)
        rules = at_table(rules, wanted, was)
    elif option is LobbyOption.TEAMS:
        if pairs_fixed(rules):
            raise Refusal("alert.option_fixed")
        if wanted != 4:
            raise Refusal("alert.teams_need_four")
        rules = rules.with_options(teams=not rules.teams)
    elif option in RULE_OPTIONS and rules.game.offers(name := RULE_OPTIONS[option]):
        chosen = _cycle(rules.game.choices[name], getattr(rules, name))
        rules = rules.with_options(**{name: chosen})
    else:
        raise Refusal("alert.stale")
    return dataclasses.replace(game, ruleset=rules, seats_wanted=wanted)


def with_level(game: GameRecord, number: int, level: Level) -> GameRecord | None:
    """The lobby with the computer in seat `number` playing at `level`; None when it
    already does (pressed twice, or by two people: nothing to change)."""
    seat = computer_seat(game, number)
    return None if seat.level is level else game.with_level(seat.seat, level)


def started(game: GameRecord, seed: int, now: datetime) -> GameRecord:
    """The lobby's match dealt, refused while seats are empty. Pairs need a table of
    four: at a smaller one nobody plays in pairs."""
    if len(game.seats) < game.seats_wanted:
        # Fewer seats would do where the game is played by as many as sit (👥).
        fewer = len(game.seats) in seat_choices(game.ruleset)
        raise Refusal(
            "alert.not_enough_players_fewer" if fewer else "alert.not_enough_players",
            have=len(game.seats),
            wanted=game.seats_wanted,
        )
    rules = game.ruleset
    if rules.teams and len(game.seats) != 4:
        rules = rules.with_options(teams=False)
    match = Match.new(rules, len(game.seats), seed=seed)
    return dataclasses.replace(
        game, status=GameStatus.PLAYING, ruleset=rules, match=match, started_at=now
    )
