"""Keeps the messages that show a game in step with its committed state.

A use case commits a change and its effects call `show(game)`; the publisher then
brings every message of the game up to date: the lobby, the group's table picture and
each person's hand (in their private chat, and inside the group as an ephemeral message
if they asked for it there: `bot.telegram.group_hands`). Each message has its own
worker (`bot.infra.workers.Resync`) that always reads the newest committed state, so a
burst of moves becomes one edit (the group's table is paced to Telegram's 20 messages a
minute and simply skips the states it had no time to show), and a private hand never
waits for the group's pacing (a hand inside the group is one of the group's messages,
and waits its turn there). A worker sends nothing when the digest of what its message
shows is unchanged.

What is known of each game and its messages is kept by `bot.telegram.message_records`;
the table (drawn only to be sent, pinned, sent anew below each announcement) by
`bot.telegram.table_message`; the announcements are sent by `bot.telegram.announcements`.

Every group message of a game goes to the forum topic the game was opened in
(`GameRecord.thread_id`). What Telegram refuses is told to the inbox, and a use case
takes it from there: a person who blocked the bot (`PersonUnreachable`), a group that
refuses it (`GroupLost`), a topic closed or deleted (`bot.telegram.topics`: the group
messages of a game in a closed topic wait until it is reopened), a group that became a
supergroup (`ChatMigrated`; its use case reloads and shows the moved games again).

Memory is bounded: per game, what is cached is kept for at most `CACHED_GAMES` games
(least recently used first out; anything forgotten is read again from the database),
and forgotten at once when a game ends and its messages are up to date; chat titles for
at most `CACHED_TITLES` chats. The workers hold one entry per message with a change not
yet shown, and go when it is.

With several instances that all play (`bot.app.ownership`), a worker's pass works for a
game only while this instance plays its chat, inside that chat's scope (its shard's
fence); `let_go` stops the workers of the chats another instance takes and forgets
what is cached of their games, once what is owed to the database is written.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, Protocol

from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
)
from aiogram.methods import EditMessageText
from aiogram.types import InlineKeyboardMarkup

from bot.app.effects import Menu
from bot.app.group_settings import GroupSettings
from bot.app.inbox import GroupLost, Inbox
from bot.app.ownership import EVERY_CHAT, Ownership
from bot.app.people import People
from bot.infra.render_pool import RenderPool
from bot.infra.workers import Resync
from bot.telegram import delivery, game_messages, presenter
from bot.telegram.announcements import Announcer, ScoresRenderer
from bot.telegram.delivery import (
    TELEGRAM_FAILURES,
    group_refuses,
    seat_names,
    tell_migration,
)
from bot.telegram.group_hands import GroupHands
from bot.telegram.message_records import MessageRecords, Target, hand_targets, targets_of
from bot.telegram.outgoing import Outgoing
from bot.telegram.presenter.tournament import waiting_names
from bot.telegram.table_message import TableMessages, TableRenderer
from bot.telegram.table_pin import GroupTail, Pins
from bot.telegram.text_message import TextMessages
from bot.telegram.topics import Topics
from bot.telegram.web_app_links import WebAppLinks
from domino.tiles import Tile
from i18n import Lang
from storage import tournaments as tournament_store
from storage.db import DATABASE_ERRORS, Database, Deposed
from storage.records import GameRecord, GameStatus, MessageRecord, Role

if TYPE_CHECKING:
    from bot.app.timers import TurnClock

__all__ = ["Publisher", "TableRenderer", "Target", "TurnClocks"]

log = logging.getLogger(__name__)

# Bounds of the caches (see the module's docstring). A game is a few kB here. A bound
# below the games running at once costs dearly: every move of a game forgotten reads it,
# its messages and its group's title again (at 2,000 games and a bound of 1,000, 50 reads
# a move). One process holds a few thousand games (bench/e2e.py), so 10,000 covers them;
# past that a forgotten one is only read again.
CACHED_GAMES = 10_000
CACHED_TITLES = 10_000
# Private hands brought up to date at once (`bot.infra.workers.Resync`'s gate). Four
# hands change with every move; past what the bot can do, their passes wait for a place
# and each hand skips the states it had no time to show, so the presses are answered
# first. A private hand is one call at about a call a second: a pass is quick once run.
HAND_PASSES_AT_ONCE = 200


def _quick_pass(target: Target) -> bool:
    """The passes the gate bounds: private hands (a table, a lobby, a hand inside the
    group wait for the group's budget of twenty a minute and would hold their place)."""
    return target.role is Role.HAND and not target.in_group


# What leaves a let-go game's digests unsaved: the database, or the shard taken already.
UNSAVED: tuple[type[Exception], ...] = (*DATABASE_ERRORS, Deposed)


class Where(Enum):
    """Which of a seat's hands a pass brings up to date."""

    PRIVATE = "private"
    GROUP = "group"
    BOTH = "both"


class TurnClocks(Protocol):
    """The turns' clocks, shown on the hands and the table: `bot.app.timers.TurnTimers`."""

    def clock_of(self, game_id: int) -> TurnClock | None: ...

    def clock(self) -> float: ...


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
        web_app: WebAppLinks | None = None,
        ownership: Ownership = EVERY_CHAT,
    ) -> None:
        self.db = db
        self.out = out
        self.ownership = ownership  # which chats this instance plays, and their scope
        self.people = people  # each person's language
        self.settings = settings  # each group's language
        self.inbox = inbox  # where a person or a group Telegram refuses is told
        self.clocks = clocks
        self._painter = painter or RenderPool()
        self.web_app = web_app  # the Mini App's links on the table, lobby and hands
        self.topics = Topics(inbox)  # the forum topics closed to the bot
        self._workers: Resync[Target] = Resync(
            self._sync_safely,
            describe=str,
            pace=self._table_turn,
            settled=self._evict_if_done,
            gate=asyncio.Semaphore(HAND_PASSES_AT_ONCE),
            gated=_quick_pass,
        )
        self.records = MessageRecords(db, games=CACHED_GAMES, titles=CACHED_TITLES)
        self.announcer = Announcer(
            db,
            out,
            painter=self._painter,
            render_scores=render_scores,
            settings=settings,
            inbox=inbox,
            topics=self.topics,
            announced_in_group=self._announced_in_group,
            ownership=ownership,
        )
        # The live table stays the newest message of its game: pinned while the match
        # runs, sent anew below each of its announcements (after a restart, below what
        # the group's newer messages, `tail`, show buried it).
        self.table = TableMessages(
            out,
            self.records,
            render_table=render_table,
            painter=self._painter,
            mark=self._workers.mark,
            round_announced=self.announcer.round_announced,
            newest_announcement=self.announcer.newest_of,
            interval=table_interval,
            tail=tail or GroupTail(),
            games=CACHED_GAMES,
            web_app=web_app,
        )
        self.texts = TextMessages(
            out, self.records, people=people, inbox=inbox, mark=self._workers.mark
        )
        self.group_hands = GroupHands(db, out, games=CACHED_GAMES)
        self._bringing: set[tuple[int, int]] = set()  # (game, seat): a hand on its way
        # Hands a press found behind their game: their digest is not trusted once.
        self._redraw: set[Target] = set()
        self._saving: set[asyncio.Task[None]] = set()  # an ended game's digests written

    @property
    def pins(self) -> Pins:
        """The tables' pins (a group's rights to pin change: `Pins.rights_changed`)."""
        return self.table.pins

    # --- scheduling -------------------------------------------------------------------

    def show(self, game: GameRecord, *, group: bool = True) -> None:
        """`game` was just committed: bring all of its messages up to date (with `group`
        False only the hands: the group cannot be written to any more)."""
        previous = self.records.games.get(game.id)
        if previous is not None and previous.version > game.version:
            return  # an older record arriving late; the newer one is scheduled already
        self.records.games[game.id] = game
        if not group:
            for seat in game.seats:
                self._mark_hand(game.id, seat.seat)
            return
        if game.status is GameStatus.LOBBY:
            self._workers.mark(Target(game.id, Role.LOBBY))
            return
        if previous is None or previous.status is GameStatus.LOBBY:
            self._workers.mark(Target(game.id, Role.LOBBY))  # once: "the game has started"
        self._workers.mark(Target(game.id, Role.TABLE))
        for seat in game.seats:
            self._mark_hand(game.id, seat.seat)

    def _mark_hand(self, game_id: int, seat: int) -> None:
        """The seat's hand is to be brought up to date, in private and in the group: two
        workers, so that a hand in private never waits for the group's budget (paced at
        twenty messages a minute for everyone at the table) and shows at once that the
        turn moved on."""
        for target in hand_targets(game_id, seat):
            self._workers.mark(target)

    def _announced_in_group(self, game_id: int) -> None:
        """An announcement of the game went into its group: a running match's table is
        sent anew below it (`TableMessages.sync`)."""
        game = self.records.games.get(game_id)
        if game is not None and game.status is GameStatus.PLAYING:
            self._workers.mark(Target(game_id, Role.TABLE))

    def show_hand(self, game_id: int, seat: int) -> None:
        self._mark_hand(game_id, seat)

    def redraw_hand(self, game_id: int, seat: int) -> None:
        """A press found this hand behind its game: its message may not show what was last
        sent to it (an edit from an instance deposed meanwhile landed after the new
        leader's), so it is edited again whatever its digest says."""
        target = Target(game_id, Role.HAND, seat)
        self._redraw.add(target)
        self._mark_hand(game_id, seat)

    def announce(self) -> None:
        """Announcements were committed: send them soon (see `bot.telegram.announcements`)."""
        self.announcer.announce()

    async def flush_outbox(self) -> bool:
        """Send every announcement still owed now (`Announcer.flush_outbox`)."""
        return await self.announcer.flush_outbox()

    def shown_version(self, game_id: int) -> int | None:
        """The version of the newest record of the game handed to `show`, if cached."""
        game = self.records.games.get(game_id)
        return None if game is None else game.version

    def topic_reopened(self, chat_id: int, thread_id: int | None) -> None:
        """The forum topic was reopened: its games' messages go there again (the games
        themselves are shown by the same commit's effects)."""
        self.topics.reopened(chat_id, thread_id)

    def reload(self, game_id: int) -> None:
        """Forget what is cached about a game that changed behind our back (a migrated chat)."""
        self.records.reload(game_id)
        self.table.reload(game_id)

    async def idle(self) -> None:
        """Wait until every message and announcement is up to date (tests, shutdown)."""
        await asyncio.gather(self._workers.idle(), self.announcer.idle())
        while self._saving:
            await asyncio.gather(*self._saving, return_exceptions=True)

    async def stop(self) -> None:
        """At the bot's stop, after `idle()`: every digest held in memory is written (so
        the restart edits nothing that did not change) and the render pool shut down."""
        try:
            await self.records.save_digests()
        except Exception as exc:  # the next start edits those messages once more
            log.warning("the messages' digests were not saved: %s", exc)
        await self._painter.close()

    def close(self) -> None:
        """Release the drawing thread (after `idle()`)."""
        self._painter.close_thread()

    async def let_go(self, owned: Callable[[int], bool]) -> None:
        """Stop showing the games of the chats `owned` picks (the ownership no longer
        gives them to this instance; the one that picks them up brings every message up
        to date from the database): their workers are dropped (a pass under way ends
        first), the records of messages sent and the digests held in memory are written
        in their chat's scope, and what is cached of them is forgotten."""
        games = [
            game
            for game_id in self.records.games.keys()  # noqa: SIM118 (an Lru, not a dict)
            if (game := self.records.games.get(game_id)) is not None and owned(game.chat_id)
        ]
        ids = {game.id for game in games}
        await self.announcer.let_go(owned)
        await self._workers.drop(lambda target: target.game_id in ids)
        if self._saving:
            await asyncio.gather(*self._saving, return_exceptions=True)
        for game in games:
            try:
                with self.ownership.acting(game.chat_id):
                    for target in targets_of(game):
                        await self.records.write_unsaved(target)
                    await self.records.save_digests([game.id])
            except UNSAVED as exc:  # edited once more by the instance that picks it up
                log.info("chat %s game %s: digests not saved: %s", game.chat_id, game.id, exc)
            self.records.reload(game.id)
            self.table.reload(game.id)
            self.table.forget(game.id)
            self.group_hands.forget_game(game.id)
            self._redraw.difference_update(targets_of(game))

    async def _sync_safely(self, target: Target) -> None:
        """One pass of a message's worker, in the scope of its game's chat, if this
        instance plays it."""
        game = await self.records.game(target.game_id)
        if game is None:
            await self._sync_telling(target)
            return
        if not self.ownership.owns(game.chat_id):
            log.debug("%s is shown by the instance that plays chat %s", target, game.chat_id)
            return
        with self.ownership.acting(game.chat_id):
            await self._sync_telling(target)

    async def _sync_telling(self, target: Target) -> None:
        """What Telegram refuses is told to the inbox."""
        try:
            await self._sync(target)
        except TelegramForbiddenError as exc:
            await self._forbidden(target, exc)
        except TelegramMigrateToChat as exc:
            # Shown again in the supergroup by the move's use case (`reload`, `show`).
            game = await self.records.game(target.game_id)
            tell_migration(self.inbox, target.game_id, game, exc)
        except TELEGRAM_FAILURES as exc:
            # A message left behind the game may hide someone's turn from them for good,
            # so it is brought up to date again after a pause.
            log.warning("%s is tried again in %.0f s: %s", target, delivery.TELEGRAM_PAUSE, exc)
            self._workers.again(target, after=delivery.TELEGRAM_PAUSE)
        except TelegramBadRequest as exc:
            game = await self.records.game(target.game_id)
            if game is not None and self.topics.refused(game.chat_id, game.thread_id, game.id, exc):
                return  # shown again when the topic is reopened, or the game stops
            if target.role is Role.HAND or not group_refuses(exc):
                raise
            await self._forbidden(target, exc)

    def _evict_if_done(self, target: Target) -> None:
        """Forget an ended game once its last message is up to date (bounded memory)."""
        game = self.records.games.get(target.game_id)
        if game is None or game.status.active:
            return
        if any(self._workers.busy(other) for other in targets_of(game)):
            return
        self.records.games.pop(game.id)
        if self.records.unsaved_digests(game.id):
            with self.ownership.acting(game.chat_id):  # the task takes the scope
                task = asyncio.create_task(self.records.save_then_forget(game.id))
            self._saving.add(task)
            task.add_done_callback(self._saving.discard)
        else:
            self.records.forget_messages(game.id)
        self.table.forget(game.id)
        self.group_hands.forget_game(game.id)

    async def _table_turn(self, target: Target) -> None:
        """Wait until this game's table may show a new picture (`table_interval`)."""
        if target.role is Role.TABLE:
            await self.table.pace(target.game_id)

    async def _forbidden(
        self, target: Target, exc: TelegramForbiddenError | TelegramBadRequest
    ) -> None:
        """Telegram refuses the group (bot removed, no right to write, no such chat): the
        game cannot go on there."""
        game = await self.records.game(target.game_id)
        if game is None:
            return
        log.warning(
            "chat %s game %s: the group refuses the bot: %s", game.chat_id, game.id, exc.message
        )
        self.inbox.emit(GroupLost(game.chat_id))

    # --- one message ------------------------------------------------------------------

    async def _sync(self, target: Target) -> None:
        # Kept until the hand's pass went through: a pass the database refuses redraws
        # when it is tried again.
        redraw = target in self._redraw
        await self.records.write_unsaved(target)
        game = await self.records.game(target.game_id)
        if game is None:
            self._redraw.discard(target)
            return
        messages = await self.records.messages_of(game.id)
        existing = messages.get((target.role, target.seat))
        # A topic closed to the bot takes no new message, but its messages are still edited.
        closed = self.topics.closed(game.chat_id, game.thread_id)
        if closed and existing is None and target.role is not Role.HAND:
            return  # sent when the topic is reopened
        if target.role is Role.LOBBY:
            await self._sync_lobby(game, existing)
        elif target.role is Role.TABLE:
            lang = await self.settings.language_of(game)
            clock, now = self._clock_of(game)
            await self.table.sync(game, existing, lang, clock, now, resend=not closed)
        else:
            if redraw and existing is not None:
                existing = dataclasses.replace(existing, digest=None)
            table = messages.get((Role.TABLE, -1))
            where = Where.GROUP if target.in_group else Where.PRIVATE
            await self._sync_hand(game, target.seat, existing, table, where=where)
            self._redraw.discard(target)

    async def _sync_lobby(self, game: GameRecord, existing: MessageRecord | None) -> None:
        lang = await self.settings.language_of(game)
        if game.status is GameStatus.LOBBY:
            timer = self.settings.of(game.chat_id).turn_timer
            waiting: list[str] = []
            if game.tournament is not None:  # whom the tournament's table waits for
                tournament = await tournament_store.load(self.db, game.tournament.tournament_id)
                if tournament is not None:
                    waiting = waiting_names(tournament, game, lang)
            text = presenter.lobby_text(
                game, lang, timer, hands=self.settings.of(game.chat_id).hands, waiting=waiting
            )
            app_link = self.web_app.table_link(game) if self.web_app is not None else None
            markup: InlineKeyboardMarkup | None = presenter.lobby_keyboard(game, lang, app_link)
        elif existing is None:
            return  # the lobby message is only ever edited after the lobby
        else:
            text = presenter.lobby_closed_text(game, lang)
            markup = None
        await self.texts.show(
            Target(game.id, Role.LOBBY),
            game.chat_id,
            text,
            markup,
            existing,
            thread_id=game.thread_id,
        )

    async def _sync_hand(
        self,
        game: GameRecord,
        seat: int,
        existing: MessageRecord | None,
        table: MessageRecord | None,
        *,
        choosing: Tile | Menu | None = None,
        where: Where = Where.BOTH,
    ) -> None:
        """The seat's hand in its person's private chat (if it goes there: `People.
        private_hand`) and inside the group (if they asked for it there), side by side;
        `where`: only one of them (each has its worker: `_mark_hand`)."""
        if game.match is None or seat >= len(game.seats):
            return
        person = game.seats[seat]
        if person.user_id is None or person.left:
            if where is not Where.PRIVATE:
                await self.group_hands.drop(game.id, seat)  # if any
            return
        default = self.settings.of(game.chat_id).hands
        jobs = []
        if where is not Where.PRIVATE:
            jobs.append(self._sync_group_hand(game, seat, person.user_id, choosing))
        if where is not Where.GROUP and (
            existing is not None or await self.people.private_hand(person.user_id, default)
        ):
            jobs.append(self._sync_private_hand(game, seat, existing, table, choosing))
        failures = [
            result
            for result in await asyncio.gather(*jobs, return_exceptions=True)
            if isinstance(result, BaseException)
        ]
        if failures:
            raise failures[0]

    async def _hand_message(
        self,
        game: GameRecord,
        seat: int,
        lang: Lang,
        table: MessageRecord | None,
        choosing: Tile | Menu | None,
        *,
        in_group: bool = False,
    ) -> tuple[str, InlineKeyboardMarkup | None] | None:
        clock, now = self._clock_of(game)
        app_url = None
        if self.web_app is not None and not in_group:
            app_url = self.web_app.hand_url(game)  # a `web_app` button: private chats only
        return game_messages.hand_message(
            game,
            seat,
            lang,
            names=seat_names(game, lang),
            chat_title=await self.records.chat_title(game.chat_id),
            clock=clock,
            now=now,
            table_message_id=table.message_id if table else None,
            choosing=choosing,
            hints=self.settings.hints_allowed(game.chat_id),
            in_group=in_group,
            app_url=app_url,
        )

    async def _sync_private_hand(
        self,
        game: GameRecord,
        seat: int,
        existing: MessageRecord | None,
        table: MessageRecord | None,
        choosing: Tile | Menu | None,
    ) -> None:
        user_id = game.seats[seat].user_id
        assert user_id is not None
        lang = await self.people.language_of(user_id)
        shown = await self._hand_message(game, seat, lang, table, choosing)
        if shown is not None:
            text, markup = shown
            target = Target(game.id, Role.HAND, seat)
            await self.texts.show(target, user_id, text, markup, existing)
            shown_now = await self.records.messages_of(game.id)
            if table is None and (Role.TABLE, -1) in shown_now and (Role.HAND, seat) in shown_now:
                # The table was sent while this hand was: shown again, with its link.
                self._workers.mark(Target(game.id, Role.HAND, seat))

    async def _sync_group_hand(
        self, game: GameRecord, seat: int, user_id: int, choosing: Tile | Menu | None
    ) -> None:
        """The hand inside the group, if it has one: no link to the table (it is right
        there), so a table sent anew edits no hand."""
        if not await self.group_hands.of(game.id):
            return
        lang = await self.people.language_of(user_id)
        shown = await self._hand_message(game, seat, lang, None, choosing, in_group=True)
        if shown is not None:
            await self.group_hands.show(game.id, seat, user_id, *shown)

    async def bring_hand(self, game_id: int, seat: int, *, press: str | None) -> None:
        """«✋ Мои кости»: the seat's hand as a fresh ephemeral message at the bottom of
        the group, for the seat's person alone (as the game stores them, never whoever
        pressed: the use case checked that they are the same). Sent among the group's
        replies, before the press is answered (Telegram takes `press` only while the
        query is unanswered); the seat's worker then makes sure it shows the newest state.
        A press while the seat's hand is on its way sends nothing more (the group's
        budget is shared by everyone at the table)."""
        key = (game_id, seat)
        if key in self._bringing:
            return
        self._bringing.add(key)
        try:
            await self._bring_hand(game_id, seat, press)
        finally:
            self._bringing.discard(key)

    async def _bring_hand(self, game_id: int, seat: int, press: str | None) -> None:
        game = await self.records.game(game_id)
        if game is None or game.match is None or seat >= len(game.seats):
            return
        person = game.seats[seat]
        if person.user_id is None or person.left:
            return
        lang = await self.people.language_of(person.user_id)
        shown = await self._hand_message(game, seat, lang, None, None, in_group=True)
        if shown is None:
            return
        text, markup = shown
        try:
            await self.group_hands.bring(
                game.id,
                seat,
                game.chat_id,
                person.user_id,
                text,
                markup,
                press=press,
                thread_id=game.thread_id,
            )
        except TelegramBadRequest as exc:
            if not self.topics.refused(game.chat_id, game.thread_id, game.id, exc):
                raise
            return
        self._workers.mark(Target(game.id, Role.HAND, seat, in_group=True))

    def _clock_of(self, game: GameRecord) -> tuple[TurnClock | None, float]:
        """The clock of the game's turn, if any, and the time now by the clocks."""
        if self.clocks is None:
            return None, 0.0
        return self.clocks.clock_of(game.id), self.clocks.clock()

    async def show_end_choice(self, game: GameRecord, seat: int, tile: Tile | Menu) -> None:
        """The tile fits several ends: the hand message asks on which end to lay it; or
        the hand shows a menu of moves (`Menu`) instead of its tiles."""
        messages = await self.records.messages_of(game.id)
        await self._sync_hand(
            game,
            seat,
            messages.get((Role.HAND, seat)),
            messages.get((Role.TABLE, -1)),
            choosing=tile,
        )

    async def close_hand(self, game: GameRecord, seat: int, user_id: int, text: str) -> None:
        """The person left the seat: their hand message keeps only `text`, no buttons."""
        messages = await self.records.messages_of(game.id)
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

    async def forget_hand(self, game_id: int, seat: int) -> None:
        await self.records.forget(Target(game_id, Role.HAND, seat))
