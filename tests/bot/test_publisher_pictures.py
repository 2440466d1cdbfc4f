"""The table's pictures cost what they must (bot/telegram/table_message.py): a picture is
drawn only when it is about to be sent, so a run of moves the table's worker merged
draws one picture, and a state that changes nothing on the picture draws none; a
change of the caption alone shows the picture already uploaded by its `file_id`; and a
restart after `Publisher.stop` re-checks every message and edits none.

A real database in a temporary folder, a fake Bot API that gives each uploaded picture
a file id of its own, the table's interval a gate the test opens (no timing), seeded
deals and the first legal action each move (no luck)."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from aiogram.methods import (
    EditMessageMedia,
    EditMessageText,
    SendMessage,
    SendPhoto,
    TelegramMethod,
)
from aiogram.types import BufferedInputFile, Chat, Message, PhotoSize

from bot.app.group_settings import GroupSettings
from bot.app.inbox import Inbox
from bot.app.people import People
from bot.app.timers import TurnClock
from bot.infra import perf
from bot.telegram import game_messages
from bot.telegram.message_records import Target
from bot.telegram.outgoing import Limits, Outgoing
from bot.telegram.publisher import Publisher
from domino.match import Match
from domino.views import MatchView
from i18n import Lang, t
from storage import repo
from storage.connect import open_database
from storage.db import Database
from storage.records import GameRecord, GameStatus, Role
from tests.bot.app_setup import (
    FakeTelegram,
    FakeTime,
    Setup,
    make,
)
from tests.bot.test_play import greedy_press, quiet, start_against_a_computer
from tests.bot.test_publisher import GROUP, MASHA, OLEG, playing_game

NOW = 1_800_000_000.0
EDITS = (SendPhoto, EditMessageMedia, SendMessage, EditMessageText)
PRESSES = 4  # Алиса's moves before the stop


class Uploads(FakeTelegram):
    """The fake Bot API; each picture uploaded gets a file id of its own ("file-1", ...),
    as Telegram gives, and a picture sent by its file id keeps it."""

    def __init__(self) -> None:
        super().__init__()
        self._files = itertools.count(1)

    async def __call__(self, method: TelegramMethod[Any]) -> Any:
        answer = await super().__call__(method)
        sent = shown_picture(method)
        if sent is None:
            return answer
        file_id = sent if isinstance(sent, str) else f"file-{next(self._files)}"
        photo = [PhotoSize(file_id=file_id, file_unique_id=file_id, width=1, height=1)]
        return Message(
            message_id=answer.message_id,
            date=datetime.now(UTC),
            chat=Chat(id=answer.chat.id, type=answer.chat.type),
            photo=photo,
        )

    def pictures(self) -> list[str | BufferedInputFile]:
        """The table pictures sent, in order: an upload, or a file id shown again."""
        return [sent for call in self.calls if (sent := shown_picture(call)) is not None]

    def tables_since(self, calls: int) -> list[TelegramMethod[Any]]:
        """The table pictures sent after the first `calls` calls."""
        return [call for call in self.calls[calls:] if shown_picture(call) is not None]

    def uploads(self) -> int:
        return sum(1 for sent in self.pictures() if not isinstance(sent, str))


def shown_picture(method: TelegramMethod[Any]) -> str | BufferedInputFile | None:
    if isinstance(method, SendPhoto):
        photo = method.photo
    elif isinstance(method, EditMessageMedia):
        photo = method.media.media
    else:
        return None
    assert isinstance(photo, str | BufferedInputFile)
    return photo


@dataclass
class Clocks:
    """The turns' clocks (`publisher.TurnClocks`) at a moment the test sets."""

    now: float = NOW
    turn: TurnClock | None = None

    def clock_of(self, game_id: int) -> TurnClock | None:
        return self.turn

    def clock(self) -> float:
        return self.now


class GatedPublisher(Publisher):
    """The table's worker waits out its interval at `gate`, which the test opens: the
    moves committed meanwhile are merged into the pass after it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gate = asyncio.Event()
        self.gate.set()

    async def _table_turn(self, target: Target) -> None:
        if target.role is Role.TABLE:
            await self.gate.wait()
        await super()._table_turn(target)


class Pictures:
    """A publisher over the fake Bot API, with a table renderer that keeps what it drew."""

    def __init__(self, db: Database) -> None:
        self.api = Uploads()
        self.out = Outgoing(self.api, Limits.off())
        self.clocks = Clocks()
        self.drawn: list[MatchView] = []
        people = People(db)
        self.publisher = GatedPublisher(
            db,
            self.out,
            render_table=self.draw,
            render_scores=lambda *args: b"score sheet",
            people=people,
            settings=GroupSettings(db, people),
            inbox=Inbox(),
            clocks=self.clocks,
            table_interval=0,
        )

    def draw(self, view: MatchView, names: Sequence[str], lang: str) -> bytes:
        self.drawn.append(view)
        return f"table {len(self.drawn)}".encode()

    async def settle(self) -> None:
        await self.publisher.idle()
        await self.out.drain()


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "bot.sqlite3")
    async with database.transaction() as tx:
        await repo.upsert_chat(tx, GROUP)
        await repo.upsert_user(tx, MASHA, can_message=True)
        await repo.upsert_user(tx, OLEG, can_message=True)
    yield database
    await database.close()


@pytest.fixture
async def pictures(db: Database) -> AsyncIterator[Pictures]:
    made = Pictures(db)
    yield made
    await made.out.close()
    made.publisher.close()


async def moved(db: Database, game: GameRecord) -> GameRecord:
    """`game` after its first legal action, committed."""
    assert game.match is not None
    match = Match.from_json(game.match.to_json())
    match.apply(match.legal_actions()[0], match.turn)
    async with db.transaction() as tx:
        return await repo.save_game(tx, dataclasses.replace(game, match=match))


def table_view(game: GameRecord) -> MatchView:
    assert game.match is not None
    return game_messages.shown_view(game, game.match.view(None))


def warning(game: GameRecord, left: int) -> str:
    """The caption's last line while the turn's clock warns with `left` seconds."""
    assert game.match is not None and game.match.turn is not None
    name = game.seats[game.match.turn].name
    return t("table.time_warning", Lang.RU, name=name, s=left)


def warned_clock(game: GameRecord) -> TurnClock:
    """The clock of the game's turn, past its warning: it shows in the table's caption."""
    assert game.match is not None and game.match.turn is not None
    move = len(game.match.log)
    return TurnClock(game.id, move, game.match.turn, NOW + 60, 60, NOW + 45, warned=True)


async def test_a_run_of_merged_moves_draws_one_picture_per_picture_sent(
    db: Database, pictures: Pictures
) -> None:
    publisher = pictures.publisher
    game = await playing_game(db)
    before = perf.snapshot()
    runs: list[tuple[int, type[TelegramMethod[Any]]]] = [
        (5, SendPhoto),
        (3, EditMessageMedia),
        (4, EditMessageMedia),
    ]
    for run, (moves, method) in enumerate(runs, start=1):
        calls = len(pictures.api.calls)
        publisher.gate.clear()  # the table's worker waits its interval ...
        publisher.show(game)
        for _ in range(moves):  # ... while moves are committed
            game = await moved(db, game)
            publisher.show(game)
            publisher.show(game)  # shown twice (the press and the computer's turn)
        publisher.gate.set()
        await pictures.settle()
        # One picture for the run, of its last state; the states it skipped never drawn.
        assert len(pictures.drawn) == run and pictures.drawn[-1] == table_view(game)
        (table,) = pictures.api.tables_since(calls)
        assert isinstance(table, method) and pictures.api.uploads() == run
    # Shown again with nothing new on the table (a hand's change, a restart): not drawn.
    publisher.show(game)
    publisher.show_hand(game.id, 0)
    await pictures.settle()
    assert len(pictures.drawn) == len(runs) == pictures.api.uploads()
    grown = perf.since(before)
    assert grown["render.table"] == grown["sent.table"] == len(runs)


async def test_a_change_of_the_caption_alone_shows_the_uploaded_picture_again(
    db: Database, pictures: Pictures
) -> None:
    """The turn's clock in the caption ticks; the picture is not drawn nor uploaded again."""
    publisher, clocks = pictures.publisher, pictures.clocks
    game = await playing_game(db)
    before = perf.snapshot()
    publisher.show(game)
    await pictures.settle()
    assert pictures.api.uploads() == 1
    for round_no, upload in ((1, "file-1"), (2, "file-2")):
        clocks.turn = warned_clock(game)
        for left in (10, 9, 3):
            clocks.now = NOW + 60 - left
            calls = len(pictures.api.calls)
            publisher.show(game)
            await pictures.settle()
            (edit,) = pictures.api.tables_since(calls)
            assert isinstance(edit, EditMessageMedia)
            assert edit.media.media == upload  # the picture shown, by its file id
            assert (edit.media.caption or "").endswith(warning(game, left))
        assert len(pictures.drawn) == round_no
        game = await moved(db, game)  # the table changes: a new picture, uploaded
        calls = len(pictures.api.calls)
        publisher.show(game)
        await pictures.settle()
        assert len(pictures.drawn) == round_no + 1
        (edit,) = pictures.api.tables_since(calls)
        assert isinstance(edit, EditMessageMedia) and not isinstance(edit.media.media, str)
    grown = perf.since(before)
    assert grown["render.table"] == grown["sent.table"] == pictures.api.uploads() == 3


async def test_after_a_restart_the_picture_shown_is_known_by_its_stored_file_id(
    db: Database, pictures: Pictures
) -> None:
    game = await playing_game(db)
    pictures.publisher.show(game)
    await pictures.settle()
    await pictures.publisher.stop()
    restarted = Pictures(db)  # nothing in memory: what it knows, it reads
    restarted.publisher.show(game)
    await restarted.settle()
    assert restarted.api.calls == [] and restarted.drawn == []  # nothing changed
    restarted.clocks.turn = warned_clock(game)
    restarted.clocks.now = NOW + 50
    restarted.publisher.show(game)
    await restarted.settle()
    (edit,) = restarted.api.tables_since(0)
    assert isinstance(edit, EditMessageMedia) and edit.media.media == "file-1"
    assert restarted.drawn == []
    await restarted.out.close()
    restarted.publisher.close()


async def started_against_a_computer(db: Database) -> Setup:
    """Алиса against a computer at Козёл, a few moves in, at her turn, all shown."""
    setup = make(db, FakeTime(), seed=3)
    await setup.app.resume()
    await start_against_a_computer(setup)
    for _ in range(PRESSES):
        await quiet(setup)
        game = await setup.game()
        assert game.match is not None and game.status is GameStatus.PLAYING
        await setup.run(setup.app.playing.play(*greedy_press(game)))
    await quiet(setup)
    return setup


async def stopped(setup: Setup, *, stop: bool) -> None:
    """The bot stops as `python -m bot` does (`stop`), or is killed after its last edit."""
    await setup.app.publisher.idle()
    await setup.out.drain()
    if stop:
        await setup.app.publisher.stop()
    await setup.close()


@pytest.mark.parametrize("stop", [True, False], ids=["stopped", "killed"])
async def test_a_restart_after_a_stop_re_checks_the_messages_and_edits_none(
    tmp_path: Path, stop: bool
) -> None:
    """Killed, the bot had not written what its edits showed: those messages are edited
    once more. Stopped, it had: nothing is sent."""
    db = await open_database(tmp_path / "restart.sqlite3")
    try:
        first = await started_against_a_computer(db)
        game = await first.game()
        assert any(isinstance(call, EditMessageMedia) for call in first.telegram.calls)
        await stopped(first, stop=stop)
        again = make(db, FakeTime(), seed=3)
        before = perf.snapshot()
        assert await again.app.resume() == 1
        await quiet(again)
        assert await again.game() == game  # nobody moved
        edits = [call for call in again.telegram.calls if isinstance(call, EDITS)]
        grown = perf.since(before)
        if stop:
            assert edits == [] and "render.table" not in grown, again.telegram.calls
        else:
            assert any(isinstance(call, EditMessageMedia) for call in edits)
            assert any(isinstance(call, EditMessageText) for call in edits)
        await stopped(again, stop=True)
    finally:
        await db.close()
