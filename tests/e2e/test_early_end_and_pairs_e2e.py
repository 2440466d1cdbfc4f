"""Through the fake Telegram: a match ended early (/surrender, /cancel) shows its end and
no turn, and a pair game names the partner and lists the seats in turn order."""

from __future__ import annotations

import json

from bot.telegram.presenter import ended_view
from render import render_table
from storage.records import Abandonment
from tests.e2e.harness import (
    BotProcess,
    Person,
    Table,
    assert_hands_private,
    button_data,
    open_game,
    play_until,
    settle,
    wait_edited,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.world import StoredMessage


def hand_texts(person: Person) -> list[StoredMessage]:
    """The person's hand messages (with or without buttons left)."""
    return [m for m in person.chat.bot_messages if "Счёт:" in m.content and "раунд" in m.content]


def stale_turn(text: str) -> bool:
    return any(
        words in text for words in ("Ход:", "Ваш ход", "Ходят соперники", "Ходит ваш партнёр")
    )


async def pairs_game(fakegram: FakeTelegram) -> Table:
    """Four people in pairs: Алиса and Вера against Боб and Гена (seats 0, 2 and 1, 3)."""
    names = ("Алиса", "Боб", "Вера", "Гена")
    users = [fakegram.add_user(name, username=f"u{i}") for i, name in enumerate(names)]
    game = await open_game(fakegram, users, start=False)
    lobby = game.lobby
    shown = lobby.content
    await users[0].press(lobby, data=button_data(lobby, "Пары"))
    await wait_edited(fakegram, lobby, shown)
    answer = await users[0].press(lobby, data=button_data(lobby, "Начать"))
    assert answer.answered and not answer.show_alert, answer
    table = await game.group.wait_for_message(lambda m: m.photo is not None)
    return Table(game.group, lobby, game.people, table)


async def test_pairs_name_the_partner_and_a_surrender_shows_the_end_without_a_turn(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    game = await pairs_game(fakegram)
    alice, bob, vera, gena = game.people
    assert game.table is not None
    # Seats in turn order in the caption, each pair's score after them.
    caption = game.table.content
    order = [caption.index(f"{name} — ") for name in ("Алиса", "Боб", "Вера", "Гена")]
    assert order == sorted(order), caption
    assert "пара Алиса + Вера: 0" in caption and "пара Боб + Гена: 0" in caption

    # Play until Вера (Алиса's partner) is to move: Алиса's hand names her partner.
    await play_until(fakegram, [alice, bob, gena], vera.my_turn)
    await fakegram.wait_for(
        lambda: any("Ходит ваш партнёр — Вера" in m.content for m in hand_texts(alice))
    )
    [hand] = [m for m in hand_texts(alice) if "Ходит ваш партнёр" in m.content]
    assert "🤝 Ваш партнёр — Вера" in hand.content and "соперники" not in hand.content
    # Боб waits on an opponent: his partner is Гена, and «Ходят соперники» is true.
    await fakegram.wait_for(
        lambda: any("🤝 Ваш партнёр — Гена" in m.content for m in hand_texts(bob))
    )

    # Алиса gives up while Вера is to move.
    await alice.user.command(game.group, "surrender")
    asked = await game.group.wait_for_message(lambda m: "Сдаться?" in m.content)
    done = await alice.user.press(asked, data=button_data(asked, "Да"))
    assert done.text == "Вы сдались. Партия окончена."
    table = game.table
    await game.group.wait_for_message(lambda m: m is table and "сдаётся" in m.content)
    caption = table.content
    assert not stale_turn(caption), caption
    assert "▶️" not in caption
    assert "🐐 Козёл: Алиса + Вера." in caption and "🏆 Победа — Боб + Гена" in caption
    for person in game.people:
        await person.chat.wait_for_message(lambda m: "Алиса сдаётся" in m.content)
        [last] = hand_texts(person)[-1:]
        assert "Партия окончена." in last.content and "🐐 Козёл: Алиса + Вера." in last.content
        assert not stale_turn(last.content), last.content
        assert person.hand() is None
    await settle(fakegram)
    # The picture: the end, the козёл and the winners, nobody to move.
    match = bot.stored_match()
    [(stored,)] = bot.stored("SELECT abandonment FROM games")
    assert isinstance(stored, str)
    first = Abandonment.from_dict(json.loads(stored))
    shown = ended_view(match.view(None), first.seat, first.points)
    assert shown.over and shown.round.turn is None and shown.losers == (0,)
    assert table.photo is not None
    names = ["Алиса", "Боб", "Вера", "Гена"]
    assert table.photo.data == render_table(shown, names, "ru")
    assert table.photo.data != render_table(match.view(None), names, "ru")
    assert_hands_private(fakegram, match, {i: p.user.id for i, p in enumerate(game.people)})


async def test_a_cancelled_match_shows_no_turn_in_the_group_or_the_hands(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(fakegram, [alice, bob], seats=2)
    await play_until(fakegram, game.people, lambda: sum(p.presses for p in game.people) >= 2)
    await alice.command(game.group, "cancel")
    asked = await game.group.wait_for_message(lambda m: "Отменить текущую игру?" in m.content)
    await alice.press(asked, data=button_data(asked, "Да"))
    table = game.table
    assert table is not None
    await game.group.wait_for_message(lambda m: m is table and "Игра отменена" in m.content)
    assert not stale_turn(table.content), table.content
    assert "Партия окончена." in table.content and "🐐" not in table.content
    for person in game.people:
        await person.chat.wait_for_message(lambda m: "Игра отменена" in m.content)
        last = hand_texts(person)[-1]
        assert "Партия окончена." in last.content and not stale_turn(last.content)
    await settle(fakegram)
    match = bot.stored_match()
    assert table.photo is not None
    shown = ended_view(match.view(None))
    assert table.photo.data == render_table(shown, ["Алиса", "Боб"], "ru")


async def test_a_surrender_after_someone_left_says_who_is_the_goat_and_gains_nothing(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    """Item 8: Боб left first, so Боб is the козёл (K-11, the first abandonment); the
    confirmation of Алиса's /surrender says so, and Алиса gains no rating (README)."""
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(fakegram, [alice, bob], seats=2)
    await alice.command(game.group, "surrender")
    own = await game.group.wait_for_message(lambda m: "Сдаться?" in m.content)
    assert "🐐 Козёл: Алиса." in own.content and "вы не получите" in own.content
    await alice.press(own, data=button_data(own, "Нет"))

    await bob.command(game.group, "leave")
    await game.group.wait_for_message(lambda m: "🚪 Боб уходит" in m.content)
    await alice.command(game.group, "surrender")
    asked = await game.group.wait_for_message(lambda m: "Сдаться?" in m.content and m is not own)
    assert "первый уход из партии — Боб" in asked.content, asked.content
    assert "🐐 Козёл: Боб." in asked.content and "Рейтинга за неё вы не получите" in asked.content
    done = await alice.press(asked, data=button_data(asked, "Да"))
    assert done.text == "Вы сдались. Партия окончена."
    notice = await game.group.wait_for_message(lambda m: "сдаётся" in m.content)
    [(stored,)] = bot.stored("SELECT abandonment FROM games")
    assert isinstance(stored, str)
    first = Abandonment.from_dict(json.loads(stored))
    assert (first.seat, first.reason.value, first.surrendered) == (1, "left", 0)
    assert "🐐 Козёл: Боб." in notice.content
    assert f"Алиса: {first.points[0]} · +0" in notice.content
    # Алиса gave up: no rating, no win, and the table says so once, with nobody's win.
    assert bot.stored("SELECT seat, goat, rating_gain, won FROM stat_seats ORDER BY seat") == [
        (0, 0, 0, 0),
        (1, 1, 0, 0),
    ]
    table = game.table
    assert table is not None
    await game.group.wait_for_message(lambda m: m is table and "🏳 Алиса сдаётся." in m.content)
    assert table.content.count("Партия окончена.") == 1, table.content
    assert "🐐 Козёл: Боб" in table.content and "Победа" not in table.content
