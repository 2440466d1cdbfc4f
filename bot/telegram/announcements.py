"""Announcements: who went out, рыба, the round's end (its final table, the hands laid
open and the score sheet, in one picture), the match's winner or its козёл
(осёл), the notices of an abandoned match.

They are rows of the outbox, written in the same transaction as the move that caused
them and marked sent once Telegram has them. They are delivered at least once: a
repeat is better than a loss. The window in which a crash repeats
one is as narrow as it can be without giving up that: each row is marked in a
transaction of its own, by the chat's queue worker right after Telegram's answer
(`Outgoing.call(on_sent=...)`), before that worker or this one does anything else.
A SIGKILL between Telegram taking the message and that commit still sends it again
after the restart. Every announcement logs one "sending announcement <id>" line per
attempt and one "announcement <id> ... sent" line once marked: an id with two
"sending" lines across restarts is a repeat (or a retry after a failure).

A tournament's news (its rounds, each table's result with the standings' picture,
forfeits, its end: `TOURNAMENT_KINDS`) goes to the tournament's own topic.

A game's announcements go to the forum topic it was opened in; a notice about the topic
itself (closed, deleted) goes to General (its payload's `general`). An announcement a
closed topic refuses waits, with those after it in that topic, until the topic is
reopened; one in a deleted topic is dropped (`bot.telegram.topics`).

A sweep (`SWEEP_SECONDS`) is the net under all of it: an announcement owed that no pass
has read, on two looks in a row while no pass was under way, is logged (WARNING) and
sent. Every commit that owes one asks for a pass itself, so in a healthy run the sweep
finds nothing; it turns a request for a pass lost by a fault into a delay, not a loss.
Those a pass left on purpose (a chat Telegram failed, a closed topic) are not its
business: they go when their chat or topic can take them.

The live table comes below every announcement of its game: the announcer remembers the
newest message it sent into each game's group (`newest_of`) and tells the table's worker
(`announced_in_group`), which sends the table anew below it while the match runs
(`bot.telegram.table_message`).

With several instances that all play (`bot.app.ownership`), an announcement is sent by
the instance that plays its chat (`OutboxItem.chat_id`: a group, or a person's private
chat), and marked sent in that chat's scope; a pass leaves the others alone.
`let_go` waits for an announcement of the chats let go that is on its way.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import html
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError, TelegramMigrateToChat
from aiogram.methods import SendMessage, SendPhoto
from aiogram.types import BufferedInputFile, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.app.group_settings import GroupSettings
from bot.app.inbox import GroupLost, Inbox
from bot.app.names import short_name
from bot.app.ownership import EVERY_CHAT, Ownership
from bot.app.reply import restored
from bot.infra import perf
from bot.infra.lru import Lru
from bot.infra.render_pool import RenderPool
from bot.infra.workers import Resync
from bot.telegram import delivery, game_messages, presenter
from bot.telegram.callbacks import RematchCb
from bot.telegram.delivery import TELEGRAM_FAILURES, seat_names, tell_migration
from bot.telegram.outgoing import Outgoing
from bot.telegram.presenter import replies
from bot.telegram.presenter import tournament as tournaments_text
from bot.telegram.presenter.endings import played_out_notes
from bot.telegram.topics import THREAD_NOT_FOUND, Topic, Topics
from domino.variants import GameVariant
from i18n import Lang, t
from render.standings import StandingsPicture, draw_standings
from storage import repo
from storage import tournaments as tournament_store
from storage.db import Database, acting_for, is_transient, retrying
from storage.records import Ending, GameRecord, TournamentRecord, TournamentStatus

log = logging.getLogger(__name__)

ScoresRenderer = Callable[..., bytes]
"""The round's end picture: the public view, each seat's name, the round's result, the
group's language and the round as it ended (`render.render_round_end`: its final table
and every hand laid open, over the score sheet)."""


def notice_values(values: Mapping[str, Any], game: GameVariant, lang: Lang) -> dict[str, Any]:
    """A notice's stored values as its text takes them in `lang`: sides and seats' scores
    kept as values (`bot.app.reply.stored`) written out here, their names escaped (text
    values were escaped when stored, rows of older versions stored them written out
    already); a notice of an abandoned match names its loser's side (`goat`), and the
    text says it in the game's own word (`loser`, from the text `loser.<game key>`): the
    козёл, the осёл, or plainly a loss where points are good."""
    shown = {key: _notice_value(value, lang) for key, value in values.items()}
    if "goat" in shown:
        shown["loser"] = t(f"loser.{game.key.value}", lang, names=shown["goat"])
    return shown


# A notice that a match someone abandoned ended, stored with the match's end by versions
# before the end announcement said how it counts (`presenter.played_out_notes`): such a
# row, still owed after an upgrade, is not sent (it would give the match a second result).
SAID_AT_THE_END = "notice.scored_as_timeout"


def counted_from_now(
    key: str, values: dict[str, Any], game: GameRecord
) -> tuple[str, dict[str, Any]]:
    """A computer took the seat after three timeouts (`notice.taken_over`): if that made
    the match's first abandonment, still standing (the person did not come back), the
    notice says how the match counts from now (K-11: as that side's loss, the others
    gaining by their lead over the seat's points then): `notice.taken_over_counted`."""
    first, match = game.abandonment, game.match
    if (
        key != "notice.taken_over"
        or first is None
        or match is None
        or first.reason is not Ending.TIMEOUT
        or not game.status.active
        or values.get("name") != html.escape(game.seats[first.seat].name, quote=False)
    ):
        return key, values
    side = " + ".join(
        short_name(game.seats[s].name) for s in match.sides[match.side_of(first.seat)]
    )
    counted = {**values, "goat": html.escape(side, quote=False), "points": first.points[first.seat]}
    return "notice.taken_over_counted", counted


def _private_notice(item: repo.OutboxItem, thread_id: int | None = None) -> SendMessage | None:
    """A notice to a person, outside any game (or in a group about a game with no match,
    in its topic `thread_id`): its key in the language as it was when it was owed (a row
    of an older version holds its text written out)."""
    key = item.payload.get("key")
    if isinstance(key, str):
        lang = Lang(str(item.payload.get("lang", Lang.RU.value)))
        text = t(key, lang, **item.payload.get("values", {}))
    else:
        text = str(item.payload.get("text", ""))
    if not text:
        return None
    return SendMessage(chat_id=item.chat_id, message_thread_id=thread_id, text=text)


def _notice_value(value: Any, lang: Lang) -> Any:
    if isinstance(value, str):
        return value  # escaped when stored
    written = replies.shown(restored(value), lang)
    return html.escape(written, quote=False) if isinstance(written, str) else written


OUTBOX = "outbox"  # the one key of the announcer's worker

# A tournament's news (`storage.repo.enqueue` by `bot.app.usecases.tournaments`): a
# round's tables, a table's result with the standings, a forfeit, the end.
CAPTION_LIMIT = 1024  # Telegram's, in characters (the texts here are far from UTF-16 pairs)
CAPTION_LINES = 14  # lines kept of a caption too long, the last one after them
TOURNAMENT_KINDS = frozenset(
    ("tournament_round", "tournament_table", "tournament_forfeit", "tournament_end")
)


# Seconds a sent announcement's mark is tried again for, while the database refuses it;
# past that it is left unmarked, and sent once more when the database is back.
MARK_SECONDS = 60.0

# Announcements read from the outbox at a time (a pass reads batch after batch).
OUTBOX_BATCH = 100

# Seconds between two looks of the sweep for announcements no pass has read.
SWEEP_SECONDS = 20.0

# Games whose newest announcement in their group is remembered (an int each): all the
# games one process runs at once (see `bot.telegram.publisher.CACHED_GAMES`).
CACHED_GAMES = 10_000


class Announcer:
    """Sends the outbox's announcements in the background, in order per chat."""

    def __init__(
        self,
        db: Database,
        out: Outgoing,
        *,
        painter: RenderPool,
        render_scores: ScoresRenderer,
        settings: GroupSettings,
        inbox: Inbox,
        topics: Topics,
        announced_in_group: Callable[[int], None],
        ownership: Ownership = EVERY_CHAT,
    ) -> None:
        self.db = db
        self.out = out
        self.ownership = ownership  # which chats this instance plays, and their scope
        self._lock = asyncio.Lock()  # one pass over the outbox at a time
        self._worker: Resync[str] = Resync(self._flush, describe=lambda _: "the outbox")
        self.painter = painter
        self.render_scores = render_scores
        self.settings = settings  # each group's language
        self.inbox = inbox  # where a lost or moved group is told
        self._sweeper: asyncio.Task[None] | None = None  # started by the first `announce`
        self._read_up_to = 0  # the newest announcement a pass has read
        self._unread_before: int | None = None  # the oldest unread at the sweep's last look
        self.topics = topics  # the forum topics closed to the bot
        # A game's announcement went into its group (the game's id): its table follows.
        self._announced_in_group = announced_in_group
        self._newest: Lru[int, int] = Lru(CACHED_GAMES)  # per game, its newest there
        self._rounds: Lru[int, int] = Lru(CACHED_GAMES)  # per game, its last round announced
        self._game_chats: Lru[int, int] = Lru(CACHED_GAMES)  # the chat of each game above
        self._round_sent = asyncio.Condition()
        self._sending: int | None = None  # the chat of the announcement on its way
        self._sent_one = asyncio.Condition()

    def newest_of(self, game_id: int) -> int | None:
        """The id of the newest message this process sent into the game's group (its
        topic) as one of its announcements; None if none since the start."""
        return self._newest.get(game_id)

    async def round_announced(self, game_id: int, round_no: int) -> None:
        """Wait until this process has announced the end of the game's round `round_no`
        (or a later one) in its group."""
        async with self._round_sent:
            await self._round_sent.wait_for(lambda: (self._rounds.get(game_id) or 0) >= round_no)

    def announce(self) -> None:
        """Announcements were committed: send them soon, in the background (never in the
        path of a button's answer)."""
        self._worker.mark(OUTBOX)
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep(), name="outbox-sweep")

    async def close(self) -> None:
        """Stop the sweep (at the stop, after `idle`)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper

    async def _sweep(self) -> None:
        with acting_for():  # not the scope of the handler whose commit started it
            await self._sweep_forever()

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except Exception as exc:  # the database refuses for the moment: the next look
                log.info("the outbox sweep is left out this time: %s", exc)

    async def sweep(self) -> None:
        """One look: the oldest announcement owed that no pass has read, if it was so at
        the last look too and no pass is under way, is logged and a pass sent for it."""
        if self._worker.busy(OUTBOX):
            self._unread_before = None
            return
        unread = await repo.oldest_owed(self.db, after=self._read_up_to)
        stuck = unread is not None and unread == self._unread_before
        self._unread_before = None if stuck else unread
        if stuck:
            log.warning(
                "outbox: announcement %s is owed and no pass has read it: a pass is sent", unread
            )
            self._worker.mark(OUTBOX)

    async def idle(self) -> None:
        """Wait until no announcement is being sent (tests, shutdown)."""
        await self._worker.idle()

    async def let_go(self, owned: Callable[[int], bool]) -> None:
        """Send nothing more for the chats `owned` picks (the ownership no longer gives
        them to this instance): returns once none of their announcements is on its way;
        what is remembered of their games' announcements is forgotten."""
        async with self._sent_one:
            await self._sent_one.wait_for(lambda: self._sending is None or not owned(self._sending))
        for game_id in self._game_chats.keys():  # noqa: SIM118 (an Lru, not a dict)
            chat_id = self._game_chats.get(game_id)
            if chat_id is not None and owned(chat_id):
                self._game_chats.pop(game_id)
                self._newest.pop(game_id)
                self._rounds.pop(game_id)

    async def _flush(self, _: str) -> None:
        if await self.flush_outbox():
            # Nothing else may announce again (a match's last words): tried after a pause.
            self._worker.again(OUTBOX, after=delivery.TELEGRAM_PAUSE)

    async def flush_outbox(self) -> bool:
        """Send every announcement still owed, in order; each is marked sent by the queue
        right after Telegram's answer (see the module's docstring: at least once). True if
        Telegram failed some even after the queue's retries: they, and whatever follows
        them in their chat, are still owed. A chat that moved to a supergroup is sent to
        once the move is done (its use case announces again)."""
        lost_groups: set[int] = set()
        moved: set[int] = set()
        held: set[int] = set()  # chats whose announcement failed: the rest waits, in order
        waiting: set[Topic] = set()  # topics closed to the bot: the rest waits, in order
        # Chats this pass found played elsewhere: their announcements stay out of the whole
        # pass, so a chat taken over while the pass runs (its older ones already passed
        # over) is not sent its newer ones first. Its pickup asks for the next pass.
        elsewhere: set[int] = set()
        async with self._lock:
            async for item in self._owed():
                if item.chat_id in moved or item.chat_id in held or item.chat_id in elsewhere:
                    continue
                if not self.ownership.owns(item.chat_id):
                    elsewhere.add(item.chat_id)  # sent by the instance that plays the chat
                    continue
                await self._begin(item.chat_id)
                try:
                    with self.ownership.acting(item.chat_id):
                        await self._one(item, waiting, moved, held, lost_groups)
                finally:
                    await self._end()
        for chat_id in sorted(lost_groups):
            self.inbox.emit(GroupLost(chat_id))
        return bool(held)

    async def _begin(self, chat_id: int) -> None:
        async with self._sent_one:
            self._sending = chat_id

    async def _end(self) -> None:
        async with self._sent_one:
            self._sending = None
            self._sent_one.notify_all()

    async def _one(
        self,
        item: repo.OutboxItem,
        waiting: set[Topic],
        moved: set[int],
        held: set[int],
        lost_groups: set[int],
    ) -> None:
        """One announcement of a pass, what Telegram answers noted in the pass's sets."""
        try:
            await self._send(item, waiting)
        except TelegramMigrateToChat as exc:
            moved.add(item.chat_id)
            game = await repo.load_game(self.db, item.game_id) if item.game_id else None
            tell_migration(self.inbox, item.game_id, game, exc)
        except TelegramForbiddenError:
            if item.chat_id < 0:
                lost_groups.add(item.chat_id)
            log.warning(
                "chat %s: announcement %s not delivered: the bot cannot write",
                item.chat_id,
                item.id,
            )
            await self._mark_sent(item, None)  # nobody can read it: never again
        except TELEGRAM_FAILURES as exc:
            held.add(item.chat_id)
            log.warning(
                "chat %s: announcement %s not delivered yet: %s", item.chat_id, item.id, exc
            )
        except Exception as exc:
            if is_transient(exc):
                raise  # the database refuses for the moment: the whole pass waits
            log.exception("chat %s: announcement %s failed; will retry", item.chat_id, item.id)

    async def _owed(self) -> AsyncIterator[repo.OutboxItem]:
        """Every announcement owed, oldest first, read a batch (`OUTBOX_BATCH`) at a time
        until one comes back short: a backlog longer than a batch (twenty games' round
        ends on a loaded machine, their pictures drawn one by one) is read to its end in
        this pass, not left for a request that may never come."""
        after = 0
        while True:
            batch = await repo.pending_outbox(self.db, after=after, limit=OUTBOX_BATCH)
            if batch:
                after = batch[-1].id
                self._read_up_to = max(self._read_up_to, after)
            for item in batch:
                yield item
            if len(batch) < OUTBOX_BATCH:
                return

    async def _refused_in_topic(
        self, item: repo.OutboxItem, thread_id: int | None, exc: TelegramBadRequest
    ) -> bool:
        """Whether the announcement's topic refused it: closed, it waits for the reopening;
        deleted, nobody will read it and it is dropped; a notice about a topic refused by
        a closed General is dropped too (the news would come late)."""
        if not self.topics.refused(item.chat_id, thread_id, item.game_id, exc):
            return False
        if item.payload.get("general") is True or THREAD_NOT_FOUND in exc.message:
            log.warning("chat %s: announcement %s dropped: %s", item.chat_id, item.id, exc.message)
            await self._mark_sent(item, None)
        return True

    async def _send(self, item: repo.OutboxItem, waiting: set[Topic]) -> None:
        """Send one announcement, unless its topic is closed to the bot (`waiting`: the
        topics found closed in this pass; what comes after in such a topic waits too, so a
        topic reopened meanwhile gets all of them in order in the next pass)."""
        if item.kind in TOURNAMENT_KINDS:
            # A tournament's news goes to the tournament's own topic, whatever game it is of.
            game = None
            tournament = await tournament_store.load(self.db, int(item.payload["tournament_id"]))
            in_topic = False
            thread_id = tournament.thread_id if tournament is not None else None
        else:
            game = await repo.load_game(self.db, item.game_id) if item.game_id else None
            in_topic = (
                game is not None
                and game.chat_id == item.chat_id
                and not item.payload.get("general")
            )
            thread_id = game.thread_id if game is not None and in_topic else None
        topic = (item.chat_id, thread_id)
        if topic in waiting or self.topics.closed(*topic):
            waiting.add(topic)
            return  # sent once the topic is reopened
        if item.kind in TOURNAMENT_KINDS:
            method = await self._tournament_news(item, tournament)
        else:
            method = await self._announcement(item, game, thread_id)
        if method is None:
            await self._mark_sent(item, None)  # nothing left to say
            return
        log.info(
            "chat %s game %s: sending announcement %s (%s)",
            item.chat_id,
            item.game_id,
            item.id,
            item.kind,
        )
        try:
            answer = await self.out.call(
                item.chat_id, method, on_sent=functools.partial(self._mark_sent, item)
            )
        except TelegramBadRequest as exc:
            if not await self._refused_in_topic(item, thread_id, exc):
                raise
            if self.topics.closed(*topic):
                waiting.add(topic)
            return
        if isinstance(method, SendPhoto):
            perf.count("sent.round_end")
        if in_topic and game is not None and isinstance(answer, Message):
            newest = self._newest.get(game.id)
            if newest is None or answer.message_id > newest:
                self._newest[game.id] = answer.message_id
                self._game_chats[game.id] = game.chat_id
            if item.kind == "round_end":
                round_no = int(item.payload["round_no"])
                self._rounds[game.id] = max(round_no, self._rounds.get(game.id) or 0)
                async with self._round_sent:
                    self._round_sent.notify_all()
            self._announced_in_group(game.id)

    async def _mark_sent(self, item: repo.OutboxItem, answer: Any) -> None:
        """One announcement, one transaction: it is not sent again. Telegram has it, so
        a database that refuses for the moment is asked again (for `MARK_SECONDS` at
        most, the chat's queue waiting meanwhile) rather than the message sent twice."""

        async def mark() -> None:
            # Called by the chat's queue worker too, which runs in no scope of ours.
            with self.ownership.acting(item.chat_id):
                async with self.db.transaction() as tx:
                    await repo.mark_sent(tx, item.id)

        began = time.monotonic()
        await retrying(
            mark,
            log_as=f"chat {item.chat_id}: announcement {item.id} sent, marking it",
            still_wanted=lambda: time.monotonic() - began < MARK_SECONDS,
        )
        if answer is not None:
            log.info(
                "chat %s game %s: announcement %s (%s) sent as message %s",
                item.chat_id,
                item.game_id,
                item.id,
                item.kind,
                getattr(answer, "message_id", "?"),
            )

    async def _tournament_news(
        self, item: repo.OutboxItem, tournament: TournamentRecord | None
    ) -> SendMessage | SendPhoto | None:
        """A tournament's round, table result (the standings' picture with the standings
        as its caption), forfeit or end, in its group's language, in its topic; None when
        the tournament or the table it names is not stored."""
        if tournament is None:
            return None
        lang = self.settings.language(tournament.chat_id)
        if lang is None:
            lang = await self.settings.people.language_of(tournament.creator_id)
        chat_id, thread_id = tournament.chat_id, tournament.thread_id
        if item.kind == "tournament_end":
            text = tournaments_text.end_text(tournament, lang)
            if tournament.status is TournamentStatus.FINISHED:
                picture = tournaments_text.standings_picture(tournament, lang, final=True)
                return await self._standings_photo(chat_id, thread_id, picture, text, lang)
            return SendMessage(
                chat_id=chat_id, message_thread_id=thread_id, text=text, parse_mode="HTML"
            )
        round_no = int(item.payload["round_no"])
        if item.kind == "tournament_round":
            return SendMessage(
                chat_id=chat_id,
                message_thread_id=thread_id,
                text=tournaments_text.round_text(tournament, round_no, lang),
                parse_mode="HTML",
            )
        table = tournament.table(round_no, int(item.payload["table_no"]))
        if table is None:
            return None
        if item.kind == "tournament_forfeit":
            return SendMessage(
                chat_id=chat_id,
                message_thread_id=thread_id,
                text=tournaments_text.forfeit_text(tournament, table, lang),
                parse_mode="HTML",
            )
        text = tournaments_text.table_done_text(tournament, table, lang)
        picture = tournaments_text.standings_picture(
            tournament, lang, highlight=table.entrants, upto_round=table.round_no
        )
        return await self._standings_photo(chat_id, thread_id, picture, text, lang)

    async def _standings_photo(
        self,
        chat_id: int,
        thread_id: int | None,
        picture: StandingsPicture,
        caption: str,
        lang: Lang,
    ) -> SendPhoto:
        """The standings drawn off the loop (the render pool), `caption` under them (its
        first lines and the last, the winner's, when it is longer than a caption may be)."""
        if len(caption) > CAPTION_LIMIT:
            lines = caption.splitlines()
            caption = "\n".join([*lines[: CAPTION_LINES - 1], "…", lines[-1]])[:CAPTION_LIMIT]
        perf.count("render.standings")
        png = await self.painter.draw(draw_standings, picture, lang)
        return SendPhoto(
            chat_id=chat_id,
            message_thread_id=thread_id,
            photo=BufferedInputFile(png, filename="standings.png"),
            caption=caption,
            parse_mode="HTML",
        )

    async def _announcement(
        self, item: repo.OutboxItem, game: GameRecord | None, thread_id: int | None
    ) -> SendMessage | SendPhoto | None:
        """The call that says `item` of `game` in its chat (in the topic `thread_id`); None
        when there is nothing to say."""
        if game is None or game.match is None:
            return _private_notice(item, thread_id)
        lang = await self.settings.language_of(game)
        view = game.match.view(None)
        names = seat_names(game, lang)
        if item.kind == "round_end":
            # The round the item names, as the match stood when it ended, not as it is
            # now: the announcement may go out after the next round has begun, or even
            # ended (a retry, a restart, a loaded machine), and shows the scores of then.
            round_no = int(item.payload["round_no"])
            then = game.match.after_round(round_no)
            view = then.view(None)
            result = view.results[round_no - 1]
            ended = then.ended_round(round_no)
            caption = presenter.round_end_text(view, result, names, lang)
            perf.count("render.round_end")
            picture = await self.painter.draw(self.render_scores, view, names, result, lang, ended)
            return SendPhoto(
                chat_id=item.chat_id,
                message_thread_id=thread_id,
                photo=BufferedInputFile(picture, filename=f"round-{result.round_no}.png"),
                caption=caption,
                parse_mode="HTML",
            )
        if item.kind == "match_end":
            last_tile_won = game.match.won_by_last_tile()
            # One result: the stats' (the first to abandon the match loses it, K-11).
            view = game_messages.shown_view(game, view)
            notes = played_out_notes(game, lang)
            again = InlineKeyboardButton(
                text=t("btn.rematch", lang), callback_data=RematchCb(game=game.id).pack()
            )
            # A tournament's table is no match to play again: the tournament goes on.
            rematch = None if game.tournament else InlineKeyboardMarkup(inline_keyboard=[[again]])
            return SendMessage(
                chat_id=item.chat_id,
                message_thread_id=thread_id,
                text=presenter.match_end_text(
                    view, names, lang, last_tile_won=last_tile_won, notes=notes
                ),
                parse_mode="HTML",
                reply_markup=rematch,
            )
        if item.kind == "notice":
            key = str(item.payload["key"])
            if key == SAID_AT_THE_END:
                return None  # the match's end says how it counts (`played_out_notes`)
            values = notice_values(item.payload.get("values", {}), game.match.ruleset.game, lang)
            key, values = counted_from_now(key, values, game)
            text = t(key, lang, **values)
            return SendMessage(
                chat_id=item.chat_id, message_thread_id=thread_id, text=text, parse_mode="HTML"
            )
        log.error("outbox item %s has an unknown kind %r; dropped", item.id, item.kind)
        return None
