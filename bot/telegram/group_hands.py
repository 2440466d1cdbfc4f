"""Hands inside the group: a seat's hand as an ephemeral message (Bot API 10.3) that
its person alone sees, under the group's table.

A person seated in the game presses «✋ Мои кости» under the table; the hand comes as a
fresh ephemeral message at the bottom of the group (`bring`: the one before, if any, is
deleted once the new one is there), with the same keyboard as the private hand, and is
edited in place as the game moves (`show`). It is addressed to the seat's person as the
game stores it (`receiver_user_id`), never to whoever pressed. Telegram may drop an
ephemeral message (it expires, its person was offline, it was deleted): an edit that
finds it gone forgets it, and the next press on «✋ Мои кости» brings a new one. Nothing
about a hand goes to the group but to its receiver.

Every call goes through the group's queue (`Outgoing.call`), so ephemeral messages are
paced within the group's budget like any other message there (the conservative reading
of Telegram's limits, README: admins). Which message shows each seat's hand is stored
(`storage.group_hands`) when it is sent or forgotten; what it shows (its digest) is
kept in memory, so after a restart each is edited once more ("message is not modified"
is success).
"""

from __future__ import annotations

import asyncio
import logging

from aiogram.exceptions import TelegramBadRequest
from aiogram.methods import DeleteEphemeralMessage, EditEphemeralMessageText, SendMessage
from aiogram.types import EphemeralMessageParameters, InlineKeyboardMarkup, Message

from bot.infra.lru import Lru
from bot.telegram.delivery import TELEGRAM_FAILURES, digest_of, markup_data
from bot.telegram.outgoing import Lane, Outgoing
from storage import group_hands as store
from storage.db import Database
from storage.group_hands import GroupHand

log = logging.getLogger(__name__)

GONE = ("message to edit not found", "message to delete not found", "MESSAGE_ID_INVALID")
UNCHANGED = "message is not modified"
QUERY_GONE = "query is too old"


class GroupHands:
    """The ephemeral hands of the games, one message per seat at most; the cache holds
    `games` games (least recently used first out; read again from the database)."""

    def __init__(self, db: Database, out: Outgoing, *, games: int) -> None:
        self.db = db
        self.out = out
        self._hands: Lru[int, dict[int, GroupHand]] = Lru(games)

    async def of(self, game_id: int) -> dict[int, GroupHand]:
        """The game's ephemeral hands, by seat."""
        hands = self._hands.get(game_id)
        if hands is None:
            loaded = await store.group_hands_of(self.db, game_id)
            hands = self._hands.get(game_id)  # filled by another worker meanwhile
            if hands is None:
                hands = self._hands[game_id] = loaded
        return hands

    async def bring(
        self,
        game_id: int,
        seat: int,
        chat_id: int,
        receiver_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
        *,
        press: str | None,
        thread_id: int | None = None,
    ) -> None:
        """A fresh ephemeral hand for `receiver_id` at the bottom of the group, in the game's
        forum topic `thread_id` (`press`: the callback query that asked for it, while
        unanswered); the one before, if any, is deleted. Among the group's replies
        (`Lane.REPLY`): the press waits for it."""

        def send(press: str | None) -> asyncio.Future[Message]:
            return self.out.call(
                chat_id,
                SendMessage(
                    chat_id=chat_id,
                    message_thread_id=thread_id,
                    text=text,
                    reply_markup=markup,
                    parse_mode="HTML",
                    ephemeral_message_parameters=EphemeralMessageParameters(
                        receiver_user_id=receiver_id, callback_query_id=press
                    ),
                ),
                lane=Lane.REPLY,
            )

        try:
            sent = await send(press)
        except TelegramBadRequest as exc:
            if press is None or QUERY_GONE not in exc.message:
                raise
            sent = await send(None)  # the press was forgotten meanwhile: sent without it
        if sent.ephemeral_message_id is None:  # not an ephemeral message: nothing to follow
            log.warning("chat %s game %s: the hand came back as no ephemeral", chat_id, game_id)
            return
        hands = await self.of(game_id)
        before = hands.get(seat)
        hand = GroupHand(
            game_id,
            seat,
            chat_id,
            receiver_id,
            sent.ephemeral_message_id,
            digest_of(text, markup_data(markup)),
        )
        hands[seat] = hand
        await store.remember_group_hand(self.db, hand)
        if before is not None and before.ephemeral_id != hand.ephemeral_id:
            await self._delete(before)

    async def show(
        self,
        game_id: int,
        seat: int,
        receiver_id: int | None,
        text: str,
        markup: InlineKeyboardMarkup | None,
    ) -> None:
        """Edit the seat's ephemeral hand to show `text` and `markup`, if it has one that
        shows something else; a seat whose person changed, or who left (`receiver_id`
        None), loses it."""
        hand = (await self.of(game_id)).get(seat)
        if hand is None:
            return
        if hand.receiver_id != receiver_id:
            await self.drop(game_id, seat)
            return
        digest = digest_of(text, markup_data(markup))
        if hand.digest == digest:
            return
        try:
            await self.out.call(
                hand.chat_id,
                EditEphemeralMessageText(
                    chat_id=hand.chat_id,
                    receiver_user_id=hand.receiver_id,
                    ephemeral_message_id=hand.ephemeral_id,
                    text=text,
                    reply_markup=markup,
                    parse_mode="HTML",
                ),
                merge_key=("ephemeral", hand.chat_id, hand.receiver_id, hand.ephemeral_id),
            )
        except TelegramBadRequest as exc:
            if UNCHANGED in exc.message:
                pass
            elif any(gone in exc.message for gone in GONE):
                # Expired, or never delivered: the next «✋ Мои кости» brings a new one.
                log.info(
                    "chat %s game %s: the group hand of seat %s is gone: %s",
                    hand.chat_id,
                    game_id,
                    seat,
                    exc.message,
                )
                await self._forget(hand)
                return
            else:
                raise
        current = (await self.of(game_id)).get(seat)
        if current is not None and current.ephemeral_id == hand.ephemeral_id:
            (await self.of(game_id))[seat] = GroupHand(
                hand.game_id, seat, hand.chat_id, hand.receiver_id, hand.ephemeral_id, digest
            )

    async def drop(self, game_id: int, seat: int) -> None:
        """The seat's ephemeral hand, if any, is deleted (its person left the seat)."""
        hand = (await self.of(game_id)).get(seat)
        if hand is not None:
            await self._forget(hand)
            await self._delete(hand)

    def forget_game(self, game_id: int) -> None:
        """Drop an ended game from memory (its rows go with the game's)."""
        self._hands.pop(game_id)

    async def _forget(self, hand: GroupHand) -> None:
        hands = await self.of(hand.game_id)
        if hands.get(hand.seat) == hand or (
            hand.seat in hands and hands[hand.seat].ephemeral_id == hand.ephemeral_id
        ):
            del hands[hand.seat]
            await store.forget_group_hand(self.db, hand.game_id, hand.seat)

    async def _delete(self, hand: GroupHand) -> None:
        try:
            await self.out.call(
                hand.chat_id,
                DeleteEphemeralMessage(
                    chat_id=hand.chat_id,
                    receiver_user_id=hand.receiver_id,
                    ephemeral_message_id=hand.ephemeral_id,
                ),
            )
        except (TelegramBadRequest, *TELEGRAM_FAILURES) as exc:
            # Expired or deleted already; or it stays, the newer one below it.
            log.info(
                "chat %s game %s: the old group hand of seat %s stays: %s",
                hand.chat_id,
                hand.game_id,
                hand.seat,
                exc,
            )
