"""10,000 junk updates against running games change nothing and crash nothing.

Random, forged and stale button presses, commands with junk arguments, messages from
chats the bot (or Telegram) does not know, edited messages, channel posts and messages
with no sender are pushed straight into the fake's update queue in batches; the bot runs
as `python -m bot` against tests/fakegram. Afterwards every stored game is exactly as it
was, every press got an answer with something to read, every command in a private chat
got a reply, no answer showed a tile of a hand, and the games still play to their end.
"""

from __future__ import annotations

import asyncio
import random
import string
import time
from pathlib import Path

import pytest

from domino.tiles import ALL_TILES
from i18n import Lang
from tests.databases import stored_rows
from tests.e2e.fault_tools import (
    Game,
    assert_game_private,
    game_id_of,
    open_games,
    rules_text,
    stored_matches,
    tile_pattern,
)
from tests.e2e.harness import (
    BotProcess,
    Press,
    Stall,
    is_hand_button,
    kind_of,
    move_of,
    settle,
    wait_progressing,
)
from tests.fakegram import CallbackAnswer, FakeTelegram, FakeUser
from tests.fakegram.junk import Junk

TOTAL = 10_000
BATCH = 250
SEED = 4242
JUNK_TEXT = string.ascii_letters + string.digits + string.punctuation + " ёжзЖЗ🁢🀰\u200b"
COMMANDS = ("start", "hand", "rules", "help", "stats", "top", "history", "settings", "domino")
OUTSIDER_COMMANDS = (*COMMANDS, "leave", "surrender", "cancel", "newgame", "xyzzy")
# Action texts a forged move button may carry: moves, moves of no hand, no action at all.
FORGED_ACTIONS = (
    "p2-5L",
    "p0-0",
    "d",
    "k",
    "e",
    "f",
    "c3-3U",
    "p1-1L+p2-2R",
    "p2-5R+p3-3L",
    "d+d",
    "p9-9L",
    "pQ",
    "P2-5L",
    "",
)


def snapshot(database: Path, game_ids: set[int] | None = None) -> list[tuple[object, ...]]:
    """Everything stored about the games (`game_ids`, default all): their rows of games
    (the match with its log among them) and seats, and every vote."""
    rows: list[tuple[object, ...]] = []
    for table, key in (("games", "id"), ("seats", "game_id")):
        for row in stored_rows(database, f"SELECT {key}, * FROM {table} ORDER BY 2, 3"):
            if game_ids is None or row[0] in game_ids:
                rows.append((table, *row))
    for votes in ("cancel_votes", "cancel_ballots"):
        rows.extend((votes, *r) for r in stored_rows(database, f"SELECT * FROM {votes} ORDER BY 1"))
    return rows


def waiting_for_a_person(bot: BotProcess, game: Game) -> bool:
    """Whether `game` waits for a person: one of its players is shown their turn at the
    stored position (the move number in their hand's buttons is the stored log's length)."""
    moves = len(bot.stored_match(game_id_of(bot, game)).log)
    for player in game.players:
        hand = player.hand()
        if hand is not None and player.my_turn() and (data := player.choice(hand)):
            return move_of(data) == moves
    return False


async def worked_through(fake: FakeTelegram, answers: list[asyncio.Future[CallbackAnswer]]) -> None:
    """Until every press of `answers` is answered and every update taken. However slowly
    the bot works through them, only a bot that stops (no answer, no update taken for a
    stall window) fails the wait."""

    def progress() -> tuple[int, int]:
        return sum(a.done() for a in answers), fake.pending_updates

    def done() -> bool:
        return all(a.done() for a in answers) and fake.pending_updates == 0

    await wait_progressing(
        fake, done, Stall(progress, what="the bot stopped working through the junk")
    )


def junk_text(rng: random.Random, longest: int = 40) -> str:
    return "".join(rng.choice(JUNK_TEXT) for _ in range(rng.randint(1, longest)))


class JunkPlan:
    """Draws the 10,000 updates from one seed; never a press or command that may change a
    game (a current move by its player, a cancel by a creator, /leave by a player)."""

    def __init__(
        self, fake: FakeTelegram, games: list[Game], outsiders: list[FakeUser], moves: int
    ) -> None:
        self.rng = random.Random(SEED)
        self.fake = fake
        self.junk = Junk(fake)
        self.games = games
        self.outsiders = outsiders
        self.players = [p.user for g in games for p in g.players]
        self.ghosts = [self.junk.ghost_group() for _ in range(5)] + [
            self.junk.ghost_group(supergroup=True) for _ in range(3)
        ]
        self.moves = moves  # moves applied in each game so far: no junk may name them
        self.stale = self._stale_buttons()
        self.answers: list[asyncio.Future[CallbackAnswer]] = []
        self.private_commands: dict[int, int] = {}
        self.kinds: dict[str, int] = {}

    def _stale_buttons(self) -> list[tuple[FakeUser, object, str]]:
        """Every button an old client may still show, with who can see it: earlier versions
        of the hands and lobbies (never a move button of the position as it is now)."""
        found = []
        for game in self.games:
            viewers = [(p.user, p.chat) for p in game.players]
            viewers += [(p.user, game.table.group) for p in game.players]
            for user, chat in viewers:
                for message in chat.bot_messages:
                    for version in (*message.history, message.version):
                        for row in version.keyboard or ():
                            for button in row:
                                data = button.callback_data
                                if data and self._harmless(data, user):
                                    found.append((user, message, data))
        return found

    def _harmless(self, data: str, user: FakeUser) -> bool:
        if is_hand_button(data):
            # «🤝 Предложить ничью» names its round, not a move: an older version of the
            # hand still offers it for the round as it is, which is no junk but an offer.
            return kind_of(data) is not Press.OFFER_DRAW and move_of(data) != self.moves
        # Lobby buttons: every game is past its lobby. Cancel confirmations, votes and
        # the like: never from a player.
        return data.startswith("l1:")

    def count(self, kind: str) -> None:
        self.kinds[kind] = self.kinds.get(kind, 0) + 1

    def one(self) -> None:
        rng = self.rng
        roll = rng.random()
        if roll < 0.15 and self.stale:
            user, message, data = rng.choice(self.stale)
            self.answers.append(self.junk.press(user, data, message=message))
            self.count("stale press")
        elif roll < 0.40:
            self._forged_press()
        elif roll < 0.60:
            self._command()
        elif roll < 0.70:
            chat = rng.choice(self.ghosts)
            sender = rng.choice([*self.outsiders, self.junk.ghost_user()])
            self.junk.message(chat, self._command_text(OUTSIDER_COMMANDS), sender)
            self.count("unknown chat")
        elif roll < 0.80:
            game = rng.choice(self.games)
            user = rng.choice(game.players).user
            chat = rng.choice([game.table.group, user.private_chat])
            self.junk.edited(chat, user, self._command_text(OUTSIDER_COMMANDS))
            self.count("edited message")
        elif roll < 0.90:
            self.junk.channel_post(self._command_text(OUTSIDER_COMMANDS), edited=rng.random() < 0.3)
            self.count("channel post")
        else:
            chat = rng.choice([*(g.table.group for g in self.games), *self.ghosts])
            self.junk.anonymous(chat, self._command_text(OUTSIDER_COMMANDS))
            self.count("no sender")

    def _command_text(self, names: tuple[str, ...]) -> str:
        rng = self.rng
        if rng.random() < 0.2:
            return junk_text(rng)
        name = rng.choice(names)
        mention = f"@{self.fake.bot_username}" if rng.random() < 0.5 else ""
        args = rng.choice(["", junk_text(rng), f"j{rng.randint(-5, 10**12)}", "j1", "hand", "0"])
        return f"/{name}{mention} {args}".rstrip()

    def _forged_press(self) -> None:
        rng = self.rng
        game = rng.choice(self.games)
        outsider = rng.random() < 0.5
        user = rng.choice(self.outsiders) if outsider else rng.choice(self.players)
        gid = rng.choice([*range(1, len(self.games) + 3), rng.randint(-(10**9), 10**12)])
        shape = rng.random()
        if shape < 0.3:
            data = junk_text(rng, 64).encode()[:64].decode("utf-8", "ignore") or "?"
        elif shape < 0.7:
            move = rng.choice([self.moves + 1, self.moves - 1, 0, -1, 10**9, self.moves])
            if not outsider and move == self.moves:
                move += rng.randint(1, 5)  # a player never names the position as it is
            layout = rng.random()
            if layout < 0.2:  # a hand button of the layout before the engine's action text
                kind = rng.choice("pedkbiz")
                end = rng.choice(["", "L", "R", "U", "D", "Q", "LL"])
                data = f"m1:{gid}:{move}:{kind}:{rng.randint(-2, 30)}:{end}"
            elif layout < 0.5:
                kind = rng.choice("edcbihz")
                tile = rng.choice(["", "2-5", "6-6", "9-9", "x"])
                data = f"hb1:{gid}:{move}:{kind}:{tile}"
            else:
                action = rng.choice(FORGED_ACTIONS)
                data = f"m2:{gid}:{move}:{action}"
        elif shape < 0.85:
            action = rng.choice("jlcsxoz")
            data = f"l1:{gid}:{action}:{rng.choice('-ntgfhz')}"
        else:  # a player may press "keep playing" only
            data = f"x1:{gid}:{rng.choice(['0', '1', 'yes'])}" if outsider else f"x1:{gid}:0"
        where = rng.random()
        if where < 0.5:
            message = rng.choice(game.table.group.bot_messages)
            if user not in self.outsiders and user.id not in game.table.group.members:
                message = rng.choice(user.private_chat.bot_messages)
            self.answers.append(self.junk.press(user, data, message=message))
        elif where < 0.8:
            self.answers.append(self.junk.press(user, data, on=rng.choice(self.ghosts)))
        else:
            self.answers.append(self.junk.press(user, data))
        self.count("forged press")

    def _command(self) -> None:
        rng = self.rng
        if rng.random() < 0.5:
            user = rng.choice(self.outsiders)
            names = OUTSIDER_COMMANDS
        else:
            user = rng.choice(self.players)
            names = COMMANDS
        text = self._command_text(names)
        if rng.random() < 0.6 or not any(g.table.group.members.get(user.id) for g in self.games):
            self.junk.message(user.private_chat, text, user)
            # A reply is due to every command but /hand, whose answer is the hand message
            # moved down (several at once move it once).
            if text.startswith("/") and not text.startswith("/hand"):
                self.private_commands[user.id] = self.private_commands.get(user.id, 0) + 1
        else:
            group = next(g.table.group for g in self.games if user.id in g.table.group.members)
            if text.split()[0].split("@")[0] in ("/domino", "/newgame", "/cancel"):
                text = "/rules " + text  # a group command a player may send any time
            self.junk.message(group, text, user)
        self.count("command")


@pytest.mark.slow
async def test_ten_thousand_junk_updates_change_no_game(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    # The turn timer is off (open_games): only the junk could move a game now.
    games = await open_games(fakegram, [(2, 2), (2, 0), (3, 1)])
    # A few moves first, so that old keyboards exist; then everyone waits for the junk.
    for game in games:
        for player in game.players:
            await player.take_turn()
            await settle(fakegram)
    outsiders = [fakegram.add_user(f"Чужой{k}", username=f"x{k}") for k in range(4)]
    for outsider in outsiders[:2]:
        await outsider.start()
    for game in games:
        game.table.group.members[outsiders[0].id] = game.table.group.members[
            game.players[-1].user.id
        ]
    # Every game stands still, waiting for a person: the computers have made their moves
    # (a loaded machine may still be making them when the bot's calls fall quiet).
    await wait_progressing(
        fakegram,
        lambda: all(waiting_for_a_person(bot, game) for game in games),
        Stall.of_chats(fakegram, [p.user for g in games for p in g.players]),
    )
    await settle(fakegram)
    before = snapshot(bot.database)
    known = {int(str(row[1])) for row in before if row[0] == "games"}
    moves = {gid: len(m.log) for gid, m in stored_matches(bot.database).items()}
    assert len(set(moves.values())) >= 1
    private_before = {u.id: len(u.private_chat.bot_messages) for u in fakegram.users.values()}

    ids = [game_id_of(bot, game) for game in games]
    plans = [
        JunkPlan(fakegram, [game], outsiders, moves[gid])
        for gid, game in zip(ids, games, strict=True)
    ]
    exposures_before = len(fakegram.exposures)
    started = time.monotonic()
    pushed = 0
    while pushed < TOTAL:
        batch_start = [len(plan.answers) for plan in plans]
        for _ in range(min(BATCH, TOTAL - pushed)):
            plans[pushed % len(plans)].one()
            pushed += 1
        waiting = [a for plan, n in zip(plans, batch_start, strict=True) for a in plan.answers[n:]]
        await worked_through(fakegram, waiting)
    await settle(fakegram)
    elapsed = time.monotonic() - started

    answers = [a.result() for plan in plans for a in plan.answers]
    kinds: dict[str, int] = {}
    for plan in plans:
        for kind, n in plan.kinds.items():
            kinds[kind] = kinds.get(kind, 0) + n
    print(
        f"\njunk: updates={pushed} in {elapsed:.1f}s ({pushed / elapsed:.0f}/s) "
        f"presses={len(answers)} kinds={kinds}"
    )
    assert snapshot(bot.database, known) == before, "junk changed a stored game"
    assert all(a.answered and a.text for a in answers), [a for a in answers if not a.text][:5]
    sent: dict[int, int] = {}
    for plan in plans:
        for user_id, n in plan.private_commands.items():
            sent[user_id] = sent.get(user_id, 0) + n
    for user_id, n in sent.items():  # every command got a reply (where one can be written)
        user = fakegram.users[user_id]
        grown = len(user.private_chat.bot_messages) - private_before[user_id]
        assert grown >= n or not user.started, (user.first_name, n, grown)
    assert not bot.problems(), bot.problem_report()
    # No answer to a press names a tile (no move was made, so none had a reason to), and
    # nothing shown to anyone outside the games does (only /rules names tiles, of no hand).
    rules = [text for lang in Lang for text in rules_text(lang)]
    tiles = [tile_pattern(str(tile)) for tile in ALL_TILES]
    players = {p.user.id for g in games for p in g.players}
    for exposure in fakegram.exposures[exposures_before:]:
        viewer = exposure.audience if exposure.audience is not None else exposure.chat_id
        answer = exposure.kind == "callback answer"
        if (answer or viewer not in players) and exposure.text.strip() not in rules:
            assert not any(p.search(exposure.text) for p in tiles), exposure

    # The games still play normally, and no answer or message showed a hand's tile.
    await asyncio.gather(*(game.play(fakegram) for game in games))
    await settle(fakegram)
    matches = stored_matches(bot.database)
    for gid, game in zip(ids, games, strict=True):
        assert matches[gid].over
        assert assert_game_private(fakegram, game, matches[gid]) > 0
