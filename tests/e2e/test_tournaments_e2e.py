"""Tournaments end to end, the bot as `python -m bot` against the fake
(docs/tournaments.md): the sign-up message, its buttons refused to whoever may not press
them, the organiser's settings; a round robin of four at tables of two (Классика, to its
target) played to its final standings in a plain group (its tables one after another),
the bot killed with SIGKILL between rounds and started again, one table forfeited by
someone who never takes their seat; the final standings' text and picture, /history and
/stats; a Swiss of eight (six people, computers filling the last table) at tables of
four in a forum, two rounds, each round's two tables played at once in topics the bot
made, round 2 paired from round 1's results; a running tournament that loses an entrant
and is then cancelled; an English group. Every match's hands stay private."""

from __future__ import annotations

import functools
import io
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
from PIL import Image

from domino.tournament import swiss_round
from storage.tournaments import result_from_json
from tests.e2e.harness import (
    PRESS_SECONDS,
    REPLY_SECONDS,
    BotProcess,
    Person,
    Stall,
    assert_hands_private,
    button_data,
    play_until,
    running_bot,
    set_group_language,
    set_turn_timer,
    settle,
    wait_progressing,
)
from tests.fakegram import CallbackAnswer, FakeTelegram
from tests.fakegram.server import Exposure
from tests.fakegram.world import FakeChat, FakeUser, ForumTopic, MemberStatus, StoredMessage

BOARD_PREFIX = "tr1:"  # a button of the tournament's message (`TournamentCb`)
TABLE_LOBBY = re.compile(r"^🏆 Турнир · тур (\d+) · стол (\d+) — ждём: (.+)$", re.M)
# A show-up time of 5 minutes at TURN_TIME_SCALE 0.1: 30 s for someone who never comes.
FAST = {"TURN_TIME_SCALE": "0.1", "PACING": "false"}
STANDING = re.compile(r"^(\d+)\. (.+?) — (\d*½?)$", re.M)


async def started(fake: FakeTelegram, *names: str) -> list[FakeUser]:
    """People who pressed Start in the bot's chat (their hands come there)."""
    users = [fake.add_user(name, username=f"t{n}") for n, name in enumerate(names)]
    for user in users:
        await user.start()
        await user.private_chat.wait_for_message(
            lambda m: "Привет" in m.content, timeout=REPLY_SECONDS
        )
    return users


def is_board(message: StoredMessage) -> bool:
    return any((b.callback_data or "").startswith(BOARD_PREFIX) for b in message.buttons)


def board_in(group: FakeChat, thread_id: int | None = None) -> StoredMessage:
    """The tournament's message in the topic: the newest of the bot's there that has
    its buttons or says the tournament is over."""
    for message in reversed(group.topic_messages(thread_id)):
        if message.from_bot and (is_board(message) or "Турнир окончен" in message.content):
            return message
    raise LookupError("no tournament message")


async def open_tournament(
    group: FakeChat, user: FakeUser, topic: ForumTopic | None = None
) -> StoredMessage:
    before = group.bot_messages[-1] if group.bot_messages else None
    await user.command(group, "tournament", topic=topic)
    return await group.wait_for_message(
        lambda m: is_board(m) and "Участники" in m.content, after=before, timeout=REPLY_SECONDS
    )


async def press(
    fake: FakeTelegram, user: FakeUser, board: StoredMessage, fragment: str
) -> CallbackAnswer:
    """`user` presses the button of `board` whose text holds `fragment`; for a press
    that changes the message, the caller waits for the change."""
    return await user.press(board, data=button_data(board, fragment), timeout=PRESS_SECONDS)


async def press_and_see(
    fake: FakeTelegram, user: FakeUser, board: StoredMessage, fragment: str, shows: str
) -> None:
    """A press that must go through and change the message to show `shows` (in its text
    or on a button)."""
    before = board.content, buttons(board)
    answer = await press(fake, user, board, fragment)
    assert answer.answered and not answer.show_alert, answer

    def changed() -> bool:
        now = board.content, buttons(board)
        return now != before and (shows in now[0] or any(shows in b for b in now[1]))

    await fake.wait_for(changed, timeout=REPLY_SECONDS)


def buttons(message: StoredMessage) -> list[str]:
    return [b.text for b in message.buttons]


@dataclass
class Played:
    """One table's game and the span of the fake's exposures while it was played."""

    game_id: int
    people: tuple[int, ...]
    start: int
    end: int | None = None


@dataclass
class Window:
    """The fake as `assert_hands_private` reads it for one match: what was shown while
    it was played, to its group and its own people only (the people of a table played
    at the same time see their own hands, which are no leak of this one)."""

    fake: FakeTelegram
    played: Played
    group: int
    exposures: list[Exposure] = field(init=False)

    def __post_init__(self) -> None:
        viewers = {self.group, *self.played.people}
        self.exposures = [
            e
            for e in self.fake.exposures[self.played.start : self.played.end]
            if (e.audience if e.audience is not None else e.chat_id) in viewers
        ]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.fake, name)


def assert_all_private(
    fake: FakeTelegram, bot: BotProcess, group: FakeChat, played: Iterable[Played]
) -> int:
    checked = 0
    for one in played:
        rows = bot.stored("SELECT seat, user_id FROM seats WHERE game_id = ?", one.game_id)
        owners = {int(seat): int(user) for seat, user in rows if user is not None}
        match = bot.stored_match(one.game_id)
        checked += assert_hands_private(
            cast(FakeTelegram, Window(fake, one, group.id)), match, owners
        )
    return checked


def table_game(bot: BotProcess, tournament: int, round_no: int, table_no: int) -> int | None:
    rows = bot.stored(
        "SELECT game_id FROM tournament_tables"
        " WHERE tournament_id = ? AND round_no = ? AND table_no = ?",
        tournament,
        round_no,
        table_no,
    )
    return int(rows[0][0]) if rows and rows[0][0] is not None else None


def game_over(bot: BotProcess, game_id: int) -> bool:
    rows = bot.stored("SELECT status FROM games WHERE id = ?", game_id)
    return bool(rows) and rows[0][0] in ("finished", "cancelled")


def tournament_status(bot: BotProcess) -> str:
    return str(bot.stored("SELECT status FROM tournaments ORDER BY id DESC LIMIT 1")[0][0])


def standings_of(text: str) -> list[tuple[int, str, str]]:
    return [(int(place), name, points) for place, name, points in STANDING.findall(text)]


def halves(points: str) -> int:
    whole = points.rstrip("½")
    return 2 * int(whole or 0) + (1 if points.endswith("½") else 0)


async def stats_text(group: FakeChat, user: FakeUser, command: str, mark: str) -> str:
    after = group.bot_messages[-1] if group.bot_messages else None
    await user.command(group, command)
    found = await group.wait_for_message(lambda m: mark in m.content, after=after, timeout=30)
    return found.content


async def test_sign_up_refuses_strangers_and_the_settings_are_the_organisers(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    async with running_bot(fakegram, tmp_path, PACING="false"):
        alice, bob, vera, eve = await started(fakegram, "Алиса", "Боб", "Вера", "Ева")
        group = fakegram.add_group("Двор", members=[alice, bob, vera, eve], admins=[alice])
        other = fakegram.add_group("Соседи", members=[alice, eve], admins=[eve])
        # In a private chat: tournaments are played in groups.
        await alice.command(alice.private_chat, "tournament")
        note = await alice.private_chat.wait_for_message(
            lambda m: m.content.startswith("Турниры проводятся в группах")
        )
        assert "/tournament" in note.content
        board = await open_tournament(group, alice)
        assert board.content.startswith("🏆 Турнир: ")
        assert "Организатор: Алиса" in board.content and "Участники (0):" in board.content
        assert buttons(board) == [
            "✅ Участвую",
            "🚪 Не участвую",
            "⚙️ Настройки",
            "▶️ Начать",
            "✖️ Отменить",
        ]
        for user in (bob, vera):
            await press_and_see(fakegram, user, board, "Участвую", user.first_name)
        assert "Участники (2):\n1. Боб\n2. Вера" in board.content
        again = await press(fakegram, bob, board, "Участвую")
        assert not again.show_alert and again.text == "Вы уже записаны."
        await press_and_see(fakegram, bob, board, "Не участвую", "Участники (1):")
        # Strangers' presses: a short alert each, and nothing changes.
        shown = board.content, buttons(board)
        for fragment in ("Настройки", "Начать", "Отменить"):
            refused = await press(fakegram, eve, board, fragment)
            assert refused.show_alert and "организатор" in (refused.text or ""), refused
        assert (board.content, buttons(board)) == shown
        # The organiser's settings: each button sets the next value.
        await press_and_see(fakegram, alice, board, "Настройки", "🏆 Формат: круговой")
        refused = await press(fakegram, eve, board, "Формат")
        assert refused.show_alert
        await press_and_see(fakegram, alice, board, "Формат", "швейцарская система, 3 тура")
        await press_and_see(fakegram, alice, board, "Туров", "4 тура")
        await press_and_see(fakegram, alice, board, "Компьютеры", "Компьютеры: новичок")
        await press_and_see(fakegram, alice, board, "На сбор", "30 мин")
        await press_and_see(fakegram, alice, board, "Игра", "Дубли")
        await press_and_see(fakegram, alice, board, "Дубли", "Турнир: Дубли")
        assert "🎲 Игра: Дубли" in buttons(board)
        await press_and_see(fakegram, alice, board, "Назад", "✅ Участвую")
        # A button forged onto another group's message is answered and changes nothing.
        other_board = await open_tournament(other, eve)
        forged = await eve.forge_press(other_board, button_data(board, "Начать"))
        assert forged.show_alert
        # /tournament again: the message comes again at the bottom, the old one goes.
        await bob.command(group, "tournament")
        await group.wait_for_message(lambda m: "уже идёт" in m.content, timeout=REPLY_SECONDS)
        await fakegram.wait_for(lambda: board.deleted, timeout=REPLY_SECONDS)
        fresh = await group.wait_for_message(is_board, after=board, timeout=REPLY_SECONDS)
        assert "Турнир: Дубли" in fresh.content
        # One entrant and no computer: too few to start, said, nothing starts.
        await press_and_see(fakegram, alice, fresh, "Настройки", "Формат")
        for level in ("средний", "сильный", "Компьютеры: нет"):
            await press_and_see(fakegram, alice, fresh, "Компьютеры", level)
        await press_and_see(fakegram, alice, fresh, "Назад", "✅ Участвую")
        too_few = await press(fakegram, alice, fresh, "Начать")
        assert too_few.show_alert and "Мало участников" in (too_few.text or ""), too_few
        assert "Участники (1):" in fresh.content
        # Cancel asks first; «Нет» keeps it; «Да, отменить» ends it.
        await press_and_see(fakegram, alice, fresh, "Отменить", "Да, отменить")
        await press_and_see(fakegram, alice, fresh, "Нет", "✅ Участвую")
        await press_and_see(fakegram, alice, fresh, "Отменить", "Да, отменить")
        await press_and_see(fakegram, alice, fresh, "Да, отменить", "Турнир отменён")
        await fakegram.wait_for(lambda: not fresh.buttons, timeout=REPLY_SECONDS)
        await settle(fakegram)


async def play_tables(
    fake: FakeTelegram,
    bot: BotProcess,
    group: FakeChat,
    people: Sequence[Person],
    *,
    absent: str = "",
    absent_round: int = 0,
    kill_before_round: int = 0,
) -> list[Played]:
    """Every table of the tournament, as its lobbies come, one after another: its
    people press «✅ Я на месте» (but `absent` in round `absent_round`) and play it to
    its end. The bot is killed and started again when round `kill_before_round`'s first
    table comes. The tables' games, played."""
    by_name = {p.user.first_name: p for p in people}
    seen: set[int] = set()
    played: list[Played] = []
    killed = False
    stall = Stall.of_chats(fake, [p.user for p in people], what="the tournament did not end")
    tournament = int(bot.stored("SELECT MAX(id) FROM tournaments")[0][0])

    def next_lobby() -> StoredMessage | None:
        for message in group.bot_messages:
            if message.message_id not in seen and TABLE_LOBBY.search(message.content):
                return message
        return None

    while True:
        await wait_progressing(
            fake, lambda: next_lobby() is not None or tournament_status(bot) != "running", stall
        )
        lobby = next_lobby()
        if lobby is None:
            return played
        seen.add(lobby.message_id)
        found = TABLE_LOBBY.search(lobby.content)
        assert found is not None
        round_no, table_no = int(found.group(1)), int(found.group(2))
        names = found.group(3).split(", ")
        if round_no == kill_before_round and not killed:
            killed = True
            await bot.restart(kill=True)
        assert buttons(lobby) == ["✅ Я на месте"], buttons(lobby)
        game_id = table_game(bot, tournament, round_no, table_no)
        assert game_id is not None
        start = len(fake.exposures)
        present = [by_name[n] for n in names if not (n == absent and round_no == absent_round)]
        for person in present:
            answer = await person.user.press(
                lobby, data=button_data(lobby, "Я на месте"), timeout=PRESS_SECONDS
            )
            assert answer.answered and not answer.show_alert, answer
        if len(present) < len(names):
            said = await group.wait_for_message(
                lambda m: "нет на месте" in m.content, after=lobby, timeout=120
            )
            assert f"Тур {round_no} · стол {table_no}: нет на месте — {absent}" in said.content
            await wait_progressing(fake, functools.partial(game_over, bot, game_id), stall)
            continue
        await play_until(fake, present, functools.partial(game_over, bot, game_id))
        table_people = tuple(p.user.id for p in present)
        played.append(Played(game_id, table_people, start, len(fake.exposures)))


# Measured 42-46 s: five matches of Классика to 100 and a table waiting out its 30 s.
@pytest.mark.slow(seconds=45)
async def test_a_round_robin_of_four_to_its_final_standings(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    async with running_bot(fakegram, tmp_path, **FAST) as bot:
        users = await started(fakegram, "Алиса", "Боб", "Вера", "Дима")
        alice = users[0]
        group = fakegram.add_group("Турнир во дворе", members=users, admins=[alice])
        await set_turn_timer(group, alice)
        board = await open_tournament(group, alice)
        for user in users:
            await press_and_see(fakegram, user, board, "Участвую", user.first_name)
        await press_and_see(fakegram, alice, board, "Настройки", "Формат")
        # Классика at its own target for two: the settings offer no other.
        await press_and_see(fakegram, alice, board, "Игра", "Классика")
        await press_and_see(fakegram, alice, board, "Классика", "Турнир: Классика")
        assert "👥 Столы: по 2" in buttons(board)
        await press_and_see(fakegram, alice, board, "На сбор", "30 мин")
        await press_and_see(fakegram, alice, board, "На сбор", "5 мин")
        await press_and_see(fakegram, alice, board, "Назад", "▶️ Начать")
        started_now = await press(fakegram, alice, board, "Начать")
        assert not started_now.show_alert, started_now
        announced = await group.wait_for_message(
            lambda m: m.content.startswith("🏆 Турнир · тур 1 из 3"), timeout=REPLY_SECONDS
        )
        assert "Я на месте" in announced.content
        await fakegram.wait_for(lambda: "Тур 1 из 3" in board.content, timeout=REPLY_SECONDS)
        assert buttons(board) == ["⏸ Пауза", "👤 Убрать участника", "✖️ Отменить турнир"]
        stranger = await press(fakegram, users[1], board, "Пауза")
        assert stranger.show_alert
        people = [Person(fakegram, user) for user in users]
        played = await play_tables(
            fakegram, bot, group, people, absent="Дима", absent_round=2, kill_before_round=2
        )
        assert len(played) == 5  # six tables, one forfeited
        # Every table played Классика for two to its end, at its target of 100.
        matches = [bot.stored_match(one.game_id) for one in played]
        assert {(m.ruleset.variant.value, m.ruleset.target, m.players) for m in matches} == {
            ("classic", 100, 2)
        }
        assert all(m.over for m in matches)
        end = await group.wait_for_message(
            lambda m: m.photo is not None and "Турнир окончен" in m.content, timeout=REPLY_SECONDS
        )
        text = end.content
        lines = standings_of(text)
        assert [name for _, name, _ in lines] and len(lines) == 4, text
        assert sum(halves(points) for _, _, points in lines) == 2 * 6  # a point a table
        assert [halves(p) for _, _, p in lines] == sorted(
            (halves(p) for _, _, p in lines), reverse=True
        )
        winners = [name for place, name, _ in lines if place == 1]
        said = "🏆 Победитель турнира: " if len(winners) == 1 else "🏆 Победители турнира: "
        assert text.splitlines()[-1] == said + ", ".join(winners)
        assert end.photo is not None
        picture = Image.open(io.BytesIO(end.photo.data))
        assert picture.format == "PNG" and picture.width > 500
        # After every table: its result and the standings, a picture with them as text.
        results = [m for m in group.bot_messages if m.content.startswith("🏁 Тур ")]
        assert len(results) == 6 and all(m.photo is not None for m in results)
        assert all("Положение:" in m.content for m in results)
        # Read top to bottom, the group tells it in order: a round's announcement before
        # its tables' lobbies, and each table's result before the next table's lobby (the
        # tables play one after another in a group without topics).
        lobbies = [m for m in group.bot_messages if TABLE_LOBBY.search(m.content)]
        rounds = {
            int(found.group(1)): m.message_id
            for m in group.bot_messages
            if (found := re.match(r"🏆 Турнир · тур (\d+) из", m.content))
        }
        for lobby in lobbies:
            found = TABLE_LOBBY.search(lobby.content)
            assert found is not None
            assert rounds[int(found.group(1))] < lobby.message_id, lobby.content
        for result, lobby in zip(results, lobbies[1:], strict=False):
            assert result.message_id < lobby.message_id, (result.content, lobby.content)
        # The message of the tournament shows the same final standings, no buttons.
        final = board_in(group)
        await fakegram.wait_for(lambda: "Турнир окончен" in final.content, timeout=REPLY_SECONDS)
        assert standings_of(final.content) == lines and not final.buttons
        assert bot.stored("SELECT status FROM tournaments") == [("finished",)]
        # /history names the tournament and its winner; /stats counts it.
        history = await stats_text(group, alice, "history", "Турниры")
        assert f"Классика · 🏆 {', '.join(winners)}" in history
        winner = next(u for u in users if u.first_name == winners[0])
        stats = await stats_text(group, winner, "stats", "Турниров")
        assert "🏆 Турниров: 1, побед: 1" in stats
        loser = next(u for u in users if u.first_name == lines[-1][1])
        if lines[-1][0] != 1:
            assert "🏆 Турниров: 1, побед: 0" in await stats_text(group, loser, "stats", "Турниров")
        assert assert_all_private(fakegram, bot, group, played) > 0
        await settle(fakegram)


async def organiser_controls(
    fake: FakeTelegram, board: StoredMessage, users: Sequence[FakeUser]
) -> None:
    """The organiser's controls while a round runs: pause and resume; whom to remove (the
    people, not the computers), asked to confirm, «Нет» keeps everyone. Nobody else
    may."""
    alice, bob = users[0], users[1]
    await fake.wait_for(lambda: "⏸ Пауза" in buttons(board), timeout=REPLY_SECONDS)
    refused = await press(fake, bob, board, "Убрать участника")
    assert refused.show_alert and "организатор" in (refused.text or ""), refused
    await press_and_see(fake, alice, board, "Пауза", "▶️ Продолжить")
    assert "на паузе" in board.content
    await press_and_see(fake, alice, board, "Продолжить", "⏸ Пауза")
    await press_and_see(fake, alice, board, "Убрать участника", "👤 Боб")
    assert buttons(board) == [*(f"👤 {u.first_name}" for u in users), "↩️ Назад"]
    await press_and_see(fake, alice, board, "👤 Боб", "Да, убрать: Боб")
    assert "Убрать из турнира: Боб?" in board.content
    await press_and_see(fake, alice, board, "Нет", "⏸ Пауза")


async def round_lobbies(
    fake: FakeTelegram, group: FakeChat, round_no: int, stall: Stall
) -> list[StoredMessage]:
    """The two lobbies of round `round_no`'s tables, once both are open and nobody has
    sat down yet (each still waits for everyone drawn there), table 1 first."""
    lobbies: dict[int, StoredMessage] = {}

    def both_open() -> bool:
        for message in group.bot_messages:
            found = TABLE_LOBBY.search(message.content)
            if found is not None and int(found.group(1)) == round_no:
                lobbies[int(found.group(2))] = message
        return len(lobbies) == 2

    await wait_progressing(fake, both_open, stall)
    return [lobbies[table_no] for table_no in sorted(lobbies)]


def announces_round(round_no: int, message: StoredMessage) -> bool:
    """Whether `message` announces round `round_no` of two, with its two tables."""
    return f"тур {round_no} из 2" in message.content and "Стол 2:" in message.content


def drawn_names(lobby: StoredMessage) -> list[str]:
    """The people a table's lobby waits for (its computers sit from the start)."""
    found = TABLE_LOBBY.search(lobby.content)
    assert found is not None, lobby.content
    return found.group(3).split(", ")


async def play_swiss_round(
    fake: FakeTelegram,
    bot: BotProcess,
    by_name: dict[str, Person],
    tournament: int,
    round_no: int,
    lobbies: Sequence[StoredMessage],
) -> list[Played]:
    """Round `round_no`'s two tables played at once: an outsider's press refused at each,
    then everyone drawn takes a seat at both before either is played, and the people
    play until both matches are over. Each match began before the other ended."""
    drawn = [drawn_names(lobby) for lobby in lobbies]
    for lobby, names in zip(lobbies, drawn, strict=True):
        outsider = next(p.user for n, p in by_name.items() if n not in names)
        refused = await outsider.press(
            lobby, data=button_data(lobby, "Я на месте"), timeout=PRESS_SECONDS
        )
        assert refused.show_alert and "для других участников" in (refused.text or ""), refused
    start = len(fake.exposures)
    for lobby, names in zip(lobbies, drawn, strict=True):
        for name in names:
            answer = await by_name[name].user.press(
                lobby, data=button_data(lobby, "Я на месте"), timeout=PRESS_SECONDS
            )
            assert answer.answered and not answer.show_alert, answer
    games = [table_game(bot, tournament, round_no, n) for n in (1, 2)]
    game_ids = [g for g in games if g is not None]
    assert len(game_ids) == 2, games
    await play_until(fake, list(by_name.values()), lambda: all(game_over(bot, g) for g in game_ids))
    spans = bot.stored("SELECT started_at, ended_at FROM games WHERE id IN (?, ?)", *game_ids)
    assert max(begun for begun, _ in spans) < min(ended for _, ended in spans), spans
    played = []
    for game_id in game_ids:
        rows = bot.stored("SELECT user_id FROM seats WHERE game_id = ?", game_id)
        people = tuple(int(user) for (user,) in rows if user is not None)
        match = bot.stored_match(game_id)
        assert (match.players, match.ruleset.teams) == (4, False)  # each on their own
        played.append(Played(game_id, people, start, len(fake.exposures)))
    return played


def stored_tables(bot: BotProcess, tournament: int, round_no: int) -> list[tuple[int, ...]]:
    rows = bot.stored(
        "SELECT entrants FROM tournament_tables WHERE tournament_id = ? AND round_no = ?"
        " ORDER BY table_no",
        tournament,
        round_no,
    )
    return [tuple(json.loads(entrants)) for (entrants,) in rows]


async def test_a_swiss_of_eight_with_computers_plays_each_round_at_two_tables_in_topics(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    """Six people and computers filling the last table: eight entrants at two tables of
    four (Дубли, each on their own), two rounds in a forum group, each round's tables
    played at once in topics the bot made, round 2 paired from round 1's results."""
    async with running_bot(fakegram, tmp_path, **FAST) as bot:
        users = await started(fakegram, "Алиса", "Боб", "Вера", "Гена", "Дима", "Ева")
        alice = users[0]
        group = fakegram.add_group(
            "Форум",
            members=users,
            admins=[alice],
            supergroup=True,
            forum=True,
            bot_status=MemberStatus.ADMINISTRATOR,  # it may make topics
        )
        await set_turn_timer(group, alice)
        topic = await alice.create_topic(group, "Турнир")
        board = await open_tournament(group, alice, topic)
        assert board.thread_id == topic.thread_id
        for user in users:
            await press_and_see(fakegram, user, board, "Участвую", user.first_name)
        await press_and_see(fakegram, alice, board, "Настройки", "Формат")
        await press_and_see(fakegram, alice, board, "Формат", "швейцарская система, 3 тура")
        for shown in ("4 тура", "5 туров", "6 туров", "7 туров", "1 тур", "2 тура"):
            await press_and_see(fakegram, alice, board, "Туров", shown)
        await press_and_see(fakegram, alice, board, "Компьютеры", "новичок")
        await press_and_see(fakegram, alice, board, "Игра", "Дубли")
        await press_and_see(fakegram, alice, board, "Дубли", "Турнир: Дубли")
        await press_and_see(fakegram, alice, board, "Столы", "Столы: по 3")
        await press_and_see(fakegram, alice, board, "Столы", "Столы: по 4")
        await press_and_see(fakegram, alice, board, "Назад", "▶️ Начать")
        assert "Компьютеры: новичок (добирают последний стол)" in board.content
        answer = await press(fakegram, alice, board, "Начать")
        assert not answer.show_alert, answer
        stall = Stall.of_chats(fakegram, users, what="the tournament did not end")
        tournament = int(bot.stored("SELECT MAX(id) FROM tournaments")[0][0])
        by_name = {user.first_name: Person(fakegram, user) for user in users}
        titles: dict[int, str] = {}
        played: list[Played] = []
        for round_no in (1, 2):
            # Both tables at once, each in a topic the bot made; the news in the
            # tournament's topic.
            lobbies = await round_lobbies(fakegram, group, round_no, stall)
            titles.update((t.thread_id, t.name) for t in group.live_topics)
            for table_no, lobby in enumerate(lobbies, start=1):
                assert lobby.thread_id is not None and lobby.thread_id != topic.thread_id
                assert titles[lobby.thread_id] == f"🏆 Тур {round_no} · стол {table_no}"
            assert len({m.thread_id for m in lobbies}) == 2
            assert sorted(name for m in lobbies for name in drawn_names(m)) == sorted(by_name)
            announced = await group.wait_for_message(
                functools.partial(announces_round, round_no), timeout=REPLY_SECONDS
            )
            assert announced.thread_id == topic.thread_id and "Без стола" not in announced.content
            assert announced.content.count("🤖") == 2
            if round_no == 1:
                await organiser_controls(fakegram, board, users)
            else:
                # Paired from round 1's results, after both its tables ended: the drawn
                # tables are Monrad's on round 1's stored results, and each seats two
                # from each table of round 1 (the fewest repeat meetings).
                first = stored_tables(bot, tournament, 1)
                results = [
                    result_from_json(str(row[0]))
                    for row in bot.stored(
                        "SELECT result FROM tournament_tables"
                        " WHERE tournament_id = ? AND round_no = 1 ORDER BY table_no",
                        tournament,
                    )
                ]
                second = stored_tables(bot, tournament, 2)
                expected = swiss_round(2, range(8), 4, results, ())
                assert second == [table.entrants for table in expected.tables], second
                assert all(len(set(t) & set(f)) == 2 for t in second for f in first), second
                round_two = [table_game(bot, tournament, 2, n) for n in (1, 2)]
                ended = bot.stored(
                    "SELECT MAX(ended_at) FROM games WHERE id IN (?, ?)",
                    *(p.game_id for p in played),
                )[0][0]
                opened = bot.stored(
                    "SELECT MIN(created_at) FROM games WHERE id IN (?, ?)", *round_two
                )[0][0]
                assert ended <= opened, (ended, opened)
            played += await play_swiss_round(fakegram, bot, by_name, tournament, round_no, lobbies)
        assert sorted(titles.values()) == sorted(
            ["Турнир", *(f"🏆 Тур {r} · стол {n}" for r in (1, 2) for n in (1, 2))]
        ), titles
        # Two computers fill the last table: eight entrants, no bye.
        entrants = bot.stored(
            "SELECT user_id FROM tournament_entrants WHERE tournament_id = ? ORDER BY number",
            tournament,
        )
        assert [user is None for (user,) in entrants] == [False] * 6 + [True] * 2, entrants
        end = await group.wait_for_message(
            lambda m: m.photo is not None and "Турнир окончен" in m.content, timeout=REPLY_SECONDS
        )
        assert end.thread_id == topic.thread_id
        lines = standings_of(end.content)
        # Four tables of four: 6 meetings a table, a point each.
        assert len(lines) == 8 and sum(halves(p) for _, _, p in lines) == 2 * 6 * 4, lines
        assert sum("🤖" in name for _, name, _ in lines) == 2, lines
        news = group.topic_messages(topic.thread_id)
        for round_no in (1, 2):
            results_said = [m for m in news if m.content.startswith(f"🏁 Тур {round_no} ")]
            assert len(results_said) == 2 and all(m.photo is not None for m in results_said)
        final = board_in(group, topic.thread_id)
        await fakegram.wait_for(lambda: "Турнир окончен" in final.content, timeout=REPLY_SECONDS)
        assert standings_of(final.content) == lines and not final.buttons
        assert assert_all_private(fakegram, bot, group, played) > 0
        await settle(fakegram)


async def test_a_running_tournament_loses_an_entrant_then_is_cancelled(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    async with running_bot(fakegram, tmp_path, **FAST) as bot:
        users = await started(fakegram, "Алиса", "Боб", "Вера")
        alice = users[0]
        group = fakegram.add_group("Двор", members=users, admins=[alice])
        await set_turn_timer(group, alice)
        board = await open_tournament(group, alice)
        for user in users:
            await press_and_see(fakegram, user, board, "Участвую", user.first_name)
        answer = await press(fakegram, alice, board, "Начать")
        assert not answer.show_alert, answer
        lobby = await group.wait_for_message(
            lambda m: TABLE_LOBBY.search(m.content) is not None, timeout=REPLY_SECONDS
        )
        await fakegram.wait_for(lambda: "✖️ Отменить турнир" in buttons(board))
        # Вера removed, confirmed: she is out from now on, the standings say so.
        await press_and_see(fakegram, alice, board, "Убрать участника", "👤 Вера")
        await press_and_see(fakegram, alice, board, "👤 Вера", "Да, убрать: Вера")
        removed = await press(fakegram, alice, board, "Да, убрать")
        assert removed.text == "Вера — вне турнира.", removed
        await fakegram.wait_for(
            lambda: "Вера (вне турнира) — 0" in board.content and "⏸ Пауза" in buttons(board)
        )
        refused = await press(fakegram, users[2], board, "Отменить турнир")
        assert refused.show_alert
        await press_and_see(fakegram, alice, board, "Отменить турнир", "Да, отменить")
        assert "Отменить турнир? Идущие партии отменятся" in board.content
        await press_and_see(fakegram, alice, board, "Да, отменить", "✖️ Турнир отменён.")
        assert not board.buttons
        await fakegram.wait_for(lambda: "Стол закрыт без партии" in lobby.content)
        assert bot.stored("SELECT status FROM tournaments") == [("cancelled",)]
        assert {status for (status,) in bot.stored("SELECT status FROM games")} == {"cancelled"}
        # Nothing is left to open: the group may open another at once.
        again = await open_tournament(group, users[1])
        assert "Организатор: Боб" in again.content
        await settle(fakegram)


async def test_an_english_group_reads_its_tournament_in_english(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    async with running_bot(fakegram, tmp_path, PACING="false"):
        alice, bob = await started(fakegram, "Alice", "Bob")
        group = fakegram.add_group("Yard", members=[alice, bob], admins=[alice])
        await set_group_language(group, alice, "en")
        before = group.bot_messages[-1]
        await bob.command(group, "tournament")
        board = await group.wait_for_message(is_board, after=before, timeout=REPLY_SECONDS)
        assert board.content.startswith("🏆 Tournament: ") and "Organiser: Bob" in board.content
        assert buttons(board) == ["✅ I'm in", "🚪 I'm out", "⚙️ Settings", "▶️ Start", "✖️ Cancel"]
        answer = await press(fakegram, alice, board, "I'm in")
        assert answer.text == "You are signed up for the tournament.", answer
        await fakegram.wait_for(lambda: "Entrants (1):\n1. Alice" in board.content)
        # Alice is the group's admin: the settings are hers too.
        await press_and_see(fakegram, alice, board, "Settings", "🏆 Format: round robin")
        await settle(fakegram)
