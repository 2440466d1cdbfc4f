"""Typed, versioned callback data for every inline button (STYLE 8).

Each payload names its game, and the buttons that act on a position carry the
match's move number, so a press on an old keyboard (an earlier turn, a finished
game) is recognised and refused with a clear answer instead of changing anything.
The prefixes carry a version digit: a future incompatible layout gets a new prefix
and old buttons are then answered as stale, never misread.

Every payload stays well under Telegram's 64 bytes (`pack()` checks it).

Every number in a payload is parsed here, once, with bounds (issue 11, item 3): ids
are non-negative and fit SQLite's signed 64-bit integers. Data that does not parse
(forged, out of range, `²` for a digit) matches no button's filter, so the fallback
router answers it as an out-of-date button and nothing reaches the use cases. The
payloads of /start deep links are parsed by `parse_start` under the same rules.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated

from aiogram.filters.callback_data import CallbackData
from pydantic import Field

from bot.app.effects import Done, Menu
from bot.app.lobby_rules import START_JOIN, is_join_token
from bot.app.people import Person
from bot.app.reply import Reply
from bot.app.usecases import ChatCheck, Lobby
from bot.app.usecases.lobby_options import LobbyOption as LobbyOption
from domino.actions import DRAW, END_TURN, FLIP, KNOCK, Action, Close, Play, PlayDoubles
from domino.ai import Level
from domino.geometry import End
from domino.tiles import ALL_TILES, Tile, double

SQLITE_MAX = 2**63 - 1  # the largest integer SQLite stores
Id = Annotated[int, Field(ge=0, le=SQLITE_MAX)]  # a game, vote or message number
UserId = Annotated[int, Field(ge=1, le=SQLITE_MAX)]  # a Telegram user id
Count = Annotated[int, Field(ge=0, le=SQLITE_MAX)]  # a move number
Page = Annotated[int, Field(ge=1, le=1_000_000)]  # 1-based; the stats service checks the end
TileIndex = Annotated[int, Field(ge=-1, le=27)]  # Tile.index of the 28 tiles; -1: none
Seat = Annotated[int, Field(ge=0, le=3)]
GameKey = Annotated[str, Field(pattern=r"^[a-z_]{1,16}$")]  # a `GameVariant.key`
# Where a hand button lays its tile(s): an End value ("L", "R", "U", "D"), "" for the
# first tile of a round, or several doubles at once as pip and end each ("3L5R": 3-3 on
# the left and 5-5 on the right, in the order they are laid; `doubles_payload`).
Where = Annotated[str, Field(pattern=r"^(?:[LRUD]|(?:[0-6][LRUD]){2,4})?$")]


class LobbyAction(StrEnum):
    """What a lobby button asks for. Its letters are only ever added: an old lobby's
    buttons keep their meaning."""

    JOIN = "j"
    LEAVE = "l"
    ADD_COMPUTER = "c"
    START = "s"
    CANCEL = "x"
    OPTION = "o"  # cycle the rule option `LobbyCb.option` names
    REMOVE = "r"  # ask which seated person to remove (their button is a `RemoveCb`)
    # Set the level of the computer in the seat `LobbyCb.option` names (`LobbyOption.SEAT_0`
    # ...). The button of a computer playing medium sets hard, so a second press of an old
    # button changes nothing twice.
    EASY = "e"
    MEDIUM = "m"
    HARD = "h"


LEVEL_ACTIONS = (LobbyAction.EASY, LobbyAction.MEDIUM, LobbyAction.HARD)
"""The lobby actions that set a computer's level, weakest first (as `domino.ai.Level`)."""

LEVELS = dict(zip(LEVEL_ACTIONS, Level, strict=True))
"""The level each level button sets."""


class LobbyCb(CallbackData, prefix="l1"):
    game: Id
    action: LobbyAction
    option: LobbyOption = LobbyOption.NONE


def lobby_intent(
    lobby: Lobby, press: LobbyCb, chat_id: int | None, person: Person, is_admin: ChatCheck
) -> Awaitable[Done[Reply]] | None:
    """The lobby's use case a button asks for, pressed on a message in `chat_id`. None
    for «remove a player» (it offers a choice first: `Lobby.removal_choices`) and for a
    level button that names no seat (forged)."""
    game = press.game
    match press.action:
        case LobbyAction.JOIN:
            return lobby.join(game, chat_id, person)
        case LobbyAction.LEAVE:
            return lobby.leave(game, chat_id, person)
        case LobbyAction.ADD_COMPUTER:
            return lobby.add_computer(game, chat_id, person, is_admin)
        case LobbyAction.OPTION:
            return lobby.set_option(game, chat_id, person, press.option, is_admin)
        case LobbyAction.START:
            return lobby.start_game(game, chat_id, person, is_admin)
        case LobbyAction.CANCEL:
            return lobby.cancel(game, chat_id, person, is_admin)
        case LobbyAction.REMOVE:
            return None
    seat = press.option.seat
    if seat is None:
        return None
    return lobby.set_level(game, chat_id, person, seat, LEVELS[press.action], is_admin)


class MoveKind(StrEnum):
    """What a hand button does. Kinds are only ever added: an older button keeps its
    meaning, and a kind this version does not know does not parse (answered as stale)."""

    PLAY = "p"  # play `tile` on `end`
    CHOOSE_END = "e"  # the tile fits several ends: show the choice of end
    BACK = "b"  # back from a choice (of end, of doubles, of the end to close) to the hand
    DRAW = "d"  # draw from the bazaar until a tile fits (C-6)
    KNOCK = "k"  # стучу (C-7), «пас» in Спортивное (S-3)
    INFO = "i"  # a button off turn: answers whose turn it is, changes nothing
    DOUBLES = "2"  # lay the doubles `end` names at once (M-3, O-2)
    CLOSE = "c"  # lay the double `tile` face down on `end`, closing it (O-3)
    CHOOSE_DOUBLES = "md"  # show every way to lay several doubles at once
    CHOOSE_CLOSE = "mc"  # show every end a double may close
    HINT = "h"  # «💡 Подсказка»: the computer's choice for the turn, to the presser (issue 14)
    END_TURN = "t"  # «✔️ Сходить»: end a turn of several tiles (section V: Блиц, Крест)
    FLIP = "o"  # «🁢 Открыть верхнюю»: turn up the top tile of a face-down stack (Втемную)


HandMenu = Menu
"""A choice the hand keyboard shows instead of the tiles, opened by a button of the
same name (`MoveKind.CHOOSE_DOUBLES`, `MoveKind.CHOOSE_CLOSE`): the core's `Menu`."""


class MoveCb(CallbackData, prefix="m1"):
    game: Id
    move: Count  # the number of actions applied in the match when the keyboard was drawn
    kind: MoveKind
    tile: TileIndex = -1  # Tile.index, for PLAY, CHOOSE_END and CLOSE
    end: Where = ""  # for PLAY and CLOSE an End value; for DOUBLES the doubles (`Where`)


def doubles_payload(plays: Iterable[tuple[int, str]]) -> str:
    """`MoveCb.end` of a DOUBLES button: each double (by its pip) and its end, in order."""
    return "".join(f"{pip}{end}" for pip, end in plays)


def doubles_of(payload: str) -> tuple[tuple[int, str], ...]:
    """The doubles (pip, End value) a DOUBLES button names, read back from `MoveCb.end`;
    () for anything that is not two to four of them (a forged or malformed button)."""
    if not _DOUBLES.fullmatch(payload):
        return ()
    return tuple((int(payload[i]), payload[i + 1]) for i in range(0, len(payload), 2))


_DOUBLES = re.compile(r"(?:[0-6][LRUD]){2,4}")

_SIMPLE: dict[MoveKind, Action] = {
    MoveKind.DRAW: DRAW,
    MoveKind.KNOCK: KNOCK,
    MoveKind.END_TURN: END_TURN,
    MoveKind.FLIP: FLIP,
}


def action_of(data: MoveCb) -> Action | None:
    """The engine's action a move button makes; None for a button that makes no move or
    is malformed (forged: the tile or end does not parse)."""
    if data.kind in _SIMPLE:
        return _SIMPLE[data.kind]
    tile = _tile(data.tile)
    if data.kind is MoveKind.PLAY and tile is not None:
        if not data.end:
            return Play(tile, None)
        return Play(tile, End(data.end)) if data.end in _ENDS else None
    if data.kind is MoveKind.CLOSE and tile is not None and data.end in _ENDS:
        return Close(tile, End(data.end))
    if data.kind is MoveKind.DOUBLES:
        plays = tuple(Play(double(pip), End(side)) for pip, side in doubles_of(data.end))
        return PlayDoubles(plays) if plays else None
    return None


def choice_of(data: MoveCb) -> Tile | Menu | None:
    """What a button that opens a choice opens: the ends of its tile, or a menu; None
    for any other button, or a malformed one."""
    if data.kind is MoveKind.CHOOSE_END:
        return _tile(data.tile)
    if data.kind is MoveKind.CHOOSE_DOUBLES:
        return Menu.DOUBLES
    if data.kind is MoveKind.CHOOSE_CLOSE:
        return Menu.CLOSE
    return None


MOVES = frozenset((*_SIMPLE, MoveKind.PLAY, MoveKind.CLOSE, MoveKind.DOUBLES))
"""The hand buttons that make a move."""
CHOICES = frozenset((MoveKind.CHOOSE_END, MoveKind.CHOOSE_DOUBLES, MoveKind.CHOOSE_CLOSE))
"""The hand buttons that open a choice."""
_ENDS = frozenset(end.value for end in End)


def _tile(index: int) -> Tile | None:
    return ALL_TILES[index] if 0 <= index < len(ALL_TILES) else None


class CancelCb(CallbackData, prefix="x1"):
    """The confirmation of /cancel: `confirm` ends the game, otherwise nothing happens."""

    game: Id
    confirm: bool


class TopScope(StrEnum):
    """Which table /top shows: people one by one, or the pairs of team games."""

    PLAYERS = "g"
    PAIRS = "p"


class TopCb(CallbackData, prefix="t2"):
    """A page of the group's leaderboard (/top) of one game (issue 13). The button
    carries the game and the page, not state: an old button still opens what it names."""

    game: GameKey
    scope: TopScope
    page: Page


class HistoryCb(CallbackData, prefix="h2"):
    """A page of the group's match history (/history) of one game, or one match's score
    sheet from it (`match` > 0); the sheet's "back" button returns to `page`."""

    game: GameKey
    page: Page
    match: Id = 0


class StatsCb(CallbackData, prefix="st1"):
    """A person's /stats in another game: in the group of the pressed message, or
    across all groups in the person's private chat."""

    game: GameKey
    user: UserId


class SurrenderCb(CallbackData, prefix="s2"):
    """The confirmation of /surrender. It stays good while what it said still holds:
    `first` is who had abandoned the match first when it was asked (their seat + 1, 0 for
    nobody), the one it named the loser; moves made meanwhile do not stale it (the
    prefix was `s1` while it held the move number: those buttons read as out of date)."""

    game: Id
    first: Annotated[int, Field(ge=0, le=4)]
    user: UserId  # the person who asked: nobody else may confirm for them
    confirm: bool


class VoteCb(CallbackData, prefix="v1"):
    """A ballot in a vote to cancel a match: for cancelling (`in_favour`) or against."""

    vote: Id
    in_favour: bool


# Turn timers (issue 7) -------------------------------------------------------------


class TimerCb(CallbackData, prefix="ts1"):
    """/settings: a chat admin picks the group's turn timer (`TurnTimer` value)."""

    timer: str


class GroupLangCb(CallbackData, prefix="gl1"):
    """/settings: a chat admin picks the group's language ("ru", "en"; "auto": the game
    creator's)."""

    lang: str


class DefaultGameCb(CallbackData, prefix="dg1"):
    """/settings: a chat admin picks the game `/domino` opens in the group (a
    `GameVariant.key`; the handler takes only the games the bot offers)."""

    game: GameKey


class HintsCb(CallbackData, prefix="hs1"):
    """/settings: a chat admin switches the «💡 Подсказка» button on the hands on or off
    (issue 14)."""

    on: bool


class BackCb(CallbackData, prefix="r1"):
    """ "I'm back": the person takes their seat back from the computer."""

    game: Id


class RematchCb(CallbackData, prefix="pa1"):
    """«🔁 Ещё партию» under a match's last word: a new lobby like the match `game`."""

    game: Id


class RemoveCb(CallbackData, prefix="k1"):
    """The creator or an admin removes a seated person from the lobby (issue 11, item 5).
    `user` is who sat in `seat` when the list was drawn: if the seats moved meanwhile,
    the press is refused instead of removing someone else."""

    game: Id
    seat: Seat
    user: UserId


class LobbyTimeCb(CallbackData, prefix="lt1"):
    """/settings: a chat admin picks how long an unstarted lobby stays open (minutes;
    0: no limit)."""

    minutes: Count


class TurnNoticesCb(CallbackData, prefix="tn1"):
    """The private /settings: the person switches their «🔔 Ваш ход» notices on or off
    (issue 15, item 7)."""

    on: bool


# /start payloads ----------------------------------------------------------------------


class StartKind(StrEnum):
    PLAIN = "plain"  # no payload, or one this version does not use
    JOIN = "join"  # a lobby's join link
    STALE_JOIN = "stale_join"  # an old numbered join link, or a mangled one: not honoured


@dataclass(frozen=True, slots=True)
class StartPayload:
    kind: StartKind
    token: str = ""


def join_payload(token: str) -> str:
    """The /start payload of a lobby's join link."""
    return START_JOIN + token


def parse_start(payload: str | None) -> StartPayload:
    """The deep-link payload of /start (up to 64 characters: Telegram's limit).

    Only ASCII is read: `j²` or `j٣` are no number here (`str.isdigit` says they are)."""
    if not payload or not payload.startswith(START_JOIN):
        return StartPayload(StartKind.PLAIN)
    rest = payload[len(START_JOIN) :]
    if is_join_token(rest):
        return StartPayload(StartKind.JOIN, rest)
    return StartPayload(StartKind.STALE_JOIN)


class RulesCb(CallbackData, prefix="ru1"):
    """/rules: show the rules of the game `game` (a `GameVariant.key`) in the pressed
    message, in the message's language `lang` (whoever presses: a group's page does not
    switch language under the others). Rules hold no state, so an old button still
    opens its page; a key of no game (forged) is answered politely and changes nothing."""

    game: GameKey
    lang: Annotated[str, Field(pattern=r"^[a-z]{2}$")]
