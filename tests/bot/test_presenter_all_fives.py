"""Пятёрки and Тройки и пятёрки (F-1 .. F-6), and the other games that score
during play (Берген, Дубли), as people see them, by value: the caption's running scores,
the «+N» of the very play that scored and the sum of the open ends (where it scores); the
round stopped where a move reached the target (F-6) and the match's end; each playable
tile's points on the hand's buttons when the group allows hints, checked against what
the engine then scores."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

import pytest
from aiogram.types import InlineKeyboardMarkup

from bot.telegram import presenter
from bot.telegram.callbacks import HandCb, HandKind, MoveCb, action_of, choice_of
from bot.telegram.presenter.hand import ends_text, hand_text
from bot.telegram.presenter.hand_keyboard import POINTS_TILES_PER_ROW, hand_keyboard
from bot.telegram.presenter.table import open_ends_text, play_points, recent_events
from domino.actions import Action, Play, Played
from domino.all_fives import end_count
from domino.geometry import End
from domino.layout import new_layout
from domino.match import Match
from domino.players import GreedyPlayer
from domino.tiles import Tile
from domino.variants import VARIANTS, find_variant
from domino.views import Account, MatchView, OutcomeKind, RoundOutcome, RoundResult
from i18n import Lang

NAMES = ("Маша", "Олег <3", "Вика", "Дима")
IN_PLAY = [game.key.value for game in VARIANTS if game.scores_in_play]  # Bergen, Дубли too
TABLES = [(2, False), (3, False), (4, True)]  # players, pairs


def new_match(key: str, players: int, seed: int, *, teams: bool = False) -> Match:
    return Match.new(find_variant(key).ruleset.with_options(teams=teams), players, seed=seed)


def moves_of(match: Match) -> Iterator[tuple[int, Action, tuple[Account, ...]]]:
    """Plays the match to its end greedily, yielding after each move: the mover, the
    move, and the accounts before it (the match has moved on when the loop resumes)."""
    while not match.over:
        seat = match.turn
        assert seat is not None
        before = match.scores
        action = GreedyPlayer().choose(match.view(seat))
        match.apply(action, seat)
        yield seat, action, before


def ended_scored(match: Match, round_no: int) -> bool:
    """Whether round `round_no` of `match` is over and scored at its end (gone out or
    fish, F-5): its last play's gain then holds the end's points too."""
    return len(match.results) >= round_no and (
        match.results[round_no - 1].outcome.kind is not OutcomeKind.REACHED
    )


def reached(key: str, players: int = 2, *, teams: bool = False) -> Match:
    """The first seeded match (greedy play) that a move ended mid-round (F-6)."""
    for seed in range(50):
        match = new_match(key, players, seed, teams=teams)
        for _ in moves_of(match):
            pass
        if match.results[-1].outcome.kind is OutcomeKind.REACHED:
            return match
    raise AssertionError(f"no {key} match of 50 reached its target mid-round")


# --- the group's caption ---------------------------------------------------------------


@pytest.mark.parametrize(("players", "teams"), TABLES)
@pytest.mark.parametrize("key", IN_PLAY)
def test_each_play_shows_the_points_the_engine_gave_it_and_no_other(
    key: str, players: int, teams: bool
) -> None:
    """Over whole matches: the plays the caption marks «+N» are exactly those the engine
    scored, each with its own points (not only the round's last, `MatchView.scored`)."""
    scored_plays = 0
    for seed in range(3):
        match = new_match(key, players, seed, teams=teams)
        given: dict[int, int] = {}  # this round's plays by history index -> points given
        round_no = 1
        for seat, action, before in moves_of(match):
            view = match.view(None)
            if view.round_no != round_no or ended_scored(match, round_no):
                round_no, given = view.round_no, {}  # a new round, or one scored at its end
                continue
            side = match.side_of(seat)
            gained = view.scores[side].recorded - before[side].recorded
            if isinstance(action, Play):
                given[len(view.round.history) - 1] = gained
            else:
                assert gained == 0  # a draw or a knock scores nothing
            assert play_points(view) == {i: p for i, p in given.items() if p}
            last = recent_events(view)[-1]
            assert last.points == (gained if isinstance(action, Play) else 0)
            if gained:
                scored_plays += 1
                assert view.scored is not None
                assert (view.scored.seat, view.scored.points) == (seat, gained)
                caption = presenter.table_caption(view, NAMES[:players], Lang.RU)
                assert caption.endswith(f"кладёт кость: +{gained}")
                counted = f" = {view.scored.count}\n" in caption
                assert counted is find_variant(key).sums_ends  # not Bergen's headers
    assert scored_plays > 10


def scoring_then_quiet() -> MatchView:
    """The public view right after a play that scored and the next play, which did not."""
    match = new_match("all_fives", 2, seed=3)
    previous = 0
    for seat, action, before in moves_of(match):
        view = match.view(None)
        side = match.side_of(seat)
        gained = view.scores[side].recorded - before[side].recorded
        if isinstance(action, Play) and not gained and previous and not view.over:
            history = view.round.history
            if len(history) >= 2 and isinstance(history[-2], Played):
                return view
        previous = gained if isinstance(action, Play) else 0
    raise AssertionError("no play that scored followed by one that did not")


def test_the_caption_marks_the_play_that_scored_and_counts_the_ends() -> None:
    view = scoring_then_quiet()
    assert view.scored is not None
    scorer = NAMES[view.scored.seat].replace("<", "&lt;")
    mover = NAMES[1 - view.scored.seat].replace("<", "&lt;")
    caption = presenter.table_caption(view, NAMES[:2], Lang.RU)
    assert caption.endswith(f"{scorer} кладёт кость: +{view.scored.points} → {mover} кладёт кость")
    assert len(re.findall(r": \+\d+", caption)) == 1  # the scoring play's, nobody else's
    count = end_count(view.round.layout)
    assert f" = {count}\n" in caption
    # The running scores: each seat's line ends with its own (2 players: no pairs).
    lines = caption.split("\n")
    for seat in range(2):
        name = NAMES[seat].replace("<", "&lt;")
        line = next(line for line in lines if line.removeprefix("▶️ ").startswith(f"{name} — "))
        assert line.endswith(f" · {view.scores[seat].recorded}"), line
    english = presenter.table_caption(view, NAMES[:2], Lang.EN)
    assert f"plays a tile: +{view.scored.points}" in english
    assert "open ends: " in english and f" = {count}\n" in english
    assert "|" not in caption and "-" not in caption.replace("—", "")  # no tile in the group


def test_other_games_count_no_ends_and_score_no_plays() -> None:
    match = Match.new(find_variant("kozel").ruleset, 2, seed=1)
    for _ in range(6):
        seat = match.turn
        assert seat is not None
        match.take_turn(seat, GreedyPlayer())
    view = match.view(None)
    assert play_points(view) == {}
    ends = open_ends_text(view, Lang.RU)
    assert ends is not None and "=" not in ends and "+" not in ends


def on_table(key: str, *placed: tuple[str, End | None]) -> MatchView:
    """Seat 0's view of a fresh match of `key` at its turn, the table laid with `placed`
    (tile, end)."""
    view = new_match(key, 2, seed=1).view(0)
    layout = new_layout(view.ruleset.layout)
    for tile, end in placed:
        layout.place(Tile.parse(tile), end)
    rnd = dataclasses.replace(view.round, layout=layout.view(), turn=0)  # the hand's turn
    return dataclasses.replace(view, round=rnd)


L, R, U = End.LEFT, End.RIGHT, End.UP
SPINNER = [("6-6", None)]


@pytest.mark.parametrize(
    ("placed", "caption", "hand"),
    [
        (SPINNER, "концы: 6 · 6 = 12", "open ends: ⬅️ 6 · ➡️ 6 = 12"),
        # The play-tester's table: the spinner is an end and counts both halves.
        ([*SPINNER, ("6-0", L)], "концы: 0 · 6+6 = 12", "open ends: ⬅️ 0 · ➡️ 6+6 = 12"),
        (
            [*SPINNER, ("6-0", L), ("6-3", R)],
            "концы: 0 · 3 · 6 — пока пусто (0) · 6 — пока пусто (0) = 3",
            "open ends: ⬅️ 0 · ➡️ 3 · ⬆️ 6 — nothing on it yet (0) · ⬇️ 6 — nothing on it yet (0) = 3",
        ),
        (
            [*SPINNER, ("6-0", L), ("6-3", R), ("3-3", R), ("6-1", U)],
            "концы: 0 · 3+3 · 1 · 6 — пока пусто (0) = 7",
            "open ends: ⬅️ 0 · ➡️ 3+3 · ⬆️ 1 · ⬇️ 6 — nothing on it yet (0) = 7",
        ),
        ([("2-5", None)], "концы: 2 · 5 = 7", "open ends: ⬅️ 2 · ➡️ 5 = 7"),
    ],
)
def test_each_end_is_written_as_it_counts_so_that_the_sum_adds_up(
    placed: list[tuple[str, End | None]], caption: str, hand: str
) -> None:
    """F-3 counts a double across an end and the spinner while it is an end both halves,
    an arm of the spinner with no tile nothing: «концы: 0 · 6 · сумма концов: 12» read
    as a wrong sum; each end now shows what it adds."""
    view = on_table("all_fives", *placed)
    facts = presenter.table_caption(view, NAMES[:2], Lang.RU).splitlines()[-1]
    assert facts == f"базар: 14 · {caption}"
    assert ends_text(view, Lang.EN) == hand
    in_russian = hand.replace("open ends", "концы").replace("nothing on it yet", "пока пусто")
    assert f"\n{in_russian}\n" in hand_text(view, NAMES[:2], "Двор", Lang.RU)


def written_sum(ends: str) -> tuple[list[int], int, int]:
    """«концы: 0 · 6+6 · 6 — пока пусто (0) = 12» read back: the pips listed, what the terms add up
    to, and the sum written."""
    terms, total = ends.removeprefix("концы: ").split(" = ")
    pips, added = [], 0
    for term in terms.split(" · "):
        if term.endswith(" — пока пусто (0)"):
            pips.append(int(term.removesuffix(" — пока пусто (0)")))
            continue
        halves = [int(half) for half in term.split("+")]
        assert len(set(halves)) == 1, term  # both halves of one double
        pips.append(halves[0])
        added += sum(halves)
    return pips, added, int(total)


@pytest.mark.parametrize("key", [g.key.value for g in VARIANTS if g.sums_ends])
def test_over_whole_matches_the_ends_written_add_up_to_the_engines_sum(key: str) -> None:
    checked = 0
    match = new_match(key, 3, seed=2)
    for _ in moves_of(match):
        view = match.view(None)
        ends = open_ends_text(view, Lang.RU)
        if ends is None or view.over:
            continue
        pips, added, total = written_sum(ends)
        assert pips == [pip for _, pip in view.round.layout.open_ends], ends
        assert added == total == end_count(view.round.layout), ends
        checked += 1
    assert checked > 30


@pytest.mark.parametrize("key", ["bergen", "dubli", "kozel"])
def test_games_that_do_not_sum_the_ends_list_the_pips_alone(key: str) -> None:
    view = on_table(key, ("6-6", None), ("6-0", L))
    assert open_ends_text(view, Lang.RU) == "концы: 0 · 6"
    assert ends_text(view, Lang.EN) == "ends: ⬅️ 0 · ➡️ 6"


def test_the_pairs_running_score_is_one_line_a_pair() -> None:
    match = new_match("threes_and_fives", 4, seed=1, teams=True)
    for _ in zip(range(12), moves_of(match), strict=False):
        pass
    view = match.view(None)
    caption = presenter.table_caption(view, NAMES, Lang.RU)
    assert f"пара Маша + Вика: {view.scores[0].recorded}" in caption
    assert f"пара Олег &lt;3 + Дима: {view.scores[1].recorded}" in caption


# --- round and match ends ----------------------------------------------------------------


@pytest.mark.parametrize("key", IN_PLAY)
def test_a_match_reached_mid_round_is_told_as_such_with_the_rounds_points(key: str) -> None:
    match = reached(key)
    view = match.view(None)
    result = view.results[-1]
    mover = result.outcome.seat
    winner = NAMES[mover].replace("<", "&lt;")
    total = view.scores[mover].recorded
    assert view.winners == (mover,) and total >= view.ruleset.target
    text = presenter.round_end_text(view, result, NAMES[:2], Lang.RU)
    first, points = text.split("\n")
    assert first.startswith(f"🎯 Раунд {result.round_no}: {winner} набирает {total} ")
    assert "— победа!" in first and "рыба" not in text and "домино" not in text
    assert points == (f"✍️ Очки за раунд: Маша +{result.points[0]} · Олег &lt;3 +{result.points[1]}")
    assert result.points[mover] > 0  # the points scored in play are the round's
    assert presenter.round_end_text(view, result, NAMES[:2], Lang.EN).startswith(
        f"🎯 Round {result.round_no}: {winner} reaches {total} points — a win!"
    )
    end = presenter.match_end_text(view, NAMES[:2], Lang.RU).split("\n")
    loser = 1 - mover
    assert end == [
        f"🏆 Победа — {winner}",
        f"{winner}: {total}",
        f"{NAMES[loser].replace('<', '&lt;')}: {view.scores[loser].recorded}",
    ]
    # The table shows the stopped round as over, its last play with its points.
    caption = presenter.table_caption(view, NAMES[:2], Lang.RU)
    assert "Партия окончена." in caption and f"🏆 Победа — {winner}" in caption
    assert view.scored is not None and caption.endswith(f"+{view.scored.points}")


def test_a_pair_reaching_the_target_is_named_as_a_pair_in_the_plural_forms() -> None:
    view = new_match("all_fives", 4, seed=1, teams=True).view(None)
    before = (Account(240, 0, True), Account(100, 0, True))
    after = (Account(251, 0, True), Account(100, 0, True))
    outcome = RoundOutcome(OutcomeKind.REACHED, 2, (5, 10, 5, 0))
    result = RoundResult(4, outcome, before, (11, 0), after, 0, 0, None)
    view = dataclasses.replace(view, scores=after, over=True, winners=(0,))
    assert presenter.round_end_text(view, result, NAMES, Lang.RU).split("\n") == [
        "🎯 Раунд 4: пара Маша + Вика набирает 251 очко — победа! Раунд не доигрывается.",
        "✍️ Очки за раунд: Маша + Вика +11 · Олег &lt;3 + Дима +0",
    ]
    three = dataclasses.replace(result, after=(Account(253, 0, True), after[1]))
    assert "набирает 253 очка" in presenter.round_end_text(view, three, NAMES, Lang.RU)
    assert presenter.round_end_text(view, result, NAMES, Lang.EN).startswith(
        "🎯 Round 4: the pair Маша + Вика reaches 251 points"
    )


def test_a_round_gone_out_adds_its_plays_points_to_its_end() -> None:
    for seed in range(20):
        match = new_match("all_fives", 2, seed)
        for _ in moves_of(match):
            if match.results and match.results[0].outcome.kind is OutcomeKind.WENT_OUT:
                break
        else:
            continue
        view = match.view(None)
        result = view.results[0]
        text = presenter.round_end_text(view, result, NAMES[:2], Lang.RU)
        assert text.startswith("🏁 Раунд 1: домино — ")
        assert text.endswith(
            f"✍️ Очки за раунд: Маша +{result.points[0]} · Олег &lt;3 +{result.points[1]}"
        )
        assert [a.recorded for a in result.after] == list(result.points)
        return
    raise AssertionError("no first round gone out")


# --- the hand's points -------------------------------------------------------------------


def move_buttons(markup: InlineKeyboardMarkup | None) -> list[tuple[str, MoveCb | HandCb]]:
    """The hand's buttons as (text, unpacked data)."""
    assert markup is not None
    return [
        (button.text, unpacked(button.callback_data or ""))
        for row in markup.inline_keyboard
        for button in row
        if (button.callback_data or "").startswith(("m2:", "hb1:"))
    ]


def unpacked(data: str) -> MoveCb | HandCb:
    return MoveCb.unpack(data) if data.startswith("m2:") else HandCb.unpack(data)


def play_of(data: MoveCb | HandCb) -> Play | None:
    """The tile a button plays, if it plays one."""
    action = action_of(data) if isinstance(data, MoveCb) else None
    return action if isinstance(action, Play) else None


def scored_by(match: Match, seat: int, action: Action) -> int | None:
    """What the engine gives `seat`'s side for `action` now (the match is left as it
    is); None for a play that ends the round by going out (F-5's points are added)."""
    again = Match.replay(match.ruleset, match.players, match.seed, match.log)
    side = again.side_of(seat)
    before = again.scores[side].recorded
    round_no = again.round_no
    again.apply(action, seat)
    if ended_scored(again, round_no):
        return None
    return again.scores[side].recorded - before


def agrees(shown: int, scored: int | None) -> bool:
    return scored is None or shown == scored


def shown_points(text: str) -> int:
    found = re.search(r"\+(\d+)$", text)
    return int(found.group(1)) if found else 0


@pytest.mark.parametrize("key", IN_PLAY)
def test_each_playable_tile_shows_what_the_engine_then_scores(key: str) -> None:
    checked = 0
    for seed in range(2):
        match = new_match(key, 2, seed)
        while not match.over and checked < 150:
            seat = match.turn
            assert seat is not None
            view = match.view(seat)
            markup = hand_keyboard(view, 7, len(match.log), Lang.RU, hints=True)
            for text, data in move_buttons(markup):
                action = play_of(data)
                if action is not None:
                    assert agrees(shown_points(text), scored_by(match, seat, action)), text
                    checked += 1
                elif isinstance(data, HandCb) and data.kind is HandKind.ENDS:
                    tile = choice_of(data)
                    ends = presenter.hand_keyboard(
                        view, 7, len(match.log), Lang.RU, choosing=tile, hints=True
                    )
                    points = []
                    for end_text, end_data in move_buttons(ends):
                        action = play_of(end_data)
                        if action is not None:
                            points.append(shown_points(end_text))
                            assert agrees(points[-1], scored_by(match, seat, action)), end_text
                    best = max(points)
                    if len(set(points)) > 1:
                        assert text.endswith(f" до +{best}")
                    else:
                        assert shown_points(text) == best
            match.take_turn(seat, GreedyPlayer())
    assert checked >= 100


def test_points_only_where_hints_are_allowed_and_the_game_scores_in_play() -> None:
    match = new_match("all_fives", 2, seed=3)
    for _ in moves_of(match):
        if match.turn is None:
            continue
        view = match.view(match.turn)
        points = [
            shown_points(text)
            for text, data in move_buttons(
                hand_keyboard(view, 7, len(match.log), Lang.RU, hints=True)
            )
            if play_of(data) is not None
        ]
        if any(points):
            break
    else:
        raise AssertionError("no hand with a scoring play")
    with_points = hand_keyboard(view, 7, len(match.log), Lang.RU, hints=True)
    plain = hand_keyboard(view, 7, len(match.log), Lang.RU)
    assert with_points is not None and plain is not None
    assert not any("+" in text for text, _ in move_buttons(plain))
    tiles = len(view.round.hand)
    assert [len(row) for row in with_points.inline_keyboard[: -(-tiles // 3)]] == [
        min(POINTS_TILES_PER_ROW, tiles - i) for i in range(0, tiles, POINTS_TILES_PER_ROW)
    ]
    assert all(len(b.text) <= 20 for row in with_points.inline_keyboard for b in row)
    # The hand's text counts the ends as the caption does; only the owner's tiles in it.
    text = hand_text(view, NAMES[:2], "Двор", Lang.RU)
    assert f" = {end_count(view.round.layout)}\n" in text
    kozel = Match.new(find_variant("kozel").ruleset, 2, seed=1)
    seat = kozel.turn
    assert seat is not None
    markup = hand_keyboard(kozel.view(seat), 7, 0, Lang.RU, hints=True)
    assert not any(re.search(r"\+\d", text) for text, _ in move_buttons(markup))
