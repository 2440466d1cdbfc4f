"""Who may act on a game: the use cases' checks, against a fresh database file.

Each refusal is shown to change nothing: the stored game (its version above all) is the
same before and after. The timers' `FakeTime` stands in for the clock, so the lobby's
deadline passes without waiting for it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import people as people_module
from bot.app.people import ANONYMOUS_ADMIN_ID, People, Person
from bot.app.reply import Reply
from bot.app.usecases import ChatCheck
from bot.app.usecases.base import Refusal
from bot.infra.lru import Lru
from bot.telegram.callbacks import (
    LEVEL_ACTIONS,
    PICKER_ACTIONS,
    LobbyAction,
    LobbyCb,
    LobbyOption,
    lobby_intent,
    seat_field,
)
from bot.telegram.presenter.replies import reply_text
from domino.ai import Level
from i18n import Lang
from storage import repo
from storage.connect import open_database
from storage.db import Database
from storage.records import ChatRecord, ChatSettings, GameRecord, GameStatus
from tests.bot.app_setup import (
    ALICE,
    CHAT,
    FakeTime,
    Setup,
    eventually,
    make,
    no_admin,
    seed_where_seat_0_opens,
)

OTHER_CHAT = ChatRecord(-100888, "supergroup", "Чужая группа")
BOB = Person(502, "Боб", language_code="ru")
MALLORY = Person(666, "Mallory", language_code="en")
ANONYMOUS = Person(ANONYMOUS_ADMIN_ID, "Group", username="GroupAnonymousBot")


async def admin_everywhere(chat_id: int) -> bool:
    return True


def admin_of(*chat_ids: int) -> ChatCheck:
    async def check(chat_id: int) -> bool:
        return chat_id in chat_ids

    return check


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "access.sqlite3")
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
async def setup(db: Database) -> AsyncIterator[Setup]:
    made = make(db, FakeTime(), seed_where_seat_0_opens())
    await made.app.resume()
    try:
        yield made
    finally:
        await made.close()


async def lobby(setup: Setup, creator: Person = ALICE) -> GameRecord:
    for person in (ALICE, BOB, MALLORY):
        await setup.app.people.remember(person, can_message=True)
    assert await setup.run(setup.app.lobby.open(CHAT, creator)) is None
    return await setup.game()


async def press(
    setup: Setup, person: Person, action: LobbyAction, *, chat: int = CHAT.id, admin: bool = False
) -> Reply:
    """A lobby button pressed, as the handler maps it to the lobby's use case."""
    check = admin_everywhere if admin else no_admin
    option = seat_field(1) if action in LEVEL_ACTIONS else LobbyOption.SEATS
    data = LobbyCb(game=1, action=action, option=option)
    intent = lobby_intent(setup.app.lobby, data, chat, person, check)
    assert intent is not None, action
    return await setup.run(intent)


def said(reply: Reply, person: Person = ALICE) -> str:
    """The text a reply shows `person`."""
    return reply_text(reply, person.lang)


async def test_lobby_presses_from_another_chat_change_nothing(setup: Setup) -> None:
    before = await lobby(setup)
    # `removal_choices` below; the list of games in tests/bot/test_game_picker.py.
    for action in set(LobbyAction) - {LobbyAction.REMOVE, *PICKER_ACTIONS}:
        answer = await press(setup, MALLORY, action, chat=OTHER_CHAT.id, admin=True)
        assert answer.alert and "does not belong" in said(answer, MALLORY), (action, answer)
        answer = await press(setup, ALICE, action, chat=OTHER_CHAT.id)  # the creator, elsewhere
        assert answer.alert, (action, answer)
    assert await setup.game() == before


async def test_the_creator_or_an_admin_of_the_games_chat_controls_the_lobby(
    setup: Setup,
) -> None:
    before = await lobby(setup)
    refused = await press(setup, BOB, LobbyAction.OPTION)
    assert refused.alert and "админы чата" in said(refused)
    # An admin of another chat is no admin here.
    check = admin_of(OTHER_CHAT.id)
    answer = await setup.run(setup.app.lobby.cancel(1, CHAT.id, BOB, check))
    assert answer.alert
    assert await setup.game() == before
    changed = await press(setup, BOB, LobbyAction.OPTION, admin=True)
    assert not changed.alert
    assert (await setup.game()).seats_wanted != before.seats_wanted


async def test_an_anonymous_admin_gets_no_seat_and_admins_run_the_lobby(setup: Setup) -> None:
    game = await lobby(setup, creator=ANONYMOUS)
    assert game.seats == () and game.creator_id == ANONYMOUS_ADMIN_ID
    assert (await press(setup, BOB, LobbyAction.START)).alert
    assert not (await press(setup, BOB, LobbyAction.CANCEL, admin=True)).alert
    assert (await setup.game()).status is GameStatus.CANCELLED


async def test_removing_a_seat_is_checked_like_every_lobby_control(setup: Setup) -> None:
    await lobby(setup)
    await press(setup, BOB, LobbyAction.JOIN)
    before = await setup.game()
    assert [s.user_id for s in before.seats] == [ALICE.id, BOB.id]
    lobby_ = setup.app.lobby
    for chat, person, check in [
        (OTHER_CHAT.id, ALICE, no_admin),  # the creator, from another chat
        (CHAT.id, MALLORY, admin_of(OTHER_CHAT.id)),  # an admin elsewhere
        (CHAT.id, BOB, no_admin),  # a player
    ]:
        answer, removed = await setup.run(lobby_.remove(1, chat, person, 1, BOB.id, check))
        assert answer.alert and removed is None, (chat, person, answer)
    # The seat no longer holds the person named: nothing happens either.
    answer, removed = await setup.run(lobby_.remove(1, CHAT.id, ALICE, 0, BOB.id, no_admin))
    assert removed is None and "уже нет" in said(answer)
    assert await setup.game() == before

    answer, removed = await setup.run(
        lobby_.remove(1, CHAT.id, MALLORY, 1, BOB.id, admin_everywhere)
    )
    assert removed == "Боб" and not answer.alert
    assert [s.user_id for s in (await setup.game()).seats] == [ALICE.id]


async def test_the_list_of_people_to_remove_leaves_out_the_one_asking(setup: Setup) -> None:
    await lobby(setup)
    choices = setup.app.lobby.removal_choices
    with pytest.raises(Refusal) as alone:
        await choices(1, CHAT.id, ALICE, no_admin)
    assert "только вы" in reply_text(alone.value.reply, Lang.RU)
    with pytest.raises(Refusal):  # the list is asked for from another chat
        await choices(1, OTHER_CHAT.id, MALLORY, admin_everywhere)
    await press(setup, BOB, LobbyAction.JOIN)
    _, people = await choices(1, CHAT.id, ALICE, no_admin)
    assert [s.user_id for s in people] == [BOB.id]
    # An admin who does not play sees everyone seated.
    _, people = await choices(1, CHAT.id, MALLORY, admin_everywhere)
    assert [s.user_id for s in people] == [ALICE.id, BOB.id]


async def test_a_lobby_nobody_starts_closes_at_its_stored_deadline(setup: Setup) -> None:
    await setup.app.settings.change(CHAT, ChatSettings(lobby_timeout=5))
    game = await lobby(setup)
    assert game.lobby_deadline is not None
    assert game.lobby_deadline.timestamp() == pytest.approx(setup.time.now + 300)
    await setup.time.advance(299)
    assert (await setup.game()).status is GameStatus.LOBBY
    await setup.time.advance(2)
    await eventually(lambda: closed(setup))
    await setup.app.publisher.idle()
    closing = "⌛ Игру никто не начал за 5 мин, набор закрыт. Новая игра: /domino"
    assert setup.telegram.sent_to(CHAT.id).count(closing) == 1


async def test_no_deadline_when_the_group_set_none_and_none_once_started(setup: Setup) -> None:
    await setup.app.settings.change(CHAT, ChatSettings(lobby_timeout=0))
    assert (await lobby(setup)).lobby_deadline is None
    assert setup.app.timers.lobby_deadline(OTHER_CHAT.id) is not None  # 10 min by default


def test_settings_keep_the_lobby_timeout_and_refuse_unknown_values() -> None:
    for minutes in (0, 5, 10, 30):
        settings = ChatSettings(lobby_timeout=minutes)
        assert ChatSettings.from_dict(settings.to_dict()) == settings
    for junk in (7, "5", None, True, -1):
        assert ChatSettings.from_dict({"lobby_timeout": junk}).lobby_timeout == 10


async def test_a_long_name_is_shortened_in_the_seat_and_in_not_your_turn(setup: Setup) -> None:
    smiley = Person(503, "😀" * 128)
    await setup.app.people.remember(smiley, can_message=True)
    assert await setup.run(setup.app.lobby.open(CHAT, smiley)) is None
    seat = (await setup.game()).seats[0]
    assert seat.name == "😀" * 15 + "…"  # 32 columns as a phone draws them, 2 an emoji


def test_the_per_person_caches_are_bounded() -> None:
    cache: Lru[int, Lang] = Lru(3)
    for user_id in range(10):
        cache[user_id] = Lang.RU
        assert len(cache) <= 3
    assert 9 in cache and 6 not in cache
    cache.get(7)  # used: kept ahead of 8
    cache[10] = Lang.EN
    assert 7 in cache and 8 not in cache


async def test_the_bot_keeps_at_most_the_bound_of_languages_and_sightings(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(people_module, "LANG_CACHE_SIZE", 5)
    monkeypatch.setattr(people_module, "SEEN_CACHE_SIZE", 5)
    people = People(db)
    for user_id in range(1, 50):
        person = Person(user_id, f"P{user_id}")
        await people.remember(person)
        await people.seen(person)
    assert len(people) == 5
    assert await people.language_of(1) is Lang.RU  # forgotten, read back from the database


async def test_a_second_domino_points_to_the_lobby_or_the_running_game(setup: Setup) -> None:
    before = await lobby(setup)
    reply = await setup.run(setup.app.lobby.open(CHAT, BOB))
    assert reply is not None and "собирается игра" in said(reply) and "Играю" in said(reply)
    assert await setup.game() == before  # no second lobby, nothing changed
    lobby_ = setup.app.lobby
    await setup.run(lobby_.set_option(1, CHAT.id, ALICE, LobbyOption.SEATS, no_admin))  # 4 -> 2
    await setup.run(lobby_.add_computer(1, CHAT.id, ALICE, no_admin))
    await setup.run(lobby_.start_game(1, CHAT.id, ALICE, no_admin))
    assert (await setup.game()).status is GameStatus.PLAYING
    reply = await setup.run(setup.app.lobby.open(CHAT, BOB))
    assert reply is not None and "уже идёт игра" in said(reply)


async def closed(setup: Setup) -> bool:
    return (await setup.game()).status is GameStatus.CANCELLED


async def test_a_lobby_opens_the_named_game_else_the_groups_default_and_rules_follow_it(
    setup: Setup,
) -> None:
    """`/domino classic` opens Классика; a plain /domino the group's default."""
    assert (await setup.app.lobby.rules_for(CHAT.id, ALICE.id)).variant.value == "kozel"
    await setup.app.settings.change(CHAT, ChatSettings(default_game="classic"))
    assert (await setup.app.lobby.rules_for(CHAT.id, ALICE.id)).variant.value == "classic"
    game = await lobby(setup)
    assert game.ruleset.variant.value == "classic" and game.ruleset.target == 100
    assert (await setup.app.lobby.rules_for(None, ALICE.id)).variant.value == "classic"
    assert (await setup.app.lobby.rules_for(None, BOB.id)).variant.value == "kozel"

    lobby_ = setup.app.lobby
    refused = await setup.run(lobby_.set_option(game.id, CHAT.id, BOB, LobbyOption.GAME, no_admin))
    assert refused.alert and (await setup.game()).version == game.version
    await setup.run(lobby_.set_option(game.id, CHAT.id, ALICE, LobbyOption.GAME, no_admin))
    switched = await setup.game()  # the next game in the registry, with its own defaults
    assert switched.ruleset.variant.value == "sea_kozel" and switched.ruleset.target == 125
    assert (await setup.app.lobby.rules_for(CHAT.id, BOB.id)).variant.value == "sea_kozel"


async def test_starting_with_too_few_points_to_the_seats_button_where_fewer_would_do(
    setup: Setup,
) -> None:
    """Two people in a lobby for four: the refusal names the 👥 button (play as two)."""
    game = await lobby(setup)
    assert len(game.seats) == 1 and game.seats_wanted == 4
    await setup.run(setup.app.lobby.join(1, CHAT.id, BOB))
    refused = await press(setup, ALICE, LobbyAction.START)
    assert refused.alert and "сыграйте вдвоём" in said(refused) and "👥" in said(refused)
    assert (await setup.game()).status is GameStatus.LOBBY


async def test_play_again_opens_a_lobby_like_the_ended_match_and_only_in_its_chat(
    setup: Setup,
) -> None:
    """«🔁 Ещё партию» under a match's last word: the same game, options and table size,
    the presser seated and the computers back at their levels; refused (changing nothing)
    for a match still on, a game of another chat, or while a lobby is open."""
    await lobby(setup)
    lobby_ = setup.app.lobby
    await setup.run(lobby_.set_option(1, CHAT.id, ALICE, LobbyOption.SEATS, no_admin))  # 4 -> 2
    await setup.run(lobby_.set_option(1, CHAT.id, ALICE, LobbyOption.TARGET, no_admin))  # -> 125
    await setup.run(lobby_.add_computer(1, CHAT.id, ALICE, no_admin))
    await setup.run(lobby_.start_game(1, CHAT.id, ALICE, no_admin))
    playing = await setup.game()
    assert playing.status is GameStatus.PLAYING and playing.ruleset.target == 125

    still_on = await setup.run(setup.app.lobby.rematch(CHAT, BOB, 1))
    assert still_on.alert and "устарела" in said(still_on, BOB)
    async with setup.db.transaction() as tx:
        computer = dataclasses.replace(playing.seats[1], level=Level.HARD)
        ended = await repo.save_game(
            tx,
            dataclasses.replace(
                playing, status=GameStatus.FINISHED, seats=(playing.seats[0], computer)
            ),
        )
    elsewhere = await setup.run(setup.app.lobby.rematch(OTHER_CHAT, MALLORY, 1))
    assert elsewhere.alert and "out of date" in said(elsewhere, MALLORY)
    assert await repo.active_game_in_chat(setup.db, OTHER_CHAT.id) is None

    opened = await setup.run(setup.app.lobby.rematch(CHAT, BOB, 1))
    assert not opened.alert and "Новая партия" in said(opened, BOB)
    again = await setup.game(2)
    assert again.status is GameStatus.LOBBY and again.creator_id == BOB.id
    assert again.ruleset == ended.ruleset and again.seats_wanted == 2
    assert [(s.user_id, s.name, s.level) for s in again.seats] == [
        (BOB.id, "Боб", Level.MEDIUM),
        (None, "🤖 Компьютер 1", Level.HARD),
    ]
    twice = await setup.run(setup.app.lobby.rematch(CHAT, ALICE, 1))
    assert twice.alert and "собирается игра" in said(twice)
    assert await setup.game(2) == again
