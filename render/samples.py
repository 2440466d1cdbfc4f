"""Sample pictures for people to look at: `python -m render.samples OUT_DIR`.

Real seeded matches of every game played by the engine's computer players (Козёл,
Классика, Морской козёл, Осёл with its spinner cross and ends closed by a face-down
double, Спортивное with its turned tiles and pairs, Пятёрки and Тройки и пятёрки with
the points scored in play, the sum of the ends and a spinner laid off centre, Берген
and Дубли whose hands count by their doubles and whose block English calls a block,
each round's points taken apart into those scored in play and those of its end, Блиц
and Крест whose turns lay several tiles, every tile of the last turn marked, Втемную
with some stacks still face down), a few in English, plus hand-built layouts
(`render.demo`) for what a game rarely shows: all 28 tiles in one line, a spinner
cross (C-10) and in Пятёрки a double across an end (its badge the pip to match, a tag
«=12» with what the end counts). Writing the files is this module's job; the drawing
functions themselves do no I/O.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

from domino.actions import Flipped, Played
from domino.geometry import End
from domino.layout import new_layout
from domino.match import Match
from domino.players import GreedyPlayer, RandomPlayer
from domino.rules import CLASSIC, KOZEL, LayoutKind, Ruleset
from domino.tiles import Tile
from domino.variants import find_variant
from domino.views import Account, MatchView, OutcomeKind
from render import counts, demo
from render.round_end import render_round_end
from render.scores import render_scores
from render.table import just_laid, render_table

NAMES = ("Маша", "Алексей", "Оля", "Серёга")
ODD_NAMES = (
    "Тётя Клава 🥚🐐",
    "שרה כהן",
    "Александра Константиновна Воскресенская-Преображенская" * 4,
    "مريم",
)


def play(match: Match, moves: int | None = None, *, seed: int = 7) -> Match:
    """Let computer players move `moves` times (None: to the end of the match)."""
    rng = random.Random(seed)
    players = [GreedyPlayer() if seat % 2 else RandomPlayer(rng) for seat in range(match.players)]
    done = 0
    while not match.over and (moves is None or done < moves):
        seat = match.turn
        if seat is None:
            break
        action = players[seat].choose(match.view(seat))
        match.apply(action, seat)
        done += 1
    return match


def play_rounds(match: Match, rounds: int, *, seed: int = 7) -> Match:
    """Play until `rounds` rounds are finished (or the match is over)."""
    while len(match.results) < rounds and not match.over:
        play(match, 1, seed=seed + len(match.log))
    return match


def _full_line() -> MatchView:
    line = demo.eulerian_line()
    scores = [Account(20, 0, True), Account(0, 7), Account(), Account(45, 0, True)]
    return demo.match_view(
        demo.line_layout(line, 11), 4, turn=2, round_no=4, scores=scores, eggs=23
    )


def _cross() -> MatchView:
    trail = demo.spinner_arms(3)
    cut = demo.returns(trail, 3)
    arms = demo.split_trail(trail, [cut[0], cut[1], cut[1] + 4])
    lengths = (6, 4, 3, 5)
    layout = demo.spinner_layout(
        3,
        {end: arm[:n] for end, arm, n in zip(End, arms, lengths, strict=True)},
    )
    return demo.match_view(layout, 3, bazaar=2, turn=1, round_no=2)


def _fives_doubles() -> MatchView:
    """Пятёрки after 5-5 (the spinner), 5-6 and 6-6 to its right and 3-5 to its left: the
    6-6 across the right end shows the 6 to match and a tag «=12», what that end counts
    (F-3), the spinner's empty UP and DOWN arms muted with its 5; the ends sum to 15."""
    layout = new_layout(LayoutKind.FIRST_DOUBLE)
    for tile, end in (("5-5", None), ("5-6", End.RIGHT), ("6-6", End.RIGHT), ("3-5", End.LEFT)):
        layout.place(Tile.parse(tile), end)
    fives = find_variant("all_fives").ruleset
    scores = [Account(35, 0), Account(20, 0)]
    return demo.match_view(
        layout.view(), 2, ruleset=fives, bazaar=6, turn=1, scores=scores, round_points=(15, 10)
    )


def _table(
    ruleset: Ruleset, players: int, seed: int, rounds: int, moves: int | None, lang: str = "ru"
) -> bytes:
    match = play(play_rounds(Match.new(ruleset, players, seed=seed), rounds), moves)
    return render_table(match.view(None), NAMES[:players], lang)


def _scores(
    ruleset: Ruleset, players: int, seed: int, rounds: int | None, lang: str = "ru"
) -> bytes:
    match = Match.new(ruleset, players, seed=seed)
    match = play(match) if rounds is None else play_rounds(match, rounds)
    return render_scores(match.view(None), NAMES[:players], None, lang)


def _round_end(
    ruleset: Ruleset, players: int, seed: int, rounds: int | None, lang: str = "ru"
) -> bytes:
    """The end of round `rounds` (None: the match's last) with every hand laid open."""
    match = Match.new(ruleset, players, seed=seed)
    match = play(match) if rounds is None else play_rounds(match, rounds)
    result = match.results[-1]
    ended = match.ended_round(result.round_no)
    return render_round_end(match.view(None), NAMES[:players], ended, result, lang)


def _split_scores(
    ruleset: Ruleset, players: int, seed: int, rounds: int, lang: str = "ru"
) -> bytes:
    """The score sheet of round `rounds` given that round, so that each side's points are
    taken apart into those scored in play and those of the round's end (F-3)."""
    match = play_rounds(Match.new(ruleset, players, seed=seed), rounds)
    result = match.results[-1]
    ended = match.ended_round(result.round_no)
    return render_scores(match.view(None), NAMES[:players], result, lang, ended)


def _osel_closed(players: int) -> bytes:
    """The first position of a seeded Осёл match whose spinner cross has three arms or
    more and an end closed by a face-down double (O-1, O-3)."""
    ruleset = find_variant("osel").ruleset
    for seed in range(100):
        match = Match.new(ruleset, players, seed=seed)
        while not match.over and not match.results:
            play(match, 1, seed=seed + len(match.log))
            layout = match.view(None).round.layout
            if layout.closed_ends and sum(1 for _, arm in layout.arms if arm) >= 3:
                return render_table(match.view(None), NAMES[:players])
    raise AssertionError("no seed up to 100 closes an end on a cross")


def _first_position(
    ruleset: Ruleset, players: int, wanted: Callable[[Match], bool], seeds: range
) -> Match:
    """The first position of seeded matches of `ruleset` that is `wanted`."""
    for seed in seeds:
        match = Match.new(ruleset, players, seed=seed)
        while not match.over:
            play(match, 1, seed=seed + len(match.log))
            if wanted(match):
                return match
    raise AssertionError(f"no seed in {seeds} reaches the position wanted")


def _off_centre_cross(match: Match) -> bool:
    """F-2: a spinner laid later on a side arm, tiles on all four of its arms, and the
    move just played scored (F-3)."""
    view = match.view(None)
    layout = view.round.layout
    spinner = layout.spinner
    return (
        spinner is not None
        and spinner.end is not None
        and sum(1 for _, arm in layout.arms if arm) == 4
        and counts.last_scored(view) is not None
    )


def _just_scored(match: Match) -> bool:
    view = match.view(None)
    return len(view.round.layout.placements) >= 6 and counts.last_scored(view) is not None


def _reached(match: Match) -> bool:
    """F-6: a move reached the target and stopped the round."""
    return match.over and match.results[-1].outcome.kind is OutcomeKind.REACHED


def _reached_end(key: str, players: int, seed: int, lang: str = "ru") -> bytes:
    """The round a move stopped at the target (F-6), every hand laid open as it was."""
    match = _first_position(find_variant(key).ruleset, players, _reached, range(seed, seed + 50))
    result = match.results[-1]
    ended = match.ended_round(result.round_no)
    return render_round_end(match.view(None), NAMES[:players], ended, result, lang)


def _blocked_end(key: str, players: int, seed: int, lang: str = "ru") -> bytes:
    """The first round of seeded matches of `key` that ended in a block (C-8 b), every
    hand laid open: «blocked by …» in English where the game scores in play."""

    def blocked(match: Match) -> bool:
        return bool(match.results) and match.results[-1].outcome.kind is OutcomeKind.FISH

    match = _first_position(find_variant(key).ruleset, players, blocked, range(seed, seed + 50))
    result = match.results[-1]
    ended = match.ended_round(result.round_no)
    return render_round_end(match.view(None), NAMES[:players], ended, result, lang)


def _reached_scores(key: str, players: int, seed: int, lang: str = "ru") -> bytes:
    match = _first_position(find_variant(key).ruleset, players, _reached, range(seed, seed + 50))
    return render_scores(match.view(None), NAMES[:players], None, lang)


def _scoring_table(
    key: str, players: int, wanted: Callable[[Match], bool], seed: int, lang: str = "ru"
) -> bytes:
    ruleset = find_variant(key).ruleset.with_options(teams=players == 4)
    match = _first_position(ruleset, players, wanted, range(seed, seed + 50))
    return render_table(match.view(None), NAMES[:players], lang)


def _mid_turn(match: Match) -> bool:
    """Section V: the seat to move has laid three tiles or more this turn and may lay
    more, on a table that holds tiles laid in earlier turns too."""
    view = match.view(None)
    marked = just_laid(view)
    history = view.round.history
    return (
        len(marked) >= 3
        and len(view.round.layout.placements) > len(marked)
        and bool(history)
        and isinstance(history[-1], Played)
        and history[-1].seat == view.round.turn
    )


def _dark_mixed(match: Match) -> bool:
    """Втемную: a tile turned up just now fitted nowhere and went under its stack, one
    seat's tiles still lie face down and another's are turned up."""
    view = match.view(None)
    history = view.round.history
    face_down = view.round.face_down
    return (
        bool(history)
        and isinstance(history[-1], Flipped)
        and any(face_down)
        and not all(face_down)
        and len(view.round.layout.placements) >= 6
    )


def _four_arms(match: Match) -> bool:
    """A cross from the first double (Крест) with tiles on all four of its arms."""
    layout = match.view(None).round.layout
    return sum(1 for _, arm in layout.arms if arm) == 4


def _table_at(
    key: str, players: int, wanted: Callable[[Match], bool], seed: int, lang: str = "ru"
) -> bytes:
    """The table at the first position of seeded matches of `key` that is `wanted`."""
    match = _first_position(find_variant(key).ruleset, players, wanted, range(seed, seed + 50))
    return render_table(match.view(None), NAMES[:players], lang)


def _odd_names() -> bytes:
    return render_table(play(Match.new(KOZEL, 4, seed=6), 6).view(None), ODD_NAMES)


def samples() -> Iterator[tuple[str, Callable[[], bytes]]]:
    """(file name, picture maker) for every sample."""
    teams = KOZEL.with_options(teams=True)
    spinner = KOZEL.with_options(layout=LayoutKind.SPINNER)
    yield "table_empty.png", partial(_table, KOZEL, 4, 1, 0, 0)
    yield "table_midgame_3.png", partial(_table, KOZEL, 3, 2, 0, 11)
    yield "table_midgame_2_round3.png", partial(_table, KOZEL, 2, 5, 2, 9)
    yield "table_teams.png", partial(_table, teams, 4, 3, 2, 14)
    yield "table_full_line.png", lambda: render_table(_full_line(), NAMES)
    yield "table_spinner_cross.png", lambda: render_table(_cross(), NAMES[:3])
    yield "table_spinner_real.png", partial(_table, spinner, 2, 4, 0, 16)
    yield "table_odd_names.png", _odd_names
    yield "table_match_end.png", partial(_table, KOZEL, 4, 30, 99, None)
    for players in (2, 3, 4):
        yield f"scores_{players}.png", partial(_scores, KOZEL, players, 10 + players, 3)
    yield "scores_teams.png", partial(_scores, teams, 4, 20, 2)
    yield "scores_match_end.png", partial(_scores, KOZEL, 4, 30, None)
    yield "scores_match_end_classic.png", partial(_scores, CLASSIC, 3, 31, None)
    yield "table_classic_en.png", partial(_table, CLASSIC, 3, 32, 1, 6, "en")
    sea = find_variant("sea_kozel").ruleset
    yield "table_sea_kozel_teams.png", partial(_table, sea, 4, 40, 1, 10)
    yield "scores_sea_kozel_end.png", partial(_scores, sea, 2, 41, None)
    osel = find_variant("osel").ruleset
    yield "table_osel_cross.png", partial(_table, osel, 3, 50, 0, 14)
    yield "table_osel_closed.png", partial(_osel_closed, 2)
    yield "scores_osel_end.png", partial(_scores, osel, 3, 51, None)
    yield "scores_osel_end_en.png", partial(_scores, osel, 3, 51, None, "en")
    sport = find_variant("sport").ruleset
    yield "table_sport_turned.png", partial(_table, sport, 4, 60, 0, 0)
    yield "table_sport_midgame.png", partial(_table, sport, 4, 61, 1, 9)
    yield "scores_sport_round.png", partial(_scores, sport, 4, 62, 2)
    yield "scores_sport_end.png", partial(_scores, sport, 4, 63, None)
    for players in (2, 3, 4):
        yield f"round_end_{players}.png", partial(_round_end, KOZEL, players, 10 + players, 3)
    yield "round_end_teams.png", partial(_round_end, teams, 4, 20, 2)
    yield "round_end_match_end_en.png", partial(_round_end, KOZEL, 2, 30, None, "en")
    yield "round_end_osel.png", partial(_round_end, osel, 3, 51, 2)
    yield "round_end_sport_en.png", partial(_round_end, sport, 4, 62, 2, "en")
    fives = find_variant("all_fives").ruleset
    threes = find_variant("threes_and_fives").ruleset
    yield "table_all_fives_scored.png", partial(_scoring_table, "all_fives", 2, _just_scored, 70)
    yield (
        "table_all_fives_off_centre.png",
        partial(_scoring_table, "all_fives", 3, _off_centre_cross, 71),
    )
    yield (
        "table_all_fives_teams_en.png",
        partial(_scoring_table, "all_fives", 4, _off_centre_cross, 72, "en"),
    )
    yield (
        "table_threes_and_fives.png",
        partial(_scoring_table, "threes_and_fives", 2, _just_scored, 73),
    )
    yield "table_all_fives_reached.png", partial(_scoring_table, "all_fives", 2, _reached, 74)
    yield "table_all_fives_doubles.png", lambda: render_table(_fives_doubles(), NAMES[:2])
    yield "scores_all_fives_reached.png", partial(_reached_scores, "all_fives", 3, 75)
    yield "scores_threes_and_fives_en.png", partial(_scores, threes, 2, 76, 2, "en")
    yield "round_end_all_fives.png", partial(_round_end, fives, 3, 77, 1)
    yield "round_end_all_fives_reached.png", partial(_reached_end, "all_fives", 2, 74)
    yield (
        "round_end_threes_and_fives_reached_en.png",
        partial(_reached_end, "threes_and_fives", 4, 78, "en"),
    )
    yield "scores_all_fives_split.png", partial(_split_scores, fives, 3, 77, 1)
    bergen = find_variant("bergen").ruleset
    dubli = find_variant("dubli").ruleset
    yield "round_end_bergen.png", partial(_round_end, bergen, 2, 80, 2)
    yield (
        "round_end_bergen_teams_en.png",
        partial(_round_end, bergen.with_options(teams=True), 4, 81, 1, "en"),
    )
    yield "round_end_dubli.png", partial(_round_end, dubli, 4, 82, 1)
    yield "round_end_dubli_reached.png", partial(_reached_end, "dubli", 3, 83)
    yield "round_end_bergen_block_en.png", partial(_blocked_end, "bergen", 2, 84, "en")
    blitz = find_variant("blitz").ruleset
    cross = find_variant("cross").ruleset
    yield "table_blitz_turn.png", partial(_table_at, "blitz", 2, _mid_turn, 90)
    yield "table_blitz_3_en.png", partial(_table_at, "blitz", 3, _mid_turn, 91, "en")
    yield "table_blitz_4.png", partial(_table_at, "blitz", 4, _mid_turn, 92)
    yield "table_cross.png", partial(_table_at, "cross", 3, _four_arms, 93)
    yield "table_cross_2_en.png", partial(_table_at, "cross", 2, _four_arms, 94, "en")
    yield "round_end_blitz.png", partial(_round_end, blitz, 2, 95, 1)
    yield "round_end_cross_en.png", partial(_round_end, cross, 4, 96, 1, "en")
    yield "scores_blitz_end_en.png", partial(_scores, blitz, 3, 97, None, "en")
    shesterka = find_variant("shesterka").ruleset
    yield "table_shesterka.png", partial(_table, shesterka, 3, 98, 1, 9)
    yield "round_end_shesterka_en.png", partial(_round_end, shesterka, 2, 99, 1, "en")
    dark = find_variant("dark").ruleset
    yield "table_dark.png", partial(_table_at, "dark", 3, _dark_mixed, 100)
    yield "table_dark_2_en.png", partial(_table_at, "dark", 2, _dark_mixed, 101, "en")
    yield "round_end_dark.png", partial(_round_end, dark, 2, 102, 1)
    yield "scores_dark_end_en.png", partial(_scores, dark, 3, 103, None, "en")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m render.samples OUT_DIR", file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    for name, make in samples():
        data = make()
        (out / name).write_bytes(data)
        print(f"{out / name}  {len(data) / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
