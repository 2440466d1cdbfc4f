"""How a match ends early: /leave (a computer takes the seat), /surrender, /cancel by
the creator or an admin, the players' vote to cancel (K-11 for how each counts), and a
draw offered and agreed to (P: "offer a draw")."""

from __future__ import annotations

import dataclasses
import logging
from datetime import datetime

from bot.app.effects import ClosedHand, Done, Effects
from bot.app.names import short_name
from bot.app.people import Person
from bot.app.reply import Loser, Reply
from bot.app.usecases.base import (
    ChatCheck,
    NotCreatorOrAdmin,
    Refusal,
    UseCases,
    abandonment_values,
    checked_press,
    end_game,
    notice,
    side_of,
    tell_abandonment_scoring,
    utcnow,
)
from bot.app.usecases.lobby import Lobby
from bot.app.votes import decide, electorate
from domino.ai.draw import answer_draw
from storage import repo
from storage import votes as vote_store
from storage.db import Transaction
from storage.records import Ending, GameRecord, GameStatus
from storage.votes import DrawOffered, Vote, VoteBusy, VoteKind, VoteState

log = logging.getLogger(__name__)


def cancel_question(game: GameRecord) -> Reply:
    """/cancel's question as the game stands: a lobby has no points to lose; a match
    somebody abandoned counts all the same (K-11), and the question says so."""
    if game.status is GameStatus.LOBBY:
        return Reply("cancel.confirm_lobby")
    if game.abandonment is not None:
        return Reply.of("cancel.confirm_counted", name=game.seats[game.abandonment.seat].name)
    return Reply("cancel.confirm")


class Endings(UseCases):
    """Leaving, surrendering, cancelling and voting to cancel."""

    async def leave(self, chat_id: int | None, person: Person) -> Done[Reply]:
        """/leave: out of the lobby, or a computer player takes the seat mid-game. The reply
        to send (one with no key for none): leaving a running match from its group is told there by
        the one announcement (the group's message budget)."""
        lang = person.lang
        effects = Effects()
        async with self.db.transaction() as tx:
            game = await repo.active_game_of_user(tx, person.id)
            if game is None or (chat_id is not None and game.chat_id != chat_id):
                return Done(Reply("leave.not_playing"))
            seat = game.seat_of(person.id)
            assert seat is not None
            if game.status is GameStatus.LOBBY:
                saved = await repo.save_game(tx, game.without_seat(seat.seat))
                text = Reply("answer.left")
            else:
                saved = await repo.save_game(tx, game.left_by(seat.seat))
                if game.abandonment is None:
                    await self._tell_leaving_scoring(tx, saved)
                else:
                    await notice(tx, game, "notice.left", name=seat.name)
                saved, effects = await self._recount_vote(tx, saved)
                # The group hears it once, from the announcement above; the person from
                # their closed hand (`hand.you_left`), and in private from this reply too.
                text = Reply("" if chat_id is not None else "leave.done")
        if game.status is GameStatus.PLAYING:
            closed = ClosedHand(saved, seat.seat, person.id, "hand.you_left", lang)
            effects += Effects(closed_hands=(closed,), announcements=True)
        log.info(
            "chat %s game %s: seat %d left by %s (%s)",
            saved.chat_id,
            saved.id,
            seat.seat,
            person.id,
            game.status.value,
        )
        return Done(text, effects + Effects(games=(saved,)))

    async def _tell_leaving_scoring(self, tx: Transaction, game: GameRecord) -> None:
        """The first person left the running match: tell the group in one notice who left,
        that a computer plays the seat, and how the match will count, with their side the
        loser (`goat`: the announcer says it in the game's own word)."""
        assert game.abandonment is not None and game.match is not None
        seat = game.seats[game.abandonment.seat]
        await notice(
            tx,
            game,
            "notice.left_scoring",
            name=seat.name,
            goat=side_of(game, seat.seat),
            points=game.abandonment.points[seat.seat],
        )

    async def cancel_allowed(
        self, chat_id: int, person: Person, is_admin: ChatCheck, thread_id: int | None = None
    ) -> GameRecord:
        """/cancel in a group (in its topic `thread_id`): that topic's game, which the person
        may cancel outright (for the confirmation's button); raises `NotCreatorOrAdmin` for
        anyone else, who may open a vote instead."""
        game = await repo.active_game_in_chat(self.db, chat_id, thread_id)
        if game is None:
            raise Refusal("cancel.nothing")
        if not await Lobby.may_control(game, person, is_admin):
            raise NotCreatorOrAdmin()
        return game

    async def may_cancel(
        self, game_id: int, chat_id: int | None, person: Person, is_admin: ChatCheck
    ) -> bool:
        """Whether the person may cancel the running game `game_id` from `chat_id` (its own
        group): its creator or an admin there."""
        game = await repo.load_game(self.db, game_id)
        if game is None or chat_id is None or game.chat_id != chat_id or not game.status.active:
            return False
        return await Lobby.may_control(game, person, is_admin)

    async def cancel(
        self, game_id: int, chat_id: int | None, person: Person, is_admin: ChatCheck
    ) -> Done[Reply]:
        """The confirmation of /cancel, pressed in `chat_id`: only in the game's own group,
        by its creator or an admin of that group."""
        try:
            shown = await repo.load_game(self.db, game_id)
            if shown is None or chat_id is None or shown.chat_id != chat_id:
                raise Refusal("alert.foreign_game")
            if not shown.status.active:
                raise Refusal("alert.finished")
            if not await Lobby.may_control(shown, person, is_admin):
                raise Refusal("alert.creator_or_admin")
            async with self.db.transaction() as tx:
                game = await repo.load_game(tx, game_id)
                if game is None or not game.status.active:
                    raise Refusal("alert.finished")
                saved = await repo.save_game(tx, game.ended(GameStatus.CANCELLED, utcnow()))
                effects = await end_game(tx, saved)
                if saved.abandonment is not None and saved.match is not None:
                    # Cancelled, it still counts (K-11, from the first abandonment): said.
                    await tell_abandonment_scoring(tx, saved, "notice.cancelled_counted")
                    effects += Effects(announcements=True)
        except Refusal as refusal:
            return Done(refusal.reply)
        log.info("chat %s game %s: cancelled by %s", saved.chat_id, saved.id, person.id)
        return Done(Reply("answer.cancelled"), effects + Effects(games=(saved,)))

    async def surrender_allowed(
        self, chat_id: int | None, person: Person
    ) -> tuple[int, int, Reply]:
        """/surrender: the running match the person may give up (in its group or in
        private), who abandoned it first (`first_abandoner`, for the confirmation's
        button), and the confirmation's question: what giving up will do, by the rules
        `surrender` applies (`surrender_question`)."""
        game = await repo.active_game_of_user(self.db, person.id)
        seat = game.seat_of(person.id) if game is not None else None
        if (
            game is None
            or seat is None
            or game.status is not GameStatus.PLAYING
            or game.match is None
            or (chat_id is not None and game.chat_id != chat_id)
        ):
            raise Refusal("surrender.not_playing")
        return game.id, first_abandoner(game), surrender_question(game, seat.seat)

    async def surrender(
        self, game_id: int, chat_id: int | None, person: Person, first: int
    ) -> Done[Reply]:
        """The person gives up: the match ends at once, scored by K-11's timeout rule from
        the first abandonment (this one unless someone abandoned before), with them the
        loser (their side in teams: the козёл where points are bad); the stats record it
        in the same transaction. The confirmation counts only in the game's group or the
        person's private chat. After someone else abandoned the match first, that one stays
        the culprit (K-11) and the surrenderer gains no rating either (README). The
        confirmation counts while what it said holds: `first` (`first_abandoner` when it
        was asked) is still who abandoned first; moves made meanwhile change nothing it
        said."""
        try:
            async with self.db.transaction() as tx:
                game = await repo.load_game(tx, game_id)
                if game is not None and chat_id not in (game.chat_id, person.id):
                    raise Refusal("alert.foreign_game")
                seat, _ = checked_press(game, person.id, 0, current=False)
                assert game is not None
                if first_abandoner(game) != first:
                    raise Refusal("alert.stale")
                if game.seats[seat].left:
                    raise Refusal("alert.already_left")
                changed = game.abandoned_by(seat, Ending.SURRENDER)
                earlier = changed.abandonment
                if earlier is not None and earlier.seat != seat:
                    changed = dataclasses.replace(changed, abandonment=earlier.given_up_by(seat))
                saved = await repo.save_game(
                    tx, changed.ended(GameStatus.FINISHED, utcnow(), Ending.SURRENDER)
                )
                effects = await end_game(tx, saved)
                await notice(
                    tx,
                    game,
                    "notice.surrendered",
                    name=game.seats[seat].name,
                    **abandonment_values(saved),
                )
        except Refusal as refusal:
            return Done(refusal.reply)
        log.info("chat %s game %s: seat %s surrendered", saved.chat_id, saved.id, seat)
        effects += Effects(games=(saved,), announcements=True)
        return Done(Reply("answer.surrendered"), effects)

    # --- votes to cancel ----------------------------------------------------

    async def open_vote(
        self, chat_id: int, person: Person, thread_id: int | None = None
    ) -> Done[Reply | None]:
        """/cancel by a player who may not cancel outright (in the topic `thread_id`): a vote
        on that topic's game, with their ballot for cancelling. A refusal, or None (the vote
        shows itself)."""
        now = utcnow()
        try:
            async with self.db.transaction() as tx:
                await repo.upsert_user(tx, person.record())
                game = await repo.active_game_in_chat(tx, chat_id, thread_id)
                if game is None:
                    raise Refusal("cancel.nothing")
                seat = game.seat_of(person.id)
                if game.status is not GameStatus.PLAYING or seat is None or seat.left:
                    raise NotCreatorOrAdmin()
                effects = await close_decided_vote(tx, game, now, busy="vote.already_open")
                try:
                    vote = await vote_store.open_vote(
                        tx,
                        game_id=game.id,
                        chat_id=game.chat_id,
                        started_by=person.id,
                        opened_at=now,
                        expires_at=now + self.context.vote_time,
                    )
                except VoteBusy:
                    raise Refusal("vote.already_open") from None
                await vote_store.cast_ballot(tx, vote.id, person.id, True, now)
                vote = vote.with_ballot(person.id, True)
                effects += await self._settle_vote(tx, game, vote, now)
        except Refusal as refusal:
            return Done(refusal.reply)
        log.info(
            "chat %s game %s: vote %s to cancel opened by %s", chat_id, game.id, vote.id, person.id
        )
        return Done(None, effects)

    async def vote(
        self, vote_id: int, chat_id: int | None, person: Person, in_favour: bool
    ) -> Done[Reply]:
        """A ballot for or against cancelling, pressed in `chat_id` (the vote's own group
        only); the vote is decided as soon as it can be."""
        now = utcnow()
        try:
            async with self.db.transaction() as tx:
                vote = await vote_store.load_vote(tx, vote_id)
                game = await repo.load_game(tx, vote.game_id) if vote else None
                if vote is None or game is None:
                    raise Refusal("alert.stale")
                if vote.chat_id != chat_id or game.chat_id != chat_id:
                    raise Refusal("alert.foreign_game")
                if not vote.state.open:
                    raise Refusal("alert.vote_over")
                voters = electorate(game)
                if game.status is GameStatus.PLAYING and decide(vote, voters, now).open:
                    if person.id not in voters:
                        raise Refusal("alert.vote_not_yours")
                    if vote.ballot_of(person.id) is in_favour:
                        raise Refusal("alert.voted_same", alert=False)
                    await vote_store.cast_ballot(tx, vote.id, person.id, in_favour, now)
                    vote = vote.with_ballot(person.id, in_favour)
                    said = "yes" if in_favour else "no"
                    kind = "voted" if vote.kind is VoteKind.CANCEL else "draw"
                    answer = Reply(f"answer.{kind}_{said}")
                else:
                    answer = Reply("alert.vote_over", alert=True)
                effects = await self._settle_vote(tx, game, vote, now)
        except Refusal as refusal:
            return Done(refusal.reply)
        return Done(answer, effects)

    async def vote_expired(self, vote_id: int) -> Done[None] | None:
        """The vote's time is up: decided as it stands (closed if the match ended). None if
        it was decided meanwhile. One transaction: the background retries it whole."""
        now = utcnow()
        async with self.db.transaction() as tx:
            vote = await vote_store.load_vote(tx, vote_id)
            game = await repo.load_game(tx, vote.game_id) if vote else None
            if vote is None or game is None or not vote.state.open:
                return None
            return Done(None, await self._settle_vote(tx, game, vote, now))

    async def _recount_vote(self, tx: Transaction, game: GameRecord) -> tuple[GameRecord, Effects]:
        """A person left the match: its open vote is counted again among those left (their
        ballot no longer counts, and fewer ballots make a majority). The game as it is now
        (cancelled if the people left decided so), and the vote's effects."""
        vote = await vote_store.open_vote_of_game(tx, game.id)
        if vote is None:
            return game, Effects()
        effects = await self._settle_vote(tx, game, vote, utcnow())
        now = effects.games[0] if effects.games else game
        return now, dataclasses.replace(effects, games=())

    async def _settle_vote(
        self, tx: Transaction, game: GameRecord, vote: Vote, now: datetime
    ) -> Effects:
        """Decide the vote as it stands (closed if the match is no longer running; a draw
        failed once somebody abandoned the match) and store it if decided; a passed vote
        to cancel cancels the match, which counts in the stats only if someone abandoned
        it first (K-11); a passed draw ends it drawn. The effects: the vote's message, its
        clock while open, the ended game."""
        state = decide(vote, electorate(game), now)
        if vote.kind is VoteKind.DRAW and game.abandonment is not None:
            state = VoteState.FAILED  # somebody abandoned the match: it counts by K-11
        if game.status is not GameStatus.PLAYING:
            state = VoteState.CLOSED
        if state.open:
            return Effects(votes=(vote.id,), vote_clocks=(vote,))
        await vote_store.close_vote(tx, vote.id, state, now)
        log.info(
            "chat %s game %s: vote %s (%s) %s",
            vote.chat_id,
            vote.game_id,
            vote.id,
            vote.kind.value,
            state.value,
        )
        if state is not VoteState.PASSED:
            return Effects(votes=(vote.id,))
        if vote.kind is VoteKind.DRAW:
            assert game.match is not None
            drawn = game.ended(GameStatus.FINISHED, utcnow(), Ending.DRAW)
            saved = await repo.save_game(tx, drawn)
            await notice(tx, saved, "notice.drawn", kind=game.match.ruleset.game.key.value)
            effects = Effects(games=(saved,), votes=(vote.id,), announcements=True)
            return effects + await end_game(tx, saved)
        saved = await repo.save_game(tx, game.ended(GameStatus.CANCELLED, utcnow()))
        return Effects(games=(saved,), votes=(vote.id,)) + await end_game(tx, saved)

    # --- draw offers ----------------------------------------------------------

    async def offer_draw(
        self, game_id: int, person: Person, round_no: int, *, group: int | None = None
    ) -> Done[Reply]:
        """«🤝 Предложить ничью» from the person's hand (drawn for round `round_no` of the
        match; `group`: a hand shown inside that group, else their private chat). At most
        one offer a round of the match, none once somebody abandoned it (it counts by
        K-11 already) nor while another vote is open. The offer is a vote of every person
        at the table (`VoteKind.DRAW`, the offerer's ballot in favour); each computer
        answers at once by the public score (`domino.ai.draw`): one that declines ends it.
        All agree: the match ends drawn (`_settle_vote`)."""
        now = utcnow()
        try:
            async with self.db.transaction() as tx:
                game = await repo.load_game(tx, game_id)
                seat, match = checked_press(game, person.id, 0, current=False, group=group)
                assert game is not None
                if game.seats[seat].left:
                    raise Refusal("alert.already_left")
                if match.over or round_no != len(match.results) + 1:
                    raise Refusal("alert.stale")
                if game.abandonment is not None:
                    raise Refusal("alert.draw_after_abandonment")
                if await vote_store.draw_offered(tx, game.id, round_no):
                    raise Refusal("alert.draw_offered")
                effects = await close_decided_vote(tx, game, now, busy="alert.draw_vote_open")
                try:
                    vote = await vote_store.open_vote(
                        tx,
                        game_id=game.id,
                        chat_id=game.chat_id,
                        started_by=person.id,
                        opened_at=now,
                        expires_at=now + self.context.vote_time,
                        kind=VoteKind.DRAW,
                        round_no=round_no,
                    )
                except DrawOffered:
                    raise Refusal("alert.draw_offered") from None
                except VoteBusy:
                    raise Refusal("alert.draw_vote_open") from None
                await vote_store.cast_ballot(tx, vote.id, person.id, True, now)
                vote = vote.with_ballot(person.id, True)
                answers = [
                    answer_draw(match.view(s.seat), s.seat) for s in game.seats if s.user_id is None
                ]
                for answer in answers:
                    # The public score only: nothing of a hand is in the reason.
                    log.info(
                        "chat %s game %s: draw offer %s: the computer at seat %d %s (%s by %d)",
                        game.chat_id,
                        game.id,
                        vote.id,
                        answer.seat,
                        "accepts" if answer.accept else "declines",
                        answer.reason,
                        answer.gap,
                    )
                declined = next((a for a in answers if not a.accept), None)
                if declined is not None:
                    await vote_store.close_vote(tx, vote.id, VoteState.FAILED, now)
                    await notice(
                        tx, game, "notice.draw_declined", name=game.seats[declined.seat].name
                    )
                    # The notice says it all: no vote message for a vote already over.
                    effects += Effects(announcements=True)
                else:
                    effects += await self._settle_vote(tx, game, vote, now)
        except Refusal as refusal:
            return Done(refusal.reply)
        log.info(
            "chat %s game %s: draw offer %s by seat %d in round %d",
            game.chat_id,
            game.id,
            vote.id,
            seat,
            round_no,
        )
        return Done(Reply("answer.draw_offered"), effects)


def first_abandoner(game: GameRecord) -> int:
    """Who abandoned the match first, as a /surrender confirmation carries it: their
    seat + 1, or 0 while nobody has."""
    return 0 if game.abandonment is None else game.abandonment.seat + 1


def surrender_question(game: GameRecord, seat: int) -> Reply:
    """«🏳 Сдаться?» with what it will do, as `Endings.surrender` and the stats count it:
    the match ends at once by K-11's timeout rule from its first abandonment; the loser
    (in the game's word: the козёл) is the side of whoever abandoned it first, the person
    asking unless someone left or timed out before; the person asking gains no rating
    (README), the others by their lead."""
    match = game.match
    assert match is not None
    first = game.abandonment
    culprit = seat if first is None else first.seat
    loser = Loser(match.ruleset.game.key.value, side_of(game, culprit))
    if culprit == seat:
        return Reply.of("surrender.confirm", loser=loser)
    return Reply.of(
        "surrender.confirm_after", loser=loser, name=short_name(game.seats[culprit].name)
    )


async def close_decided_vote(
    tx: Transaction, game: GameRecord, now: datetime, *, busy: str
) -> Effects:
    """Make room for a new vote of `game` (to cancel, or a draw offer): one still open
    refuses it (`busy`, the text key that says so); one decided meanwhile, which nobody
    has closed yet (its time ran out, or its last ballot settled it), is closed now and
    its message brought up to date."""
    current = await vote_store.open_vote_of_game(tx, game.id)
    if current is None:
        return Effects()
    state = decide(current, electorate(game), now)
    if state.open:
        raise Refusal(busy)
    await vote_store.close_vote(tx, current.id, state, now)
    return Effects(votes=(current.id,))
