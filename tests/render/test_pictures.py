"""The pictures: valid PNGs of the declared size, the same bytes for the same state,
any names at all, drawn from the public view only."""

from __future__ import annotations

import dataclasses
import io
import random

import pytest
from PIL import Image

from domino.geometry import End
from domino.match import Match
from domino.players import GreedyPlayer
from domino.rules import CLASSIC, KOZEL, LayoutKind, Ruleset
from domino.views import Account, MatchView, OutcomeKind, RoundOutcome, RoundResult
from render import (
    SCORES_SIZE,
    TABLE_AREA,
    TABLE_SIZE,
    RenderError,
    demo,
    draw,
    labels,
    render_scores,
    render_table,
    table_geometry,
)

NAMES = ("Маша", "Алексей", "Оля", "Серёга")
ODD_NAMES = {
    "cyrillic": ("Ёжик Фёдорович", "Щукарь", "Юлия", "Эдуард"),
    "emoji": ("🐐🐐🐐", "Вася 😀🎲", "👨‍👩‍👧‍👦", "🥚"),
    "right_to_left": ("שרה כהן", "مريم العربية", "Dana דנה", "‏‏Hidden\u202emarks"),
    "long": ("Я" * 200, "W" * 200, "Александра " * 18 + "ab", "x" * 200),
    "odd": ("", "   ", "tab\tand\nnew line\x00", "\u0301\u0336combining"),
}


def play(match: Match, moves: int | None = None, seed: int = 1) -> Match:
    rng = random.Random(seed)
    player = GreedyPlayer()
    done = 0
    while not match.over and (moves is None or done < moves):
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        action = player.choose(view) if rng.random() < 0.5 else rng.choice(view.round.legal)
        match.apply(action, seat)
        done += 1
    return match


def play_rounds(match: Match, rounds: int) -> Match:
    while len(match.results) < rounds and not match.over:
        play(match, 1, seed=len(match.log))
    return match


def opened(data: bytes, size: tuple[int, int]) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    assert image.size == size
    assert image.mode == "P"  # 8-bit palette PNG (render/draw.py)
    return image.convert("RGB")


def _views() -> dict[str, tuple[MatchView, int]]:
    line = demo.eulerian_line()
    trail = demo.spinner_arms(2)
    return {
        "empty": (Match.new(KOZEL, 4, seed=1).view(None), 4),
        "midgame_3": (play(Match.new(KOZEL, 3, seed=2), 10).view(None), 3),
        "teams_round_3": (
            play(play_rounds(Match.new(KOZEL.with_options(teams=True), 4, seed=3), 2), 6).view(
                None
            ),
            4,
        ),
        "spinner_real": (
            play(Match.new(KOZEL.with_options(layout=LayoutKind.SPINNER), 2, seed=4), 15).view(
                None
            ),
            2,
        ),
        "full_line": (demo.match_view(demo.line_layout(line, 9), 4, eggs=17), 4),
        "cross": (demo.match_view(demo.spinner_layout(2, {End.RIGHT: trail}), 2, turn=1), 2),
        "match_over": (play(Match.new(KOZEL, 4, seed=5)).view(None), 4),
        "classic_over": (play(Match.new(CLASSIC, 3, seed=6)).view(None), 3),
    }


VIEWS = _views()


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_table_is_a_valid_png_and_deterministic(name: str) -> None:
    view, players = VIEWS[name]
    first = render_table(view, NAMES[:players])
    assert first == render_table(view, NAMES[:players])
    opened(first, TABLE_SIZE)
    assert len(first) < 200 * 1024


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_score_sheet_is_a_valid_png_and_deterministic(name: str) -> None:
    view, players = VIEWS[name]
    first = render_scores(view, NAMES[:players])
    assert first == render_scores(view, NAMES[:players])
    opened(first, SCORES_SIZE)


@pytest.mark.parametrize("kind", sorted(ODD_NAMES))
def test_any_names_render(kind: str) -> None:
    names = ODD_NAMES[kind]
    view = play(play_rounds(Match.new(KOZEL.with_options(teams=True), 4, seed=7), 1), 3).view(None)
    opened(render_table(view, names), TABLE_SIZE)
    opened(render_scores(view, names), SCORES_SIZE)
    solo = play_rounds(Match.new(KOZEL, 4, seed=8), 1).view(None)
    opened(render_table(solo, names), TABLE_SIZE)
    opened(render_scores(solo, names), SCORES_SIZE)


def test_names_must_match_the_seats() -> None:
    view = Match.new(KOZEL, 3, seed=1).view(None)
    with pytest.raises(RenderError, match="3 players need 3 names, got 2"):
        render_table(view, NAMES[:2])
    with pytest.raises(RenderError, match="3 players need 3 names, got 4"):
        render_scores(view, NAMES)


def test_the_table_never_draws_a_hand() -> None:
    """A seat's own view and the public view give the same picture: no hand leaks."""
    match = play(Match.new(KOZEL, 4, seed=9), 5)
    public = render_table(match.view(None), NAMES)
    for seat in range(4):
        assert render_table(match.view(seat), NAMES) == public


def test_the_last_tile_is_ringed() -> None:
    view, _ = VIEWS["full_line"]
    image = opened(render_table(view, NAMES), TABLE_SIZE)
    geometry = table_geometry(view.round.layout, TABLE_AREA)
    last = max(geometry.tiles, key=lambda box: box.placement.seq)
    rect = last.rect
    middle_y = (rect.y0 + rect.y1) // 2
    assert image.getpixel((rect.x0 - 2, middle_y)) == draw.LAST_RING
    assert image.getpixel((rect.x1 + 2, middle_y)) == draw.LAST_RING
    others = [box for box in geometry.tiles if box is not last]
    for box in others[:5]:
        assert image.getpixel((box.rect.x0 + 2, (box.rect.y0 + box.rect.y1) // 2)) != draw.LAST_RING


def test_open_ends_get_badges() -> None:
    view, _ = VIEWS["full_line"]
    image = opened(render_table(view, NAMES), TABLE_SIZE)
    geometry = table_geometry(view.round.layout, TABLE_AREA)
    assert len(geometry.ends) == 2
    for mark in geometry.ends:
        (x, y), (dx, dy) = mark.point, mark.direction
        u = geometry.unit
        # Beside the number, inside the disc, the badge colour shows.
        assert image.getpixel((x + dx * u + u // 2, y + dy * u + u // 2)) == draw.END_BADGE or (
            image.getpixel((x + dx * u - u // 2, y + dy * u - u // 2)) == draw.END_BADGE
        )


def _colours(image: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, ...]]:
    colours = image.crop(box).getcolors(maxcolors=1 << 16)
    assert colours is not None
    return {colour for _, colour in colours if isinstance(colour, tuple)}


def test_eggs_are_drawn_as_an_egg_not_a_box() -> None:
    layout = demo.line_layout(demo.eulerian_line()[:5], 2)
    title = (0, 0, TABLE_SIZE[0], 64)
    with_eggs = opened(render_table(demo.match_view(layout, 4, eggs=23), NAMES), TABLE_SIZE)
    without = opened(render_table(demo.match_view(layout, 4, eggs=0), NAMES), TABLE_SIZE)
    assert draw.EGG_SHELL in _colours(with_eggs, title)
    assert draw.EGG_SHELL not in _colours(without, title)


def test_kozel_accounts_follow_the_online_platforms() -> None:
    """K-7: remembered points `+N` in yellow, an open account plain and red."""
    view, _ = VIEWS["midgame_3"]
    assert labels.account(view, Account(0, 7, False)) == ("+7", draw.REMEMBERED)
    assert labels.account(view, Account(20, 0, True)) == ("20", draw.RECORDED)
    assert labels.account(view, Account()) == ("0", draw.MUTED)
    classic, _ = VIEWS["classic_over"]
    assert labels.account(classic, Account(45)) == ("45", draw.GOOD)


def _k8_view(ruleset: Ruleset = KOZEL) -> tuple[MatchView, RoundResult]:
    """K-8's worked example as a finished round (Masha went out)."""
    before = (Account(0, 19), Account(), Account(0, 7), Account(0, 4))
    after = (Account(), Account(0, 3), Account(20, 0, True), Account(0, 9))
    result = RoundResult(
        round_no=2,
        outcome=RoundOutcome(OutcomeKind.WENT_OUT, 0, (0, 3, 13, 5)),
        before=before,
        points=(0, 3, 13, 5),
        after=after,
        eggs_before=0,
        eggs_after=0,
        eggs_taken_by=None,
    )
    layout = demo.line_layout(demo.eulerian_line()[:6], 3)
    view = demo.match_view(
        layout, 4, ruleset=ruleset, round_no=3, scores=after, results=(result,), turn=0
    )
    return view, result


def test_score_sheet_defaults_to_the_last_result() -> None:
    view, result = _k8_view()
    assert render_scores(view, NAMES) == render_scores(view, NAMES, result)
    other = RoundResult(1, result.outcome, result.before, (1, 1, 1, 1), result.before, 0, 5, None)
    assert render_scores(view, NAMES, other) != render_scores(view, NAMES)


def test_score_sheet_marks_the_goat_and_the_winner() -> None:
    view, _ = VIEWS["match_over"]
    assert view.over and view.losers
    loser_sheet = opened(render_scores(view, NAMES), SCORES_SIZE)
    assert draw.LOSER_TINT in _colours(loser_sheet, (0, 0, *SCORES_SIZE))
    classic, players = VIEWS["classic_over"]
    assert classic.over and classic.winners
    winner_sheet = opened(render_scores(classic, NAMES[:players]), SCORES_SIZE)
    assert draw.WINNER_TINT in _colours(winner_sheet, (0, 0, *SCORES_SIZE))
    assert draw.LOSER_TINT not in _colours(winner_sheet, (0, 0, *SCORES_SIZE))


def test_score_sheet_before_any_round_shows_the_current_scores() -> None:
    view = Match.new(KOZEL, 2, seed=3).view(None)
    assert view.results == ()
    opened(render_scores(view, NAMES[:2]), SCORES_SIZE)


def test_outcome_and_match_end_words() -> None:
    three, _ = VIEWS["midgame_3"]
    fish = RoundOutcome(OutcomeKind.FISH, 2, (1, 2, 3))
    assert labels.outcome(three, fish, NAMES) == "рыба, рыбак: Оля"
    out = RoundOutcome(OutcomeKind.WENT_OUT, 1, (0, 2, 3))
    assert labels.outcome(three, out, NAMES) == "домино: Алексей"
    over, _ = VIEWS["match_over"]
    assert labels.match_end(over, NAMES).startswith("Козёл: ")
    classic, _ = VIEWS["classic_over"]
    assert labels.match_end(classic, NAMES).startswith("Победа: ")
    teams, _ = VIEWS["teams_round_3"]
    assert labels.side_name(teams, 0, NAMES) == "А: Маша и Оля"
    goats = dataclasses.replace(teams, over=True, losers=(1,))
    assert labels.match_end(goats, NAMES) == "Козёл: Алексей + Серёга"
    assert labels.match_end(goats, NAMES, "en") == "Goat: Алексей + Серёга"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_card_shows_its_face_down_tiles_beside_the_pair_and_turn_tags(
    monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """A pair's card at its turn showed only «× 7»: its tags took the tiles' room."""
    from render import table, text

    shown: list[int] = []
    step = draw.back_sprite(16, 30).width + 4
    original = table._hand

    def recording(canvas: Image.Image, pen: draw.Pen, left: int, right: int, *rest: int) -> None:
        count = rest[1]
        room = right - left - round(text.width(f"× {count}", 26, bold=True)) - 10
        shown.append(min(count, max(0, room // step)) - count)
        original(canvas, pen, left, right, *rest)

    monkeypatch.setattr(table, "_hand", recording)
    view = Match.new(KOZEL.with_options(teams=True), 4, seed=1).view(None)
    assert view.round.turn is not None and max(view.round.hand_counts) == 7
    render_table(view, ("Alice", "Bob", "🤖 Компьютер 1", "Dave"), lang)
    assert shown == [0, 0, 0, 0]
