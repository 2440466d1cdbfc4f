"""The pictures of the games that score during play, Пятёрки and Тройки и пятёрки
(F-1 .. F-6): each open end's badge shows the pip to match and a tag beside it what
the end counts where that differs (F-3: «=10» by a double across it), an empty
spinner arm on a muted badge with its pip, the first double as an off-centre spinner
(F-2), the note «+15 Маша» right after a move that scored and only then, the sum of
the ends, and a round stopped at the target (F-6) on the table, the round's end and
the score sheet. Badges and tags are compared pixel for pixel with ones drawn alone;
other checks are colours in places."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest
from PIL import Image

from domino import all_fives
from domino.actions import Played
from domino.geometry import End
from domino.layout import new_layout
from domino.match import Match
from domino.players import GreedyPlayer, RandomPlayer
from domino.rules import LayoutKind, Scoring
from domino.tiles import Tile
from domino.variants import VARIANTS, find_variant
from domino.views import Account, LayoutView, MatchView, OutcomeKind, RoundOutcome, Scored
from render import (
    SCORES_SIZE,
    TABLE_AREA,
    TABLE_SIZE,
    RenderError,
    demo,
    draw,
    labels,
    render_round_end,
    render_scores,
    render_table,
)
from render.counts import end_counts, last_scored
from render.geometry import Rect, TableGeometry
from render.scores import side_cells, side_tags
from render.table import Note, end_badges, plan_felt
from tests.render.geometry_checks import check_geometry

NAMES = ("Маша", "Алексей", "Оля", "Серёга")
ENGLISH = ("Alice", "Bob", "Carol", "Dave")
GAMES = ("all_fives", "threes_and_fives")
LIMIT = 50 * 1024


def opened(data: bytes, size: tuple[int, int] | None = None) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.mode == "P"
    assert size is None or image.size == size
    return image.convert("RGB")


def colours(image: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, ...]]:
    found = image.crop(box).getcolors(maxcolors=1 << 16)
    assert found is not None
    return {colour for _, colour in found if isinstance(colour, tuple)}


def whole_match(key: str, players: int, seed: int, teams: bool = False) -> Iterator[Match]:
    """A seeded match of `key`, yielded after every action."""
    ruleset = find_variant(key).ruleset.with_options(teams=teams)
    match = Match.new(ruleset, players, seed=seed)
    player = RandomPlayer(random.Random(seed)) if seed % 2 else GreedyPlayer()
    while not match.over:
        seat = match.turn
        assert seat is not None
        match.apply(player.choose(match.view(seat)), seat)
        yield match


def view_of(
    layout: LayoutView,
    players: int = 2,
    *,
    turn: int = 0,
    scores: tuple[Account, ...] | None = None,
    round_points: tuple[int, ...] = (),
    scored: Scored | None = None,
) -> MatchView:
    """A public All Fives view of `layout`; seat `seq % players` laid each tile."""
    return demo.match_view(
        layout,
        players,
        ruleset=find_variant("all_fives").ruleset,
        turn=turn,
        scores=scores,
        round_points=round_points,
        scored=scored,
    )


def laid(*moves: tuple[str, End | None]) -> LayoutView:
    """An All Fives table (F-2: the first double is the spinner) laid move by move."""
    layout = new_layout(LayoutKind.FIRST_DOUBLE)
    for tile, end in moves:
        layout.place(Tile.parse(tile), end)
    return layout.view()


# --------------------------------------------------------------- what the ends count


def test_each_end_counts_as_f3_says() -> None:
    """F-3's worked example (5-5 opens): alone 10, with 5-2 on its right 10 + 2, with
    5-3 on its left too 3 + 2 and its UP and DOWN arms open, counting nothing."""
    alone = laid(("5-5", None))
    assert end_counts(alone) == {End.LEFT: 5, End.RIGHT: 5}
    right = laid(("5-5", None), ("2-5", End.RIGHT))
    assert end_counts(right) == {End.LEFT: 10, End.RIGHT: 2}
    both = laid(("5-5", None), ("2-5", End.RIGHT), ("3-5", End.LEFT))
    assert end_counts(both) == {End.LEFT: 3, End.RIGHT: 2, End.UP: None, End.DOWN: None}
    across = laid(("2-5", None), ("5-5", End.RIGHT))  # an off-centre spinner, still an end
    assert end_counts(across) == {End.LEFT: 2, End.RIGHT: 10}
    for layout, total in ((alone, 10), (right, 12), (both, 5), (across, 12)):
        assert sum(c or 0 for c in end_counts(layout).values()) == all_fives.end_count(layout)
        assert all_fives.end_count(layout) == total


def _badge_box(geometry: TableGeometry, end: End) -> tuple[tuple[float, float], int]:
    from render.table import _badge_place

    mark = next(mark for mark in geometry.ends if mark.end is end)
    return _badge_place(geometry, mark)


def _badge_alone(
    centre: tuple[float, float], diameter: int, label: str, muted: bool
) -> Image.Image:
    """A badge drawn where the table draws it, on bare felt, through the same encoder."""
    canvas = Image.new("RGB", TABLE_SIZE, draw.FELT)
    if muted:
        draw.badge(canvas, centre, diameter, label, draw.END_MUTED, draw.END_MUTED_INK)
    else:
        draw.badge(canvas, centre, diameter, label)
    return opened(draw.encode_png(canvas))


def _shows(image: Image.Image, geometry: TableGeometry, end: End, label: str, muted: bool) -> bool:
    (cx, cy), diameter = _badge_box(geometry, end)
    half = diameter // 2 - 2  # inside the disc: no tile, ring or felt edge
    box = (round(cx) - half, round(cy) - half, round(cx) + half, round(cy) + half)
    expected = _badge_alone((cx, cy), diameter, label, muted).crop(box)
    return image.crop(box).tobytes() == expected.tobytes()


def _tag_shown(image: Image.Image, tag: Note) -> bool:
    """The tag's pill and its words, as the table draws them, pixel for pixel."""
    canvas = Image.new("RGB", TABLE_SIZE, draw.FELT)
    pen = draw.Pen(canvas)
    r = tag.rect
    pen.rounded_rectangle((r.x0, r.y0, r.x1, r.y1), radius=r.height // 2, fill=draw.PANEL)
    draw.write(pen, r.centre, tag.label, tag.size, tag.colour, bold=True, anchor="mm")
    expected = opened(draw.encode_png(canvas)).crop((r.x0, r.y0, r.x1, r.y1))
    return image.crop((r.x0, r.y0, r.x1, r.y1)).tobytes() == expected.tobytes()


def test_a_double_at_an_end_shows_its_pip_and_a_tag_with_both_halves() -> None:
    """2-5, then 5-5 across the right end: the badge there shows 5, the pip to match
    (a «10» was read as the number to lay), and a tag beside it «=10», what that end
    counts; the other end shows 2 and no tag; the notes say «концы: 12»."""
    layout = laid(("2-5", None), ("5-5", End.RIGHT))
    view = view_of(layout)
    image = opened(render_table(view, NAMES[:2]), TABLE_SIZE)
    geometry, notes = plan_felt(view, NAMES[:2])
    assert _shows(image, geometry, End.RIGHT, "5", muted=False)
    assert not _shows(image, geometry, End.RIGHT, "10", muted=False)
    assert _shows(image, geometry, End.LEFT, "2", muted=False)
    badges = {badge.end: badge for badge in end_badges(geometry, end_counts(layout))}
    assert badges[End.LEFT].tag is None and badges[End.RIGHT].label == "5"
    tag = badges[End.RIGHT].tag
    assert tag is not None and tag.label == "=10" and tag.colour == draw.END_BADGE
    assert _tag_shown(image, tag)
    assert geometry.area.contains(tag.rect)
    assert not any(tag.rect.overlaps(box.rect) for box in geometry.tiles)
    assert not any(tag.rect.overlaps(badge.rect) for badge in badges.values())
    assert [note.label for note in notes] == ["концы: 12"]


def test_six_six_across_an_end_shows_six_and_twelve(monkeypatch: pytest.MonkeyPatch) -> None:
    """6-6 across an end must not read «12», as if a 12 were to be laid: the badge's
    label is the 6 to match; the tag «=12» says what the end counts."""
    badges: list[tuple[str, str]] = []
    tags: list[str] = []
    original_badge, original_write = draw.badge, draw.write

    def badge(canvas: Image.Image, centre: object, diameter: int, label: str, *a: object) -> None:
        badges.append((label, "muted" if a and a[0] == draw.END_MUTED else "yellow"))
        original_badge(canvas, centre, diameter, label, *a)  # type: ignore[arg-type]

    def write(pen: draw.Pen, xy: object, label: str, size: int, fill: object, **k: object) -> float:
        if fill == draw.END_BADGE and label.startswith("="):
            tags.append(label)
        return original_write(pen, xy, label, size, fill, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(draw, "badge", badge)
    monkeypatch.setattr(draw, "write", write)
    layout = laid(("3-6", None), ("6-6", End.RIGHT))
    render_table(view_of(layout), NAMES[:2])
    assert sorted(badges) == [("3", "yellow"), ("6", "yellow")]
    assert tags == ["=12"]


def test_an_empty_spinner_arm_is_muted_with_its_pip() -> None:
    """Once the spinner has tiles on both sides its UP and DOWN arms open but count
    nothing until a tile lies there: a muted badge with the spinner's pip (they take a
    5), not the yellow one and not a «0»; no tag, they count no other number."""
    layout = laid(("5-5", None), ("2-5", End.RIGHT), ("3-5", End.LEFT))
    view = view_of(layout, turn=1)
    image = opened(render_table(view, NAMES[:2]), TABLE_SIZE)
    geometry, _ = plan_felt(view, NAMES[:2])
    for end in (End.UP, End.DOWN):
        assert _shows(image, geometry, end, "5", muted=True)
        assert not _shows(image, geometry, end, "0", muted=True)
        (cx, cy), _ = _badge_box(geometry, end)
        inside = colours(image, (round(cx) - 6, round(cy) - 6, round(cx) + 6, round(cy) + 6))
        assert draw.END_BADGE not in inside
    assert _shows(image, geometry, End.LEFT, "3", muted=False)
    assert _shows(image, geometry, End.RIGHT, "2", muted=False)
    assert all(badge.tag is None for badge in end_badges(geometry, end_counts(layout)))


def test_the_spinner_alone_at_an_end_is_tagged_with_both_halves() -> None:
    """5-5 with 2-5 on its right only: its left side is still an end and counts both
    halves (F-3): the badge shows 5, the tag «=10»."""
    layout = laid(("5-5", None), ("2-5", End.RIGHT))
    geometry, _ = plan_felt(view_of(layout), NAMES[:2])
    badges = {badge.end: badge for badge in end_badges(geometry, end_counts(layout))}
    assert badges[End.LEFT].label == "5" and badges[End.LEFT].tag is not None
    assert badges[End.LEFT].tag.label == "=10"
    assert badges[End.RIGHT].label == "2" and badges[End.RIGHT].tag is None
    alone = laid(("5-5", None))  # each side counts one half: its pip, no tag
    geometry, _ = plan_felt(view_of(alone), NAMES[:2])
    assert all(b.tag is None for b in end_badges(geometry, end_counts(alone)))


def test_other_games_keep_the_pip_on_their_badges() -> None:
    layout = laid(("2-5", None), ("5-5", End.RIGHT))
    view = demo.match_view(layout, 2, ruleset=find_variant("osel").ruleset)
    image = opened(render_table(view, NAMES[:2]), TABLE_SIZE)
    geometry, notes = plan_felt(view, NAMES[:2])
    assert notes == () and geometry.area == TABLE_AREA
    assert _shows(image, geometry, End.RIGHT, "5", muted=False)
    assert all(badge.tag is None for badge in end_badges(geometry))


# ------------------------------------------------------------------ real matches


def _taken(geometry: TableGeometry, layout: LayoutView) -> list[Rect]:
    from render.table import _taken as taken

    return taken(geometry, end_counts(layout))


@pytest.mark.parametrize("key", GAMES)
def test_real_matches_lay_out_cleanly_and_the_badges_add_up(key: str) -> None:
    """After every move of seeded matches (2-4 players, pairs): the geometry holds, an
    off-centre spinner (F-2) lies in the middle of its cross, the badges add up to the
    engine's sum (F-3) and no note lies on a tile or a badge. Among the positions are
    off-centre spinners with all four arms, and rounds stopped at the target (F-6)."""
    off_centre_crosses, reached, tagged = 0, 0, 0
    for seed in range(4):
        players = 2 + seed % 3
        for match in whole_match(key, players, seed, teams=seed == 3):
            view = match.view(None)
            layout = view.round.layout
            if not layout.placements:
                continue
            counted = end_counts(layout)
            assert set(counted) == {end for end, _ in layout.open_ends}
            assert sum(c or 0 for c in counted.values()) == all_fives.end_count(layout)
            geometry, notes = plan_felt(view, NAMES[:players])
            check_geometry(layout, geometry)
            spinner = layout.spinner
            if spinner is not None:
                middle = next(box for box in geometry.tiles if box.placement == spinner)
                assert middle.rect.centre == geometry.area.centre
                arms = sum(1 for _, arm in layout.arms if arm)
                off_centre_crosses += spinner.end is not None and arms == 4
            for note in notes:
                assert TABLE_AREA.contains(note.rect)
                assert not any(note.rect.overlaps(rect) for rect in _taken(geometry, layout))
            for badge in end_badges(geometry, counted):
                assert badge.label == str(dict(layout.open_ends)[badge.end])
                assert badge.muted == (counted[badge.end] is None)
                tag = badge.tag
                if tag is None:
                    assert counted[badge.end] in (None, int(badge.label))
                    continue
                assert tag.label == f"={counted[badge.end]}" and geometry.area.contains(tag.rect)
                tagged += 1
        outcome = match.view(None).round.outcome
        reached += outcome is not None and outcome.kind is OutcomeKind.REACHED
    assert off_centre_crosses and reached and tagged


def test_an_off_centre_cross_is_drawn_in_full() -> None:
    """The first position of a seeded All Fives match with a spinner laid on a side arm
    and tiles on its four arms: every tile is drawn where the geometry puts it."""
    for seed in range(20):
        for match in whole_match("all_fives", 3, seed):
            view = match.view(None)
            layout = view.round.layout
            spinner = layout.spinner
            arms = sum(1 for _, arm in layout.arms if arm)
            if spinner is None or spinner.end is None or arms < 4:
                continue
            image = opened(render_table(view, NAMES[:3]), TABLE_SIZE)
            geometry, _ = plan_felt(view, NAMES[:3])
            for box in geometry.tiles:
                r = box.rect
                inside = colours(image, (r.x0 + 4, r.y0 + 4, r.x1 - 4, r.y1 - 4))
                assert draw.TILE_FACE in inside or draw.TILE_LAST in inside
            return
    raise AssertionError("no seed up to 20 lays an off-centre spinner with four arms")


def _note_colours(image: Image.Image, note: Note) -> set[tuple[int, ...]]:
    r = note.rect
    return colours(image, (r.x0 + 4, r.y0 + 4, r.x1 - 4, r.y1 - 4))


@pytest.mark.parametrize(
    ("key", "players", "seed"), [("all_fives", 2, 1), ("threes_and_fives", 3, 2)]
)
def test_the_points_note_shows_right_after_the_scoring_move_only(
    key: str, players: int, seed: int
) -> None:
    """«+N Имя» stands on the felt from the move that scored until the next tile is
    played (draws and knocks leave the table as it is), and never otherwise; the table
    of a new round has none."""
    names = NAMES[:players]
    expected = False
    previous: Scored | None = None
    drawn_with, drawn_without = 0, 0
    for step, match in enumerate(whole_match(key, players, seed)):
        view = match.view(None)
        last = view.round.history[-1] if view.round.history else None
        if last is None:
            expected = False  # a new round was dealt
        elif type(last) is Played:
            expected = view.scored is not None and view.scored is not previous
        previous = view.scored
        scored = last_scored(view)
        assert (scored is not None) == expected, (step, view.scored, last)
        if scored is not None:
            assert scored == view.scored
        if step % 7 and not view.over:
            continue
        _, notes = plan_felt(view, names)
        said = [note.label for note in notes]
        image = opened(render_table(view, names), TABLE_SIZE)
        if scored is not None:
            assert f"+{scored.points} {names[scored.seat]}" in said
            note = next(note for note in notes if note.label.startswith("+"))
            assert {draw.GOOD, draw.PANEL} <= _note_colours(image, note)
            drawn_with += 1
        else:
            assert not any(label.startswith("+") for label in said)
            drawn_without += 1
        if view.round.layout.placements:
            count = view.ruleset.game.move_points(view.ruleset, view.round.layout)[1]
            assert labels.word("ends", "ru", n=count) in said
    assert drawn_with and drawn_without


def test_the_note_names_the_scorer_in_english_and_a_long_name_is_cut() -> None:
    layout = laid(("5-5", None), ("0-5", End.RIGHT))  # 10 + 0: the mover scored 10
    scored = Scored(seat=1, points=10, count=10)
    view = view_of(layout, turn=0, scored=scored, round_points=(0, 10))
    assert last_scored(view) == scored
    _, notes = plan_felt(view, ENGLISH[:2], "en")
    assert [note.label for note in notes] == ["open ends: 10", "+10 Bob"]
    long = ("Маша", "Александра Константиновна " * 8)
    _, notes = plan_felt(view, long)
    assert notes[1].label.startswith("+10 Александра") and notes[1].label.endswith("…")
    assert not notes[0].rect.overlaps(notes[1].rect)
    # Another seat's tile last (the history says so): the 10 was scored earlier.
    earlier = view_of(laid(("5-5", None), ("0-5", End.RIGHT)), turn=0, scored=Scored(0, 10, 10))
    assert last_scored(earlier) is None


def test_notes_move_to_the_bottom_where_tiles_reach_the_top() -> None:
    """A real position whose tiles reach the felt's top-left corner: the notes lie in the
    bottom corners, on free felt, and the tiles keep the whole table."""
    for seed in range(10):
        for match in whole_match("threes_and_fives", 4, seed):
            view = match.view(None)
            if not view.round.layout.placements:
                continue
            geometry, notes = plan_felt(view, NAMES)
            if notes[0].rect.y0 == TABLE_AREA.y0:
                continue
            assert geometry.area == TABLE_AREA
            assert all(note.rect.y1 == TABLE_AREA.y1 for note in notes)
            image = opened(render_table(view, NAMES), TABLE_SIZE)
            for note in notes:
                assert draw.PANEL in _note_colours(image, note)
                assert draw.TILE_FACE not in _note_colours(image, note)
            return
    raise AssertionError("no seed up to 10 lays tiles in the felt's top-left corner")


def test_notes_take_a_band_where_tiles_reach_top_and_bottom(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Notes so tall that, at the top or at the bottom, they would cover the tiles in the
    middle of the felt: the tiles give up a band across its top for them, and still
    hold together."""
    from render import table

    monkeypatch.setattr(table, "_NOTE_HEIGHT", 320)  # more than half the felt
    layout = demo.line_layout(demo.eulerian_line()[:8], 3)
    view = view_of(layout, 4)
    geometry, notes = plan_felt(view, NAMES)
    assert notes and geometry.area.y0 > TABLE_AREA.y0
    check_geometry(layout, geometry)
    for note in notes:
        assert note.rect.y0 == TABLE_AREA.y0 and note.rect.y1 < geometry.area.y0
    opened(render_table(view, NAMES), TABLE_SIZE)


# ------------------------------------------------------------ a round stopped at the target


def test_the_words_for_a_round_stopped_at_the_target() -> None:
    """F-6: the side that reached the target and the score it reached (a move may pass
    the target: 255 of 250), a pair as «Маша + Оля» with the plural verb."""
    alone = view_of(laid(("1-2", None)))
    reached = RoundOutcome(OutcomeKind.REACHED, 1, (3, 7))
    assert labels.outcome(alone, reached, NAMES, "ru", 255) == (
        "Алексей набирает 255 — партия окончена"
    )
    assert labels.outcome(alone, reached, ENGLISH, "en", 61) == "Bob reaches 61 — match over"
    said = labels.outcome(alone, reached, NAMES, "ru", 255, match_said=True)
    assert said == "Алексей набирает 255"
    assert labels.outcome(alone, reached, ENGLISH, "en", 255, match_said=True) == "Bob reaches 255"
    assert labels.outcome_tag(alone, reached, 255) == "набирает 255"
    assert labels.outcome_tag(alone, reached, 255, "en") == "reaches 255"
    pairs = demo.match_view(
        laid(("1-2", None)), 4, ruleset=find_variant("all_fives").ruleset.with_options(teams=True)
    )
    by_pair = RoundOutcome(OutcomeKind.REACHED, 2, (3, 7, 0, 4))
    assert labels.outcome(pairs, by_pair, NAMES, "ru", 256) == (
        "Маша + Оля набирают 256 — партия окончена"
    )
    assert labels.outcome(pairs, by_pair, ENGLISH, "en", 16, match_said=True) == (
        "Alice + Carol reach 16"
    )
    assert labels.outcome_tag(pairs, by_pair, 16) == "набирают 16"
    assert labels.outcome_tag(pairs, by_pair, 16, "en") == "reach 16"
    with pytest.raises(RenderError, match="needs the score reached"):
        labels.outcome(alone, reached, NAMES)
    went_out = RoundOutcome(OutcomeKind.WENT_OUT, 0, (0, 7))
    assert labels.outcome(alone, went_out, NAMES, "ru") == "домино: Маша"
    assert labels.outcome_tag(alone, went_out, 0) == "домино"
    assert labels.outcome(pairs, RoundOutcome(OutcomeKind.FISH, 3, (1, 2, 3, 4)), NAMES) == (
        "рыба, рыбак: Серёга"
    )
    assert labels.variant_name(alone, "en") == "All Fives"
    threes = demo.match_view(laid(("1-2", None)), 2, ruleset=find_variant(GAMES[1]).ruleset)
    assert labels.variant_name(threes, "en") == "Threes and Fives"  # as the bot's texts say
    assert labels.variant_name(threes) == "Тройки и пятёрки"


def _stopped_match(key: str, players: int, teams: bool = False) -> Match:
    for seed in range(40):
        *_, match = whole_match(key, players, seed, teams)
        if match.results[-1].outcome.kind is OutcomeKind.REACHED:
            return match
    raise AssertionError(f"no seed up to 40 stops a round of {key} at the target")


@pytest.mark.parametrize(
    ("key", "players", "teams"),
    [("all_fives", 2, False), ("all_fives", 4, True), ("threes_and_fives", 3, False)],
)
def test_a_round_stopped_at_the_target_on_every_picture(
    key: str, players: int, teams: bool
) -> None:
    """F-6: the table (its winner, the last move's points), the round's end with the
    hands as they were, and the score sheet whose line holds the points scored in play,
    in both languages and under the size bound."""
    match = _stopped_match(key, players, teams)
    view = match.view(None)
    result = view.results[-1]
    assert view.over and view.winners
    for side, points in enumerate(result.points):
        assert result.before[side].recorded + points == result.after[side].recorded
    assert max(result.points) > 0
    ended = match.ended_round(result.round_no)
    assert ended.outcome == result.outcome and sum(map(len, map(ended.hand, range(players)))) > 0
    score = labels.reached_score(view, result)
    assert score == result.after[view.side_of(result.outcome.seat)].recorded
    assert labels.outcome(view, result.outcome, NAMES, "ru", score).endswith("— партия окончена")
    for names, lang in ((NAMES[:players], "ru"), (ENGLISH[:players], "en")):
        table = render_table(view, names, lang)
        assert len(table) < LIMIT
        _, notes = plan_felt(view, names, lang)
        scored = last_scored(view)  # the move that reached the target
        assert scored is not None and scored.seat == result.outcome.seat
        assert f"+{scored.points} {names[scored.seat]}" in [note.label for note in notes]
        sheet = opened(render_scores(view, names, None, lang), SCORES_SIZE)
        assert draw.WINNER_TINT in colours(sheet, (0, 0, *SCORES_SIZE))
        end = render_round_end(view, names, ended, result, lang)
        assert len(end) < LIMIT
        opened(end)


def test_the_tag_under_the_scorer_names_the_score_reached() -> None:
    match = _stopped_match("all_fives", 2)
    view = match.view(None)
    result = view.results[-1]
    side = view.side_of(result.outcome.seat)
    assert side in view.winners
    score = result.after[side].recorded
    assert score >= view.ruleset.target
    assert [label for label, _ in side_tags(view, result, side, "ru")] == [
        "победа",
        f"набирает {score}",
    ]
    assert [label for label, _ in side_tags(view, result, side, "en")] == [
        "winner",
        f"reaches {score}",
    ]
    assert side_tags(view, result, 1 - side, "ru") == []


def test_the_sheet_in_the_middle_of_the_first_round_shows_points_scored_in_play() -> None:
    layout = laid(("5-5", None), ("0-5", End.RIGHT))
    view = view_of(
        layout,
        turn=0,
        scores=(Account(0), Account(10)),
        round_points=(0, 10),
        scored=Scored(1, 10, 10),
    )
    assert [label for label, _ in side_cells(view, None, 1)] == ["0", "10", "10"]
    assert [label for label, _ in side_cells(view, None, 0)] == ["—", "—", "0"]
    opened(render_scores(view, NAMES[:2]), SCORES_SIZE)


# --------------------------------------------------------------------------- size


@pytest.mark.parametrize("key", GAMES)
def test_the_largest_four_seat_tables_are_under_the_bound(key: str) -> None:
    """The most tiles a four-seat match lays, with every note, in both languages."""
    most, largest = 0, None
    for match in whole_match(key, 4, seed=5):
        view = match.view(None)
        if len(view.round.layout.placements) >= most:
            most, largest = len(view.round.layout.placements), view
    assert largest is not None
    view = largest
    sizes = [len(render_table(view, NAMES)), len(render_table(view, ENGLISH, "en"))]
    assert max(sizes) < LIMIT, [size // 1024 for size in sizes]


def _other_scoring_games() -> list[str]:
    """Games that score in play but not by the sum of the ends (Bergen's equal ends)."""
    return [
        variant.key.value
        for variant in VARIANTS
        if variant.scores_in_play and variant.ruleset.scoring is not Scoring.ALL_FIVES
    ]


@pytest.mark.parametrize("key", _other_scoring_games())
def test_games_scoring_otherwise_keep_the_pips_and_get_the_points_note(key: str) -> None:
    """The note «+N Имя» after a move that scored is every such game's; the ends' sum
    and the badges' counts are F-3's alone."""
    for seed in range(10):
        for match in whole_match(key, 2, seed):
            view = match.view(None)
            scored = last_scored(view)
            if scored is None or not view.round.layout.placements:
                continue
            geometry, notes = plan_felt(view, NAMES[:2])
            assert [note.label for note in notes] == [f"+{scored.points} {NAMES[scored.seat]}"]
            image = opened(render_table(view, NAMES[:2]), TABLE_SIZE)
            for mark in geometry.ends:
                assert _shows(image, geometry, mark.end, str(mark.pip), muted=False)
            return
    raise AssertionError(f"no move of {key} scored in ten seeded matches")
