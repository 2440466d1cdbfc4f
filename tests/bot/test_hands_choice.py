"""Where hands are shown, as people and groups choose it: the private /settings (a
person's own choice), the group's /settings (its default), joining a lobby without the
private chat where the group shows hands in the group, and the group's notice when a
private hand cannot be delivered (bot/app/usecases/lobby*.py, chats.py,
bot/telegram/presenter/settings.py and lobby.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app.people import ANONYMOUS_ADMIN_ID, Person
from bot.app.usecases.lobby_options import LobbyOption
from bot.telegram.callbacks import HandsCb, SettingsSection
from bot.telegram.presenter.replies import reply_text
from bot.telegram.presenter.settings import (
    hands_choice,
    private_settings_keyboard,
    private_settings_text,
    section_keyboard,
    section_text,
    settings_text,
)
from i18n import Lang, t
from storage import repo
from storage.connect import open_database
from storage.records import ChatSettings, GameStatus, HandsPlace
from tests.bot.app_setup import (
    ALICE,
    CHAT,
    FakeTime,
    Setup,
    make,
    no_admin,
    seed_where_seat_0_opens,
    settle,
)

BOB = Person(502, "Боб", language_code="ru")
ANONYMOUS = Person(ANONYMOUS_ADMIN_ID, "Group", username="GroupAnonymousBot")


@pytest.fixture
async def setup(tmp_path: Path) -> AsyncIterator[Setup]:
    db = await open_database(tmp_path / "hands.sqlite3")
    made = make(db, FakeTime(), seed_where_seat_0_opens())
    await made.app.resume()
    try:
        yield made
    finally:
        await made.close()
        await db.close()


async def group_shows_hands(setup: Setup, place: HandsPlace) -> None:
    """The group's admins chose `place` in /settings, as the handler stores it."""
    await setup.app.chats.change_settings(CHAT, ChatSettings(hands=place))


async def seated(setup: Setup) -> list[int | None]:
    return [seat.user_id for seat in (await setup.game()).seats]


# --- joining -------------------------------------------------------------------------


@pytest.mark.parametrize("place", [None, HandsPlace.GROUP, HandsPlace.BOTH])
async def test_where_hands_are_in_the_group_anyone_sits_down_without_the_private_chat(
    setup: Setup, place: HandsPlace | None
) -> None:
    if place is not None:  # None: the group chose nothing (both places)
        await group_shows_hands(setup, place)
    # Neither Алиса nor Боб ever pressed Start in the bot's chat.
    assert await setup.run(setup.app.lobby.open(CHAT, ALICE)) is None
    assert await seated(setup) == [ALICE.id]
    answer = await setup.run(setup.app.lobby.join(1, CHAT.id, BOB))
    assert answer.url is None and reply_text(answer, Lang.RU) == t("answer.joined", Lang.RU)
    assert await seated(setup) == [ALICE.id, BOB.id]
    bob = await repo.get_user(setup.db, BOB.id)
    assert bob is not None and not bob.can_message  # seated, still not written to


async def test_a_group_keeping_hands_in_private_sends_a_new_person_by_the_join_link(
    setup: Setup,
) -> None:
    await group_shows_hands(setup, HandsPlace.PRIVATE)
    assert await setup.run(setup.app.lobby.open(CHAT, ALICE)) is None
    assert await seated(setup) == []  # the bot may not write to her yet
    before = await setup.game()
    answer = await setup.run(setup.app.lobby.join(1, CHAT.id, BOB))
    assert answer.url == f"https://t.me/domino_test_bot?start=j{before.join_token}"
    assert await setup.game() == before  # nothing changed
    await setup.app.people.remember(BOB, can_message=True)  # Start in the bot's chat
    answer = await setup.run(setup.app.lobby.join(1, CHAT.id, BOB))
    assert answer.url is None and await seated(setup) == [BOB.id]


async def test_an_anonymous_admin_gets_no_seat_even_where_hands_are_in_the_group(
    setup: Setup,
) -> None:
    assert await setup.run(setup.app.lobby.open(CHAT, ANONYMOUS)) is None
    game = await setup.game()
    assert game.status is GameStatus.LOBBY and game.seats == ()
    assert (
        t("lobby.nobody_in_group", Lang.RU) == "За столом пока никого. Сесть — кнопка «🙋 Играю»."
    )


# --- the group's notice of a hand that cannot be delivered -----------------------------


@pytest.mark.parametrize(
    ("place", "key"),
    [
        (HandsPlace.BOTH, "notice.unreachable_hand_in_group"),
        (HandsPlace.GROUP, "notice.unreachable_hand_in_group"),
        (HandsPlace.PRIVATE, "notice.unreachable"),
    ],
)
async def test_the_group_is_told_where_the_hand_of_someone_unreachable_is(
    setup: Setup, place: HandsPlace, key: str
) -> None:
    await group_shows_hands(setup, place)
    for person in (ALICE, BOB):
        await setup.app.people.remember(person, can_message=True)
    lobby = setup.app.lobby
    await setup.run(lobby.open(CHAT, ALICE))
    await setup.run(lobby.join(1, CHAT.id, BOB))
    await setup.run(lobby.set_option(1, CHAT.id, ALICE, LobbyOption.SEATS, no_admin))  # 4 -> 2
    await setup.run(lobby.start_game(1, CHAT.id, ALICE, no_admin))
    # Telegram refused a call to Боб (he blocked the bot) begun after his latest Start.
    mark = setup.app.people.reachable_mark(BOB.id)
    await setup.run(setup.app.chats.person_unreachable(1, BOB.id, mark))
    told = t(key, Lang.RU, name="Боб", bot="domino_test_bot")
    for _ in range(3):
        await settle()
        await setup.app.publisher.idle()
        await setup.out.drain()
    assert setup.telegram.sent_to(CHAT.id).count(told) == 1
    if place.group:
        assert "«✋ Мои кости»" in told and "/start" in told
    bob = await repo.get_user(setup.db, BOB.id)
    assert bob is not None and not bob.can_message


# --- the settings' words and buttons ---------------------------------------------------


def test_the_private_settings_show_both_choices_and_offer_the_others() -> None:
    text = private_settings_text(True, None, Lang.RU)
    assert "Напоминания о ходе: <b>вкл</b>" in text
    assert "Ваши кости: <b>как в группе (решают её админы)</b>" in text
    assert "«✋ Мои кости»" in text and "/settings" in text
    english = private_settings_text(False, HandsPlace.GROUP, Lang.EN)
    assert "<b>off</b>" in english and "Your tiles: <b>in the group</b>" in english
    rows = private_settings_keyboard(True, HandsPlace.PRIVATE, Lang.RU).inline_keyboard
    assert rows[0][0].callback_data == "tn1:0"  # on: the switch turns them off
    assert [[(b.text, b.callback_data) for b in row] for row in rows[1:]] == [
        [("В группе", "hd1:group"), ("✅ В личке", "hd1:private")],
        [("Там и там", "hd1:both"), ("Как в группе", "hd1:default")],
    ]
    chosen = private_settings_keyboard(False, None, Lang.EN).inline_keyboard
    assert rows and chosen[0][0].callback_data == "tn1:1"
    assert [b.text for row in chosen[1:] for b in row if b.text.startswith("✅")] == [
        "✅ As the group"
    ]


@pytest.mark.parametrize("place", [*HandsPlace, None])
def test_each_hands_button_names_the_choice_it_stores(place: HandsPlace | None) -> None:
    rows = private_settings_keyboard(True, place, Lang.RU).inline_keyboard[1:]
    marked = [b for row in rows for b in row if b.text.startswith("✅")]
    assert len(marked) == 1
    data = marked[0].callback_data
    assert data is not None
    assert hands_choice(HandsCb.unpack(data).place, own=True) == (True, place)


def test_a_hands_press_of_no_known_place_is_refused() -> None:
    assert hands_choice("default", own=False) == (False, None)  # a group has no group's own
    for junk in ("", "GROUP", "nowhere", "both "):
        assert hands_choice(junk, own=True) == (False, None)
        assert hands_choice(junk, own=False) == (False, None)
    assert hands_choice("private", own=False) == (True, HandsPlace.PRIVATE)


def test_the_group_settings_show_and_offer_where_hands_are() -> None:
    settings = ChatSettings(hands=HandsPlace.PRIVATE)
    text = settings_text("Дворик", settings, Lang.RU)
    assert "✋ Кости игроков: <b>в личке</b>" in text.splitlines()
    assert "Players' tiles: <b>in the group and in private</b>" in settings_text(
        "Yard", ChatSettings(), Lang.EN
    )
    opened = section_text(SettingsSection.HANDS, settings, Lang.RU)
    assert opened.splitlines()[0] == "✋ Кости игроков: <b>в личке</b>"
    assert "Каждый может выбрать своё" in opened
    rows = section_keyboard(SettingsSection.HANDS, settings, Lang.RU).inline_keyboard
    assert [[(b.text, b.callback_data) for b in row] for row in rows] == [
        [("В группе", "hd1:group"), ("✅ В личке", "hd1:private")],
        [("Там и там", "hd1:both")],
        [("↩️ Назад", "se1:m")],
    ]


def test_a_groups_hands_survive_the_round_trip_and_default_to_both() -> None:
    for place in HandsPlace:
        settings = ChatSettings(hands=place)
        assert ChatSettings.from_dict(settings.to_dict()) == settings
    assert ChatSettings().hands is HandsPlace.BOTH and "hands" not in ChatSettings().to_dict()
    assert ChatSettings.from_dict({"hands": "nowhere"}).hands is HandsPlace.BOTH


async def test_the_bot_removed_tells_in_private_only_those_it_may_write_to(setup: Setup) -> None:
    """Боб played from the group alone: there is no private chat to tell him in (a notice
    owed there would be refused for ever)."""
    await setup.app.people.remember(ALICE, can_message=True)
    await setup.run(setup.app.lobby.open(CHAT, ALICE))
    await setup.run(setup.app.lobby.join(1, CHAT.id, BOB))  # never pressed Start
    await setup.run(setup.app.chats.bot_left_group(CHAT.id))
    for _ in range(3):
        await settle()
        await setup.out.drain()
    removed = t("notice.bot_removed", Lang.RU, chat=CHAT.title)
    assert setup.telegram.sent_to(ALICE.id) == [removed]
    assert setup.telegram.sent_to(BOB.id) == []
    assert await repo.pending_outbox(setup.db) == []
