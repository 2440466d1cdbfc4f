"""The lobby: open it (or again after a match), join by deep link, the rules it is
played by, and close it when nobody starts it in time. The changes its buttons ask for
are `LobbyChanges`'."""

from __future__ import annotations

import dataclasses
import logging

from bot.app.effects import NOTHING, ClosedHand, Done, Effects
from bot.app.lobby_rules import playable_game
from bot.app.names import short_name
from bot.app.people import Person
from bot.app.reply import Reply
from bot.app.usecases import tournament_tables
from bot.app.usecases.base import MemberCheck, Refusal, chat_title, utcnow
from bot.app.usecases.lobby_changes import LobbyChanges
from bot.app.usecases.tournaments import check_drawn, table_deadline
from domino.ai import Level
from domino.rules import Ruleset
from domino.variants import GameVariant
from i18n import t
from storage import repo
from storage.records import ChatRecord, GameStatus, SeatRecord

log = logging.getLogger(__name__)


class Lobby(LobbyChanges):
    """Everything before the deal: opening a lobby, seating by link, the changes to it
    (`LobbyChanges`), and the lobby that closes by itself."""

    async def open(
        self,
        chat: ChatRecord,
        person: Person,
        game: GameVariant | None = None,
        *,
        thread_id: int | None = None,
    ) -> Done[Reply | None]:
        """/domino in a group (in its forum topic `thread_id`; None: General, or a group
        that is no forum): a new lobby of `game` (None: the group's default game, as
        /settings keeps it), or the text pointing to the game already in that topic. An
        anonymous admin gets no seat, since nobody can write to them or show them a hand;
        the chat's admins control the lobby."""
        if game is None:
            game = playable_game(self.context.settings.of(chat.id).default_game)
        return await self._open(chat, person, game.ruleset, thread_id=thread_id)

    async def rematch(self, chat: ChatRecord, person: Person, game_id: int) -> Done[Reply]:
        """«🔁 Ещё партию» under a match's last word: a new lobby of the same game with the
        same options and table size in the same topic, the presser seated and the computers
        of that match seated again at their levels; the people join again themselves.
        Pressed on a game
        of another chat, or on one still running, it is stale and changes nothing."""
        self.people.noticed(person)
        ended = await repo.load_game(self.db, game_id)
        if ended is None or ended.chat_id != chat.id or ended.status.active:
            return Done(Reply("alert.stale", alert=True))
        if ended.tournament is not None:  # the tournament draws its tables itself
            return Done(Reply("tournament.table_fixed", alert=True))
        computers = tuple(seat.level for seat in ended.seats if seat.is_computer)
        done = await self._open(
            chat,
            person,
            ended.ruleset,
            seats_wanted=ended.seats_wanted,
            computers=computers,
            thread_id=ended.thread_id,
        )
        if done.value is not None:  # a game is already there, or the presser plays elsewhere
            return Done(dataclasses.replace(done.value, alert=True))
        return Done(Reply("answer.rematch_opened"), done.effects)

    async def _open(
        self,
        chat: ChatRecord,
        person: Person,
        ruleset: Ruleset,
        *,
        seats_wanted: int = 4,
        computers: tuple[Level, ...] = (),
        thread_id: int | None = None,
    ) -> Done[Reply | None]:
        """A new lobby of `ruleset` for `seats_wanted`, the opener seated (in a group that
        keeps hands in private, only if the bot can write to them; an anonymous admin
        never), then a computer for each of `computers` (their levels); or the text
        saying why not (a game already there, the opener playing elsewhere)."""
        async with self.db.transaction() as tx:
            await repo.upsert_chat(tx, chat)
            await repo.upsert_user(tx, person.record())
        lang = self.people.noticed(person)
        await self.context.settings.settle_language(chat, lang)  # the group's first game
        try:
            async with self.db.transaction() as tx:
                running = await repo.active_game_in_chat(tx, chat.id, thread_id)
                if running is not None:
                    key = (
                        "lobby.already_open"
                        if running.status is GameStatus.LOBBY
                        else "lobby.already_running"
                    )
                    return Done(Reply(key))
                user = await repo.get_user(tx, person.id)
                reached = user is not None and user.can_message
                in_group = self.context.settings.hands_in_group(chat.id)
                seated = (in_group or reached) and not person.anonymous_admin
                seats = [SeatRecord(0, person.id, short_name(person.name))] if seated else []
                for n, level in enumerate(computers[: seats_wanted - len(seats)], start=1):
                    name = t("computer.name", lang, n=n)
                    seats.append(SeatRecord(len(seats), None, name, level=level))
                created = await repo.create_game(
                    tx,
                    chat_id=chat.id,
                    creator_id=person.id,
                    ruleset=ruleset,
                    seats_wanted=seats_wanted,
                    seats=seats,
                    join_token=self.new_join_token(),
                    lobby_deadline=self.context.lobby_deadline(chat.id),
                    thread_id=thread_id,
                )
        except repo.PlayerBusy:  # raised out of the transaction, so the lobby is rolled back
            busy = await repo.active_game_of_user(self.db, person.id)
            title = await chat_title(self.db, busy.chat_id if busy else chat.id)
            return Done(Reply.of("lobby.you_play_elsewhere", chat=title))
        log.info(
            "chat %s game %s: %s lobby opened by %s",
            chat.id,
            created.id,
            ruleset.variant.value,
            person.id,
        )
        return Done(None, Effects(games=(created,)))

    async def rules_for(
        self, chat_id: int | None, person_id: int, thread_id: int | None = None
    ) -> Ruleset:
        """The rules /rules shows: those of the game in the group `chat_id`'s topic
        `thread_id` (lobby or match), else the group's default game's; in a private chat
        (None) those of the person's own game, else the first game's."""
        if chat_id is None:
            game = await repo.active_game_of_user(self.db, person_id)
            return game.ruleset if game is not None else playable_game(None).ruleset
        game = await repo.active_game_in_chat(self.db, chat_id, thread_id)
        if game is not None:
            return game.ruleset
        return playable_game(self.context.settings.of(chat_id).default_game).ruleset

    async def start(self, person: Person) -> Done[Reply]:
        """/start in the private chat without a join link: the person can be written to;
        their hand comes anew at the bottom of the chat, as by /hand (the one above, if
        any, says it moved)."""
        await self.people.remember(person, can_message=True)
        game = await repo.active_game_of_user(self.db, person.id)
        seat = game.seat_of(person.id) if game is not None else None
        if game is not None and game.status is GameStatus.PLAYING and seat is not None:
            moved = ClosedHand(game, seat.seat, person.id, "hand.moved", person.lang)
            shown = Effects(closed_hands=(moved,), hands=((game.id, seat.seat),))
            return Done(Reply("start.back_in_game"), shown)
        return Done(Reply("start.welcome"))

    async def stale_link(self, person: Person) -> Done[Reply]:
        """/start with a join link that is no longer honoured (an old numbered one, or a
        mangled one): the person can be written to, and is told the link is out of date."""
        await self.people.remember(person, can_message=True)
        return Done(Reply("start.link_stale"))

    async def join_by_link(self, person: Person, token: str, is_member: MemberCheck) -> Done[Reply]:
        """/start with a lobby's join link (its `token`): the person can now be written to;
        seat them if they are a member of the lobby's group (a link passed on to
        strangers seats nobody)."""
        await self.people.remember(person, can_message=True)
        try:
            found = await repo.game_by_join_token(self.db, token)
            if found is None:
                raise Refusal("start.link_stale")
            if not await is_member(found.chat_id, person.id):
                raise Refusal("start.not_a_member", chat=await chat_title(self.db, found.chat_id))
            async with self.db.transaction() as tx:
                game = await repo.load_game(tx, found.id)
                if game is None or game.status is not GameStatus.LOBBY:
                    raise Refusal("alert.lobby_closed")
                title = await chat_title(tx, game.chat_id)
                if game.seat_of(person.id) is not None:
                    return Done(Reply.of("start.already_joined", chat=title))
                if game.tournament is not None:
                    await check_drawn(tx, game, person)
                saved = await repo.save_game(tx, await self.sit(tx, game, person))
        except Refusal as refusal:
            return Done(refusal.reply)
        except repo.PlayerBusy:
            busy = found is not None and found.tournament is not None
            return Done(
                Reply("tournament.finish_other_game" if busy else "alert.playing_elsewhere")
            )
        log.info("chat %s game %s: %s joined by link", saved.chat_id, saved.id, person.id)
        return Done(Reply.of("start.joined", chat=title), Effects(games=(saved,)))

    async def time_out(self, game_id: int) -> Done[None] | None:
        """Nobody started the lobby in its group's time: it closes and the group is told
        (a game with no match is announced as plain text). A tournament table's show-up
        time ran out: the absent are forfeited (`tournaments.table_deadline`). None if it
        was started or closed meanwhile. One transaction: the background retries it
        whole."""
        shown = await repo.load_game(self.db, game_id)
        if shown is None or shown.status is not GameStatus.LOBBY:
            return None
        minutes = self.context.settings.of(shown.chat_id).lobby_timeout
        lang = await self.context.settings.language_of(shown)
        async with self.db.transaction() as tx:
            game = await repo.load_game(tx, game_id)
            if game is None or game.status is not GameStatus.LOBBY:
                return None
            if game.tournament is not None:
                names_lang = await self.people.language_of(game.creator_id, tx)
                resolved = await table_deadline(tx, game, self.context, names_lang)
                if resolved is not None:  # the absent forfeited, the table told
                    changed, effects = resolved
                    saved = await repo.save_game(tx, changed)
                    log.info(
                        "chat %s game %s: the table's show-up time ran out", saved.chat_id, saved.id
                    )
                    return Done(None, Effects(games=(saved,)) + effects)
            saved = await repo.save_game(tx, game.ended(GameStatus.CANCELLED, utcnow()))
            await repo.enqueue(
                tx,
                game_id=game.id,
                chat_id=game.chat_id,
                kind="notice",
                payload={
                    "key": "notice.lobby_timed_out",
                    "lang": lang,
                    "values": {"minutes": minutes},
                },
            )
            freed = NOTHING
            if saved.tournament is None:
                freed = await tournament_tables.topic_freed(tx, saved.chat_id)
        log.info("chat %s game %s: the lobby closed unstarted", saved.chat_id, saved.id)
        return Done(None, Effects(games=(saved,), announcements=True) + freed)
