"""Votes to cancel a running match (issue 7): who votes, when a vote is decided, and the
group message that shows it.

The creator or a chat admin cancels a match outright (/cancel); anyone else seated in it
starts a vote instead. The people of the match vote (seated persons who have not left;
computers do not vote), each ballot may change while the vote is open, and the vote is
decided as soon as the outcome is certain:

- passed when more than half of the people are for cancelling;
- failed when so many are against that the rest could no longer make that majority;
- expired when `VOTE_TIME` runs out first; closed when the match ends another way.

`decide` is a pure function of the stored vote, the people and the time; the service
applies it inside its transactions. `VoteBoard` keeps each vote's group message in step
with the stored vote (one worker per vote that always shows the newest state).
"""

from __future__ import annotations

import asyncio
import html
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.methods import EditMessageText, SendMessage
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.callbacks import VoteCb
from bot.i18n import Lang, t
from bot.outgoing import Outgoing
from bot.presenter import short_name
from bot.publisher import DATABASE_PAUSE, digest_of, markup_data
from storage import repo
from storage import votes as vote_store
from storage.db import Database, is_transient
from storage.records import GameRecord
from storage.votes import Vote, VoteState

log = logging.getLogger(__name__)

VOTE_TIME = timedelta(minutes=5)


def electorate(game: GameRecord) -> frozenset[int]:
    """The people who vote: seated persons who have not left the match (a person the
    computer stands in for after timeouts still votes: they may come back)."""
    return frozenset(s.user_id for s in game.seats if s.user_id is not None and not s.left)


@dataclass(frozen=True, slots=True)
class Tally:
    in_favour: int
    against: int
    voters: int  # the size of the electorate

    @property
    def needed(self) -> int:
        """Ballots for cancelling that make more than half of the electorate."""
        return self.voters // 2 + 1

    @property
    def undecided(self) -> int:
        return self.voters - self.in_favour - self.against


def tally(vote: Vote, voters: frozenset[int]) -> Tally:
    """Count the ballots of the current electorate only: a ballot of someone who has
    left the match since no longer counts."""
    in_favour = sum(1 for user, yes in vote.ballots if yes and user in voters)
    against = sum(1 for user, yes in vote.ballots if not yes and user in voters)
    return Tally(in_favour, against, len(voters))


def decide(vote: Vote, voters: frozenset[int], now: datetime) -> VoteState:
    """The vote's state now: a decided vote stays decided; an open one is decided by the
    ballots, else by the clock."""
    if not vote.state.open:
        return vote.state
    count = tally(vote, voters)
    if count.in_favour >= count.needed:
        return VoteState.PASSED
    if count.in_favour + count.undecided < count.needed:
        return VoteState.FAILED
    if now >= vote.expires_at:
        return VoteState.EXPIRED
    return VoteState.OPEN


# --- what the group sees ------------------------------------------------------------------


def _names(game: GameRecord, vote: Vote, in_favour: bool, voters: frozenset[int]) -> str:
    names = [
        html.escape(short_name(seat.name))
        for seat in game.seats
        if seat.user_id in voters and vote.ballot_of(seat.user_id) is in_favour
    ]
    return ", ".join(names) or "—"


def vote_text(game: GameRecord, vote: Vote, lang: Lang) -> str:
    """The group message of a vote: who asked, who is for and against, and the result."""
    voters = electorate(game)
    count = tally(vote, voters)
    starter = game.seat_of(vote.started_by)
    lines = [
        t("vote.title", lang, name=html.escape(short_name(starter.name) if starter else "?")),
        t(
            "vote.count",
            lang,
            yes=count.in_favour,
            no=count.against,
            needed=count.needed,
            voters=count.voters,
        ),
        t("vote.who_yes", lang, names=_names(game, vote, True, voters)),
        t("vote.who_no", lang, names=_names(game, vote, False, voters)),
        "",
        t(f"vote.state_{vote.state.value}", lang, minutes=int(VOTE_TIME.total_seconds() // 60)),
    ]
    return "\n".join(lines)


def vote_keyboard(game: GameRecord, vote: Vote, lang: Lang) -> InlineKeyboardMarkup | None:
    """«За / Против» with the live count while the vote is open; none once decided."""
    if not vote.state.open:
        return None
    count = tally(vote, electorate(game))
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text=t("btn.vote_yes", lang, n=count.in_favour),
                    callback_data=VoteCb(vote=vote.id, in_favour=True).pack(),
                ),
                InlineKeyboardButton(
                    text=t("btn.vote_no", lang, n=count.against),
                    callback_data=VoteCb(vote=vote.id, in_favour=False).pack(),
                ),
            ]
        ]
    )


class VoteBoard:
    """Sends each vote's group message once and edits it as the stored vote changes."""

    def __init__(
        self, db: Database, out: Outgoing, *, group_lang: Callable[[GameRecord], Awaitable[Lang]]
    ) -> None:
        self.db = db
        self.out = out
        self.group_lang = group_lang  # the group's language (/settings, else the creator's)
        self._dirty: set[int] = set()
        self._workers: dict[int, asyncio.Task[None]] = {}

    def touch(self, vote_id: int) -> None:
        """The vote `vote_id` changed (committed): bring its message up to date."""
        self._dirty.add(vote_id)
        worker = self._workers.get(vote_id)
        if worker is None or worker.done():
            self._workers[vote_id] = asyncio.create_task(self._work(vote_id))

    async def idle(self) -> None:
        """Wait until every vote message is up to date (shutdown)."""
        while self._workers:
            await asyncio.gather(*self._workers.values(), return_exceptions=True)

    async def _work(self, vote_id: int) -> None:
        try:
            while vote_id in self._dirty:
                self._dirty.discard(vote_id)
                try:
                    await self._sync(vote_id)
                except (TelegramBadRequest, TelegramForbiddenError) as exc:
                    log.info("vote %s: its message could not be updated: %s", vote_id, exc.message)
                except Exception as exc:
                    if not is_transient(exc):
                        log.exception("vote %s: could not update its message", vote_id)
                        continue
                    # Locked by another process or a full disk: try again shortly.
                    log.warning("vote %s: its message waits for the database: %s", vote_id, exc)
                    await asyncio.sleep(DATABASE_PAUSE)
                    self._dirty.add(vote_id)
        finally:
            self._workers.pop(vote_id, None)

    async def _sync(self, vote_id: int) -> None:
        vote = await vote_store.load_vote(self.db, vote_id)
        if vote is None:
            return
        game = await repo.load_game(self.db, vote.game_id)
        if game is None:
            return
        lang = await self.group_lang(game)
        text = vote_text(game, vote, lang)
        markup = vote_keyboard(game, vote, lang)
        digest = digest_of(text, markup_data(markup))
        if vote.digest == digest:
            return
        if vote.message_id is None:
            sent: Message = await self.out.call(
                game.chat_id,
                SendMessage(
                    chat_id=game.chat_id, text=text, reply_markup=markup, parse_mode="HTML"
                ),
            )
            await vote_store.set_vote_message(self.db, vote.id, sent.message_id, digest)
            return
        await self.out.call(
            game.chat_id,
            EditMessageText(
                chat_id=game.chat_id,
                message_id=vote.message_id,
                text=text,
                reply_markup=markup,
                parse_mode="HTML",
            ),
            merge_key=("text", game.chat_id, vote.message_id),
        )
        await vote_store.set_vote_message(self.db, vote.id, vote.message_id, digest)
