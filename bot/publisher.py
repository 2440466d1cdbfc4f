"""Keeps the messages that show a game in step with its committed state.

The service commits a change and calls `touch(game_id)`; the publisher then brings
every message of the game up to date: the lobby, the group's table picture and each
person's hand. Each message has its own worker that always reads the newest
committed state, so a burst of moves becomes one edit (the group's table is paced to
Telegram's 20 messages a minute and simply skips the states it had no time to show),
and a hand never waits for the group's pacing.

What a message shows is hashed (`digest`, stored with its id); a worker sends
nothing when the digest is unchanged, which is what makes a restart quiet: every
message is re-checked and only what really changed is edited.

Announcements (who went out, рыба, the score sheet, the козёл) are rows of the
outbox, written in the same transaction as the move that caused them and marked
sent once Telegram has them (`flush_outbox`). They are delivered at least once: a
repeat is better than a loss (issue 11, item 10). The window in which a crash repeats
one is as narrow as it can be without giving up that: each row is marked in a
transaction of its own, by the chat's queue worker right after Telegram's answer
(`Outgoing.call(on_sent=...)`), before that worker or this one does anything else.
A SIGKILL between Telegram taking the message and that commit still sends it again
after the restart. Every announcement logs one "sending announcement <id>" line per
attempt and one "announcement <id> ... sent" line once marked: an id with two
"sending" lines across restarts is a repeat (or a retry after a failure).

Memory is bounded: per game, the newest record, its messages with their digests and
the moment its table was last drawn are kept for at most `CACHED_GAMES` games (least
recently used first out; anything forgotten is read again from the database), and
forgotten at once when a game ends and its messages are up to date; chat titles for at
most `CACHED_TITLES` chats. The workers (`_workers`, `_dirty`) hold one entry per
message with a change not yet shown, and go when it is.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import html
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import (
    EditMessageMedia,
    EditMessageText,
    SendMessage,
    SendPhoto,
    TelegramMethod,
)
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
)

from bot import presenter
from bot.i18n import Lang, t
from bot.outgoing import Outgoing
from bot.timers import TurnTimers
from domino.actions import Drew
from domino.tiles import Tile
from domino.views import MatchView
from storage import repo
from storage.db import Database, is_transient
from storage.records import Ending, GameRecord, GameStatus, MessageRecord, Role

log = logging.getLogger(__name__)

TableRenderer = Callable[[MatchView, Sequence[str]], bytes]
ScoresRenderer = Callable[..., bytes]

# Bounds of the caches (see the module's docstring). A game is a few kB here; a group
# rarely runs more than one game at a time, so 1000 is far more than the games active
# at once on one bot, and a forgotten one is only read again.
CACHED_GAMES = 1000
CACHED_TITLES = 1000
# Seconds before work the database refused for the moment (locked, full) is tried again.
DATABASE_PAUSE = 1.0
# Seconds before a message Telegram failed to take (after the queue's retries) is tried again.
TELEGRAM_PAUSE = 3.0

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A mapping that keeps at most `size` entries: using one keeps it, the one used
    least recently goes when a new one comes."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def pop(self, key: K) -> None:
        self._items.pop(key, None)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)


@dataclass(frozen=True, slots=True)
class Target:
    game_id: int
    role: Role
    seat: int = -1


def digest_of(*parts: Any) -> str:
    blob = json.dumps(parts, ensure_ascii=False, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:32]


def markup_data(markup: InlineKeyboardMarkup | None) -> Any:
    return markup.model_dump(exclude_none=True) if markup else None


class Publisher:
    """Brings the lobby, table and hand messages of games up to date, one worker each."""

    def __init__(
        self,
        db: Database,
        out: Outgoing,
        *,
        render_table: TableRenderer,
        render_scores: ScoresRenderer,
        language_of: Callable[[int], Awaitable[Lang]],
        on_blocked: Callable[[int, int], Awaitable[None]],
        on_group_lost: Callable[[int], Awaitable[None]],
        table_interval: float = 3.0,
        timers: TurnTimers | None = None,
        on_migrated: Callable[[int, int], Awaitable[None]] | None = None,
    ) -> None:
        self.db = db
        # (old, new chat id): Telegram says the group became a supergroup before its
        # service message reached us; the games must follow it now (issue 7).
        self.on_migrated = on_migrated
        self.out = out
        self.timers = timers  # the turns' clocks, shown on the hands and the table (issue 7)
        self.render_table = render_table
        self.render_scores = render_scores
        self.language_of = language_of  # user id -> the language to write to them in
        self.on_blocked = on_blocked  # (game_id, user_id): a person we cannot write to
        self.on_group_lost = on_group_lost  # (chat_id): the bot can no longer write there
        # The group sees at most one new table picture per game this often: Telegram lets a
        # group take 20 messages a minute, and a picture costs ~10 ms to draw.
        self.table_interval = table_interval
        self._dirty: dict[Target, bool] = {}
        self._workers: dict[Target, asyncio.Task[None]] = {}
        self._idle = asyncio.Event()
        self._idle.set()
        # Caches of what the database holds, so a move costs no re-reading: the newest
        # record of each game (handed over by `touch`), its messages, chat titles.
        self._games: Lru[int, GameRecord] = Lru(CACHED_GAMES)
        self._messages: Lru[int, dict[tuple[Role, int], MessageRecord]] = Lru(CACHED_GAMES)
        # Messages sent whose record the database refused for the moment (one a message).
        self._unsaved: dict[Target, MessageRecord] = {}
        self._titles: Lru[int, str] = Lru(CACHED_TITLES)
        self._table_shown: Lru[int, float] = Lru(CACHED_GAMES)
        # Pictures are drawn on one thread of their own: the event loop keeps answering
        # presses meanwhile (Pillow lets go of the GIL while it encodes), and one thread
        # keeps the shared fonts safe.
        self._painter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")
        self._outbox_lock = asyncio.Lock()
        self._outbox_due = False
        self._outbox_worker: asyncio.Task[None] | None = None

    # --- scheduling -------------------------------------------------------------------

    def touch(self, game: GameRecord, *, group: bool = True) -> None:
        """`game` was just committed: bring all of its messages up to date (with `group`
        False only the hands: the group cannot be written to any more)."""
        previous = self._games.get(game.id)
        if previous is not None and previous.version > game.version:
            return  # an older record arriving late; the newer one is scheduled already
        self._games[game.id] = game
        if not group:
            for seat in game.seats:
                self._schedule(Target(game.id, Role.HAND, seat.seat))
            return
        if game.status is GameStatus.LOBBY:
            self._schedule(Target(game.id, Role.LOBBY))
            return
        if previous is None or previous.status is GameStatus.LOBBY:
            self._schedule(Target(game.id, Role.LOBBY))  # once: "the game has started"
        self._schedule(Target(game.id, Role.TABLE))
        for seat in game.seats:
            self._schedule(Target(game.id, Role.HAND, seat.seat))

    def touch_hand(self, game_id: int, seat: int) -> None:
        self._schedule(Target(game_id, Role.HAND, seat))

    def reload(self, game_id: int) -> None:
        """Forget what is cached about a game that changed behind our back (a migrated chat)."""
        self._games.pop(game_id)
        self._messages.pop(game_id)

    def _schedule(self, target: Target) -> None:
        self._dirty[target] = True
        worker = self._workers.get(target)
        if worker is None or worker.done():
            self._idle.clear()
            self._workers[target] = asyncio.create_task(self._work(target))

    async def _work(self, target: Target) -> None:
        try:
            while self._dirty.get(target):
                if target.role is Role.TABLE:
                    await self._table_turn(target.game_id)
                self._dirty[target] = False
                try:
                    await self._sync(target)
                except TelegramForbiddenError as exc:
                    await self._forbidden(target, exc)
                except TelegramMigrateToChat as exc:
                    if await self._migrated(target.game_id, exc):
                        self._dirty[target] = True  # again, in the supergroup
                except (TelegramServerError, TelegramNetworkError, TelegramRetryAfter) as exc:
                    # Telegram still failing after the queue's retries (an outage, a flood):
                    # a message left behind the game may hide someone's turn from them for
                    # good, so it is brought up to date again after a pause.
                    log.warning(
                        "game %s: the %s message is tried again in %.0f s: %s",
                        target.game_id,
                        target.role.value,
                        TELEGRAM_PAUSE,
                        exc,
                    )
                    await asyncio.sleep(TELEGRAM_PAUSE)
                    self._dirty[target] = True
                except TelegramBadRequest as exc:
                    if target.role is Role.HAND or not group_refuses(exc):
                        log.exception(
                            "game %s: could not update the %s message",
                            target.game_id,
                            target.role.value,
                        )
                    else:
                        await self._forbidden(target, exc)
                except Exception as exc:
                    if not is_transient(exc):
                        log.exception(
                            "game %s: could not update the %s message",
                            target.game_id,
                            target.role.value,
                        )
                        continue
                    # Locked by another process or a full disk: try again shortly.
                    log.warning(
                        "game %s: the %s message waits for the database: %s",
                        target.game_id,
                        target.role.value,
                        exc,
                    )
                    await asyncio.sleep(DATABASE_PAUSE)
                    self._dirty[target] = True
        finally:
            self._workers.pop(target, None)
            self._dirty.pop(target, None)
            self._evict_if_done(target.game_id)
            if not self._workers and self._outbox_worker is None:
                self._idle.set()

    def _evict_if_done(self, game_id: int) -> None:
        """Forget an ended game once its last message is up to date (bounded memory)."""
        game = self._games.get(game_id)
        if game is None or game.status.active:
            return
        if any(target.game_id == game_id for target in self._workers):
            return
        self._games.pop(game_id)
        self._messages.pop(game_id)
        self._table_shown.pop(game_id)

    async def _table_turn(self, game_id: int) -> None:
        """Wait until this game's table may show a new picture (`table_interval`)."""
        shown = self._table_shown.get(game_id)
        if shown is not None:
            wait = shown + self.table_interval - asyncio.get_running_loop().time()
            if wait > 0:
                await asyncio.sleep(wait)

    async def _migrated(self, game_id: int | None, exc: TelegramMigrateToChat) -> bool:
        """The group is a supergroup now: move its games there; True if they moved."""
        game = await self._game(game_id) if game_id is not None else None
        if game is None or self.on_migrated is None:
            log.warning("game %s: the group moved to %s", game_id, exc.migrate_to_chat_id)
            return False
        if game.chat_id == exc.migrate_to_chat_id:
            return True  # the service message came first: the game is there already
        log.info(
            "chat %s game %s: the group is now the supergroup %s",
            game.chat_id,
            game.id,
            exc.migrate_to_chat_id,
        )
        await self.on_migrated(game.chat_id, exc.migrate_to_chat_id)
        return True

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
        await self.on_group_lost(game.chat_id)

    async def idle(self) -> None:
        """Wait until every message is up to date (tests, shutdown)."""
        while not self._idle.is_set():
            await self._idle.wait()
            await asyncio.sleep(0)

    # --- one message ------------------------------------------------------------------

    async def _game(self, game_id: int) -> GameRecord | None:
        game = self._games.get(game_id)
        if game is None:
            game = await repo.load_game(self.db, game_id)
            if game is not None:
                self._games[game_id] = game
        return game

    async def _messages_of(self, game_id: int) -> dict[tuple[Role, int], MessageRecord]:
        messages = self._messages.get(game_id)
        if messages is None:
            messages = self._messages[game_id] = await repo.game_messages(self.db, game_id)
        return messages

    async def _sync(self, target: Target) -> None:
        unsaved = self._unsaved.get(target)
        if unsaved is not None:  # sent, but its record was refused by the database
            await repo.put_message(self.db, unsaved)
            if self._unsaved.get(target) is unsaved:
                del self._unsaved[target]
        game = await self._game(target.game_id)
        if game is None:
            return
        messages = await self._messages_of(game.id)
        existing = messages.get((target.role, target.seat))
        if target.role is Role.LOBBY:
            await self._sync_lobby(game, existing)
        elif target.role is Role.TABLE:
            await self._sync_table(game, existing)
        else:
            await self._sync_hand(game, target.seat, existing, messages.get((Role.TABLE, -1)))

    async def group_lang(self, game: GameRecord) -> Lang:
        chosen = self.timers.settings_of(game.chat_id).group_lang if self.timers else None
        if chosen is not None:
            return Lang(chosen)  # the group's own choice in /settings (issue 7)
        return await self.language_of(game.creator_id)

    async def _sync_lobby(self, game: GameRecord, existing: MessageRecord | None) -> None:
        lang = await self.group_lang(game)
        if game.status is GameStatus.LOBBY:
            text = presenter.lobby_text(game, lang)
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
        lang = await self.group_lang(game)
        view = game.match.view(None)
        names = seat_names(game, lang)
        if game.status is GameStatus.CANCELLED:
            caption = (
                presenter.table_caption(view, names, lang) + "\n\n" + t("table.cancelled", lang)
            )
        elif game.ending is Ending.SURRENDER:
            caption = (
                presenter.table_caption(view, names, lang) + "\n\n" + surrender_note(game, lang)
            )
        else:
            caption = presenter.table_caption(view, names, lang)
        caption += self._timer_text(game, lang, names=names)
        picture = await self._draw(self.render_table, view, names)
        self._table_shown[game.id] = asyncio.get_running_loop().time()
        digest = digest_of(hashlib.sha256(picture).hexdigest(), caption)
        if existing is not None and existing.digest == digest:
            return
        photo = BufferedInputFile(picture, filename=f"table-{game.id}.png")
        if existing is None:
            sent: Message = await self.out.call(
                game.chat_id,
                SendPhoto(chat_id=game.chat_id, photo=photo, caption=caption, parse_mode="HTML"),
            )
            await self._remember(game.id, Role.TABLE, -1, game.chat_id, sent, digest)
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
            await self._forget(game.id, Role.TABLE, -1)
            self._schedule(Target(game.id, Role.TABLE))
            return
        await self._remember(game.id, Role.TABLE, -1, game.chat_id, edited, digest, existing)

    async def _sync_hand(
        self,
        game: GameRecord,
        seat: int,
        existing: MessageRecord | None,
        table: MessageRecord | None,
        *,
        choosing: Tile | None = None,
    ) -> None:
        if game.match is None or seat >= len(game.seats):
            return
        person = game.seats[seat]
        if person.user_id is None or person.left:
            return
        lang = await self.language_of(person.user_id)
        view = game.match.view(seat)
        names = seat_names(game, lang)
        title = await self._chat_title(game.chat_id)
        text = presenter.hand_text(
            view, names, title, lang, drew=drawn_this_turn(view), away=person.away
        )
        text += self._timer_text(game, lang, seat)
        if game.status is GameStatus.CANCELLED:
            text += "\n\n" + t("hand.cancelled", lang)
        elif game.ending is Ending.SURRENDER:
            text += "\n\n" + surrender_note(game, lang)
        markup = None
        if game.status is GameStatus.PLAYING and person.away:
            markup = presenter.away_keyboard(view, game.id, lang)
        elif game.status is GameStatus.PLAYING:
            markup = presenter.hand_keyboard(
                view, game.id, len(game.match.log), lang, choosing=choosing
            )
        link = table_link(game.chat_id, table.message_id if table else None)
        if link:
            row = [InlineKeyboardButton(text=t("btn.table", lang), url=link)]
            markup = InlineKeyboardMarkup(
                inline_keyboard=[*(markup.inline_keyboard if markup else []), row]
            )
        await self._show_text(game, Role.HAND, seat, person.user_id, text, markup, existing)

    def _timer_text(
        self, game: GameRecord, lang: Lang, seat: int | None = None, names: Sequence[str] = ()
    ) -> str:
        """The turn timer's lines: for the hand of `seat`, or (None) for the table."""
        clock = self.timers.clock_of(game.id) if self.timers else None
        now = self.timers.clock() if self.timers else 0.0
        if seat is None:
            return presenter.table_timer_line(game, clock, now, names, lang)
        return presenter.hand_timer_lines(game, seat, clock, now, lang)

    async def show_end_choice(self, game: GameRecord, seat: int, tile: Tile) -> None:
        """The tile fits both ends: the hand message asks on which end to lay it."""
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
        try:
            if existing is None:
                sent: Message = await self.out.call(
                    chat_id,
                    SendMessage(chat_id=chat_id, text=text, reply_markup=markup, parse_mode="HTML"),
                )
                await self._remember(game.id, role, seat, chat_id, sent, digest)
                return
            await self.out.call(
                chat_id,
                EditMessageText(
                    chat_id=chat_id,
                    message_id=existing.message_id,
                    text=text,
                    reply_markup=markup,
                    parse_mode="HTML",
                ),
                merge_key=("text", chat_id, existing.message_id),
            )
            await self._remember(game.id, role, seat, chat_id, None, digest, existing)
        except TelegramForbiddenError:
            if chat_id > 0:
                await self.on_blocked(game.id, chat_id)
            else:
                raise
        except TelegramBadRequest as exc:
            if existing is not None and "message to edit not found" in exc.message:
                # Deleted by someone: forget it, the next pass sends a fresh one.
                await self._forget(game.id, role, seat)
                self._schedule(Target(game.id, role, seat))
                return
            raise

    async def _remember(
        self,
        game_id: int,
        role: Role,
        seat: int,
        chat_id: int,
        answer: Message | bool | None,
        digest: str,
        existing: MessageRecord | None = None,
    ) -> None:
        """Store which message shows (game, role, seat) and what it shows now."""
        file_id = existing.file_id if existing else None
        message_id = existing.message_id if existing else None
        if isinstance(answer, Message):
            message_id = answer.message_id
            if answer.photo:
                file_id = answer.photo[-1].file_id
        if message_id is None:
            raise RuntimeError(f"Telegram gave no message id for the {role.value} of {game_id}")
        record = MessageRecord(game_id, role, seat, chat_id, message_id, file_id, digest)
        # In memory first: if the database refuses the write for the moment (locked,
        # full), the next pass edits this message instead of sending a second one, and
        # writes the record before anything else (`_sync`).
        (await self._messages_of(game_id))[(role, seat)] = record
        target = Target(game_id, role, seat)
        self._unsaved[target] = record
        await repo.put_message(self.db, record)
        if self._unsaved.get(target) is record:
            del self._unsaved[target]

    async def forget_hand(self, game_id: int, seat: int) -> None:
        await self._forget(game_id, Role.HAND, seat)

    async def _forget(self, game_id: int, role: Role, seat: int) -> None:
        await repo.forget_message(self.db, game_id, role, seat)
        (await self._messages_of(game_id)).pop((role, seat), None)

    async def _chat_title(self, chat_id: int) -> str:
        title = self._titles.get(chat_id)
        if title is None:
            chat = await repo.get_chat(self.db, chat_id)
            title = self._titles[chat_id] = chat.title if chat and chat.title else "?"
        return title

    # --- announcements ----------------------------------------------------------------

    async def _draw(self, renderer: Callable[..., bytes], *args: Any) -> bytes:
        return await asyncio.get_running_loop().run_in_executor(self._painter, renderer, *args)

    def close(self) -> None:
        """Release the drawing thread (after `idle()`)."""
        self._painter.shutdown(wait=False, cancel_futures=True)

    def kick_outbox(self) -> None:
        """Announcements were committed: send them soon, in the background (never in the
        path of a button's answer)."""
        self._outbox_due = True
        if self._outbox_worker is None:
            self._idle.clear()
            self._outbox_worker = asyncio.create_task(self._outbox_work())

    async def _outbox_work(self) -> None:
        try:
            while self._outbox_due:
                self._outbox_due = False
                try:
                    if await self.flush_outbox():
                        # Nothing else may kick the outbox again (a match's last words).
                        await asyncio.sleep(TELEGRAM_PAUSE)
                        self._outbox_due = True
                except Exception as exc:
                    if not is_transient(exc):
                        log.exception("the outbox could not be flushed; it will be tried again")
                        continue
                    # Nothing else may kick the outbox once the database is back: retry.
                    log.warning("the outbox waits for the database: %s", exc)
                    await asyncio.sleep(DATABASE_PAUSE)
                    self._outbox_due = True
        finally:
            self._outbox_worker = None
            if not self._workers:
                self._idle.set()

    async def flush_outbox(self) -> bool:
        """Send every announcement still owed, in order; each is marked sent by the queue
        right after Telegram's answer (see the module's docstring: at least once). True if
        Telegram failed some even after the queue's retries: they, and whatever follows
        them in their chat, are still owed."""
        lost_groups: set[int] = set()
        moved: set[int] = set()
        held: set[int] = set()  # chats whose announcement failed: the rest waits, in order
        async with self._outbox_lock:
            for item in await repo.pending_outbox(self.db):
                if item.chat_id in moved:
                    continue  # its chat id changed: sent on the next pass
                if item.chat_id in held:
                    continue
                try:
                    method = await self._announcement(item)
                    if method is None:
                        await self._mark_sent(item, None)  # nothing left to say
                        continue
                    log.info(
                        "chat %s game %s: sending announcement %s (%s)",
                        item.chat_id,
                        item.game_id,
                        item.id,
                        item.kind,
                    )
                    await self.out.call(
                        item.chat_id,
                        method,
                        on_sent=functools.partial(self._mark_sent, item),
                    )
                except TelegramMigrateToChat as exc:
                    moved.add(item.chat_id)
                    await self._migrated(item.game_id, exc)
                except TelegramForbiddenError:
                    if item.chat_id < 0:
                        lost_groups.add(item.chat_id)
                    log.warning(
                        "chat %s: announcement %s not delivered: the bot cannot write",
                        item.chat_id,
                        item.id,
                    )
                    await self._mark_sent(item, None)  # nobody can read it: never again
                except (TelegramServerError, TelegramNetworkError, TelegramRetryAfter) as exc:
                    held.add(item.chat_id)
                    log.warning(
                        "chat %s: announcement %s not delivered yet: %s", item.chat_id, item.id, exc
                    )
                except Exception as exc:
                    if is_transient(exc):
                        raise  # the database refuses for the moment: the whole pass waits
                    log.exception(
                        "chat %s: announcement %s failed; will retry", item.chat_id, item.id
                    )
        # Outside the lock: stopping a game owes announcements of its own.
        for chat_id in sorted(lost_groups):
            await self.on_group_lost(chat_id)
        if moved:
            self.kick_outbox()
        return bool(held)

    async def _mark_sent(self, item: repo.OutboxItem, answer: Any) -> None:
        """One announcement, one transaction: it is not sent again."""
        async with self.db.transaction() as tx:
            await repo.mark_sent(tx, item.id)
        if answer is not None:
            log.info(
                "chat %s game %s: announcement %s (%s) sent as message %s",
                item.chat_id,
                item.game_id,
                item.id,
                item.kind,
                getattr(answer, "message_id", "?"),
            )

    async def _announcement(self, item: repo.OutboxItem) -> TelegramMethod[Message] | None:
        """The call that says `item` in its chat; None when there is nothing to say."""
        game = await repo.load_game(self.db, item.game_id) if item.game_id else None
        if game is None or game.match is None:
            text = str(item.payload.get("text", ""))
            return SendMessage(chat_id=item.chat_id, text=text) if text else None
        lang = await self.group_lang(game)
        view = game.match.view(None)
        names = seat_names(game, lang)
        if item.kind == "round_end":
            result = view.results[int(item.payload["round_no"]) - 1]
            caption = presenter.round_end_text(view, result, names, lang)
            picture = await self._draw(self.render_scores, view, names, result)
            return SendPhoto(
                chat_id=item.chat_id,
                photo=BufferedInputFile(picture, filename=f"round-{result.round_no}.png"),
                caption=caption,
                parse_mode="HTML",
            )
        if item.kind == "match_end":
            return SendMessage(
                chat_id=item.chat_id,
                text=presenter.match_end_text(view, names, lang),
                parse_mode="HTML",
            )
        if item.kind == "notice":
            text = t(str(item.payload["key"]), lang, **item.payload.get("values", {}))
            return SendMessage(chat_id=item.chat_id, text=text, parse_mode="HTML")
        log.error("outbox item %s has an unknown kind %r; dropped", item.id, item.kind)
        return None


def surrender_note(game: GameRecord, lang: Lang) -> str:
    """The line under a table and the hands of a match that ended by /surrender."""
    abandonment = game.abandonment
    if abandonment is None or abandonment.reason is not Ending.SURRENDER:
        return t("table.over", lang)
    return t("table.surrendered", lang, name=html.escape(game.seats[abandonment.seat].name))


# Bad Request texts that mean the bot cannot write in a group at all (TELEGRAM.md).
GROUP_REFUSALS = ("chat not found", "not enough rights to send", "CHAT_WRITE_FORBIDDEN")


def group_refuses(exc: TelegramBadRequest) -> bool:
    """Whether `exc` says the group cannot be written to (as a 403 would)."""
    return any(text in exc.message for text in GROUP_REFUSALS)


def seat_names(game: GameRecord, lang: Lang) -> list[str]:
    """The names to show for each seat; a person the computer plays for is marked so."""
    return [
        t("computer.instead", lang, name=presenter.short_name(seat.name))
        if seat.by_computer and seat.user_id
        else presenter.short_name(seat.name)
        for seat in game.seats
    ]


def drawn_this_turn(view: MatchView) -> tuple[Tile, ...]:
    """The tiles the viewer drew in the turn still in progress (C-6), to tell them."""
    rnd = view.round
    if rnd.seat is None or rnd.turn != rnd.seat:
        return ()
    count = 0
    for event in reversed(rnd.history):
        if not isinstance(event, Drew) or event.seat != rnd.seat:
            break
        count += 1
    return tuple(rnd.drawn[-count:]) if count else ()


def table_link(chat_id: int, message_id: int | None) -> str | None:
    """A t.me link to the group's table message; only supergroups have such links."""
    text = str(chat_id)
    if message_id is None or not text.startswith("-100"):
        return None
    return f"https://t.me/c/{text[4:]}/{message_id}"
