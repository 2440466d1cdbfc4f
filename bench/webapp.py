"""The Mini App's latency and cost: games played through the app's API, beside the same
games played from the private hands, in one run.

    .venv/bin/python bench/webapp.py [--games 50] [--think 1] [--seconds 60] [--people 2]
        [--repeat 1] [--ways app,telegram] [--profile PATH]

Each way runs the bot as its own process (``python -m bot`` with its Mini App on, a
temporary SQLite database, COMPUTER_DELAY=0, PACING=false, TABLE_INTERVAL=0.2), against the
fake Telegram in this process, and sets the games up as people would (bench/e2e.py's
``set_up``: Start in the bot's chat, /domino in the group, «Играю», computers for the
empty seats, «Начать»). Then:

- ``app``: every seated person opens the app from the lobby's «🃏 Открыть стол» link
  (``fake.open_web_app``: initData signed with the fake's token), follows
  ``/api/events`` over one HTTP stream and plays by ``POST /api/act`` when their state
  says it is their turn: a tile's first play, else the first option of a menu, else
  the first move (draw, knock). The group's table and the private hands follow, as
  they always do; nobody looks at them.
- ``telegram``: the same people press their private hands' buttons (bench/e2e.py's
  ``Player``), the apps closed.

With ``--think S`` a person looks at each new turn for an exponential time of mean S
seconds before acting, the same sequence for the same person in both ways, so the
offered load is human-paced and the latencies are what people see, not queueing.

Figures, over the window from the first «Начать» to the end (every game over, or
``--seconds``):

- action → update at every seated person's app (``app``): from a ``POST /api/act`` until
  each seated person's stream delivered a state past that move, p50/p99/max in ms, over
  every (action, person) pair; and the POST's own answer, p50/p99 in ms;
- press → answer and press → hand (``telegram``): bench/e2e.py's figures;
- moves/s (every engine action stored, computers' included) and the bot's CPU per move
  in ms (user + system of the bot's process tree), with the ratio app/telegram of CPU
  per move (geometric mean over the paired repeats).

``--profile PATH`` runs the app way's bot under cProfile (``PROFILE_TO``) and prints where
its main thread's time went, by cumulative and by own time.

Nothing here is a test: no figure is asserted. The bot process is stopped however the
run ends.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import e2e  # noqa: E402
from tests.e2e import harness  # noqa: E402
from tests.e2e.harness import BotProcess, button_data  # noqa: E402
from tests.fakegram import FakeTelegram  # noqa: E402
from tests.fakegram.webapp import WebAppLaunch  # noqa: E402

OPEN_TABLE = "🃏 Открыть стол"  # the lobby's and the table's button
ACT_TIMEOUT = 14.0  # seconds for one POST /api/act


@dataclass
class AppTally:
    """What the apps saw, over the window."""

    updates: list[float] = field(default_factory=list)  # s: action → a seated app's update
    answers: list[float] = field(default_factory=list)  # s: POST /api/act → its answer
    actions: int = 0
    refused: int = 0  # answers with ok false (stale: someone, or a computer, moved first)
    errors: int = 0  # HTTP errors and streams broken


@dataclass
class AppGame:
    """One game as its apps follow it: the actions sent and not yet seen by every app."""

    token: str
    seated: int  # people with an app open
    # move number acted on → (sent at, apps that have shown a later move)
    pending: dict[int, tuple[float, set[int]]] = field(default_factory=dict)
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def shown(self, person: int, move: int, tally: AppTally, window: e2e.Window) -> None:
        """The app of `person` shows the state after `move` moves: every action before it
        has reached that app."""
        now = time.perf_counter()
        for acted, (sent, seen) in list(self.pending.items()):
            if acted < move and person not in seen:
                seen.add(person)
                if window.open:
                    tally.updates.append(now - sent)
                if len(seen) >= self.seated:
                    del self.pending[acted]


@dataclass(eq=False)
class AppPlayer:
    """One person playing from the app: follows the stream, acts on their turn."""

    user_id: int
    launch: WebAppLaunch
    game: AppGame
    tally: AppTally
    window: e2e.Window
    think: float
    rng: random.Random
    state: dict[str, Any] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    acted_on: int = -1  # the move number last acted on

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": self.launch.authorization}

    async def follow(self, http: aiohttp.ClientSession, base: str, stop: asyncio.Event) -> None:
        """Read the event stream until `stop`, reconnecting if it breaks."""
        url = f"{base}api/events?g={self.game.token}"
        while not stop.is_set():
            try:
                async with http.get(url, headers=self.headers, timeout=None) as response:
                    response.raise_for_status()
                    data: list[bytes] = []
                    async for line in response.content:
                        if line.startswith(b"data:"):
                            data.append(line[5:].strip())
                        elif line in (b"\n", b"\r\n") and data:
                            self.on_state(json.loads(b"".join(data)))
                            data.clear()
            except (aiohttp.ClientError, TimeoutError):
                if stop.is_set():
                    return
                self.tally.errors += 1
                await asyncio.sleep(0.2)

    def on_state(self, state: dict[str, Any]) -> None:
        self.state = state
        self.game.shown(self.user_id, state["game"]["move"], self.tally, self.window)
        if state["game"]["status"] in ("finished", "cancelled"):
            self.game.done.set()
        self.changed.set()

    async def play(self, http: aiohttp.ClientSession, base: str, stop: asyncio.Event) -> None:
        """Act whenever the state says it is this person's turn."""
        while not stop.is_set() and not self.game.done.is_set():
            self.changed.clear()
            action = self.choice()
            if action is None:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(2.0):
                        await self.changed.wait()
                continue
            move, chosen = action
            if self.think:
                await asyncio.sleep(self.rng.expovariate(1.0 / self.think))
                again = self.choice()
                if again is None or again[0] != move:
                    continue
                chosen = again[1]
            self.acted_on = move
            sent = time.perf_counter()
            self.game.pending[move] = (sent, set())
            if self.window.open:
                self.tally.actions += 1
            body = {"g": self.game.token, "do": "play", "move": move, "action": chosen}
            try:
                async with http.post(
                    f"{base}api/act", json=body, headers=self.headers, timeout=ACT_TIMEOUT
                ) as response:
                    answer = await response.json()
                    if response.status != 200:
                        self.tally.errors += 1
                    elif not answer.get("ok", True):
                        self.tally.refused += 1
            except (aiohttp.ClientError, TimeoutError):
                self.tally.errors += 1
                continue
            if self.window.open:
                self.tally.answers.append(time.perf_counter() - sent)

    def choice(self) -> tuple[int, str] | None:
        """(move number, action) this person makes now, or None: not their turn."""
        state = self.state
        hand = state.get("hand") if state else None
        if state is None or not hand or not hand.get("your_turn"):
            return None
        move = state["game"]["move"]
        if move == self.acted_on:
            return None
        for tile in hand["tiles"]:
            if tile["plays"]:
                return move, tile["plays"][0]["action"]
        for menu in hand["menus"]:
            if menu["options"]:
                return move, menu["options"][0]["action"]
        if hand["moves"]:
            return move, hand["moves"][0]["action"]
        return None


@dataclass
class Figures:
    way: str
    seconds: float
    moves: int
    bot_cpu: float  # s
    app: AppTally | None = None
    telegram: e2e.Tally | None = None

    @property
    def cpu_per_move(self) -> float:
        return self.bot_cpu / self.moves if self.moves else math.nan


async def run_app(args: argparse.Namespace, workdir: Path) -> Figures:
    """The games played through the app; the figures of the window."""
    fake = FakeTelegram()
    await fake.start()
    hub = e2e.Hub(fake)
    hub_task = asyncio.create_task(hub.run())
    app_env = harness.webapp_env()
    fake.add_web_app(app_env["WEBAPP_SHORT_NAME"], app_env["WEBAPP_URL"])
    env = {"PACING": "false", "COMPUTER_DELAY": "0", "TABLE_INTERVAL": "0.2", **app_env}
    if args.profile is not None:
        env["PROFILE_TO"] = str(args.profile)
    bot = BotProcess(fake, workdir, **env)
    tally, window, stop = AppTally(), e2e.Window(), asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    connector = aiohttp.TCPConnector(limit=0)
    http = aiohttp.ClientSession(connector=connector)
    try:
        await bot.start()
        assert bot.process is not None
        pid = bot.process.pid
        limit = asyncio.Semaphore(e2e.SETUP_CONCURRENCY)
        games = await asyncio.gather(
            *(e2e.set_up(fake, hub, n + 1, args.people, None, limit) for n in range(args.games))
        )
        app_games: list[AppGame] = []
        players: list[AppPlayer] = []
        for game in games:
            assert game.lobby is not None
            launches = [
                user.open_web_app_button(game.lobby, text=OPEN_TABLE) for user in game.users
            ]
            token = launches[0].start_param
            assert token, "the lobby's link names no game"
            followed = AppGame(token, seated=len(game.users))
            app_games.append(followed)
            for user, launch in zip(game.users, launches, strict=True):
                player = AppPlayer(
                    user.id, launch, followed, tally, window, args.think, random.Random(user.id)
                )
                players.append(player)
                tasks.append(asyncio.create_task(player.follow(http, app_env["WEBAPP_URL"], stop)))
        before = e2e.tree_cpu_seconds(pid)
        window.started = time.perf_counter()
        for player in players:
            tasks.append(asyncio.create_task(player.play(http, app_env["WEBAPP_URL"], stop)))
        await asyncio.gather(*(start(game, args.think) for game in games))
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(args.seconds):
                await asyncio.gather(*(g.done.wait() for g in app_games))
        window.stopped = time.perf_counter()
        cpu = e2e.tree_cpu_seconds(pid) - before
        people_moves, computer_moves, _ = e2e.stored_counts(bot)
        stop.set()
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await http.close()
        if bot.process is not None and bot.process.returncode is None:
            await bot.stop(timeout=30 if args.profile is None else 120)
        hub_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await hub_task
        await fake.stop()
    seconds = window.stopped - window.started
    return Figures("app", seconds, people_moves + computer_moves, cpu, app=tally)


async def start(game: e2e.Game, think: float) -> None:
    """The creator presses «Начать» (spread over the first `think` seconds)."""
    assert game.lobby is not None
    if think:
        await asyncio.sleep(random.Random(game.group.id).uniform(0, think))
    answer = await game.users[0].press(
        game.lobby, data=button_data(game.lobby, "Начать"), timeout=60
    )
    if not answer.answered or answer.show_alert:
        raise RuntimeError(f"{game.group.title}: the start was refused: {answer}")


async def run_telegram(args: argparse.Namespace, workdir: Path) -> Figures:
    """The same games played from the private hands: bench/e2e.py's run as it is."""
    options = argparse.Namespace(
        games=args.games,
        people=args.people,
        computers=None,
        think=args.think,
        seconds=args.seconds,
        table_interval=0.2,
        slice=10.0,
        keep=False,
    )
    tree = e2e.Tree("telegram", "telegram", ROOT)
    tally = e2e.Tally()
    measured, _ = await e2e.run(options, workdir, tally, tree, None)
    return Figures("telegram", measured.seconds, measured.moves, measured.bot_cpu, telegram=tally)


def ms(values: list[float], share: float) -> str:
    return f"{e2e.percentile(values, share) * 1000:.0f} ms" if values else "n/a"


def report(figures: Figures) -> None:
    rate = figures.moves / figures.seconds if figures.seconds else math.nan
    print(
        f"[{figures.way}] {figures.moves} moves in {figures.seconds:.1f} s: {rate:.1f} moves/s; "
        f"bot CPU per move {figures.cpu_per_move * 1000:.2f} ms",
        flush=True,
    )
    if figures.app is not None:
        a = figures.app
        print(
            f"[app] action → update at every seated app: p50 {ms(a.updates, 0.5)}, "
            f"p99 {ms(a.updates, 0.99)}, max {ms(a.updates, 1.0)} over {len(a.updates)} "
            f"updates; POST answer p50 {ms(a.answers, 0.5)}, p99 {ms(a.answers, 0.99)}; "
            f"{a.actions} actions, {a.refused} refused, {a.errors} errors",
            flush=True,
        )
    if figures.telegram is not None:
        t = figures.telegram
        print(
            f"[telegram] press → answer p50 {ms(t.answered, 0.5)}, p99 {ms(t.answered, 0.99)}; "
            f"press → hand p50 {ms(t.shown, 0.5)}, p99 {ms(t.shown, 0.99)}; "
            f"{t.presses} presses",
            flush=True,
        )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a person looks")
    parser.add_argument("--seconds", type=float, default=60.0, help="the window at most")
    parser.add_argument("--people", type=int, default=2, choices=(1, 2, 3, 4))
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--ways", default="app,telegram")
    parser.add_argument("--profile", type=Path, help="cProfile the app way's bot into PATH")
    args = parser.parse_args()
    ways = [way.strip() for way in args.ways.split(",") if way.strip()]
    runs: dict[str, list[Figures]] = {way: [] for way in ways}
    for repeat in range(args.repeat):
        for way in ways:
            with tempfile.TemporaryDirectory(prefix=f"bench-webapp-{way}-") as folder:
                print(f"run {repeat + 1}/{args.repeat}: {way}", flush=True)
                run = run_app if way == "app" else run_telegram
                figures = await run(args, Path(folder))
                report(figures)
                runs[way].append(figures)
                if way == "app" and args.profile is not None:
                    e2e.print_profile(args.profile, [e2e.Tree("app", "app", ROOT)])
    if "app" in runs and "telegram" in runs and runs["app"] and runs["telegram"]:
        ratios = [
            a.cpu_per_move / t.cpu_per_move
            for a, t in zip(runs["app"], runs["telegram"], strict=True)
            if a.moves and t.moves
        ]
        if ratios:
            ratio = statistics.geometric_mean(ratios)
            print(
                f"bot CPU per move, app / telegram: {ratio:.2f} ratio "
                f"(geometric mean of {len(ratios)} paired runs)",
                flush=True,
            )


if __name__ == "__main__":
    asyncio.run(main())
