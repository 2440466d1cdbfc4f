"""The Mini App as a front end of the core (`bot.app.effects.FrontEnd`): each commit
the dispatcher carries out reaches the apps open on its game.

Each open app (an SSE connection, `bot.webapp.server`) subscribes to its game
(`Subscription`). `show(game)` hands the committed record to the game's subscribers; a
subscription keeps only the newest version it was handed (records may arrive out of
order: the older is dropped) and wakes its connection, which computes its own viewer's
state and sends it. Handing a record over never waits: a slow client only falls behind
to the newest state, and never holds up the dispatcher. A changed hand (`show_hand`,
`redraw_hand`) and a game changed behind the caches (`reload`) make the subscribers
load the game again.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Sequence

from bot.app.effects import ClosedHand, HandAsked, PendingChoice
from storage.records import GameRecord, TableDue

MAX_SUBSCRIPTIONS = 10_000  # apps open at once on this instance; past it, new ones wait


class Subscription:
    """One open app's interest in one game: the newest record handed to it, whether to
    load the game again, and an event that wakes its connection."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self.newest: GameRecord | None = None
        self.reload = False
        self._floor = -1  # the highest version taken: an older record is no news
        self.changed = asyncio.Event()

    def offer(self, game: GameRecord) -> None:
        if game.version < self._floor:
            return
        self._floor = game.version
        self.newest = game
        self.changed.set()

    def poke(self, *, any_version: bool = False) -> None:
        """Load the game again (`any_version`: whatever version it now has)."""
        if any_version:
            self._floor = -1
        self.reload = True
        self.changed.set()

    def take(self) -> tuple[GameRecord | None, bool]:
        """The newest record handed over (None: none since the last take) and whether to
        load the game again; both cleared."""
        newest, reload = self.newest, self.reload
        self.newest, self.reload = None, False
        self.changed.clear()
        return newest, reload

    def newer(self, game: GameRecord) -> bool:
        """Whether `game` (loaded) is not older than what was taken last."""
        if game.version < self._floor:
            return False
        self._floor = game.version
        return True


class WebAppFrontEnd:
    """What the Mini App shows of the commits; see the module."""

    def __init__(self) -> None:
        self._games: defaultdict[int, set[Subscription]] = defaultdict(set)
        self.closing = asyncio.Event()  # the server stops: every stream ends

    def subscribe(self, game_id: int) -> Subscription:
        subscription = Subscription(game_id)
        self._games[game_id].add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        subscribers = self._games.get(subscription.game_id)
        if subscribers is not None:
            subscribers.discard(subscription)
            if not subscribers:
                del self._games[subscription.game_id]

    def open_apps(self) -> int:
        return sum(len(subscribers) for subscribers in self._games.values())

    def close(self) -> None:
        """The server stops: every stream wakes and ends."""
        self.closing.set()
        for subscribers in self._games.values():
            for subscription in subscribers:
                subscription.changed.set()

    # FrontEnd

    def show(self, game: GameRecord, *, group: bool = True) -> None:
        for subscription in self._games.get(game.id, ()):
            subscription.offer(game)

    def show_hand(self, game_id: int, seat: int) -> None:
        for subscription in self._games.get(game_id, ()):
            subscription.poke()

    def redraw_hand(self, game_id: int, seat: int) -> None:
        """A press found a hand behind its game: the apps load the game again (a hand in
        the app is drawn from the record, so it is never behind for long)."""
        self.show_hand(game_id, seat)

    def reload(self, game_id: int) -> None:
        for subscription in self._games.get(game_id, ()):
            subscription.poke(any_version=True)

    def announce(self) -> None:
        """Announcements are the group's messages; the app shows the rounds' ends and the
        match's from the game's record itself."""

    def topic_reopened(self, chat_id: int, thread_id: int | None) -> None:
        """A forum topic is where the group's messages go: nothing of the app's."""

    async def close_hand(self, closed: ClosedHand) -> None:
        """A hand message done with is Telegram's; the app's hand follows the record
        (`show`), which the same commit carries."""

    async def bring_hand(self, asked: HandAsked) -> None:
        """«✋ Мои кости» brings a message into the group; the app always shows the hand."""

    async def show_choice(self, pending: PendingChoice) -> None:
        """A choice of ends or doubles is the hand keyboard's page; the app offers every
        play of a tile at once (the state's `plays`) and asks for the end itself."""

    def show_vote(self, vote_id: int) -> None:
        """Votes are answered by buttons in the group; the app does not show them."""

    def show_tournament(self, tournament_id: int) -> None:
        """A tournament is shown by the group's messages; the app shows a table's game."""

    async def open_tables(self, due: Sequence[TableDue]) -> None:
        """Tables are opened by the group's front end, which can make their topics."""
