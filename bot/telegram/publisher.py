"""Keeps the messages that show a game in step with its committed state.

A use case commits a change and its effects call `show(game)`; the publisher then
brings every message of the game up to date: the lobby, the group's table picture and
each person's hand. Each message has its own worker (`bot.infra.workers.Resync`) that always
reads the newest committed state, so a burst of moves becomes one edit (the group's
table is paced to Telegram's 20 messages a minute and simply skips the states it had no
time to show), and a hand never waits for the group's pacing.

What a message shows is hashed (`digest`); a worker sends nothing when the digest is
unchanged. The table's digest is computed from the state, not the picture
(`game_messages.table_face`), so a picture is drawn only when it is about to be sent:
after the worker merged a burst of moves and waited its `table_interval`, and after the
change check (issue 16). It is drawn in a process of its own (`bot.infra.render_pool`); a
picture shown again (only the caption changed, a table sent anew that shows what the
last one showed) goes by the `file_id` Telegram gave it, not uploaded again.

Message records (issue 16): a message's record (its chat, id, picture and digest) is
written when a message is sent or forgotten, not at each edit; the digests live in
memory. The first edit after a record was written writes it once more with no digest
("not known"), so after a crash such a message is simply edited once more (Telegram's
"message is not modified" is success); `stop` writes every digest held in memory, as
does the end of a game, so a restart after a stop is quiet: every message is re-checked
and only what really changed is edited.

What Telegram refuses is told to the inbox, and a use case takes it from there: a
person who blocked the bot (`PersonUnreachable`), a group that refuses it
(`GroupLost`), a group that became a supergroup (`ChatMigrated`; its use case reloads
and shows the moved games again). The announcements are sent by `bot.telegram.announcements`.
The table is pinned while its match runs and sent anew at a round's start when the
group's newer messages buried it (issue 15, item 5: `bot.telegram.table_pin`).

Memory is bounded: per game, the newest record, its messages with their digests and
the moment its table was last drawn are kept for at most `CACHED_GAMES` games (least
recently used first out; anything forgotten is read again from the database), and
forgotten at once when a game ends and its messages are up to date; chat titles for at
most `CACHED_TITLES` chats. The workers hold one entry per message with a change not
yet shown, and go when it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
)
from aiogram.methods import DeleteMessage, EditMessageMedia, EditMessageText, SendPhoto
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
)

from bot.app.group_settings import GroupSettings
from bot.app.inbox import GroupLost, Inbox, PersonUnreachable
from bot.app.people import People
from bot.infra import perf
from bot.infra.lru import Lru
from bot.infra.render_pool import RenderPool
from bot.infra.workers import Resync
from bot.telegram import delivery, game_messages, presenter
from bot.telegram.announcements import Announcer, ScoresRenderer
from bot.telegram.callbacks import HandMenu
from bot.telegram.delivery import (
    TELEGRAM_FAILURES,
    digest_of,
    group_refuses,
    markup_data,
    seat_names,
    send_or_edit,
    tell_migration,
)
from bot.telegram.outgoing import Outgoing
from bot.telegram.table_pin import GroupTail, Pins, is_supergroup
from domino.tiles import Tile
from domino.views import MatchView
from storage import repo
from storage.db import Database
from storage.records import GameRecord, GameStatus, MessageRecord, Role

if TYPE_CHECKING:
    from bot.app.timers import TurnClock

log = logging.getLogger(__name__)

TableRenderer = Callable[[MatchView, Sequence[str], str], bytes]
"""`render.render_table`: the public view, each seat's name, the group's language."""

# Bounds of the caches (see the module's docstring). A game is a few kB here; a group
# rarely runs more than one game at a time, so 1000 is far more than the games active
# at once on one bot, and a forgotten one is only read again.
CACHED_GAMES = 1000
CACHED_TITLES = 1000
# Seconds a round's first table picture waits at most for the round's end to be announced.
ANNOUNCED_WAIT = 10.0


class TurnClocks(Protocol):
    """The turns' clocks, shown on the hands and the table: `bot.app.timers.TurnTimers`."""

    def clock_of(self, game_id: int) -> TurnClock | None: ...

    def clock(self) -> float: ...


@dataclass(frozen=True, slots=True)
class Target:
    """One message of a game: its lobby, its table, or the hand of `seat`."""

    game_id: int
    role: Role
    seat: int = -1

    def __str__(self) -> str:
        return f"game {self.game_id}: the {self.role.value} message"


class Publisher:
    """Brings the lobby, table and hand messages of games up to date, one worker each;
    the announcements through its `announcer`."""

    def __init__(
        self,
        db: Database,
        out: Outgoing,
        *,
        render_table: TableRenderer,
        render_scores: ScoresRenderer,
        people: People,
        settings: GroupSettings,
        inbox: Inbox,
        clocks: TurnClocks | None = None,
        table_interval: float = 3.0,
        tail: GroupTail | None = None,
        painter: RenderPool | None = None,
    ) -> None:
        self.db = db
        self.out = out
        self.render_table = render_table
        self.people = people  # each person's language
        self.settings = settings  # each group's language
        self.inbox = inbox  # where a person or a group Telegram refuses is told
        self.clocks = clocks
        # The group sees at most one new table picture per game this often: Telegram lets a
        # group take 20 messages a minute, and a picture costs ~10 ms to draw.
        self.table_interval = table_interval
        self._painter = painter or RenderPool()
        self.announcer = Announcer(
            db,
            out,
            painter=self._painter,
            render_scores=render_scores,
            settings=settings,
            inbox=inbox,
        )
        self._workers: Resync[Target] = Resync(
            self._sync_safely, describe=str, pace=self._table_turn, settled=self._evict_if_done
        )
        # Caches of what the database holds, so a move costs no re-reading: the newest
        # record of each game (handed over by `show`), its messages, chat titles.
        self._games: Lru[int, GameRecord] = Lru(CACHED_GAMES)
        self._messages: Lru[int, dict[tuple[Role, int], MessageRecord]] = Lru(CACHED_GAMES)
        # Hands a press found behind their game: their digest is not trusted once.
        self._redraw: set[Target] = set()
        # Messages sent whose record the database refused for the moment (one a message).
        self._unsaved: dict[Target, MessageRecord] = {}
        # The digest each message's stored record holds ("" once an edit went past it).
        self._stored: Lru[int, dict[tuple[Role, int], str]] = Lru(CACHED_GAMES)
        # The last table picture uploaded per game: its face and Telegram's file id.
        self._pictures: Lru[int, tuple[str, str]] = Lru(CACHED_GAMES)
        self._saving: set[asyncio.Task[None]] = set()  # an ended game's digests written
        self._titles: Lru[int, str] = Lru(CACHED_TITLES)
        self._table_shown: Lru[int, float] = Lru(CACHED_GAMES)
        # The live table stays findable (issue 15, item 5): pinned while the match runs,
        # sent anew at a round's start when the group's newer messages (`tail`) buried it.
        self.tail = tail or GroupTail()
        self.pins = Pins(out)
        self._table_rounds: Lru[int, int] = Lru(CACHED_GAMES)  # the round each table shows
        self._pinned: Lru[int, int] = Lru(CACHED_GAMES)  # the table message pinned, by game
        self._unpinned: Lru[int, bool] = Lru(CACHED_GAMES)  # ended games' tables unpinned

    # --- scheduling -------------------------------------------------------------------

    def show(self, game: GameRecord, *, group: bool = True) -> None:
        """`game` was just committed: bring all of its messages up to date (with `group`
        False only the hands: the group cannot be written to any more)."""
        previous = self._games.get(game.id)
        if previous is not None and previous.version > game.version:
            return  # an older record arriving late; the newer one is scheduled already
        self._games[game.id] = game
        if not group:
            for seat in game.seats:
                self._workers.mark(Target(game.id, Role.HAND, seat.seat))
            return
        if game.status is GameStatus.LOBBY:
            self._workers.mark(Target(game.id, Role.LOBBY))
            return
        if previous is None or previous.status is GameStatus.LOBBY:
            self._workers.mark(Target(game.id, Role.LOBBY))  # once: "the game has started"
        self._workers.mark(Target(game.id, Role.TABLE))
        for seat in game.seats:
            self._workers.mark(Target(game.id, Role.HAND, seat.seat))

    def show_hand(self, game_id: int, seat: int) -> None:
        self._workers.mark(Target(game_id, Role.HAND, seat))

    def redraw_hand(self, game_id: int, seat: int) -> None:
        """A press found this hand behind its game: its message may not show what was last
        sent to it (an edit from an instance deposed meanwhile landed after the new
        leader's), so it is edited again whatever its digest says."""
        target = Target(game_id, Role.HAND, seat)
        self._redraw.add(target)
        self._workers.mark(target)

    def announce(self) -> None:
        """Announcements were committed: send them soon (see `bot.telegram.announcements`)."""
        self.announcer.announce()

    async def flush_outbox(self) -> bool:
        """Send every announcement still owed now (`Announcer.flush_outbox`)."""
        return await self.announcer.flush_outbox()

    def shown_version(self, game_id: int) -> int | None:
        """The version of the newest record of the game handed to `show`, if cached."""
        game = self._games.get(game_id)
        return None if game is None else game.version

    def reload(self, game_id: int) -> None:
        """Forget what is cached about a game that changed behind our back (a migrated chat)."""
        self._games.pop(game_id)
        self._messages.pop(game_id)
        self._stored.pop(game_id)
        self._table_rounds.pop(game_id)
        self._pinned.pop(game_id)

    async def idle(self) -> None:
        """Wait until every message and announcement is up to date (tests, shutdown)."""
        await asyncio.gather(self._workers.idle(), self.announcer.idle())
        while self._saving:
            await asyncio.gather(*self._saving, return_exceptions=True)

    async def stop(self) -> None:
        """At the bot's stop, after `idle()`: every digest held in memory is written (so
        the restart edits nothing that did not change) and the render pool shut down."""
        try:
            await self._save_digests(list(self._messages.keys()))
        except Exception as exc:  # the next start edits those messages once more
            log.warning("the messages' digests were not saved: %s", exc)
        await self._painter.close()

    def close(self) -> None:
        """Release the drawing thread (after `idle()`)."""
        self._painter.close_thread()

    async def _sync_safely(self, target: Target) -> None:
        """One pass of a message's worker: what Telegram refuses is told to the inbox."""
        try:
            await self._sync(target)
        except TelegramForbiddenError as exc:
            await self._forbidden(target, exc)
        except TelegramMigrateToChat as exc:
            # Shown again in the supergroup by the move's use case (`reload`, `show`).
            tell_migration(self.inbox, target.game_id, await self._game(target.game_id), exc)
        except TELEGRAM_FAILURES as exc:
            # A message left behind the game may hide someone's turn from them for good,
            # so it is brought up to date again after a pause.
            log.warning("%s is tried again in %.0f s: %s", target, delivery.TELEGRAM_PAUSE, exc)
            self._workers.again(target, after=delivery.TELEGRAM_PAUSE)
        except TelegramBadRequest as exc:
            if target.role is Role.HAND or not group_refuses(exc):
                raise
            await self._forbidden(target, exc)

    def _evict_if_done(self, target: Target) -> None:
        """Forget an ended game once its last message is up to date (bounded memory)."""
        game = self._games.get(target.game_id)
        if game is None or game.status.active:
            return
        if any(self._workers.busy(other) for other in targets_of(game)):
            return
        self._games.pop(game.id)
        if self._unsaved_digests(game.id):
            task = asyncio.create_task(self._save_then_forget(game.id))
            self._saving.add(task)
            task.add_done_callback(self._saving.discard)
        else:
            self._messages.pop(game.id)
            self._stored.pop(game.id)
        self._table_shown.pop(game.id)
        self._table_rounds.pop(game.id)
        self._pictures.pop(game.id)

    def _unsaved_digests(self, game_id: int) -> list[MessageRecord]:
        """The game's records in memory whose digest the database does not hold."""
        messages = self._messages.get(game_id) or {}
        stored = self._stored.get(game_id) or {}
        return [
            record for key, record in messages.items() if stored.get(key) != (record.digest or "")
        ]

    async def _save_digests(self, game_ids: Sequence[int]) -> None:
        """Write the digests held in memory for `game_ids` (one transaction)."""
        owed = [record for game_id in game_ids for record in self._unsaved_digests(game_id)]
        if not owed:
            return
        async with self.db.transaction() as tx:
            for record in owed:
                await repo.put_message(tx, record)
        for record in owed:
            stored = self._stored.get(record.game_id)
            if stored is not None:
                stored[(record.role, record.seat)] = record.digest or ""

    async def _save_then_forget(self, game_id: int) -> None:
        """An ended game's messages are up to date: their digests are written, then
        forgotten (a restart soon after edits none of them again)."""
        try:
            await self._save_digests([game_id])
        except Exception as exc:  # a restart edits them once more, nothing else
            log.info("game %s: the messages' digests were not saved: %s", game_id, exc)
        if game_id not in self._games:  # not shown again meanwhile
            self._messages.pop(game_id)
            self._stored.pop(game_id)

    async def _table_turn(self, target: Target) -> None:
        """Wait until this game's table may show a new picture (`table_interval`)."""
        if target.role is not Role.TABLE:
            return
        shown = self._table_shown.get(target.game_id)
        if shown is not None:
            wait = shown + self.table_interval - asyncio.get_running_loop().time()
            if wait > 0:
                await asyncio.sleep(wait)

    async def _forbidden(
        self, target: Target, exc: TelegramForbiddenError | TelegramBadRequest
    ) -> None:
        """Telegram refuses the group (bot removed, no right to write, no such chat): the
        game cannot go on there."""
        game = await self._game(target.game_id)
        if game is None:
            return
        log.warning(
            "chat %s game %s: the group refuses the bot: %s", game.chat_id, game.id, exc.message
        )
        self.inbox.emit(GroupLost(game.chat_id))

    # --- one message ------------------------------------------------------------------

    # Loads that fill a cache keep what another worker put there while they waited: the
    # database may answer two workers' reads in any order (PostgreSQL's pool), and an
    # older read must not wipe out a message recorded since.

    async def _game(self, game_id: int) -> GameRecord | None:
        game = self._games.get(game_id)
        if game is None:
            loaded = await repo.load_game(self.db, game_id)
            game = self._games.get(game_id) or loaded
            if game is not None:
                self._games[game_id] = game
        return game

    async def _messages_of(self, game_id: int) -> dict[tuple[Role, int], MessageRecord]:
        messages = self._messages.get(game_id)
        if messages is None:
            loaded = await repo.game_messages(self.db, game_id)
            messages = self._messages.get(game_id)
            if messages is None:
                messages = self._messages[game_id] = loaded
                self._stored[game_id] = {key: r.digest or "" for key, r in loaded.items()}
        return messages

    async def _sync(self, target: Target) -> None:
        # Kept until the hand's pass went through: a pass the database refuses redraws
        # when it is tried again.
        redraw = target in self._redraw
        unsaved = self._unsaved.get(target)
        if unsaved is not None:  # sent, but its record was refused by the database
            await repo.put_message(self.db, unsaved)
            if self._unsaved.get(target) is unsaved:
                del self._unsaved[target]
            stored = self._stored.get(target.game_id)
            if stored is not None:
                stored[(target.role, target.seat)] = unsaved.digest or ""
        game = await self._game(target.game_id)
        if game is None:
            self._redraw.discard(target)
            return
        messages = await self._messages_of(game.id)
        existing = messages.get((target.role, target.seat))
        if target.role is Role.LOBBY:
            await self._sync_lobby(game, existing)
        elif target.role is Role.TABLE:
            await self._sync_table(game, existing)
        else:
            if redraw and existing is not None:
                existing = dataclasses.replace(existing, digest=None)
            await self._sync_hand(game, target.seat, existing, messages.get((Role.TABLE, -1)))
            self._redraw.discard(target)

    async def _sync_lobby(self, game: GameRecord, existing: MessageRecord | None) -> None:
        lang = await self.settings.language_of(game)
        if game.status is GameStatus.LOBBY:
            timer = self.settings.of(game.chat_id).turn_timer
            text = presenter.lobby_text(game, lang, timer)
            markup: InlineKeyboardMarkup | None = presenter.lobby_keyboard(game, lang)
        elif existing is None:
            return  # the lobby message is only ever edited after the lobby
        else:
            text = presenter.lobby_closed_text(game, lang)
            markup = None
        await self._show_text(game, Role.LOBBY, -1, game.chat_id, text, markup, existing)

    async def _sync_table(self, game: GameRecord, existing: MessageRecord | None) -> None:
        if game.match is None:
            return
        lang = await self.settings.language_of(game)
        view = game_messages.shown_view(game, game.match.view(None))
        buried = existing is not None and await self._buried_at_round_start(
            game, existing, view.round_no
        )
        names = seat_names(game, lang)
        clock, now = self._clock_of(game)
        caption = game_messages.table_caption(game, view, names, lang, clock, now)
        # Whether it changed is told by the state: the picture is drawn only to be sent.
        face = game_messages.table_face(view, names, lang.value)
        digest = table_digest(face, caption)
        target = Target(game.id, Role.TABLE)
        if existing is not None and buried:
            photo = await self._table_photo(game, view, names, lang.value, face, existing)
            await self._send_table(game, photo, caption, face, digest)
            self._table_rounds[game.id] = view.round_no
            await self._delete_table(game, existing.message_id)
            return
        if existing is not None and existing.digest == digest:
            self._table_rounds[game.id] = view.round_no
            if not game.status.active and game.id in self._pinned:
                await self._unpin_table(game, existing.message_id)
            return
        photo = await self._table_photo(game, view, names, lang.value, face, existing)
        if existing is None:
            await self._send_table(game, photo, caption, face, digest)
            self._table_rounds[game.id] = view.round_no
            return
        try:
            edited = await self.out.call(
                game.chat_id,
                EditMessageMedia(
                    chat_id=game.chat_id,
                    message_id=existing.message_id,
                    media=InputMediaPhoto(media=photo, caption=caption, parse_mode="HTML"),
                ),
                merge_key=("table", game.chat_id, existing.message_id),
            )
        except TelegramBadRequest as exc:
            if "message to edit not found" not in exc.message:
                raise
            # Deleted, or left behind in the basic group a supergroup replaced: a new one.
            await self._forget(target)
            self._workers.mark(target)
            return
        file_id = self._shown_photo(game.id, face, photo, edited) or existing.file_id
        await self._remember(target, game.chat_id, existing.message_id, file_id, digest)
        self._table_rounds[game.id] = view.round_no
        if not game.status.active:
            await self._unpin_table(game, existing.message_id)

    async def _table_photo(
        self,
        game: GameRecord,
        view: MatchView,
        names: Sequence[str],
        lang: str,
        face: str,
        existing: MessageRecord | None,
    ) -> str | BufferedInputFile:
        """The table picture about to be sent: the `file_id` of the same picture shown
        before (only the caption changed, or the table is sent anew as it was), else
        drawn now (in the render pool) for upload."""
        self._table_shown[game.id] = asyncio.get_running_loop().time()
        known = self._pictures.get(game.id)
        if known is not None and known[0] == face:
            return known[1]
        if existing is not None and existing.file_id and shows_face(existing.digest, face):
            return existing.file_id
        perf.count("render.table")
        picture = await self._painter.draw(self.render_table, view, names, lang)
        return BufferedInputFile(picture, filename=f"table-{game.id}.png")

    def _shown_photo(
        self, game_id: int, face: str, photo: str | BufferedInputFile, answer: Message | bool
    ) -> str | None:
        """Telegram took the table's picture: its file id, kept for showing it again."""
        if isinstance(photo, str):
            return photo
        perf.count("sent.table")
        file_id = photo_id(answer)
        if file_id is not None:
            self._pictures[game_id] = (face, file_id)
        return file_id

    async def _buried_at_round_start(
        self, game: GameRecord, table: MessageRecord, round_no: int
    ) -> bool:
        """The first picture of a new round, and the group has buried the table under
        newer messages (`bot.telegram.table_pin.SINK_DEPTH`): it is sent anew at the bottom. At
        most once a round; not after a restart until the table has shown a round."""
        shown = self._table_rounds.get(game.id)
        if game.status is not GameStatus.PLAYING or shown is None or round_no <= shown:
            return False
        if not self.tail.sunk(game.chat_id, table.message_id) and not is_supergroup(game.chat_id):
            return False
        # The last round's announcement goes first, so that a table sent anew comes below
        # it (in a basic group too: it came above, and the round's end buried the live
        # table at once). In a supergroup its id also shows the chatter a bot in privacy
        # mode never sees.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.announcer.idle(), ANNOUNCED_WAIT)
        latest = self._games.get(game.id) or game
        if latest.status is not GameStatus.PLAYING:
            # The match ended meanwhile (its announcement just went out): a table sent anew
            # now would come below the match's last word and its «🔁 Ещё партию».
            return False
        return self.tail.sunk(game.chat_id, table.message_id)

    async def _send_table(
        self,
        game: GameRecord,
        photo: str | BufferedInputFile,
        caption: str,
        face: str,
        digest: str,
    ) -> None:
        """A new table message at the bottom of the group, pinned while the match runs."""
        sent: Message = await self.out.call(
            game.chat_id,
            SendPhoto(chat_id=game.chat_id, photo=photo, caption=caption, parse_mode="HTML"),
        )
        target = Target(game.id, Role.TABLE)
        file_id = self._shown_photo(game.id, face, photo, sent)
        await self._remember(target, game.chat_id, sent.message_id, file_id, digest, new=True)
        # A new table message (the first, one sent anew at a round's start or in a
        # supergroup or after a deletion): the hands already shown must have their
        # «table» button lead to it (a game that ends meanwhile shows them no more).
        messages = await self._messages_of(game.id)
        for seat in game.seats:
            if (Role.HAND, seat.seat) in messages:
                self._workers.mark(Target(game.id, Role.HAND, seat.seat))
        if game.status is GameStatus.PLAYING and await self.pins.pin(game.chat_id, sent.message_id):
            self._pinned[game.id] = sent.message_id

    async def _delete_table(self, game: GameRecord, message_id: int) -> None:
        """The table message a new one replaced goes (and its pin with it)."""
        try:
            await self.out.call(
                game.chat_id, DeleteMessage(chat_id=game.chat_id, message_id=message_id)
            )
        except (TelegramBadRequest, *TELEGRAM_FAILURES) as exc:
            # Too old to delete, or deleted already: it stays, the new one is below it.
            log.info(
                "chat %s game %s: the old table %s stays: %s",
                game.chat_id,
                game.id,
                message_id,
                exc,
            )

    async def _unpin_table(self, game: GameRecord, message_id: int) -> None:
        """The match is over: its table is unpinned (once)."""
        if game.id in self._unpinned:
            return
        self._unpinned[game.id] = True
        self._pinned.pop(game.id)
        await self.pins.unpin(game.chat_id, message_id)

    async def _sync_hand(
        self,
        game: GameRecord,
        seat: int,
        existing: MessageRecord | None,
        table: MessageRecord | None,
        *,
        choosing: Tile | HandMenu | None = None,
    ) -> None:
        if game.match is None or seat >= len(game.seats):
            return
        person = game.seats[seat]
        if person.user_id is None or person.left:
            return
        lang = await self.people.language_of(person.user_id)
        clock, now = self._clock_of(game)
        shown = game_messages.hand_message(
            game,
            seat,
            lang,
            names=seat_names(game, lang),
            chat_title=await self._chat_title(game.chat_id),
            clock=clock,
            now=now,
            table_message_id=table.message_id if table else None,
            choosing=choosing,
            hints=self.settings.hints_allowed(game.chat_id),
        )
        if shown is not None:
            text, markup = shown
            await self._show_text(game, Role.HAND, seat, person.user_id, text, markup, existing)
            shown_now = await self._messages_of(game.id)
            if table is None and (Role.TABLE, -1) in shown_now and (Role.HAND, seat) in shown_now:
                # The table was sent while this hand was: shown again, with its link.
                self._workers.mark(Target(game.id, Role.HAND, seat))

    def _clock_of(self, game: GameRecord) -> tuple[TurnClock | None, float]:
        """The clock of the game's turn, if any, and the time now by the clocks."""
        if self.clocks is None:
            return None, 0.0
        return self.clocks.clock_of(game.id), self.clocks.clock()

    async def show_end_choice(self, game: GameRecord, seat: int, tile: Tile | HandMenu) -> None:
        """The tile fits several ends: the hand message asks on which end to lay it; or
        the hand shows a menu of moves (`HandMenu`) instead of its tiles."""
        messages = await self._messages_of(game.id)
        await self._sync_hand(
            game,
            seat,
            messages.get((Role.HAND, seat)),
            messages.get((Role.TABLE, -1)),
            choosing=tile,
        )

    async def close_hand(self, game: GameRecord, seat: int, user_id: int, text: str) -> None:
        """The person left the seat: their hand message keeps only `text`, no buttons."""
        messages = await self._messages_of(game.id)
        existing = messages.get((Role.HAND, seat))
        if existing is not None:
            try:
                await self.out.call(
                    user_id,
                    EditMessageText(
                        chat_id=user_id,
                        message_id=existing.message_id,
                        text=text,
                        reply_markup=None,
                    ),
                    merge_key=("text", user_id, existing.message_id),
                )
            except (TelegramBadRequest, TelegramForbiddenError) as exc:
                log.info(
                    "chat %s game %s: could not close the hand of seat %s: %s",
                    game.chat_id,
                    game.id,
                    seat,
                    exc,
                )
        await self.forget_hand(game.id, seat)

    async def _show_text(
        self,
        game: GameRecord,
        role: Role,
        seat: int,
        chat_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
        existing: MessageRecord | None,
    ) -> None:
        digest = digest_of(text, markup_data(markup))
        if existing is not None and existing.digest == digest:
            return
        target = Target(game.id, role, seat)
        # Taken before the call: its refusal may come back after the person's /start.
        mark = self.people.reachable_mark(chat_id)
        try:
            message_id = await send_or_edit(
                self.out, chat_id, existing.message_id if existing else None, text, markup
            )
        except TelegramForbiddenError:
            if chat_id < 0:
                raise
            self.inbox.emit(PersonUnreachable(game.id, chat_id, mark))
            return
        except TelegramBadRequest as exc:
            if existing is None or "message to edit not found" not in exc.message:
                raise
            # Deleted by someone: forget it, the next pass sends a fresh one.
            await self._forget(target)
            self._workers.mark(target)
            return
        await self._remember(
            target,
            chat_id,
            message_id,
            None,
            digest,
            new=existing is None or existing.message_id != message_id,
        )

    async def _remember(
        self,
        target: Target,
        chat_id: int,
        message_id: int,
        file_id: str | None,
        digest: str,
        *,
        new: bool = False,
    ) -> None:
        """Keep which message shows `target` and what it shows now; stored when the
        message is `new`, and at the first edit after that with no digest (issue 16:
        edits are not written; see the module's docstring)."""
        key = (target.role, target.seat)
        record = MessageRecord(
            target.game_id, target.role, target.seat, chat_id, message_id, file_id, digest
        )
        # In memory first: if the database refuses the write for the moment (locked,
        # full), the next pass edits this message instead of sending a second one, and
        # writes the record before anything else (`_sync`).
        (await self._messages_of(target.game_id))[key] = record
        stored = self._stored.get(target.game_id)
        if stored is None:
            stored = self._stored[target.game_id] = {}
        if not new and stored.get(key) == "":
            return  # the stored record says its digest is not known: true still
        written = record if new else dataclasses.replace(record, digest="")
        self._unsaved[target] = written
        await repo.put_message(self.db, written)
        if self._unsaved.get(target) is written:
            del self._unsaved[target]
        stored[key] = written.digest or ""

    async def forget_hand(self, game_id: int, seat: int) -> None:
        await self._forget(Target(game_id, Role.HAND, seat))

    async def _forget(self, target: Target) -> None:
        await repo.forget_message(self.db, target.game_id, target.role, target.seat)
        (await self._messages_of(target.game_id)).pop((target.role, target.seat), None)
        stored = self._stored.get(target.game_id)
        if stored is not None:
            stored.pop((target.role, target.seat), None)

    async def _chat_title(self, chat_id: int) -> str:
        title = self._titles.get(chat_id)
        if title is None:
            chat = await repo.get_chat(self.db, chat_id)
            title = self._titles[chat_id] = chat.title if chat and chat.title else "?"
        return title


def targets_of(game: GameRecord) -> list[Target]:
    """Every message a game may have."""
    seats = [Target(game.id, Role.HAND, seat.seat) for seat in game.seats]
    return [Target(game.id, Role.LOBBY), Target(game.id, Role.TABLE), *seats]


def table_digest(face: str, caption: str) -> str:
    """What a table message shows: its picture's face (`game_messages.table_face`) and
    its caption, hashed; the face stays readable in it (`shows_face`)."""
    return f"{face}.{digest_of(caption)}"


def shows_face(digest: str | None, face: str) -> bool:
    """Whether a table message of `digest` shows the picture of `face`."""
    return digest is not None and digest.partition(".")[0] == face


def photo_id(answer: Message | bool) -> str | None:
    """The file id of the picture Telegram answered with, if it answered with one."""
    if isinstance(answer, Message) and answer.photo:
        return answer.photo[-1].file_id
    return None
