"""Votes to cancel a running match (issue 7): who votes, when a vote is decided, and the
group message that shows it.

The creator or a chat admin cancels a match outright (/cancel); anyone else seated in it
starts a vote instead. The people of the match vote (seated persons who have not left;
computers do not vote), each ballot may change while the vote is open, and the vote is
decided as soon as the outcome is certain:

- passed when more than half of the people are for cancelling;
- failed when so many are against that the rest could no longer make that majority;
- expired when `VOTE_TIME` runs out first; closed when the match ends another way.

`decide` is a pure function of the stored vote, the people and the time; the use cases
apply it inside their transactions. `VoteBoard` keeps each vote's group message in step
with the stored vote (one worker per vote that always shows the newest state,
`bot.infra.workers.Resync`).
"""

from __future__ import annotations

import html
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.app.group_settings import GroupSettings
from bot.infra.workers import Resync
from bot.telegram.callbacks import VoteCb
from bot.telegram.delivery import digest_of, markup_data, send_or_edit
from bot.telegram.outgoing import Outgoing
from bot.telegram.presenter import short_name
from i18n import Lang, t
from storage import repo
from storage import votes as vote_store
from storage.db import Database
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

    def __init__(self, db: Database, out: Outgoing, settings: GroupSettings) -> None:
        self.db = db
        self.out = out
        self.settings = settings  # each group's language (/settings, else the creator's)
        self._workers: Resync[int] = Resync(
            self._sync_safely, describe="vote {}: its message".format
        )

    def show(self, vote_id: int) -> None:
        """The vote `vote_id` changed (committed): bring its message up to date."""
        self._workers.mark(vote_id)

    async def idle(self) -> None:
        """Wait until every vote message is up to date (shutdown)."""
        await self._workers.idle()

    async def _sync_safely(self, vote_id: int) -> None:
        try:
            await self._sync(vote_id)
        except (TelegramBadRequest, TelegramForbiddenError) as exc:
            log.info("vote %s: its message could not be updated: %s", vote_id, exc.message)

    async def _sync(self, vote_id: int) -> None:
        vote = await vote_store.load_vote(self.db, vote_id)
        if vote is None:
            return
        game = await repo.load_game(self.db, vote.game_id)
        if game is None:
            return
        lang = await self.settings.language_of(game)
        text = vote_text(game, vote, lang)
        markup = vote_keyboard(game, vote, lang)
        digest = digest_of(text, markup_data(markup))
        if vote.digest == digest:
            return
        message_id = await send_or_edit(self.out, game.chat_id, vote.message_id, text, markup)
        await vote_store.set_vote_message(self.db, vote.id, message_id, digest)
