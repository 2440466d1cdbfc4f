"""The group's table message of a game: its picture and caption, paced, pinned while the
match runs (`bot.telegram.table_pin`), and always the newest message of its game in the
group: while the match runs, an announcement of the game sent below the table (a round's
result, a notice) has the table sent anew below it and the old one deleted; at a round's
start the last round's result is waited for, so that the new round's first picture comes
below it in one call. The match's last words (its final round and its end) come below
the table, which keeps the final position, without its button, unpinned.

Whether the table changed is told by the state, not the picture: its digest is made of
the state's face (`game_messages.table_face`) and the caption, so a picture is drawn
only when it is about to be sent: after the worker merged a burst of moves, waited its
`interval` and found a change. It is drawn in a process of its own
(`bot.infra.render_pool`); a picture shown again (only the caption changed, a table sent
anew that shows what the last one showed) goes by the `file_id` Telegram gave it, not
uploaded again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from aiogram.exceptions import TelegramBadRequest
from aiogram.methods import DeleteMessage, EditMessageMedia, EditMessageReplyMarkup, SendPhoto
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, InputMediaPhoto, Message

from bot.infra import perf
from bot.infra.lru import Lru
from bot.infra.render_pool import RenderPool
from bot.telegram import game_messages
from bot.telegram.delivery import TELEGRAM_FAILURES, digest_of, markup_data, seat_names
from bot.telegram.message_records import MessageRecords, Target
from bot.telegram.outgoing import Outgoing
from bot.telegram.table_pin import GroupTail, Pins
from bot.telegram.web_app_links import WebAppLinks
from domino.views import MatchView
from i18n import Lang
from storage.records import GameRecord, GameStatus, MessageRecord, Role

if TYPE_CHECKING:
    from bot.app.timers import TurnClock

log = logging.getLogger(__name__)

TableRenderer = Callable[[MatchView, Sequence[str], str], bytes]
"""`render.render_table`: the public view, each seat's name, the group's language."""

# Seconds a round's first table picture waits at most for the round's end to be announced
# (if it takes longer, the table is sent anew once more when it is).
ANNOUNCED_WAIT = 10.0


class TableMessages:
    """Sends and edits each game's table message; remembers, per game, the picture last
    uploaded, when the table was last drawn, the round it shows and its pin."""

    def __init__(
        self,
        out: Outgoing,
        records: MessageRecords,
        *,
        render_table: TableRenderer,
        painter: RenderPool,
        mark: Callable[[Target], None],
        round_announced: Callable[[int, int], Awaitable[None]],
        newest_announcement: Callable[[int], int | None],
        interval: float,
        tail: GroupTail,
        games: int,
        web_app: WebAppLinks | None = None,
    ) -> None:
        self.out = out
        self.records = records
        self.render_table = render_table
        self._painter = painter
        self._mark = mark  # a message's worker is to run again
        self._round_announced = round_announced  # (game, round): its end is announced
        # The newest message id of a game's announcements in its group, if any was sent.
        self._newest_announcement = newest_announcement
        # The group sees at most one new table picture per game this often: Telegram lets
        # a group take 20 messages a minute.
        self.interval = interval
        self.tail = tail
        self.pins = Pins(out)
        self.web_app = web_app  # «🃏 Открыть стол» beside «✋ Мои кости» when set
        self.shown: Lru[int, float] = Lru(games)  # when each table was last drawn
        # The last table picture uploaded per game: its face and Telegram's file id.
        self._pictures: Lru[int, tuple[str, str]] = Lru(games)
        self._rounds: Lru[int, int] = Lru(games)  # the round each table shows
        self._pinned: Lru[int, int] = Lru(games)  # the table message pinned, by game
        self._unpinned: Lru[int, bool] = Lru(games)  # ended games' tables unpinned

    async def pace(self, game_id: int) -> None:
        """Wait until this game's table may show a new picture (`interval`)."""
        shown = self.shown.get(game_id)
        if shown is not None:
            wait = shown + self.interval - asyncio.get_running_loop().time()
            if wait > 0:
                await asyncio.sleep(wait)

    def reload(self, game_id: int) -> None:
        """The game changed behind our back (a migrated chat): its table is found anew."""
        self._rounds.pop(game_id)
        self._pinned.pop(game_id)

    def forget(self, game_id: int) -> None:
        """The game ended and its messages are up to date."""
        self.shown.pop(game_id)
        self._rounds.pop(game_id)
        self._pictures.pop(game_id)

    async def sync(
        self,
        game: GameRecord,
        existing: MessageRecord | None,
        lang: Lang,
        clock: TurnClock | None,
        now: float,
        *,
        resend: bool = True,
    ) -> None:
        """Bring the table of `game` up to date with it (`existing`: its message; not sent
        anew when buried unless `resend`: its topic takes no new message now)."""
        if game.match is None:
            return
        view = game_messages.shown_view(game, game.match.view(None))
        buried = None
        if resend and existing is not None:
            buried = await self._buried(game, existing, view.round_no)
        if buried is not None and buried is not game and buried.match is not None:
            # Newer, after the wait for the last round's result.
            view = game_messages.shown_view(buried, buried.match.view(None))
            game = buried
        names = seat_names(game, lang)
        caption = game_messages.table_caption(game, view, names, lang, clock, now)
        markup = game_messages.table_keyboard(game, lang, self.web_app)
        face = game_messages.table_face(view, names, lang.value)
        digest = table_digest(face, caption, markup)
        target = Target(game.id, Role.TABLE)
        if existing is not None and buried is not None:
            photo = await self._photo(game, view, names, lang.value, face, existing)
            await self._send(game, photo, caption, markup, face, digest)
            self._rounds[game.id] = view.round_no
            await self._delete(game, existing.message_id)
            return
        if existing is not None and existing.digest == digest:
            self._rounds[game.id] = view.round_no
            if not game.status.active and game.id in self._pinned:
                await self._unpin(game, existing.message_id)
            return
        photo = await self._photo(game, view, names, lang.value, face, existing)
        if existing is None:
            await self._send(game, photo, caption, markup, face, digest)
            self._rounds[game.id] = view.round_no
            return
        try:
            edited = await self.out.call(
                game.chat_id,
                EditMessageMedia(
                    chat_id=game.chat_id,
                    message_id=existing.message_id,
                    media=InputMediaPhoto(media=photo, caption=caption, parse_mode="HTML"),
                    reply_markup=markup,
                ),
                merge_key=("table", game.chat_id, existing.message_id),
            )
        except TelegramBadRequest as exc:
            if "message to edit not found" not in exc.message:
                raise
            # Deleted, or left behind in the basic group a supergroup replaced: a new one.
            await self.records.forget(target)
            self._mark(target)
            return
        file_id = self._uploaded(game.id, face, photo, edited) or existing.file_id
        await self.records.remember(target, game.chat_id, existing.message_id, file_id, digest)
        self._rounds[game.id] = view.round_no
        if not game.status.active:
            await self._unpin(game, existing.message_id)

    async def _photo(
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
        self.shown[game.id] = asyncio.get_running_loop().time()
        known = self._pictures.get(game.id)
        if known is not None and known[0] == face:
            return known[1]
        if existing is not None and existing.file_id and shows_face(existing.digest, face):
            return existing.file_id
        perf.count("render.table")
        picture = await self._painter.draw(self.render_table, view, names, lang)
        return BufferedInputFile(picture, filename=f"table-{game.id}.png")

    def _uploaded(
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

    async def _buried(
        self, game: GameRecord, table: MessageRecord, round_no: int
    ) -> GameRecord | None:
        """The running match as it stands now if its table is to be sent anew at the
        bottom, else None: an announcement of the game came below it. At a round's start
        the last round's result is waited for first (`ANNOUNCED_WAIT`), so that the new
        round's table comes below it, unless the match ended meanwhile (then its last
        words come below the final table). After a restart, which forgets what was
        announced, a table the group's newer messages buried (`tail`) the first time it
        is brought up to date."""
        if game.status is not GameStatus.PLAYING:
            return None
        shown = self._rounds.get(game.id)
        if shown is not None and round_no > shown:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._round_announced(game.id, round_no - 1), ANNOUNCED_WAIT)
            game = self.records.games.get(game.id) or game
            if game.status is not GameStatus.PLAYING:
                return None
        newest = self._newest_announcement(game.id)
        if newest is not None:
            return game if newest > table.message_id else None
        sunk = shown is None and self.tail.sunk(game.chat_id, table.message_id)
        return game if sunk else None

    async def _send(
        self,
        game: GameRecord,
        photo: str | BufferedInputFile,
        caption: str,
        markup: InlineKeyboardMarkup | None,
        face: str,
        digest: str,
    ) -> None:
        """A new table message at the bottom of the group, pinned while the match runs."""
        sent: Message = await self.out.call(
            game.chat_id,
            SendPhoto(
                chat_id=game.chat_id,
                message_thread_id=game.thread_id,
                photo=photo,
                caption=caption,
                parse_mode="HTML",
                reply_markup=markup,
            ),
        )
        target = Target(game.id, Role.TABLE)
        file_id = self._uploaded(game.id, face, photo, sent)
        await self.records.remember(
            target, game.chat_id, sent.message_id, file_id, digest, new=True
        )
        # A new table message (the first, one sent anew at a round's start or in a
        # supergroup or after a deletion): the hands already shown must have their
        # «table» button lead to it (a game that ends meanwhile shows them no more).
        messages = await self.records.messages_of(game.id)
        for seat in game.seats:
            if (Role.HAND, seat.seat) in messages:
                self._mark(Target(game.id, Role.HAND, seat.seat))
        if game.status is GameStatus.PLAYING and await self.pins.pin(game.chat_id, sent.message_id):
            self._pinned[game.id] = sent.message_id

    async def _delete(self, game: GameRecord, message_id: int) -> None:
        """The table message a new one replaced goes (and its pin with it); one Telegram
        no longer lets the bot delete (48 hours old) loses its button instead, so that
        only the live table looks live."""
        try:
            await self.out.call(
                game.chat_id, DeleteMessage(chat_id=game.chat_id, message_id=message_id)
            )
            return
        except (TelegramBadRequest, *TELEGRAM_FAILURES) as exc:
            log.info(
                "chat %s game %s: the old table %s stays: %s",
                game.chat_id,
                game.id,
                message_id,
                exc,
            )
        with contextlib.suppress(TelegramBadRequest, *TELEGRAM_FAILURES):
            await self.out.call(
                game.chat_id,
                EditMessageReplyMarkup(chat_id=game.chat_id, message_id=message_id),
            )

    async def _unpin(self, game: GameRecord, message_id: int) -> None:
        """The match is over: its table is unpinned (once)."""
        if game.id in self._unpinned:
            return
        self._unpinned[game.id] = True
        self._pinned.pop(game.id)
        await self.pins.unpin(game.chat_id, message_id)


def table_digest(face: str, caption: str, markup: InlineKeyboardMarkup | None = None) -> str:
    """What a table message shows: its picture's face (`game_messages.table_face`), its
    caption and its button, hashed; the face stays readable in it (`shows_face`)."""
    return f"{face}.{digest_of(caption, markup_data(markup))}"


def shows_face(digest: str | None, face: str) -> bool:
    """Whether a table message of `digest` shows the picture of `face`."""
    return digest is not None and digest.partition(".")[0] == face


def photo_id(answer: Message | bool) -> str | None:
    """The file id of the picture Telegram answered with, if it answered with one."""
    if isinstance(answer, Message) and answer.photo:
        return answer.photo[-1].file_id
    return None
