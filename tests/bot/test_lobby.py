"""The lobby of every game by value: each game's own options and table sizes
(`GameVariant.choices`, the sizes its ruleset deals for), Спортивное's fixed four in
pairs (S-1), and `/domino` taking every game by key or name."""

from __future__ import annotations

import dataclasses

import pytest
from aiogram.types import InlineKeyboardMarkup

from bot.app.usecases.base import Refusal
from bot.app.usecases.lobby_options import RULE_OPTIONS, with_option
from bot.telegram import presenter
from bot.telegram.callbacks import LobbyCb, LobbyOption
from bot.telegram.presenter.lobby import game_named, pairs_fixed, seat_choices
from domino.rules import LayoutKind
from domino.variants import VARIANTS, GameVariant, find_variant
from i18n import Lang
from storage.records import GameRecord, GameStatus, SeatRecord

MASHA = SeatRecord(0, 1, "Маша")
OLEG = SeatRecord(1, 2, "Олег")


def lobby(game: str, *seats: SeatRecord, wanted: int = 4) -> GameRecord:
    return GameRecord(
        id=7,
        chat_id=-100,
        status=GameStatus.LOBBY,
        creator_id=1,
        ruleset=find_variant(game).ruleset,
        seats_wanted=wanted,
        seats=seats,
    )


def options(markup: InlineKeyboardMarkup) -> list[LobbyOption | None]:
    """The options the lobby's buttons change, in order."""
    return [
        LobbyCb.unpack(b.callback_data).rule_option
        for row in markup.inline_keyboard
        for b in row
        if b.callback_data and b.callback_data.startswith("l1:") and ":o:" in b.callback_data
    ]


@pytest.mark.parametrize("game", VARIANTS, ids=lambda g: g.key.value)
def test_every_option_a_game_offers_has_a_lobby_button(game: GameVariant) -> None:
    assert set(game.choices) <= set(RULE_OPTIONS.values())
    shown = options(presenter.lobby_keyboard(lobby(game.key.value, MASHA), Lang.RU))
    assert {RULE_OPTIONS[o] for o in shown if o in RULE_OPTIONS} == set(game.choices)
    assert shown[0] is LobbyOption.GAME


@pytest.mark.parametrize(
    ("game", "sizes"),
    [("kozel", (2, 3, 4)), ("classic", (2, 3, 4)), ("sea_kozel", (2, 4)), ("sport", (4,))],
)
def test_the_table_sizes_follow_the_game(game: str, sizes: tuple[int, ...]) -> None:
    assert seat_choices(find_variant(game).ruleset) == sizes


def test_sport_is_four_in_fixed_pairs_with_no_button_to_change_them() -> None:
    game = lobby("sport", MASHA, OLEG)
    assert pairs_fixed(game.ruleset) and game.ruleset.teams
    shown = options(presenter.lobby_keyboard(game, Lang.RU))
    assert shown == [LobbyOption.GAME, LobbyOption.TARGET]
    text = presenter.lobby_text(game, Lang.RU)
    assert "Домино: Спортивное" in text and "Игроков: 4 · игра до 200" in text
    assert "Пары: 2×2, партнёры напротив" in text
    # A forged press of a button the lobby does not show changes nothing.
    for option in (LobbyOption.SEATS, LobbyOption.TEAMS, LobbyOption.FISH):
        with pytest.raises(Refusal):
            with_option(game, option)
    assert with_option(game, LobbyOption.TARGET).ruleset.target == 100


def test_switching_to_sport_seats_four_in_pairs_and_away_takes_the_new_games_pairs() -> None:
    two = dataclasses.replace(lobby("classic", MASHA), seats_wanted=2)
    assert find_variant("classic").ruleset.teams is False
    sea = with_option(two, LobbyOption.GAME)
    assert (sea.ruleset.variant.value, sea.seats_wanted, sea.ruleset.teams) == (
        "sea_kozel",
        2,
        False,
    )
    osel = with_option(sea, LobbyOption.GAME)
    sport = with_option(osel, LobbyOption.GAME)
    assert (sport.ruleset.variant.value, sport.seats_wanted, sport.ruleset.teams) == (
        "sport",
        4,
        True,
    )
    # Out of Спортивное's fixed pairs: the next games' own defaults, no pairs.
    all_fives = with_option(sport, LobbyOption.GAME)
    assert (all_fives.ruleset.variant.value, all_fives.seats_wanted) == ("all_fives", 4)
    assert not all_fives.ruleset.teams and not pairs_fixed(all_fives.ruleset)
    threes = with_option(all_fives, LobbyOption.GAME)
    assert (threes.ruleset.variant.value, threes.ruleset.teams) == ("threes_and_fives", False)
    bergen = with_option(threes, LobbyOption.GAME)
    dubli = with_option(bergen, LobbyOption.GAME)
    assert (bergen.ruleset.variant.value, dubli.ruleset.variant.value) == ("bergen", "dubli")
    blitz = with_option(dubli, LobbyOption.GAME)
    cross = with_option(blitz, LobbyOption.GAME)
    assert (blitz.ruleset.variant.value, cross.ruleset.variant.value) == ("blitz", "cross")
    assert not cross.ruleset.teams and cross.seats_wanted == 4
    shesterka = with_option(cross, LobbyOption.GAME)
    assert shesterka.ruleset.variant.value == "shesterka"
    dark = with_option(shesterka, LobbyOption.GAME)
    assert (dark.ruleset.variant.value, dark.seats_wanted, dark.ruleset.teams) == (
        "dark",
        4,
        False,
    )
    kozel = with_option(dark, LobbyOption.GAME)
    assert (kozel.ruleset.variant.value, kozel.seats_wanted, kozel.ruleset.teams) == (
        "kozel",
        4,
        False,
    )
    assert not pairs_fixed(kozel.ruleset)
    assert with_option(kozel, LobbyOption.TEAMS).ruleset.teams


def test_a_game_switch_starts_from_the_new_games_own_defaults_all_the_way_round() -> None:
    """Every option, pairs included, is the new game's default after each «🎲 Игра» press,
    whatever was chosen in the game before; only the table size carries over."""
    game = lobby("kozel", MASHA)
    game = with_option(game, LobbyOption.TEAMS)  # Козёл in pairs, and a changed target
    game = with_option(game, LobbyOption.TARGET)
    assert game.ruleset.teams
    seen = []
    for _ in range(2 * len(VARIANTS)):
        game = with_option(game, LobbyOption.GAME)
        default = find_variant(game.ruleset.variant.value).ruleset
        assert game.ruleset == default
        assert game.seats_wanted == 4
        seen.append(game.ruleset.variant.value)
        text = presenter.lobby_text(game, Lang.RU)
        pairs = "Пары: 2×2" in text
        assert pairs is default.teams, (game.ruleset.variant.value, text)
    assert seen[: len(VARIANTS)] == [g.key.value for g in VARIANTS[1:]] + ["kozel"]
    assert seen[len(VARIANTS) - 1] == "kozel" and not game.ruleset.teams


def test_a_game_played_in_pairs_opens_without_them_at_a_smaller_table() -> None:
    three = lobby("classic", MASHA, wanted=3)
    sea = with_option(three, LobbyOption.GAME)
    assert (sea.ruleset.variant.value, sea.seats_wanted, sea.ruleset.teams) == (
        "sea_kozel",
        4,
        True,
    )
    two = with_option(lobby("classic", MASHA, wanted=2), LobbyOption.GAME)
    assert (two.seats_wanted, two.ruleset.teams) == (2, False)


def test_sea_kozel_skips_three_seats() -> None:
    game = with_option(lobby("sea_kozel", MASHA, wanted=2), LobbyOption.SEATS)
    assert game.seats_wanted == 4
    assert with_option(game, LobbyOption.SEATS).seats_wanted == 2
    # Three people seated: the lobby keeps a seat for each of them.
    three = lobby("classic", MASHA, OLEG, SeatRecord(2, None, "🤖"), wanted=3)
    assert with_option(three, LobbyOption.GAME).seats_wanted == 4


def test_osel_offers_kozels_scoring_options_with_its_own_defaults() -> None:
    game = lobby("osel", MASHA, wanted=2)
    text = presenter.lobby_text(game, Lang.RU)
    assert "Домино: Осёл" in text and "игра до 125" in text and "открыть счёт: 13" in text
    shown = options(presenter.lobby_keyboard(game, Lang.RU))
    assert shown == [
        LobbyOption.GAME,
        LobbyOption.SEATS,
        LobbyOption.TARGET,
        LobbyOption.FISH,
        LobbyOption.THRESHOLD,
    ]
    assert with_option(game, LobbyOption.THRESHOLD).ruleset.open_threshold == 0


def button_texts(markup: InlineKeyboardMarkup) -> list[str]:
    return [b.text for row in markup.inline_keyboard for b in row]


@pytest.mark.parametrize("key", ["all_fives", "threes_and_fives"])
def test_all_fives_offers_straight_a_spinner_only_of_an_opening_double(key: str) -> None:
    """F-2's option: the «🌀 Спиннер» button switches between the first double played
    anywhere (the default, `FIRST_DOUBLE`) and only an opening double (`SPINNER`), and
    the lobby's text says so while Straight is on."""
    game = lobby(key, MASHA, wanted=2)
    assert game.ruleset.layout is LayoutKind.FIRST_DOUBLE
    markup = presenter.lobby_keyboard(game, Lang.RU)
    assert options(markup) == [
        LobbyOption.GAME,
        LobbyOption.SEATS,
        LobbyOption.TARGET,
        LobbyOption.SPINNER,
    ]
    assert "🌀 Спиннер: первый дубль" in button_texts(markup)
    assert "🌀 Спиннер" not in presenter.lobby_text(game, Lang.RU)
    straight = with_option(game, LobbyOption.SPINNER)
    assert straight.ruleset.layout is LayoutKind.SPINNER
    assert straight.ruleset == game.ruleset.with_options(layout=LayoutKind.SPINNER)
    assert "🌀 Спиннер: только дубль первым ходом" in button_texts(
        presenter.lobby_keyboard(straight, Lang.RU)
    )
    assert "🌀 Spinner: opening double only" in button_texts(
        presenter.lobby_keyboard(straight, Lang.EN)
    )
    text = presenter.lobby_text(straight, Lang.RU)
    assert "🌀 Спиннер — только дубль, которым открыт раунд" in text
    assert "🌀 Spinner: only a double that opens the round" in presenter.lobby_text(
        straight, Lang.EN
    )
    # A second press goes back to the default; the other options stay as they were.
    targeted = with_option(straight, LobbyOption.TARGET)
    assert targeted.ruleset.layout is LayoutKind.SPINNER
    assert with_option(targeted, LobbyOption.SPINNER).ruleset.layout is LayoutKind.FIRST_DOUBLE


def test_a_game_switch_takes_straight_back_to_the_next_games_spinner() -> None:
    """Straight chosen in Пятёрки: «🎲 Игра» opens Тройки и пятёрки with its own default
    (the first double spins), and Осёл keeps its own spinner with no button for it."""
    straight = with_option(lobby("all_fives", MASHA), LobbyOption.SPINNER)
    threes = with_option(straight, LobbyOption.GAME)
    assert threes.ruleset == find_variant("threes_and_fives").ruleset
    assert threes.ruleset.layout is LayoutKind.FIRST_DOUBLE
    osel = lobby("osel", MASHA)
    assert osel.ruleset.layout is LayoutKind.SPINNER
    assert LobbyOption.SPINNER not in options(presenter.lobby_keyboard(osel, Lang.RU))
    assert "🌀" not in presenter.lobby_text(osel, Lang.RU)
    # A forged press in a game without the choice changes nothing.
    for key in ("kozel", "osel", "bergen"):
        with pytest.raises(Refusal):
            with_option(lobby(key, MASHA), LobbyOption.SPINNER)


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("osel", "osel"),
        ("Осёл", "osel"),
        ("ОСЕЛ", "osel"),
        ("sport", "sport"),
        ("Спортивное", "sport"),
        ("спортивное", "sport"),
        ("sea_kozel", "sea_kozel"),
        ("Морской козёл", "sea_kozel"),
        ("морской   козел", "sea_kozel"),
    ],
)
def test_domino_takes_the_new_games_by_key_or_name(name: str, key: str) -> None:
    game = game_named(name)
    assert game is not None and game.key.value == key
