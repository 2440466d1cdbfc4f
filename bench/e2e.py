"""The bot's own capacity: N concurrent games through the real bot process over real HTTP.

    .venv/bin/python bench/e2e.py --games 50 [--seconds 30] [--people 4|2|1]
        [--computers easy|medium|hard] [--quick] [--keep]
        [--table-interval S] [--think S] [--profile PATH] [--against REV] [--repeat N]
        [--updates polling|webhook|both] [--database sqlite|postgres|both]
        [--hands private|group|both|all] [--instances N[,N...]] [--held]

The bot runs as its own process (``python -m bot``, a temporary DATABASE_PATH,
COMPUTER_DELAY=0, PACING=false, TABLE_INTERVAL=0.2 unless ``--table-interval`` says
otherwise), exactly as tests/e2e starts it. The fake Telegram runs in
this process: the scripted people act through its in-process API (``user.press`` resolves
with the answerCallbackQuery of that press), which a separate fake process would not offer.
Its flood limits are off (the default), so only the bot's own speed is measured. This
process also reports its own CPU use: if it nears one full core, the fake side, not the
bot, was the limit of the run.

Each game is its own group. By default 4 scripted people sit at it (``--people 4``): every
engine action then comes from a press that travels the whole path (callback update,
transaction, four hand edits and the table picture), so moves/s is not inflated by
computer players, whose moves the bot applies in bulk inside one transaction.
``--people 2`` seats 2 people and 2 computer players (the usual small table), for
comparison. ``--computers LEVEL`` sets the computers' level in the lobby (by their level
buttons, as the creator would; default medium, as «🤖 Добавить компьютер» seats them) and
then seats 1 person and 3 computers unless ``--people`` says otherwise: the load under
which the strong computers' decision times count. The game is set up as a person would:
every person presses Start in the bot's chat, the first sends /domino in the group, the
others press «Играю» (or the creator adds computers), the creator presses «Начать». Then
the people press as soon as their hand message says it is their turn (first a playable
tile, then an end if asked, else draw or knock).

Where the people's hands are (``--hands``): ``private`` (the default) as above; ``group``:
nobody presses Start, everyone sits down from the lobby and plays from their hand inside
the group (the ephemeral message «✋ Мои кости» brings, pressed when a person has none);
``both``: everyone presses Start and also brings the hand inside the group and plays
from it, the private one kept in step beside it; ``all``: the three in turns on this
tree, side by side (moves/s, Bot API calls per move, CPU per move).

By default a person presses the moment their hand says it is their turn: a closed loop
in which every game always has its next press waiting on the bot, so the bot runs
saturated and the latencies are queueing. With N games, each with one press outstanding,
the mean cycle (press, answer, hand, next press) is N / (moves/s) (Little's law: 50 games
at 200 moves/s is 250 ms a cycle, however fast each step), so press -> answer at
saturation says how much the bot does, not how soon it answers. ``--think S`` gives each
person a moment over every new hand (exponential, mean S seconds, the same sequence for
the same person in every run), and the creators press «Начать» spread over the first S
seconds instead of all at once: the offered load is then about N / (S + cycle) moves a
second, and the latencies are what people see at that load.

A person waits for the answer to their press (the spinner on the button) before pressing
again; if the answer came and the hand has not changed 2 s later, they press again (counted
as "repeated"), as people do.

Figures, over the window from the first «Начать» press until the run stops (after
``--seconds`` of play, or when every game has ended):

- moves/s: engine actions the bot applied and stored (entries of the stored matches' logs,
  people's and computers'; a draw from the bazaar is one action per tile), per second of
  wall time, overall and per slice of ``--slice`` seconds;
- presses/s: move-button presses the people made (choosing an end is a press too);
- press -> answer: from a press until the bot's answerCallbackQuery for it reached the fake,
  p50/p99/max in ms; a press not answered within 14 s counts as slower than any answered;
  and the p99 of the answered presses made in each slice (where in the run the tail is);
- press -> hand: from a press until the presser's hand message next changed (the move
  shown), p50/p99/max in ms;
- bot CPU per move: user + system CPU of the bot's process and every process it
  started (its threads, the render pool's and the thinker's workers, from /proc/<pid>/stat
  of each; a child that ended counts once its parent waited for it) over the window, in ms
  per move, and of the main process alone; and the CPU the bot and this process used, in
  % of one core;
- the bot's work counters per move (``bot.infra.perf``): the bot gets SIGUSR1 as the window
  opens and as it closes and logs its counters each time (``perf counters: {json}``);
  the difference gives "db.statements", "db.transactions" and "db.hops" per move,
  "render.<kind>" and "sent.<kind>" per move, renders per table picture sent
  (render.table / sent.table) and per picture sent, and "api.<method>" per move. A
  counter the bot does not keep (an older commit run by ``--against``) is "n/a";
- Bot API calls per move by method, counted in the fake's transcript over the window
  (this works for any bot); the total leaves out getUpdates;
- the bot's peak RSS (VmHWM from /proc/<pid>/status) in MB;
- the handler time aiogram logs for every update, and the exceptions in the bot's log;
- the computers' decision times per level (from the request to the decision, the wait for
  the thinker's process pool included), p50/p95/max in ms, and how many strong decisions
  missed their deadline and were made by the medium level instead: the thinker's summary,
  which the bot logs as it stops (``bot.app.thinker``).

The two counter snapshots are taken when the bot's loop gets to the signal, so on a busy
bot they may lag the window's ends by a few ms; the moves are read from the database.
Start-up is measured by bench/startup.py, not here.

``--profile PATH`` runs the bot with ``PROFILE_TO=PATH``: it profiles its main thread with
cProfile and writes the statistics as it stops (SIGTERM; this script waits for the exit),
and this script prints the top 25 functions by cumulative and by own time. cProfile slows
the bot (CPU per move up by a third or more), so the other figures of a profiled run are
not comparable with an unprofiled one. With more than one run, each run's file is PATH
with ``.<tree>.<n>`` added before its suffix.

``--updates webhook`` runs the bot in webhook mode (the fake posts each update to the
bot's own server, `WEBHOOK_URL` on a free port of this machine, instead of answering its
long polls); ``--updates both`` runs this tree both ways in turns, ``--repeat`` times each
(default 3), and prints them side by side with webhook/polling ratios.

``--database postgres`` runs the bot on PostgreSQL: ``DATABASE_URL`` names a fresh schema
for each run (``tests/databases.py``, as the suite's PostgreSQL pass makes them) on the
server ``DOMINO_TEST_POSTGRES`` names, or else on a throwaway server this script starts
from the PostgreSQL installed here and removes at the end (the same one as
``python3 tasks.py test``: ``tasks.throwaway_postgres``, no fsync). ``--database both``
runs this tree on SQLite and on PostgreSQL in turns, ``--repeat`` times each (default 3),
side by side with postgres/sqlite ratios; with ``--updates both`` too, all four ways. On
PostgreSQL part of the database's work is done by the server's processes, not the bot's:
their CPU in the window is given as "database server CPU" (the whole server's: on a shared
server other people's work is in it), and "bot + database CPU per move" adds the two.

``--instances N`` runs the bot in shard mode (issue 35, docs/instances.md): N instances
of ``python -m bot`` on PostgreSQL with ``SHARDS=12``, ``LEASE_SECONDS=6``, an
``INSTANCE_NAME`` each and the same environment otherwise, on one fresh schema
(bench/instances.py). They are started one after another (each up once its heartbeat is
stored, as tests/e2e/shard_audit.py's ``ShardInstance``), and the lobbies are set up only
once the shards are fairly shared, so each group stays with one instance from its first
update. Polling: the holder of shard 0 long-polls and stores every update in its shard's
queue. Webhook: every instance listens on a port of its own, but the fake, like Telegram,
posts to one URL: all the posts go to the first instance, which stores them (no proxy
spreads them here). The CPU of the bot is summed over the instances (each is also shown),
and so are the counters (SIGUSR1 to each) and the peak RSS. ``--instances 1,2`` (or
``1 2``) runs the counts in turns, ``--repeat`` times each (default 3), side by side with
the ratio of the last to the first.

``--held`` (with ``--instances``) searches, for each instance count, the most games held
with press -> answer p99 under 1 s at ``--think``: a run of ``--games`` games (default
100), doubled until one is not held, then the gap between the last held and the first
not held halved until it is within 12% (8 runs at most). Each run's window opens once
every game has started (the starts spread over ``--think``) and lasts ``--seconds``
(default 40); a line per run gives the games, the p99, moves/s and CPU per move; the end
gives each count's games held with its moves/s, and the ratios of the last count to the
first. ``--instances 1,2 --held --think 5`` takes about 15-25 minutes on 2 cores. On one
machine the instances, PostgreSQL and this process (the fake and the people) share the
cores: the CPU shares printed with each run say which of them was the limit.

``--against REV`` compares this working tree (HEAD and whatever is not committed yet,
"changed") with the commit REV ("unchanged", e.g. ``HEAD~1``): REV is checked out with
``git worktree`` in a temporary folder and started with the same interpreter from that
folder, so ``python -m bot`` imports its code (the fake, the people and the figures are
this tree's for both). The trees run in turns (unchanged, changed, unchanged, ...)
``--repeat`` times each (default 3) with the same options, so a load on the shared machine
falls on both alike; then a table gives each figure's median over the repeats per tree and
the ratio changed/unchanged as the geometric mean of the paired repeats' ratios. The
worktree is removed at the end. ``--repeat`` without ``--against`` repeats this tree alone
and prints the medians.

Nothing here is a test: no figure is asserted. The bot process is stopped (SIGTERM, then
SIGKILL if it hangs) however the run ends.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import math
import os
import pstats
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.instances import CapacitySearch, Step, instance_counts, start_instances  # noqa: E402
from bot.infra.perf import LINE_PREFIX  # noqa: E402
from tasks import PostgresFailed, find_postgres, throwaway_postgres  # noqa: E402
from tests.databases import SERVER_VARIABLE, drop_schemas, stored_rows  # noqa: E402
from tests.e2e import harness  # noqa: E402
from tests.e2e.fault_tools import stored_actors  # noqa: E402
from tests.e2e.harness import BotProcess, GroupPerson, Person, button_data  # noqa: E402
from tests.fakegram import FakeTelegram  # noqa: E402
from tests.fakegram.world import FakeChat, FakeUser, StoredMessage  # noqa: E402

PRESS_TIMEOUT = 14.0  # seconds; the fake calls a query too old after 15
SETUP_TIMEOUT = 120.0  # seconds for one game's lobby to fill
SETUP_CONCURRENCY = 25  # games set up at once (setup is not measured)
NO_CHANGE_RETRY = 2.0  # seconds after an answer with no change to the hand: press again
GOAT_MARK = "Козёл —"  # the match-end announcement in the group
HANDLED = re.compile(r"Update id=\d+ is handled\. Duration (\d+) ms")
THINKER = re.compile(r"thinker: (.*) (\d+) fallbacks to medium$", re.MULTILINE)
DECISIONS = re.compile(r"(\w+) (\d+) decisions p50 ([\d.]+) ms p95 ([\d.]+) ms max ([\d.]+) ms")
LEVEL_NAMES = {"easy": "Лёгкий", "medium": "Средний", "hard": "Сильный"}  # as the lobby shows
MB = 1024 * 1024
DB_COUNTERS = ("db.statements", "db.transactions", "db.hops")  # the storage's


Listener = Callable[[], None]


class Hub:
    """Tells whoever watches a chat that the bot just called the fake for that chat.

    The fake's own ``wait_for`` re-checks every waiter on every change, which is fine for a
    test and quadratic for hundreds of games. Here one task follows the fake's transcript
    (every call the bot makes, in order, with its ``chat_id``) and calls only the listeners
    of the chats those calls touched. A call is in the transcript once the fake has applied
    it, so a listener sees the chat as it is after the call.
    """

    def __init__(self, fake: FakeTelegram) -> None:
        self.fake = fake
        self._seen = 0
        self._listeners: dict[int, list[Listener]] = {}

    def subscribe(self, chat_id: int, listener: Listener) -> None:
        self._listeners.setdefault(chat_id, []).append(listener)

    def unsubscribe(self, chat_id: int, listener: Listener) -> None:
        listeners = self._listeners.get(chat_id, [])
        if listener in listeners:
            listeners.remove(listener)

    async def run(self) -> None:
        transcript = self.fake.transcript
        while True:
            await self.fake.wait_for(lambda: len(transcript) > self._seen, timeout=3600)
            end = len(transcript)
            touched = {transcript[index].params.get("chat_id") for index in range(self._seen, end)}
            self._seen = end
            for chat_id in touched:
                if isinstance(chat_id, int):
                    for listener in tuple(self._listeners.get(chat_id, ())):
                        listener()

    async def until(self, chat: FakeChat, ready: Callable[[], bool], timeout: float) -> None:
        """Return once `ready()` holds, re-checked whenever the bot touches `chat`."""
        event = asyncio.Event()
        self.subscribe(chat.id, event.set)
        try:
            async with asyncio.timeout(timeout):
                while True:
                    event.clear()
                    if ready():
                        return
                    await event.wait()
        except TimeoutError:
            shown = "\n".join(f"  {m!r}" for m in chat.visible_messages[-5:])
            raise TimeoutError(
                f"chat {chat.id}: not ready within {timeout} s; last:\n{shown}"
            ) from None
        finally:
            self.unsubscribe(chat.id, event.set)

    async def message(
        self, chat: FakeChat, predicate: Callable[[StoredMessage], bool], timeout: float
    ) -> StoredMessage:
        found: list[StoredMessage] = []

        def ready() -> bool:
            found.extend(m for m in reversed(chat.bot_messages) if predicate(m))
            return bool(found)

        await self.until(chat, ready, timeout)
        return found[0]


@dataclass
class Tally:
    """What the people saw, for the whole run."""

    answered: list[float] = field(default_factory=list)  # s from a press to its answer
    answered_at: list[float] = field(default_factory=list)  # when each of those presses was
    shown: list[float] = field(default_factory=list)  # s from a press to the hand's next change
    presses: int = 0  # move presses started inside the window
    unanswered: int = 0
    retries: int = 0  # presses repeated because nothing changed after the first
    answers: Counter[str] = field(default_factory=Counter)  # what the bot answered, by text


@dataclass
class Window:
    started: float | None = None
    stopped: float | None = None

    @property
    def open(self) -> bool:
        return self.started is not None and self.stopped is None


@dataclass
class Game:
    group: FakeChat
    users: list[FakeUser]
    lobby: StoredMessage | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def over(self) -> bool:
        return any(GOAT_MARK in m.content for m in self.group.bot_messages[-3:])


def looks(message: StoredMessage) -> tuple[int, int]:
    """Which message, in which of its versions (a new hand message or an edit changes it)."""
    return message.message_id, len(message.history)


@dataclass(eq=False)
class Player:
    """One scripted person: presses as soon as their hand says it is their turn."""

    person: Person
    game: Game
    tally: Tally
    window: Window
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    pressed: tuple[int, int] | None = None  # the hand version the last press was made on
    pressed_at: float = 0.0
    settled_at: float = 0.0  # when the last press was answered (or given up on)
    awaiting_hand: bool = False
    think: float = 0.0  # mean seconds a person looks at their hand before pressing
    rng: random.Random = field(default_factory=random.Random)
    thought_on: tuple[int, int] | None = None  # the hand version already thought over
    brought_at: float = -math.inf  # when «✋ Мои кости» was last pressed (hands in the group)

    def on_change(self) -> None:
        """The bot touched this person's private chat or the game's group."""
        if self.awaiting_hand:
            hand = self.person.hand()
            if hand is not None and looks(hand) != self.pressed:
                started, stopped = self.window.started, self.window.stopped
                if started is not None and started <= self.pressed_at < (stopped or math.inf):
                    self.tally.shown.append(time.perf_counter() - self.pressed_at)
                self.awaiting_hand = False
        self.wake.set()

    async def play(self, hub: Hub, stop: asyncio.Event) -> None:
        """Press whenever it is this person's turn, until the game ends or `stop`."""
        chats = (self.person.chat.id, self.game.group.id)
        for chat_id in chats:
            hub.subscribe(chat_id, self.on_change)
        try:
            while not stop.is_set():
                self.wake.clear()
                if self.game.over():
                    self.game.done.set()
                    return
                if not await self.take_turn():
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(NO_CHANGE_RETRY):
                            await self.wake.wait()
        finally:
            for chat_id in chats:
                hub.unsubscribe(chat_id, self.on_change)

    async def take_turn(self) -> bool:
        """One press if the hand offers one that was not pressed yet; True if pressed. A
        person who plays from the group and has no hand there presses «✋ Мои кости»."""
        hand = self.person.hand()
        if hand is None and isinstance(self.person, GroupPerson):
            if time.perf_counter() - self.brought_at < NO_CHANGE_RETRY:
                return False  # asked for it a moment ago: it is on its way
            self.brought_at = time.perf_counter()
            await self.person.bring_hand()
            return True
        if hand is None or not self.person.my_turn():
            return False
        now = time.perf_counter()
        if looks(hand) == self.pressed:
            if now - self.settled_at < NO_CHANGE_RETRY:
                return False
            self.tally.retries += 1  # the bot answered but showed nothing new: press again
        if self.think and looks(hand) != self.thought_on:
            # A person takes a moment over a new hand (`--think`): exponential, mean `think`.
            self.thought_on = looks(hand)
            await asyncio.sleep(self.rng.expovariate(1.0 / self.think))
            hand = self.person.hand()
            if hand is None or not self.person.my_turn():
                return False
            now = time.perf_counter()
        data = self.person.choice(hand)
        if data is None:
            return False
        self.pressed, self.pressed_at, self.awaiting_hand = looks(hand), now, True
        in_window = self.window.open
        if in_window:
            self.tally.presses += 1
        answer = await self.person.user.press(hand, data=data, timeout=PRESS_TIMEOUT)
        self.settled_at = time.perf_counter()
        # A press made outside the window (`--held` opens it once the games have started;
        # play goes on a moment after it closes) is not the window's; every press made in
        # it is, answered after it or not.
        if not in_window:
            return True
        if not answer.answered:
            self.tally.unanswered += 1
            return True
        self.tally.answered.append(time.perf_counter() - now)
        self.tally.answered_at.append(now)
        self.tally.answers[shape(answer.text or "")] += 1
        return True


async def set_up(
    fake: FakeTelegram,
    hub: Hub,
    number: int,
    people: int,
    level: str | None,
    limit: asyncio.Semaphore,
    hands: str = "private",
) -> Game:
    """One group with its lobby full (4/4), its computers at `level` (None: as added),
    not yet started; its people pressed Start in the bot's chat unless they play from
    the group alone (`hands` "group")."""
    async with limit:
        users = [
            fake.add_user(f"Игрок {number}-{seat + 1}", username=f"p{number}_{seat + 1}")
            for seat in range(people)
        ]
        group = fake.add_group(f"Стол {number}", members=users, admins=users[:1])
        game = Game(group, users)
        for user in users if hands != "group" else ():
            chat = user.private_chat
            await user.start()
            await hub.message(chat, lambda m: "Привет" in m.content, SETUP_TIMEOUT)
        creator = users[0]
        await creator.command(group, "domino")
        lobby = await hub.message(group, lambda m: "Игроки" in m.content, SETUP_TIMEOUT)
        for user in users[1:]:
            answer = await user.press(lobby, data=button_data(lobby, "Играю"), timeout=60)
            if not answer.answered or answer.url is not None:
                raise RuntimeError(f"game {number}: {user.first_name} could not sit: {answer}")
        for _ in range(4 - people):
            await creator.press(lobby, data=button_data(lobby, "компьютер"), timeout=60)
        await hub.until(group, lambda: "(4/4)" in lobby.content, SETUP_TIMEOUT)
        if level is not None:
            for computer in range(1, 5 - people):
                wanted = f"Компьютер {computer} · {LEVEL_NAMES[level]}"
                while wanted not in lobby.content:  # each press switches to the next level
                    shown = lobby.content
                    data = button_data(lobby, f"Компьютер {computer} ·")
                    await creator.press(lobby, data=data, timeout=60)
                    await hub.until(group, changed(lobby, shown), SETUP_TIMEOUT)
        game.lobby = lobby
        return game


def changed(message: StoredMessage, shown: str) -> Callable[[], bool]:
    """Whether `message` shows something other than `shown` now."""
    return lambda: message.content != shown


def shape(text: str) -> str:
    """An answer's text with the tiles and names in it masked, to count answers by kind."""
    return re.sub(r"\d", "#", text)[:60] or "(no text)"


def percentile(values: Sequence[float], share: float) -> float:
    """The `share` quantile (0..1) by the nearest-rank method."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(0, min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1))
    return ordered[rank]


def proc_status(pid: int, key: str) -> int:
    """A `kB` field of /proc/<pid>/status, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{key}:"):
            return int(line.split()[1]) * 1024
    raise LookupError(f"{key} not in /proc/{pid}/status")


def proc_cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and all its descendants so far, in seconds:
    the live ones read one by one, the ended ones as their parents' `cutime + cstime`
    (what the bot's render pool and thinker use is the bot's work too)."""
    parents: dict[int, int] = {}
    times: dict[int, tuple[int, int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = (
            int(fields[11]) + int(fields[12]),
            int(fields[13]) + int(fields[14]),
        )
    tree, todo = {pid}, [pid]
    while todo:
        parent = todo.pop()
        children = [child for child, of in parents.items() if of == parent]
        tree.update(children)
        todo.extend(children)
    own, waited = zip(*(times[p] for p in tree if p in times), strict=True)
    return float(sum(own) + sum(waited)) / os.sysconf("SC_CLK_TCK")


def stored_counts(bot: BotProcess) -> tuple[int, int, Counter[str]]:
    """(actions by people, actions by computers, games by status) as the bot committed them
    (nobody leaves and no turn times out here, so a person's seat is played by them); from
    its SQLite file, or on PostgreSQL its schema (`tests.databases`)."""
    actors = stored_actors(bot.database)
    people = sum(1 for actor in actors.values() if actor is not None)
    rows = stored_rows(bot.database, "SELECT status, COUNT(*) FROM games GROUP BY status")
    return people, len(actors) - people, Counter({str(status): int(n) for status, n in rows})


def stored_moves(bot: BotProcess) -> int:
    """The actions the bot committed: each stored match's log, counted without replaying
    the match (`stored_counts` replays them all: half a second at 2,000 games)."""
    rows = stored_rows(bot.database, "SELECT match FROM games WHERE match IS NOT NULL")
    return sum(len(json.loads(text)["log"]) for (text,) in rows)


async def sample_moves(bot: BotProcess, every: float, into: list[tuple[float, int]]) -> None:
    """(when, stored actions) every `every` seconds: a timeline of the run. Counted on a
    thread: on the loop it would stall the fake and the people it times."""
    while True:
        into.append((time.perf_counter(), await asyncio.to_thread(stored_moves, bot)))
        await asyncio.sleep(every)


@dataclass
class Measured:
    seconds: float  # the window: first «Начать» press to the stop
    started_in: float  # until every «Начать» was answered (or given up on)
    people_moves: int
    computer_moves: int
    statuses: Counter[str]
    bot_cpu: float  # seconds of CPU the bot and its worker processes used in the window
    main_cpu: float  # of which the bot's own process
    own_cpu: float  # seconds of CPU this process (fake + people) used in the window
    peak_rss: int  # bytes
    timeline: list[tuple[float, int]]  # (when, stored actions) at each slice boundary
    exit_code: int
    counters: dict[str, int] | None  # the bot's counters grown in the window; None: not kept
    calls: Counter[str]  # Bot API calls in the window, by method (the fake's transcript)
    server_cpu: float | None = None  # seconds of CPU the PostgreSQL server used in the window
    instances: int = 0  # shard mode's instances, whose CPU, RSS and counters are summed
    each_cpu: tuple[float, ...] = ()  # seconds of CPU of each instance in the window

    late_starts: int = 0  # «Начать» presses not answered within Telegram's 15 s
    # Each press of the window answered at all: (pressed, taken by the bot, answered), s.
    press_times: list[tuple[float, float, float]] = field(default_factory=list)

    @property
    def moves(self) -> int:
        return self.people_moves + self.computer_moves


@dataclass(frozen=True)
class Tree:
    """A checkout of the bot to run: `path` is the folder ``python -m bot`` starts in."""

    key: str  # "changed" or "unchanged" ("polling", "webhook", "sqlite", ...): in file names
    label: str  # as printed
    path: Path
    webhook: bool = False  # the bot takes its updates by webhook, not polling
    postgres: bool = False  # the bot's database is a schema on PostgreSQL
    hands: str = "private"  # where the people play from: private, group or both (`--hands`)
    instances: int = 0  # shard mode's instances on PostgreSQL (`--instances`); 0: one bot

    @property
    def counts_work(self) -> bool:
        """Whether its bot logs its counters on SIGUSR1 (without the handler the signal
        would kill it)."""
        return any((self.path / "bot" / where / "perf.py").exists() for where in ("infra", "."))


@dataclass(frozen=True)
class DatabaseServer:
    """The PostgreSQL server the runs on PostgreSQL use."""

    url: str
    pid: int | None  # its main process, when it runs on this machine (for its CPU)
    ours: bool  # started by this script for these runs alone


async def server_process(url: str) -> int | None:
    """The server's main process if it runs on this machine: the parent of the process
    serving a connection of ours. None for a server elsewhere."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        backend = await conn.fetchval("SELECT pg_backend_pid()")
        try:
            stat = Path(f"/proc/{backend}/stat").read_text()
        except OSError:
            return None
    finally:
        await conn.close()
    parent = int(stat.rsplit(")", 1)[1].split()[1])
    command = Path(f"/proc/{parent}/cmdline").read_bytes().split(b"\0")[0]
    return parent if command.endswith((b"postgres", b"postmaster")) else None


@contextlib.contextmanager
def on_database(server: DatabaseServer | None) -> Iterator[None]:
    """One run on PostgreSQL (`server`) or on SQLite (None): the harness gives the bot a
    schema of `server` for its database file, and `stored_rows` reads there, when
    DOMINO_TEST_POSTGRES is set (`tests.databases`); it is set for the run, or unset."""
    saved = os.environ.pop(SERVER_VARIABLE, None)
    if server is not None:
        os.environ[SERVER_VARIABLE] = server.url
    try:
        yield
    finally:
        os.environ.pop(SERVER_VARIABLE, None)
        if saved is not None:
            os.environ[SERVER_VARIABLE] = saved


class TreeBot(BotProcess):
    """The bot of another checkout. ``python -m bot`` imports the code of its working
    directory first; the harness starts it in its own checkout (its module's ROOT), so
    ROOT is pointed at `tree` while the process is spawned."""

    def __init__(self, fake: FakeTelegram, workdir: Path, tree: Path, **env: str) -> None:
        super().__init__(fake, workdir, **env)
        self.tree = tree

    async def start(self, **options: bool) -> None:
        saved = harness.ROOT
        harness.ROOT = self.tree
        try:
            await super().start(**options)
        finally:
            harness.ROOT = saved


class CounterLines:
    """The bot's ``perf counters: {json}`` lines, read from its log as they come."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.found: list[dict[str, int]] = []
        self._offset = 0
        self._partial = b""

    def _read(self) -> None:
        with self.path.open("rb") as log:
            log.seek(self._offset)
            data = log.read()
        self._offset += len(data)
        *lines, self._partial = (self._partial + data).split(b"\n")
        for line in lines:
            text = line.decode(errors="replace")
            at = text.find(LINE_PREFIX)
            if at >= 0:
                self.found.append(json.loads(text[at + len(LINE_PREFIX) :]))

    async def snapshot(self, pid: int, timeout: float = 30.0) -> dict[str, int]:
        """Send SIGUSR1 to the bot and return the counters it logs for it."""
        self._read()
        seen = len(self.found)
        os.kill(pid, signal.SIGUSR1)
        async with asyncio.timeout(timeout):
            while len(self.found) <= seen:
                await asyncio.sleep(0.02)
                self._read()
        return self.found[seen]


def grown(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    """Each counter's growth between two snapshots (zeros kept: the counter exists)."""
    return {name: value - before.get(name, 0) for name, value in after.items()}


@dataclass
class Snapshot:
    """What the window's figures are differences of, taken as it opens and as it closes."""

    at: float  # time.perf_counter()
    moves: tuple[int, int]  # stored actions by people, by computers
    bot_cpu: float  # every bot process and its workers, summed
    each_cpu: tuple[float, ...]  # each bot process and its workers
    main_cpu: float  # the bots' main processes, summed
    server_cpu: float  # the PostgreSQL server's (0 without one)
    own_cpu: float  # this process's
    calls: int  # the fake's transcript's length
    clock: float  # the fake's clock (`FakeTelegram.press_times`)
    counters: list[dict[str, int]] | None  # each bot's, None if they keep none


async def snapshot(
    fake: FakeTelegram,
    bots: Sequence[BotProcess],
    lines: Sequence[CounterLines],
    server_pid: int | None,
    counts_work: bool,
) -> Snapshot:
    pids = [bot_pid(bot) for bot in bots]
    counters = [await line.snapshot(pid) for line, pid in zip(lines, pids, strict=True)]
    people, computers, _ = stored_counts(bots[0])
    each_cpu = tuple(tree_cpu_seconds(pid) for pid in pids)
    return Snapshot(
        at=time.perf_counter(),
        moves=(people, computers),
        bot_cpu=sum(each_cpu),
        each_cpu=each_cpu,
        main_cpu=sum(proc_cpu_seconds(pid) for pid in pids),
        server_cpu=tree_cpu_seconds(server_pid) if server_pid else 0.0,
        own_cpu=time.process_time(),
        calls=len(fake.transcript),
        clock=fake.clock(),
        counters=counters if counts_work else None,
    )


def bot_pid(bot: BotProcess) -> int:
    assert bot.process is not None
    return bot.process.pid


def summed(counters: Sequence[dict[str, int]]) -> dict[str, int]:
    """The instances' counters added up, name by name."""
    total: Counter[str] = Counter()
    for each in counters:
        total.update(each)
    return dict(total)


async def run(
    args: argparse.Namespace,
    workdir: Path,
    tally: Tally,
    tree: Tree,
    profile: Path | None,
    server: DatabaseServer | None = None,
    *,
    steady: bool = False,
) -> tuple[Measured, str]:
    """Set up, play, measure, stop the bot of `tree` (on `server` if `tree.postgres`; its
    `tree.instances` instances in shard mode if any); the figures and the bot's log (the
    instances' logs one after another). `steady`: the window opens once every «Начать» is
    answered (the starts spread over `--think`), not at the first."""
    server_pid = server.pid if tree.postgres and server is not None else None
    # A load generator: the fake still checks every call the bot makes against the Bot
    # API, but not its own answers (the suite does), which would cost it a sixth of its CPU.
    fake = FakeTelegram(check_own=False)
    await fake.start()
    hub = Hub(fake)
    hub_task = asyncio.create_task(hub.run())
    env = {"PACING": "false", "COMPUTER_DELAY": "0", "TABLE_INTERVAL": str(args.table_interval)}
    if profile is not None:
        env["PROFILE_TO"] = str(profile)
    if tree.webhook:
        env.update(harness.webhook_env())
    bots: list[BotProcess] = []
    window = Window()
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    try:
        if tree.instances:
            bots.extend(
                await start_instances(
                    fake, workdir, workdir / "domino.sqlite3", tree.instances, env
                )
            )
        else:
            bots.append(TreeBot(fake, workdir, tree.path, **env))
            await bots[0].start()
        lines = [CounterLines(bot.log_path) for bot in bots]
        pids = [bot_pid(bot) for bot in bots]
        setup_started = time.perf_counter()
        limit = asyncio.Semaphore(SETUP_CONCURRENCY)
        games = await asyncio.gather(
            *(
                set_up(fake, hub, n + 1, args.people, args.computers, limit, tree.hands)
                for n in range(args.games)
            )
        )
        rss = sum(proc_status(pid, "VmRSS") for pid in pids) / MB
        print(
            f"set up {len(games)} lobbies ({args.people} "
            f"{'person' if args.people == 1 else 'people'} + {4 - args.people} computers "
            f"{args.computers or 'medium'} each) in {time.perf_counter() - setup_started:.1f} s; "
            f"bot RSS then {rss:.0f} MB{instances_note(tree)}",
            flush=True,
        )
        for game in games:
            for user in game.users:
                person = (
                    Person(fake, user)
                    if tree.hands == "private"
                    else GroupPerson(fake, user, group=game.group)
                )
                player = Player(
                    person,
                    game,
                    tally,
                    window,
                    think=args.think,
                    rng=random.Random(user.id),
                )
                tasks.append(asyncio.create_task(player.play(hub, stop)))
        timeline: list[tuple[float, int]] = []
        before = await snapshot(fake, bots, lines, server_pid, tree.counts_work)
        first_start = before.at
        if not steady:  # else no press counts until every game has started
            window.started = first_start
        sampler = asyncio.create_task(sample_moves(bots[0], args.slice, timeline))

        async def start(game: Game) -> None:
            assert game.lobby is not None
            if args.think:  # the creators, too, take a moment: the starts spread out
                await asyncio.sleep(random.Random(game.group.id).uniform(0, args.think))
            answer = await game.users[0].press(
                game.lobby, data=button_data(game.lobby, "Начать"), timeout=60
            )
            if answer.show_alert:
                raise RuntimeError(f"{game.group.title}: the start was refused: {answer}")
            if not answer.answered:
                # Past Telegram's window the creator sees the button fail; the bot may
                # still start the game: counted, and the run goes on (an overloaded bot
                # is what the figures are for).
                late_starts.append(str(game.group.title))

        late_starts: list[str] = []
        await asyncio.gather(*(start(game) for game in games))
        started_in = time.perf_counter() - first_start
        if steady:  # the window anew, from here: the presses made from now on
            before = await snapshot(fake, bots, lines, server_pid, tree.counts_work)
            window.started = before.at
            sampler.cancel()
            timeline.clear()
            sampler = asyncio.create_task(sample_moves(bots[0], args.slice, timeline))
        tasks.append(sampler)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(args.seconds):
                await asyncio.gather(*(game.done.wait() for game in games))
        window.stopped = time.perf_counter()
        after = await snapshot(fake, bots, lines, server_pid, False)
        counters_after = (
            [await line.snapshot(pid) for line, pid in zip(lines, pids, strict=True)]
            if tree.counts_work
            else None
        )
        stop.set()
        _, _, statuses = stored_counts(bots[0])
        timeline.append((window.stopped, sum(after.moves)))
        peak = sum(proc_status(pid, "VmHWM") for pid in pids)
        tasks.pop().cancel()  # the sampler
        await asyncio.gather(*tasks, return_exceptions=True)  # presses in flight end
        tasks.clear()
        # The profile is written as the bot stops: a profiled bot is slow, so wait longer.
        codes = await asyncio.gather(
            *(bot.stop(timeout=30 if profile is None else 120) for bot in bots)
        )
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for bot in bots:
            if bot.process is not None and bot.process.returncode is None:
                await bot.kill()
        hub_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await hub_task
        await fake.stop()
        if tree.postgres and not args.keep:
            await drop_schemas()  # the run's schema (on a shared server, say)
    counters = None  # an empty snapshot: the bot has the signal but counts nothing yet
    if before.counters is not None and counters_after and all(counters_after):
        counters = grown(summed(before.counters), summed(counters_after))
    measured = Measured(
        seconds=window.stopped - before.at,
        started_in=started_in,
        late_starts=len(late_starts),
        people_moves=after.moves[0] - before.moves[0],
        computer_moves=after.moves[1] - before.moves[1],
        statuses=statuses,
        bot_cpu=after.bot_cpu - before.bot_cpu,
        main_cpu=after.main_cpu - before.main_cpu,
        own_cpu=after.own_cpu - before.own_cpu,
        peak_rss=peak,
        timeline=timeline,
        exit_code=max(codes, key=abs),
        counters=counters,
        calls=Counter(fake.transcript[i].method for i in range(before.calls, after.calls)),
        server_cpu=after.server_cpu - before.server_cpu if server_pid else None,
        instances=tree.instances,
        each_cpu=tuple(b - a for a, b in zip(before.each_cpu, after.each_cpu, strict=True)),
        press_times=[times for times in fake.press_times if before.clock <= times[0] < after.clock],
    )
    return measured, "\n".join(bot.log() for bot in bots)


def instances_note(tree: Tree) -> str:
    """ ", over N instances" in shard mode: the figures named "bot" are their sums."""
    return f" (the sum over {tree.instances} instances)" if tree.instances > 1 else ""


def ms(seconds: float) -> str:
    if math.isinf(seconds):
        return f"> {PRESS_TIMEOUT * 1000:.0f} ms (unanswered)"
    return f"{seconds * 1000:.0f} ms"


def report(args: argparse.Namespace, m: Measured, tally: Tally, log: str) -> None:
    moves = m.moves
    print(
        f"games: {args.games}, played {m.seconds:.1f} s (every «Начать» answered after "
        f"{m.started_in:.1f} s, {m.late_starts} of them not within 15 s); "
        f"finished {m.statuses.get('finished', 0)}, "
        f"still playing {m.statuses.get('playing', 0)}"
    )
    print(
        f"moves: {moves / m.seconds:.1f} moves/s ({moves} engine actions: "
        f"{m.people_moves} by people, {m.computer_moves} by computers)"
    )
    slices = [
        (moves_after - moves_before) / (after - before)
        for (before, moves_before), (after, moves_after) in itertools.pairwise(m.timeline)
        if after - before > args.slice / 2
    ]
    print(f"moves/s in {args.slice:.0f} s slices: " + " ".join(f"{rate:.0f}" for rate in slices))
    tails = []
    for (before, _), (after, _) in itertools.pairwise(m.timeline):
        inside = [
            took
            for took, at in zip(tally.answered, tally.answered_at, strict=True)
            if before <= at < after
        ]
        if after - before > args.slice / 2:
            tails.append(f"{percentile(inside, 0.99) * 1000:.0f}" if inside else "-")
    print(f"press -> answer p99 (ms) by the press's slice: {' '.join(tails)}")
    print(
        f"presses: {tally.presses / m.seconds:.1f} presses/s ({tally.presses} presses; "
        f"{tally.unanswered} unanswered within {PRESS_TIMEOUT:.0f} s, "
        f"{tally.retries} repeated after no change)"
    )
    for name, values in latencies(tally).items():
        if values:
            print(
                f"{name}: p50 {ms(percentile(values, 0.5))}, p99 {ms(percentile(values, 0.99))}, "
                f"max {ms(max(values))} ({len(values)} presses)"
            )
    if m.press_times:
        # Where an answer waited: for its update to be taken (the fake's queue and the
        # bot's polling), or in the bot from the update to its answer.
        waited = [taken - pressed for pressed, taken, _ in m.press_times]
        handled = [answered - taken for _, taken, answered in m.press_times]
        print(
            f"of which press -> taken by the bot: p50 {ms(percentile(waited, 0.5))}, "
            f"p99 {ms(percentile(waited, 0.99))}; taken -> answered: "
            f"p50 {ms(percentile(handled, 0.5))}, p99 {ms(percentile(handled, 0.99))} "
            f"({len(m.press_times)} presses answered at all, starts included)"
        )
    handled = [int(n) for n in HANDLED.findall(log)]
    if handled:
        print(
            f"bot handler time (aiogram log, setup included): p50 "
            f"{percentile(handled, 0.5):.0f} ms, p99 {percentile(handled, 0.99):.0f} ms "
            f"over {len(handled)} updates"
        )
    thinker = THINKER.search(log)
    if thinker is None:
        print("computer decisions: the thinker's summary is not in the bot's log")
    else:
        for level, count, p50, p95, most in DECISIONS.findall(thinker[1]):
            print(
                f"computer decisions, {level}: p50 {p50} ms, p95 {p95} ms, max {most} ms "
                f"({count} decisions, from request to decision)"
            )
        print(f"strong decisions past their deadline, made by medium instead: {thinker[2]}")
    over = f", summed over {m.instances} instances" if m.instances > 1 else ""
    print(f"bot peak RSS: {m.peak_rss / MB:.1f} MB (VmHWM{over})")
    print(
        f"CPU in the window{over}: bot {m.bot_cpu / m.seconds * 100:.0f}% of a core, "
        f"{per_move(m.bot_cpu * 1000, moves)} ms per move (its main process "
        f"{per_move(m.main_cpu * 1000, moves)} ms, its workers the rest); "
        f"this process (fake + people) {m.own_cpu / m.seconds * 100:.0f}% of a core"
    )
    if m.instances > 1:
        shares = ", ".join(f"{cpu / m.seconds * 100:.0f}%" for cpu in m.each_cpu)
        print(f"CPU of each instance (% of a core): {shares}")
    if m.server_cpu is not None:
        print(
            f"CPU of the database server (PostgreSQL) in the window: "
            f"{m.server_cpu / m.seconds * 100:.0f}% of a core, "
            f"{per_move(m.server_cpu * 1000, moves)} ms per move; bot + database "
            f"{per_move((m.bot_cpu + m.server_cpu) * 1000, moves)} ms per move"
        )
    if m.counters is None:
        print("bot work counters: n/a (this bot keeps none)")
    else:
        shown = ", ".join(
            f"{name} {per_move(value, moves)}"
            for name, value in sorted(m.counters.items())
            if value
        )
        print(f"bot work counters per move: {shown or '(none grew)'}")
        for name, value in work_ratios(m.counters).items():
            print(f"{name}: {fmt(value)}")
    total = sum(n for method, n in m.calls.items() if method != "getUpdates")
    shown = ", ".join(f"{method} {per_move(n, moves)}" for method, n in m.calls.most_common())
    print(
        f"Bot API calls per move (fake's transcript): {per_move(total, moves)} "
        f"without getUpdates ({shown})"
    )
    shown = ", ".join(f"{text!r} x{count}" for text, count in tally.answers.most_common(4))
    print(f"answers by text: {shown}")
    errors = [line for line in log.splitlines() if " ERROR " in line or " CRITICAL " in line]
    print(f"bot exit code: {m.exit_code}; errors in its log: {len(errors)}")
    for kind, count in exceptions(log).most_common(5):
        print(f"  {count} x {kind[:160]}")


def latencies(tally: Tally) -> dict[str, list[float]]:
    # A press never answered counts as infinitely slow, so a percentile is not flattered by
    # leaving out the presses that fared worst.
    never = [math.inf] * tally.unanswered
    return {"press -> answer": tally.answered + never, "press -> hand": tally.shown}


def per_move(value: float, moves: int) -> str:
    return fmt(value / moves) if moves else "n/a"


def fmt(value: float | None) -> str:
    """A figure with as many decimals as its size calls for; "n/a" for none."""
    if value is None or math.isnan(value):
        return "n/a"
    if math.isinf(value):
        return "inf"
    if isinstance(value, int):
        return str(value)
    size = abs(value)
    return f"{value:.0f}" if size >= 100 else f"{value:.1f}" if size >= 10 else f"{value:.2f}"


def work_ratios(counters: dict[str, int]) -> dict[str, float | None]:
    """Renders per picture sent: of the table, and of all kinds of picture."""
    renders = sum(n for name, n in counters.items() if name.startswith("render."))
    sent = sum(n for name, n in counters.items() if name.startswith("sent."))
    tables = counters.get("sent.table", 0)
    return {
        "renders per table picture sent": counters.get("render.table", 0) / tables
        if tables
        else None,
        "renders per picture sent": renders / sent if sent else None,
    }


def figures(m: Measured, tally: Tally, families: Sequence[str]) -> dict[str, float | None]:
    """One run's figures by name (with their unit), for the table of several runs.
    `families`: every counter name seen in any run, so each run has the same rows."""
    moves = m.moves or math.nan
    answered, shown = latencies(tally).values()
    found: dict[str, float | None] = {
        "moves/s": m.moves / m.seconds,
        "press -> answer p50 (ms)": percentile(answered, 0.5) * 1000,
        "press -> answer p99 (ms)": percentile(answered, 0.99) * 1000,
        "press -> hand p50 (ms)": percentile(shown, 0.5) * 1000,
        "press -> hand p99 (ms)": percentile(shown, 0.99) * 1000,
        "unanswered presses": tally.unanswered,
        "bot CPU per move (ms)": m.bot_cpu * 1000 / moves,
        "of which its main process (ms)": m.main_cpu * 1000 / moves,
        "database server CPU per move (ms)": None
        if m.server_cpu is None
        else m.server_cpu * 1000 / moves,
        # SQLite's work is the bot's own; PostgreSQL's partly its server's.
        "bot + database CPU per move (ms)": (m.bot_cpu + (m.server_cpu or 0.0)) * 1000 / moves,
        "bot CPU (% of a core)": m.bot_cpu / m.seconds * 100,
        "database server CPU (% of a core)": None
        if m.server_cpu is None
        else m.server_cpu / m.seconds * 100,
        "this process's CPU (% of a core)": m.own_cpu / m.seconds * 100,
        "peak RSS (MB)": m.peak_rss / MB,
    }
    counters = m.counters
    kept = {name.split(".")[0] for name in counters or ()}
    for name in (*DB_COUNTERS, *families):
        if counters is not None and name in counters:
            found[f"{name} per move"] = counters[name] / moves
        elif counters is not None and name not in DB_COUNTERS and name.split(".")[0] in kept:
            found[f"{name} per move"] = 0.0  # the bot counts this family; none of this kind
        else:
            found[f"{name} per move"] = None
    if counters is not None:
        found["renders per move"] = (
            sum(n for name, n in counters.items() if name.startswith("render.")) / moves
        )
        found.update(work_ratios(counters))
    else:
        found["renders per move"] = None
        found.update(dict.fromkeys(work_ratios({}), None))
    found["Bot API calls per move (no getUpdates)"] = (
        sum(n for method, n in m.calls.items() if method != "getUpdates") / moves
    )
    return found


def api_figures(m: Measured, methods: Sequence[str]) -> dict[str, float | None]:
    moves = m.moves or math.nan
    return {f"  {method} per move": m.calls.get(method, 0) / moves for method in methods}


@dataclass
class Run:
    tree: Tree
    measured: Measured
    tally: Tally


def median(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None and not math.isnan(v)]
    return statistics.median(known) if known else None


def paired_ratio(before: Sequence[float | None], after: Sequence[float | None]) -> str:
    """The geometric mean of after/before over the repeats where both are known and > 0."""
    logs = [
        math.log(a / b)
        for b, a in zip(before, after, strict=True)
        if a is not None and b is not None and 0 < a < math.inf and 0 < b < math.inf
    ]
    if not logs:
        return "n/a"
    ratio = f"x{math.exp(statistics.fmean(logs)):.2f}"
    return ratio if len(logs) == len(before) else f"{ratio} ({len(logs)} of {len(before)})"


def table(runs: Sequence[Run], trees: Sequence[Tree]) -> None:
    """Each figure's median over the repeats per tree, and changed/unchanged if both."""
    families = sorted(
        {name for run in runs for name in run.measured.counters or ()} - set(DB_COUNTERS)
    )
    methods = [
        method
        for method, _ in sum((run.measured.calls for run in runs), Counter[str]()).most_common()
    ]
    rows: dict[str, dict[str, list[float | None]]] = {}
    for run in runs:
        found = figures(run.measured, run.tally, families)
        found["Bot API calls by method (fake's transcript):"] = None
        found.update(api_figures(run.measured, methods))
        for name, value in found.items():
            rows.setdefault(name, {tree.key: [] for tree in trees})[run.tree.key].append(value)
    width = max(len(name) for name in rows)
    column = max(12, *(len(tree.key) for tree in trees))
    header = f"{'':{width}}  " + "  ".join(f"{tree.key:>{column}}" for tree in trees)
    compared = len(trees) == 2
    if compared:
        header += f"  {trees[1].key}/{trees[0].key}"
    repeats = len(runs) // len(trees)
    print(f"\nmedian of {repeats} run{'s' * (repeats > 1)} per tree", end="")
    print(" (the ratio: geometric mean over the paired runs)" if compared else "")
    for tree in trees:
        print(f"  {tree.key}: {tree.label}")
    print(header)
    for name, values in rows.items():
        if name.endswith(":"):
            print(name)
            continue
        if name.removesuffix(" per move") in families and not any(
            value for column_values in values.values() for value in column_values
        ):
            continue  # counted outside the window only (getMe, setMyCommands at the start)
        line = f"{name:{width}}  " + "  ".join(
            f"{fmt(median(values[tree.key])):>{column}}" for tree in trees
        )
        if compared:
            line += f"  {paired_ratio(values[trees[0].key], values[trees[1].key])}"
        print(line)


def print_profile(path: Path, trees: Sequence[Tree], top: int = 25) -> None:
    """The `top` functions of a cProfile file by cumulative and by own time, paths short."""
    if not path.exists():
        print(f"profile: {path} was not written (the bot did not stop cleanly?)")
        return
    stats = pstats.Stats(str(path))
    entries = stats.stats  # type: ignore[attr-defined]  # not in typeshed
    prefixes = sorted(
        {f"{tree.path}/" for tree in trees} | {f"{p}/" for p in sys.path if p}, key=len
    )[::-1]

    def where(file: str, line: int, function: str) -> str:
        short = next((file[len(p) :] for p in prefixes if file.startswith(p)), file)
        return f"{short}:{line}({function})" if line else function

    total = stats.total_tt  # type: ignore[attr-defined]
    print(f"\nprofile {path} (the bot's main thread, {total:.1f} s in all):")
    for title, column in (("cumulative", 3), ("own time", 2)):
        print(f"top {top} by {title}:   cumulative       own      calls  function")
        ordered = sorted(entries.items(), key=lambda item: item[1][column], reverse=True)
        for (file, line, function), (_, calls, own, cumulative, _) in ordered[:top]:
            shown = where(file, line, function)
            print(f"{cumulative * 1000:10.0f} ms {own * 1000:8.0f} ms {calls:10d}  {shown}")


@contextlib.contextmanager
def worktree(rev: str) -> Iterator[Path]:
    """`rev` checked out in a temporary folder (git worktree), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="bench-e2e-tree-")) / "tree"
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--quiet", str(folder), rev],
        cwd=ROOT,
        check=True,
    )
    try:
        yield folder
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT, check=False)
        shutil.rmtree(folder.parent, ignore_errors=True)


def this_tree() -> str:
    """This checkout as a label: its HEAD, and whether files differ from it."""
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return f"working tree: HEAD {head}{' + uncommitted changes' if dirty else ''}"


def exceptions(log: str) -> Counter[str]:
    """The exceptions of the tracebacks in a log (the line each one ends with), counted."""
    found: Counter[str] = Counter()
    inside = False
    for line in log.splitlines():
        if line.startswith("Traceback"):
            inside = True
        elif inside and line and not line[0].isspace():
            found[re.sub(r"\d+", "#", line)] += 1
            inside = False
    return found


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="concurrent games (default 50; with --held the search's first count, default 100)",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="seconds of play at most (default 30; with --held 40 once the games started)",
    )
    parser.add_argument(
        "--people",
        type=int,
        choices=(1, 2, 3, 4),
        default=None,
        help="scripted people per game; the other seats get computer players (default 4, "
        "or 1 with --computers)",
    )
    parser.add_argument(
        "--computers",
        choices=tuple(LEVEL_NAMES),
        default=None,
        help="the computers' level, set in each lobby (default: medium, as added)",
    )
    parser.add_argument(
        "--slice", type=float, default=5.0, help="seconds per slice of the timeline (default 5)"
    )
    parser.add_argument(
        "--table-interval",
        type=float,
        default=0.2,
        help="TABLE_INTERVAL: seconds between two pictures of one table (default 0.2, as the "
        "tests run the bot: nearly every move drawn; the bot's own default is 3)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a person takes over a new hand before pressing (exponential; "
        "default 0: press at once, the bot saturated)",
    )
    parser.add_argument(
        "--updates",
        choices=("polling", "webhook", "both"),
        default="polling",
        help="how the bot takes its updates: long polling (default), a webhook "
        "the fake posts to, or both in turns on this tree, side by side",
    )
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgres", "both"),
        default=None,
        help="the bot's database: SQLite (default), a fresh schema on PostgreSQL "
        "(DOMINO_TEST_POSTGRES's server, else a throwaway one), or both in turns, side by side",
    )
    parser.add_argument(
        "--instances",
        nargs="+",
        metavar="N",
        help="N bot instances in shard mode on PostgreSQL (SHARDS=12, one schema); "
        "several counts (`1,2` or `1 2`) run in turns, side by side",
    )
    parser.add_argument(
        "--held",
        action="store_true",
        help="search the games held with press -> answer p99 under 1 s at --think (for "
        "each --instances count): doubling from --games, then halving the gap to ~12%%, a "
        "run of --seconds (after the starts) per step; `--instances 1,2 --held --think 5` "
        "takes about 15-25 minutes on 2 cores",
    )
    parser.add_argument(
        "--hands",
        choices=("private", "group", "both", "all"),
        default="private",
        help="where the people play from: their private chat (default), the group alone "
        "(ephemeral hands, nobody presses Start), both (the private hand kept in step), or "
        "all three in turns on this tree, side by side",
    )
    parser.add_argument("--quick", action="store_true", help="a tiny run: 2 games, 5 seconds")
    parser.add_argument("--keep", action="store_true", help="keep the bot's database and log")
    parser.add_argument(
        "--profile",
        type=Path,
        metavar="PATH",
        help="profile the bot (PROFILE_TO=PATH) and print its top functions",
    )
    parser.add_argument(
        "--against",
        metavar="REV",
        help="also run the bot of commit REV (the unchanged code, e.g. HEAD~1) in turns",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=None,
        help="runs per tree (default 3 with --against or a `both`, else 1)",
    )
    args = parser.parse_args()
    if args.people is None:
        args.people = 1 if args.computers else 4
    if args.games is None:
        args.games = 100 if args.held else 50
    if args.seconds is None:
        args.seconds = 40.0 if args.held else 30.0
    if args.quick:
        args.games, args.seconds = 2, 5.0
    counts: list[int] = []
    if args.instances:
        try:
            counts = instance_counts(args.instances)
        except ValueError as wrong:
            parser.error(f"--instances: {wrong}")
        if args.database not in (None, "postgres"):
            parser.error("--instances runs shard mode, on PostgreSQL alone: no --database")
        args.database = "postgres"
        if args.against or args.updates == "both" or args.hands == "all" or args.profile:
            parser.error("--instances compares instance counts: no --against, both, all, profile")
    elif args.held:
        parser.error("--held searches per instance count: give --instances (1, or 1,2)")
    if args.database is None:
        args.database = "sqlite"
    for option in ("updates", "database"):
        if getattr(args, option) == "both" and args.against:
            parser.error(f"--{option} both compares the two ways on this tree: no --against")
    sides = "both" in (args.updates, args.database) or args.hands == "all" or len(counts) > 1
    if args.hands == "all" and (args.against or "both" in (args.updates, args.database)):
        parser.error("--hands all compares the three on this tree alone: no --against or both")
    if args.repeat is None:
        args.repeat = 3 if args.against or sides else 1
    workdir = Path(tempfile.mkdtemp(prefix="bench-e2e-"))
    try:
        with contextlib.ExitStack() as stack:
            webhook = args.updates == "webhook"
            postgres = args.database == "postgres"
            hands = "private" if args.hands == "all" else args.hands
            trees = [Tree("changed", f"changed ({this_tree()})", ROOT, webhook, postgres, hands)]
            if "both" in (args.updates, args.database):
                trees = ways(args.updates, args.database)
            elif args.hands == "all":
                trees = [
                    Tree(way, f"hands: {way} ({this_tree()})", ROOT, webhook, postgres, way)
                    for way in ("private", "group", "both")
                ]
            elif counts:
                trees = [
                    Tree(
                        instances_key(count),
                        f"{count} instance{'s' * (count > 1)} in shard mode ({this_tree()})",
                        ROOT,
                        webhook,
                        postgres=True,
                        hands=hands,
                        instances=count,
                    )
                    for count in counts
                ]
            elif args.against:
                unchanged = stack.enter_context(worktree(args.against))
                if postgres and not (unchanged / "storage" / "postgres.py").exists():
                    parser.error(f"{args.against} has no PostgreSQL storage (storage/postgres.py)")
                label = f"unchanged ({args.against})"
                trees.insert(0, Tree("unchanged", label, unchanged, webhook, postgres))
            server = None
            if any(tree.postgres for tree in trees):
                try:
                    server = stack.enter_context(postgres_server())
                except PostgresFailed as failed:
                    parser.exit(1, f"bench/e2e.py: {failed}\n")
            if args.held:
                capacities(args, workdir, trees, server)
                return
            runs = measure(args, workdir, trees, server)
        if len(runs) > 1:
            table(runs, trees)
    finally:
        if args.keep:
            print(f"kept: {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


def ways(updates: str, database: str) -> list[Tree]:
    """This tree run each of the ways `--updates` and `--database` ask for ("both": the
    two), named by what differs between them."""
    kinds = {"polling": "long polling", "webhook": "webhook", "sqlite": "SQLite",
             "postgres": "PostgreSQL"}  # fmt: skip
    found = []
    for way in ("polling", "webhook") if updates == "both" else (updates,):
        for store in ("sqlite", "postgres") if database == "both" else (database,):
            differs = [name for name, both in ((way, updates), (store, database)) if both == "both"]
            label = ", ".join(kinds[name] for name in (way, store))
            found.append(
                Tree(
                    "-".join(differs),
                    f"{label} ({this_tree()})",
                    ROOT,
                    webhook=way == "webhook",
                    postgres=store == "postgres",
                )
            )
    return found


@contextlib.contextmanager
def postgres_server() -> Iterator[DatabaseServer]:
    """The server DOMINO_TEST_POSTGRES names, or else a throwaway one for these runs
    (`tasks.throwaway_postgres`, as `tasks.py test` starts), stopped and removed after."""
    given = os.environ.get(SERVER_VARIABLE)
    if given:
        pid = asyncio.run(server_process(given))
        print(f"PostgreSQL: {SERVER_VARIABLE}'s server (its CPU: the whole server's)")
        yield DatabaseServer(given, pid, ours=False)
        return
    programs = find_postgres()
    if programs is None:
        raise PostgresFailed(
            f"no PostgreSQL here (initdb and pg_ctl): install it or set {SERVER_VARIABLE}"
        )
    with throwaway_postgres(programs) as cluster:
        yield DatabaseServer(cluster.url, cluster.server_pid(), ours=True)


def measure(
    args: argparse.Namespace,
    workdir: Path,
    trees: Sequence[Tree],
    server: DatabaseServer | None = None,
) -> list[Run]:
    """Every tree `args.repeat` times, in turns; each run reported as it ends."""
    runs: list[Run] = []
    several = len(trees) * args.repeat > 1
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}", flush=True)
    for repeat in range(1, args.repeat + 1):
        for tree in trees:
            name = f"{tree.key}-{repeat}"
            profile: Path | None = args.profile
            if profile is not None and several:
                profile = profile.with_name(f"{profile.stem}.{tree.key}.{repeat}{profile.suffix}")
            if profile is not None:
                profile = profile.resolve()
                profile.unlink(missing_ok=True)
            folder = workdir / name if several else workdir
            folder.mkdir(exist_ok=True)
            tally = Tally()
            if several:
                print(f"\n=== {tree.label}, run {repeat} of {args.repeat}", flush=True)
            with on_database(server if tree.postgres else None):
                measured, log = asyncio.run(run(args, folder, tally, tree, profile, server))
            report(args, measured, tally, log)
            if profile is not None:
                print_profile(profile, trees)
            runs.append(Run(tree, measured, tally))
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    return runs


def instances_key(count: int) -> str:
    """A shard-mode tree's key (a column's head, a folder's name)."""
    return f"{count}-instance{'s' * (count > 1)}"


def capacities(
    args: argparse.Namespace,
    workdir: Path,
    trees: Sequence[Tree],
    server: DatabaseServer | None,
) -> list[CapacitySearch]:
    """`--held`: for each tree (an instance count) the games held at `--think` with
    press -> answer p99 under 1 s (`bench.instances.CapacitySearch`), a line a step, then
    each count's result and the ratios of the last to the first."""
    print(
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; games held: "
        f"press -> answer p99 under 1 s at --think {args.think:g}, {args.seconds:g} s a step "
        "once every game has started",
        flush=True,
    )
    began = time.perf_counter()
    searches = []
    for tree in trees:
        search = CapacitySearch(start=args.games)
        print(f"\n=== {tree.label}", flush=True)
        while (games := search.next_games()) is not None:
            step_args = argparse.Namespace(**{**vars(args), "games": games})
            folder = workdir / f"{tree.key}-{games}"
            folder.mkdir(exist_ok=True)
            tally = Tally()
            print(f"--- {games} games (load average {os.getloadavg()[0]:.2f})", flush=True)
            with on_database(server if tree.postgres else None):
                measured, log = asyncio.run(
                    run(step_args, folder, tally, tree, None, server, steady=True)
                )
            report(step_args, measured, tally, log)
            step = held_step(games, measured, tally)
            search.record(step)
            print(step_line(step), flush=True)
        searches.append(search)
    print(f"\ngames held (press -> answer p99 under 1 s) at --think {args.think:g}:")
    for tree, search in zip(trees, searches, strict=True):
        print(f"  {tree.key}: {' '.join(str(s.games) for s in search.steps)} games tried")
        for step in sorted(search.steps, key=lambda s: s.games):
            print(f"    {step_line(step)}")
        held, failed = search.held, search.not_held
        print(
            f"  {tree.key}: {held.games if held else 'none'} held"
            + (f" ({failed.games} not)" if failed else "")
            + (f", {held.moves_per_second:.1f} moves/s" if held else "")
        )
    firsts, lasts = searches[0].held, searches[-1].held
    if len(searches) > 1 and firsts is not None and lasts is not None:
        print(
            f"{trees[-1].key}/{trees[0].key}: games held x{lasts.games / firsts.games:.2f}, "
            f"moves/s x{lasts.moves_per_second / firsts.moves_per_second:.2f}"
        )
    minutes = (time.perf_counter() - began) / 60
    print(f"load average at the end {os.getloadavg()[0]:.2f}; {minutes:.1f} minutes in all")
    return searches


def held_step(games: int, m: Measured, tally: Tally) -> Step:
    """A step of the search from one run's figures."""
    moves = m.moves or math.nan
    answered, _ = latencies(tally).values()
    return Step(
        games=games,
        p99=percentile(answered, 0.99) if answered else math.inf,
        moves_per_second=m.moves / m.seconds,
        cpu_per_move=m.bot_cpu * 1000 / moves,
        server_cpu_per_move=None if m.server_cpu is None else m.server_cpu * 1000 / moves,
        fake_share=m.own_cpu / m.seconds,
        bot_share=m.bot_cpu / m.seconds,
    )


def step_line(step: Step) -> str:
    server = server_share = ""
    if step.server_cpu_per_move is not None:
        server = f" + PostgreSQL {fmt(step.server_cpu_per_move)} ms"
        share = step.server_cpu_per_move * step.moves_per_second / 1000
        server_share = f", PostgreSQL {share * 100:.0f}%"
    return (
        f"{step.games} games: press -> answer p99 {ms(step.p99)} "
        f"({'held' if step.held else 'NOT held'}), {step.moves_per_second:.1f} moves/s, "
        f"CPU per move: bot {fmt(step.cpu_per_move)} ms{server}; CPU: bot "
        f"{step.bot_share * 100:.0f}% of a core{server_share}, "
        f"fake + people {step.fake_share * 100:.0f}%"
    )


if __name__ == "__main__":
    main()
