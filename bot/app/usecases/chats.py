"""What Telegram tells about chats and people: a person the bot cannot write to, the bot
removed from a group, a forum topic closed, reopened or deleted under a game, a group that
became a supergroup; and a group's /settings."""

from __future__ import annotations

import dataclasses
import logging

from bot.app.effects import Done, Effects
from bot.app.names import short_name
from bot.app.usecases import tournament_tables
from bot.app.usecases.base import UseCases, end_game, notice, utcnow
from i18n import Lang
from storage import repo
from storage import votes as vote_store
from storage.db import Transaction
from storage.records import ChatRecord, ChatSettings, GameRecord, GameStatus

log = logging.getLogger(__name__)


class Chats(UseCases):
    """Groups and private chats as Telegram reports them."""

    async def person_unreachable(self, game_id: int, user_id: int, mark: int) -> Done[None]:
        """A hand could not be delivered (blocked, never started): the group is told once:
        in a group that shows hands in the group, that the hand is there under «✋ Мои
        кости» (and /start brings the private one back); else to open the bot's chat.
        Not when the person came back (/start) after the refused call began (`mark`: their
        `People.reachable_mark` then): the refusal answers the block they lifted, and
        telling it would report them a second time and refuse them the next lobby."""
        async with self.db.transaction() as tx:
            user = await repo.get_user(tx, user_id)
            if user is None or not user.can_message:
                return Done(None)
            if self.people.reachable_mark(user_id) > mark:
                log.info(
                    "game %s: user %s came back since a call refused: not told", game_id, user_id
                )
                return Done(None)
            await repo.set_can_message(tx, user_id, False)
            game = await repo.load_game(tx, game_id)
            if game is not None:
                in_group = self.context.settings.hands_in_group(game.chat_id)
                await notice(
                    tx,
                    game,
                    "notice.unreachable_hand_in_group" if in_group else "notice.unreachable",
                    name=short_name(user.display_name),
                    bot=self.context.bot_username,
                )
        self.people.unreachable(user_id)  # its hands go to the group alone from now on
        if game is None:
            return Done(None)
        log.warning("chat %s game %s: cannot write to user %s", game.chat_id, game_id, user_id)
        return Done(None, Effects(announcements=True))

    async def bot_left_group(self, chat_id: int) -> Done[None]:
        """The bot was removed from a group: its games (one a forum topic) stop; the players
        it may write to are told in private (someone who played from the group alone,
        never having opened the bot's chat, has no private chat to be told in)."""
        async with self.db.transaction() as tx:
            chat = await repo.get_chat(tx, chat_id)
            if chat is not None:
                await repo.upsert_chat(tx, dataclasses.replace(chat, bot_member=False))
            effects = await tournament_tables.group_lost(tx, chat_id)
            games = await repo.active_games_in_chat(tx, chat_id)
            for game in games:
                saved = await repo.save_game(tx, game.ended(GameStatus.CANCELLED, utcnow()))
                effects += await end_game(tx, saved)  # counted only after an abandonment
                effects += Effects(hands_only=(saved,), announcements=True)
                title = chat.title if chat and chat.title else "?"
                for seat in saved.people:
                    assert seat.user_id is not None
                    user = await repo.get_user(tx, seat.user_id)
                    if user is None or not user.can_message:
                        continue  # played from the group alone: no private chat to tell
                    lang = await self.people.language_of(seat.user_id, tx)
                    await repo.enqueue(
                        tx,
                        game_id=None,
                        chat_id=seat.user_id,
                        kind="notice",
                        payload={
                            "key": "notice.bot_removed",
                            "lang": lang,
                            "values": {"chat": title},
                        },
                    )
                log.warning(
                    "chat %s game %s: the bot was removed from the group", chat_id, saved.id
                )
        return Done(None, effects)

    async def topic_closed(self, game_id: int) -> Done[None]:
        """The forum topic of a game was closed and the bot may not write there: the game
        goes on (the hands in private still work), its new messages (and its last words,
        if it has ended) wait until the topic is reopened, and the group is told in
        General."""
        game = await repo.load_game(self.db, game_id)
        if game is None or game.thread_id is None:
            return Done(None)  # General closed: there is nowhere to tell it
        lang = await self.context.settings.language_of(game)
        async with self.db.transaction() as tx:
            await _general_notice(tx, game, "notice.topic_closed", lang)
        log.warning(
            "chat %s game %s: topic %s closed; its messages wait",
            game.chat_id,
            game.id,
            game.thread_id,
        )
        return Done(None, Effects(announcements=True))

    async def topic_reopened(self, chat_id: int, thread_id: int | None) -> Done[None]:
        """A forum topic was reopened: its game (if any) is shown there again, with the
        announcements and the vote that waited."""
        game = await repo.active_game_in_chat(self.db, chat_id, thread_id)
        reopened = Effects(reopened_topics=((chat_id, thread_id),), announcements=True)
        if game is None:
            return Done(None, reopened)
        vote = await vote_store.open_vote_of_game(self.db, game.id)
        log.info("chat %s game %s: topic %s reopened", chat_id, game.id, thread_id)
        votes = (vote.id,) if vote is not None else ()
        return Done(None, reopened + Effects(games=(game,), votes=votes))

    async def topic_lost(self, chat_id: int, thread_id: int) -> Done[None]:
        """The forum topic of a game was deleted: its game stops, counted only as any
        cancelled game is (after an abandonment), and the group is told in General."""
        shown = await repo.active_game_in_chat(self.db, chat_id, thread_id)
        if shown is None:
            return Done(None)
        lang = await self.context.settings.language_of(shown)
        async with self.db.transaction() as tx:
            game = await repo.load_game(tx, shown.id)
            if game is None or not game.status.active:
                return Done(None)
            saved = await repo.save_game(tx, game.ended(GameStatus.CANCELLED, utcnow()))
            effects = await end_game(tx, saved)
            await _general_notice(tx, saved, "notice.topic_deleted", lang)
        log.warning(
            "chat %s game %s: topic %s deleted; the game stops", chat_id, saved.id, thread_id
        )
        return Done(None, effects + Effects(hands_only=(saved,), announcements=True))

    async def chat_migrated(self, old_id: int, new_id: int) -> Done[None]:
        """A group became a supergroup: its games, settings and stats follow the new chat id;
        their messages are brought up to date there and owed announcements sent there."""
        if old_id == new_id:
            return Done(None)
        async with self.db.transaction() as tx:
            moved = await repo.move_chat(tx, old_id, new_id)
            games = [await repo.load_game(tx, game_id) for game_id in moved]
        if moved:
            log.info("chat %s: became the supergroup %s with its games", old_id, new_id)
        return Done(
            None,
            Effects(
                moved_chat=(old_id, new_id),
                reloaded=tuple(moved),
                games=tuple(game for game in games if game is not None and game.status.active),
                announcements=True,
            ),
        )

    def settings_of(self, chat_id: int) -> ChatSettings:
        """The group's settings as they are (defaults for a group that chose nothing)."""
        return self.context.settings.of(chat_id)

    async def change_settings(self, chat: ChatRecord, settings: ChatSettings) -> None:
        """/settings: the group's new settings, from the next turn and the next lobby on (a
        turn in progress keeps its deadline); nothing to bring up to date meanwhile."""
        await self.context.settings.change(chat, settings)


async def _general_notice(tx: Transaction, game: GameRecord, key: str, lang: Lang) -> None:
    """Owe the game's group a notice (in `lang`, the group's) in its General topic, not
    in the game's own."""
    await repo.enqueue(
        tx,
        game_id=game.id,
        chat_id=game.chat_id,
        kind="notice",
        payload={"key": key, "lang": lang, "values": {}, "general": True},
    )
