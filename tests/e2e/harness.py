"""The bot as a real process against tests/fakegram, and scripted people who play.

`BotProcess` starts `python -m bot` exactly as the README's run command does (only
the environment differs: the fake's URL and token, a database in a temporary folder,
no pause for computer players), and can stop it with SIGTERM or kill it with SIGKILL
and start it again on the same database. Its log is kept and checked: an unhandled
exception anywhere fails the test that caused it.

`Person` plays from their private chat the way a person would: reads the hand
message, presses a marked tile (choosing an end when asked), draws or knocks.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

from domino.match import Match
from domino.round import Round
from tests.fakegram import CallbackAnswer, FakeTelegram
from tests.fakegram.privacy import HandPrivacy
from tests.fakegram.world import FakeChat, FakeUser, StoredMessage

ROOT = Path(__file__).resolve().parents[2]
MOVE_PREFIX = "m1:"


def _die_with_parent() -> None:
    """In the child: get SIGKILL when the test process dies, so no bot outlives its test
    (Linux prctl PR_SET_PDEATHSIG; elsewhere nothing)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


class BotProcess:
    """`python -m bot` in a subprocess, pointed at the fake."""

    def __init__(self, fake: FakeTelegram, workdir: Path, **env: str) -> None:
        self.fake = fake
        self.workdir = workdir
        self.database = workdir / "domino.sqlite3"
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
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0

    async def start(self) -> None:
        """Start the bot and return once it is long-polling for updates."""
        log = self.log_path.open("ab")
        log.write(f"--- start {self.starts + 1}\n".encode())
        log.flush()
        polls_before = self.fake.long_polls
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
        log.close()
        self.starts += 1
        process = self.process

        def polling_or_gone() -> bool:
            # After a SIGKILL the fake may still hold the dead process's long poll: wait for
            # a long poll begun since this process was started.
            if process.returncode is not None:
                return True
            return self.fake.long_polls > polls_before and self.fake.long_polling

        await self.fake.wait_for(polling_or_gone, timeout=60)
        assert process.returncode is None, f"the bot exited at start:\n{self.log()}"

    async def stop(self, timeout: float = 10.0) -> int:
        """SIGTERM, and the exit code (the bot must be gone within `timeout`)."""
        assert self.process is not None
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(self.process.wait(), timeout)

    async def kill(self) -> None:
        assert self.process is not None
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

    def problems(self) -> list[str]:
        """Log lines that show something went wrong inside the bot."""
        return [
            line
            for line in self.log().splitlines()
            if "Traceback" in line or " ERROR " in line or " CRITICAL " in line
        ]

    def stored_match(self, game_id: int | None = None) -> Match:
        """The match as the bot stored it (read-only, committed state)."""
        with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True) as db:
            if game_id is None:
                row = db.execute("SELECT match FROM games ORDER BY id DESC LIMIT 1").fetchone()
            else:
                row = db.execute("SELECT match FROM games WHERE id = ?", (game_id,)).fetchone()
        assert row and row[0], "no started game in the database"
        return Match.from_json(row[0])

    def stored(self, sql: str, *params: object) -> list[tuple[object, ...]]:
        with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True) as db:
            return list(db.execute(sql, params).fetchall())


@contextlib.asynccontextmanager
async def running_bot(fake: FakeTelegram, workdir: Path, **env: str) -> AsyncIterator[BotProcess]:
    """The bot started with `env`; at the end it gets SIGTERM and must exit cleanly within
    10 s, with no error in its log."""
    process = BotProcess(fake, workdir, **env)
    await process.start()
    try:
        yield process
    finally:
        code = await process.stop()
        log = process.log()
        assert code == 0, f"the bot exited with {code}:\n{log[-4000:]}"
        assert not process.problems(), f"errors in the bot's log:\n{log[-6000:]}"


@dataclass
class Person:
    """A person at the table, playing from their private chat."""

    fake: FakeTelegram
    user: FakeUser
    presses: int = 0
    press_timeout: float = 15.0  # seconds to wait for a press's answer

    @property
    def chat(self) -> FakeChat:
        return self.user.private_chat

    def hand(self) -> StoredMessage | None:
        """The newest hand message (the one with tile buttons), if any."""
        for message in reversed(self.chat.bot_messages):
            if any((b.callback_data or "").startswith(MOVE_PREFIX) for b in message.buttons):
                return message
        return None

    def my_turn(self) -> bool:
        hand = self.hand()
        return hand is not None and ("Ваш ход" in hand.content or "Your turn" in hand.content)

    def choice(self, hand: StoredMessage) -> str | None:
        """The callback data a simple person presses now: the first marked tile, the first
        end offered, else draw or knock."""
        moves = [b for b in hand.buttons if (b.callback_data or "").startswith(MOVE_PREFIX)]
        kinds = {b.callback_data: b.callback_data.split(":")[3] for b in moves if b.callback_data}
        for wanted in ("p", "e", "d", "k"):
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


async def play_until(
    fake: FakeTelegram, people: list[Person], done: Callable[[], bool], *, timeout: float = 240
) -> None:
    """The people play whenever it is their turn, until `done()`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not done():
        if loop.time() > deadline:
            raise TimeoutError("the game did not reach its end in time")
        moved = False
        for person in people:
            if await person.take_turn():
                moved = True
        if not moved:
            try:
                await fake.wait_for(
                    lambda: (
                        done()
                        or any(
                            p.my_turn() and p.choice(p.hand())
                            for p in people
                            if p.hand() is not None
                        )
                    ),
                    timeout=min(30.0, max(0.1, deadline - loop.time())),
                )
            except TimeoutError:
                continue


TILE_FORMS = ("{a}-{b}", "{a}|{b}", "[{a}|{b}]")
ROUND_MARK = re.compile(r"(?:раунд|round) (\d+)")


def assert_hands_private(fake: FakeTelegram, match: Match, owners: dict[int, int]) -> int:
    """No tile of a hand ever appears outside its owner's private chat.

    `owners` maps seats to the user ids of the people in them (computers have no
    chat). Rounds are replayed from the stored seed and log, so every hand the engine
    dealt or drew is known; an exposure that names its round ("раунд N") is checked
    against that round's hands, any other against every hand of the match. The group
    must never show a tile in text at all (the picture shows the table). Returns the
    number of exposures checked.
    """
    rounds = dealt_hands(match)
    # The forms the bot writes tiles in; ":" is left out because callback data such as
    # "l1:1:j" is full of colons and never carries a tile written that way.
    privacy = HandPrivacy(fake, forms=TILE_FORMS)
    checked = 0
    for exposure in fake.exposures:
        mark = ROUND_MARK.search(exposure.text)
        candidates = (
            [rounds[int(mark.group(1)) - 1]]
            if mark and int(mark.group(1)) <= len(rounds)
            else rounds
        )
        viewer = exposure.audience if exposure.audience is not None else exposure.chat_id
        # A text that names no round ("Из базара: 3-5", a press's answer) may show the
        # viewer a tile of their own hand of that moment, which another seat may have
        # held in another round: only tiles the viewer never held can be a leak there.
        own: set[str] = set()
        if len(candidates) > 1:
            for seat, owner in owners.items():
                if owner == viewer:
                    for hands in rounds:
                        own |= hands.get(seat, set())
        for hands in candidates:
            for seat, tiles in hands.items():
                owner = owners.get(seat)
                if viewer == owner:
                    continue
                for tile in tiles - own:
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


@dataclass
class Table:
    """A game set up through the lobby, as the tests drive it."""

    group: FakeChat
    lobby: StoredMessage
    people: list[Person]
    table: StoredMessage | None


async def open_game(
    fake: FakeTelegram,
    people: list[FakeUser],
    *,
    computers: int = 0,
    seats: int | None = None,
    start: bool = True,
    title: str = "Домино во дворе",
    supergroup: bool = False,
) -> Table:
    """People who pressed Start in the bot's chat open a lobby, sit down, fill the other
    seats with computers and (if `start`) start; the first person is the creator."""
    group = fake.add_group(title, members=people, admins=people[:1], supergroup=supergroup)
    for user in people:
        await user.start()
        await user.private_chat.wait_for_message(lambda m: "Привет" in m.content)
    creator = people[0]
    await creator.command(group, "domino")
    lobby = await group.wait_for_message(lambda m: "Игроки" in m.content)
    seats = seats or max(2, len(people) + computers)
    while f"Игроков: {seats}" not in lobby.content:
        shown = lobby.content
        await creator.press(lobby, data=button_data(lobby, "👥"))
        await group.wait_for_message(
            lambda m, shown=shown: m is lobby and m.content != shown, timeout=60
        )
    for user in people[1:]:
        answer = await user.press(lobby, data=button_data(lobby, "Играю"))
        assert answer.answered and answer.url is None, answer
    for _ in range(computers):
        await creator.press(lobby, data=button_data(lobby, "компьютер"))
    seated = len(people) + computers
    await group.wait_for_message(lambda m: f"({seated}/{seats})" in m.content, timeout=60)
    table = None
    if start:
        answer = await creator.press(lobby, data=button_data(lobby, "Начать"))
        assert answer.answered and not answer.show_alert, answer
        # With pacing on, the group's table waits its turn behind the lobby's edits.
        table = await group.wait_for_message(lambda m: m.photo is not None, timeout=60)
    return Table(group, lobby, [Person(fake, user) for user in people], table)


def button_data(message: StoredMessage, fragment: str) -> str:
    for button in message.buttons:
        if fragment in button.text and button.callback_data:
            return button.callback_data
    raise LookupError(f"no button with {fragment!r}: {[b.text for b in message.buttons]}")
