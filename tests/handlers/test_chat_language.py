"""One language per group: `handlers.filters.chat_language` makes every answer in a group
the group's language whoever asked, and a person's private chat their own; a group's
language is settled by the first person to use the bot there (a command or a press; its
first game at the latest), and stays until an admin changes it
(`GroupSettings.settle_language`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiogram.types import CallbackQuery, Chat, Message, User

from bot.app.people import Person
from handlers import buttons, commands, endings, fallback, get_routers, lobby, settings, stats
from handlers.filters import ChatLanguage, chat_language
from i18n import Lang
from storage import repo
from storage.connect import open_database
from storage.db import Database
from storage.records import ChatSettings
from tests.bot.app_setup import CHAT, FakeTime, Setup, make, no_admin
from tests.bot.app_setup import seed_where_seat_0_opens as seed

ANNA = Person(601, "Anna", language_code="en")
OLGA = Person(602, "Оля", language_code="ru")


def message(
    chat_id: int, chat_type: str, user: Person, text: str = "/help", *, is_bot: bool = False
) -> Message:
    word = text.split(maxsplit=1)[0] if text.startswith("/") else ""
    command = [{"type": "bot_command", "offset": 0, "length": len(word)}] if word else []
    return Message.model_validate(
        {
            "message_id": 1,
            "date": 0,
            "chat": Chat(id=chat_id, type=chat_type, title="Двор"),
            "from": User(id=user.id, is_bot=is_bot, first_name=user.first_name),
            "text": text,
            "entities": command,
        }
    )


def press(chat_id: int, chat_type: str, user: Person) -> CallbackQuery:
    return CallbackQuery.model_validate(
        {
            "id": "1",
            "from": User(id=user.id, is_bot=False, first_name=user.first_name),
            "chat_instance": "x",
            "message": message(chat_id, chat_type, OLGA),
            "data": "l1:1:j:-",
        }
    )


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "lang.sqlite3")
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


async def test_a_groups_answers_speak_its_language_whoever_asks(setup: Setup) -> None:
    group_settings = setup.app.settings
    check = ChatLanguage()
    # Talk the bot happens to see, and another bot's command, settle nothing.
    for talk in (
        message(CHAT.id, "supergroup", ANNA, "hello"),
        message(CHAT.id, "supergroup", ANNA, is_bot=True),
    ):
        assert await check(talk, ANNA.lang, group_settings) == {"lang": Lang.EN}
    assert group_settings.language(CHAT.id) is None
    # Оля's command is the first use of the bot there: the group speaks Russian, to Anna too.
    assert await check(message(CHAT.id, "supergroup", OLGA), OLGA.lang, group_settings) == {
        "lang": Lang.RU
    }
    assert (await repo.get_chat_settings(setup.db, CHAT.id)).group_lang == "ru"
    for event in (message(CHAT.id, "supergroup", ANNA), press(CHAT.id, "supergroup", ANNA)):
        assert await check(event, ANNA.lang, group_settings) == {"lang": Lang.RU}
    # A private chat speaks the person's own, whatever their groups speak.
    private = message(ANNA.id, "private", ANNA)
    assert await check(private, ANNA.lang, group_settings) == {"lang": Lang.EN}
    assert await check(press(ANNA.id, "private", ANNA), ANNA.lang, group_settings) == {
        "lang": Lang.EN
    }


def test_the_routers_that_answer_in_groups_all_speak_the_groups_language() -> None:
    """The filter sits on the parent of every router of what people send (commands, the
    lobby, the buttons, the stats, the settings, the endings, the fallbacks), once."""
    (root,) = get_routers()
    (from_people,) = [r for r in root.sub_routers if r.name == "from_people"]
    for module in (commands, endings, lobby, buttons, stats, settings, fallback):
        assert module.router in from_people.sub_routers, module.__name__
    for observer in (from_people.message, from_people.callback_query):
        assert any(f.callback is chat_language for f in observer._handler.filters or ())


async def test_the_first_game_settles_the_groups_language_and_later_ones_keep_it(
    setup: Setup,
) -> None:
    for person in (ANNA, OLGA):
        await setup.app.people.remember(person, can_message=True)
    assert setup.app.settings.language(CHAT.id) is None
    assert await setup.run(setup.app.lobby.open(CHAT, ANNA)) is None
    assert setup.app.settings.language(CHAT.id) is Lang.EN
    assert (await repo.get_chat_settings(setup.db, CHAT.id)).group_lang == "en"
    first = await setup.game()
    await setup.run(setup.app.lobby.cancel(first.id, CHAT.id, ANNA, no_admin))
    # Оля opens the next game: the group still speaks English, and so does her game.
    assert await setup.run(setup.app.lobby.open(CHAT, OLGA)) is None
    second = await setup.game(first.id + 1)
    assert second.creator_id == OLGA.id
    assert await setup.app.settings.language_of(second) is Lang.EN
    # Settled once: a later person does not change it; an admin's choice does.
    assert (await setup.app.settings.settle_language(CHAT, Lang.RU)).group_lang == "en"
    await setup.app.chats.change_settings(CHAT, ChatSettings(group_lang="ru"))
    assert await setup.app.settings.language_of(second) is Lang.RU


async def test_a_press_is_a_use_of_the_bot_too(setup: Setup) -> None:
    check = ChatLanguage()
    assert await check(press(CHAT.id, "group", ANNA), ANNA.lang, setup.app.settings) == {
        "lang": Lang.EN
    }
    assert setup.app.settings.language(CHAT.id) is Lang.EN


class Me:
    """The bot as the filter asks it: only its own username."""

    async def me(self) -> User:
        return User(id=1, is_bot=True, first_name="Домино", username="domino_bot")


async def test_a_command_to_another_bot_settles_nothing(setup: Setup) -> None:
    check = ChatLanguage()
    bot: Any = Me()
    other = message(CHAT.id, "supergroup", ANNA, "/top@another_bot")
    assert await check(other, ANNA.lang, setup.app.settings, bot) == {"lang": Lang.EN}
    assert setup.app.settings.language(CHAT.id) is None
    # The same command addressed to this bot (any case) is a use of it.
    ours = message(CHAT.id, "supergroup", OLGA, "/top@Domino_Bot")
    assert await check(ours, OLGA.lang, setup.app.settings, bot) == {"lang": Lang.RU}
    assert setup.app.settings.language(CHAT.id) is Lang.RU
