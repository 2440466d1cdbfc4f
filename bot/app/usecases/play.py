"""Play: a person's press on their hand, the computer players' moves, a turn that timed
out (with its strikes), coming back after a computer stood in, and /hand."""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence

from bot.app.effects import Choice, ClosedHand, Done, Effects, HandAsked, Menu, PendingChoice
from bot.app.people import Person
from bot.app.reply import NO_REPLY, Reply, TileRefused, Tiles
from bot.app.thinker import Thinker
from bot.app.timers import STRIKES_TO_TAKE_OVER
from bot.app.usecases.base import (
    Before,
    Context,
    Refusal,
    Stale,
    UseCases,
    checked_press,
    not_your_turn,
    notice,
    save_moves,
)
from domino.actions import (
    END_TURN,
    Action,
    Close,
    Draw,
    Event,
    Flip,
    Flipped,
    Play,
    PlayDoubles,
    TurnedUp,
)
from domino.ai import Level
from domino.errors import DominoError
from domino.match import Match
from domino.tiles import Tile
from storage import repo
from storage.db import Transaction
from storage.records import Ending, GameRecord, GameStatus

log = logging.getLogger(__name__)


MOVED_ON_TRIES = 3  # a game changed while its computers thought: think again, this often


class Playing(UseCases):
    """Moves, made by people, by computers, and for people whose time ran out."""

    def __init__(self, context: Context, thinker: Thinker) -> None:
        super().__init__(context)
        self.thinker = thinker  # the computers' decisions (bot.app.thinker), each seat its level

    async def play(
        self, game_id: int, person: Person, move: int, action: Action, *, group: int | None = None
    ) -> Done[Reply]:
        """The person makes `action` on move number `move`, from their hand in their private
        chat, or (`group`) from their hand shown inside that group."""
        known = self.known_stale(game_id, person, move, group)
        if known is not None:
            return known
        try:
            return await self._play(game_id, person, move, action, group)
        except Stale as stale:
            return Done(stale.reply, stale.effects())
        except Refusal as refusal:
            return Done(refusal.reply)

    async def show_choice(
        self, game_id: int, person: Person, move: int, choice: Choice, *, group: int | None = None
    ) -> Done[Reply]:
        """The person opens a choice on their turn (`choice`: the ends a tile fits, or a
        `Menu` of moves); refused when the position offers no such choice (the keyboard
        draws these only when they have something to offer)."""
        known = self.known_stale(game_id, person, move, group)
        if known is not None:
            return known
        try:
            game, seat, match = await self._own_turn(game_id, person, move, group)
            key = choice_key(choice, match.legal_actions())
            return Done(Reply(key), Effects(choice=PendingChoice(game, seat, choice)))
        except Stale as stale:
            return Done(stale.reply, stale.effects())
        except Refusal as refusal:
            return Done(refusal.reply)

    async def show_hand(
        self, game_id: int, person: Person, move: int, *, group: int | None = None
    ) -> Done[Reply]:
        """The person's hand shown as it is, on their turn (back from a choice)."""
        known = self.known_stale(game_id, person, move, group)
        if known is not None:
            return known
        try:
            game, seat, _ = await self._own_turn(game_id, person, move, group)
            return Done(NO_REPLY, Effects(hands=((game.id, seat),)))
        except Stale as stale:
            return Done(stale.reply, stale.effects())
        except Refusal as refusal:
            return Done(refusal.reply)

    def known_stale(
        self, game_id: int, person: Person, move: int, group: int | None
    ) -> Done[Reply] | None:
        """A press on move number `move` that the newest record this process holds
        (`Context.newest_known`) already proves stale: the game moved past that move, so
        the database's newer record has too. It is answered at once, with no hop to the
        database, and only the presser's hand is shown again (`Stale`: it may not show
        what was last sent to it). Past the bot's capacity most presses are such repeats
        on a hand whose edit is still on its way; each one through a transaction, and
        re-showing the whole game, would take the place of the moves themselves. None
        when the record proves nothing (none held, the game not running, the press from
        a chat or by a person the record does not place): the use case decides as usual."""
        game = self.context.newest_known(game_id)
        if game is None or game.status is not GameStatus.PLAYING or game.match is None:
            return None
        if move >= len(game.match.log) or (group is not None and game.chat_id != group):
            return None
        seat = game.seat_of(person.id)
        if seat is None:
            return None
        return Done(Stale(game, seat.seat).reply, Effects(redrawn=((game_id, seat.seat),)))

    async def why_not(
        self, game_id: int, person: Person, *, group: int | None = None
    ) -> Done[Reply]:
        """A tile the person may not play now (or off their turn) was pressed: whose turn
        it is, or on their own turn why the tile cannot go (a fixed opening tile, K-3,
        T-2, B-1, or no fit). Changes nothing, whatever move the button was drawn for."""
        try:
            game = await repo.load_game(self.db, game_id)
            seat, match = checked_press(game, person.id, 0, current=False, group=group)
            assert game is not None
            if match.turn != seat:
                raise not_your_turn(game, match)
            return Done(Reply.of("answer.tile_does_not_fit", refused=TileRefused(match.view(seat))))
        except Refusal as refusal:
            return Done(refusal.reply)

    async def hand_in_group(
        self, game_id: int, group: int | None, person: Person, *, press: str | None = None
    ) -> Done[Reply]:
        """«✋ Мои кости» pressed in `group`: the person's hand comes inside the group, for
        them alone (`press`: the front end's request, handed back to it). Refused unless
        the game is the group's own, running, and the person holds a seat in it."""
        self.people.noticed(person)
        game = await repo.load_game(self.db, game_id)
        return self._hand_asked(game, group, person, press)

    async def hand_here(self, group: int, person: Person) -> Done[Reply]:
        """/hand in a group: the person's hand comes inside the group, for them alone, if
        they hold a seat in the match running there; else they are told they play in no
        game here."""
        self.people.noticed(person)
        game = await repo.active_game_of_user(self.db, person.id)
        if game is None or game.chat_id != group or game.status is not GameStatus.PLAYING:
            return Done(Reply("leave.not_playing"))
        return self._hand_asked(game, group, person, None)

    @staticmethod
    def _hand_asked(
        game: GameRecord | None, group: int | None, person: Person, press: str | None
    ) -> Done[Reply]:
        """The hand of `person`'s seat asked for inside `group`, as read in `game`: refused
        unless the game is the group's own, running, and the person holds a seat in it."""
        try:
            if game is None or group is None or game.chat_id != group:
                raise Refusal("alert.foreign_game")
            seat = game.seat_of(person.id)
            if seat is None or seat.left:
                raise Refusal("alert.not_in_game")
            if game.status is not GameStatus.PLAYING or game.match is None:
                raise Refusal("alert.finished")
        except Refusal as refusal:
            return Done(refusal.reply)
        return Done(NO_REPLY, Effects(asked_hands=(HandAsked(game.id, seat.seat, press),)))

    async def _own_turn(
        self, game_id: int, person: Person, move: int, group: int | None
    ) -> tuple[GameRecord, int, Match]:
        game = await repo.load_game(self.db, game_id)
        seat, match = checked_press(game, person.id, move, group=group)
        assert game is not None
        if match.turn != seat:
            raise not_your_turn(game, match)
        return game, seat, match

    async def _play(
        self, game_id: int, person: Person, move: int, action: Action, group: int | None
    ) -> Done[Reply]:
        """Apply a person's action (a Draw means: draw until a tile fits, C-6): one
        transaction in one hop to the database. A draw is answered with the
        tiles drawn; a `Flip` (Втемную) with what became of the tile, never naming it
        (`flip_answer`), and the end chosen for a tile it turned up when that turned the
        last tiles up (`laid_answer`)."""

        async def apply(tx: Transaction) -> tuple[tuple[Tile, ...], str | None, Effects]:
            game = await repo.load_game(tx, game_id)
            seat, match = checked_press(game, person.id, move, group=group)
            assert game is not None
            if match.turn != seat:
                raise not_your_turn(game, match)
            if game.seats[seat].away:
                raise Refusal("alert.away")  # the computer plays for them
            if action not in match.legal_actions():
                # A forged button, or one for a move the rules refuse: nothing changes.
                log.debug(
                    "game %s: refused a %s from %s: not a legal action",
                    game_id,
                    type(action).__name__,
                    person.id,
                )
                raise Refusal("alert.illegal")
            before = Before.of(match)
            drawn: tuple[Tile, ...] = ()
            flipped: str | None = None
            try:
                if isinstance(action, Draw):
                    drawn = match.draw_until_playable(seat)
                else:
                    round_no = match.round_no
                    laying = match.round.turned_up is not None  # Втемную: the end chosen
                    event = match.apply(action, seat)
                    if isinstance(action, Flip):
                        flipped = flip_answer(match, seat, round_no, event)
                    elif laying:
                        flipped = laid_answer(match, seat, round_no)
            except DominoError as exc:
                # The action names a tile of the person's hand: logged by its kind only.
                log.debug(
                    "game %s: refused a %s from %s: %s",
                    game_id,
                    type(action).__name__,
                    person.id,
                    type(exc).__name__,
                )
                raise Refusal("alert.illegal") from None
            _, effects = await save_moves(
                tx, game, match, before, person.id, self.context.turn_deadline
            )
            return drawn, flipped, effects

        drawn, flipped, effects = await self.db.atomic(apply)
        if drawn:
            return Done(Reply.of("answer.drew", tiles=Tiles(drawn)), effects)
        if flipped is not None:
            return Done(Reply(flipped), effects)
        return Done(NO_REPLY, effects)

    async def computers(self, game_id: int) -> Done[None] | None:
        """Every computer whose turn it is moves, up to the round's end or a person's turn.
        None if there was nothing to play.

        The decisions are made outside any transaction (the thinker, at each seat's level,
        on that seat's view only: a hard search takes up to its budget), on the game as
        read; then one transaction reloads the game and, if nothing changed meanwhile
        (its version, so its move number too), applies them and saves. A game that moved
        on (a person came back, a cancel, another call of this) is thought over again; after
        `MOVED_ON_TRIES` the game as it now stands is shown again, so that if a computer is
        still to move its pause is set again (the effects' `_follow`) rather than nobody
        ever calling this again."""
        stored: GameRecord | None = None
        for _ in range(MOVED_ON_TRIES):
            game = await repo.load_game(self.db, game_id)
            if computer_to_move(game) is None:
                return None
            assert game is not None and game.match is not None
            actions = await self._decide(game, game.match)  # thinks ahead on the copy read
            if not actions:
                return None
            stored, effects = await self.db.atomic(
                functools.partial(
                    self._apply_decided, game_id=game_id, version=game.version, actions=actions
                )
            )
            if effects is None:
                continue
            return Done(None, effects)
        log.info("game %s: moved on while its computers thought, %d times", game_id, MOVED_ON_TRIES)
        if computer_to_move(stored) is None:
            return None
        assert stored is not None
        return Done(None, Effects(games=(stored,)))  # its computers are called again

    async def _apply_decided(
        self, tx: Transaction, game_id: int, version: int, actions: list[tuple[int, Action]]
    ) -> tuple[GameRecord | None, Effects | None]:
        """The computers' decided actions applied and saved, if the game is still at
        `version` (the game as stored, and no effects, if not)."""
        stored = await repo.load_game(tx, game_id)
        if stored is None or stored.version != version:
            return stored, None
        assert stored.match is not None
        moved = stored.match
        before = Before.of(moved)
        for seat, action in actions:
            moved.apply(action, seat)
        _, effects = await save_moves(tx, stored, moved, before, None, self.context.turn_deadline)
        return stored, effects

    async def _decide(self, game: GameRecord, match: Match) -> list[tuple[int, Action]]:
        """The computers' actions from where `match` stands (applied to it) up to the end
        of its round or a person's turn: each seat at the level it plays at."""
        results = len(match.results)
        actions: list[tuple[int, Action]] = []
        while not match.over and len(match.results) == results:
            seat = match.turn
            if seat is None or not game.seats[seat].by_computer:
                break
            decision = await self.thinker.decide(match.view(seat), game.seats[seat].plays_at)
            match.apply(decision.action, seat)
            actions.append((seat, decision.action))
        return actions

    async def time_out(self, game_id: int, move: int) -> Done[None] | None:
        """The time for move number `move` ran out: the computer player's choice is made
        for the person (drawing until a tile fits, or knocking: C-6, C-7; in the games
        where a turn lays several tiles, section V, the whole turn; in Втемную a face-down
        seat's one move, its flip), and a strike is noted; at `STRIKES_TO_TAKE_OVER`
        strikes a computer takes the seat (`away`), announced once, and the match's first
        abandonment is this timeout (K-11). None if the game moved on meanwhile: a press
        just before the deadline wins and no move is made twice. One transaction: the
        background retries it whole.

        Choice (section V): a person whose time runs out in the middle of a turn of
        several tiles (`Round.mid_turn`: they laid a tile this turn) has their turn ended
        there, as «✔️ Сходить» would: the tiles laid stay, no computer lays more of their
        tiles, and no strike is noted, since they were at the table and moving (a strike
        is for a turn nobody took). So too in Втемную for a person who turned up a tile
        that fits both ends (`Round.turned_up`) and chose no end: the tile is laid on the
        end the medium computer picks, with no strike."""

        async def apply(
            tx: Transaction,
        ) -> tuple[GameRecord, Effects, int, int | None, bool] | None:
            game = await repo.load_game(tx, game_id)
            if game is None or game.status is not GameStatus.PLAYING or game.match is None:
                return None
            match = game.match
            seat = match.turn
            if len(match.log) != move or seat is None or game.seats[seat].by_computer:
                return None
            before = Before.of(match)
            record = game.seats[seat]
            if match.round.mid_turn or match.round.turned_up is not None:
                if match.round.mid_turn:
                    match.apply(END_TURN, seat)
                else:  # Втемную: the tile they turned up, laid on the end a computer picks
                    match.take_turn(seat, self.thinker.inline(Level.MEDIUM))
                saved, effects = await save_moves(
                    tx, game, match, before, None, self.context.turn_deadline
                )
                return saved, effects, seat, None, False
            match.take_turn(seat, self.thinker.inline(Level.MEDIUM))
            strikes = record.strikes + 1
            away = strikes >= STRIKES_TO_TAKE_OVER
            changed = game.struck(seat, strikes, away=away)
            if away and not match.over:
                changed = changed.abandoned_by(seat, Ending.TIMEOUT)
                await notice(tx, game, "notice.taken_over", name=record.name)
            saved, effects = await save_moves(
                tx, changed, match, before, None, self.context.turn_deadline
            )
            return saved, effects, seat, strikes, away

        done = await self.db.atomic(apply)
        if done is None:
            return None
        saved, effects, seat, strikes, away = done
        if strikes is None:
            log.info(
                "chat %s game %s: seat %d timed out on move %d in the middle of a turn: "
                "the turn ends there, no strike",
                saved.chat_id,
                saved.id,
                seat,
                move,
            )
            return Done(None, effects)
        log.info(
            "chat %s game %s: seat %d timed out on move %d (strike %d%s)",
            saved.chat_id,
            saved.id,
            seat,
            move,
            strikes,
            ", a computer takes over" if away else "",
        )
        return Done(None, effects + Effects(announcements=True))

    async def come_back(
        self, game_id: int, person: Person, *, group: int | None = None
    ) -> Done[Reply]:
        """The «I'm back» button: a person a computer stood in for plays their seat again,
        with no strikes; if the match's abandonment is this seat's timeout, it is withdrawn.
        `group`: pressed on the hand shown inside that group, which must be the game's."""
        self.people.noticed(person)
        try:
            async with self.db.transaction() as tx:
                game = await repo.load_game(tx, game_id)
                if game is not None and group is not None and game.chat_id != group:
                    raise Refusal("alert.foreign_game")
                if game is None or game.status is not GameStatus.PLAYING or game.match is None:
                    raise Refusal("alert.finished")
                seat = game.seat_of(person.id)
                if seat is None or seat.left:
                    raise Refusal("alert.not_in_game")
                if not seat.away:
                    raise Refusal("answer.not_away", alert=False)
                saved = await repo.save_game(tx, game.back(seat.seat))
                await notice(tx, game, "notice.back", name=seat.name)
        except Refusal as refusal:
            return Done(refusal.reply)
        log.info("chat %s game %s: seat %d is back", saved.chat_id, saved.id, seat.seat)
        return Done(Reply("answer.back"), Effects(games=(saved,), announcements=True))

    async def plays_in(self, chat_id: int, person: Person) -> bool:
        """Whether the person is seated in the match running in this group (/hand there
        points them to their private chat only then)."""
        game = await repo.active_game_of_user(self.db, person.id)
        return (
            game is not None
            and game.chat_id == chat_id
            and game.status is GameStatus.PLAYING
            and game.seat_of(person.id) is not None
        )

    async def resend_hand(self, person: Person) -> Done[Reply | None]:
        """/hand: a fresh hand message at the bottom of the private chat (None), or why not."""
        game = await repo.active_game_of_user(self.db, person.id)
        if game is None or game.status is not GameStatus.PLAYING:
            return Done(Reply("hand.no_game"))
        seat = game.seat_of(person.id)
        assert seat is not None
        moved = ClosedHand(game, seat.seat, person.id, "hand.moved", person.lang)
        return Done(None, Effects(closed_hands=(moved,), hands=((game.id, seat.seat),)))


def computer_to_move(game: GameRecord | None) -> int | None:
    """The seat of a running game a computer is to move now (a computer's, or a person's
    a computer plays for), else None."""
    if game is None or game.status is not GameStatus.PLAYING or game.match is None:
        return None
    seat = game.match.turn
    if seat is None or not game.seats[seat].by_computer:
        return None
    return seat


def flip_answer(match: Match, seat: int, round_no: int, event: Event) -> str:
    """The text key that tells the presser what became of the tile their `Flip` turned up
    (Втемную), without naming it: nobody may see a face-down stack, its owner included,
    and a tile that went under it is in the stack again. Laid (and, when that left the
    last tiles, `domino.round.FACE_UP`, turned up for them), or under the stack with a
    bazaar tile on top, or not (the bazaar is empty); or, fitting both ends
    (`TurnedUp`), waiting for the presser to choose the end (the hand shows the tile: it
    is turned up for all to see)."""
    if isinstance(event, Flipped):
        return "answer.flip_under_drew" if event.drew else "answer.flip_under"
    if isinstance(event, TurnedUp):
        return "answer.flip_choice"
    same_round = not match.over and match.round_no == round_no
    if same_round and not match.round.face_down(seat):
        return "answer.flip_turned_up"
    return "answer.flip_laid"


def laid_answer(match: Match, seat: int, round_no: int) -> str | None:
    """Втемную: the answer to laying a tile turned up on the end the presser chose: when
    that left the last tiles (`domino.round.FACE_UP`) and turned them up, that they are in
    the hand, as after any flip that does so; else none (the play is seen on the table)."""
    same_round = not match.over and match.round_no == round_no
    if same_round and not match.round.face_down(seat):
        return "answer.flip_turned_up"
    return None


def choice_key(choice: Choice, legal: Sequence[Action]) -> str:
    """The reply's key to opening `choice` among the `legal` actions; refused when the
    position offers no such choice (a forged button)."""
    if isinstance(choice, Tile):
        if sum(1 for a in legal if isinstance(a, Play) and a.tile == choice) < 2:
            raise Refusal("alert.illegal")
        return "answer.choose_end"
    if choice is Menu.DOUBLES:
        if not any(isinstance(a, PlayDoubles) for a in legal):
            raise Refusal("alert.illegal")
        return "answer.choose_doubles"
    if not any(isinstance(a, Close) for a in legal):
        raise Refusal("alert.illegal")
    return "answer.choose_close"
