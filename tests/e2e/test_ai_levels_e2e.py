"""Computer levels end to end: a lobby with one person and three computers of one level,
set by the lobby's level buttons, plays a match to the end, and the thinker made their
decisions at that level; forged or stale level presses change nothing and are answered
politely."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.telegram.callbacks import LobbyAction, LobbyCb, seat_field
from tests.e2e.harness import (
    PRESS_SECONDS,
    REPLY_SECONDS,
    BotProcess,
    assert_hands_private,
    button_data,
    open_game,
    play_until,
    running_bot,
    settle,
    wait_edited,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.world import FakeChat, FakeUser, StoredMessage

LEVEL_NAMES = {"easy": "Лёгкий", "medium": "Средний", "hard": "Сильный"}
GOAT_MARK = "Козёл —"


@pytest.fixture
async def bot(fakegram: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The bot without pacing; the strong computers think 0.1 s a move (HARD_BUDGET), so a
    match of three of them stays short."""
    async with running_bot(fakegram, tmp_path, PACING="false", HARD_BUDGET="0.1") as process:
        yield process


def stored_seats(bot: BotProcess, group: FakeChat) -> list[tuple[object, ...]]:
    return bot.stored(
        "SELECT s.seat, s.user_id, s.level FROM seats s JOIN games g ON g.id = s.game_id"
        " WHERE g.chat_id = ? ORDER BY s.seat",
        group.id,
    )


def stored_game(bot: BotProcess, group: FakeChat) -> list[tuple[object, ...]]:
    return [
        *bot.stored("SELECT id, status, version FROM games WHERE chat_id = ?", group.id),
        *stored_seats(bot, group),
    ]


async def set_level(
    fake: FakeTelegram, lobby: StoredMessage, presser: FakeUser, computer: int, level: str
) -> None:
    """Press computer `computer`'s level button until the lobby shows it at `level`."""
    wanted = f"Компьютер {computer} · {LEVEL_NAMES[level]}"
    for _ in range(len(LEVEL_NAMES)):
        if wanted in lobby.content:
            return
        shown = lobby.content
        data = button_data(lobby, f"Компьютер {computer} ·")
        answer = await presser.press(lobby, data=data, timeout=PRESS_SECONDS)
        assert answer.answered and not answer.show_alert, answer
        await wait_edited(fake, lobby, shown)
    assert wanted in lobby.content, lobby.content


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
async def test_one_person_and_three_computers_of_a_level_play_a_match_to_the_end(
    fakegram: FakeTelegram, bot: BotProcess, level: str
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    table = await open_game(fakegram, [alice], computers=3, start=False)
    lobby, group = table.lobby, table.group
    # «🤖 Добавить компьютер» seats medium computers; each is switched by its own button.
    for computer in (1, 2, 3):
        assert f"🤖 Компьютер {computer} · Средний" in lobby.content
        await set_level(fakegram, lobby, alice, computer, level)
    for computer in (1, 2, 3):
        assert f"🤖 Компьютер {computer} · {LEVEL_NAMES[level]}" in lobby.content
    assert stored_seats(bot, group) == [
        (0, alice.id, "medium"),  # a person's seat: a computer standing in plays medium
        (1, None, level),
        (2, None, level),
        (3, None, level),
    ]

    answer = await alice.press(lobby, data=button_data(lobby, "Начать"), timeout=PRESS_SECONDS)
    assert answer.answered and not answer.show_alert, answer
    await group.wait_for_message(lambda m: m.photo is not None, timeout=REPLY_SECONDS)
    await play_until(
        fakegram, table.people, lambda: any(GOAT_MARK in m.content for m in group.bot_messages)
    )
    await settle(fakegram)

    match = bot.stored_match()
    assert match.over and match.losers
    assert sum(1 for entry in match.log if entry.seat != 0) > 0
    assert assert_hands_private(fakegram, match, {0: alice.id}) > 0
    assert sum(person.presses for person in table.people) > 0

    # «🔁 Ещё партию» under the match's last word: a new lobby like this one, the computers
    # back at `level`; pressed again while it gathers players, it points to that lobby.
    last_word = next(m for m in reversed(group.bot_messages) if GOAT_MARK in m.content)
    again = button_data(last_word, "Ещё партию")
    newest = group.bot_messages[-1]
    answer = await alice.press(last_word, data=again, timeout=PRESS_SECONDS)
    assert answer.answered and not answer.show_alert and "Новая партия" in (answer.text or "")
    rematch = await group.wait_for_message(
        lambda m: "Игроки" in m.content, after=newest, timeout=REPLY_SECONDS
    )
    for computer in (1, 2, 3):
        assert f"🤖 Компьютер {computer} · {LEVEL_NAMES[level]}" in rematch.content
    assert "(4/4)" in rematch.content, rematch.content
    answer = await alice.press(last_word, data=again, timeout=PRESS_SECONDS)
    assert answer.show_alert and "собирается игра" in (answer.text or ""), answer

    # The thinker's summary, logged as the bot stops: the computers decided at `level`.
    assert await bot.stop(timeout=REPLY_SECONDS) == 0
    summary = re.search(r"thinker: (.*fallbacks to medium)", bot.log())
    assert summary is not None, bot.log()[-3000:]
    decided = dict(
        (name, int(count)) for name, count in re.findall(r"(\w+) (\d+) decisions", summary[1])
    )
    assert set(decided) == {level} and decided[level] > 0, summary[1]


async def test_forged_and_stale_level_presses_change_nothing(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")  # the creator and group's admin
    bob = fakegram.add_user("Боб", username="bob")
    carol = fakegram.add_user("Вера", username="vera")  # runs a lobby in another group
    table = await open_game(fakegram, [alice, bob], computers=1, seats=3, start=False)
    lobby, group = table.lobby, table.group
    game_id = int(str(bot.stored("SELECT id FROM games WHERE chat_id = ?", group.id)[0][0]))
    other = await open_game(fakegram, [carol], computers=1, seats=2, start=False)
    before = stored_game(bot, group)
    assert before[1:] == [(0, alice.id, "medium"), (1, bob.id, "medium"), (2, None, "medium")]

    def level_data(seat: int, action: LobbyAction = LobbyAction.HARD) -> str:
        return LobbyCb(game=game_id, action=action, option=seat_field(seat)).pack()

    # Another chat's game: pressed on Вера's own lobby in her group.
    answer = await carol.forge_press(other.lobby, level_data(2), timeout=PRESS_SECONDS)
    assert answer.answered and "не относится к игре" in (answer.text or ""), answer
    # A person's seat, a seat nobody sits in, as the creator on her own lobby.
    for seat in (0, 1, 3):
        answer = await alice.forge_press(lobby, level_data(seat), timeout=PRESS_SECONDS)
        assert answer.answered and "устарела" in (answer.text or ""), (seat, answer)
    # Someone who is neither the creator nor an admin, on the real button.
    answer = await bob.press(lobby, data=button_data(lobby, "Компьютер 1 ·"), timeout=PRESS_SECONDS)
    assert answer.answered and answer.show_alert and "админы чата" in (answer.text or "")
    await settle(fakegram)
    assert stored_game(bot, group) == before, "a forged level press changed the lobby"

    # The real button, pressed twice on the same keyboard (two admins at once): the level
    # it names is set once, the second press changes nothing more.
    data = button_data(lobby, "Компьютер 1 · Средний")
    shown = lobby.content
    for _ in range(2):
        answer = await alice.forge_press(lobby, data, timeout=PRESS_SECONDS)
        assert answer.answered and "Сильный" in (answer.text or ""), answer
    await wait_edited(fakegram, lobby, shown)
    assert "🤖 Компьютер 1 · Сильный" in lobby.content
    seats = stored_seats(bot, group)
    assert seats[2] == (2, None, "hard")
    assert bot.stored("SELECT version FROM games WHERE id = ?", game_id) == [
        (int(str(before[0][2])) + 1,)
    ]

    # The lobby started: its level buttons are stale (the match itself moves on).
    answer = await alice.press(lobby, data=button_data(lobby, "Начать"), timeout=PRESS_SECONDS)
    assert answer.answered and not answer.show_alert, answer
    await group.wait_for_message(lambda m: m.photo is not None, timeout=REPLY_SECONDS)
    for action in (LobbyAction.EASY, LobbyAction.MEDIUM):
        answer = await alice.forge_press(lobby, level_data(2, action), timeout=PRESS_SECONDS)
        assert answer.answered and "закрыт" in (answer.text or ""), answer
    await settle(fakegram)
    assert stored_seats(bot, group) == seats
