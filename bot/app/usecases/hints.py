"""«💡 Подсказка»: the strong computer's choice for a person's turn, shown to
that person only, with a one-line reason.

A hint press is untrusted like every button (it arrives only from the presser's own
private chat: `handlers.buttons`). It is answered with a hint only when the game is
running, the presser holds a seat in it and is playing it themselves, it is their turn,
the button's move number is the match's now, and the game's group allows hints
(/settings); anything else gets a polite refusal and changes nothing. Втемную: while the
presser's tiles lie face down there is nothing to hint (the one move is «⬛ Открыть
верхнюю»), so the hand offers no button and a forged press is refused, not counted; but
a tile turned up that fits both ends (`Round.turned_up`) waits for its owner to choose
the end, and that choice is hinted like any other.

The decision is `Thinker.decide(view, Level.HARD)` on the presser's own view
(`Match.view(seat)`), never the match: the search runs in the thinker's pool with its
deadline (medium decides when it is late), outside any transaction.

Limits. A seat is counted one hint per turn at most: a second press on the same turn
shows the stored hint again, neither computed nor counted again (`storage.hints`: the
count is kept with the game and copied into the match record, where /stats shows it).
And one person has at most one hint being worked out at a time: a press while their
search runs is told to wait. A stored hint is shown again at once, and a new turn's
first press is never refused for coming soon after the last turn's: behind quick
computers a person's next turn may come within a second or two.

A hint changes nothing else: not the game, not the rating (`storage.stats`).
"""

from __future__ import annotations

import logging
from typing import Protocol

from bot.app.effects import Done
from bot.app.people import Person
from bot.app.reply import Hint, Reply
from bot.app.usecases.base import Context, Refusal, UseCases, not_your_turn
from domino.actions import parse_action
from domino.ai import Decision, Level
from domino.match import Match
from domino.views import MatchView
from storage import hints as hint_store
from storage import repo
from storage.records import GameRecord, GameStatus

log = logging.getLogger(__name__)


class Decider(Protocol):
    """What decides a hint: `bot.app.thinker.Thinker`."""

    async def decide(self, view: MatchView, level: Level) -> Decision: ...


class Hints(UseCases):
    """A person's «💡 Подсказка» press on their hand."""

    def __init__(self, context: Context, decider: Decider) -> None:
        super().__init__(context)
        self.settings = context.settings
        self.decider = decider
        self._thinking: set[int] = set()  # people whose hint is being worked out now

    async def press(
        self, game_id: int, person: Person, move: int, *, group: int | None = None
    ) -> Done[Reply]:
        """The hint for move number `move` of the game, as an alert to the presser; or
        why not (`group`: pressed on the hand shown inside that group, which must be the
        game's). Changes nothing but the seat's hint count (one per turn)."""
        try:
            game = await repo.load_game(self.db, game_id)
            seat, match = self._checked(game, person, move, group)
            view = match.view(seat)
            stored = await hint_store.last_hint(self.db, game_id, seat)
            if stored is None or stored.move != move:
                if person.id in self._thinking:
                    raise Refusal("answer.hint_too_fast", alert=False)
                self._thinking.add(person.id)
                try:
                    decision = await self.decider.decide(view, Level.HARD)
                    stored = await self._count(game_id, person, move, decision)
                finally:
                    self._thinking.discard(person.id)
            action = parse_action(stored.action)
            hint = Hint(view, action, stored.reason, stored.args)
            return Done(Reply.of("hint.shown", hint=hint, alert=True))
        except Refusal as refusal:
            return Done(refusal.reply)

    def _checked(
        self, game: GameRecord | None, person: Person, move: int, group: int | None
    ) -> tuple[int, Match]:
        """The presser's seat and the match, if a hint may be shown for `move` now."""
        if game is None:
            raise Refusal("alert.stale")
        if group is not None and game.chat_id != group:
            raise Refusal("alert.foreign_game")
        seat = game.seat_of(person.id)
        if seat is None or seat.left:  # left for good: a computer has the seat
            raise Refusal("alert.not_in_game")
        if game.status is not GameStatus.PLAYING or game.match is None:
            raise Refusal("alert.finished")
        if seat.away:
            raise Refusal("alert.away")  # a computer plays the seat: no hint needed
        if not self.settings.hints_allowed(game.chat_id):
            raise Refusal("alert.hints_off")
        match = game.match
        if move != len(match.log):
            raise Refusal("alert.hint_stale")
        if match.turn != seat.seat:
            raise not_your_turn(game, match)
        if match.round.face_down(seat.seat) and match.round.turned_up is None:
            raise Refusal("alert.hint_face_down")  # the flip is the one move: nothing to hint
        return seat.seat, match

    async def _count(
        self, game_id: int, person: Person, move: int, decision: Decision
    ) -> hint_store.StoredHint:
        """Store and count the hint, if the game is still at `move` (the search took a
        moment: a move made meanwhile makes the hint stale)."""
        async with self.db.transaction() as tx:
            game = await repo.load_game(tx, game_id)
            seat, _ = self._checked(game, person, move, None)  # checked before it
            stored = await hint_store.count_hint(
                tx, game_id, seat, move, str(decision.action), decision.reason, decision.args
            )
        # Numbers only: the move and even its reason («a double») tell of the hand.
        log.info("game %s: seat %d took hint %d on move %d", game_id, seat, stored.count, move)
        return stored
