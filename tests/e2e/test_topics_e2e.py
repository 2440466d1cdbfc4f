"""Games in forum topics: a game belongs to the topic it was opened in, and every message
of it goes there.

Two topics of one forum run a game each at once while a third asks /top: each message
lands in its own topic, General gets none; a game in General of a forum plays as in a
plain group; a topic closed mid-game (the bot may not write there) keeps its game, which
finishes, and what waited is shown once the topic is reopened, nothing lost or doubled;
a topic deleted mid-game stops its game with a notice in General, and a new /domino
works afterwards. Every transcript passes the hand privacy check."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from tests.e2e.harness import (
    PRESS_SECONDS,
    REPLY_SECONDS,
    BotProcess,
    Person,
    assert_hands_private,
    button_data,
    play_until,
    settle,
    wait_edited,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.server import Exposure
from tests.fakegram.world import FakeChat, FakeUser, ForumTopic, StoredMessage

ROUND_END = re.compile(r"^(?:🏁|🐟|🎯) Раунд (\d+)")
CLOSED_NOTICE = "Тему с партией закрыли"
DELETED_NOTICE = "Тему с партией удалили"


@dataclass
class TopicGame:
    """A game of one person and a computer, opened in `topic` (None: General)."""

    group: FakeChat
    topic: ForumTopic | None
    person: Person
    lobby: StoredMessage
    table: StoredMessage

    @property
    def thread_id(self) -> int | None:
        return self.topic.thread_id if self.topic is not None else None

    def messages(self) -> list[StoredMessage]:
        """The bot's messages in the game's topic, oldest first."""
        return [m for m in self.group.topic_messages(self.thread_id) if m.from_bot]


async def started(fake: FakeTelegram, *names: str) -> list[FakeUser]:
    """People who pressed Start in the bot's chat (their hands go there)."""
    users = [fake.add_user(name, username=f"u{n}") for n, name in enumerate(names)]
    for user in users:
        await user.start()
        await user.private_chat.wait_for_message(
            lambda m: "Привет" in m.content, timeout=REPLY_SECONDS
        )
    return users


def forum(fake: FakeTelegram, users: Sequence[FakeUser]) -> FakeChat:
    """A forum whose first person owns it; the bot is a plain member (it may not write in
    a closed topic)."""
    return fake.add_group(
        "Форум", members=list(users), admins=users[:1], supergroup=True, forum=True
    )


async def open_in(
    fake: FakeTelegram, group: FakeChat, user: FakeUser, topic: ForumTopic | None
) -> TopicGame:
    """`user` opens a game for two in `topic`, seats a computer and starts it."""
    thread_id = topic.thread_id if topic is not None else None
    await user.command(group, "domino", topic=topic)
    lobby = await group.wait_for_message(
        lambda m: "Игроки" in m.content and m.thread_id == thread_id, timeout=REPLY_SECONDS
    )
    while "Игроков: 2" not in lobby.content:
        shown = lobby.content
        await user.press(lobby, data=button_data(lobby, "👥"), timeout=PRESS_SECONDS)
        await wait_edited(fake, lobby, shown)
    await user.press(lobby, data=button_data(lobby, "компьютер"), timeout=PRESS_SECONDS)
    await group.wait_for_message(lambda m: m is lobby and "(2/2)" in m.content)
    answer = await user.press(lobby, data=button_data(lobby, "Начать"), timeout=PRESS_SECONDS)
    assert answer.answered and not answer.show_alert, answer
    table = await group.wait_for_message(
        lambda m: m.photo is not None and m.thread_id == thread_id,
        after=lobby,
        timeout=REPLY_SECONDS,
    )
    return TopicGame(group, topic, Person(fake, user), lobby, table)


def game_id_of(bot: BotProcess, group: FakeChat, thread_id: int | None) -> int:
    rows = bot.stored(
        "SELECT id FROM games WHERE chat_id = ? AND thread_id IS ? ORDER BY id DESC LIMIT 1",
        group.id,
        thread_id,
    )
    assert rows, f"no game in topic {thread_id}"
    return int(rows[0][0])


def status_of(bot: BotProcess, game_id: int) -> str:
    return str(bot.stored("SELECT status FROM games WHERE id = ?", game_id)[0][0])


def over(bot: BotProcess, *game_ids: int) -> bool:
    return all(status_of(bot, game_id) in ("finished", "cancelled") for game_id in game_ids)


def owed(bot: BotProcess) -> int:
    """Announcements not sent yet."""
    return int(bot.stored("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL")[0][0])


def round_ends(messages: list[StoredMessage]) -> list[int]:
    """The rounds whose end was announced among `messages`, in order."""
    found = (ROUND_END.match(m.content) for m in messages if m.photo is not None)
    return [int(mark.group(1)) for mark in found if mark]


def rematch_offers(messages: list[StoredMessage]) -> list[StoredMessage]:
    return [m for m in messages if any("Ещё партию" in b.text for b in m.buttons)]


class Watched:
    """The fake as one game's privacy check sees it: every exposure but those to the people
    of other games played at the same time (their own hands are no leak of this one)."""

    def __init__(self, fake: FakeTelegram, others: set[int]) -> None:
        self._fake = fake
        self._others = others

    @property
    def exposures(self) -> list[Exposure]:
        return [
            e
            for e in self._fake.exposures
            if (e.audience if e.audience is not None else e.chat_id) not in self._others
        ]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._fake, name)


def assert_private(
    fake: FakeTelegram, bot: BotProcess, game: TopicGame, others: Sequence[FakeUser] = ()
) -> None:
    game_id = game_id_of(bot, game.group, game.thread_id)
    watched = cast(FakeTelegram, Watched(fake, {user.id for user in others}))
    assert assert_hands_private(watched, bot.stored_match(game_id), {0: game.person.user.id})


async def table_linked(fake: FakeTelegram, game: TopicGame, tail: str) -> None:
    """The private hand's «🖼 Стол в группе» opens the table: t.me/c/<group>/`tail`."""
    link = f"https://t.me/c/{str(game.group.id)[4:]}/{tail}"

    def linked() -> bool:
        hand = game.person.hand()
        return hand is not None and [b.url for b in hand.buttons if b.url] == [link]

    await fake.wait_for(linked, timeout=REPLY_SECONDS)


async def all_announced(fake: FakeTelegram, bot: BotProcess) -> None:
    """Until every announcement owed is sent (a match is over in the database before its
    round ends' pictures, drawn in the render pool, reach the group) and the bot is idle."""
    await fake.wait_for(lambda: owed(bot) == 0, timeout=REPLY_SECONDS)
    await settle(fake)


def assert_whole_match_shown(bot: BotProcess, game: TopicGame) -> None:
    """Every round's end announced once in the game's topic, and the match's end once."""
    match = bot.stored_match(game_id_of(bot, game.group, game.thread_id))
    assert match.over
    messages = game.messages()
    assert round_ends(messages) == list(range(1, len(match.results) + 1))
    assert len(rematch_offers(messages)) == 1


async def test_two_topics_play_at_once_and_a_third_asks_top(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice, bob, vera = await started(fakegram, "Алиса", "Боб", "Вера")
    group = forum(fakegram, [alice, bob, vera])
    first = await alice.create_topic(group, "Партия 1")
    second = await bob.create_topic(group, "Партия 2")
    chatter = await vera.create_topic(group, "Болтовня")

    one = await open_in(fakegram, group, alice, first)
    two = await open_in(fakegram, group, bob, second)
    ids = (game_id_of(bot, group, one.thread_id), game_id_of(bot, group, two.thread_id))
    assert ids[0] != ids[1]
    # The private hand's «🖼 Стол в группе» opens the table in its topic.
    await table_linked(fakegram, one, f"{first.thread_id}/{one.table.message_id}")
    await vera.command(group, "top", topic=chatter)
    await group.wait_for_message(
        lambda m: m.thread_id == chatter.thread_id and m.from_bot, timeout=REPLY_SECONDS
    )

    await play_until(fakegram, [one.person, two.person], lambda: over(bot, *ids))
    await all_announced(fakegram, bot)

    assert [m for m in group.topic_messages(None) if m.from_bot] == []  # nothing in General
    for game in (one, two):
        assert game.lobby.thread_id == game.thread_id
        assert len([m for m in game.messages() if "Игроки" in m.content]) == 1
        assert_whole_match_shown(bot, game)
    # /top answered in its own topic, once; no game's message there.
    [top] = [m for m in group.topic_messages(chatter.thread_id) if m.from_bot]
    assert "Игроки" not in top.content and top.photo is None
    assert owed(bot) == 0
    assert_private(fakegram, bot, one, [bob])
    assert_private(fakegram, bot, two, [alice])


async def test_a_game_in_general_of_a_forum_plays_as_in_a_plain_group(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    [alice] = await started(fakegram, "Алиса")
    group = forum(fakegram, [alice])
    topic = await alice.create_topic(group, "Тихая тема")
    game = await open_in(fakegram, group, alice, None)
    assert game.lobby.thread_id is None and game.table.thread_id is None
    await table_linked(fakegram, game, str(game.table.message_id))
    game_id = game_id_of(bot, group, None)
    await play_until(fakegram, [game.person], lambda: over(bot, game_id))
    await all_announced(fakegram, bot)
    assert_whole_match_shown(bot, game)
    assert [m for m in group.topic_messages(topic.thread_id) if m.from_bot] == []
    assert_private(fakegram, bot, game)


async def test_a_topic_closed_mid_game_keeps_it_and_shows_it_when_reopened(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    [alice] = await started(fakegram, "Алиса")
    group = forum(fakegram, [alice])
    topic = await alice.create_topic(group, "Партия")
    game = await open_in(fakegram, group, alice, topic)
    game_id = game_id_of(bot, group, topic.thread_id)

    await alice.close_topic(topic)
    # The game goes on from the private chat: the round ends' announcements wait.
    await play_until(fakegram, [game.person], lambda: over(bot, game_id))

    def closed_notices() -> list[StoredMessage]:
        return [m for m in group.topic_messages(None) if CLOSED_NOTICE in m.content]

    # The notice comes when the first announcement, its picture drawn, finds the topic
    # closed (a slow picture on a busy machine sends nothing for a while: no settling).
    await fakegram.wait_for(lambda: bool(closed_notices()), timeout=REPLY_SECONDS)
    await settle(fakegram)
    assert status_of(bot, game_id) == "finished"
    notices = closed_notices()
    assert len(notices) == 1  # told once in General
    assert owed(bot) > 0  # the announcements wait for the topic
    assert rematch_offers(game.messages()) == []

    await alice.reopen_topic(topic)
    await fakegram.wait_for(lambda: owed(bot) == 0, timeout=REPLY_SECONDS)
    await settle(fakegram)
    assert_whole_match_shown(bot, game)  # nothing lost, nothing twice
    assert len([m for m in group.topic_messages(None) if CLOSED_NOTICE in m.content]) == 1
    assert [m for m in group.topic_messages(None) if m.from_bot] == notices
    assert_private(fakegram, bot, game)


async def test_a_topic_deleted_mid_game_stops_it_with_a_notice_in_general(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    [alice] = await started(fakegram, "Алиса")
    group = forum(fakegram, [alice])
    topic = await alice.create_topic(group, "Партия")
    game = await open_in(fakegram, group, alice, topic)
    game_id = game_id_of(bot, group, topic.thread_id)

    await alice.delete_topic(topic)

    def told() -> bool:
        return any(DELETED_NOTICE in m.content for m in group.topic_messages(None))

    # The bot learns it at its next message there: the table after Alice's move.
    await fakegram.wait_for(game.person.my_turn, timeout=REPLY_SECONDS)
    assert await game.person.take_turn()
    await fakegram.wait_for(lambda: told() and over(bot, game_id), timeout=REPLY_SECONDS)
    await settle(fakegram)
    assert status_of(bot, game_id) == "cancelled"
    assert [m.content for m in group.topic_messages(None) if m.from_bot] == [
        next(m.content for m in group.topic_messages(None) if DELETED_NOTICE in m.content)
    ]
    assert owed(bot) == 0
    assert_private(fakegram, bot, game)

    # Alice is free again, and the group takes a new game.
    again = await open_in(fakegram, group, alice, None)
    assert game_id_of(bot, group, None) != game_id
    assert again.table.thread_id is None
