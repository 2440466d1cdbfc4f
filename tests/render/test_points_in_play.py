"""The pictures of the games that score in play: a round stopped at the target names
the side that reached it and the score it reached (F-6), the words under a name fit
beside the hand whatever the name's length,
each side's round points are taken apart into those scored in play and those of the
round's end (F-3; F-5, B-1, B-2), Bergen's and Дубли's hands count by their doubles
and not their pips, and the round's end lays the table out as the table picture does
(a spinner's UP and DOWN arms run up and down, C-10).

Words are checked where they are drawn: every string handed to Pillow, with the box
Pillow gives it, and every strip of felt a hand lies on."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import NamedTuple

import pytest
from PIL import Image, ImageDraw

from domino.actions import Played
from domino.match import Match
from domino.players import GreedyPlayer, RandomPlayer
from domino.tiles import Tile
from domino.variants import find_variant
from domino.views import MatchView, OutcomeKind, Scored
from render import counts, draw, labels, render_round_end, render_scores, render_table, text
from render.counts import split_points
from render.geometry import Orientation
from render.scores import draw_split, side_tags

NAMES = ("Маша", "Алексей", "Оля", "Серёга")
ENGLISH = ("Alice", "Bob", "Carol", "Dave")
SHORT = ("Я", "Ю", "Ж", "Ь")
LONG = (
    "Александр Пушкинович",
    "Константин Сергеевич",
    "Людмила Владимировна",
    "Екатерина Дмитриевна",
)
SCORING = ("all_fives", "threes_and_fives", "bergen", "dubli")


class Drawn(NamedTuple):
    pen: ImageDraw.ImageDraw
    label: str
    box: tuple[float, float, float, float]


def overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Drawn]]:
    """Every string Pillow is asked to draw as text, with its box."""
    seen: list[Drawn] = []
    original = ImageDraw.ImageDraw.text

    def recording(self: ImageDraw.ImageDraw, xy: object, label: object, *a: object, **k: object):  # type: ignore[no-untyped-def]
        box = self.textbbox(xy, str(label), font=k.get("font"), anchor=k.get("anchor"))  # type: ignore[arg-type]
        seen.append(Drawn(self, str(label), box))
        return original(self, xy, label, *a, **k)  # type: ignore[arg-type,type-var]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording)
    yield seen


@pytest.fixture
def felt(
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[list[tuple[ImageDraw.ImageDraw, tuple[float, ...]]]]:
    """Every rounded rectangle of felt drawn: the table's cloth and each hand's strip."""
    seen: list[tuple[ImageDraw.ImageDraw, tuple[float, ...]]] = []
    original = ImageDraw.ImageDraw.rounded_rectangle

    def recording(self: ImageDraw.ImageDraw, xy: object, *a: object, **k: object):  # type: ignore[no-untyped-def]
        if k.get("fill") == draw.FELT:
            seen.append((self, tuple(xy)))  # type: ignore[arg-type]
        return original(self, xy, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "rounded_rectangle", recording)
    yield seen


@pytest.fixture
def face_up(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[Tile, int, Orientation]]]:
    """Every face-up tile drawn: the tile, its unit and how it lies."""
    seen: list[tuple[Tile, int, Orientation]] = []
    original = draw.tile_sprite

    def recording(
        first: int, second: int, unit: int, orientation: Orientation, last: bool = False
    ) -> object:
        seen.append((Tile.parse(f"{first}-{second}"), unit, orientation))
        return original(first, second, unit, orientation, last)

    monkeypatch.setattr(draw, "tile_sprite", recording)
    yield seen


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


def played_out(key: str, players: int, seed: int, teams: bool = False) -> Match:
    *_, match = whole_match(key, players, seed, teams)
    return match


def stopped(key: str, players: int, teams: bool = False) -> Match:
    """The first seeded match of `key` whose last round a move stopped at the target."""
    for seed in range(40):
        match = played_out(key, players, seed, teams)
        if match.results[-1].outcome.kind is OutcomeKind.REACHED:
            return match
    raise AssertionError(f"no seed up to 40 stops a round of {key} at the target")


# ------------------------------------------------------------ 1. the side and its score


@pytest.mark.parametrize(("lang", "names"), [("ru", NAMES), ("en", ENGLISH)])
def test_a_round_stopped_by_a_pair_names_the_pair_and_the_score_it_reached(
    drawn: list[Drawn], lang: str, names: tuple[str, ...]
) -> None:
    """Not «Петя reaches 61» over a sheet at 66: «Маша + Петя набирают 66»."""
    match = stopped("threes_and_fives", 4, teams=True)
    view = match.view(None)
    result = view.results[-1]
    side = view.side_of(result.outcome.seat)
    score = result.after[side].recorded
    pair = " + ".join(names[seat] for seat in view.sides[side])
    verb = {"ru": "набирают", "en": "reach"}[lang]
    render_round_end(view, names, match.ended_round(result.round_no), result, lang)
    render_scores(view, names, result, lang)
    shown = [d.label for d in drawn]
    heading = f"{labels.word('round_of', lang, n=result.round_no)}{pair} {verb} {score}"
    assert shown.count(heading) == 2, shown
    assert f"{verb} {score}" in shown  # under the pair's name, on both pictures
    if score != view.ruleset.target:
        assert not any(f" {view.ruleset.target}" in label for label in shown if verb in label)


def test_one_player_reaches_in_the_singular() -> None:
    match = stopped("all_fives", 2)
    view = match.view(None)
    result = view.results[-1]
    score = labels.reached_score(view, result)
    name = NAMES[result.outcome.seat]
    assert labels.outcome(view, result.outcome, NAMES, "ru", score, match_said=True) == (
        f"{name} набирает {score}"
    )
    assert labels.outcome_tag(view, result.outcome, score, "en") == f"reaches {score}"


def _check_tags_fit(
    drawn: list[Drawn],
    felt: list[tuple[ImageDraw.ImageDraw, tuple[float, ...]]],
    tags: list[str],
) -> None:
    """Each tag drawn in full, on no strip of felt and on no other word."""
    for tag in tags:
        matches = [d for d in drawn if d.label == tag]
        assert matches, (tag, [d.label for d in drawn])
        for mine in matches:
            for pen, rect in felt:
                assert pen is not mine.pen or not overlaps(mine.box, rect), (tag, rect)
            for other in drawn:
                if other is not mine and other.pen is mine.pen:
                    assert not overlaps(mine.box, other.box), (tag, other.label)


@pytest.mark.parametrize("names", [SHORT, LONG], ids=["one letter", "twenty letters"])
@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize(("players", "teams"), [(2, False), (4, True)])
def test_the_words_under_a_name_are_read_in_full(
    drawn: list[Drawn],
    felt: list[tuple[ImageDraw.ImageDraw, tuple[float, ...]]],
    names: tuple[str, ...],
    lang: str,
    players: int,
    teams: bool,
) -> None:
    """«победа набирает 2…» was half under the hand's felt: under a one-letter name and
    a twenty-letter one, on the round's end and on the sheet, every tag is whole."""
    assert all(len(name) == 20 for name in LONG)
    match = stopped("all_fives", players, teams)
    view = match.view(None)
    result = view.results[-1]
    side = view.side_of(result.outcome.seat)
    tags = [label for label, _ in side_tags(view, result, side, lang)]
    assert len(tags) == 2  # the win and the score reached
    render_round_end(view, names[:players], match.ended_round(result.round_no), result, lang)
    _check_tags_fit(drawn, felt, tags)
    drawn.clear()
    felt.clear()
    render_scores(view, names[:players], result, lang)
    _check_tags_fit(drawn, felt, tags)


# ------------------------------------------------- 2. in play and at the round's end


@pytest.mark.parametrize("key", SCORING)
def test_each_rounds_points_split_into_play_and_the_rounds_end(key: str) -> None:
    """What the moves scored as they were played plus what the round's end scored is the
    round's line (F-3, F-5, B-1, B-2); a round stopped at the target had no end to score
    (F-6); Bergen's end scores 2 or nothing; without the round, only the match's last
    round is known (its points in play are still the view's)."""
    for seed, players in ((1, 2), (2, 3), (3, 4)):
        match = played_out(key, players, seed)
        view = match.view(None)
        made = 0
        for result in view.results:
            split = split_points(view, result, match.ended_round(result.round_no))
            assert split is not None
            in_play, at_end = split
            made += sum(in_play)
            if result.outcome.kind is OutcomeKind.REACHED:
                assert at_end is None and in_play == result.points
                continue
            assert at_end is not None and min(at_end) >= 0
            assert tuple(map(sum, zip(in_play, at_end, strict=True))) == result.points
            if key == "bergen":
                assert sorted(at_end)[-1] in (0, 2) and sum(at_end) <= 2
        assert made > 0
        last = view.results[-1]
        assert split_points(view, last) == split_points(
            view, last, match.ended_round(len(view.results))
        )
        assert split_points(view, last)[0] == view.round_points  # type: ignore[index]
        if len(view.results) > 1:
            assert split_points(view, view.results[0]) is None
    kozel = played_out("kozel", 2, 1).view(None)
    assert split_points(kozel, kozel.results[-1]) is None


@pytest.mark.parametrize(("key", "lang"), [("all_fives", "ru"), ("bergen", "en"), ("dubli", "ru")])
def test_the_round_end_and_the_sheet_show_points_in_play_and_at_the_end(
    drawn: list[Drawn], key: str, lang: str
) -> None:
    names = NAMES if lang == "ru" else ENGLISH
    for seed in range(10):
        match = Match.new(find_variant(key).ruleset, 3, seed=seed)
        player = GreedyPlayer()
        while not match.results:
            seat = match.turn
            assert seat is not None
            match.apply(player.choose(match.view(seat)), seat)
        view = match.view(None)
        result = view.results[0]
        ended = match.ended_round(1)
        split = split_points(view, result, ended)
        assert split is not None
        in_play, at_end = split
        if at_end is None or not any(in_play) or not any(at_end):
            continue  # a round that scored both ways
        expected = [
            f"{labels.word('in_play', lang, n=made)} · {labels.word('at_end', lang, n=end)}"
            for made, end in zip(in_play, at_end, strict=True)
        ]
        render_round_end(view, names[:3], ended, result, lang)
        shown = [d.label for d in drawn]
        assert all(line in shown for line in expected), (expected, shown)
        drawn.clear()
        render_scores(view, names[:3], result, lang, ended)
        assert all(line in [d.label for d in drawn] for line in expected)
        drawn.clear()
        render_scores(view, names[:3], result, lang)  # the round's play is not known
        assert not any(labels.word("in_play", lang, n="") in d.label for d in drawn)
        return
    raise AssertionError(f"no first round of {key} in ten scored both in play and at its end")


def test_games_that_score_only_at_the_rounds_end_show_no_split(drawn: list[Drawn]) -> None:
    match = played_out("kozel", 3, 2)
    view = match.view(None)
    render_round_end(view, NAMES[:3], match.ended_round(1), view.results[0])
    said = (labels.word("in_play", "ru", n=""), labels.word("at_end", "ru", n=""))
    assert not any(word in d.label for d in drawn for word in said)


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize(("players", "teams"), [(2, False), (3, False), (4, True)])
@pytest.mark.parametrize("points", [(35, 30), (135, 130), (5, 240)])
def test_the_split_of_two_and_three_digit_points_is_drawn_whole(
    monkeypatch: pytest.MonkeyPatch,
    drawn: list[Drawn],
    lang: str,
    players: int,
    teams: bool,
    points: tuple[int, int],
) -> None:
    """«в игре +35 · за конец раунда…» was cut on the round's end: with two- and
    three-digit points each side's split is drawn whole, on the round's end and on the
    sheet, inside its row and on no other word."""
    match = played_out("all_fives", players, 3, teams)
    view = match.view(None)
    result = view.results[0]
    sides = len(view.sides)
    split = ((points[0],) * sides, (points[1],) * sides)
    monkeypatch.setattr(counts, "split_points", lambda *_: split)
    names = NAMES if lang == "ru" else ENGLISH
    expected = labels.in_play_split(points[0], points[1], lang)
    assert text.width(expected, 20, bold=True) < 619  # the sheet's room, at full size
    render_round_end(view, names[:players], match.ended_round(1), result, lang)
    drawn_once = list(drawn)
    drawn.clear()
    render_scores(view, names[:players], result, lang, match.ended_round(1))
    for seen in (drawn_once, list(drawn)):
        mine = [d for d in seen if d.label == expected]
        assert len(mine) == sides, (expected, [d.label for d in seen])
        assert not any(text.ELLIPSIS in d.label for d in seen if "+" in d.label)
        for line in mine:
            assert line.box[2] <= 1280 - 40 - 8  # inside the row
            for other in seen:
                if other is not line and other.pen is line.pen:
                    assert not overlaps(line.box, other.box), (expected, other.label)


def test_a_split_too_wide_for_its_room_is_drawn_smaller_before_it_is_cut(
    drawn: list[Drawn],
) -> None:
    label = labels.in_play_split(1350, 1300, "ru")
    canvas = Image.new("RGB", (1280, 100), draw.PANEL)
    room = round(text.width(label, 20, bold=True)) - 40
    draw_split(draw.Pen(canvas), (640, 50), label, 640 - room // 2, 640 + room // 2)
    assert [d.label for d in drawn] == [label]
    assert drawn[0].box[2] - drawn[0].box[0] <= room


def test_a_sheet_in_the_middle_of_a_round_says_what_was_scored_in_play(
    drawn: list[Drawn],
) -> None:
    for match in whole_match("all_fives", 2, 1):
        view = match.view(None)
        if view.results or not any(view.round_points):
            continue
        render_scores(view, ENGLISH[:2], None, "en")
        for made in view.round_points:
            assert f"during play +{made}" in [d.label for d in drawn]
        return
    raise AssertionError("nothing scored in play in the first round")


@pytest.mark.parametrize("key", ["bergen", "dubli"])
def test_bergen_and_dubli_hands_count_their_doubles_not_their_pips(
    drawn: list[Drawn], key: str
) -> None:
    """B-1, B-2: the pips left score nothing there, so no «= 23» after a hand; the
    doubles left, which decide a block (B-1) and the point for none (B-2), instead."""
    match = played_out(key, 3, 2)
    view = match.view(None)
    for result in view.results:
        ended = match.ended_round(result.round_no)
        drawn.clear()
        render_round_end(view, NAMES[:3], ended, result)
        shown = [d.label for d in drawn]
        assert not any(label.startswith("= ") for label in shown), shown
        for seat in range(3):
            hand = ended.hand(seat)
            if hand:
                doubles = sum(tile.is_double for tile in hand)
                assert labels.doubles_left(doubles) in shown
    fives = played_out("all_fives", 3, 2)
    drawn.clear()
    render_round_end(fives.view(None), NAMES[:3], fives.ended_round(1), fives.results[0])
    assert any(d.label.startswith("= ") for d in drawn)  # F-5: there the pips count


def test_doubles_are_counted_in_russian_plurals() -> None:
    forms = {n: labels.doubles_left(n) for n in (0, 1, 2, 4, 5, 7, 11, 12, 21, 22, 25)}
    assert forms == {
        0: "без дублей",
        1: "1 дубль",
        2: "2 дубля",
        4: "4 дубля",
        5: "5 дублей",
        7: "7 дублей",
        11: "11 дублей",
        12: "12 дублей",
        21: "21 дубль",
        22: "22 дубля",
        25: "25 дублей",
    }
    assert [labels.doubles_left(n, "en") for n in (0, 1, 3)] == [
        "no doubles",
        "1 double",
        "3 doubles",
    ]


# --------------------------------------------------------- 3. the table as it was played


def as_played(view: MatchView, match: Match, round_no: int) -> MatchView:
    """The public view of round `round_no`'s table after its last move, as the table
    picture drew it then (with the move's points if it scored)."""
    played = match.ended_round(round_no).view(None)
    last = played.history[-1]
    scored = None
    if isinstance(last, Played):
        points, count = view.ruleset.game.move_points(view.ruleset, played.layout)
        scored = Scored(last.seat, points, count) if points else None
    return dataclasses.replace(view, round=played, scored=scored)


def test_the_round_end_lays_the_table_out_as_the_table_picture(
    face_up: list[tuple[Tile, int, Orientation]],
) -> None:
    """Every tile of the ended round at the same size and the same way round as on the
    table picture of that position: a spinner's UP and DOWN arms stand upright there
    (they lay sideways on the round's end, whose felt was lower)."""
    crosses = upright = 0
    for seed in range(3):
        match = played_out("all_fives", 3, seed)
        view = match.view(None)
        for result in view.results:
            layout = match.ended_round(result.round_no).view(None).layout
            if layout.spinner is None:
                continue
            crosses += 1
            count = len(layout.placements)
            face_up.clear()
            render_table(as_played(view, match, result.round_no), NAMES[:3])
            live = face_up[:count]
            face_up.clear()
            render_round_end(view, NAMES[:3], match.ended_round(result.round_no), result)
            assert face_up[:count] == live, (seed, result.round_no)
            for end in (e for e, arm in layout.arms if arm and e.name in ("UP", "DOWN")):
                first = layout.chain(end)[0]
                if not first.tile.is_double:
                    index = [t for t, _, _ in live].index(first.tile)
                    upright += face_up[index][2] is Orientation.VERTICAL
    assert crosses >= 10 and upright
