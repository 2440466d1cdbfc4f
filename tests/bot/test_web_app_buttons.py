"""The Telegram messages' ways into the Mini App (bot/telegram/web_app_links.py): the
group's «🃏 Открыть стол» direct link on the table and the lobby, the private hand's
`web_app` button; none of it with the app off, never a `web_app` button in a group, and
digests that a restart finds unchanged.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiogram.methods import SendMessage, SendPhoto
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.app.group_settings import GroupSettings
from bot.app.inbox import Inbox
from bot.app.people import People
from bot.telegram import game_messages, presenter
from bot.telegram.delivery import markup_data
from bot.telegram.outgoing import Limits, Outgoing
from bot.telegram.publisher import Publisher
from bot.telegram.web_app_links import WebAppLinks
from domino.match import Match
from domino.rules import KOZEL
from i18n import Lang
from storage import repo
from storage.connect import open_database
from storage.db import Database
from storage.records import ChatRecord, GameRecord, GameStatus, SeatRecord, UserRecord
from tests.bot.app_setup import FakeTelegram

GROUP = ChatRecord(id=-1001, type="supergroup", title="Дворик")
MASHA = UserRecord(id=1, first_name="Маша", language="ru")
OLEG = UserRecord(id=2, first_name="Олег", language="ru")
TOKEN = "Tq3vX_9kLm-2pQr7"
LINKS = WebAppLinks("domino_bot", "table", "https://domino.example.org/")


def flat(markup: InlineKeyboardMarkup | None) -> list[InlineKeyboardButton]:
    return [button for row in (markup.inline_keyboard if markup else []) for button in row]


def game_with(token: str | None, status: GameStatus = GameStatus.PLAYING) -> GameRecord:
    return GameRecord(
        id=5,
        chat_id=GROUP.id,
        creator_id=MASHA.id,
        ruleset=KOZEL,
        seats_wanted=2,
        status=status,
        seats=(SeatRecord(0, MASHA.id, "Маша"), SeatRecord(1, OLEG.id, "Олег")),
        match=None if status is GameStatus.LOBBY else Match.new(KOZEL, 2, seed=7),
        join_token=token,
    )


# --- the links -----------------------------------------------------------------------


def test_the_group_gets_the_apps_direct_link_and_the_hand_its_url() -> None:
    game = game_with(TOKEN)
    assert LINKS.table_link(game) == f"https://t.me/domino_bot/table?startapp={TOKEN}"
    assert LINKS.hand_url(game) == f"https://domino.example.org/?startapp={TOKEN}"
    kept = WebAppLinks("domino_bot", "table", "https://example.org/app?lang=ru#top")
    assert kept.hand_url(game) == f"https://example.org/app?lang=ru&startapp={TOKEN}"


def test_without_a_url_the_app_is_off_and_without_a_name_only_hands_open_it() -> None:
    game = game_with(TOKEN)
    for off in (WebAppLinks("domino_bot", "table", None), WebAppLinks("domino_bot", "", "")):
        assert off.table_link(game) is None and off.hand_url(game) is None
    unnamed = WebAppLinks("domino_bot", None, "https://domino.example.org/")
    assert unnamed.table_link(game) is None  # a direct link needs BotFather's short name
    assert unnamed.hand_url(game) == f"https://domino.example.org/?startapp={TOKEN}"


@pytest.mark.parametrize(
    "token", [None, "", "a b", "x" * 513], ids=["none", "empty", "space", "long"]
)
def test_a_game_without_a_token_telegram_takes_gets_no_links(token: str | None) -> None:
    game = game_with(token)
    assert LINKS.table_link(game) is None and LINKS.hand_url(game) is None


# --- the keyboards ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", list(Lang))
def test_the_table_has_open_table_beside_my_tiles_while_the_match_runs(lang: Lang) -> None:
    game = game_with(TOKEN)
    without = game_messages.table_keyboard(game, lang)
    markup = game_messages.table_keyboard(game, lang, LINKS)
    assert markup is not None and without is not None
    (row,) = markup.inline_keyboard
    mine, app = row
    assert mine == without.inline_keyboard[0][0]
    assert app.url == LINKS.table_link(game) and app.web_app is None  # a group: a link
    assert app.text == {Lang.RU: "🃏 Открыть стол", Lang.EN: "🃏 Open table"}[lang]
    ended = dataclasses.replace(game, status=GameStatus.FINISHED)
    assert game_messages.table_keyboard(ended, lang, LINKS) is None


def test_with_the_app_off_the_table_keeps_its_one_button() -> None:
    game = game_with(TOKEN)
    off = WebAppLinks("domino_bot", None, "https://domino.example.org/")  # no direct link
    assert game_messages.table_keyboard(game, Lang.RU, off) == game_messages.table_keyboard(
        game, Lang.RU
    )
    assert len(flat(game_messages.table_keyboard(game, Lang.RU))) == 1


def test_the_lobby_offers_the_app_right_below_join() -> None:
    game = game_with(TOKEN, GameStatus.LOBBY)
    link = LINKS.table_link(game)
    plain = presenter.lobby_keyboard(game, Lang.RU).inline_keyboard
    rows = presenter.lobby_keyboard(game, Lang.RU, link).inline_keyboard
    assert rows[1] == [InlineKeyboardButton(text="🃏 Открыть стол", url=link)]
    assert [rows[0], *rows[2:]] == plain


def hand(game: GameRecord, **options: Any) -> InlineKeyboardMarkup | None:
    shown = game_messages.hand_message(
        game,
        0,
        Lang.RU,
        names=["Маша", "Олег"],
        chat_title="Дворик",
        clock=None,
        now=0.0,
        table_message_id=42,
        **options,
    )
    assert shown is not None
    return shown[1]


def test_the_private_hand_opens_the_app_from_its_last_row() -> None:
    game = game_with(TOKEN)
    url = LINKS.hand_url(game)
    plain = hand(game)
    markup = hand(game, app_url=url)
    assert markup is not None and plain is not None
    assert markup.inline_keyboard[:-1] == plain.inline_keyboard  # the tiles stay where they were
    (button,) = markup.inline_keyboard[-1]
    assert button.text == "🃏 Стол в приложении"
    assert button.web_app is not None and button.web_app.url == url and button.url is None


def test_no_web_app_button_in_the_group_nor_after_the_match() -> None:
    game = game_with(TOKEN)
    url = LINKS.hand_url(game)
    assert not any(b.web_app for b in flat(hand(game, app_url=url, in_group=True)))
    ended = dataclasses.replace(game, status=GameStatus.FINISHED)
    assert not any(b.web_app for b in flat(hand(ended, app_url=url)))


# --- the publisher ---------------------------------------------------------------------


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "bot.sqlite3")
    async with database.transaction() as tx:
        await repo.upsert_chat(tx, GROUP)
        await repo.upsert_user(tx, MASHA, can_message=True)
        await repo.upsert_user(tx, OLEG, can_message=True)
    yield database
    await database.close()


class Running:
    """A publisher with the Mini App's links over `db`, and the calls it made."""

    def __init__(self, db: Database, web_app: WebAppLinks | None) -> None:
        self.api = FakeTelegram()
        self.out = Outgoing(self.api, dataclasses.replace(Limits.off(), backoff=0))
        people = People(db)
        self.publisher = Publisher(
            db,
            self.out,
            render_table=lambda view, names, lang: b"table picture",
            render_scores=lambda *args: b"score sheet",
            people=people,
            settings=GroupSettings(db, people),
            inbox=Inbox(),
            table_interval=0,
            web_app=web_app,
        )

    async def show(self, game: GameRecord) -> None:
        self.publisher.show(game)
        await self.publisher.idle()
        await self.out.drain()

    async def stop(self) -> None:
        await self.publisher.stop()
        await self.out.close()
        self.publisher.close()


async def playing_game(db: Database) -> GameRecord:
    async with db.transaction() as tx:
        game = await repo.create_game(
            tx,
            chat_id=GROUP.id,
            creator_id=MASHA.id,
            ruleset=KOZEL,
            seats_wanted=2,
            seats=[SeatRecord(0, MASHA.id, "Маша"), SeatRecord(1, OLEG.id, "Олег")],
            join_token=TOKEN,
        )
        started = dataclasses.replace(
            game, status=GameStatus.PLAYING, match=Match.new(KOZEL, 2, seed=7)
        )
        return await repo.save_game(tx, started)


async def test_the_publisher_puts_the_app_on_the_table_and_the_private_hands(
    db: Database,
) -> None:
    running = Running(db, LINKS)
    game = await playing_game(db)
    for _ in range(2):  # the second pass adds the table's link to the hands sent before it
        await running.show(game)
    (table,) = [c for c in running.api.calls if isinstance(c, SendPhoto)]
    assert isinstance(table.reply_markup, InlineKeyboardMarkup)
    assert [b.url for b in flat(table.reply_markup)][-1] == LINKS.table_link(game)
    hands = [c for c in running.api.calls if isinstance(c, SendMessage)]
    assert sorted(c.chat_id for c in hands) == [MASHA.id, OLEG.id]
    for sent in hands:
        assert isinstance(sent.reply_markup, InlineKeyboardMarkup)
        last = sent.reply_markup.inline_keyboard[-1]
        assert [b.web_app.url for b in last if b.web_app] == [LINKS.hand_url(game)]
    await running.stop()


async def test_a_restart_with_the_app_on_edits_nothing(db: Database) -> None:
    game = await playing_game(db)
    first = Running(db, LINKS)
    for _ in range(2):
        await first.show(game)
    await first.stop()  # writes the digests memory holds
    again = Running(db, WebAppLinks("domino_bot", "table", "https://domino.example.org/"))
    await again.show(game)
    assert again.api.calls == []  # every message's digest matched
    await again.stop()


@pytest.mark.parametrize(
    "links", [None, WebAppLinks("domino_bot", "table", None)], ids=["none", "no url"]
)
async def test_with_the_app_off_the_messages_are_as_before(
    db: Database, links: WebAppLinks | None
) -> None:
    game = await playing_game(db)
    running = Running(db, links)
    for _ in range(2):
        await running.show(game)
    (table,) = [c for c in running.api.calls if isinstance(c, SendPhoto)]
    assert table.reply_markup == game_messages.table_keyboard(game, Lang.RU)
    markups = [getattr(c, "reply_markup", None) for c in running.api.calls]
    shown = [str(markup_data(m)) for m in markups if isinstance(m, InlineKeyboardMarkup)]
    assert shown and not any("web_app" in m or "startapp" in m for m in shown)
    await running.stop()
