"""The changes to an open lobby, asked by its buttons: join, leave, add a computer, set
its level, change an option, start, cancel, and remove someone seated. Joining and
leaving are anyone's; the rest the creator's or a chat admin's. A tournament table's
lobby is the tournament's: only the people drawn to it join, its match starts once they
are in, and nobody changes it otherwise (`bot.app.usecases.tournaments`)."""

from __future__ import annotations

import dataclasses
import logging
import secrets
from collections.abc import Awaitable, Callable

from bot.app.effects import NOTHING, Done, Effects
from bot.app.lobby_rules import (
    JOIN_TOKEN_BYTES,
    START_JOIN,
    at_table,
    is_join_token,
    pairs_fixed,
    playable_games,
    seat_choices,
)
from bot.app.names import short_name
from bot.app.people import Person
from bot.app.reply import NO_REPLY, Reply
from bot.app.usecases import tournament_tables
from bot.app.usecases.base import ChatCheck, Refusal, UseCases, utcnow
from bot.app.usecases.lobby_options import (
    LobbyOption,
    computer_seat,
    seated_at,
    started,
    with_level,
    with_option,
)
from bot.app.usecases.tournaments import check_drawn, seated_at_table
from domino.ai import Level
from domino.variants import GameVariant
from i18n import t
from storage import repo
from storage.db import Transaction
from storage.records import GameRecord, GameStatus, SeatRecord

log = logging.getLogger(__name__)

Change = tuple[GameRecord | None, Reply]
"""What a lobby change gives: the lobby to save (None: nothing changes) and the answer."""


class LobbyChanges(UseCases):
    """An open lobby's own changes, each checked against the chat it was asked in."""

    def bot_link(self, payload: str) -> str:
        """A link that opens the private chat with the bot and sends it /start `payload`."""
        return f"https://t.me/{self.context.bot_username}?start={payload}"

    def join_link(self, game: GameRecord) -> str | None:
        """The lobby's deep link: it carries the game's secret token, never its number."""
        if game.join_token is None:
            return None
        return self.bot_link(START_JOIN + game.join_token)

    @staticmethod
    def new_join_token() -> str:
        while True:
            token = secrets.token_urlsafe(JOIN_TOKEN_BYTES)
            if is_join_token(token):  # not all digits: read as an old numbered link
                return token

    async def sit(self, tx: Transaction, game: GameRecord, person: Person) -> GameRecord:
        """The lobby with `person` seated; at a tournament table, its match dealt once
        everyone drawn to it is in."""
        seated = seated_at(game, person)
        if game.tournament is None:
            return seated
        lang = await self.people.language_of(game.creator_id, tx)
        changed, _ = await seated_at_table(tx, seated, self.context, lang)
        return changed

    async def shown(self, game_id: int, chat_id: int | None) -> GameRecord:
        """The lobby `game_id` if the press came from its own group (`chat_id`: the chat of
        the pressed message); refused otherwise."""
        game = await repo.load_game(self.db, game_id)
        if game is None or chat_id is None or game.chat_id != chat_id:
            raise Refusal("alert.foreign_game")
        if game.status is not GameStatus.LOBBY:
            raise Refusal("alert.lobby_closed")
        return game

    @staticmethod
    async def may_control(game: GameRecord, person: Person, is_admin: ChatCheck) -> bool:
        """The game's creator or an admin of the game's own chat."""
        return person.id == game.creator_id or await is_admin(game.chat_id)

    async def join(self, game_id: int, chat_id: int | None, person: Person) -> Done[Reply]:
        """«Играю» pressed in `chat_id`: anyone takes the next seat. In a group that shows
        hands in the group (`GroupSettings.hands_in_group`) that is all: their hand is
        there, under «✋ Мои кости». In a group that keeps hands in private, someone the
        bot cannot write to yet is sent to the private chat by the lobby's join link."""

        async def join(tx: Transaction, game: GameRecord) -> Change:
            if game.seat_of(person.id) is not None:
                raise Refusal("alert.already_seated", alert=False)
            if game.tournament is not None:
                await check_drawn(tx, game, person)
            if self.context.settings.hands_in_group(game.chat_id):
                return await self.sit(tx, game, person), Reply("answer.joined")
            user = await repo.get_user(tx, person.id)
            if user is None or not user.can_message:
                link = self.join_link(game)
                if link is None:  # a lobby without a join token: /start first
                    raise Refusal("alert.start_private_first", bot=self.context.bot_username)
                return None, Reply(url=link)
            return await self.sit(tx, game, person), Reply("answer.joined")

        return await self._change(game_id, chat_id, person, None, "join", join)

    async def leave(self, game_id: int, chat_id: int | None, person: Person) -> Done[Reply]:
        """«Выйти» pressed in `chat_id`: anyone seated gives up their seat."""

        async def leave(tx: Transaction, game: GameRecord) -> Change:
            seated = game.seat_of(person.id)
            if seated is None:
                raise Refusal("alert.not_seated", alert=False)
            return game.without_seat(seated.seat), Reply("answer.left")

        return await self._change(game_id, chat_id, person, None, "leave", leave)

    async def add_computer(
        self, game_id: int, chat_id: int | None, person: Person, is_admin: ChatCheck
    ) -> Done[Reply]:
        """A computer takes the next seat, named in the creator's language."""

        async def add(tx: Transaction, game: GameRecord) -> Change:
            if len(game.seats) >= game.seats_wanted:
                raise Refusal("alert.table_full")
            computers = sum(1 for s in game.seats if s.is_computer)
            creator_lang = await self.people.language_of(game.creator_id, tx)
            name = t("computer.name", creator_lang, n=computers + 1)
            return game.with_seat(None, name), Reply("answer.computer_added")

        return await self._change(game_id, chat_id, person, is_admin, "add computer", add)

    async def set_option(
        self,
        game_id: int,
        chat_id: int | None,
        person: Person,
        option: LobbyOption,
        is_admin: ChatCheck,
    ) -> Done[Reply]:
        """The game or one of its options moves on to its next choice (`with_option`)."""

        async def cycle(tx: Transaction, game: GameRecord) -> Change:
            return with_option(game, option), NO_REPLY

        return await self._change(game_id, chat_id, person, is_admin, f"option {option}", cycle)

    async def game_choices(
        self, game_id: int, chat_id: int | None, person: Person, is_admin: ChatCheck
    ) -> GameRecord:
        """The game's button («🎲 Игра: Козёл») and the list of games it opens: the lobby,
        for its creator or a chat admin to pick another game from. Raises Refusal."""
        game = await self.shown(game_id, chat_id)
        if game.tournament is not None:
            raise Refusal("tournament.table_fixed")
        if not await self.may_control(game, person, is_admin):
            raise Refusal("alert.creator_or_admin_only")
        return game

    async def pick_game(
        self,
        game_id: int,
        chat_id: int | None,
        person: Person,
        key: str,
        is_admin: ChatCheck,
    ) -> Done[Reply]:
        """A game picked from the list (`key`: its `GameVariant.key`): the lobby plays it
        with its own default options (`with_game`). A key the bot offers no game by
        (forged, or of a game this version no longer offers) is refused as out of date."""
        chosen = next((g for g in playable_games() if g.key.value == key), None)

        async def pick(tx: Transaction, game: GameRecord) -> Change:
            if chosen is None:
                raise Refusal("alert.stale")
            return with_game(game, chosen), NO_REPLY

        return await self._change(game_id, chat_id, person, is_admin, f"game {key}", pick)

    async def set_level(
        self,
        game_id: int,
        chat_id: int | None,
        person: Person,
        seat: int,
        level: Level,
        is_admin: ChatCheck,
    ) -> Done[Reply]:
        """The computer in `seat` plays at `level` from the deal on."""

        async def set_level(tx: Transaction, game: GameRecord) -> Change:
            name = short_name(computer_seat(game, seat).name)
            answer = Reply.of("answer.level_set", name=name, level=level)
            return with_level(game, seat, level), answer

        what = f"level {level.name} for seat {seat}"
        return await self._change(game_id, chat_id, person, is_admin, what, set_level)

    async def refuse_unknown(
        self, game_id: int, chat_id: int | None, person: Person, is_admin: ChatCheck
    ) -> Done[Reply]:
        """A lobby button that names no option or seat (forged, or of a layout this
        version does not know): refused as out of date once it passed the checks every
        change gets, so a press from another group is told so first."""

        async def refuse(tx: Transaction, game: GameRecord) -> Change:
            raise Refusal("alert.stale")

        return await self._change(game_id, chat_id, person, is_admin, "unknown", refuse)

    async def start_game(
        self, game_id: int, chat_id: int | None, person: Person, is_admin: ChatCheck
    ) -> Done[Reply]:
        """«Начать»: the match is dealt once every seat is taken. The answer says where
        the presser's tiles are: in their private chat, or under the table here."""
        default = self.context.settings.of(chat_id).hands if chat_id is not None else None
        private = default is None or await self.people.private_hand(person.id, default)
        answer = Reply("answer.started" if private else "answer.started_here")

        async def start(tx: Transaction, game: GameRecord) -> Change:
            dealt = started(game, self.context.new_seed(), utcnow())
            # The first turn's deadline is stored with the deal, as every later one is
            # with its move: what shows the game (the Mini App's countdown) has it at once.
            return dataclasses.replace(
                dealt, turn_deadline=self.context.turn_deadline(dealt)
            ), answer

        return await self._change(game_id, chat_id, person, is_admin, "start", start)

    async def cancel(
        self, game_id: int, chat_id: int | None, person: Person, is_admin: ChatCheck
    ) -> Done[Reply]:
        """The lobby closes unplayed."""

        async def cancel(tx: Transaction, game: GameRecord) -> Change:
            return game.ended(GameStatus.CANCELLED, utcnow()), Reply("answer.cancelled")

        return await self._change(game_id, chat_id, person, is_admin, "cancel", cancel)

    async def _change(
        self,
        game_id: int,
        chat_id: int | None,
        person: Person,
        is_admin: ChatCheck | None,
        what: str,
        change: Callable[[Transaction, GameRecord], Awaitable[Change]],
    ) -> Done[Reply]:
        """Apply `change` to the lobby `game_id`, asked on a message in `chat_id`. With
        `is_admin` only the creator or a chat admin may; without it anyone. `change`
        gives the lobby to save (None: nothing changes) and the answer, or raises
        Refusal."""
        self.people.noticed(person)
        try:
            shown = await self.shown(game_id, chat_id)
            if is_admin is not None and shown.tournament is not None:
                raise Refusal("tournament.table_fixed")
            if is_admin is not None and not await self.may_control(shown, person, is_admin):
                raise Refusal("alert.creator_or_admin_only")

            async def body(tx: Transaction) -> tuple[GameRecord | None, Reply, Effects]:
                await repo.upsert_user(tx, person.record())
                game = await repo.load_game(tx, game_id)
                if game is None or game.status is not GameStatus.LOBBY:
                    raise Refusal("alert.lobby_closed")
                changed, answer = await change(tx, game)
                if changed is None:
                    return None, answer, NOTHING
                saved = await repo.save_game(tx, changed)
                freed = NOTHING
                if saved.status is GameStatus.CANCELLED and saved.tournament is None:
                    freed = await tournament_tables.topic_freed(tx, saved.chat_id)
                return saved, answer, freed

            # One hop (`Database.atomic`): a block of hops would hold every other change
            # back for a loop's turn per statement, and 2,000 starts at once made that
            # the bot's bottleneck.
            done, answer, freed = await self.db.atomic(body)
            if done is None:
                return Done(answer)
            saved = done
        except Refusal as refusal:
            return Done(refusal.reply)
        except repo.PlayerBusy:
            # A tournament table waits for them until its show-up time: said so.
            key = (
                "alert.playing_elsewhere"
                if shown.tournament is None
                else "tournament.finish_other_game"
            )
            return Done(Reply(key, alert=True))
        log.info("chat %s game %s: lobby %s by %s", saved.chat_id, saved.id, what, person.id)
        if saved.status is GameStatus.PLAYING:
            log.info(
                "chat %s game %s: started, %d seats (%d computers)",
                saved.chat_id,
                saved.id,
                len(saved.seats),
                sum(1 for s in saved.seats if s.is_computer),
            )
        effects = Effects(games=(saved,)) + freed
        if saved.tournament is not None:
            effects += Effects(tournaments=(saved.tournament.tournament_id,))
        return Done(answer, effects)

    async def removal_choices(
        self, game_id: int, chat_id: int | None, person: Person, is_admin: ChatCheck
    ) -> tuple[GameRecord, tuple[SeatRecord, ...]]:
        """The «remove a player» button: the lobby and the people seated in it other than
        the one asking (who leaves by «🚪 Выйти»), for the creator or a chat admin to pick
        from. Raises Refusal."""
        game = await self.shown(game_id, chat_id)
        if game.tournament is not None:
            raise Refusal("tournament.table_fixed")
        if not await self.may_control(game, person, is_admin):
            raise Refusal("alert.creator_or_admin_only")
        others = tuple(seat for seat in game.people if seat.user_id != person.id)
        if not others:
            key = "alert.nobody_else_to_remove" if game.people else "alert.nobody_to_remove"
            raise Refusal(key)
        return game, others

    async def remove(
        self,
        game_id: int,
        chat_id: int | None,
        person: Person,
        seat: int,
        user_id: int,
        is_admin: ChatCheck,
    ) -> Done[tuple[Reply, str | None]]:
        """Remove `user_id` from seat `seat` of the lobby (the creator or a chat admin).
        The answer, and the removed person's name (None if nothing changed)."""
        self.people.noticed(person)
        try:
            shown = await self.shown(game_id, chat_id)
            if shown.tournament is not None:
                raise Refusal("tournament.table_fixed")
            if not await self.may_control(shown, person, is_admin):
                raise Refusal("alert.creator_or_admin_only")
            async with self.db.transaction() as tx:
                game = await repo.load_game(tx, game_id)
                if game is None or game.status is not GameStatus.LOBBY:
                    raise Refusal("alert.lobby_closed")
                target = game.seat_of(user_id)
                if target is None or target.seat != seat:
                    raise Refusal("alert.not_seated_any_more", alert=False)
                saved = await repo.save_game(tx, game.without_seat(target.seat))
        except Refusal as refusal:
            return Done((refusal.reply, None))
        log.info(
            "chat %s game %s: user %s removed from the lobby by %s",
            saved.chat_id,
            saved.id,
            user_id,
            person.id,
        )
        name = short_name(target.name)
        return Done((Reply.of("answer.removed", name=name), name), Effects(games=(saved,)))


def with_game(game: GameRecord, chosen: GameVariant) -> GameRecord:
    """The lobby playing `chosen` with its own default options (`GameVariant.ruleset`,
    pairs included, the target its default at the table: `at_table`, B-1); only the
    table size stays, where the game is played by it.

    Choice: the table size stays when the new game is played by it, else it takes the
    next larger size the game is played by (else its largest), so nobody seated loses
    a seat. A game played in pairs by default (Морской козёл, Спортивное) opens with pairs
    at a table of four; at a smaller table nobody plays in pairs."""
    rules = chosen.ruleset
    choices = seat_choices(rules, len(game.seats))
    if not choices:
        raise Refusal("alert.table_full")
    wanted = game.seats_wanted
    if wanted not in choices:
        wanted = next((n for n in choices if n > wanted), choices[-1])
    if rules.teams and wanted != 4 and not pairs_fixed(rules):
        rules = rules.with_options(teams=False)
    return dataclasses.replace(game, ruleset=at_table(rules, wanted), seats_wanted=wanted)
