"""Typed, versioned callback data for every inline button (STYLE 8).

Each payload names its game, and the buttons that act on a position carry the
match's move number, so a press on an old keyboard (an earlier turn, a finished
game) is recognised and refused with a clear answer instead of changing anything.
The prefixes carry a version digit: a future incompatible layout gets a new prefix
and old buttons are then answered as stale, never misread.

Every payload stays under Telegram's 64 bytes (`pack()` checks it); the longest, a
move button laying four doubles in a game of the largest id, takes 56.

Every number in a payload is parsed here, once, with bounds: ids are non-negative and
fit SQLite's signed 64-bit integers. Data that does not parse (forged, out of range, `²`
for a digit, an `m1` hand button of the layout before the engine's action text) matches
no button's filter, so the fallback router answers it as an out-of-date button and
nothing reaches the use cases. The payloads of /start deep links are parsed by
`parse_start` under the same rules.
"""

from __future__ import annotations

from collections.abc import Awaitable
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
from domino.actions import Action, parse_action
from domino.ai import Level
from domino.tiles import Tile

SQLITE_MAX = 2**63 - 1  # the largest integer SQLite stores
Id = Annotated[int, Field(ge=0, le=SQLITE_MAX)]  # a game, vote or message number
UserId = Annotated[int, Field(ge=1, le=SQLITE_MAX)]  # a Telegram user id
Count = Annotated[int, Field(ge=0, le=SQLITE_MAX)]  # minutes
MOVE_NUMBER_MAX = 10**9 - 1  # far beyond any match; keeps a move button under 64 bytes
Page = Annotated[int, Field(ge=1, le=1_000_000)]  # 1-based; the stats service checks the end
Seat = Annotated[int, Field(ge=0, le=3)]
GameKey = Annotated[str, Field(pattern=r"^[a-z_]{1,16}$")]  # a `GameVariant.key`
MoveNumber = Annotated[int, Field(ge=0, le=MOVE_NUMBER_MAX)]  # actions applied in a match
ActionText = Annotated[str, Field(pattern=r"^[a-z0-6LRUD+-]{1,23}$")]  # `str(action)`
TileText = Annotated[str, Field(pattern=r"^(?:[0-6]-[0-6])?$")]  # `str(tile)`, or none


class LobbyAction(StrEnum):
    """What a lobby button asks for. Its letters are only ever added: an old lobby's
    buttons keep their meaning."""

    JOIN = "j"
    LEAVE = "l"
    ADD_COMPUTER = "c"
    START = "s"
    CANCEL = "x"
    OPTION = "o"  # cycle the rule option `LobbyCb.option` names; the game's opens the list
    REMOVE = "r"  # ask which seated person to remove (their button is a `RemoveCb`)
    # Set the level of the computer in the seat `LobbyCb.option` names (`seat_field`).
    # The button of a computer playing medium sets hard, so a second press of an old
    # button changes nothing twice.
    EASY = "e"
    MEDIUM = "m"
    HARD = "h"
    # The list of games the game's button opens: take the game `LobbyCb.option` names
    # (a `GameVariant.key`), or close the list and show the lobby's buttons again.
    PICK = "p"
    BACK = "b"


PICKER_ACTIONS = frozenset((LobbyAction.PICK, LobbyAction.BACK))
"""The buttons of the list of games (`LobbyAction.OPTION` with `LobbyOption.GAME` opens it)."""

LEVEL_ACTIONS = (LobbyAction.EASY, LobbyAction.MEDIUM, LobbyAction.HARD)
"""The lobby actions that set a computer's level, weakest first (as `domino.ai.Level`)."""

LEVELS = dict(zip(LEVEL_ACTIONS, Level, strict=True))
"""The level each level button sets."""


# What a lobby button's third field names: a rule option (the core's `LobbyOption`, by
# its letter), the seat of the computer whose level it sets ("0" to "3"), the game a
# `PICK` takes (its `GameVariant.key`, two letters or more), or nothing.
LobbyField = Annotated[str, Field(pattern=r"^(?:-|[a-z]|[0-3]|[a-z_]{2,16})$")]
NO_FIELD = "-"


def seat_field(seat: int) -> str:
    """The field of a level button: the computer's seat."""
    return str(seat)


class LobbyCb(CallbackData, prefix="l1"):
    game: Id
    action: LobbyAction
    option: LobbyField = NO_FIELD

    @property
    def rule_option(self) -> LobbyOption | None:
        """The rule option an option button cycles; None for a letter no option has."""
        try:
            return LobbyOption(self.option)
        except ValueError:
            return None

    @property
    def seat(self) -> int | None:
        """The seat a level button names, else None."""
        return int(self.option) if self.option.isdigit() else None

    @property
    def opens_games(self) -> bool:
        """Whether the button is the game's («🎲 Игра: Козёл»), which opens the list of games."""
        return self.action is LobbyAction.OPTION and self.rule_option is LobbyOption.GAME


def lobby_intent(
    lobby: Lobby, press: LobbyCb, chat_id: int | None, person: Person, is_admin: ChatCheck
) -> Awaitable[Done[Reply]] | None:
    """The lobby's use case a button asks for, pressed on a message in `chat_id`. None
    for «remove a player» (it offers a choice first: `Lobby.removal_choices`) and for the
    game's button and the list of games it opens (`PICKER_ACTIONS`: the handler draws
    the list and takes the pick, `Lobby.game_choices`, `Lobby.pick_game`); an option
    or level button that names no option or seat (forged) is refused by the core
    after the checks every change gets (`Lobby.refuse_unknown`)."""
    game = press.game
    match press.action:
        case LobbyAction.JOIN:
            return lobby.join(game, chat_id, person)
        case LobbyAction.LEAVE:
            return lobby.leave(game, chat_id, person)
        case LobbyAction.ADD_COMPUTER:
            return lobby.add_computer(game, chat_id, person, is_admin)
        case LobbyAction.OPTION:
            if press.opens_games:
                return None
            option = press.rule_option
            if option is None:
                return lobby.refuse_unknown(game, chat_id, person, is_admin)
            return lobby.set_option(game, chat_id, person, option, is_admin)
        case LobbyAction.START:
            return lobby.start_game(game, chat_id, person, is_admin)
        case LobbyAction.CANCEL:
            return lobby.cancel(game, chat_id, person, is_admin)
        case LobbyAction.REMOVE | LobbyAction.PICK | LobbyAction.BACK:
            return None
    seat = press.seat
    if seat is None:
        return lobby.refuse_unknown(game, chat_id, person, is_admin)
    return lobby.set_level(game, chat_id, person, seat, LEVELS[press.action], is_admin)


class MoveCb(CallbackData, prefix="m2"):
    """A hand button that makes a move: the engine's own text of the action
    (`str(action)`, read back by `domino.actions.parse_action`), so a button and the
    move it makes are one encoding. The use case makes it only if it is legal now."""

    game: Id
    move: MoveNumber  # the number of actions applied in the match when the keyboard was drawn
    action: ActionText


def action_of(data: MoveCb) -> Action | None:
    """The engine's action a move button makes; None for text that names no action
    (a forged button)."""
    try:
        return parse_action(data.action)
    except ValueError:
        return None


class HandKind(StrEnum):
    """What a hand button that makes no move does. Kinds are only ever added: an older
    button keeps its meaning, and a kind this version does not know does not parse
    (answered as out of date)."""

    ENDS = "e"  # the tile fits several ends: show the choice of end
    DOUBLES = "d"  # show every way to lay several doubles at once (M-3, O-2)
    CLOSE = "c"  # show every end a double may close (O-3)
    BACK = "b"  # back from a choice to the hand
    INFO = "i"  # a tile that is no move now: why not, or whose turn it is
    HINT = "h"  # «💡 Подсказка»: the computer's choice for the turn, to the presser
    OFFER_DRAW = "o"  # «🤝 Предложить ничью»: its `move` is the match's round, not a move


class HandCb(CallbackData, prefix="hb1"):
    """A hand button that makes no move: a choice to open, back to the tiles, a tile
    that cannot go now, the hint. `INFO` buttons carry move 0: they never change as the
    game moves on, so they cost no edit."""

    game: Id
    move: MoveNumber
    kind: HandKind
    tile: TileText = ""  # the tile whose ends `ENDS` shows


_MENUS = {HandKind.DOUBLES: Menu.DOUBLES, HandKind.CLOSE: Menu.CLOSE}


def choice_of(data: HandCb) -> Tile | Menu | None:
    """What a button that opens a choice opens: the ends of its tile, or a menu; None
    for any other button, or one whose tile does not parse."""
    if data.kind is HandKind.ENDS:
        return Tile.parse(data.tile) if data.tile else None
    return _MENUS.get(data.kind)


CHOICES = frozenset((HandKind.ENDS, *_MENUS))
"""The hand buttons that open a choice."""


class GroupHandCb(CallbackData, prefix="gh1"):
    """«✋ Мои кости» under the group's table: the presser, if seated in `game` (the
    group's own game), gets their hand in the group as an ephemeral message."""

    game: Id


class CancelCb(CallbackData, prefix="x1"):
    """The confirmation of /cancel: `confirm` ends the game, otherwise nothing happens."""

    game: Id
    confirm: bool


class TopScope(StrEnum):
    """Which table /top shows: people one by one, or the pairs of team games."""

    PLAYERS = "g"
    PAIRS = "p"


class TopCb(CallbackData, prefix="t2"):
    """A page of the group's leaderboard (/top) of one game. The button
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
    nobody), the one it named the loser; moves made meanwhile do not stale it (an
    `s1` button, which held the move number, reads as out of date)."""

    game: Id
    first: Annotated[int, Field(ge=0, le=4)]
    user: UserId  # the person who asked: nobody else may confirm for them
    confirm: bool


class VoteCb(CallbackData, prefix="v1"):
    """A ballot in a vote to cancel a match: for cancelling (`in_favour`) or against."""

    vote: Id
    in_favour: bool


# Tournaments --------------------------------------------------------------------------


class TournamentAction(StrEnum):
    """What a button of a tournament's message asks for. Letters are only ever added: an
    old message's buttons keep their meaning."""

    JOIN = "j"  # sign up
    LEAVE = "l"  # sign off (while it runs: withdraw)
    SETTINGS = "o"  # the organiser's settings in place of the buttons
    GAMES = "g"  # the list of games, from the settings
    SET = "v"  # set the option `TournamentCb.option` to `TournamentCb.value`
    BACK = "b"  # the message's own buttons again
    START = "s"
    CANCEL = "x"  # ask to cancel (confirmed by `CANCEL_YES`)
    CANCEL_YES = "y"
    PAUSE = "p"
    RESUME = "r"
    REMOVE = "k"  # ask whom to remove
    REMOVE_ASK = "e"  # ask to confirm removing the entrant `TournamentCb.value` names
    REMOVE_YES = "d"  # remove the entrant `TournamentCb.value` names


TournamentOptionName = Annotated[str, Field(pattern=r"^(?:-|[a-z_]{1,12})$")]
TournamentValue = Annotated[str, Field(pattern=r"^[a-z0-9_]{0,16}$")]


class TournamentCb(CallbackData, prefix="tr1"):
    """A button of a tournament's message in its group. The id is untrusted: the core
    acts only if the tournament is the pressed chat's and the presser may act.
    `option` and `value` say what a `SET` sets (an option's name and value as the core's
    `Tournaments.set_option` reads them, checked there); `value` alone is the entrant
    a removal names."""

    tournament: Id
    action: TournamentAction
    option: TournamentOptionName = NO_FIELD
    value: TournamentValue = ""

    @property
    def entrant(self) -> int | None:
        """The entrant number a removal button names; None for anything else."""
        value = self.value
        return int(value) if value.isdigit() and len(value) <= 3 else None


# Group settings ----------------------------------------------------------------------


class SettingsSection(StrEnum):
    """A part of a group's /settings: its choices open in place of the sections' buttons.
    Letters are only ever added; one this version does not know does not parse."""

    MAIN = "m"  # the sections' buttons, every value in force in the text
    GAME = "g"  # the game a plain /domino opens
    TIMER = "t"  # the turn timer
    LANG = "l"  # the group's language
    LOBBY = "w"  # how long a lobby nobody starts waits
    HINTS = "h"  # «💡 Подсказка» on the hands
    HANDS = "p"  # where hands are shown for whoever did not choose


class SettingsCb(CallbackData, prefix="se1"):
    """/settings in a group: a chat admin opens a section's choices, or goes back to the
    sections (`SettingsSection.MAIN`). Nothing is changed by it; the choices are the
    buttons below."""

    section: SettingsSection


class TimerCb(CallbackData, prefix="ts1"):
    """/settings: a chat admin picks the group's turn timer (`TurnTimer` value)."""

    timer: str


class GroupLangCb(CallbackData, prefix="gl1"):
    """/settings: a chat admin picks the group's language ("ru", "en"; the "auto" of older
    messages, the game creator's, is no choice any more: answered as out of date)."""

    lang: str


class DefaultGameCb(CallbackData, prefix="dg1"):
    """/settings: a chat admin picks the game `/domino` opens in the group (a
    `GameVariant.key`; the handler takes only the games the bot offers)."""

    game: GameKey


class HintsCb(CallbackData, prefix="hs1"):
    """/settings: a chat admin switches the «💡 Подсказка» button on the hands on or off."""

    on: bool


class BackCb(CallbackData, prefix="r1"):
    """ "I'm back": the person takes their seat back from the computer."""

    game: Id


class RematchCb(CallbackData, prefix="pa1"):
    """«🔁 Ещё партию» under a match's last word: a new lobby like the match `game`."""

    game: Id


class RemoveCb(CallbackData, prefix="k1"):
    """The creator or an admin removes a seated person from the lobby.
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
    """The private /settings: the person switches their «🔔 Ваш ход» notices on or off."""

    on: bool


class HandsCb(CallbackData, prefix="hd1"):
    """Where hands are shown (`storage.records.HandsPlace` value): in the private
    /settings the person's own choice ("default": back to their group's), in a group's
    /settings (a chat admin) the group's default."""

    place: str


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
