"""The Mini App's state keeps every secret, over a whole match of every game.

For each of the thirteen games a match is played by the engine's computers, move by
move, and at every step the state (`bot.webapp.views.game_view`) of every seat and of
the public, serialised to JSON and read back, is walked: no tile of another seat's
hand, of the bazaar or of a face-down stack (Втемную, the viewer's own too), and
nowhere the seed. Tiles are found by their shape, not by text: an object with "a" and
"b", or a pair of pips `[a, b]` (any list of two pips but a side's `seats`); a text
is searched for the tile as the messages write it («2|5»), as the transcripts are
(`tests/fakegram/privacy.py`).

What is public is allowed: the table, a tile turned up (Втемную's that fits two ends,
`Flipped` ones everyone saw before they went under the stack), the tiles turned before
the first round (S-2), and the round that ended: its `round_end` holds exactly its
hands as they were left and its table (both layouts), and nothing of its bazaar; its
`match_lines` (the match's end) may name the players and their scores, never a tile.

At every step the same game is also seen as if it had been cancelled, or given up
(/surrender), right then: a cancelled game lays no round open, a game given up only the
round that has just ended (never an earlier one while a round runs), and neither shows
a hand. The lobby, before the deal, holds no tile at all.

Each match is played to its end (at most `MAX_STEPS` moves, which no match of these
computers comes near), so every round's end and every next deal are seen.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.webapp.views import game_view
from domino.actions import Flipped, TurnedUp
from domino.ai import Level, computer
from domino.match import Match
from domino.round import Round
from domino.tiles import ALL_TILES as SET
from domino.tiles import Tile
from domino.tiles import tile as make_tile
from domino.variants import VARIANTS
from i18n import Lang
from storage.records import Ending, GameRecord, GameStatus, SeatRecord

SEED_BASE = 7_340_019_221  # no number of a state is near it: a seed is found by its digits
MAX_STEPS = 5000
ALL_TILES = frozenset(SET)


def players_of(key: str) -> int:
    """Four where the game is played in pairs (S-1), else two; three for one game, so a
    three-seat deal (a reserve tile in Блиц, C-6) is audited too."""
    game = next(game for game in VARIANTS if game.key.value == key)
    if game.ruleset.min_players == 4:
        return 4
    return 3 if key == "blitz" else 2


def tiles_in(value: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[Tile, tuple[str, ...]]]:
    """Every tile the JSON `value` holds, by its shape, with where it lies."""
    if isinstance(value, dict):
        a, b = value.get("a"), value.get("b")
        if isinstance(a, int) and isinstance(b, int):
            yield make_tile(a, b), path
        for key, item in value.items():
            yield from tiles_in(item, (*path, str(key)))
    elif isinstance(value, list):
        if (
            len(value) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in value)
            and all(0 <= x <= 6 for x in value)
            and path[-1:] != ("seats",)
        ):
            yield make_tile(*value), path
        for index, item in enumerate(value):
            yield from tiles_in(item, (*path, str(index)))


def texts_in(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from texts_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from texts_in(item)


def numbers_in(value: Any) -> Iterator[int]:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from numbers_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from numbers_in(item)


TILE_TEXT = re.compile(r"(?<![0-9])([0-6])\|([0-6])(?![0-9])")
"""A tile as the messages write it, «2|5», not inside a longer number."""


def written(text: str) -> Iterator[Tile]:
    """The tiles `text` writes as the messages do."""
    for found in TILE_TEXT.finditer(text):
        yield make_tile(int(found[1]), int(found[2]))


def secrets(rnd: Round, players: int, seat: int | None) -> frozenset[Tile]:
    """What `seat` (None: the public) may not see of round `rnd`: every other hand, the
    bazaar, and its own tiles while they lie face down (Втемную); a tile turned up, and
    the tiles turned before the first round (S-2), are public."""
    hands = [frozenset(rnd.hand(s)) for s in range(players)]
    placed = frozenset(p.tile for p in rnd.layout.view().placements)
    bazaar = ALL_TILES - placed - frozenset().union(*hands)
    hidden = set(bazaar)
    for s in range(players):
        if s != seat or rnd.face_down(s):
            hidden |= hands[s]
    public = set(rnd.view(None).turned)
    turned_up = rnd.turned_up
    if turned_up is not None:
        public.add(turned_up)
    return frozenset(hidden - public)


def seen_turned(rnd: Round) -> frozenset[Tile]:
    """Tiles of this round everyone saw turned up (Втемную), named in the moves' texts."""
    return frozenset(e.tile for e in rnd.history if isinstance(e, Flipped | TurnedUp))


def audit(state: dict[str, Any], match: Match, seat: int | None, step: int) -> None:
    where = f"{match.ruleset.game.key.value}, step {step}, viewer {seat}"
    state = json.loads(json.dumps(state, ensure_ascii=False))
    seed = match.seed
    assert seed not in set(numbers_in(state)), f"{where}: the seed"
    assert not any(str(seed) in text for text in texts_in(state)), f"{where}: the seed"
    ended = state.get("round_end")
    rest = {key: value for key, value in state.items() if key != "round_end"}
    hidden = secrets(match.round, match.players, seat)
    for tile, path in tiles_in(rest):
        assert tile not in hidden, f"{where}: {tile} at {'.'.join(path)}"
    said = hidden - seen_turned(match.round)
    for text in texts_in(state):  # the round end's lines too: they name no tile
        leaked = [str(tile) for tile in written(text) if tile in said]
        assert not leaked, f"{where}: {leaked} in {text!r}"
    if ended is not None:
        audit_round_end(ended, match, where)


def audit_round_end(ended: dict[str, Any], match: Match, where: str) -> None:
    """The round that ended: exactly its hands as left, its table, nothing of its bazaar."""
    rnd = match.ended_round(ended["round"])
    players = match.players
    for shown in ended["hands"]:
        tiles = [make_tile(a, b) for a, b in shown["tiles"]]
        assert sorted(tiles) == sorted(rnd.hand(shown["seat"])), f"{where}: round end's hand"
    placed = frozenset(p.tile for p in rnd.layout.view().placements)
    laid_open = placed.union(*(rnd.hand(s) for s in range(players)))
    for tile, path in tiles_in(ended):
        assert tile in laid_open, f"{where}: round end's {tile} at {'.'.join(path)}"
    narrow = ended["table"]["narrow"]
    assert len(narrow["tiles"]) == len(ended["table"]["tiles"]), f"{where}: narrow table"
    for line in ended["match_lines"]:
        assert not list(written(line)), f"{where}: a tile in the match's end {line!r}"
    if not match.over:
        assert ended["match_lines"] == [] or not match.round.history, f"{where}: match lines"


def ended_early(record: GameRecord, match: Match) -> Iterator[tuple[str, GameRecord]]:
    """The game as if it had been cancelled, and given up by seat 0, at this moment."""
    if record.status is not GameStatus.PLAYING:
        return
    yield "cancelled", replace(record, status=GameStatus.CANCELLED, ending=Ending.CANCELLED)
    given_up = record.abandoned_by(0, Ending.SURRENDER)
    yield "given up", replace(given_up, status=GameStatus.FINISHED, ending=Ending.SURRENDER)


def audit_ended_early(state: dict[str, Any], how: str, match: Match, step: int) -> None:
    where = f"{match.ruleset.game.key.value}, step {step}, {how}"
    assert state["hand"] is None, f"{where}: a hand"
    ended = state["round_end"]
    if how == "cancelled":
        assert ended is None, f"{where}: a cancelled game lays a round open"
    elif match.round.history:
        assert ended is None, f"{where}: an earlier round's end while a round ran"
    else:
        assert ended is None or ended["round"] == len(match.results), f"{where}: round end"


@pytest.mark.slow(seconds=3)  # a whole match, 11 states a move: started first
@pytest.mark.parametrize("key", [game.key.value for game in VARIANTS])
def test_no_state_of_any_game_holds_a_secret(key: str) -> None:
    game = next(game for game in VARIANTS if game.key.value == key)
    players = players_of(key)
    index = [g.key.value for g in VARIANTS].index(key)
    match = Match.new(game.ruleset, players, seed=SEED_BASE + index)
    seats = tuple(
        SeatRecord(s, 100 + s if s % 2 == 0 else None, f"Игрок {s}") for s in range(players)
    )
    record = GameRecord(1, -1, GameStatus.PLAYING, 100, game.ruleset, players, seats, match)
    movers = [computer(Level.EASY, seed=s) for s in range(players)]
    now = datetime(2026, 1, 1, tzinfo=UTC)
    step = 0
    saw_round_end = False
    lobby = replace(record, status=GameStatus.LOBBY, match=None)
    for viewer in (None, 0):
        state = json.loads(
            json.dumps(game_view(lobby, viewer, Lang.RU, now=now, hints=True, may_join=True))
        )
        assert not list(tiles_in(state)), f"{key}: a tile in the lobby"
        assert state["lobby"]["rules"] and state["round_end"] is None
    while step < MAX_STEPS:
        for viewer in (None, *range(players)):
            state = game_view(record, viewer, Lang.RU, now=now, hints=True, may_join=False)
            audit(state, match, viewer, step)
            saw_round_end |= state["round_end"] is not None
        for how, early in ended_early(record, match):
            for viewer in (None, 0, 1):
                state = game_view(early, viewer, Lang.RU, now=now, hints=True, may_join=False)
                audit(state, match, viewer, step)
                audit_ended_early(state, how, match, step)
        if match.over:
            break
        mover = match.turn
        assert mover is not None
        match.apply(movers[mover].choose(match.view(mover)), mover)
        status = GameStatus.FINISHED if match.over else GameStatus.PLAYING
        record = replace(record, status=status)
        step += 1
    assert match.over, f"{key}: not over after {step} moves"
    if match.results:
        assert saw_round_end, "a round ended, and its hands were never laid open"


def test_the_audit_finds_a_tile_of_another_hand_however_it_is_written() -> None:
    game = next(game for game in VARIANTS if game.key.value == "kozel")
    match = Match.new(game.ruleset, 2, seed=SEED_BASE)
    seats = (SeatRecord(0, 100, "Алиса"), SeatRecord(1, 101, "Боб"))
    record = GameRecord(1, -1, GameStatus.PLAYING, 100, game.ruleset, 2, seats, match)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    state = game_view(record, 0, Lang.RU, now=now, hints=True, may_join=False)
    audit(state, match, 0, 0)
    theirs = match.round.hand(1)[0]
    for planted in (
        {"tile": {"a": theirs.high, "b": theirs.low}},
        {"tiles": [[theirs.low, theirs.high]]},
        {"said": f"Боб держит {theirs.high}|{theirs.low}"},
        {"seed": match.seed},
    ):
        with pytest.raises(AssertionError):
            audit({**state, **planted}, match, 0, 0)
