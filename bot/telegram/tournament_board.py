"""The group message that shows a tournament in its topic: the sign-up with its buttons,
then the current round, its tables and the standings, then the final standings
(`bot.telegram.presenter.tournament`). `TournamentBoard` keeps it in step with the
stored tournament, one worker per tournament that always shows the newest state
(`bot.infra.workers.Resync`), as the vote board does for votes.

Which message it is and what it shows are stored (`storage.tournament_messages`), so a
restart edits it rather than sending another. The organiser's menus (settings, the
list of games, whom to remove, a confirmation) are shown in place of the message's
buttons; which one is open lives in memory only: after a restart the message shows its
own buttons again.

`TableTopics` opens the tables due, each in a forum topic of its own where the bot may
make one.

Both work for a tournament only while this instance plays its chat, in that chat's
scope (`bot.app.ownership`); `let_go` stops them for the chats another instance takes."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence

from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.methods import CreateForumTopic, DeleteMessage

from bot.app.group_settings import GroupSettings
from bot.app.ownership import EVERY_CHAT, Ownership
from bot.infra.lru import Lru
from bot.infra.workers import Resync
from bot.telegram.delivery import (
    TELEGRAM_FAILURES,
    TELEGRAM_PAUSE,
    digest_of,
    markup_data,
    send_or_edit,
)
from bot.telegram.outgoing import Outgoing
from bot.telegram.presenter.tournament import (
    MAIN_MENU,
    Menu,
    board_keyboard,
    board_text,
    topic_title,
)
from i18n import DEFAULT_LANG, Lang
from storage import repo
from storage import tournament_messages as messages
from storage import tournaments as store
from storage.db import Database
from storage.records import TableDue, TournamentRecord
from storage.tournament_messages import TournamentMessage

log = logging.getLogger(__name__)

OPEN_MENUS = 1000  # tournaments whose organiser's menu is remembered
GONE = ("message to edit not found", "message can't be edited", "MESSAGE_ID_INVALID")


class TournamentBoard:
    """Sends each tournament's message once and edits it as the stored tournament (or
    its open menu) changes; `resend` puts it at the bottom of its topic."""

    def __init__(
        self,
        db: Database,
        out: Outgoing,
        settings: GroupSettings,
        ownership: Ownership = EVERY_CHAT,
    ) -> None:
        self.db = db
        self.out = out
        self.settings = settings  # each group's language
        self.ownership = ownership  # which chats this instance plays, and their scope
        self._chats: Lru[int, int] = Lru(OPEN_MENUS)  # each tournament's chat, once read
        self._menus: Lru[int, Menu] = Lru(OPEN_MENUS)
        self._fresh: set[int] = set()  # tournaments whose message goes to the bottom
        self._workers: Resync[int] = Resync(
            self._sync_safely, describe="tournament {}: its message".format
        )

    def show(self, tournament_id: int) -> None:
        """The tournament changed (committed): bring its message up to date."""
        self._workers.mark(tournament_id)

    def open_menu(self, tournament_id: int, menu: Menu) -> None:
        """Show `menu` in place of the message's buttons (`MAIN_MENU`: its own again)."""
        if menu == MAIN_MENU:
            self._menus.pop(tournament_id)
        else:
            self._menus[tournament_id] = menu
        self._workers.mark(tournament_id)

    def menu_of(self, tournament_id: int) -> Menu:
        return self._menus.get(tournament_id) or MAIN_MENU

    def resend(self, tournament_id: int) -> None:
        """The message again at the bottom of its topic (the one before deleted)."""
        self._fresh.add(tournament_id)
        self._workers.mark(tournament_id)

    async def idle(self) -> None:
        """Wait until every tournament's message is up to date (shutdown)."""
        await self._workers.idle()

    async def let_go(self, owned: Callable[[int], bool]) -> None:
        """Stop showing the tournaments of the chats `owned` picks (another instance
        does): their workers end, their open menus are forgotten."""
        those = [
            tournament_id
            for tournament_id in self._chats.keys()  # noqa: SIM118 (an Lru, not a dict)
            if (chat_id := self._chats.get(tournament_id)) is not None and owned(chat_id)
        ]
        await self._workers.drop(lambda tournament_id: tournament_id in those)
        for tournament_id in those:
            self._menus.pop(tournament_id)
            self._fresh.discard(tournament_id)

    async def _sync_safely(self, tournament_id: int) -> None:
        try:
            await self._sync(tournament_id)
        except (TelegramBadRequest, TelegramForbiddenError) as exc:
            log.info("tournament %s: its message could not be updated: %s", tournament_id, exc)

    async def language(self, tournament: TournamentRecord) -> Lang:
        """The group's language (its creator's while the group has none)."""
        chosen = self.settings.language(tournament.chat_id)
        if chosen is not None:
            return chosen
        return await self.settings.people.language_of(tournament.creator_id)

    async def organiser_name(self, tournament: TournamentRecord) -> str:
        user = await repo.get_user(self.db, tournament.creator_id)
        return user.display_name if user is not None else "?"

    async def _sync(self, tournament_id: int) -> None:
        tournament = await store.load(self.db, tournament_id)
        if tournament is None:
            return
        self._chats[tournament_id] = tournament.chat_id
        if not self.ownership.owns(tournament.chat_id):
            log.debug(
                "tournament %s: shown by the instance that plays chat %s",
                tournament_id,
                tournament.chat_id,
            )
            return
        with self.ownership.acting(tournament.chat_id):
            await self._show(tournament)

    async def _show(self, tournament: TournamentRecord) -> None:
        tournament_id = tournament.id
        lang = await self.language(tournament)
        menu = self.menu_of(tournament_id)
        if not tournament.status.live:
            self._menus.pop(tournament_id)
            menu = MAIN_MENU
        text = board_text(tournament, await self.organiser_name(tournament), lang, menu)
        markup = board_keyboard(tournament, lang, menu)
        digest = digest_of(text, markup_data(markup))
        shown = await messages.load(self.db, tournament_id)
        if tournament_id in self._fresh:
            self._fresh.discard(tournament_id)
            if shown is not None:
                await self._delete(shown)
                await messages.forget(self.db, tournament_id)
                shown = None
        if shown is not None and shown.digest == digest:
            return
        message_id = None if shown is None else shown.message_id
        try:
            message_id = await send_or_edit(
                self.out,
                tournament.chat_id,
                message_id,
                text,
                markup,
                thread_id=tournament.thread_id,
            )
        except TelegramBadRequest as exc:
            if message_id is None or not any(reason in exc.message for reason in GONE):
                raise
            log.info("tournament %s: its message is gone, sent anew: %s", tournament_id, exc)
            message_id = await send_or_edit(
                self.out, tournament.chat_id, None, text, markup, thread_id=tournament.thread_id
            )
        await messages.put(
            self.db, TournamentMessage(tournament_id, tournament.chat_id, message_id, digest)
        )

    async def _delete(self, shown: TournamentMessage) -> None:
        try:
            await self.out.call(
                shown.chat_id, DeleteMessage(chat_id=shown.chat_id, message_id=shown.message_id)
            )
        except TelegramBadRequest as exc:  # gone already, or too old to delete: stays
            log.info("tournament %s: the message before stays: %s", shown.tournament_id, exc)


TableKey = tuple[int, int, int]
"""A tournament's table: (tournament id, round, table)."""

TableOpener = Callable[[int, int, int, int | None], Awaitable[None]]
"""Opens a tournament's table in a topic (None: the tournament's own) and carries out
what that commits: `Tournaments.open_table` through the dispatcher, given by the
composition root."""

TOPICS_REFUSED = ("the chat is not a forum", "not enough rights")
TOPICS_REMEMBERED = 1000  # tables whose topic is remembered, and groups found without
TOPICS_RETRY = 600.0  # seconds before a group that refused a topic is asked again


class TableTopics:
    """A forum topic per tournament table («🏆 Тур 2 · стол 1», createForumTopic), so a
    round's tables play at once; in a group where the bot may not make one (no forum, no
    right) the table opens in the tournament's topic (docs/tournaments.md, «Tables»).
    The tables are opened as the commit that made them due is carried out; one that
    meets a database refusing for the moment, or Telegram failing after the queue's
    retries, is tried again by a worker of its own. A topic made for a table is
    remembered, so a table offered twice (a repeated commit, the pickup) is not given
    a second one."""

    def __init__(
        self,
        db: Database,
        out: Outgoing,
        settings: GroupSettings,
        open_table: TableOpener,
        announced: Callable[[], Awaitable[object]] | None = None,
        ownership: Ownership = EVERY_CHAT,
    ) -> None:
        self.db = db
        self.out = out
        self.settings = settings
        self.ownership = ownership  # which chats this instance plays, and their scope
        self.open_table = open_table
        # Sends the announcements owed before a table opens (`Publisher.flush_outbox`):
        # the last table's result and standings, and the round's announcement, come in
        # the group before the next table's lobby.
        self.announced = announced
        self._made: Lru[TableKey, int] = Lru(TOPICS_REMEMBERED)
        # Groups that refused a topic, and when: asked again after `TOPICS_RETRY` (an
        # admin may give the bot the right meanwhile).
        self._no_topics: Lru[int, float] = Lru(TOPICS_REMEMBERED)
        self._due: dict[TableKey, TableDue] = {}
        self._workers: Resync[TableKey] = Resync(
            self._open_one, describe="tournament {0[0]}: table {0[1]}.{0[2]}".format
        )

    async def open(self, due: Sequence[TableDue]) -> None:
        """Open these tables soon, each by a worker of its own, so the press whose commit
        made them due is answered first (opening one sends what is owed before, makes a
        topic, and sends the lobby); one that meets a database refusing for the moment
        or Telegram failing after the queue's retries is tried again after a pause."""
        for table in due:
            key = (table.tournament_id, table.round_no, table.table_no)
            self._due[key] = table
            self._workers.mark(key)

    async def idle(self) -> None:
        """Wait until every table offered has been opened or given up (tests, shutdown)."""
        await self._workers.idle()

    async def let_go(self, owned: Callable[[int], bool]) -> None:
        """Open no table of the chats `owned` picks (another instance opens them: its
        pickup offers the tables due again)."""
        those = [key for key, table in self._due.items() if owned(table.chat_id)]
        await self._workers.drop(lambda key: key in those)
        for key in those:
            self._due.pop(key, None)

    async def _open_one(self, key: TableKey) -> None:
        """The worker's try (a refusal of the database for the moment is tried again by
        `Resync` itself)."""
        try:
            await self._open_now(key)
        except TELEGRAM_FAILURES as exc:
            log.warning("tournament %s: table %s.%s waits: %s", key[0], key[1], key[2], exc)
            self._workers.again(key, after=TELEGRAM_PAUSE)

    async def _open_now(self, key: TableKey) -> None:
        table = self._due.get(key)
        if table is None:
            return
        if not self.ownership.owns(table.chat_id):
            log.debug("tournament %s: its tables are opened by another instance", key[0])
            self._due.pop(key, None)
            return
        with self.ownership.acting(table.chat_id):
            await self._open_in_scope(key, table)

    async def _open_in_scope(self, key: TableKey, table: TableDue) -> None:
        if self.announced is not None:
            await self.announced()
        try:
            thread_id = await self.topic_for(table)
            # A topic with a game on (the tournament's, where tables play one after
            # another) is not asked for: the core offers the table again when that game
            # ends, and asking meanwhile only competes with that game's presses.
            if await repo.active_game_in_chat(self.db, table.chat_id, thread_id) is None:
                await self.open_table(
                    table.tournament_id, table.round_no, table.table_no, thread_id
                )
        except (TelegramBadRequest, TelegramForbiddenError) as exc:
            log.warning("tournament %s: table %s.%s not opened: %s", key[0], key[1], key[2], exc)
        self._due.pop(key, None)

    async def topic_for(self, table: TableDue) -> int | None:
        """The table's own topic, made now if need be; the tournament's where none can be."""
        key = (table.tournament_id, table.round_no, table.table_no)
        made = self._made.get(key)
        if made is not None:
            return made
        refused = self._no_topics.get(table.chat_id)
        if refused is not None and time.monotonic() - refused < TOPICS_RETRY:
            return table.thread_id
        lang = self.settings.language(table.chat_id) or DEFAULT_LANG
        try:
            topic = await self.out.call(
                table.chat_id,
                CreateForumTopic(
                    chat_id=table.chat_id, name=topic_title(table.round_no, table.table_no, lang)
                ),
            )
        except TelegramBadRequest as exc:
            if not any(reason in exc.message for reason in TOPICS_REFUSED):
                raise
            log.info("chat %s: tables play in the tournament's topic: %s", table.chat_id, exc)
            self._no_topics[table.chat_id] = time.monotonic()
            return table.thread_id
        self._made[key] = topic.message_thread_id
        return topic.message_thread_id
