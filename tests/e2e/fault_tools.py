"""Helpers of the fault-tolerance tests: many games at once, robust players, stored-state checks.

`open_games` sets up N games side by side (each its own group, its own people);
`Player` is a harness `Person` who keeps every answer to their presses and carries on
whatever the answer says; `check_stored_games` loads every stored game and holds it to
the engine's invariants; `audit_presses` holds the presses the bot confirmed to the
moves stored; `private_tile_lines` finds tiles written in the bot's log.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.telegram.announcements import notice_values
from bot.telegram.presenter import rules_keyboard
from bot.telegram.presenter import rules_text as rules_page_text
from domino.match import Match
from domino.rules import KOZEL
from domino.views import OutcomeKind
from i18n import Lang, t
from tests.databases import stored_rows
from tests.e2e.harness import (
    MOVES,
    ROUND_MARK,
    TABLE_TITLE,
    TILE_FORMS,
    BotProcess,
    Person,
    Press,
    Table,
    dealt_hands,
    game_of,
    kind_of,
    open_game,
    play_until,
)
from tests.e2e.harness import move_of as move_number_of
from tests.fakegram import CallbackAnswer, FakeTelegram
from tests.fakegram.text import format_text
from tests.fakegram.world import StoredMessage

GOAT_MARK = "🐐 Козёл —"


@dataclass
class Player(Person):
    """A person who presses as `Person` does and remembers every answer.

    A press may be answered with an alert (stale, not your turn), answered late, or not at
    all when the bot's answer was lost: the player just looks at the hand again and
    presses whatever it offers now.
    """

    pressed: list[tuple[str, CallbackAnswer]] = field(default_factory=list)
    press_timeout: float = 20.0
    think: float = 0.0  # at most this many seconds over a hand before pressing (seeded)
    rng: random.Random = field(default_factory=lambda: random.Random(1))

    async def take_turn(self) -> bool:
        """As `Person.take_turn`, after a moment over the hand when `think` is set: a
        person's pace, so that a match lasts as long as a test needs on a fast machine
        too (the wait is wall time, not work: a loaded machine is not slowed further)."""
        if self.think and self.my_turn():
            await asyncio.sleep(self.rng.uniform(0, self.think))
        return await super().take_turn()

    def answered(self, data: str, answer: CallbackAnswer) -> None:
        self.pressed.append((data, answer))

    @property
    def unanswered(self) -> int:
        return sum(1 for _, a in self.pressed if not a.answered)


@dataclass
class Game:
    """One of many games of a test: its table and its players."""

    table: Table
    players: list[Player]
    seconds: float = 0.0  # how long `play` took

    @property
    def over(self) -> bool:
        return any(GOAT_MARK in m.content for m in self.table.group.bot_messages)

    async def play(self, fake: FakeTelegram, *, timeout: float | None = None) -> None:
        """Play to the match's end; like `play_until`, with no fixed deadline unless
        `timeout` is given: only a game that stops changing fails."""
        began = time.monotonic()
        await play_until(fake, list(self.players), lambda: self.over, timeout=timeout)
        self.seconds = time.monotonic() - began


def assert_game_private(fake: FakeTelegram, game: Game, match: Match) -> int:
    """No tile of a hand of `match` appears to anyone but its owner, among the chats of
    `game` (its group, its people's private chats, the answers to them). Like
    harness.assert_hands_private, for a fake that holds many games. Returns the number
    of exposures checked."""
    owners = {seat: p.user.id for seat, p in enumerate(game.players)}
    viewers = {game.table.group.id, *owners.values()}
    rounds = dealt_hands(match)
    patterns = {t: tile_pattern(t) for hands in rounds for held in hands.values() for t in held}
    rules = [text for lang in Lang for text in rules_text(lang)]
    checked = 0
    for exposure in fake.exposures:
        viewer = exposure.audience if exposure.audience is not None else exposure.chat_id
        if viewer not in viewers or exposure.text.strip() in rules:
            continue  # another game's chat, or /rules (which names tiles of no hand)
        mark = ROUND_MARK.search(exposure.text)
        number = int(mark.group(1)) if mark else 0
        candidates = [rounds[number - 1]] if 1 <= number <= len(rounds) else rounds
        # Without a round to go by (the answer "From the boneyard: ..." to a draw), a tile
        # the viewer held in some round may be theirs now.
        own = (
            set()
            if len(candidates) == 1
            else {
                t
                for hands in rounds
                for s, held in hands.items()
                if owners.get(s) == viewer
                for t in held
            }
        )
        for hands in candidates:
            for seat, tiles in hands.items():
                if owners.get(seat) == viewer:
                    continue
                for tile in tiles - own:
                    assert not patterns[tile].search(exposure.text), (
                        f"tile {tile} of seat {seat} shown to {viewer} "
                        f"({exposure.kind}): {exposure.text[:300]!r}"
                    )
        checked += 1
    return checked


async def open_games(
    fake: FakeTelegram, layouts: list[tuple[int, int]], *, at_once: int = 5
) -> list[Game]:
    """Open one game per `(people, computers)` layout, `at_once` set up concurrently."""
    gate = asyncio.Semaphore(at_once)

    async def one(number: int, people: int, computers: int) -> Game:
        async with gate:
            users = [
                fake.add_user(f"Игрок{number}_{k}", username=f"p{number}_{k}")
                for k in range(people)
            ]
            table = await open_game(fake, users, computers=computers, title=f"Стол {number}")
        return Game(table, [Player(fake, u) for u in users])

    return list(await asyncio.gather(*(one(n, p, c) for n, (p, c) in enumerate(layouts, start=1))))


def game_id_of(bot: BotProcess, game: Game) -> int:
    """The id of the newest stored game in `game`'s group."""
    rows = bot.stored("SELECT MAX(id) FROM games WHERE chat_id = ?", game.table.group.id)
    return int(str(rows[0][0]))


@dataclass(frozen=True)
class StoredGames:
    """What `check_stored_games` found."""

    games: int
    started: int
    finished: int
    moves: int


def check_stored_games(database: Path) -> StoredGames:
    """Every stored game passes the engine's invariants (the state after any crash).

    For each game: its match JSON loads (`Match.from_json` validates it), replaying the
    seed and the log gives the same match, the seats are numbered 0..n-1 with one per
    player, and the status agrees with the match (finished exactly when over; seats
    active exactly while the game runs).
    """
    games = stored_rows(database, "SELECT * FROM games ORDER BY id")
    every_seat = stored_rows(database, "SELECT * FROM seats ORDER BY game_id, seat")
    started = finished = moves = 0
    for game in games:
        gid = game["id"]
        seats = [seat for seat in every_seat if seat["game_id"] == gid]
        status = game["status"]
        assert [s["seat"] for s in seats] == list(range(len(seats))), f"game {gid}: seats"
        for seat in seats:
            running = status in ("lobby", "playing") and not seat["has_left"]
            assert bool(seat["active"]) == running, f"game {gid}: seat {seat['seat']} active"
        if game["match"] is None:
            assert status in ("lobby", "cancelled"), f"game {gid}: {status} without a match"
            continue
        started += 1
        match = Match.from_json(game["match"])
        replayed = Match.replay(match.ruleset, match.players, match.seed, match.log)
        assert replayed == match, f"game {gid}: the replay differs from the stored match"
        assert json.loads(replayed.to_json()) == json.loads(game["match"])
        assert len(seats) == match.players, f"game {gid}: {len(seats)} seats"
        if status == "finished":
            assert match.over, f"game {gid}: finished but not over"
            finished += 1
        elif status == "playing":
            assert not match.over, f"game {gid}: over but still playing"
        moves += len(match.log)
    return StoredGames(len(games), started, finished, moves)


@dataclass
class AnnouncementAudit:
    """What `audit_announcements` found: every announcement a group was owed (a row of the
    outbox: round ends, the match's end, notices) against the group's messages."""

    owed: int = 0
    shown: int = 0  # group messages that carry an owed announcement, repeats included
    repeats: int = 0  # copies beyond the first: a crash between sending and marking sent
    lost: list[str] = field(default_factory=list)  # owed, never shown (or never marked sent)
    other: list[str] = field(default_factory=list)  # group messages that announce nothing owed

    @property
    def rate(self) -> str:
        """ "2 of 180 (1.1 %)": repeats against announcements owed."""
        return f"{self.repeats} of {self.owed} ({100 * self.repeats / max(1, self.owed):.1f} %)"


def announced(item: Any, match: Match, message: StoredMessage) -> bool:
    """Whether `message` is the announcement of the outbox row `item` (Russian groups)."""
    payload = json.loads(item["payload"])
    if item["kind"] == "round_end":
        result = match.results[int(payload["round_no"]) - 1]
        went_out = result.outcome.kind is OutcomeKind.WENT_OUT
        first = (
            t("announce.went_out", Lang.RU, n=result.round_no, name="")
            if went_out
            else t("announce.fish", Lang.RU, n=result.round_no, name="")
        )
        return message.photo is not None and message.content.startswith(first.split("—")[0])
    if item["kind"] == "match_end":
        return GOAT_MARK in message.content
    if "key" in payload:
        values = notice_values(payload.get("values", {}), match.ruleset.game, Lang.RU)
        text = t(payload["key"], Lang.RU, **values)
    else:
        text = payload.get("text", "")
    return message.content == format_text(text, "HTML", None)[0]


def audit_announcements(bot: BotProcess, games: list[Game]) -> AnnouncementAudit:
    """Line each game's group messages (but the lobby and the tables) up with the
    announcements owed to it, in order (the outbox sends them in order, so a copy sent
    again after a crash comes straight after the first): a message is the next owed
    announcement, a repeat of the one before, or something else."""
    matches = stored_matches(bot.database)
    audit = AnnouncementAudit()
    for game in games:
        game_id = game_id_of(bot, game)
        group = game.table.group
        owed = stored_rows(
            bot.database,
            "SELECT * FROM outbox WHERE game_id = ? AND chat_id = ? ORDER BY id",
            game_id,
            group.id,
        )
        audit.owed += len(owed)
        skip = {id(game.table.lobby), id(game.table.table)}
        done = 0
        for message in sorted(group.bot_messages, key=lambda m: m.message_id):
            if id(message) in skip or message.message_id < game.table.lobby.message_id:
                continue  # the lobby, the table, and what came before (/settings)
            if message.photo is not None and TABLE_TITLE.search(message.content):
                continue  # the table sent anew below an announcement
            if done < len(owed) and announced(owed[done], matches[game_id], message):
                done += 1
                audit.shown += 1
            elif done and announced(owed[done - 1], matches[game_id], message):
                audit.repeats += 1
                audit.shown += 1
            else:
                audit.other.append(f"game {game_id}: {message.content[:80]!r}")
        for number, item in enumerate(owed):
            if number >= done or not item["sent_at"]:
                audit.lost.append(f"game {game_id}: {item['kind']} {item['payload']}")
    return audit


def stored_matches(database: Path) -> dict[int, Match]:
    rows = stored_rows(database, "SELECT id, match FROM games WHERE match IS NOT NULL")
    return {int(gid): Match.from_json(text) for gid, text in rows}


def private_tile_lines(log: str, matches: list[Match]) -> list[str]:
    """Log lines at INFO or above that name any tile a hand held, in any written form.

    Any tile at all counts: at INFO the bot writes no tile text, so the public table's
    tiles cannot be told apart from the hands' and none may appear.
    """
    tiles = {
        tile
        for match in matches
        for hands in dealt_hands(match)
        for held in hands.values()
        for tile in held
    }
    patterns = [tile_pattern(tile) for tile in sorted(tiles)]
    found = []
    for line in log.splitlines():
        if " DEBUG " in line:
            continue
        text = re.sub(r"^\S+ \S+ ", "", line)  # the timestamp
        if any(p.search(text) for p in patterns):
            found.append(line)
    return found


def rules_text(lang: Lang) -> tuple[str, str]:
    """The /rules answer as the fake exposes it, HTML parsed and as plain text: the text,
    then its buttons' texts and data (one per game, `bot.telegram.presenter.rules_keyboard`)."""
    text = rules_page_text(KOZEL, lang)
    buttons = [
        value
        for row in rules_keyboard(KOZEL, lang).inline_keyboard
        for button in row
        for value in (button.text, button.callback_data or "")
    ]
    parsed = format_text(text, "HTML", None)[0]
    return "\n".join([parsed, "", *buttons]), "\n".join([text, "", *buttons])


def tile_pattern(tile: str) -> re.Pattern[str]:
    """`tile` ("2-5") in every form of harness.TILE_FORMS, either way round, not inside a
    longer number (as tests/fakegram/privacy.py matches them)."""
    a, b = (int(half) for half in tile.split("-"))
    spellings = {form.format(a=x, b=y) for form in TILE_FORMS for x, y in ((a, b), (b, a))}
    alternatives = "|".join(re.escape(s) for s in sorted(spellings, key=len, reverse=True))
    return re.compile(rf"(?<![0-9])(?:{alternatives})(?![0-9])")


def stored_actors(database: Path) -> dict[tuple[int, int], int | None]:
    """Who made each stored move, by (game id, move number from 1): the person seated at
    the move's seat, None for a computer's seat. Exact in runs where nobody leaves and no
    turn times out, as then nobody's moves are made for them."""
    actors: dict[tuple[int, int], int | None] = {}
    seated = {
        (game_id, seat): user_id
        for game_id, seat, user_id in stored_rows(
            database, "SELECT game_id, seat, user_id FROM seats"
        )
    }
    for game_id, stored in stored_rows(
        database, "SELECT id, match FROM games WHERE match IS NOT NULL"
    ):
        for seq, entry in enumerate(Match.from_json(stored).log, start=1):
            actors[(game_id, seq)] = seated.get((game_id, entry.seat))
    return actors


def move_of(data: str) -> tuple[int, int, Press]:
    """(game, move number, what it does) of a hand button's callback data."""
    return game_of(data), move_number_of(data), kind_of(data)


def accepted(answer_text: str | None, alert: bool, answered: bool) -> bool:
    """An answer that confirms a move: no alert, and no refusal text (a draw names the
    tiles drawn)."""
    return answered and not alert and (not answer_text or answer_text.startswith("Из базара"))


def audit_presses(games: list[Game], database: Path) -> tuple[int, int, int]:
    """(presses, losses, duplicates): a loss is a move press the bot confirmed that is not
    stored as that person's move; a duplicate is a stored move confirmed to more than one
    press, or a stored person's move that no press of theirs asked for."""
    actor = stored_actors(database)  # nobody leaves here, and the turn timer is off
    confirmed: Counter[tuple[int, int]] = Counter()
    asked: set[tuple[int, int, int]] = set()
    presses = losses = 0
    for game in games:
        for player in game.players:
            for data, answer in player.pressed:
                presses += 1
                gid, move, kind = move_of(data)
                if kind not in MOVES:
                    continue
                asked.add((gid, move, player.user.id))
                if accepted(answer.text, answer.show_alert, answer.answered):
                    confirmed[(gid, move)] += 1
                    if actor.get((gid, move + 1)) != player.user.id:
                        losses += 1
    duplicates = sum(count - 1 for count in confirmed.values() if count > 1)
    # Every batch of a person's actions starts at a move some press of theirs asked for.
    for (gid, seq), who in actor.items():
        if who is None or actor.get((gid, seq - 1)) == who:
            continue  # a computer's move, or the rest of one press (draws, then the play)
        if (gid, seq - 1, who) not in asked:
            duplicates += 1
    return presses, losses, duplicates
