"""The group message that shows a vote to cancel or a draw offer (`bot.app.votes`
decides it):
`VoteBoard` keeps each vote's message in step with the stored vote (one worker per vote
that always shows the newest state, `bot.infra.workers.Resync`), while this instance
plays the vote's chat, in that chat's scope (`bot.app.ownership`)."""

from __future__ import annotations

import html
import logging
from collections.abc import Callable

from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.app.group_settings import GroupSettings
from bot.app.ownership import EVERY_CHAT, Ownership
from bot.app.votes import VOTE_TIME, electorate, tally
from bot.infra.lru import Lru
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
from storage.votes import Vote, VoteKind

log = logging.getLogger(__name__)

CACHED_VOTES = 1000  # votes whose chat is remembered (for `let_go`)


def _names(game: GameRecord, vote: Vote, in_favour: bool, voters: frozenset[int]) -> str:
    names = [
        html.escape(short_name(seat.name))
        for seat in game.seats
        if seat.user_id in voters and vote.ballot_of(seat.user_id) is in_favour
    ]
    return ", ".join(names) or "—"


def vote_text(game: GameRecord, vote: Vote, lang: Lang) -> str:
    """The group message of a vote: who asked, who is for and against, and the result
    (a draw offer in its own words: `draw.*` instead of `vote.*`)."""
    voters = electorate(game)
    count = tally(vote, voters)
    starter = game.seat_of(vote.started_by)
    words = "draw" if vote.kind is VoteKind.DRAW else "vote"
    lines = [
        t(f"{words}.title", lang, name=html.escape(short_name(starter.name) if starter else "?")),
        t(
            f"{words}.count",
            lang,
            yes=count.in_favour,
            no=count.against,
            needed=count.needed,
            voters=count.voters,
        ),
        t("vote.who_yes", lang, names=_names(game, vote, True, voters)),
        t("vote.who_no", lang, names=_names(game, vote, False, voters)),
        "",
        t(f"{words}.state_{vote.state.value}", lang, minutes=_minutes(vote)),
    ]
    return "\n".join(lines)


def _minutes(vote: Vote) -> int:
    """The vote's time in whole minutes (at least 1), as it was opened with."""
    seconds = (vote.expires_at - vote.opened_at).total_seconds() or VOTE_TIME.total_seconds()
    return max(1, round(seconds / 60))


def vote_keyboard(game: GameRecord, vote: Vote, lang: Lang) -> InlineKeyboardMarkup | None:
    """«За / Против» with the live count while the vote is open; none once decided."""
    if not vote.state.open:
        return None
    count = tally(vote, electorate(game))
    words = "draw" if vote.kind is VoteKind.DRAW else "vote"
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text=t(f"btn.{words}_yes", lang, n=count.in_favour),
                    callback_data=VoteCb(vote=vote.id, in_favour=True).pack(),
                ),
                InlineKeyboardButton(
                    text=t(f"btn.{words}_no", lang, n=count.against),
                    callback_data=VoteCb(vote=vote.id, in_favour=False).pack(),
                ),
            ]
        ]
    )


class VoteBoard:
    """Sends each vote's group message once and edits it as the stored vote changes."""

    def __init__(
        self,
        db: Database,
        out: Outgoing,
        settings: GroupSettings,
        ownership: Ownership = EVERY_CHAT,
    ) -> None:
        self.db = db
        self.out = out
        self.settings = settings  # each group's language (/settings, else the creator's)
        self.ownership = ownership  # which chats this instance plays, and their scope
        self._chats: Lru[int, int] = Lru(CACHED_VOTES)  # each vote's chat, once read
        self._workers: Resync[int] = Resync(
            self._sync_safely, describe="vote {}: its message".format
        )

    def show(self, vote_id: int) -> None:
        """The vote `vote_id` changed (committed): bring its message up to date."""
        self._workers.mark(vote_id)

    async def idle(self) -> None:
        """Wait until every vote message is up to date (shutdown)."""
        await self._workers.idle()

    async def let_go(self, owned: Callable[[int], bool]) -> None:
        """Stop showing the votes of the chats `owned` picks (another instance does)."""

        def of_those(vote_id: int) -> bool:
            chat_id = self._chats.get(vote_id)
            return chat_id is not None and owned(chat_id)

        await self._workers.drop(of_those)

    async def _sync_safely(self, vote_id: int) -> None:
        try:
            await self._sync(vote_id)
        except (TelegramBadRequest, TelegramForbiddenError) as exc:
            log.info("vote %s: its message could not be updated: %s", vote_id, exc.message)

    async def _sync(self, vote_id: int) -> None:
        vote = await vote_store.load_vote(self.db, vote_id)
        if vote is None:
            return
        self._chats[vote_id] = vote.chat_id
        if not self.ownership.owns(vote.chat_id):
            log.debug("vote %s: shown by the instance that plays chat %s", vote_id, vote.chat_id)
            return
        with self.ownership.acting(vote.chat_id):
            await self._show(vote)

    async def _show(self, vote: Vote) -> None:
        game = await repo.load_game(self.db, vote.game_id)
        if game is None:
            return
        lang = await self.settings.language_of(game)
        text = vote_text(game, vote, lang)
        markup = vote_keyboard(game, vote, lang)
        digest = digest_of(text, markup_data(markup))
        if vote.digest == digest:
            return
        message_id = await send_or_edit(
            self.out, game.chat_id, vote.message_id, text, markup, thread_id=game.thread_id
        )
        await vote_store.set_vote_message(self.db, vote.id, message_id, digest)
