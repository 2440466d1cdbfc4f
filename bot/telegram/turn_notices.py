"""«🔔 Ваш ход»: a short message that tells a person their turn has started.

It goes where the person's hand is: to their private chat if their hand goes there
(`People.private_hand`: they want it there or in both places, and the bot may write to
them), else inside the group as an ephemeral message they alone see, with «✋ Мои кости»
to bring the hand there. An ephemeral notice is kept in memory only: one a stop left
behind expires by itself.

Telegram notifies nobody of an edit, and the hand is a message edited in place, so a
person not watching the chat learns of their turn only when its time runs out. When a
person's turn STARTS (the turn passes to their seat, or a round starts with them
leading; drawing from the bazaar keeps the same turn, and so do the tiles of a turn of
several in Блиц and Крест) and is still theirs after
`after` seconds (TURN_NOTICE_AFTER; someone watching and pressing at once gets
nothing), a short message goes to their private chat, which notifies them; it is
deleted as soon as that turn ends (their move, a timeout, a takeover, the round's or
the match's end), so the chat keeps only the hand.

`TurnNotices.follow(game)` sees every committed game, as the turn timers do (the
effects hand them to both through `Followers`). A turn is named by its game, round,
seat and the move number it began at (`turn_of`), so a record skipped or seen twice
changes nothing. Each notice sent is stored (`storage.turn_notices`) the moment
Telegram answers, before anything else runs, so a notice a stop left behind is deleted
by the next start (`load`). Everything goes through the person's private chat's queue
(`Outgoing.call`, `Lane.GAME`), within its pacing. A person mutes the notices in the
private /settings (`set_wanted`; `users.turn_notices`).

With several instances that all play (`bot.app.ownership`), a notice goes only while
this instance plays its game's chat, and everything done for it runs in that chat's
scope; `let_go` drops the notices of the chats another instance takes (one sent stays
stored, and the instance that picks the game up deletes it, as a restart does).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Protocol

from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.methods import DeleteEphemeralMessage, DeleteMessage, SendMessage
from aiogram.types import (
    EphemeralMessageParameters,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
)

from bot.app.ownership import EVERY_CHAT, Ownership
from bot.app.people import People, Person
from bot.app.timers import turn_start
from bot.infra.lru import Lru
from bot.telegram.callbacks import GroupHandCb
from bot.telegram.delivery import TELEGRAM_FAILURES
from bot.telegram.outgoing import Lane, Outgoing
from i18n import t
from storage import repo
from storage import turn_notices as store
from storage.db import DATABASE_ERRORS, Database, is_transient
from storage.records import GameRecord, GameStatus, HandsPlace

log = logging.getLogger(__name__)

TURN_NOTICE_AFTER = 4.0  # seconds a turn waits before its notice goes (the default)
CACHED_PEOPLE = 100_000  # people whose choice is remembered in memory
CACHED_TITLES = 10_000  # groups whose title is remembered (as the publisher's)

Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Turn:
    """A person's turn: `seat` of game `game_id` to move in round `round_no`, since the
    match's move number `start` (draws from the bazaar keep the turn, and so do the tiles
    laid in a turn of several, section V: `bot.app.timers.turn_start`)."""

    game_id: int
    round_no: int
    seat: int
    start: int
    user_id: int


def turn_of(game: GameRecord) -> Turn | None:
    """The turn of the person to move in `game`; None when nobody is (a computer's turn,
    a person a computer plays for, a game not in play)."""
    match = game.match
    if game.status is not GameStatus.PLAYING or match is None or match.turn is None:
        return None
    seat = game.seats[match.turn]
    if seat.user_id is None or seat.by_computer:
        return None
    return Turn(game.id, match.round_no, match.turn, turn_start(match), seat.user_id)


@dataclass(eq=False)
class _Notice:
    """The notice of one turn: waiting for the grace to pass, being sent, or sent."""

    turn: Turn
    chat_id: int  # the game's chat: whose instance sends and deletes the notice
    task: asyncio.Task[None] | None = None
    sending: bool = False  # handed to the queue: only its answer tells the message's id
    message_id: int | None = None
    group: int | None = None  # sent inside this group (ephemeral: `message_id` its id there)
    ended: bool = False  # the turn is over: the notice is not sent, or is deleted

    def over(self) -> bool:
        return self.ended


class TurnNotices:
    """The notices of people's turns, one a game at most."""

    def __init__(
        self,
        db: Database,
        out: Outgoing,
        people: People,
        *,
        after: float = TURN_NOTICE_AFTER,
        sleep: Sleep = asyncio.sleep,
        hands: Callable[[int], HandsPlace] | None = None,
        ownership: Ownership = EVERY_CHAT,
    ) -> None:
        self.db = db
        self.out = out
        self.people = people  # each person's language, and where their hand goes
        # A group's default place for hands (`GroupSettings`); None: private, as before.
        self.hands = hands
        self.after = after
        self.sleep = sleep
        self.ownership = ownership  # which chats this instance plays, and their scope
        self._versions: dict[int, int] = {}  # the newest record seen of each game in play
        self._chats: dict[int, int] = {}  # the chat of each game in `_versions`
        self._notices: dict[int, _Notice] = {}  # game id -> the notice of its running turn
        # The tasks under way, each with the chat it works for (None: none known).
        self._tasks: dict[asyncio.Task[None], int | None] = {}
        self._wanted: Lru[int, bool] = Lru(CACHED_PEOPLE)
        self._titles: Lru[int, str] = Lru(CACHED_TITLES)
        self._closing = False

    # --- the choice (private /settings) -----------------------------------------------

    async def wanted(self, user_id: int) -> bool:
        """Whether the person wants turn notices (the default: yes)."""
        wanted = self._wanted.get(user_id)
        if wanted is None:
            loaded = await store.notices_wanted(self.db, user_id)
            wanted = self._wanted.get(user_id)  # set_wanted may have answered meanwhile
            if wanted is None:
                wanted = self._wanted[user_id] = loaded
        return wanted

    async def set_wanted(self, person: Person, wanted: bool) -> None:
        async with self.db.transaction() as tx:
            await store.set_notices_wanted(tx, person.record(), wanted)
        self._wanted[person.id] = wanted

    # --- turns ------------------------------------------------------------------------

    async def load(self) -> None:
        """At the start: delete the notices a stop left behind (their turns are over or
        get a new notice)."""
        for notice in await store.stored_notices(self.db):
            self._spawn(self._delete(notice.chat_id, notice.message_id))

    async def clear_left(
        self, chat_of_game: Callable[[int], Awaitable[int | None]], owned: Callable[[int], bool]
    ) -> None:
        """When this instance takes over the chats `owned` picks: delete the notices left
        behind for their games (by a stop, or by the instance that played them before).
        A notice of a game no longer stored goes with its person's private chat."""
        for notice in await store.stored_notices(self.db):
            chat_id = await chat_of_game(notice.game_id) or notice.chat_id
            if owned(chat_id):
                self._spawn(self._delete(notice.chat_id, notice.message_id), chat_id)

    async def let_go(self, owned: Callable[[int], bool]) -> None:
        """Stop noticing turns in the chats `owned` picks (another instance plays them):
        a notice still waiting is not sent, one on its way is waited for (its answer
        stores it), one sent stays stored for that instance to delete."""
        for game_id, notice in list(self._notices.items()):
            if owned(notice.chat_id):
                del self._notices[game_id]
                if not notice.sending and notice.task is not None:
                    notice.task.cancel()
        for game_id, chat_id in list(self._chats.items()):
            if owned(chat_id):
                del self._chats[game_id]
                self._versions.pop(game_id, None)
        tasks = [
            task for task, chat_id in self._tasks.items() if chat_id is not None and owned(chat_id)
        ]
        if tasks:
            await asyncio.wait(tasks)

    def forget(self, game_id: int) -> None:
        """The next `follow` of this game is taken as it comes (the database went back)."""
        self._versions.pop(game_id, None)
        self._chats.pop(game_id, None)

    def follow(self, game: GameRecord) -> None:
        """`game` was just committed (or picked up at a restart): a person's turn that
        started gets its notice after the grace; the one that ended loses it."""
        seen = self._versions.get(game.id)
        if seen is not None and seen > game.version:
            return  # an older record arriving late
        if game.status is GameStatus.PLAYING:
            self._versions[game.id] = game.version
            self._chats[game.id] = game.chat_id
        else:
            self._versions.pop(game.id, None)
            self._chats.pop(game.id, None)
        turn = turn_of(game)
        notice = self._notices.get(game.id)
        if notice is not None and notice.turn == turn:
            return  # the same turn (a draw, a notice in the group, another seat's press)
        if notice is not None:
            del self._notices[game.id]
            self._end(notice)
        if turn is not None and not self._closing:
            notice = self._notices[game.id] = _Notice(turn, game.chat_id)
            work = self._notify(game.chat_id, notice, game.thread_id)
            notice.task = self._spawn(work, game.chat_id)

    def _end(self, notice: _Notice) -> None:
        notice.ended = True
        if self._closing:
            return  # stored: the next start deletes it (the database closes meanwhile)
        user_id, message_id = notice.turn.user_id, notice.message_id
        if message_id is not None and notice.group is not None:
            self._spawn(self._delete_in_group(notice.group, user_id, message_id), notice.chat_id)
        elif message_id is not None:
            self._spawn(self._delete(user_id, message_id), notice.chat_id)
        elif not notice.sending and notice.task is not None:
            notice.task.cancel()
        # Being sent: `_notify` deletes it as soon as Telegram tells its id.

    async def _notify(self, group_id: int, notice: _Notice, thread_id: int | None) -> None:
        await self.sleep(self.after)
        if not self.ownership.owns(group_id):
            log.debug("game %s: its turn is noticed by another instance", notice.turn.game_id)
            return
        user_id = notice.turn.user_id
        # Until it is handed to the queue, a turn that ends cancels this task (`_end`).
        if not await self.wanted(user_id):
            return
        default = self.hands(group_id) if self.hands is not None else HandsPlace.PRIVATE
        if not await self.people.private_hand(user_id, default):
            await self._notify_in_group(group_id, notice, thread_id)
            return
        lang = await self.people.language_of(user_id)
        text = t("notice.turn", lang, chat=await self._title(group_id))

        async def sent(answer: object) -> None:
            # Stored in the queue's worker as soon as Telegram answered: a stop right now
            # still leaves a row for the next start to delete the message by.
            # That worker runs in no scope of ours: the game's chat's is set here.
            if isinstance(answer, Message):
                with self.ownership.acting(group_id):
                    await self._store(
                        store.StoredNotice(user_id, answer.message_id, notice.turn.game_id)
                    )

        notice.sending = True
        try:
            answer = await self.out.call(
                user_id, SendMessage(chat_id=user_id, text=text), lane=Lane.GAME, on_sent=sent
            )
        except (TelegramForbiddenError, TelegramBadRequest, *TELEGRAM_FAILURES) as exc:
            log.info("game %s: no turn notice for %s: %s", notice.turn.game_id, user_id, exc)
            return
        notice.message_id = answer.message_id
        if notice.over():  # the turn ended while the notice was on its way
            await self._delete(user_id, answer.message_id)

    async def _notify_in_group(self, group_id: int, notice: _Notice, thread_id: int | None) -> None:
        """The notice as an ephemeral message in the group, for the person alone, with
        «✋ Мои кости» (their hand may have expired meanwhile)."""
        user_id = notice.turn.user_id
        lang = await self.people.language_of(user_id)
        button = InlineKeyboardButton(
            text=t("btn.my_hand", lang), callback_data=GroupHandCb(game=notice.turn.game_id).pack()
        )
        notice.sending = True
        try:
            answer = await self.out.call(
                group_id,
                SendMessage(
                    chat_id=group_id,
                    message_thread_id=thread_id,
                    text=t("notice.turn_in_group", lang),
                    reply_markup=InlineKeyboardMarkup(inline_keyboard=[[button]]),
                    ephemeral_message_parameters=EphemeralMessageParameters(
                        receiver_user_id=user_id
                    ),
                ),
                lane=Lane.GAME,
            )
        except (TelegramForbiddenError, TelegramBadRequest, *TELEGRAM_FAILURES) as exc:
            log.info("game %s: no turn notice in the group: %s", notice.turn.game_id, exc)
            return
        if answer.ephemeral_message_id is None:
            return
        notice.group, notice.message_id = group_id, answer.ephemeral_message_id
        if notice.over():  # the turn ended while the notice was on its way
            await self._delete_in_group(group_id, user_id, answer.ephemeral_message_id)

    async def _delete_in_group(self, group_id: int, user_id: int, ephemeral_id: int) -> None:
        """Delete an ephemeral notice; one gone already (expired) is forgotten."""
        try:
            await self.out.call(
                group_id,
                DeleteEphemeralMessage(
                    chat_id=group_id, receiver_user_id=user_id, ephemeral_message_id=ephemeral_id
                ),
                lane=Lane.GAME,
            )
        except (TelegramForbiddenError, TelegramBadRequest, *TELEGRAM_FAILURES) as exc:
            log.info("the turn notice %s in %s is gone or stays: %s", ephemeral_id, group_id, exc)

    async def _store(self, notice: store.StoredNotice) -> None:
        try:
            await store.remember_notice(self.db, notice)
        except DATABASE_ERRORS as exc:
            log.warning("the turn notice %s is not stored: %s", notice, exc)

    async def _delete(self, chat_id: int, message_id: int) -> None:
        """Delete a notice; one already gone (deleted by the person, the chat blocked) is
        forgotten, one Telegram could not be reached for is left to the next start."""
        try:
            await self.out.call(
                chat_id, DeleteMessage(chat_id=chat_id, message_id=message_id), lane=Lane.GAME
            )
        except (TelegramForbiddenError, TelegramBadRequest) as exc:
            log.info("the turn notice %s in %s is gone already: %s", message_id, chat_id, exc)
        except TELEGRAM_FAILURES as exc:
            log.warning("the turn notice %s in %s stays for now: %s", message_id, chat_id, exc)
            return
        try:
            await store.forget_notice(self.db, chat_id, message_id)
        except DATABASE_ERRORS as exc:
            log.warning("the turn notice %s in %s stays stored: %s", message_id, chat_id, exc)

    async def _title(self, chat_id: int) -> str:
        title = self._titles.get(chat_id)
        if title is None:
            chat = await repo.get_chat(self.db, chat_id)
            title = self._titles[chat_id] = chat.title if chat and chat.title else "?"
        return title

    def _spawn(
        self, work: Coroutine[None, None, None], chat_id: int | None = None
    ) -> asyncio.Task[None]:
        """A task of the notices, in the scope of the game's chat `chat_id` (if known)."""
        task = asyncio.ensure_future(self._scoped(work, chat_id))
        self._tasks[task] = chat_id
        task.add_done_callback(self._tasks_done)
        # A task cancelled before its first step (a stop right after a turn began) never
        # ran `work`: closed here, it is not reported as "never awaited" at the exit.
        task.add_done_callback(lambda _: work.close())
        return task

    def _tasks_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.pop(task, None)

    async def _scoped(self, work: Coroutine[None, None, None], chat_id: int | None) -> None:
        scope = contextlib.nullcontext() if chat_id is None else self.ownership.acting(chat_id)
        with scope:
            await _logged(work)

    async def close(self) -> None:
        """Stop (shutdown): notices not sent are not; those sent stay stored for the next
        start to delete."""
        self._closing = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._notices.clear()


async def _logged(work: Coroutine[None, None, None]) -> None:
    """A notice's task: a failure is logged, never raised. A notice is a courtesy: one
    that the database cannot help with for the moment is left out, in a WARNING line."""
    try:
        await work
    except DATABASE_ERRORS as exc:
        if not is_transient(exc):
            log.exception("a turn notice failed")
        else:
            log.warning("a turn notice is left out: the database refuses for the moment (%s)", exc)
    except Exception:
        log.exception("a turn notice failed")


class Follower(Protocol):
    def follow(self, game: GameRecord) -> None: ...
    def forget(self, game_id: int) -> None: ...


class Followers:
    """Several followers of committed games as one (the turn timers and the notices)."""

    def __init__(self, *followers: Follower) -> None:
        self.followers = followers

    def follow(self, game: GameRecord) -> None:
        for follower in self.followers:
            follower.follow(game)

    def forget(self, game_id: int) -> None:
        for follower in self.followers:
            follower.forget(game_id)
