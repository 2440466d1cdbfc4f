"""The hand privacy check finds tiles shown outside their owner's private chat."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from aiogram import Bot
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from tests.fakegram import FakeTelegram, HandPrivacy


@pytest.fixture
def players(fakegram: FakeTelegram) -> tuple[int, int, int]:
    alice = fakegram.add_user("Алиса", started=True)
    bob = fakegram.add_user("Боб", started=True)
    group = fakegram.add_group("G", members=[alice, bob])
    return alice.id, bob.id, group.id


async def test_own_private_chat_is_fine(
    fakegram: FakeTelegram, fake_bot: Bot, players: tuple[int, int, int]
) -> None:
    alice, _, group = players
    privacy = HandPrivacy(fakegram)
    privacy.deal(alice, ["2-5", "6-6"])
    markup = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="[2|5]", callback_data="p:2-5")]]
    )
    await fake_bot.send_message(alice, "Ваши кости: 2-5 6|6", reply_markup=markup)
    await fake_bot.send_message(group, "Ход Алисы. Счёт 12-15, 7 костей на базаре")
    assert privacy.leaks() == []
    privacy.assert_no_leaks()


@pytest.mark.parametrize(
    "text",
    ["у Алисы 5-2", "[5|2]", "кость 2|5!", "2:5"],
    ids=["swapped", "brackets", "bar", "colon"],
)
async def test_leak_in_group_text_in_any_form(
    fakegram: FakeTelegram, fake_bot: Bot, players: tuple[int, int, int], text: str
) -> None:
    alice, _, group = players
    privacy = HandPrivacy(fakegram)
    privacy.deal(alice, ["2-5"])
    await fake_bot.send_message(group, text)
    (leak,) = privacy.leaks()
    assert leak.tile == "2-5" and leak.owner == alice and leak.exposure.chat_id == group
    with pytest.raises(AssertionError, match="tile 2-5 of user"):
        privacy.assert_no_leaks()


async def test_leak_in_another_players_chat_and_in_buttons(
    fakegram: FakeTelegram, fake_bot: Bot, players: tuple[int, int, int]
) -> None:
    alice, bob, group = players
    privacy = HandPrivacy(fakegram)
    privacy.deal(alice, ["3-4"])
    await fake_bot.send_message(bob, "подсказка: у соперника 3-4")
    markup = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="Ход", callback_data="play:3-4")]]
    )
    await fake_bot.send_message(group, "Стол", reply_markup=markup)
    assert [(leak.exposure.chat_id, leak.tile) for leak in privacy.leaks()] == [
        (bob, "3-4"),
        (group, "3-4"),
    ]


async def test_not_a_longer_number(
    fakegram: FakeTelegram, fake_bot: Bot, players: tuple[int, int, int]
) -> None:
    alice, _, group = players
    privacy = HandPrivacy(fakegram)
    privacy.deal(alice, ["2-5"])
    await fake_bot.send_message(group, "Счёт 12-50, партия 32-51")
    assert privacy.leaks() == []


async def test_revealed_tile_may_appear_after_it_was_played(
    fakegram: FakeTelegram, fake_bot: Bot, players: tuple[int, int, int]
) -> None:
    alice, _, group = players
    privacy = HandPrivacy(fakegram)
    privacy.deal(alice, ["2-5", "1-1"])
    await fake_bot.send_message(group, "Стол пуст")
    privacy.reveal("5-2")
    await fake_bot.send_message(group, "Алиса сыграла 2-5")
    assert privacy.leaks() == []
    with pytest.raises(LookupError):
        privacy.reveal("4-4")


async def test_revealed_too_late_is_a_leak(
    fakegram: FakeTelegram, fake_bot: Bot, players: tuple[int, int, int]
) -> None:
    alice, _, group = players
    privacy = HandPrivacy(fakegram)
    privacy.deal(alice, ["2-5"])
    await fake_bot.send_message(group, "Скоро: 2-5")
    privacy.reveal("2-5")
    assert len(privacy.leaks()) == 1


async def test_drawn_tile_is_secret_from_the_draw_on(
    fakegram: FakeTelegram, fake_bot: Bot, players: tuple[int, int, int]
) -> None:
    alice, _, group = players
    privacy = HandPrivacy(fakegram, forms=("{a}/{b}",))
    await fake_bot.send_message(group, "на базаре лежала 0/6")
    privacy.deal(alice, ["0-6"])
    await fake_bot.send_message(group, "Алиса взяла кость")
    assert privacy.leaks() == []
    await fake_bot.send_message(group, "а это была 6/0")
    assert len(privacy.leaks()) == 1


async def test_callback_answers_and_inline_results_to_others(
    fakegram: FakeTelegram, fake_bot: Bot, players: tuple[int, int, int]
) -> None:
    alice, bob, group = players
    privacy = HandPrivacy(fakegram)
    privacy.deal(alice, ["4-6"])
    markup = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="Ход", callback_data="t")]]
    )
    table = await fake_bot.send_message(group, "Стол", reply_markup=markup)
    press = asyncio.create_task(fakegram.users[bob].press(table, data="t"))
    (update,) = await fake_bot.get_updates()
    assert update.callback_query is not None
    await fake_bot.answer_callback_query(update.callback_query.id, "у Алисы есть 4-6")
    await press
    (leak,) = privacy.leaks()
    assert leak.exposure.audience == bob and leak.exposure.kind == "callback answer"


async def test_inline_results_and_the_chosen_message(
    fakegram: FakeTelegram, fake_bot: Bot, players: tuple[int, int, int]
) -> None:
    from aiogram.types import InlineQueryResultArticle, InputTextMessageContent

    alice, bob, group = players
    privacy = HandPrivacy(fakegram)
    privacy.deal(alice, ["1-2"])
    privacy.deal(bob, ["3-3"])
    asking = asyncio.create_task(fakegram.users[alice].inline_query("", chat=fakegram.chats[group]))
    (update,) = await fake_bot.get_updates()
    assert update.inline_query is not None
    results: list[Any] = [
        InlineQueryResultArticle(
            id=tile,
            title=f"Сыграть {tile}",
            input_message_content=InputTextMessageContent(message_text=f"Алиса играет {tile}"),
        )
        for tile in ("1-2", "3-3")  # the second is Bob's: a leak to Alice
    ]
    await fake_bot.answer_inline_query(update.inline_query.id, results, is_personal=True)
    answer = await asking
    (leak,) = privacy.leaks()
    assert (leak.tile, leak.exposure.audience, leak.exposure.kind) == (
        "3-3",
        alice,
        "inline results",
    )
    privacy.reveal("1-2")
    await fakegram.users[alice].choose_inline_result(answer, "1-2", chat=fakegram.chats[group])
    assert len(privacy.leaks()) == 1
