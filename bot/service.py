"""The game's use cases: open a lobby, join, start, play, leave, cancel, resume.

Every use case follows one pattern: in one transaction load the game, check the
request, change the game through the engine, save it (with its version) together
with the action log and any announcements owed; only after the commit tell the
publisher to bring the messages up to date. So nothing is announced that is not
stored, a crash loses nothing that was confirmed, and a second press of the same
button finds the game already moved on (its move number no longer matches) and is
answered as stale instead of being applied twice.

Refusals are answers, not errors: a press by an outsider, a stale button, a command
in the wrong place all get a short polite `Answer` and change nothing.
"""

from __future__ import annotations

import asyncio
import dataclasses
import html
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from bot.callbacks import (
    JOIN_TOKEN_BYTES,
    LobbyAction,
    LobbyOption,
    MoveKind,
    StartKind,
    is_join_token,
    join_payload,
    parse_start,
)
from bot.i18n import Lang, lang_of, t
from bot.presenter import short_name
from bot.publisher import Lru, Publisher
from bot.timers import STRIKES_TO_TAKE_OVER, TurnTimers
from bot.votes import VOTE_TIME, VoteBoard, decide, electorate
from domino.actions import DRAW, KNOCK, Action, Draw, Play
from domino.errors import DominoError
from domino.layout import End
from domino.match import Match
from domino.players import GreedyPlayer
from domino.rating import abandoned_rating_gains
from domino.rules import KOZEL, FishMode, Ruleset, Scoring, Variant
from domino.tiles import ALL_TILES, Tile
from storage import repo, stats
from storage import votes as vote_store
from storage.db import Database, Transaction, retrying
from storage.records import (
    Abandonment,
    ChatRecord,
    Ending,
    GameRecord,
    GameStatus,
    SeatRecord,
    UserRecord,
)
from storage.votes import Vote, VoteBusy, VoteState

log = logging.getLogger(__name__)

TARGETS = {Variant.KOZEL: (101, 125), Variant.CLASSIC: (100, 150, 200)}
THRESHOLDS = (13, 25, 31, 0)
FISH_MODES = (FishMode.MAX_TAKES_ALL, FishMode.EACH, FishMode.FISHERMAN_TAKES_ALL)
RECENTLY_ENDED = timedelta(minutes=15)  # ended games whose messages a restart re-checks
SEEN_CACHE_SIZE = 100_000  # people whose last-seen name is remembered in memory
LANG_CACHE_SIZE = 100_000  # people whose language is remembered in memory
# Telegram's sender of an anonymous admin's messages in groups (`sender_chat` is the group).
ANONYMOUS_ADMIN_ID = 1087968824

# Asked of Telegram by the handlers, so the service holds no Bot (issue 11): whether the
# person who pressed or wrote is an admin of the chat with the given id, or a member of it.
ChatCheck = Callable[[int], Awaitable[bool]]


@dataclass(frozen=True, slots=True)
class Person:
    """Who pressed or wrote, as Telegram describes them."""

    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None

    @property
    def lang(self) -> Lang:
        return lang_of(self.language_code)

    @property
    def name(self) -> str:
        full = f"{self.first_name} {self.last_name}" if self.last_name else self.first_name
        return " ".join(full.split()) or (self.username or str(self.id))

    def record(self) -> UserRecord:
        return UserRecord(
            id=self.id,
            first_name=self.first_name,
            last_name=self.last_name,
            username=self.username,
            language=self.lang.value,
        )


@dataclass(frozen=True, slots=True)
class Answer:
    """The answer to a button press (answerCallbackQuery): a toast, an alert or a link."""

    text: str = ""
    alert: bool = False
    url: str | None = None


class Refusal(Exception):
    """A request that changes nothing, with the text (key) that explains why."""

    def __init__(self, key: str, *, alert: bool = True, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.alert = alert
        self.values = values

    def answer(self, lang: Lang) -> Answer:
        return Answer(t(self.key, lang, **self.values), alert=self.alert)


def utcnow() -> datetime:
    return datetime.now(UTC)


class GameService:
    """All changes to games go through here."""

    def __init__(
        self,
        db: Database,
        publisher: Publisher,
        *,
        bot_username: str,
        computer_delay: float = 1.5,
        new_seed: Callable[[], int] = lambda: secrets.randbits(64),
        vote_time: timedelta = VOTE_TIME,
        timers: TurnTimers | None = None,
    ) -> None:
        self.db = db
        self.publisher = publisher
        self.timers = timers  # turn timers (issue 7); None: turns are not timed
        if timers is not None:
            timers.on_expired = self.turn_timed_out
            timers.on_warning = publisher.touch
            timers.on_lobby_expired = self.lobby_timed_out
        self.bot_username = bot_username
        self.computer_delay = computer_delay
        self.new_seed = new_seed
        self._computer_tasks: dict[int, asyncio.Task[None]] = {}
        self._closing = False
        self._langs: Lru[int, Lang] = Lru(LANG_CACHE_SIZE)  # user id -> language, as last seen
        self._seen: Lru[int, UserRecord] = Lru(SEEN_CACHE_SIZE)  # user id -> as last written
        self.vote_time = vote_time
        self.votes = VoteBoard(db, publisher.out, group_lang=publisher.group_lang)
        self._vote_timers: dict[int, asyncio.Task[None]] = {}

    # --- people and chats -------------------------------------------------------------

    async def remember(self, person: Person, *, can_message: bool | None = None) -> None:
        async with self.db.transaction() as tx:
            await repo.upsert_user(tx, person.record(), can_message=can_message)
        self._langs[person.id] = person.lang

    async def seen(self, person: Person) -> None:
        """Any update from a person: a known person's name and language are kept as last
        seen (the leaderboards list people so, also after they left the group). Written
        only when something changed since the last sighting."""
        record = person.record()
        if self._seen.get(person.id) == record:
            return
        self._seen[person.id] = record
        self._langs[person.id] = person.lang
        await repo.refresh_user(self.db, record)

    async def language_of(self, user_id: int, db: repo.Reader | None = None) -> Lang:
        """The language to write to `user_id` in; `db` is the transaction when inside one."""
        lang = self._langs.get(user_id)
        if lang is None:
            user = await repo.get_user(db or self.db, user_id)
            lang = self._langs[user_id] = Lang(user.language) if user else Lang.RU
        return lang

    def join_link(self, game: GameRecord) -> str | None:
        """The lobby's deep link: it carries the game's secret token, never its number."""
        if game.join_token is None:
            return None
        return f"https://t.me/{self.bot_username}?start={join_payload(game.join_token)}"

    @staticmethod
    def _new_join_token() -> str:
        while True:
            token = secrets.token_urlsafe(JOIN_TOKEN_BYTES)
            if is_join_token(token):  # not all digits: read as an old numbered link
                return token

    # --- the lobby --------------------------------------------------------------------

    async def open_lobby(self, chat: ChatRecord, person: Person) -> str | None:
        """/domino in a group: a new lobby, or a pointer to the game already there.

        An anonymous admin (Telegram's `GroupAnonymousBot` writing as the group) gets no
        seat, since nobody can write to them; the chat's admins control the lobby."""
        anonymous = person.id == ANONYMOUS_ADMIN_ID
        async with self.db.transaction() as tx:
            await repo.upsert_chat(tx, chat)
            await repo.upsert_user(tx, person.record())
        self._langs[person.id] = person.lang
        try:
            async with self.db.transaction() as tx:
                running = await repo.active_game_in_chat(tx, chat.id)
                if running is not None:
                    key = (
                        "lobby.already_open"
                        if running.status is GameStatus.LOBBY
                        else "lobby.already_running"
                    )
                    return t(key, person.lang)
                user = await repo.get_user(tx, person.id)
                seated = user is not None and user.can_message and not anonymous
                seats = [SeatRecord(0, person.id, short_name(person.name))] if seated else []
                game = await repo.create_game(
                    tx,
                    chat_id=chat.id,
                    creator_id=person.id,
                    ruleset=KOZEL,
                    seats_wanted=4,
                    seats=seats,
                    join_token=self._new_join_token(),
                    lobby_deadline=self.timers.lobby_deadline(chat.id) if self.timers else None,
                )
        except repo.PlayerBusy:  # raised out of the transaction, so the lobby is rolled back
            busy = await repo.active_game_of_user(self.db, person.id)
            title = await self._chat_title(self.db, busy.chat_id if busy else chat.id)
            return t("lobby.you_play_elsewhere", person.lang, chat=title)
        log.info("chat %s game %s: lobby opened by %s", chat.id, game.id, person.id)
        self.publisher.touch(game)
        if self.timers is not None:
            self.timers.touch_lobby(game)
        return None

    async def _lobby_of_chat(self, game_id: int, chat_id: int | None) -> GameRecord:
        """The lobby `game_id` if the press came from its own group (`chat_id`: the chat of
        the pressed message); refused otherwise (issue 11, items 1 and 2)."""
        game = await repo.load_game(self.db, game_id)
        if game is None or chat_id is None or game.chat_id != chat_id:
            raise Refusal("alert.foreign_game")
        if game.status is not GameStatus.LOBBY:
            raise Refusal("alert.lobby_closed")
        return game

    @staticmethod
    async def _may_control(game: GameRecord, person: Person, is_admin: ChatCheck) -> bool:
        """The game's creator or an admin of the game's own chat (issue 11, item 4)."""
        return person.id == game.creator_id or await is_admin(game.chat_id)

    async def lobby_press(
        self,
        game_id: int,
        chat_id: int | None,
        person: Person,
        action: LobbyAction,
        option: LobbyOption,
        is_admin: ChatCheck,
    ) -> Answer:
        """A lobby button pressed on a message in `chat_id`. Joining and leaving are anyone's;
        the other buttons the creator's or a chat admin's."""
        lang = self._langs[person.id] = person.lang
        try:
            shown = await self._lobby_of_chat(game_id, chat_id)
            controls = action not in (LobbyAction.JOIN, LobbyAction.LEAVE) and (
                await self._may_control(shown, person, is_admin)
            )
            async with self.db.transaction() as tx:
                await repo.upsert_user(tx, person.record())
                game = await repo.load_game(tx, game_id)
                if game is None or game.status is not GameStatus.LOBBY:
                    raise Refusal("alert.lobby_closed")
                changed, answer = await self._lobby_change(
                    tx, game, person, action, option, controls
                )
                if changed is None:
                    return answer
                saved = await repo.save_game(tx, changed)
        except Refusal as refusal:
            return refusal.answer(lang)
        except repo.PlayerBusy:
            return Answer(t("alert.playing_elsewhere", lang), alert=True)
        log.info("chat %s game %s: lobby %s by %s", saved.chat_id, saved.id, action.name, person.id)
        self.publisher.touch(saved)
        if saved.status is GameStatus.PLAYING:
            log.info(
                "chat %s game %s: started, %d seats (%d computers)",
                saved.chat_id,
                saved.id,
                len(saved.seats),
                sum(1 for s in saved.seats if s.is_computer),
            )
            self._kick_computers(saved)
        return answer

    async def _lobby_change(
        self,
        tx: Transaction,
        game: GameRecord,
        person: Person,
        action: LobbyAction,
        option: LobbyOption,
        controls: bool,
    ) -> tuple[GameRecord | None, Answer]:
        """`controls`: the presser is the creator or a chat admin."""
        lang = person.lang
        seated = game.seat_of(person.id)
        if action is LobbyAction.JOIN:
            if seated is not None:
                raise Refusal("alert.already_seated", alert=False)
            user = await repo.get_user(tx, person.id)
            if user is None or not user.can_message:
                link = self.join_link(game)
                if link is None:  # a lobby from before join tokens: /start first
                    raise Refusal("alert.start_private_first", bot=self.bot_username)
                return None, Answer(url=link)
            return self._seat_person(game, person), Answer(t("answer.joined", lang))
        if action is LobbyAction.LEAVE:
            if seated is None:
                raise Refusal("alert.not_seated", alert=False)
            return _without_seat(game, seated.seat), Answer(t("answer.left", lang))
        if not controls:
            raise Refusal("alert.creator_or_admin_only")
        if action is LobbyAction.CANCEL:
            return _ended(game, GameStatus.CANCELLED), Answer(t("answer.cancelled", lang))
        if action is LobbyAction.ADD_COMPUTER:
            if len(game.seats) >= game.seats_wanted:
                raise Refusal("alert.table_full")
            computers = sum(1 for s in game.seats if s.is_computer)
            name = t("computer.name", await self.language_of(game.creator_id, tx), n=computers + 1)
            seats = (*game.seats, SeatRecord(len(game.seats), None, name))
            return dataclasses.replace(game, seats=seats), Answer(t("answer.computer_added", lang))
        if action is LobbyAction.OPTION:
            return _with_option(game, option), Answer()
        if action is LobbyAction.START:
            if len(game.seats) < game.seats_wanted:
                raise Refusal(
                    "alert.not_enough_players", have=len(game.seats), wanted=game.seats_wanted
                )
            return self._started(game), Answer(t("answer.started", lang))
        raise Refusal("alert.stale")

    def _seat_person(self, game: GameRecord, person: Person) -> GameRecord:
        if len(game.seats) >= game.seats_wanted:
            raise Refusal("alert.table_full")
        seats = (*game.seats, SeatRecord(len(game.seats), person.id, short_name(person.name)))
        return dataclasses.replace(game, seats=seats)

    def _started(self, game: GameRecord) -> GameRecord:
        rules = game.ruleset
        if rules.teams and len(game.seats) != 4:
            rules = rules.with_options(teams=False)
        match = Match.new(rules, len(game.seats), seed=self.new_seed())
        return dataclasses.replace(
            game, status=GameStatus.PLAYING, ruleset=rules, match=match, started_at=utcnow()
        )

    async def start(
        self, person: Person, payload: str | None, is_member: Callable[[int, int], Awaitable[bool]]
    ) -> str:
        """/start in the private chat, with the payload of a deep link if any (parsed by
        `bot.callbacks.parse_start`). `is_member(chat_id, user_id)` asks Telegram."""
        parsed = parse_start(payload)
        if parsed.kind is StartKind.JOIN:
            return await self.join_by_link(person, parsed.token, is_member)
        if parsed.kind is StartKind.STALE_JOIN:
            await self.remember(person, can_message=True)
            return t("start.link_stale", person.lang)
        return await self.welcome_back(person)

    async def join_by_link(
        self, person: Person, token: str, is_member: Callable[[int, int], Awaitable[bool]]
    ) -> str:
        """/start j<token> in the private chat: the person can now be written to; seat them
        if they are a member of the lobby's group (issue 11, item 2: a link passed on to
        strangers seats nobody)."""
        await self.remember(person, can_message=True)
        lang = person.lang
        try:
            found = await repo.game_by_join_token(self.db, token)
            if found is None:
                raise Refusal("start.link_stale")
            if not await is_member(found.chat_id, person.id):
                raise Refusal(
                    "start.not_a_member", chat=await self._chat_title(self.db, found.chat_id)
                )
            async with self.db.transaction() as tx:
                game = await repo.load_game(tx, found.id)
                if game is None or game.status is not GameStatus.LOBBY:
                    raise Refusal("alert.lobby_closed")
                title = await self._chat_title(tx, game.chat_id)
                if game.seat_of(person.id) is not None:
                    return t("start.already_joined", lang, chat=title)
                saved = await repo.save_game(tx, self._seat_person(game, person))
        except Refusal as refusal:
            return t(refusal.key, lang, **refusal.values)
        except repo.PlayerBusy:
            return t("alert.playing_elsewhere", lang)
        log.info("chat %s game %s: %s joined by link", saved.chat_id, saved.id, person.id)
        self.publisher.touch(saved)
        return t("start.joined", lang, chat=title)

    async def welcome_back(self, person: Person) -> str:
        """/start without a payload: the person can be written to; re-show their hand."""
        await self.remember(person, can_message=True)
        game = await repo.active_game_of_user(self.db, person.id)
        if game is not None and game.status is GameStatus.PLAYING:
            seat = game.seat_of(person.id)
            if seat is not None:
                self.publisher.touch_hand(game.id, seat.seat)
            return t("start.back_in_game", person.lang)
        return t("start.welcome", person.lang)

    # --- play -------------------------------------------------------------------------

    async def move_press(
        self, game_id: int, person: Person, move: int, kind: MoveKind, tile_index: int, end: str
    ) -> Answer:
        lang = person.lang
        if kind in (MoveKind.PLAY, MoveKind.DRAW, MoveKind.KNOCK):
            try:
                action = _actions_for(kind, tile_index, end)
            except Refusal as refusal:
                return refusal.answer(lang)
            return await self._play(game_id, person, move, action)
        try:
            game = await repo.load_game(self.db, game_id)
            seat, match = self._check_press(game, person, move, current=kind is not MoveKind.INFO)
            assert game is not None
            if kind is MoveKind.INFO:
                if match.turn == seat:
                    return Answer(t("answer.tile_does_not_fit", lang))
                raise _not_your_turn(game, match)
            if match.turn != seat:
                raise _not_your_turn(game, match)
            if kind is MoveKind.CHOOSE_END:
                await self.publisher.show_end_choice(game, seat, _tile(tile_index))
                return Answer(t("answer.choose_end", lang))
            self.publisher.touch_hand(game.id, seat)  # MoveKind.BACK: the hand as it was
            return Answer()
        except Refusal as refusal:
            return refusal.answer(lang)

    def _check_press(
        self, game: GameRecord | None, person: Person, move: int, *, current: bool = True
    ) -> tuple[int, Match]:
        """The pressing person's seat and the match; refused unless the press is theirs, the
        game is running and (`current`) the button was drawn for the position as it is now."""
        if game is None:
            raise Refusal("alert.stale")
        seat = game.seat_of(person.id)
        if seat is None:
            raise Refusal("alert.not_in_game")
        if game.status is not GameStatus.PLAYING or game.match is None:
            raise Refusal("alert.finished")
        if current and move != len(game.match.log):
            raise Refusal("alert.stale")
        return seat.seat, game.match

    async def _play(self, game_id: int, person: Person, move: int, actions: Action) -> Answer:
        """Apply a person's action (a Draw means: draw until a tile fits, C-6)."""
        lang = person.lang
        drawn: list[Tile] = []
        try:
            async with self.db.transaction() as tx:
                game = await repo.load_game(tx, game_id)
                seat, match = self._check_press(game, person, move)
                assert game is not None
                if match.turn != seat:
                    raise _not_your_turn(game, match)
                if game.seats[seat].away:
                    raise Refusal("alert.away")  # the computer plays for them (issue 7)
                results_before = len(match.results)
                try:
                    if isinstance(actions, Draw):
                        drawn = self._draw_until_playable(match, seat)
                        await self._log_new_actions(tx, game, match, move, person.id)
                    else:
                        match.apply(actions, seat)
                        await self._log_new_actions(tx, game, match, move, person.id)
                except DominoError as exc:
                    # The action names a tile of the person's hand: logged by its kind only.
                    log.debug(
                        "game %s: refused a %s from %s: %s",
                        game_id,
                        type(actions).__name__,
                        person.id,
                        type(exc).__name__,
                    )
                    raise Refusal("alert.illegal") from None
                saved = await self._save_after_moves(tx, game, match, results_before)
        except Refusal as refusal:
            return refusal.answer(lang)
        self.publisher.touch(saved)
        self._kick_computers(saved)
        if len(match.results) > results_before or match.over:
            self.publisher.kick_outbox()
        if drawn:
            return Answer(t("answer.drew", lang, tiles=", ".join(str(x) for x in drawn)))
        return Answer()

    @staticmethod
    def _draw_until_playable(match: Match, seat: int) -> list[Tile]:
        """C-6: draw one tile at a time until one fits or nothing is left to draw."""
        before = set(match.round.hand(seat))
        while any(isinstance(a, Draw) for a in match.legal_actions()):
            match.apply(DRAW, seat)
        return sorted(set(match.round.hand(seat)) - before)

    async def _log_new_actions(
        self, tx: Transaction, game: GameRecord, match: Match, move: int, actor: int | None
    ) -> None:
        await repo.append_actions(
            tx,
            game.id,
            start=move,
            actions=[(e.round_no, e.seat, str(e.action)) for e in match.log[move:]],
            actor_id=actor,
        )
        # One line per batch of moves: numbers and seats, never a tile (issue 7).
        log.info(
            "chat %s game %s: moves %d to %d by seat %s (%s)",
            game.chat_id,
            game.id,
            move + 1,
            len(match.log),
            match.log[move].seat if len(match.log) > move else "-",
            f"user {actor}" if actor is not None else "computer",
        )

    async def _save_after_moves(
        self, tx: Transaction, game: GameRecord, match: Match, results_before: int
    ) -> GameRecord:
        """Save the moved match; owe the announcements of every round it finished."""
        changed = dataclasses.replace(game, match=match)
        if match.over:
            changed = _ended(changed, GameStatus.FINISHED)
        saved = await repo.save_game(tx, changed)
        if match.over:
            await stats.record_match(tx, saved)
        for result in match.results[results_before:]:
            await repo.enqueue(
                tx,
                game_id=game.id,
                chat_id=game.chat_id,
                kind="round_end",
                payload={"round_no": result.round_no},
            )
            log.info(
                "chat %s game %s: round %d over (%s, seat %d), points %s",
                game.chat_id,
                game.id,
                result.round_no,
                result.outcome.kind.value,
                result.outcome.seat,
                "/".join(str(p) for p in result.points),
            )
        if match.over:
            await repo.enqueue(
                tx, game_id=game.id, chat_id=game.chat_id, kind="match_end", payload={}
            )
            await self._close_votes(tx, saved)
            if saved.abandonment is not None:
                await self._tell_abandonment_scoring(tx, saved)
            log.info(
                "chat %s game %s: match over after %d rounds",
                game.chat_id,
                game.id,
                len(match.results),
            )
        return saved

    # --- computer players -------------------------------------------------------------

    def _kick_computers(self, game: GameRecord) -> None:
        """If a computer is to move, let it (and any computer after it) move after a pause;
        if a person is, start the clock of their turn (issue 7)."""
        if self.timers is not None:
            self.timers.touch(game)
            self.timers.touch_lobby(game)
        match = game.match
        if game.status is not GameStatus.PLAYING or match is None or match.turn is None:
            return
        if not game.seats[match.turn].by_computer or self._closing:
            return
        task = self._computer_tasks.get(game.id)
        if task is None or task.done():
            self._computer_tasks[game.id] = asyncio.create_task(self._computers_move(game.id))

    async def _computers_move(self, game_id: int) -> None:
        try:
            await asyncio.sleep(self.computer_delay)
            saved = await self._until_stored(
                lambda: self._computers_play(game_id), f"game {game_id}: computer move"
            )
        except Exception:
            log.exception("game %s: computer players failed to move", game_id)
            return
        finally:
            self._computer_tasks.pop(game_id, None)
        if saved is None:
            return
        self.publisher.touch(saved)
        self.publisher.kick_outbox()
        self._kick_computers(saved)

    async def _computers_play(self, game_id: int) -> GameRecord | None:
        """One transaction: every computer whose turn it is moves, up to the round's end
        or a person's turn. None if there was nothing to play."""
        async with self.db.transaction() as tx:
            game = await repo.load_game(tx, game_id)
            if game is None or game.status is not GameStatus.PLAYING or game.match is None:
                return None
            match = game.match
            move = len(match.log)
            results_before = len(match.results)
            round_no = match.round_no
            player = GreedyPlayer()
            while (
                not match.over
                and match.turn is not None
                and game.seats[match.turn].by_computer
                and match.round_no == round_no
            ):
                seat = match.turn
                match.apply(player.choose(match.view(seat).round), seat)
            if len(match.log) == move:
                return None
            await self._log_new_actions(tx, game, match, move, None)
            return await self._save_after_moves(tx, game, match, results_before)

    async def _until_stored(self, work: Callable[[], Awaitable[T]], log_as: str) -> T | None:
        """Background work nobody will ask for again (a computer's move, a timed-out turn,
        a vote's expiry) is tried again while the database is locked by another process
        or full (issue 11): each try is one whole transaction, so a failed one left
        nothing behind, and the work itself finds out when the game has ended meanwhile.
        None when the bot stops first."""
        return await retrying(work, log_as=log_as, still_wanted=lambda: not self._closing)

    # --- leaving, cancelling, hands ---------------------------------------------------

    async def leave(self, chat_id: int | None, person: Person) -> str:
        """/leave: out of the lobby, or a computer player takes the seat mid-game."""
        lang = person.lang
        recount: tuple[Vote, VoteState, GameRecord | None] | None = None
        async with self.db.transaction() as tx:
            game = await repo.active_game_of_user(tx, person.id)
            if game is None or (chat_id is not None and game.chat_id != chat_id):
                return t("leave.not_playing", lang)
            seat = game.seat_of(person.id)
            assert seat is not None
            if game.status is GameStatus.LOBBY:
                saved = await repo.save_game(tx, _without_seat(game, seat.seat))
                text = t("answer.left", lang)
            else:
                assert game.match is not None
                seats = tuple(
                    dataclasses.replace(s, left=True) if s.seat == seat.seat else s
                    for s in game.seats
                )
                changed = dataclasses.replace(game, seats=seats)
                if game.abandonment is None:
                    changed = dataclasses.replace(
                        changed,
                        abandonment=Abandonment(seat.seat, Ending.LEFT, game.match.seat_points()),
                    )
                saved = await repo.save_game(tx, changed)
                await _notice(tx, game, "notice.left", name=seat.name)
                if game.abandonment is None:
                    await self._tell_leaving_scoring(tx, saved)
                recount = await self._recount_vote(tx, saved)
                if recount is not None and recount[2] is not None:
                    saved = recount[2]  # the people left have cancelled the match by now
                text = t("leave.done", lang)
        if game.status is GameStatus.PLAYING:
            await self.publisher.close_hand(saved, seat.seat, person.id, t("hand.you_left", lang))
            self._kick_computers(saved)
            self.publisher.kick_outbox()
        log.info(
            "chat %s game %s: seat %d left by %s (%s)",
            saved.chat_id,
            saved.id,
            seat.seat,
            person.id,
            game.status.value,
        )
        if recount is not None:
            self._vote_changed(*recount)
        self.publisher.touch(saved)
        return text

    async def cancel_allowed(self, chat_id: int, person: Person, is_admin: bool) -> GameRecord:
        game = await repo.active_game_in_chat(self.db, chat_id)
        if game is None:
            raise Refusal("cancel.nothing")
        if person.id != game.creator_id and not is_admin:
            raise Refusal("alert.creator_or_admin")
        return game

    async def cancel(
        self, game_id: int, chat_id: int | None, person: Person, is_admin: ChatCheck
    ) -> Answer:
        """The confirmation of /cancel, pressed in `chat_id`: only in the game's own group,
        by its creator or an admin of that group (issue 11, item 1)."""
        lang = person.lang
        try:
            shown = await repo.load_game(self.db, game_id)
            if shown is None or chat_id is None or shown.chat_id != chat_id:
                raise Refusal("alert.foreign_game")
            if not shown.status.active:
                raise Refusal("alert.finished")
            if not await self._may_control(shown, person, is_admin):
                raise Refusal("alert.creator_or_admin")
            async with self.db.transaction() as tx:
                game = await repo.load_game(tx, game_id)
                if game is None or not game.status.active:
                    raise Refusal("alert.finished")
                saved = await repo.save_game(tx, _ended(game, GameStatus.CANCELLED))
                await stats.record_match(tx, saved)  # counted only after an abandonment
                await self._close_votes(tx, saved)
        except Refusal as refusal:
            return refusal.answer(lang)
        log.info("chat %s game %s: cancelled by %s", saved.chat_id, saved.id, person.id)
        self.publisher.touch(saved)
        return Answer(t("answer.cancelled", lang))

    # --- surrender and votes to cancel (issue 7) --------------------------------------

    async def surrender_allowed(self, chat_id: int | None, person: Person) -> tuple[int, int]:
        """/surrender: the running match the person may give up (in its group or in
        private) and its move number, for the confirmation's button."""
        game = await repo.active_game_of_user(self.db, person.id)
        if (
            game is None
            or game.status is not GameStatus.PLAYING
            or game.match is None
            or (chat_id is not None and game.chat_id != chat_id)
        ):
            raise Refusal("surrender.not_playing")
        return game.id, len(game.match.log)

    async def surrender(
        self, game_id: int, chat_id: int | None, person: Person, move: int
    ) -> Answer:
        """The person gives up: the match ends at once, scored by K-11's timeout rule from
        the first abandonment (this one unless someone abandoned before), with them the
        козёл (their side in teams); the stats record it in the same transaction. The
        confirmation counts only in the game's group or the person's private chat."""
        lang = person.lang
        try:
            async with self.db.transaction() as tx:
                game = await repo.load_game(tx, game_id)
                if game is not None and chat_id not in (game.chat_id, person.id):
                    raise Refusal("alert.foreign_game")
                seat, match = self._check_press(game, person, move)
                assert game is not None
                if game.seats[seat].left:
                    raise Refusal("alert.already_left")
                abandonment = game.abandonment or Abandonment(
                    seat, Ending.SURRENDER, match.seat_points()
                )
                changed = dataclasses.replace(game, abandonment=abandonment)
                saved = await repo.save_game(
                    tx, _ended(changed, GameStatus.FINISHED, Ending.SURRENDER)
                )
                await stats.record_match(tx, saved)
                await self._close_votes(tx, saved)
                await _notice(
                    tx,
                    game,
                    "notice.surrendered",
                    name=game.seats[seat].name,
                    goat=_side_names(saved, abandonment.seat),
                    lines=abandonment_lines(saved),
                )
        except Refusal as refusal:
            return refusal.answer(lang)
        log.info("chat %s game %s: seat %s surrendered", saved.chat_id, saved.id, seat)
        self.publisher.touch(saved)
        self.publisher.kick_outbox()
        return Answer(t("answer.surrendered", lang))

    async def open_cancel_vote(self, chat_id: int, person: Person) -> str | None:
        """/cancel by a player who may not cancel outright: a vote, with their ballot for
        cancelling. Returns the text of a refusal, or None (the vote shows itself)."""
        lang = person.lang
        now = utcnow()
        try:
            async with self.db.transaction() as tx:
                await repo.upsert_user(tx, person.record())
                game = await repo.active_game_in_chat(tx, chat_id)
                if game is None:
                    raise Refusal("cancel.nothing")
                seat = game.seat_of(person.id)
                if game.status is not GameStatus.PLAYING or seat is None or seat.left:
                    raise Refusal("alert.creator_or_admin")
                current = await vote_store.open_vote_of_game(tx, game.id)
                if current is not None:
                    state = decide(current, electorate(game), now)
                    if state.open:
                        raise Refusal("vote.already_open")
                    await vote_store.close_vote(tx, current.id, state, now)
                    self.votes.touch(current.id)  # re-checked once this commits
                try:
                    vote = await vote_store.open_vote(
                        tx,
                        game_id=game.id,
                        chat_id=game.chat_id,
                        started_by=person.id,
                        opened_at=now,
                        expires_at=now + self.vote_time,
                    )
                except VoteBusy:
                    raise Refusal("vote.already_open") from None
                await vote_store.cast_ballot(tx, vote.id, person.id, True, now)
                vote = vote.with_ballot(person.id, True)
                state = decide(vote, electorate(game), now)
                cancelled = await self._settle_vote(tx, game, vote, state, now)
        except Refusal as refusal:
            return t(refusal.key, lang, **refusal.values)
        log.info(
            "chat %s game %s: vote %s to cancel opened by %s", chat_id, game.id, vote.id, person.id
        )
        self._vote_changed(vote, state, cancelled)
        return None

    async def vote_press(
        self, vote_id: int, chat_id: int | None, person: Person, in_favour: bool
    ) -> Answer:
        """A ballot for or against cancelling, pressed in `chat_id` (the vote's own group
        only); the vote is decided as soon as it can be."""
        lang = person.lang
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
                state = decide(vote, voters, now)
                if game.status is not GameStatus.PLAYING:
                    state = VoteState.CLOSED
                if state.open:
                    if person.id not in voters:
                        raise Refusal("alert.vote_not_yours")
                    if vote.ballot_of(person.id) is in_favour:
                        raise Refusal("alert.voted_same", alert=False)
                    await vote_store.cast_ballot(tx, vote.id, person.id, in_favour, now)
                    vote = vote.with_ballot(person.id, in_favour)
                    state = decide(vote, voters, now)
                    answer = Answer(t("answer.voted_yes" if in_favour else "answer.voted_no", lang))
                else:
                    answer = Answer(t("alert.vote_over", lang), alert=True)
                cancelled = await self._settle_vote(tx, game, vote, state, now)
        except Refusal as refusal:
            return refusal.answer(lang)
        self._vote_changed(vote, state, cancelled)
        return answer

    async def _settle_vote(
        self, tx: Transaction, game: GameRecord, vote: Vote, state: VoteState, now: datetime
    ) -> GameRecord | None:
        """Store a decided vote; a passed one cancels the match (returned). A cancelled
        match counts in the stats only if someone abandoned it first (K-11)."""
        if state.open:
            return None
        await vote_store.close_vote(tx, vote.id, state, now)
        if state is not VoteState.PASSED:
            return None
        saved = await repo.save_game(tx, _ended(game, GameStatus.CANCELLED))
        await stats.record_match(tx, saved)
        return saved

    async def _recount_vote(
        self, tx: Transaction, game: GameRecord
    ) -> tuple[Vote, VoteState, GameRecord | None] | None:
        """A person left the match: its open vote is counted again among those left (their
        ballot no longer counts, and fewer ballots make a majority)."""
        vote = await vote_store.open_vote_of_game(tx, game.id)
        if vote is None:
            return None
        now = utcnow()
        state = decide(vote, electorate(game), now)
        return vote, state, await self._settle_vote(tx, game, vote, state, now)

    def _vote_changed(self, vote: Vote, state: VoteState, cancelled: GameRecord | None) -> None:
        """After the commit: show the vote, watch its clock while open, show a cancel."""
        self.votes.touch(vote.id)
        if state.open:
            self._watch_vote(vote)
        else:
            log.info(
                "chat %s game %s: vote %s to cancel %s",
                vote.chat_id,
                vote.game_id,
                vote.id,
                state.value,
            )
        if cancelled is not None:
            self.publisher.touch(cancelled)

    async def _close_votes(self, tx: Transaction, game: GameRecord) -> None:
        """The match ended another way: its open vote closes (the message follows once the
        transaction commits; if it rolls back, the board finds nothing changed)."""
        for vote_id in await vote_store.close_votes_of_game(tx, game.id, utcnow()):
            self.votes.touch(vote_id)

    async def _tell_leaving_scoring(self, tx: Transaction, game: GameRecord) -> None:
        """The first person left the running match: tell the group how it will count."""
        assert game.abandonment is not None
        seat = game.seats[game.abandonment.seat]
        await _notice(
            tx,
            game,
            "notice.left_scoring",
            name=seat.name,
            points=game.abandonment.points[seat.seat],
        )

    async def _tell_abandonment_scoring(self, tx: Transaction, game: GameRecord) -> None:
        """A match someone abandoned was played out: how the stats count it (K-11)."""
        assert game.abandonment is not None
        await _notice(
            tx,
            game,
            "notice.scored_as_timeout",
            goat=_side_names(game, game.abandonment.seat),
            lines=abandonment_lines(game),
        )

    def _watch_vote(self, vote: Vote) -> None:
        if self._closing or vote.id in self._vote_timers:
            return
        self._vote_timers[vote.id] = asyncio.create_task(self._expire_vote(vote.id))

    async def _expire_vote(self, vote_id: int) -> None:
        """Decide the vote when its time is up (expired, or closed if the match ended)."""
        try:
            vote = await vote_store.load_vote(self.db, vote_id)
            if vote is None or not vote.state.open:
                return
            await asyncio.sleep(max(0.0, (vote.expires_at - utcnow()).total_seconds()))
            decided = await self._until_stored(
                lambda: self._decide_expired_vote(vote_id), f"vote {vote_id}: expiry"
            )
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("vote %s: could not be decided on time", vote_id)
            return
        finally:
            self._vote_timers.pop(vote_id, None)
        if decided is not None:
            self._vote_changed(*decided)

    async def _decide_expired_vote(
        self, vote_id: int
    ) -> tuple[Vote, VoteState, GameRecord | None] | None:
        """One transaction: the vote's outcome now that its time is up; None if it was
        decided meanwhile."""
        now = utcnow()
        async with self.db.transaction() as tx:
            vote = await vote_store.load_vote(tx, vote_id)
            game = await repo.load_game(tx, vote.game_id) if vote else None
            if vote is None or game is None or not vote.state.open:
                return None
            state = decide(vote, electorate(game), now)
            if game.status is not GameStatus.PLAYING:
                state = VoteState.CLOSED
            return vote, state, await self._settle_vote(tx, game, vote, state, now)

    async def resend_hand(self, person: Person) -> str | None:
        """/hand: a fresh hand message at the bottom of the private chat."""
        game = await repo.active_game_of_user(self.db, person.id)
        if game is None or game.status is not GameStatus.PLAYING:
            return t("hand.no_game", person.lang)
        seat = game.seat_of(person.id)
        assert seat is not None
        await self.publisher.close_hand(game, seat.seat, person.id, t("hand.moved", person.lang))
        self.publisher.touch_hand(game.id, seat.seat)
        return None

    # --- turn timers (issue 7) --------------------------------------------------------

    async def turn_timed_out(self, game_id: int, move: int) -> None:
        """The time for move number `move` ran out: the computer player's choice is made
        for the person (drawing until a tile fits, or knocking: C-6, C-7), in one
        transaction, and a strike is noted; at `STRIKES_TO_TAKE_OVER` strikes a computer
        takes the seat (`away`), announced once, and the match's first abandonment is
        this timeout (K-11). Nothing happens if the game has moved on meanwhile: a press
        just before the deadline wins and no move is made twice."""
        timed_out = await self._until_stored(
            lambda: self._time_out(game_id, move), f"game {game_id}: timeout of move {move}"
        )
        if timed_out is None:
            return
        saved, seat, strikes, away = timed_out
        log.info(
            "chat %s game %s: seat %d timed out on move %d (strike %d%s)",
            saved.chat_id,
            saved.id,
            seat,
            move,
            strikes,
            ", a computer takes over" if away else "",
        )
        self.publisher.touch(saved)
        self._kick_computers(saved)
        self.publisher.kick_outbox()

    async def _time_out(self, game_id: int, move: int) -> tuple[GameRecord, int, int, bool] | None:
        """One transaction: the move made for the person and the strike noted; None if
        the game moved on meanwhile."""
        async with self.db.transaction() as tx:
            game = await repo.load_game(tx, game_id)
            if game is None or game.status is not GameStatus.PLAYING or game.match is None:
                return None
            match = game.match
            seat = match.turn
            if len(match.log) != move or seat is None or game.seats[seat].by_computer:
                return None
            results_before = len(match.results)
            round_no = match.round_no
            player = GreedyPlayer()
            while not match.over and match.turn == seat and match.round_no == round_no:
                action = player.choose(match.view(seat).round)
                match.apply(action, seat)
                if not isinstance(action, Draw):
                    break
            await self._log_new_actions(tx, game, match, move, None)
            record = game.seats[seat]
            strikes = record.strikes + 1
            away = strikes >= STRIKES_TO_TAKE_OVER
            changed = dataclasses.replace(
                game,
                seats=tuple(
                    dataclasses.replace(s, strikes=strikes, away=away) if s.seat == seat else s
                    for s in game.seats
                ),
            )
            if away and not match.over:
                if game.abandonment is None:
                    abandonment = Abandonment(seat, Ending.TIMEOUT, match.seat_points())
                    changed = dataclasses.replace(changed, abandonment=abandonment)
                await _notice(tx, game, "notice.taken_over", name=record.name)
            saved = await self._save_after_moves(tx, changed, match, results_before)
        return saved, seat, strikes, away

    async def come_back(self, game_id: int, person: Person) -> Answer:
        """The "I'm back" button: a person a computer stood in for plays their seat again, with no
        strikes; if the match's abandonment is this seat's timeout, it is withdrawn."""
        lang = self._langs[person.id] = person.lang
        try:
            async with self.db.transaction() as tx:
                game = await repo.load_game(tx, game_id)
                if game is None or game.status is not GameStatus.PLAYING or game.match is None:
                    raise Refusal("alert.finished")
                seat = game.seat_of(person.id)
                if seat is None or seat.left:
                    raise Refusal("alert.not_in_game")
                if not seat.away:
                    raise Refusal("answer.not_away", alert=False)
                changed = dataclasses.replace(
                    game,
                    seats=tuple(
                        dataclasses.replace(s, away=False, strikes=0) if s.seat == seat.seat else s
                        for s in game.seats
                    ),
                )
                abandonment = game.abandonment
                if (
                    abandonment is not None
                    and abandonment.seat == seat.seat
                    and abandonment.reason is Ending.TIMEOUT
                ):
                    changed = dataclasses.replace(changed, abandonment=None)
                saved = await repo.save_game(tx, changed)
                await _notice(tx, game, "notice.back", name=seat.name)
        except Refusal as refusal:
            return refusal.answer(lang)
        log.info("chat %s game %s: seat %d is back", saved.chat_id, saved.id, seat.seat)
        self.publisher.touch(saved)
        self._kick_computers(saved)
        self.publisher.kick_outbox()
        return Answer(t("answer.back", lang))

    # --- what Telegram tells us -------------------------------------------------------

    async def person_unreachable(self, game_id: int, user_id: int) -> None:
        """A hand could not be delivered (blocked, never started): tell the group once."""
        async with self.db.transaction() as tx:
            user = await repo.get_user(tx, user_id)
            if user is None or not user.can_message:
                return
            await repo.set_can_message(tx, user_id, False)
            game = await repo.load_game(tx, game_id)
            if game is None:
                return
            await _notice(
                tx,
                game,
                "notice.unreachable",
                name=short_name(user.display_name),
                bot=self.bot_username,
            )
        log.warning("chat %s game %s: cannot write to user %s", game.chat_id, game_id, user_id)
        self.publisher.kick_outbox()

    async def bot_left_group(self, chat_id: int) -> None:
        """The bot was removed from a group: its game stops; the players are told."""
        async with self.db.transaction() as tx:
            chat = await repo.get_chat(tx, chat_id)
            if chat is not None:
                await repo.upsert_chat(tx, dataclasses.replace(chat, bot_member=False))
            game = await repo.active_game_in_chat(tx, chat_id)
            if game is None:
                return
            saved = await repo.save_game(tx, _ended(game, GameStatus.CANCELLED))
            await stats.record_match(tx, saved)  # counted only after an abandonment
            title = chat.title if chat and chat.title else "?"
            for seat in saved.people:
                assert seat.user_id is not None
                await repo.enqueue(
                    tx,
                    game_id=None,
                    chat_id=seat.user_id,
                    kind="notice",
                    payload={
                        "text": t(
                            "notice.bot_removed",
                            await self.language_of(seat.user_id, tx),
                            chat=title,
                        )
                    },
                )
        log.warning("chat %s game %s: the bot was removed from the group", chat_id, saved.id)
        self.publisher.touch(saved, group=False)
        self.publisher.kick_outbox()

    async def chat_migrated(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup: its game follows the new chat id."""
        if old_id == new_id:
            return
        async with self.db.transaction() as tx:
            if await repo.get_chat(tx, new_id) is None:
                await tx.execute("UPDATE chats SET id = ? WHERE id = ?", (new_id, old_id))
            else:  # the supergroup wrote first (a command raced the service message)
                await tx.execute(
                    "UPDATE chats SET settings = (SELECT settings FROM chats WHERE id = ?)"
                    " WHERE id = ? AND EXISTS (SELECT 1 FROM chats WHERE id = ?)",
                    (old_id, new_id, old_id),
                )
                await tx.execute("UPDATE games SET chat_id = ? WHERE chat_id = ?", (new_id, old_id))
                await tx.execute("DELETE FROM chats WHERE id = ?", (old_id,))
            await tx.execute("UPDATE games SET chat_id = ? WHERE chat_id = ?", (new_id, old_id))
            # Everything else that names the group: its messages, the announcements still
            # owed to it (issue 7), its votes and its stats.
            for table in ("messages", "outbox", "cancel_votes", "stat_matches", "stat_seats"):
                await tx.execute(
                    f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (new_id, old_id)
                )
            moved = await tx.fetch_all("SELECT id FROM games WHERE chat_id = ?", (new_id,))
        if moved:
            log.info("chat %s: became the supergroup %s with its games", old_id, new_id)
        for row in moved:
            self.publisher.reload(int(row["id"]))
        if self.timers is not None:
            self.timers.chat_moved(old_id, new_id)

    # --- removing people from a lobby, closing an unstarted one (issue 11, item 5) ------

    async def removal_choices(
        self, game_id: int, chat_id: int | None, person: Person, is_admin: ChatCheck
    ) -> tuple[GameRecord, tuple[SeatRecord, ...]]:
        """The «remove a player» button: the lobby and the people seated in it, for the
        creator or a chat admin to pick from. Raises Refusal."""
        game = await self._lobby_of_chat(game_id, chat_id)
        if not await self._may_control(game, person, is_admin):
            raise Refusal("alert.creator_or_admin_only")
        if not game.people:
            raise Refusal("alert.nobody_to_remove")
        return game, game.people

    async def remove_seat(
        self,
        game_id: int,
        chat_id: int | None,
        person: Person,
        seat: int,
        user_id: int,
        is_admin: ChatCheck,
    ) -> tuple[Answer, str | None]:
        """Remove `user_id` from seat `seat` of the lobby (the creator or a chat admin).
        Returns the answer, and the removed person's name (None if nothing changed)."""
        lang = self._langs[person.id] = person.lang
        try:
            shown = await self._lobby_of_chat(game_id, chat_id)
            if not await self._may_control(shown, person, is_admin):
                raise Refusal("alert.creator_or_admin_only")
            async with self.db.transaction() as tx:
                game = await repo.load_game(tx, game_id)
                if game is None or game.status is not GameStatus.LOBBY:
                    raise Refusal("alert.lobby_closed")
                target = game.seat_of(user_id)
                if target is None or target.seat != seat:
                    raise Refusal("alert.not_seated_any_more", alert=False)
                saved = await repo.save_game(tx, _without_seat(game, target.seat))
        except Refusal as refusal:
            return refusal.answer(lang), None
        log.info(
            "chat %s game %s: user %s removed from the lobby by %s",
            saved.chat_id,
            saved.id,
            user_id,
            person.id,
        )
        self.publisher.touch(saved)
        name = short_name(target.name)
        return Answer(t("answer.removed", lang, name=name)), name

    async def lobby_timed_out(self, game_id: int) -> None:
        """Nobody started the lobby in the group's time: it closes, and the group is told."""
        shown = await repo.load_game(self.db, game_id)
        if shown is None or shown.status is not GameStatus.LOBBY:
            return
        minutes = self.timers.settings_of(shown.chat_id).lobby_timeout if self.timers else 0
        # A game with no match is announced as plain text (the publisher draws nothing).
        lang = await self.publisher.group_lang(shown)
        text = t("notice.lobby_timed_out", lang, minutes=minutes)
        saved = await self._until_stored(
            lambda: self._close_lobby(game_id, text), f"game {game_id}: lobby timeout"
        )
        if saved is None:
            return
        log.info("chat %s game %s: the lobby closed unstarted", saved.chat_id, saved.id)
        self.publisher.touch(saved)
        self.publisher.kick_outbox()

    async def _close_lobby(self, game_id: int, notice: str) -> GameRecord | None:
        """One transaction: the lobby is cancelled and the group owed `notice`; None if it
        was started or closed meanwhile."""
        async with self.db.transaction() as tx:
            game = await repo.load_game(tx, game_id)
            if game is None or game.status is not GameStatus.LOBBY:
                return None
            saved = await repo.save_game(tx, _ended(game, GameStatus.CANCELLED))
            await repo.enqueue(
                tx, game_id=game.id, chat_id=game.chat_id, kind="notice", payload={"text": notice}
            )
        return saved

    # --- start and stop ---------------------------------------------------------------

    async def resume(self) -> int:
        """After a (re)start: bring every running game's messages up to date, let computers
        move, deliver owed announcements. Returns the number of games picked up."""
        if self.timers is not None:
            await self.timers.load()  # before the games: their stored deadlines stand
        games = await repo.active_games(self.db)
        for game in games:
            self.publisher.touch(game)
            self._kick_computers(game)
        # A game that ended just before the stop may still owe its final edits (the
        # digests make this a no-op for the messages that are up to date).
        for game in await repo.games_ended_since(self.db, utcnow() - RECENTLY_ENDED):
            self.publisher.touch(game)
        for vote in await vote_store.open_votes(self.db):
            self.votes.touch(vote.id)  # sent, if a crash came before its message was
            self._watch_vote(vote)
        self.publisher.kick_outbox()
        log.info("resumed %d running games", len(games))
        return len(games)

    async def close(self) -> None:
        self._closing = True
        if self.timers is not None:
            await self.timers.close()
        tasks = [*self._computer_tasks.values(), *self._vote_timers.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    @staticmethod
    async def _chat_title(db: repo.Reader, chat_id: int) -> str:
        chat = await repo.get_chat(db, chat_id)
        return chat.title if chat and chat.title else "?"


async def _notice(tx: Transaction, game: GameRecord, key: str, **values: object) -> None:
    """Owe the game's group a notice (a text key and its values), sent after the commit.
    Notices are HTML: every text value (names above all) is escaped here."""
    escaped = {
        k: html.escape(v, quote=False) if isinstance(v, str) else v for k, v in values.items()
    }
    await repo.enqueue(
        tx,
        game_id=game.id,
        chat_id=game.chat_id,
        kind="notice",
        payload={"key": key, "values": escaped},
    )


def _not_your_turn(game: GameRecord, match: Match) -> Refusal:
    return Refusal(
        "alert.not_your_turn", alert=False, name=short_name(game.seats[match.turn or 0].name)
    )


def _tile(index: int) -> Tile:
    if not 0 <= index < len(ALL_TILES):
        raise Refusal("alert.illegal")
    return ALL_TILES[index]


def _actions_for(kind: MoveKind, tile_index: int, end: str) -> Action:
    if kind is MoveKind.DRAW:
        return DRAW
    if kind is MoveKind.KNOCK:
        return KNOCK
    if kind is MoveKind.PLAY:
        try:
            side = End(end) if end else None
        except ValueError:
            raise Refusal("alert.illegal") from None
        return Play(_tile(tile_index), side)
    raise Refusal("alert.stale")


def _without_seat(game: GameRecord, seat: int) -> GameRecord:
    remaining = [s for s in game.seats if s.seat != seat]
    seats = tuple(SeatRecord(i, s.user_id, s.name) for i, s in enumerate(remaining))
    return dataclasses.replace(game, seats=seats)


def _ended(game: GameRecord, status: GameStatus, ending: Ending | None = None) -> GameRecord:
    if ending is None:
        ending = Ending.FINISHED if status is GameStatus.FINISHED else Ending.CANCELLED
    return dataclasses.replace(game, status=status, ended_at=utcnow(), ending=ending)


def abandonment_lines(game: GameRecord) -> str:
    """One line per seat for the group: name, points when abandoned, rating gained (plain
    text: `_notice` escapes it)."""
    assert game.abandonment is not None
    # K-11's timeout rule, as the stats record it (storage.stats): the person who
    # abandoned gains nothing, everyone else by their lead over them (at least 1).
    assert game.match is not None
    gains = abandoned_rating_gains(
        game.abandonment.points,
        game.abandonment.seat,
        points_are_bad=game.match.ruleset.scoring is Scoring.KOZEL,
    )
    return "\n".join(
        f"{short_name(seat.name)}: {game.abandonment.points[seat.seat]} · +{gains[seat.seat]}"
        for seat in game.seats
    )


def _side_names(game: GameRecord, seat: int) -> str:
    """The seat's name, with their partner's in teams."""
    assert game.match is not None
    side = game.match.side_of(seat)
    return " + ".join(short_name(s.name) for s in game.seats if game.match.side_of(s.seat) == side)


T = TypeVar("T")


def _cycle(options: tuple[T, ...], current: T) -> T:
    index = options.index(current) if current in options else -1
    return options[(index + 1) % len(options)]


def _with_option(game: GameRecord, option: LobbyOption) -> GameRecord:
    """The creator cycles one rule option (K-1 teams, K-7 threshold, K-9 fish, K-10 target)."""
    rules: Ruleset = game.ruleset
    wanted = game.seats_wanted
    if option is LobbyOption.SEATS:
        choices = tuple(n for n in (2, 3, 4) if n >= max(2, len(game.seats)))
        wanted = _cycle(choices, wanted)
        if wanted != 4 and rules.teams:
            rules = rules.with_options(teams=False)
    elif option is LobbyOption.TEAMS:
        if wanted != 4:
            raise Refusal("alert.teams_need_four")
        rules = rules.with_options(teams=not rules.teams)
    elif option is LobbyOption.TARGET:
        rules = rules.with_options(target=_cycle(TARGETS[rules.variant], rules.target))
    elif option is LobbyOption.FISH:
        rules = rules.with_options(fish=_cycle(FISH_MODES, rules.fish))
    elif option is LobbyOption.THRESHOLD:
        rules = rules.with_options(open_threshold=_cycle(THRESHOLDS, rules.open_threshold))
    else:
        raise Refusal("alert.stale")
    return dataclasses.replace(game, ruleset=rules, seats_wanted=wanted)
