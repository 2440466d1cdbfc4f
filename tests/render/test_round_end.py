"""A round's end in one picture (`render_round_end`): the final table and every hand laid
open over the score sheet, for every game, 2-4 seats and pairs; the bazaar never.

What is drawn is checked where it is drawn: the face-up tiles handed to the sprite
maker, the words handed to Pillow, never the pixels of text."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest
from PIL import Image

from domino.actions import Play
from domino.geometry import End
from domino.layout import new_layout
from domino.match import Match
from domino.players import GreedyPlayer, RandomPlayer
from domino.round import Round
from domino.rules import KOZEL
from domino.tiles import ALL_TILES, Tile
from domino.variants import VARIANTS, find_variant
from render import RenderError, draw, render_round_end
from render.geometry import Orientation
from render.round_end import MAX_HEIGHT, WIDTH

NAMES = ("Маша", "Алексей", "Оля", "Серёга")
ENGLISH = ("Alice", "Bob", "Carol", "Dave")


def games() -> list[tuple[str, int, bool]]:
    """Every game at every size it is played at, alone and (with four) in pairs."""
    cases = []
    for variant in VARIANTS:
        for players in (2, 3, 4):
            for teams in (False, True) if players == 4 else (False,):
                try:
                    ruleset = variant.ruleset.with_options(teams=teams)
                    Match.new(ruleset, players, seed=0)
                except ValueError:
                    continue
                cases.append((variant.key.value, players, teams))
    return cases


def ended(key: str, players: int, teams: bool, seed: int, rounds: int = 1) -> Match:
    """A seeded match of `key` played until `rounds` rounds have ended (or it is over)."""
    ruleset = find_variant(key).ruleset.with_options(teams=teams)
    match = Match.new(ruleset, players, seed=seed)
    player = RandomPlayer(random.Random(seed)) if seed % 2 else GreedyPlayer()
    while not match.over and len(match.results) < rounds:
        seat = match.turn
        assert seat is not None
        match.apply(player.choose(match.view(seat)), seat)
    return match


def size_of(data: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.mode == "P"
    return image.size


@pytest.fixture
def face_up(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[Tile, int, Orientation]]]:
    """Every face-up tile drawn: the tile, its unit and how it lies."""
    seen: list[tuple[Tile, int, Orientation]] = []
    original = draw.tile_sprite

    def recording(
        first: int, second: int, unit: int, orientation: Orientation, last: bool = False
    ) -> Image.Image:
        seen.append((Tile.parse(f"{first}-{second}"), unit, orientation))
        return original(first, second, unit, orientation, last)

    monkeypatch.setattr(draw, "tile_sprite", recording)
    yield seen


@pytest.mark.parametrize(("key", "players", "teams"), games())
def test_every_game_draws_its_table_and_every_hand_but_never_the_bazaar(
    face_up: list[tuple[Tile, int, Orientation]], key: str, players: int, teams: bool
) -> None:
    for seed in (players, players + 1):  # a greedy and a random deal
        match = ended(key, players, teams, seed)
        round_ = match.ended_round(1)
        face_up.clear()
        data = render_round_end(match.view(None), NAMES[:players], round_, match.results[0])
        width, height = size_of(data)
        assert width == WIDTH and height <= MAX_HEIGHT and height < 1.3 * width
        drawn = {tile for tile, _, _ in face_up}
        hands = {tile for seat in range(players) for tile in round_.hand(seat)}
        layout = round_.view(None).layout
        played = {p.tile for p in layout.placements if not p.closed}
        assert hands and hands <= drawn, "a hand's tile is not drawn"
        assert played <= drawn, "a played tile is not drawn"
        bazaar = set(ALL_TILES) - hands - {p.tile for p in layout.placements}
        assert not drawn & bazaar, f"the bazaar's tiles drawn: {sorted(map(str, drawn & bazaar))}"
        # The same state, the same bytes (the e2e test compares the group's photo with them).
        assert render_round_end(match.view(None), NAMES[:players], round_) == data


def test_each_seat_shows_its_own_tiles_and_the_seat_that_went_out_none(
    face_up: list[tuple[Tile, int, Orientation]],
) -> None:
    """A made-up end: seat 1 goes out with its last tile, seat 0 is left with the other
    26 (the most a hand can hold): all of them face up, upright, small enough to fit."""
    opener, last = Tile.parse("6-6"), Tile.parse("5-6")
    layout = new_layout(KOZEL.layout)
    layout.place(opener, None)
    rest = [t for t in ALL_TILES if t not in (opener, last)]
    round_ = Round.from_position(KOZEL, 2, [sum(t.bit for t in rest), last.bit], [], layout, turn=1)
    round_.apply(Play(last, End.LEFT), 1)
    assert round_.over and round_.hand(1) == ()
    match = Match.new(KOZEL, 2, seed=1)
    data = render_round_end(match.view(None), ("Маша", "Алексей"), round_)
    assert size_of(data)[0] == WIDTH
    in_hands = [tile for tile, unit, way in face_up if way is Orientation.VERTICAL and unit <= 16]
    assert sorted(in_hands) == sorted(rest)


def test_english_words_and_a_seat_with_nothing_left(drawn: list[str]) -> None:
    match = ended("kozel", 4, False, seed=3, rounds=2)
    result = match.results[1]
    assert result.outcome.kind.value == "went_out"
    render_round_end(match.view(None), ENGLISH, match.ended_round(2), result, "en")
    shown = " | ".join(drawn)
    for word in ("Round 2 · results", "before", "round", "after", "no tiles left", "Kozel"):
        assert word in shown, (word, shown)
    assert not any("\u0400" <= char <= "\u04ff" for char in shown), shown
    drawn.clear()
    render_round_end(match.view(None), NAMES, match.ended_round(2), result, "ru")
    shown = " | ".join(drawn)
    for word in ("Раунд 2 · итоги", "было", "стало", "костей не осталось", "домино"):
        assert word in shown, (word, shown)


def test_a_computers_name_is_not_cut_while_its_row_has_room(drawn: list[str]) -> None:
    """«🤖 Компьютер 1» fits in full (it was «🤖 Компь… 1» with blank room after it)."""
    names = ("Дима", "Женя", "🤖 Компьютер 1", "🤖 Компьютер 2")
    for teams in (False, True):
        match = ended("kozel", 4, teams, seed=3)
        drawn.clear()
        render_round_end(match.view(None), names, match.ended_round(1))
        shown = " | ".join(drawn)
        assert "Компьютер 1" in shown and "Компьютер 2" in shown, shown
        assert "…" not in shown, shown


def test_the_round_drawn_is_the_one_given_not_the_current_one() -> None:
    match = ended("kozel", 3, False, seed=4, rounds=2)
    view = match.view(None)
    first = render_round_end(view, NAMES[:3], match.ended_round(1), view.results[0])
    second = render_round_end(view, NAMES[:3], match.ended_round(2), view.results[1])
    assert first != second
    again = Match.from_json(match.to_json())  # replayed from the stored form
    assert render_round_end(view, NAMES[:3], again.ended_round(1), view.results[0]) == first


def test_a_round_still_played_or_the_wrong_names_are_refused() -> None:
    match = Match.new(KOZEL, 4, seed=2)
    with pytest.raises(RenderError, match="has not ended"):
        render_round_end(match.view(None), NAMES, match.round)
    done = ended("kozel", 4, False, seed=2)
    with pytest.raises(RenderError):
        render_round_end(done.view(None), NAMES[:3], done.ended_round(1))


def test_at_the_matchs_end_the_heading_keeps_both_lines_above_the_table() -> None:
    """The loser (or winner) and the last round's outcome under the title: the table
    starts below them, so the outcome's yellow line shows in full."""
    match = ended("kozel", 4, False, seed=8, rounds=99)
    assert match.over
    data = render_round_end(match.view(None), NAMES, match.ended_round(len(match.results)))
    image = Image.open(io.BytesIO(data)).convert("RGB")
    found = image.crop((40, 150, 700, 176)).getcolors(maxcolors=1 << 16)
    assert found is not None
    line = {colour for _, colour in found}
    assert draw.TURN in line and draw.FELT not in line
