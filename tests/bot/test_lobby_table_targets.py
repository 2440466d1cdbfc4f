"""A game's default target at each table size (`GameVariant.default_target`): Bergen's
three play to 10, two and four to 15 (B-1, seeds/000 «при двух игроках игра
продолжается до 15 очков, при трех до 10»); a target the group chose stays."""

from __future__ import annotations

from bot.app.lobby_rules import at_table
from bot.app.usecases.lobby_options import with_option
from bot.telegram.callbacks import LobbyOption
from domino.match import Match
from domino.variants import find_variant
from storage.records import GameRecord, GameStatus, SeatRecord

MASHA = SeatRecord(0, 1, "Маша")


def lobby(game: str, wanted: int) -> GameRecord:
    return GameRecord(
        id=7,
        chat_id=-100,
        status=GameStatus.LOBBY,
        creator_id=1,
        ruleset=find_variant(game).ruleset,
        seats_wanted=wanted,
        seats=(MASHA,),
    )


def test_bergen_for_three_is_to_10_and_for_two_or_four_to_15() -> None:
    bergen = find_variant("bergen")
    assert [bergen.default_target(n) for n in (2, 3, 4)] == [15, 10, 15]
    assert [find_variant("dubli").default_target(n) for n in (2, 3, 4)] == [10, 10, 10]
    four = lobby("bergen", 4)
    two = with_option(four, LobbyOption.SEATS)
    three = with_option(two, LobbyOption.SEATS)
    assert (two.seats_wanted, two.ruleset.target) == (2, 15)
    assert (three.seats_wanted, three.ruleset.target) == (3, 10)
    assert with_option(three, LobbyOption.SEATS).ruleset.target == 15  # back to four


def test_a_target_the_group_chose_stays_when_the_table_changes() -> None:
    three = with_option(with_option(lobby("bergen", 4), LobbyOption.SEATS), LobbyOption.SEATS)
    chosen = with_option(three, LobbyOption.TARGET)
    assert chosen.ruleset.target == 15
    four = with_option(chosen, LobbyOption.SEATS)
    assert four.ruleset.target == 15
    ten_at_two = with_option(lobby("bergen", 2), LobbyOption.TARGET)
    assert ten_at_two.ruleset.target == 10
    assert with_option(ten_at_two, LobbyOption.SEATS).ruleset.target == 10


def test_bergen_chosen_at_a_table_of_three_is_to_10() -> None:
    bergen = find_variant("bergen").ruleset
    assert at_table(bergen, 3).target == 10 and at_table(bergen, 2).target == 15
    chosen = with_option(lobby("threes_and_fives", 3), LobbyOption.GAME)
    assert chosen.ruleset.variant.value == "bergen"
    assert (chosen.seats_wanted, chosen.ruleset.target) == (3, 10)
    dubli = with_option(chosen, LobbyOption.GAME)
    assert (dubli.ruleset.variant.value, dubli.ruleset.target) == ("dubli", 10)


def test_reaching_10_at_three_is_worth_what_15_is_at_two() -> None:
    bergen = find_variant("bergen")
    assert bergen.rating_gains((10, 4, 6)) == (10, 4, 6)
    assert bergen.rating_gains((15, 6)) == (10, 4)
    match = Match.new(at_table(bergen.ruleset, 3), 3, seed=1)
    assert match.ruleset.target == 10
