"""Typed, versioned callback data for every inline button (STYLE 8).

Each payload names its game, and the buttons that act on a position carry the
match's move number, so a press on an old keyboard (an earlier turn, a finished
game) is recognised and refused with a clear answer instead of changing anything.
The prefixes carry a version digit: a future incompatible layout gets a new prefix
and old buttons are then answered as stale, never misread.

Every payload stays well under Telegram's 64 bytes (`pack()` checks it).
"""

from __future__ import annotations

from enum import StrEnum

from aiogram.filters.callback_data import CallbackData


class LobbyAction(StrEnum):
    JOIN = "j"
    LEAVE = "l"
    ADD_COMPUTER = "c"
    START = "s"
    CANCEL = "x"
    OPTION = "o"  # the creator cycles one rule option (see `LobbyOption`)


class LobbyOption(StrEnum):
    """The rule options a group may change in the lobby (issue: players, teams, target ...)."""

    NONE = "-"
    SEATS = "n"  # players 2-4
    TEAMS = "t"  # 2x2 when four
    TARGET = "g"  # 101 / 125
    FISH = "f"  # K-9 fish mode
    THRESHOLD = "h"  # K-7 open threshold


class LobbyCb(CallbackData, prefix="l1"):
    game: int
    action: LobbyAction
    option: LobbyOption = LobbyOption.NONE


class MoveKind(StrEnum):
    PLAY = "p"  # play `tile` on `end`
    CHOOSE_END = "e"  # the tile fits both ends: show the choice of end
    BACK = "b"  # back from the choice of end to the hand
    DRAW = "d"  # draw from the bazaar until a tile fits (C-6)
    KNOCK = "k"  # стучу (C-7)
    INFO = "i"  # a button off turn: answers whose turn it is, changes nothing


class MoveCb(CallbackData, prefix="m1"):
    game: int
    move: int  # the number of actions applied in the match when the keyboard was drawn
    kind: MoveKind
    tile: int = -1  # Tile.index, for PLAY and CHOOSE_END
    end: str = ""  # End value ("L", "R", ...) for PLAY; "" for the first tile of a round


class CancelCb(CallbackData, prefix="x1"):
    """The confirmation of /cancel: `confirm` ends the game, otherwise nothing happens."""

    game: int
    confirm: bool


class TopScope(StrEnum):
    """Which table /top shows: people one by one, or the pairs of team games."""

    PLAYERS = "g"
    PAIRS = "p"


class TopCb(CallbackData, prefix="t1"):
    """A page of the group's leaderboard (/top). The button carries the page, not state:
    an old button still opens the page it names."""

    scope: TopScope
    page: int  # 1-based


class HistoryCb(CallbackData, prefix="h1"):
    """A page of the group's match history (/history), or one match's score sheet from it
    (`game` > 0); the sheet's "back" button returns to `page`."""

    page: int  # 1-based
    game: int = 0


class SurrenderCb(CallbackData, prefix="s1"):
    """The confirmation of /surrender: `move` is the match's move number when asked, so a
    confirmation left lying while the game moved on is refused as stale."""

    game: int
    move: int
    user: int  # the person who asked: nobody else may confirm for them
    confirm: bool


class VoteCb(CallbackData, prefix="v1"):
    """A ballot in a vote to cancel a match: for cancelling (`in_favour`) or against."""

    vote: int
    in_favour: bool


# Turn timers (issue 7) -------------------------------------------------------------


class TimerCb(CallbackData, prefix="ts1"):
    """/settings: a chat admin picks the group's turn timer (`TurnTimer` value)."""

    timer: str


class GroupLangCb(CallbackData, prefix="gl1"):
    """/settings: a chat admin picks the group's language ("ru", "en"; "auto": the game
    creator's)."""

    lang: str


class BackCb(CallbackData, prefix="r1"):
    """"I'm back": the person takes their seat back from the computer."""

    game: int
