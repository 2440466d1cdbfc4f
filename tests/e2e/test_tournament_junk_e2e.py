"""Forged and misplaced presses of tournament buttons change nothing (docs/tournaments.md,
Running it: "Nobody else may do any of this; a button pressed in another group, or
naming another group's tournament, is refused").

The bot runs as `python -m bot` against tests/fakegram with two groups: in Двор a round
robin of four runs at tables of two, its first table's lobby open; in Соседи a
tournament signs up (two entrants, its organiser's settings open). About 600 presses
drawn from one seed are pushed straight into the fake's queue: `tr1:` data of one
group's tournament on the other group's messages (by anyone, organisers included),
tournaments that do not exist, every action and junk letters, junk options and values,
data cut short or padded past Telegram's 64 bytes, presses on messages of chats the bot
does not know and on no message; and in the right group, presses by people who may not
act there: members who are neither entrants nor admins pressing every organiser's
button and «Не участвую», entrants pressing the organiser's buttons. Each is pressed on
the button the message shows, forged onto a message that does not show it, or (a client
that rewrote the message too) on a message whose keyboard was made to carry it, so the
core's own checks are reached, not only the handler's `shows_button`.

Then: every press was answered with something to read; the stored tournaments, their
entrants and tables, the games and their seats are exactly as they were; no message
anywhere changed; the bot's log has no error; no tile of a hand was shown to anyone else;
and both tournaments go on: Соседи starts after a third sign-up, Двор's first table
starts once its two people press «✅ Я на месте».
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.app.usecases.tournaments import OPTION_NAMES
from bot.telegram.callbacks import TournamentAction, TournamentCb
from i18n import Lang, t
from tests.e2e.harness import (
    PRESS_SECONDS,
    REPLY_SECONDS,
    BotProcess,
    Stall,
    assert_hands_private,
    button_data,
    chats_of,
    running_bot,
    settle,
    wait_progressing,
)
from tests.e2e.test_tournaments_e2e import (
    TABLE_LOBBY,
    board_in,
    buttons,
    open_tournament,
    press,
    press_and_see,
    started,
)
from tests.fakegram import CallbackAnswer, FakeTelegram
from tests.fakegram.junk import Junk
from tests.fakegram.world import FakeChat, FakeUser, StoredMessage

SEED = 20261206
TOTAL = 600
BATCH = 100
STORED = ("tournaments", "tournament_entrants", "tournament_tables", "games", "seats")
Action = TournamentAction
ORGANISERS_ACTIONS = tuple(a for a in Action if a not in (Action.JOIN, Action.LEAVE))
# Tournaments that do not exist (the two here are 1 and 2), and ids no model accepts.
MISSING_IDS = ("0", "3", "4", str(10**12), str(2**63 - 1), str(2**63), "-1", "-2", "-1000000000000")
JUNK_ACTIONS = ("", "z", "q", "J", "P", "jj", "pp", "ж", "0", "✅", "j ", " s", "%s")
JUNK_OPTIONS = ("", "FORMAT", "формат", "a" * 13, "table-size", "format ", "game;x", "--", "_")
JUNK_VALUES = ("x" * 17, "ABC", "лёва", "1.5", "-1", "😀", "%00", "a b", "9" * 17, "1e3", "0x1")
# Entrant numbers a removal may name, in range and out of it; then values that name no
# entrant (`TournamentCb.entrant` is None: answered as stale).
ENTRANT_VALUES = ("0", "1", "2", "3", "4", "5", "7", "31", "63", "64", "999", "007", "00")
ENTRANT_VALUES_REJECTED = ("0001", "", "1a", "x", "_")
# Settings the core refuses for Соседи as it stands (Дубли, round robin, tables of 2,
# computers off, 10 minutes to show up): no organiser's press of these changes it.
REFUSED_SETTINGS = frozenset(
    {
        ("format", ""),
        ("format", "robin"),
        ("format", "swiss_3"),
        ("format", "x" * 16),
        ("rounds", "0"),
        ("rounds", "3"),
        ("rounds", "99"),  # rounds are Swiss's only
        ("table_size", ""),
        ("table_size", "0"),
        ("table_size", "1"),
        ("table_size", "5"),
        ("table_size", "99"),
        ("table_size", "two"),
        ("pairs", ""),
        ("pairs", "2"),
        ("pairs", "maybe"),
        ("computers", ""),
        ("computers", "2"),
        ("computers", "max"),
        ("computers", "on"),
        ("show_up", ""),
        ("show_up", "0"),
        ("show_up", "7"),
        ("show_up", "60"),
        ("show_up", "10_0"),
        ("game", ""),
        ("game", "chess"),
        ("game", "zzz"),
        ("game", "x" * 16),
        ("zz", "1"),
        ("-", ""),
        ("tablesize", "2"),
    }
)
# Settings that would change it (left out for its organiser by `may_change`).
OTHER_SETTINGS = (
    ("format", "swiss"),
    ("format", "round_robin"),
    ("table_size", "2"),
    ("table_size", "3"),
    ("pairs", "on"),
    ("pairs", "off"),
    ("computers", "easy"),
    ("computers", "off"),
    ("show_up", "5"),
    ("show_up", "30"),
    ("rounds", "4"),
)
RAW_KEY = re.compile(r"[a-z_]+[.-][a-z0-9_.-]+")  # a catalogue key shown instead of its text


@dataclass(frozen=True)
class Side:
    """One group's tournament, as the plan reads who may do what there."""

    group: FakeChat
    tournament: int
    organiser: FakeUser  # who opened it, the group's only admin
    entrants: tuple[FakeUser, ...]
    outsiders: tuple[FakeUser, ...]  # members, neither entrants nor admins
    signup: bool  # signing up (else running)

    @property
    def members(self) -> list[FakeUser]:
        users = self.group.fake.users
        return [users[uid] for uid in self.group.members if uid in users]


@dataclass
class Pushed:
    """One press: who pressed what where, and the answer to come."""

    kind: str
    user: FakeUser
    data: str
    where: str
    answer: asyncio.Future[CallbackAnswer]

    def __str__(self) -> str:
        shown = self.answer.result() if self.answer.done() else "(no answer)"
        return f"{self.kind}: {self.user.first_name} pressed {self.data!r} {self.where} -> {shown}"


class Plan:
    """Draws the presses from one seed and pushes them. Each is drawn as its kind asks and
    kept only if nothing allows it (`may_change`): never an outsider's sign-up, an
    entrant's sign-off, an organiser's own button in their own group."""

    def __init__(self, fake: FakeTelegram, sides: tuple[Side, Side]) -> None:
        self.rng = random.Random(SEED)
        self.fake = fake
        self.junk = Junk(fake)
        self.sides = sides
        self.everyone = sorted({u for s in sides for u in s.members}, key=lambda u: u.id)
        self.ghosts = [self.junk.ghost_group() for _ in range(3)]
        self.ghosts.append(self.junk.ghost_group(supergroup=True))
        self.real = {s.tournament: self._real_buttons(s) for s in sides}
        self.games = sorted(
            {v for d in self.real[sides[1].tournament] if (v := _game_value(d)) is not None}
        )
        self.pushed: list[Pushed] = []
        self.left_out = 0

    @staticmethod
    def _real_buttons(side: Side) -> list[str]:
        """Every `tr1:` button the tournament's message has shown, now or before."""
        board = board_in(side.group)
        found = {
            button.callback_data
            for version in (*board.history, board.version)
            for row in version.keyboard or ()
            for button in row
            if (button.callback_data or "").startswith("tr1:")
        }
        return sorted(d for d in found if d is not None)

    # --- what a press may do ------------------------------------------------------

    def side_of(self, chat_id: int | None) -> Side | None:
        return next((s for s in self.sides if s.group.id == chat_id), None)

    def may_change(self, user: FakeUser, data: str, side: Side | None, shown: bool) -> bool:
        """Whether the press could be allowed, as docs/tournaments.md says who may do what:
        it reaches the core (a button the pressed message carries, in one of the groups),
        names that group's tournament, and the presser may do it there."""
        if side is None or not shown:
            return False
        try:
            pressed = TournamentCb.unpack(data)
        except (TypeError, ValueError):
            return False
        if pressed.tournament != side.tournament:
            return False
        action = pressed.action
        if action is Action.JOIN:
            return side.signup and user not in side.entrants
        if action is Action.LEAVE:
            return user in side.entrants
        if user is not side.organiser:
            return False
        if action in (Action.REMOVE_ASK, Action.REMOVE_YES):
            return pressed.entrant is not None and pressed.entrant < len(side.entrants)
        if action is Action.SET:
            setting = (pressed.option, pressed.value)
            return (
                side.signup and pressed.option in OPTION_NAMES and setting not in REFUSED_SETTINGS
            )
        if action is Action.START:
            return side.signup and len(side.entrants) >= 3
        if action is Action.PAUSE:
            return not side.signup
        # Resuming is refused (neither is paused); the organiser's menus and the cancel
        # are theirs.
        return action is not Action.RESUME

    # --- pushing ------------------------------------------------------------------

    def push(
        self,
        kind: str,
        user: FakeUser,
        data: str,
        on: StoredMessage | dict[str, Any] | None,
        *,
        carried: bool = False,
    ) -> bool:
        """Press `data` on the stored message `on` (as it is now, or `carried`: its keyboard
        rewritten to carry the button), on a message in the chat of the JSON `on` that the
        fake does not know, or on no message. False, and nothing pushed, if the press
        could be allowed."""
        if on is None:
            where, side, shown = "on no message", None, False
        elif isinstance(on, dict):
            where, side, shown = f"on a ghost message in {on['id']}", None, False
        else:
            side = self.side_of(on.chat.id)
            shown = carried or any(b.callback_data == data for b in on.buttons)
            where = f"on message {on.message_id} of {on.chat.title or on.chat.id}"
        if carried:
            where += " carrying it"
        if self.may_change(user, data, side, shown):
            self.left_out += 1
            return False
        if carried:
            body = self._carrying(on, data)
            self.junk.pushed += 1
            answer = self.fake.push_callback(user, data, message=body)
        elif isinstance(on, StoredMessage):
            answer = self.junk.press(user, data, message=on)
        else:
            answer = self.junk.press(user, data, on=on)
        self.pushed.append(Pushed(kind, user, data, where, answer))
        return True

    def _carrying(self, on: StoredMessage | dict[str, Any] | None, data: str) -> dict[str, Any]:
        """The JSON of the message `on` with the button added to its keyboard."""
        forged = {"text": "🁢", "callback_data": data}
        if isinstance(on, StoredMessage):
            body = self.fake.message_json(on)
            rows = list((body.get("reply_markup") or {}).get("inline_keyboard", []))
        else:
            assert on is not None
            body = {
                "message_id": 900_000_000 + len(self.pushed),
                "date": int(time.time()),
                "chat": on,
                "from": self.fake.bot_user(),
                "text": "🏆",
            }
            rows = []
        body["reply_markup"] = {"inline_keyboard": [*rows, [forged]]}
        return body

    # --- drawing ------------------------------------------------------------------

    def sweep(self) -> None:
        """Every action, once each where it must be refused: by each outsider and one
        entrant in the right group, by the other group's organiser naming it there."""
        for side in self.sides:
            other = self.other(side)
            board = board_in(side.group)
            for action in Action:
                for user in side.outsiders:
                    self.push("outsider", user, self.synthetic(side.tournament, action), board)
                    self.push(
                        "outsider",
                        user,
                        self.synthetic(side.tournament, action),
                        board,
                        carried=True,
                    )
                if action in ORGANISERS_ACTIONS:
                    entrant = side.entrants[0]
                    data = self.synthetic(side.tournament, action)
                    self.push("entrant", entrant, data, board, carried=True)
                data = self.synthetic(side.tournament, action)
                self.push("other group", other.organiser, data, board_in(other.group), carried=True)

    def other(self, side: Side) -> Side:
        return self.sides[1] if side is self.sides[0] else self.sides[0]

    def one(self) -> None:
        """One press of a kind drawn by its share; drawn again while it could be allowed."""
        kinds = {
            self._other_group: 25,
            self._missing: 10,
            self._junk: 17,
            self._outsider: 23,
            self._entrant: 12,
            self._organiser_junk: 7,
            self._nowhere: 6,
        }
        (draw,) = self.rng.choices(list(kinds), weights=list(kinds.values()))
        for _ in range(100):
            if draw():
                return
        raise AssertionError(f"{draw.__name__} drew nothing harmless in 100 tries")

    def _other_group(self) -> bool:
        """A tournament's button pressed in the other group, by any member there."""
        rng = self.rng
        side = rng.choice(self.sides)
        there = self.other(side).group
        user = rng.choice(self.other(side).members)
        data = self.data_of(side.tournament)
        message = rng.choice(there.bot_messages)
        return self.push("other group", user, data, message, carried=rng.random() < 0.6)

    def _missing(self) -> bool:
        """A tournament that does not exist, pressed anywhere."""
        tid = self.rng.choice(MISSING_IDS)
        data = self.synthetic(tid, self.rng.choice(list(Action)))
        on, carried = self.anywhere()
        return self.push("missing", self.rng.choice(self.everyone), data, on, carried=carried)

    def _junk(self) -> bool:
        """A tournament's button with junk in it, pressed anywhere."""
        side = self.rng.choice(self.sides)
        data = self.junk_data(side.tournament)
        on, carried = self.anywhere()
        return self.push("junk", self.rng.choice(self.everyone), data, on, carried=carried)

    def _outsider(self) -> bool:
        """A member who is neither entrant nor admin presses an organiser's button (or
        «Не участвую») in the group: the one shown, or one forged in."""
        rng = self.rng
        side = rng.choice(self.sides)
        user = rng.choice(side.outsiders)
        board = board_in(side.group)
        if rng.random() < 0.4 and board.buttons:
            data = rng.choice([b.callback_data for b in board.buttons if b.callback_data])
            return self.push("outsider", user, data, board)
        action = rng.choice([*ORGANISERS_ACTIONS, Action.LEAVE])
        data = self.synthetic(side.tournament, action)
        message = board if rng.random() < 0.7 else rng.choice(side.group.bot_messages)
        return self.push("outsider", user, data, message, carried=rng.random() < 0.8)

    def _entrant(self) -> bool:
        """An entrant presses an organiser's button (or «Участвую» once more)."""
        rng = self.rng
        side = rng.choice(self.sides)
        user = rng.choice(side.entrants)
        board = board_in(side.group)
        if rng.random() < 0.3 and board.buttons:
            data = rng.choice([b.callback_data for b in board.buttons if b.callback_data])
            return self.push("entrant", user, data, board)
        action = rng.choice([*ORGANISERS_ACTIONS, Action.JOIN])
        data = self.synthetic(side.tournament, action)
        return self.push("entrant", user, data, board, carried=rng.random() < 0.8)

    def _organiser_junk(self) -> bool:
        """The organiser in their own group, with what the core must refuse there."""
        rng = self.rng
        side = rng.choice(self.sides)
        action = rng.choice(list(Action))
        data = self.synthetic(side.tournament, action)
        board = board_in(side.group)
        return self.push("organiser", side.organiser, data, board, carried=True)

    def _nowhere(self) -> bool:
        """A real button of either tournament, pressed on a ghost message or none."""
        rng = self.rng
        side = rng.choice(self.sides)
        data = rng.choice(self.real[side.tournament])
        on = rng.choice([*self.ghosts, None])
        return self.push("nowhere", rng.choice(self.everyone), data, on, carried=on is not None)

    def anywhere(self) -> tuple[StoredMessage | dict[str, Any] | None, bool]:
        """Where a junk press lands: a message of either group or someone's private chat
        (as it is, or carrying the button), a ghost message (with or without it), none."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.55:
            message = rng.choice(rng.choice(self.sides).group.bot_messages)
            return message, rng.random() < 0.6
        if roll < 0.65:
            chat = rng.choice(self.everyone).private_chat
            return rng.choice(chat.bot_messages), True
        if roll < 0.9:
            return rng.choice(self.ghosts), rng.random() < 0.5
        return None, False

    # --- data ---------------------------------------------------------------------

    def synthetic(self, tid: int | str, action: Action) -> str:
        """`tr1:` data of `action` naming `tid`, with an option and value it may take."""
        rng = self.rng
        option, value = "-", ""
        if action is Action.SET:
            settings = [*REFUSED_SETTINGS, *OTHER_SETTINGS, *(("game", g) for g in self.games)]
            option, value = rng.choice(sorted(settings))
        elif action in (Action.REMOVE_ASK, Action.REMOVE_YES):
            value = rng.choice([*ENTRANT_VALUES, *ENTRANT_VALUES_REJECTED])
        return f"tr1:{tid}:{action.value}:{option}:{value}"

    def data_of(self, tid: int) -> str:
        """A button of the tournament `tid`: one it has shown, or one of any action."""
        if self.rng.random() < 0.5:
            return self.rng.choice(self.real[tid])
        return self.synthetic(tid, self.rng.choice(list(Action)))

    def junk_data(self, tid: int) -> str:
        """Data naming `tid` with junk in it: an unknown action, option or value, an id
        written oddly, the data cut short or padded past 64 bytes, another prefix."""
        rng = self.rng
        base = self.data_of(tid)
        _, _, action, option, value = base.split(":")
        shape = rng.randrange(7)
        if shape == 0:
            return f"tr1:{tid}:{rng.choice(JUNK_ACTIONS)}:{option}:{value}"
        if shape == 1:
            return f"tr1:{tid}:v:{rng.choice(JUNK_OPTIONS)}:{value}"
        if shape == 2:
            return f"tr1:{tid}:{rng.choice('ved')}:{option}:{rng.choice(JUNK_VALUES)}"
        if shape == 3:
            return base[: rng.randrange(len(base))]
        if shape == 4:
            pad = rng.choice([":", "0", "x", ":x", "ё", " "])
            padded = base + pad * 65
            return padded.encode()[: rng.randint(65, 120)].decode("utf-8", "ignore")
        if shape == 5:
            written = rng.choice([f"0{tid}", f"+{tid}", f" {tid}", f"{tid} ", f"{tid}.0"])
            written = rng.choice([written, f"{tid}_0", f"-{tid}", f"{tid}e0", f"0x{tid}"])
            return f"tr1:{written}:{action}:{option}:{value}"
        prefix = rng.choice(["tr2", "TR1", "tr", "tr1 ", "l1", "tr1:tr1"])
        return f"{prefix}:{tid}:{action}:{option}:{value}"


def _game_value(data: str) -> str | None:
    """The game a «🎲» list button sets, if `data` is one."""
    parts = data.split(":")
    return parts[4] if len(parts) == 5 and parts[2] == "v" and parts[3] == "game" else None


def stored_state(bot: BotProcess) -> dict[str, list[tuple[object, ...]]]:
    """Every row of the tournaments, their entrants and tables, the games and seats."""
    return {
        table: sorted((tuple(row) for row in bot.stored(f"SELECT * FROM {table}")), key=repr)
        for table in STORED
    }


def shown_everywhere(fake: FakeTelegram, users: list[FakeUser]) -> list[tuple[object, ...]]:
    """Every message of the people's chats and groups as a client shows it now."""
    return [
        (
            chat.id,
            message.message_id,
            len(message.history),
            message.deleted,
            message.content,
            tuple(b.callback_data for b in message.buttons),
        )
        for chat in chats_of(fake, users)
        for message in list(chat.messages.values())
    ]


async def answered_all(fake: FakeTelegram, presses: list[Pushed]) -> None:
    """Until every press is answered and every update taken: however slowly the bot works
    through them, only one that stops (nothing answered or taken for a stall window)
    fails the wait."""

    def progress() -> tuple[int, int]:
        return sum(p.answer.done() for p in presses), fake.pending_updates

    def done() -> bool:
        return all(p.answer.done() for p in presses) and fake.pending_updates == 0

    await wait_progressing(fake, done, Stall(progress, what="the bot stopped answering"))


async def test_six_hundred_forged_tournament_presses_change_nothing(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    async with running_bot(fakegram, tmp_path, PACING="false") as bot:
        people = await started(
            fakegram,
            "Алиса",
            "Боб",
            "Вера",
            "Дима",
            "Гоша",
            "Зоя",
            "Ева",
            "Инна",
            "Костя",
            "Лёва",
        )
        alice, bob, vera, dima, gosha, zoya, eve, inna, kostya, lev = people
        yard = fakegram.add_group(
            "Двор", members=[alice, bob, vera, dima, gosha, zoya, eve], admins=[alice]
        )
        neighbours = fakegram.add_group(
            "Соседи", members=[eve, inna, kostya, lev, alice, bob], admins=[eve]
        )
        # Двор: a round robin of four at tables of two, running, its first lobby open.
        board = await open_tournament(yard, alice)
        for user in (bob, vera, dima, gosha):
            await press_and_see(fakegram, user, board, "Участвую", user.first_name)
        await press_and_see(fakegram, alice, board, "Настройки", "Формат")
        await press_and_see(fakegram, alice, board, "Игра", "Дубли")
        await press_and_see(fakegram, alice, board, "Дубли", "Турнир: Дубли")
        assert "Столы: по 2" in board.content, board.content
        await press_and_see(fakegram, alice, board, "Назад", "▶️ Начать")
        begun = await press(fakegram, alice, board, "Начать")
        assert not begun.show_alert, begun
        lobby = await yard.wait_for_message(
            lambda m: TABLE_LOBBY.search(m.content) is not None, timeout=REPLY_SECONDS
        )
        await fakegram.wait_for(lambda: "⏸ Пауза" in buttons(board), timeout=REPLY_SECONDS)
        # Соседи: two signed up, the organiser's settings open on its message.
        other_board = await open_tournament(neighbours, eve)
        for user in (inna, kostya):
            await press_and_see(fakegram, user, other_board, "Участвую", user.first_name)
        await press_and_see(fakegram, eve, other_board, "Настройки", "Формат")
        await press_and_see(fakegram, eve, other_board, "Игра", "Дубли")
        await press_and_see(fakegram, eve, other_board, "Дубли", "Турнир: Дубли")
        for setting in ("Формат: круговой", "Столы: по 2", "Компьютеры: нет", "10 мин"):
            assert setting in other_board.content, other_board.content  # REFUSED_SETTINGS
        await settle(fakegram)
        ids = {row[0]: int(row[1]) for row in bot.stored("SELECT chat_id, id FROM tournaments")}
        sides = (
            Side(yard, ids[yard.id], alice, (bob, vera, dima, gosha), (zoya, eve), signup=False),
            Side(neighbours, ids[neighbours.id], eve, (inna, kostya), (lev, alice, bob), True),
        )
        assert bot.stored("SELECT status FROM tournaments ORDER BY id") == [
            ("running",),
            ("signup",),
        ]

        before = stored_state(bot)
        shown_before = shown_everywhere(fakegram, people)
        exposures_before = len(fakegram.exposures)
        plan = Plan(fakegram, sides)
        began = time.monotonic()
        plan.sweep()
        await answered_all(fakegram, plan.pushed)
        while len(plan.pushed) < TOTAL:
            batch = len(plan.pushed)
            for _ in range(min(BATCH, TOTAL - batch)):
                plan.one()
            await answered_all(fakegram, plan.pushed[batch:])
        await settle(fakegram)
        elapsed = time.monotonic() - began

        kinds = Counter(p.kind for p in plan.pushed)
        answers = [p.answer.result() for p in plan.pushed]
        texts = Counter(a.text for a in answers)
        print(
            f"\ntournament junk: {len(answers)} presses in {elapsed:.1f}s, kinds={dict(kinds)}, "
            f"left out as allowed={plan.left_out}\nanswers={dict(texts.most_common())}"
        )
        unreadable = [
            str(p)
            for p, a in zip(plan.pushed, answers, strict=True)
            if not (a.answered and a.text and a.text.strip())
            or "{" in a.text
            or RAW_KEY.fullmatch(a.text.strip())
        ]
        assert not unreadable, "\n".join(unreadable[:10])
        # The presses reached every check: the handler's (a button the message does not
        # carry), the tournament's group, the organiser's, the entrant's, the status's;
        # and every action was pressed by an outsider in each group.
        for key in (
            "alert.stale",
            "tournament.stale",
            "tournament.not_here",
            "tournament.organiser_only",
            "tournament.not_signed_up",
            "tournament.signup_closed",
            "tournament.no_such_entrant",
            "tournament.bad_option",
        ):
            assert texts[t(key, Lang.RU)] > 0, (key, texts)
        for side in sides:
            pressed = {
                p.data.split(":")[2]
                for p in plan.pushed
                if p.user in side.outsiders and p.data.startswith(f"tr1:{side.tournament}:")
            }
            allowed = {Action.JOIN.value} if side.signup else set()
            assert pressed >= {a.value for a in Action} - allowed, (side.group.title, pressed)
        after = stored_state(bot)
        for table in STORED:
            assert after[table] == before[table], (table, before[table], after[table])
        changed = set(shown_everywhere(fakegram, people)) ^ set(shown_before)
        assert not changed, sorted(changed, key=repr)[:10]
        assert not bot.problems(), bot.problem_report()

        # Соседи goes on: a third sign-up, and its organiser starts it.
        await press_and_see(fakegram, eve, other_board, "Назад", "▶️ Начать")
        await press_and_see(fakegram, lev, other_board, "Участвую", lev.first_name)
        begun = await press(fakegram, eve, other_board, "Начать")
        assert not begun.show_alert, begun
        await neighbours.wait_for_message(
            lambda m: TABLE_LOBBY.search(m.content) is not None, timeout=REPLY_SECONDS
        )
        statuses = bot.stored("SELECT status FROM tournaments ORDER BY id")
        assert statuses == [("running",), ("running",)], statuses
        # Двор's first table: its two people take their seats and the match begins.
        found = TABLE_LOBBY.search(lobby.content)
        assert found is not None and found.group(1, 2) == ("1", "1"), lobby.content
        drawn = [u for u in sides[0].entrants if u.first_name in found.group(3).split(", ")]
        assert len(drawn) == 2, found.group(3)
        for user in drawn:
            here = await user.press(
                lobby, data=button_data(lobby, "Я на месте"), timeout=PRESS_SECONDS
            )
            assert here.answered and not here.show_alert, here
        first_table = bot.stored(
            "SELECT game_id FROM tournament_tables WHERE tournament_id = ?"
            " AND round_no = 1 AND table_no = 1",
            sides[0].tournament,
        )
        game_id = int(first_table[0][0])

        def playing() -> bool:
            rows = bot.stored("SELECT status, match FROM games WHERE id = ?", game_id)
            return bool(rows) and rows[0][0] == "playing" and bool(rows[0][1])

        await fakegram.wait_for(playing, timeout=REPLY_SECONDS)
        await settle(fakegram)
        seats = bot.stored("SELECT seat, user_id FROM seats WHERE game_id = ?", game_id)
        owners = {int(seat): int(user) for seat, user in seats if user is not None}
        assert set(owners.values()) == {u.id for u in drawn}, owners
        match = bot.stored_match(game_id)
        assert assert_hands_private(fakegram, match, owners, since=exposures_before) > 0
        assert not bot.problems(), bot.problem_report()
