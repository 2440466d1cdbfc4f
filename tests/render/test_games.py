"""The pictures of every game: Осёл's spinner cross with up to four arms, long arms and
doubles laid face down (O-1 .. O-3), Спортивное's pairs, turned tiles and target (S-1,
S-2, S-6), Морской козёл's good points (M-6), each game's loser or winner, and the
group's language. Structural checks, as in test_pictures: colours in places, never the
text inside the image."""

from __future__ import annotations

import dataclasses
import io
import random

import pytest
from PIL import Image

from domino.geometry import End
from domino.layout import new_layout
from domino.match import Match
from domino.players import GreedyPlayer, RandomPlayer
from domino.rules import LayoutKind, Ruleset
from domino.tiles import Tile
from domino.variants import VARIANTS, find_variant
from domino.views import Account, MatchView
from i18n import Lang, t
from render import (
    SCORES_SIZE,
    TABLE_AREA,
    TABLE_SIZE,
    demo,
    draw,
    labels,
    render_scores,
    render_table,
    table_geometry,
)
from tests.render.geometry_checks import check_geometry

NAMES = ("Маша", "Алексей", "Оля", "Серёга")


def rules(key: str) -> Ruleset:
    return find_variant(key).ruleset


def opened(data: bytes, size: tuple[int, int]) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == size and image.mode == "P"
    return image.convert("RGB")


def colours(image: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, ...]]:
    found = image.crop(box).getcolors(maxcolors=1 << 16)
    assert found is not None
    return {colour for _, colour in found if isinstance(colour, tuple)}


def played(key: str, players: int, seed: int, moves: int | None = None) -> Match:
    """A seeded match of the game `key`, moved `moves` times (None: to its end)."""
    match = Match.new(rules(key), players, seed=seed)
    rng = random.Random(seed)
    player = RandomPlayer(rng) if seed % 2 else GreedyPlayer()
    done = 0
    while not match.over and (moves is None or done < moves):
        seat = match.turn
        assert seat is not None
        match.apply(player.choose(match.view(seat)), seat)
        done += 1
    return match


def test_real_osel_tables_lay_out_cleanly_with_four_arms_long_arms_and_closed_ends() -> None:
    """O-1 .. O-3 as the engine plays them: after every move of seeded matches the cross
    holds (no overlap, inside the table, neighbours touching at equal halves), and among
    them are crosses with four arms, arms of ten tiles or more and closed ends."""
    arms, longest, closed = 0, 0, 0
    for seed in range(8):
        match = Match.new(rules("osel"), 2 + seed % 3, seed=seed)
        player = RandomPlayer(random.Random(seed)) if seed % 2 else GreedyPlayer()
        while not match.over and len(match.results) < 3:
            seat = match.turn
            assert seat is not None
            match.apply(player.choose(match.view(seat)), seat)
            layout = match.view(None).round.layout
            if not layout.placements:
                continue
            geometry = table_geometry(layout, TABLE_AREA)
            check_geometry(layout, geometry)
            assert geometry.cross == (layout.spinner is not None)
            arms = max(arms, sum(1 for _, arm in layout.arms if arm))
            longest = max(longest, max(len(arm) for _, arm in layout.arms))
            closed = max(closed, len(layout.closed_ends))
    assert arms == 4 and longest >= 10 and closed >= 1


def _closed_cross() -> MatchView:
    """A spinner 3-3 with 3-5 left, 1-3 right, the 5-5 laid face down on the left (O-3)
    and 1-1 face up on the right."""
    layout = new_layout(LayoutKind.SPINNER)
    layout.place(Tile.parse("3-3"), None)
    layout.place(Tile.parse("3-5"), End.LEFT)
    layout.place(Tile.parse("1-3"), End.RIGHT)
    layout.place(Tile.parse("5-5"), End.LEFT, closed=True)
    layout.place(Tile.parse("1-1"), End.RIGHT)
    return demo.match_view(layout.view(), 2, ruleset=rules("osel"), turn=0)


def test_a_double_laid_face_down_is_a_tile_back_with_a_lock() -> None:
    view = _closed_cross()
    assert view.round.layout.closed_ends == (End.LEFT,)
    image = opened(render_table(view, NAMES[:2]), TABLE_SIZE)
    geometry = table_geometry(view.round.layout, TABLE_AREA)
    for box in geometry.tiles:
        r = box.rect
        inside = colours(image, (r.x0 + 3, r.y0 + 3, r.x1 - 3, r.y1 - 3))
        if box.placement.closed:
            assert draw.BACK_FACE in inside and draw.BACK_EDGE in inside  # the lock
            assert draw.TILE_FACE not in inside and draw.PIP not in inside
        else:
            assert draw.BACK_FACE not in inside
    assert [mark.end for mark in geometry.ends] == [End.RIGHT, End.UP, End.DOWN]


def test_sport_shows_each_seats_turned_tile_until_the_first_tile() -> None:
    """S-2: before the first tile each seat's turned tile lies face up on the empty felt
    under its card (not on the card, where it cut the name); the game has no bazaar
    (S-1), so none is counted."""
    match = Match.new(rules("sport"), 4, seed=11)
    view = match.view(None)
    assert len(view.round.turned) == 4 and not view.round.layout.placements
    assert not labels.has_bazaar(view)
    cards = (0, 72, TABLE_SIZE[0], 200)
    image = opened(render_table(view, NAMES), TABLE_SIZE)
    assert draw.TILE_FACE not in colours(image, cards)
    width = TABLE_SIZE[0] // 4
    under = [(seat * width, 212, (seat + 1) * width, 340) for seat in range(4)]
    assert all(draw.TILE_FACE in colours(image, box) for box in under)
    hidden = dataclasses.replace(view, round=dataclasses.replace(view.round, turned=()))
    felt = (0, 212, *TABLE_SIZE)
    assert draw.TILE_FACE not in colours(opened(render_table(hidden, NAMES), TABLE_SIZE), felt)
    later = played("sport", 4, 11, moves=1).view(None)
    assert draw.TILE_FACE not in colours(opened(render_table(later, NAMES), TABLE_SIZE), cards)


def test_sport_sheets_name_pairs_and_the_winning_pair() -> None:
    over = played("sport", 4, 12).view(None)
    assert over.over and over.winners and over.sides == ((0, 2), (1, 3))
    assert labels.match_end(over, NAMES).startswith("Победа: ")
    assert labels.side_name(over, 0, NAMES) == "А: Маша и Оля"
    assert labels.side_name(over, 1, NAMES, "en") == "B: Алексей and Серёга"
    assert max(account.recorded for account in over.scores) >= 200  # S-6's target
    sheet = opened(render_scores(over, NAMES), SCORES_SIZE)
    whole = (0, 0, *SCORES_SIZE)
    assert draw.WINNER_TINT in colours(sheet, whole)
    assert draw.LOSER_TINT not in colours(sheet, whole)
    assert labels.word("to", "ru", game="Спортивное", target=200) == "Спортивное · игра до 200"


def test_sea_kozel_points_are_good_and_its_winner_is_green() -> None:
    over = played("sea_kozel", 2, 13).view(None)
    assert over.over and over.winners and not over.losers
    assert labels.account(over, Account(40)) == ("40", draw.GOOD)
    sheet = opened(render_scores(over, NAMES[:2]), SCORES_SIZE)
    assert draw.WINNER_TINT in colours(sheet, (0, 0, *SCORES_SIZE))


def test_osel_names_the_osel_and_kozel_the_kozel() -> None:
    osel = played("osel", 3, 14).view(None)
    assert osel.over and osel.losers
    assert labels.match_end(osel, NAMES[:3]).startswith("Осёл: ")
    assert labels.match_end(osel, NAMES[:3], "en").startswith("Donkey: ")
    sheet = opened(render_scores(osel, NAMES[:3]), SCORES_SIZE)
    assert draw.LOSER_TINT in colours(sheet, (0, 0, *SCORES_SIZE))
    kozel = played("kozel", 2, 15).view(None)
    assert labels.match_end(kozel, NAMES[:2]).startswith("Козёл: ")


@pytest.mark.parametrize("game", [game.key.value for game in VARIANTS])
def test_every_game_draws_in_both_languages(game: str) -> None:
    players = 4 if game == "sport" else 2
    match = played(game, players, 20, moves=12)
    view = match.view(None)
    for lang in Lang:
        opened(render_table(view, NAMES[:players], lang), TABLE_SIZE)
        opened(render_scores(view, NAMES[:players], None, lang), SCORES_SIZE)
    assert render_table(view, NAMES[:players], "en") != render_table(view, NAMES[:players])
    assert labels.variant_name(view) == t(find_variant(game).name_key, Lang.RU)


def test_the_words_follow_the_language() -> None:
    view = played("classic", 2, 21, moves=4).view(None)
    assert labels.variant_name(view, "en") == "Classic"
    assert labels.word("turn_of", "en", name="Маша") == "to move: Маша"
    assert labels.word("turn_of", "xx", name="Маша") == "ход: Маша"  # unknown: Russian
