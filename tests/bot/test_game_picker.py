"""The lobby's list of games: «🎲 Игра: Козёл» opens it in place of the lobby's buttons,
one press picks a game with its own default options; only the creator or a chat admin
may open it or pick; a forged or stale pick changes nothing. And the lobby's table
sizes in order, and a full table asking nobody to sit down."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiogram.types import InlineKeyboardMarkup
from pydantic import ValidationError

from bot.app.people import Person
from bot.app.usecases.base import Refusal
from bot.app.usecases.lobby_changes import with_game
from bot.app.usecases.lobby_options import with_option
from bot.telegram import presenter
from bot.telegram.callbacks import LobbyAction, LobbyCb, LobbyOption, lobby_intent
from bot.telegram.presenter.lobby import games_keyboard, playable_games
from domino.rules import KOZEL
from domino.variants import find_variant
from i18n import Lang, t
from storage.connect import open_database
from storage.db import Database
from storage.records import ChatRecord, GameRecord, GameStatus, SeatRecord
from tests.bot.app_setup import ALICE, CHAT, FakeTime, Setup, make, no_admin
from tests.bot.app_setup import seed_where_seat_0_opens as seed

BOB = Person(502, "Боб", language_code="ru")
OTHER_CHAT = ChatRecord(-100888, "supergroup", "Чужая группа")
MASHA = SeatRecord(0, 1, "Маша")
OLEG = SeatRecord(1, 2, "Олег")
COMPUTER = SeatRecord(2, None, "🤖 Компьютер 1")


def lobby(*seats: SeatRecord, wanted: int = 4, **rules: object) -> GameRecord:
    return GameRecord(
        id=7,
        chat_id=-100,
        status=GameStatus.LOBBY,
        creator_id=1,
        ruleset=dataclasses.replace(KOZEL, **rules),  # type: ignore[arg-type]
        seats_wanted=wanted,
        seats=seats,
    )


def buttons(markup: InlineKeyboardMarkup) -> list[list[tuple[str, str]]]:
    return [[(b.text, b.callback_data or "") for b in row] for row in markup.inline_keyboard]


# --- the list, by value ------------------------------------------------------------------


def test_the_list_has_every_game_two_a_row_the_lobbys_own_marked_and_a_way_back() -> None:
    rows = buttons(games_keyboard(lobby(MASHA), Lang.RU))
    assert rows[:2] == [
        [("✅ Козёл", "l1:7:p:kozel"), ("Классика", "l1:7:p:classic")],
        [("Морской козёл", "l1:7:p:sea_kozel"), ("Осёл", "l1:7:p:osel")],
    ]
    games = [button for row in rows[:-1] for button in row]
    assert [text.removeprefix("✅ ") for text, _ in games] == [
        t(game.name_key, Lang.RU) for game in playable_games()
    ]
    assert all(len(row) <= 2 for row in rows)
    assert rows[-1] == [("↩️ Назад", "l1:7:b:-")]
    # The longest key in a game of the largest id still fits Telegram's 64 bytes.
    longest = max((game.key.value for game in playable_games()), key=len)
    assert len(LobbyCb(game=2**63 - 1, action=LobbyAction.PICK, option=longest).pack()) <= 64


def test_the_list_marks_the_game_the_lobby_plays_in_the_groups_language() -> None:
    game = dataclasses.replace(lobby(MASHA), ruleset=find_variant("osel").ruleset)
    marked = [b for row in buttons(games_keyboard(game, Lang.EN)) for b in row if "✅" in b[0]]
    assert marked == [("✅ " + t("variant.osel", Lang.EN), "l1:7:p:osel")]
    assert buttons(games_keyboard(game, Lang.EN))[-1] == [("↩️ Back", "l1:7:b:-")]


def test_the_game_button_opens_the_list_and_asks_no_use_case_by_itself() -> None:
    """The game's button, a pick and «↩️ Назад» are the handler's (it draws the list):
    `lobby_intent` maps none of them to a change."""
    for press in (
        LobbyCb(game=7, action=LobbyAction.OPTION, option=LobbyOption.GAME),
        LobbyCb(game=7, action=LobbyAction.PICK, option="classic"),
        LobbyCb(game=7, action=LobbyAction.BACK),
    ):
        assert lobby_intent(None, press, -100, BOB, no_admin) is None  # type: ignore[arg-type]
    assert LobbyCb(game=7, action=LobbyAction.OPTION, option=LobbyOption.GAME).opens_games
    assert not LobbyCb(game=7, action=LobbyAction.OPTION, option=LobbyOption.SEATS).opens_games


@pytest.mark.parametrize("data", ["l1:7:p:Kozel", "l1:7:p:kozel!", "l1:7:p:" + "a" * 17])
def test_a_forged_pick_does_not_parse(data: str) -> None:
    with pytest.raises((ValueError, ValidationError)):
        LobbyCb.unpack(data)


def test_picking_a_game_gives_its_own_defaults_and_keeps_the_table() -> None:
    kozel = lobby(MASHA, OLEG, COMPUTER, teams=True, target=125, open_threshold=0)
    for game in playable_games():
        picked = with_game(kozel, game)
        assert picked.ruleset == game.ruleset  # pairs where the game has them, at four
        assert (picked.seats_wanted, picked.seats) == (4, kozel.seats)
    classic = with_game(lobby(MASHA, wanted=3), find_variant("classic"))
    assert classic.seats_wanted == 3 and not classic.ruleset.teams
    sea = with_game(lobby(MASHA, wanted=3), find_variant("sea_kozel"))
    assert sea.seats_wanted == 4  # Морской козёл is played by four only
    # Three seated in a game of four: Спортивное (four) keeps them all.
    sport = with_game(lobby(MASHA, OLEG, COMPUTER, wanted=4), find_variant("sport"))
    assert sport.seats_wanted == 4 and sport.ruleset.teams


@pytest.mark.parametrize(("seated", "wanted"), [(1, 2), (1, 3), (2, 4), (3, 3), (3, 4)])
def test_a_pick_gives_what_the_old_game_button_gave(seated: int, wanted: int) -> None:
    """Picking the game that cycling would have reached sets the same lobby: its own
    options, its target at the table (Берген's three play to 10), the table size."""
    games = playable_games()
    for before, after in zip(games, games[1:] + games[:1], strict=True):
        game = dataclasses.replace(
            lobby(*(MASHA, OLEG, COMPUTER)[:seated], wanted=wanted), ruleset=before.ruleset
        )
        try:
            cycled = with_option(game, LobbyOption.GAME)
        except Refusal:
            with pytest.raises(Refusal):
                with_game(game, after)
            continue
        assert with_game(game, after) == cycled, after.key


def test_the_table_size_goes_round_in_order_among_the_sizes_the_game_allows() -> None:
    game = lobby(MASHA, wanted=2)
    seen = [game.seats_wanted]
    for _ in range(3):
        game = with_option(game, LobbyOption.SEATS)
        seen.append(game.seats_wanted)
    assert seen == [2, 3, 4, 2]
    three_seated = lobby(MASHA, OLEG, COMPUTER, wanted=3)
    assert with_option(three_seated, LobbyOption.SEATS).seats_wanted == 4
    assert with_option(lobby(MASHA, OLEG, COMPUTER, wanted=4), LobbyOption.SEATS).seats_wanted == 3


def test_a_full_table_asks_nobody_to_sit_down() -> None:
    full = lobby(MASHA, OLEG, wanted=2)
    text = presenter.lobby_text(full, Lang.RU)
    assert "Нажмите" not in text and t("lobby.full", Lang.RU) in text
    assert "«▶️ Начать»" in t("lobby.full", Lang.RU)
    assert "Нажмите «🙋 Играю»" in presenter.lobby_text(lobby(MASHA, wanted=2), Lang.RU)


# --- the use cases, against a database file ------------------------------------------------


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "picker.sqlite3")
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
async def setup(db: Database) -> AsyncIterator[Setup]:
    made = make(db, FakeTime(), seed())
    await made.app.resume()
    try:
        yield made
    finally:
        await made.close()


async def opened(setup: Setup) -> GameRecord:
    for person in (ALICE, BOB):
        await setup.app.people.remember(person, can_message=True)
    assert await setup.run(setup.app.lobby.open(CHAT, ALICE)) is None
    return await setup.game()


async def admin(chat_id: int) -> bool:
    return chat_id == CHAT.id


async def test_only_the_creator_or_an_admin_opens_the_list_or_picks(setup: Setup) -> None:
    before = await opened(setup)
    lobby_ = setup.app.lobby
    assert await lobby_.game_choices(before.id, CHAT.id, ALICE, no_admin) == before
    with pytest.raises(Refusal) as refused:
        await lobby_.game_choices(before.id, CHAT.id, BOB, no_admin)
    assert refused.value.key == "alert.creator_or_admin_only"
    with pytest.raises(Refusal) as elsewhere:
        await lobby_.game_choices(before.id, OTHER_CHAT.id, ALICE, no_admin)
    assert elsewhere.value.key == "alert.foreign_game"
    answer = await setup.run(lobby_.pick_game(before.id, CHAT.id, BOB, "classic", no_admin))
    assert answer.alert and answer.key == "alert.creator_or_admin_only"
    assert await setup.game() == before

    await setup.run(lobby_.pick_game(before.id, CHAT.id, BOB, "classic", admin))
    picked = await setup.game()
    assert picked.ruleset == find_variant("classic").ruleset
    assert picked.seats == before.seats and picked.seats_wanted == before.seats_wanted


async def test_a_forged_or_stale_pick_changes_nothing(setup: Setup) -> None:
    before = await opened(setup)
    lobby_ = setup.app.lobby
    for key in ("nonesuch", "kozel_"):
        answer = await setup.run(lobby_.pick_game(before.id, CHAT.id, ALICE, key, no_admin))
        assert answer.alert and answer.key == "alert.stale", key
    answer = await setup.run(lobby_.pick_game(before.id, OTHER_CHAT.id, ALICE, "osel", admin))
    assert answer.alert and answer.key == "alert.foreign_game"
    assert await setup.game() == before

    await setup.run(lobby_.cancel(before.id, CHAT.id, ALICE, no_admin))
    closed = await setup.game()
    answer = await setup.run(lobby_.pick_game(before.id, CHAT.id, ALICE, "osel", no_admin))
    assert answer.alert and answer.key == "alert.lobby_closed"
    with pytest.raises(Refusal):
        await lobby_.game_choices(before.id, CHAT.id, ALICE, no_admin)
    assert await setup.game() == closed
