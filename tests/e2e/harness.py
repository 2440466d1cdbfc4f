"""The bot as a real process against tests/fakegram, and scripted people who play.

`BotProcess` starts `python -m bot` exactly as the README's run command does (only
the environment differs: the fake's URL and token, a database in a temporary folder,
no pause for computer players), and can stop it with SIGTERM or kill it with SIGKILL
and start it again on the same database. With `WEBHOOK_URL` in its environment it is up
once it has set its webhook (`webhook_env` makes one on a free port), else once it
long-polls. Its log is kept and checked: an unhandled
exception anywhere fails the test that caused it.

`Person` plays from their private chat the way a person would: reads the hand
message, presses a marked tile (choosing an end when asked), draws or knocks.

Waits have no fixed end where the machine's speed decides how long they take: `play_until`
and `Stall` fail only when nothing visible changes for a whole stall window, and the
fake's short waits (a reply, a press's answer) only when nothing at all moves: no call, no
update, no CPU used by the bot's processes (`CpuProgress`, which every `BotProcess` adds
to its fake's `progress_sources`). Every window is stretched by the machine's pace
(`tests.fakegram.waiting`), so a loaded machine makes a test slower, never red, and a
failure says what it waited for and what moved last. Games opened here have the turn timer
switched off by the group's admin (`set_turn_timer`), so no real-time clock moves a game
whose test is not about timers.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import sys
import time
import weakref
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from bot.infra.task_dump import LINE_PREFIX as TASKS_LINE
from bot.telegram.callbacks import (
    GroupHandCb,
    GroupLangCb,
    HandCb,
    HandKind,
    HandsCb,
    MoveCb,
    SettingsCb,
    SettingsSection,
    TimerCb,
    action_of,
)
from domino.actions import (
    Close,
    Draw,
    EndTurn,
    Flip,
    Flipped,
    Knock,
    Play,
    PlayDoubles,
    TurnedUp,
)
from domino.match import Match
from domino.round import Round
from domino.timing import TurnTimer
from storage.records import HandsPlace
from tests.databases import stored_rows, test_server, url_for
from tests.e2e.zygote import ZygoteProcess, forking, start_bot
from tests.fakegram import CallbackAnswer, FakeTelegram
from tests.fakegram.privacy import HandPrivacy
from tests.fakegram.waiting import Watch
from tests.fakegram.world import ChatType, FakeChat, FakeUser, StoredMessage

ROOT = Path(__file__).resolve().parents[2]
MOVE_PREFIX = "m2:"  # a move button (`MoveCb`): the engine's `str(action)`
HAND_PREFIX = "hb1:"  # a hand button that makes no move (`HandCb`)
# A hand button of an older bot (`m1:game:move:kind:…`, a letter a kind), read so that
# `bench/e2e.py --against` can drive an older commit; this bot answers it as stale.
OLD_HAND_PREFIX = "m1:"
HAND_PREFIXES = (MOVE_PREFIX, HAND_PREFIX, OLD_HAND_PREFIX)


class Press(StrEnum):
    """What a hand button does, read from its data (`kind_of`); the values are the older
    bot's kind letters."""

    PLAY = "p"  # a tile on an end
    DOUBLES = "2"  # several doubles at once
    CLOSE = "c"  # a double closing an end
    DRAW = "d"
    KNOCK = "k"
    END_TURN = "t"
    FLIP = "o"
    ENDS = "e"  # opens the choice of a tile's end
    DOUBLES_MENU = "md"
    CLOSE_MENU = "mc"
    BACK = "b"
    INFO = "i"  # a tile that is no move now
    HINT = "h"
    OFFER_DRAW = "od"  # «🤝 Предложить ничью»


_MOVES = {
    Play: Press.PLAY,
    PlayDoubles: Press.DOUBLES,
    Close: Press.CLOSE,
    Draw: Press.DRAW,
    Knock: Press.KNOCK,
    EndTurn: Press.END_TURN,
    Flip: Press.FLIP,
}
_HAND = {
    HandKind.ENDS: Press.ENDS,
    HandKind.DOUBLES: Press.DOUBLES_MENU,
    HandKind.CLOSE: Press.CLOSE_MENU,
    HandKind.BACK: Press.BACK,
    HandKind.INFO: Press.INFO,
    HandKind.HINT: Press.HINT,
    HandKind.OFFER_DRAW: Press.OFFER_DRAW,
}
MOVES = frozenset(_MOVES.values())
"""The presses that make a move."""


def is_hand_button(data: str | None) -> bool:
    return (data or "").startswith(HAND_PREFIXES)


def kind_of(data: str) -> Press:
    """What the hand button with this data does (a move: by its action's type)."""
    if data.startswith(OLD_HAND_PREFIX):
        return Press(data.split(":")[3])
    if data.startswith(MOVE_PREFIX):
        action = action_of(MoveCb.unpack(data))
        assert action is not None, data
        return _MOVES[type(action)]
    return _HAND[HandCb.unpack(data).kind]


def move_of(data: str) -> int:
    """The move number a hand button was drawn for (0 for a tile that is no move)."""
    return int(data.split(":")[2])


def game_of(data: str) -> int:
    return int(data.split(":")[1])


# The windows below are times with no progress at all, each stretched by the machine's pace
# (tests.fakegram.waiting), never deadlines for the whole wait.
# How long a game may show no change at all before a test calls it stuck. A move, a
# message or an edit anywhere in the players' chats restarts the window, so a slow
# machine never trips it; a bot that stopped moving a game does, within two minutes.
STALL_SECONDS = 120.0
# A starting bot that used no CPU, logged nothing and called nothing for this long is
# stuck (importing aiogram under load is slow, but it is work).
START_SECONDS = 60.0
# A reply the bot owes at once: with pacing on, a group's message may sleep out the
# group's budget (20 a minute) with nothing else moving, so a minute.
REPLY_SECONDS = 60.0
# After SIGTERM: no CPU, no log line for this long and the bot is hung (the SIGTERM test
# measures its 10 s itself).
EXIT_SECONDS = 60.0
# A press's answer: this long stretched by the pace, a deadline rather than a window (a
# client gives up on a press however busy the bot is elsewhere); past Telegram's window
# for one (the fake's callback_timeout) it stops waiting anyway.
PRESS_SECONDS = 15.0
JSON_PROBLEM = re.compile(r'"level": "(?:ERROR|CRITICAL)"')
# CPU of the bot's processes counts as progress once it grew by this much (a few clock
# ticks): an idle bot uses none, a bot drawing a picture under load keeps using some.
BUSY_CPU = 0.03
CPU_READ_EVERY = 0.5  # seconds between two reads of /proc (a wait checks more often)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now, for a server of the bot's."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def webhook_env(path: str = "/telegram") -> dict[str, str]:
    """The environment of a bot in webhook mode, on a free port of this machine (the fake
    posts to http://127.0.0.1: Telegram itself takes https only)."""
    port = free_port()
    return {
        "WEBHOOK_URL": f"http://127.0.0.1:{port}{path}",
        "WEBHOOK_LISTEN": f"127.0.0.1:{port}",
    }


def webapp_env(short_name: str = "table") -> dict[str, str]:
    """The environment of a bot serving its Mini App (`bot.webapp`) on its own server, on a
    free port of this machine (http: the fake takes it there, as Telegram's test
    environment does); the fake's BotFather needs `fake.add_web_app(short_name, url)`."""
    port = free_port()
    return {
        "WEBAPP_URL": f"http://127.0.0.1:{port}/",
        "WEBAPP_SHORT_NAME": short_name,
        "WEBAPP_LISTEN": f"127.0.0.1:{port}",
    }


def _die_with_parent() -> None:
    """In the child: get SIGKILL when the test process dies, so no bot outlives its test
    (Linux prctl PR_SET_PDEATHSIG; elsewhere nothing)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


def tree_cpu(pid: int) -> float | None:
    """CPU seconds used so far by process `pid` and its descendants alive now (the
    render and thinker pools' workers, forked by a forkserver child): from /proc, None
    where it cannot be read (not Linux, or the process is gone)."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0
    found = False
    todo = [pid]
    while todo:
        current = todo.pop()
        try:
            stat = Path(f"/proc/{current}/stat").read_text()
            threads = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
        found = True
        for thread in threads:
            with contextlib.suppress(OSError):
                children = Path(f"/proc/{current}/task/{thread}/children").read_text()
                todo.extend(int(child) for child in children.split())
    return total / ticks if found else None


class CpuProgress:
    """A progress source (`FakeTelegram.progress_sources`): a count that grows while the
    bot's processes use CPU, so that a bot busy drawing or thinking on a loaded machine,
    which makes no call meanwhile, is not taken for a stuck one."""

    def __init__(self, pid: Callable[[], int | None]) -> None:
        self.pid = pid
        self.count = 0
        self._counted: float | None = None
        self._read = 0.0

    def __call__(self) -> int:
        now = time.monotonic()
        if now - self._read < CPU_READ_EVERY:
            return self.count
        self._read = now
        pid = self.pid()
        used = None if pid is None else tree_cpu(pid)
        if used is None:
            return self.count
        # A worker that ended takes its CPU out of the sum: a change either way is work.
        if self._counted is None or abs(used - self._counted) >= BUSY_CPU:
            if self._counted is not None:
                self.count += 1
            self._counted = used
        return self.count


# The bots of each fake that are down: between a kill or stop and the new process's first
# long poll. A game waiting for its bot is not stalled: under load a start (importing
# aiogram above all) can take minutes.
_DOWN: weakref.WeakKeyDictionary[FakeTelegram, set[int]] = weakref.WeakKeyDictionary()

GROUP_HAND_PREFIX = GroupHandCb.__prefix__ + ":"  # «✋ Мои кости» under the table
BRING_WAIT = 10.0  # seconds without any progress a person waits for the hand it brings

# Every bot process started and not yet collected: the ones still alive when a test fails
# are asked where they wait (`BotProcess.tasks_now`, tests/e2e/conftest.py).
STARTED: weakref.WeakSet[BotProcess] = weakref.WeakSet()

# Seconds a failed test waits for a bot's dump of its tasks (a loaded machine's bot may be
# slow to log; a hung loop never answers, which says as much).
DUMP_SECONDS = 10.0


def bot_down(fake: FakeTelegram) -> bool:
    """Whether a bot of `fake` is being started again (see `Stall`)."""
    return bool(_DOWN.get(fake))


STANDBY_LINE = "standby as "  # what an instance logs while another leads
# ... or, started as a standby while nobody led (the leader paused past its lease), it
# takes the lease at once and logs this instead.
LEADER_LINE = "leader as "


class BotProcess:
    """`python -m bot` in a subprocess, pointed at the fake: forked from this test
    process's zygote, which has the imports done (`tests.e2e.zygote`), unless `forked`
    is False (a test of the start itself, or of what an interpreter reads at its start)."""

    forked = True

    def __init__(self, fake: FakeTelegram, workdir: Path, **env: str) -> None:
        self.fake = fake
        self.workdir = workdir
        # Instances of one bot share their database (`DATABASE_PATH` given), not a folder.
        self.database = Path(env.get("DATABASE_PATH") or workdir / "domino.sqlite3")
        self.log_path = workdir / "bot.log"
        self.env = {
            **os.environ,
            "BOT_TOKEN": fake.token,
            "TELEGRAM_API_BASE": fake.url,
            "DATABASE_PATH": str(self.database),
            "COMPUTER_DELAY": "0",
            "TABLE_INTERVAL": "0.2",
            "LOG_LEVEL": "INFO",
            "PYTHONUNBUFFERED": "1",
            **env,
        }
        self.process: asyncio.subprocess.Process | ZygoteProcess | None = None
        self.starts = 0
        self.cpu = CpuProgress(lambda: None if self.process is None else self.process.pid)
        fake.progress_sources.append(self.cpu)

    def signs_of_life(self) -> tuple[int, int, int]:
        """A mark that changes while the process works: its CPU, its log, its calls."""
        try:
            logged = self.log_path.stat().st_size
        except OSError:
            logged = 0
        return self.cpu(), logged, self.fake.moves

    async def start(self, *, standby: bool = False) -> None:
        """Start the bot and return once it is long-polling for updates, or (`standby`:
        another instance leads) once it waits for the lease (`bot.server.leadership`)."""
        polls_before = self.fake.long_polls
        hooks_before = len(self.fake.transcript.calls("setWebhook", ok=True))
        by_webhook = bool(self.env.get("WEBHOOK_URL"))
        process, log_from = await self.launch()

        def polling_or_gone() -> bool:
            # After a SIGKILL the fake may still hold the dead process's long poll: wait for
            # a long poll begun since this process was started.
            if process.returncode is not None:
                return True
            if standby:
                logged = self.log_path.read_bytes()[log_from:]
                return STANDBY_LINE.encode() in logged or LEADER_LINE.encode() in logged
            if by_webhook:  # set once its server listens
                return len(self.fake.transcript.calls("setWebhook", ok=True)) > hooks_before
            return self.fake.long_polls > polls_before and self.fake.long_polling

        # No fixed end: on a loaded machine importing aiogram alone can take minutes.
        watch = Watch(
            self.signs_of_life,
            window=START_SECONDS,
            what="the bot did not start (no long poll, webhook or standby yet)",
            last=lambda: self.log()[-1500:],
        )
        try:
            while not polling_or_gone():
                watch.check()
                await self.fake.poll(polling_or_gone, 1.0)
        finally:
            self._down(False)
        assert process.returncode is None, f"the bot exited at start:\n{self.log()}"

    async def launch(self) -> tuple[asyncio.subprocess.Process | ZygoteProcess, int]:
        """Spawn `python -m bot` (forked from the zygote where it can be): the process, and
        where this start's lines begin in the log. Down (`_down`) until the caller has
        seen it start."""
        if test_server() is not None and "DATABASE_URL" not in self.env:
            # The suite on PostgreSQL: the schema standing for the file (tests.databases).
            self.env["DATABASE_URL"] = await url_for(self.env["DATABASE_PATH"])
        self._down(True)
        with self.log_path.open("ab") as log:
            log.write(f"--- start {self.starts + 1}\n".encode())
        began = self.log_path.stat().st_size
        if self.forked and forking():
            self.process = await start_bot(cwd=ROOT, env=self.env, log=self.log_path)
        else:
            with self.log_path.open("ab") as log:
                self.process = await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "bot",
                    cwd=ROOT,
                    env=self.env,
                    stdout=log,
                    stderr=log,
                    preexec_fn=_die_with_parent,
                )
        self.starts += 1
        STARTED.add(self)
        return self.process, began

    def _down(self, down: bool) -> None:
        bots = _DOWN.setdefault(self.fake, set())
        if down:
            bots.add(id(self))
        else:
            bots.discard(id(self))

    async def stop(self, timeout: float = 10.0) -> int:
        """SIGTERM, and the exit code. `timeout` is no fixed end: the bot may take as long
        as it works (CPU, log lines, calls); it is hung, and `TimeoutError` raised, once it
        has shown none of that for `timeout` seconds (stretched by the machine's pace)."""
        assert self.process is not None
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        exited = asyncio.ensure_future(self.process.wait())
        watch = Watch(
            self.signs_of_life,
            window=timeout,
            what="the bot did not exit after SIGTERM",
            last=lambda: self.log()[-1500:],
        )
        try:
            while not exited.done():
                watch.check()
                await asyncio.wait({exited}, timeout=0.5)
        finally:
            exited.cancel()
        return exited.result()

    async def kill(self) -> None:
        assert self.process is not None
        self._down(True)  # until `start`
        self.process.kill()
        await self.process.wait()

    async def restart(self, *, kill: bool = True) -> None:
        if kill:
            await self.kill()
        else:
            await self.stop()
        await self.start()

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def alive(self) -> bool:
        return self.process is not None and self.process.returncode is None

    def tasks_now(self, timeout: float = DUMP_SECONDS) -> str:
        """Where each of the running bot's asyncio tasks waits (SIGUSR2,
        `bot.infra.task_dump`), as it logs it; blocking, for a failed test's report while
        the bot still runs. Empty if it is gone or does not answer within `timeout`."""
        if not self.alive():
            return ""
        assert self.process is not None
        start = self.log_path.stat().st_size
        os.kill(self.process.pid, signal.SIGUSR2)
        until = time.monotonic() + timeout
        while time.monotonic() < until:
            logged = self.log_path.read_bytes()[start:].decode("utf-8", errors="replace")
            lines = logged.splitlines()
            heads = [i for i, line in enumerate(lines) if TASKS_LINE in line]
            if heads:
                count = int(lines[heads[0]].rsplit(TASKS_LINE, 1)[1].split()[0])
                dump = [line for line in lines[heads[0] + 1 :] if " task " in line]
                if len(dump) >= count:
                    return "\n".join([lines[heads[0]], *dump[:count]])
            time.sleep(0.2)
        return f"(no dump of its tasks in {timeout:g} s)"

    def problems(self) -> list[str]:
        """Log lines that show something went wrong inside the bot (`LOG_FORMAT=json`'s
        lines too). Not one: the traceback of a killed bot's forkserver (the pools'
        process starter, sharing the bot's stderr) that finds its parent gone in the
        middle of starting a worker (`EOFError` in `multiprocessing/forkserver.py`): a
        SIGKILL's echo, not the bot's code."""
        lines = self.log().splitlines()
        echoes = killed_forkserver_lines(lines)
        return [
            line
            for index, line in enumerate(lines)
            if index not in echoes
            and (
                "Traceback" in line
                or " ERROR " in line
                or " CRITICAL " in line
                or JSON_PROBLEM.search(line)
            )
        ]

    def problem_report(self, *, before: int = 3, after: int = 40) -> str:
        """Each problem line of the log (`problems`) with the lines around it (a
        traceback whole), the run it came in named: what an assertion shows, since the
        log's tail may be far from the problem (a test of twenty restarts)."""
        lines = self.log().splitlines()
        marks = set(self.problems())
        shown: list[str] = []
        last = -1
        run = "?"
        for index, line in enumerate(lines):
            if line.startswith("--- start "):
                run = line.removeprefix("--- start ")
            if line not in marks or index <= last:
                continue
            end = min(len(lines), index + after + 1)
            shown.append(f"--- run {run}, line {index + 1}:")
            shown.extend(lines[max(last + 1, index - before) : end])
            last = end - 1
        return "\n".join(shown) if shown else self.log()[-4000:]

    def stored_match(self, game_id: int | None = None) -> Match:
        """The match as the bot stored it (read-only, committed state)."""
        if game_id is None:
            rows = self.stored("SELECT match FROM games ORDER BY id DESC LIMIT 1")
        else:
            rows = self.stored("SELECT match FROM games WHERE id = ?", game_id)
        assert rows and rows[0][0], "no started game in the database"
        return Match.from_json(str(rows[0][0]))

    def match_over(self) -> bool:
        """Whether the newest game has ended (its match over, or cancelled)."""
        rows = self.stored("SELECT status FROM games ORDER BY id DESC LIMIT 1")
        return bool(rows) and rows[0][0] in ("finished", "cancelled")

    def stored(self, sql: str, *params: object) -> list[Any]:
        """Rows of the bot's database (committed state), by column name or position."""
        return stored_rows(self.database, sql, *params)


@contextlib.asynccontextmanager
async def running_bot(fake: FakeTelegram, workdir: Path, **env: str) -> AsyncIterator[BotProcess]:
    """The bot started with `env`; at the end it gets SIGTERM and must exit cleanly (code 0,
    within `EXIT_SECONDS`), with no error in its log."""
    process = BotProcess(fake, workdir, **env)
    await process.start()
    try:
        yield process
    finally:
        # The 10 s a supervisor gives is the SIGTERM test's subject, measured there; here
        # a loaded machine may take longer to tear the interpreter down.
        code = await process.stop(timeout=EXIT_SECONDS)
        log = process.log()
        assert code == 0, f"the bot exited with {code}:\n{log[-4000:]}"
        assert not process.problems(), f"errors in the bot's log:\n{process.problem_report()}"


@dataclass
class Person:
    """A person at the table, playing from their private chat."""

    fake: FakeTelegram
    user: FakeUser
    presses: int = 0
    press_timeout: float = PRESS_SECONDS  # seconds to wait for a press's answer

    @property
    def chat(self) -> FakeChat:
        return self.user.private_chat

    def hand(self) -> StoredMessage | None:
        """The newest hand message (the one with tile buttons), if any."""
        for message in reversed(self.chat.bot_messages):
            if any(is_hand_button(b.callback_data) for b in message.buttons):
                return message
        return None

    def my_turn(self) -> bool:
        hand = self.hand()
        return hand is not None and ("Ваш ход" in hand.content or "Your turn" in hand.content)

    def choice(self, hand: StoredMessage) -> str | None:
        """The callback data a simple person presses now: the first marked tile, the first
        end offered, else draw or knock."""
        buttons = [b.callback_data for b in hand.buttons if is_hand_button(b.callback_data)]
        kinds = {data: kind_of(data) for data in buttons if data}
        for wanted in (Press.PLAY, Press.ENDS, Press.DRAW, Press.KNOCK):
            for data, kind in kinds.items():
                if kind == wanted:
                    return data
        return None

    async def take_turn(self) -> bool:
        """Make one press if it is this person's turn; True if a press was made."""
        hand = self.hand()
        if hand is None or not self.my_turn():
            return False
        data = self.choice(hand)
        if data is None:
            return False
        answer = await self.user.press(hand, data=data, timeout=self.press_timeout)
        self.presses += 1
        self.answered(data, answer)
        return True

    def answered(self, data: str, answer: CallbackAnswer) -> None:
        """What a press of `data` was answered with; a plain person does not keep it."""


@dataclass
class GroupPerson(Person):
    """A person at the table who plays from inside the group: their hand is the
    ephemeral message only they see there, brought by «✋ Мои кости» under the table
    (again whenever it is gone: expired, or sent while they were offline)."""

    group: FakeChat | None = None
    brought: int = 0  # presses on «✋ Мои кости»

    @property
    def chat(self) -> FakeChat:
        assert self.group is not None
        return self.group

    def hand(self) -> StoredMessage | None:
        """The newest ephemeral hand this person sees in the group, if any."""
        for message in reversed(self.chat.ephemeral_for(self.user)):
            if any(is_hand_button(b.callback_data) for b in message.buttons):
                return message
        return None

    def table_message(self) -> StoredMessage | None:
        """The group's live table: the newest message with «✋ Мои кости»."""
        for message in reversed(self.chat.bot_messages):
            if not message.deleted and any(
                (b.callback_data or "").startswith(GROUP_HAND_PREFIX) for b in message.buttons
            ):
                return message
        return None

    async def bring_hand(self) -> CallbackAnswer | None:
        """Press «✋ Мои кости» under the table; the answer (None: no table to press)."""
        table = self.table_message()
        if table is None:
            return None
        data = next(
            b.callback_data
            for b in table.buttons
            if (b.callback_data or "").startswith(GROUP_HAND_PREFIX)
        )
        answer = await self.user.press(table, data=data, timeout=self.press_timeout)
        self.brought += 1
        return answer

    async def take_turn(self) -> bool:
        """Bring the hand if there is none (and the table offers it), then as `Person`.
        After a press on «✋ Мои кости» the person waits for the hand before pressing
        it again."""
        if self.hand() is None:
            answer = await self.bring_hand()
            if answer is None or answer.show_alert:
                return False
            # A paced group's queue may hold the hand back a while, and an offline
            # person's never comes: wait as long as things move, then press again.
            with contextlib.suppress(TimeoutError):
                await self.fake.wait_for(lambda: self.hand() is not None, timeout=BRING_WAIT)
            return True
        return await super().take_turn()


FORKSERVER_MAIN = 'File "<string>", line 1, in <module>'


def killed_forkserver_lines(lines: Sequence[str]) -> set[int]:
    """The indices of every traceback in `lines` that multiprocessing's forkserver
    prints when the process it serves is killed while it reads a request: frames of
    `multiprocessing` alone, `forkserver.py` among them, ending in an `EOFError` (bare,
    or "Ran out of input" when the kill came while a new worker read its start-up
    data in `spawn.py`)."""
    found: set[int] = set()
    index = 0
    while index < len(lines):
        if lines[index].startswith("Traceback (most recent call last):"):
            end = index + 1
            while end < len(lines) and lines[end].startswith(" "):
                end += 1
            block = lines[index : end + 1]
            files = [line for line in block if line.lstrip().startswith('File "')]
            if (
                end < len(lines)
                and (lines[end] == "EOFError" or lines[end].startswith("EOFError: "))
                and any("multiprocessing/forkserver.py" in line for line in files)
                # The forkserver runs as `python -c "from multiprocessing.forkserver import
                # main; main(...)"`: its first frame is that `<string>` line.
                and all("/multiprocessing/" in line or FORKSERVER_MAIN in line for line in files)
            ):
                found.update(range(index, end + 1))
            index = end
        index += 1
    return found


def chats_of(fake: FakeTelegram, users: Iterable[FakeUser]) -> list[FakeChat]:
    """The users' private chats and every group or supergroup any of them is in."""
    ids = {user.id for user in users}
    chats = [fake.users[uid].private_chat for uid in ids if uid in fake.users]
    chats += [
        chat
        for chat in list(fake.chats.values())
        if chat.type is not ChatType.PRIVATE and ids & chat.members.keys()
    ]
    return chats


def progress_mark(chats: Iterable[FakeChat]) -> int:
    """A count that grows with every message and every edit in `chats` (messages are never
    removed from a chat, only marked deleted, so it never shrinks)."""
    return sum(len(m.history) + 1 for chat in chats for m in list(chat.messages.values()))


class Stall(Watch):
    """A deadline that moves while something moves.

    `check()` raises `TimeoutError` only when `progress()` has returned the same value
    for `window` seconds on end, stretched by the machine's pace (`Watch`); any change
    starts the window again, and so does every check while `paused()` holds (the bot being
    started again after a kill). Pair it with short waits:
    `while not done(): stall.check(); await fake.poll(done, 1)`. With no net of windows:
    what it watches is what a person sees, which a bot busy in a loop does not change.
    """

    def __init__(
        self,
        progress: Callable[[], object],
        *,
        window: float = STALL_SECONDS,
        what: str = "the game did not reach its end",
        paused: Callable[[], bool] | None = None,
    ) -> None:
        super().__init__(progress, window=window, what=what, paused=paused, cap=None)

    @classmethod
    def of_chats(
        cls,
        fake: FakeTelegram,
        users: Iterable[FakeUser],
        *,
        window: float = STALL_SECONDS,
        what: str = "the game did not reach its end",
    ) -> Stall:
        """A stall watch over every message and edit in the users' chats and groups."""
        people = list(users)
        return cls(lambda: progress_mark(chats_of(fake, people)), window=window, what=what)


async def wait_progressing(
    fake: FakeTelegram, predicate: Callable[[], bool], stall: Stall, *, step: float = 1.0
) -> None:
    """Wait for `predicate()` for as long as `stall` sees progress."""
    while not predicate():
        stall.check()
        await fake.poll(predicate, step)


def bot_calls(fake: FakeTelegram) -> int:
    """How many calls the bot has made so far, long polls left out."""
    return sum(1 for call in fake.transcript.calls() if call.method.lower() != "getupdates")


async def settle(fake: FakeTelegram, *, quiet: float = 0.15, stall: float = STALL_SECONDS) -> None:
    """`fake.idle()` with a stall window: while the bot keeps working (a loaded machine
    only makes it take longer) the wait goes on; it fails when updates stay untaken or a
    call unanswered with nothing moving at all (no call, no CPU) for `stall` seconds."""
    await fake.idle(quiet, timeout=stall)


async def play_until(
    fake: FakeTelegram,
    people: Sequence[Person],
    done: Callable[[], bool],
    *,
    timeout: float | None = None,
    stall: float = STALL_SECONDS,
) -> None:
    """The people play whenever it is their turn, until `done()`.

    There is no fixed deadline: the wait fails only when the game shows no change (no
    press, no message, no edit in the people's chats and groups) for `stall` seconds.
    `timeout`, if given, also caps the whole wait (only for tests about speed).
    """
    loop = asyncio.get_running_loop()
    cap = None if timeout is None else loop.time() + timeout
    users = [p.user for p in people]

    def progress() -> tuple[int, int]:
        return sum(p.presses for p in people), progress_mark(chats_of(fake, users))

    watch = Stall(progress, window=stall, paused=lambda: bot_down(fake))

    def ready() -> bool:
        return done() or any(
            p.my_turn() and p.choice(hand) for p in people if (hand := p.hand()) is not None
        )

    while not done():
        try:
            watch.check()
        except TimeoutError as exc:
            raise TimeoutError(f"{exc}; the hands now:\n{hands_now(people)}") from None
        if cap is not None and loop.time() > cap:
            raise TimeoutError(f"the game did not reach its end within {timeout} s")
        moved = False
        for person in people:
            if await person.take_turn():
                moved = True
        if not moved:
            await fake.poll(ready, 2.0)


def hands_now(people: Sequence[Person]) -> str:
    """Each person's newest hand message and its buttons, for a stall's report."""
    lines = []
    for person in people:
        hand = person.hand()
        shown = "no hand" if hand is None else hand.content.replace("\n", " / ")
        buttons = [] if hand is None else [b.callback_data for b in hand.buttons]
        lines.append(f"  {person.user.first_name}: {shown} {buttons}")
    return "\n".join(lines)


async def play_across_matches(
    fake: FakeTelegram,
    bot: BotProcess,
    game: Table,
    done: Callable[[], bool],
    *,
    computers: int = 0,
) -> None:
    """`play_until(done)`, and when the match ends first, a new one in the same group
    with the same people, as many times as it takes (`game` then shows the newest).

    For tests that need some stretch of play, not a whole match: a deal can end a
    match of Козёл in one round (a fish of 101 or more), so no length is certain."""
    while True:
        await play_until(fake, game.people, lambda: done() or bot.match_over())
        if done():
            return
        await settle(fake)  # the match's end announced before the next lobby opens
        again = await open_game(
            fake, [p.user for p in game.people], computers=computers, group=game.group
        )
        game.lobby, game.table = again.lobby, again.table


TILE_FORMS = ("{a}-{b}", "{a}|{b}", "[{a}|{b}]")
ROUND_MARK = re.compile(r"(?:раунд|round) (\d+)")


def assert_hands_private(
    fake: FakeTelegram, match: Match, owners: dict[int, int], *, since: int = 0
) -> int:
    """No tile of a hand ever appears outside its owner's private chat.

    `owners` maps seats to the user ids of the people in them (computers have no
    chat). Rounds are replayed from the stored seed and log, so every hand the engine
    dealt or drew is known; an exposure that names its round ("раунд N") is checked
    against that round's hands, any other against every hand of the match. The group
    must never show a tile of a hand in text (the picture shows the table), but for
    Втемную's tiles turned up that fitted nowhere, which everyone saw, in a text that
    names their round (the caption). In Втемную a tile that lay face down in its
    owner's stack and was never turned up for them is secret from its owner too: their
    own chat must not name it either (`unseen_hands`). `since`: the exposures before it
    (`len(fake.exposures)` when `match` began) belong to an earlier match of the same
    people, checked against that one. Returns the number of exposures checked.
    """
    rounds = dealt_hands(match)
    unseen, flipped = unseen_hands(match)
    people = set(owners.values())
    # The forms the bot writes tiles in; ":" is left out because callback data such as
    # "l1:1:j" is full of colons and never carries a tile written that way.
    privacy = HandPrivacy(fake, forms=TILE_FORMS)
    checked = 0
    for exposure in fake.exposures[since:]:
        mark = ROUND_MARK.search(exposure.text)
        indices = (
            [int(mark.group(1)) - 1]
            if mark and int(mark.group(1)) <= len(rounds)
            else list(range(len(rounds)))
        )
        viewer = exposure.audience if exposure.audience is not None else exposure.chat_id
        # A text that names no round ("Из базара: 3-5", a press's answer) may show the
        # viewer a tile of their own hand of that moment, which another seat may have
        # held in another round: only tiles the viewer never held can be a leak there.
        own: set[str] = set()
        if len(indices) > 1:
            for seat, owner in owners.items():
                if owner == viewer:
                    for index, hands in enumerate(rounds):
                        own |= hands.get(seat, set()) - unseen[index].get(seat, set())
        for index in indices:
            # Втемную: the round's tiles turned up for all to see, in a text of the round.
            public = flipped[index] if mark and viewer not in people else set()
            for seat, tiles in rounds[index].items():
                if viewer == owners.get(seat):
                    tiles = unseen[index].get(seat, set())  # even its owner never saw these
                for tile in tiles - own - public:
                    assert not privacy.pattern(tile).search(exposure.text), (
                        f"tile {tile} of seat {seat} shown to {viewer} "
                        f"({exposure.kind}): {exposure.text[:300]!r}"
                    )
        checked += 1
    return checked


def dealt_hands(match: Match) -> list[dict[int, set[str]]]:
    """Per round, per seat: every tile the seat held at any time (dealt or drawn)."""
    replayed = Match.replay(match.ruleset, match.players, match.seed, [])
    rounds: list[dict[int, set[str]]] = []
    entries = list(match.log)
    index = 0
    for round_no in range(1, match.round_no + 1):
        current: Round = replayed.round
        held = {seat: {str(t) for t in current.hand(seat)} for seat in range(match.players)}
        while index < len(entries) and entries[index].round_no == round_no:
            entry = entries[index]
            replayed.apply(entry.action, entry.seat)
            index += 1
            if replayed.round_no == round_no:
                for seat in range(match.players):
                    held[seat] |= {str(t) for t in replayed.round.hand(seat)}
            elif replayed.finished_round is not None:
                for seat in range(match.players):
                    held[seat] |= {str(t) for t in replayed.finished_round.hand(seat)}
        rounds.append(held)
    return rounds


def unseen_hands(match: Match) -> tuple[list[dict[int, set[str]]], list[set[str]]]:
    """Втемную, per round: per seat the tiles it held only face down, in its stack, never
    turned up for its owner (neither in a hand nor as the stack's last tiles); and the
    tiles turned up from a stack that fitted nowhere (`Flipped`: everyone saw them before
    they went under the stack). Empty in the other games."""
    replayed = Match.replay(match.ruleset, match.players, match.seed, [])
    entries = list(match.log)
    index = 0
    unseen: list[dict[int, set[str]]] = []
    flipped: list[set[str]] = []
    for round_no in range(1, match.round_no + 1):
        down: dict[int, set[str]] = {seat: set() for seat in range(match.players)}
        seen: dict[int, set[str]] = {seat: set() for seat in range(match.players)}
        turned: set[str] = set()
        _look(replayed.round, down, seen)
        while index < len(entries) and entries[index].round_no == round_no:
            entry = entries[index]
            event = replayed.apply(entry.action, entry.seat)
            index += 1
            if isinstance(event, Flipped | TurnedUp):  # everyone saw it turned up
                turned.add(str(event.tile))
            if isinstance(event, TurnedUp):  # its owner's hand offers its two ends
                seen[event.seat].add(str(event.tile))
            if replayed.round_no == round_no:
                _look(replayed.round, down, seen)
            elif replayed.finished_round is not None:
                _look(replayed.finished_round, down, seen)
        unseen.append({seat: down[seat] - seen[seat] for seat in down})
        flipped.append(turned)
    return unseen, flipped


def _look(current: Round, down: dict[int, set[str]], seen: dict[int, set[str]]) -> None:
    """Each seat's tiles in `current`, into `down` where they lie face down, else `seen`."""
    for seat in down:
        tiles = {str(t) for t in current.hand(seat)}
        if current.face_down(seat):
            down[seat] |= tiles
        else:
            seen[seat] |= tiles


# The table picture's caption begins «<variant> · раунд N»; announcements never say so.
TABLE_TITLE = re.compile(r" · (?:раунд|round) \d+")


@dataclass
class Table:
    """A game set up through the lobby, as the tests drive it. `table` is the game's
    live table message: the bot sends it anew at a round's start when newer messages
    buried it, and deletes the one before (`live_table`)."""

    group: FakeChat
    lobby: StoredMessage
    people: list[Person]
    first_table: StoredMessage | None

    @property
    def table(self) -> StoredMessage | None:
        return live_table(self.group, self.first_table)

    @table.setter
    def table(self, message: StoredMessage | None) -> None:
        self.first_table = message


def live_table(group: FakeChat, table: StoredMessage | None) -> StoredMessage | None:
    """The table message that replaced `table` if the bot deleted it: the bot's next
    table picture in the group, and so on (`table` itself while it stands)."""
    messages = list(group.messages.values())
    while table is not None and table.deleted:
        place = next(k for k, m in enumerate(messages) if m is table)
        following = (
            m
            for m in messages[place + 1 :]
            if m.from_bot and m.photo is not None and TABLE_TITLE.search(m.content)
        )
        replacement = next(following, None)
        if replacement is None:
            return table
        table = replacement
    return table


async def open_game(
    fake: FakeTelegram,
    people: list[FakeUser],
    *,
    computers: int = 0,
    seats: int | None = None,
    start: bool = True,
    title: str = "Домино во дворе",
    supergroup: bool = False,
    turn_timer: TurnTimer | None = TurnTimer.OFF,
    group: FakeChat | None = None,
    in_group: Sequence[FakeUser] = (),
    game: str = "",
    hands: HandsPlace | None = None,
) -> Table:
    """People who pressed Start in the bot's chat open a lobby, sit down, fill the other
    seats with computers and (if `start`) start; the first person is the creator.
    `in_group`: those of `people` who never open the bot's private chat and play from
    inside the group (`GroupPerson`; the group shows hands there, its default). `game`:
    the game /domino names (its key, e.g. "osel"; the group's default if empty).

    The creator, the group's admin, first sets the group's turn timer to `turn_timer`
    (default off: no clock moves the game behind the test's back); None leaves the
    group's setting alone (the bot's default, 60 s). `hands`: where the new group shows
    hands, set by the creator too (None: the default, both the group and private; a
    group set to private sends a person who never started the bot by the join link).
    `group`: a group where these people played before (its settings stay), instead of a
    new one."""
    creator = people[0]
    if group is None:
        group = fake.add_group(title, members=people, admins=people[:1], supergroup=supergroup)
        for user in people:
            if user in in_group:
                continue
            await user.start()
            await user.private_chat.wait_for_message(
                lambda m: "Привет" in m.content, timeout=REPLY_SECONDS
            )
        if turn_timer is not None:
            await set_turn_timer(group, creator, turn_timer)
        if hands is not None:
            await set_group_hands(group, creator, hands)
    before = group.bot_messages[-1] if group.bot_messages else None
    await creator.command(group, "domino", game)
    lobby = await group.wait_for_message(
        lambda m: "Игроки" in m.content, after=before, timeout=REPLY_SECONDS
    )
    seats = seats or max(2, len(people) + computers)
    while f"Игроков: {seats}" not in lobby.content:
        shown = lobby.content
        await creator.press(lobby, data=button_data(lobby, "👥"), timeout=PRESS_SECONDS)
        await wait_edited(fake, lobby, shown)
    for user in people[1:]:
        answer = await user.press(lobby, data=button_data(lobby, "Играю"), timeout=PRESS_SECONDS)
        assert answer.answered and answer.url is None, answer
    for _ in range(computers):
        await creator.press(lobby, data=button_data(lobby, "компьютер"), timeout=PRESS_SECONDS)
    seated = len(people) + computers
    await group.wait_for_message(
        lambda m: f"({seated}/{seats})" in m.content, after=before, timeout=REPLY_SECONDS
    )
    table = None
    if start:
        answer = await creator.press(
            lobby, data=button_data(lobby, "Начать"), timeout=PRESS_SECONDS
        )
        assert answer.answered and not answer.show_alert, answer
        # With pacing on, the group's table waits its turn behind the lobby's edits.
        table = await group.wait_for_message(
            lambda m: m.photo is not None, after=lobby, timeout=REPLY_SECONDS
        )
    players = [
        GroupPerson(fake, user, group=group) if user in in_group else Person(fake, user)
        for user in people
    ]
    return Table(group, lobby, players, table)


async def open_settings(
    group: FakeChat, admin: FakeUser, section: SettingsSection
) -> StoredMessage:
    """`admin` sends /settings in `group` and opens its `section`, as a person would;
    returns the settings message once it shows that section's choices."""
    before = group.bot_messages[-1] if group.bot_messages else None
    await admin.command(group, "settings")
    data = SettingsCb(section=section).pack()
    shown = await group.wait_for_message(
        lambda m: any(b.callback_data == data for b in m.buttons),
        after=before,
        timeout=REPLY_SECONDS,
    )
    answer = await admin.press(shown, data=data, timeout=PRESS_SECONDS)
    assert answer.answered and not answer.show_alert, answer
    back = SettingsCb(section=SettingsSection.MAIN).pack()
    await group.wait_for_message(
        lambda m: m is shown and any(b.callback_data == back for b in m.buttons),
        timeout=REPLY_SECONDS,
    )
    return shown


async def set_turn_timer(
    group: FakeChat, admin: FakeUser, timer: TurnTimer = TurnTimer.OFF
) -> StoredMessage:
    """`admin` sends /settings in `group`, opens the timer and presses `timer`, as a person
    would; returns once the bot has stored it (its answer to the press comes after the
    write)."""
    shown = await open_settings(group, admin, SettingsSection.TIMER)
    answer = await admin.press(shown, data=TimerCb(timer=timer.value).pack(), timeout=PRESS_SECONDS)
    assert answer.answered and not answer.show_alert, answer
    return shown


async def set_group_hands(group: FakeChat, admin: FakeUser, place: HandsPlace) -> StoredMessage:
    """`admin` sends /settings in `group`, opens where hands are shown and presses `place`,
    as a person would; returns once the bot has stored it."""
    shown = await open_settings(group, admin, SettingsSection.HANDS)
    answer = await admin.press(shown, data=HandsCb(place=place.value).pack(), timeout=PRESS_SECONDS)
    assert answer.answered and not answer.show_alert, answer
    return shown


async def set_group_language(group: FakeChat, admin: FakeUser, lang: str) -> StoredMessage:
    """`admin` sends /settings in `group`, opens the language and presses `lang` ("ru",
    "en"), as a person would; returns once the bot has stored it."""
    shown = await open_settings(group, admin, SettingsSection.LANG)
    answer = await admin.press(shown, data=GroupLangCb(lang=lang).pack(), timeout=PRESS_SECONDS)
    assert answer.answered and not answer.show_alert, answer
    return shown


async def wait_edited(
    fake: FakeTelegram, message: StoredMessage, shown: str, *, timeout: float = REPLY_SECONDS
) -> None:
    """Until `message` shows something other than `shown`."""
    await fake.wait_for(lambda: message.content != shown, timeout=timeout)


def button_data(message: StoredMessage, fragment: str) -> str:
    for button in message.buttons:
        if fragment in button.text and button.callback_data:
            return button.callback_data
    raise LookupError(f"no button with {fragment!r}: {[b.text for b in message.buttons]}")
