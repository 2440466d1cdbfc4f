"""The Mini App's state by value (`bot.webapp.views.game_view`): Козёл's table and hand
(a tile that fits two ends, a draw, the clock), Осёл's several doubles and a closed end
(O-2, O-3), a spinner game's arms and the sum of its ends (C-10, F-3), Втемную's stack
and its tile turned up, the round's end laid open (and when it is not: a game cancelled
or given up mid-round), the match's end as its announcement says it, the sheet, the
lobby and its rules, a person the computer plays for, a cancelled game; the texts are
the messages' own, without HTML, in both languages, English with English quotes.

Positions come from seeded matches played by `GreedyPlayer` until what a test needs
is on the table (`until`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.telegram.presenter.endings import played_out_notes
from bot.telegram.presenter.lobby import lobby_text
from bot.telegram.presenter.moves import doubles_label
from bot.telegram.presenter.table import match_end_text
from bot.webapp.views import NARROW_AREA, PAGE_TEXTS, game_view, plain, seat_names
from domino.actions import (
    Close,
    Draw,
    Flip,
    Play,
    PlayDoubles,
    parse_action,
)
from domino.geometry import End
from domino.match import Match
from domino.players import GreedyPlayer
from domino.rules import LayoutKind
from domino.timing import TurnTimer
from domino.variants import find_variant
from i18n import Lang, t
from render.table import ARROWS
from storage.records import Ending, GameRecord, GameStatus, SeatRecord, TurnDeadline

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
NAMES = ("Олег <3 & Co", "Маша", "Вика", "Дима")


def record(key: str, seed: int, players: int = 2, **changes: Any) -> GameRecord:
    ruleset = find_variant(key).ruleset
    match = Match.new(ruleset, players, seed=seed)
    seats = tuple(SeatRecord(s, 100 + s, NAMES[s]) for s in range(players))
    game = GameRecord(7, -5, GameStatus.PLAYING, 100, ruleset, players, seats, match)
    return replace(game, **changes)


def until(game: GameRecord, wanted: Callable[[Match], bool], limit: int = 400) -> None:
    """Play `game`'s match with `GreedyPlayer` until `wanted` holds (else fail)."""
    match = game.match
    assert match is not None
    player = GreedyPlayer()
    for _ in range(limit):
        if wanted(match):
            return
        seat = match.turn
        assert seat is not None and not match.over
        match.apply(player.choose(match.view(seat)), seat)
    pytest.fail("the position was never reached")


def state_of(
    game: GameRecord,
    seat: int | None,
    lang: Lang = Lang.RU,
    timer: TurnTimer | None = None,
    **options: bool,
) -> dict[str, Any]:
    state = game_view(
        game,
        seat,
        lang,
        now=NOW,
        hints=options.get("hints", True),
        may_join=options.get("may_join", False),
        timer=timer,
    )
    # What the server sends: JSON, and nothing in it that JSON cannot say.
    assert json.loads(json.dumps(state)) == state
    return state


def texts_of(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in texts_of(item)]
    if isinstance(value, list):
        return [text for item in value for text in texts_of(item)]
    return []


def two_ends(match: Match) -> bool:
    """Seat 0 to move, holding a tile that fits two ends."""
    plays = [a for a in match.legal_actions() if isinstance(a, Play)]
    return match.turn == 0 and any(sum(p.tile == a.tile for p in plays) > 1 for a in plays)


# --- Козёл ------------------------------------------------------------------------


def test_kozel_seats_table_and_the_viewers_own_hand() -> None:
    game = record("kozel", seed=2)
    until(game, lambda m: len(m.round.layout.placements) >= 3 and m.turn == 0)
    match = game.match
    assert match is not None
    state = state_of(game, 0)
    assert state["v"] == 1 and state["lang"] == "ru"
    assert state["now"] == int(NOW.timestamp() * 1000)
    assert state["game"] == {
        "title": "Козёл",
        "chat": "",
        "status": "playing",
        "move": len(match.log),
        "round": 1,
        "target": match.ruleset.target,
    }
    assert state["viewer"] == {
        "seat": 0,
        "spectator": False,
        "may_join": False,
        "away": False,
        "controls": False,
    }
    assert [seat["tiles"] for seat in state["seats"]] == list(match.view(None).round.hand_counts)
    assert [seat["turn"] for seat in state["seats"]] == [True, False]
    assert [seat["you"] for seat in state["seats"]] == [True, False]
    assert state["seats"][0]["name"] == "Олег <3 & Co"  # plain text: the page escapes
    assert state["turn"] == {"seat": 0, "deadline": None, "limit": None}
    assert state["status"] == "ход: Олег <3 & Co"
    hand = state["hand"]
    assert [(tile["a"], tile["b"]) for tile in hand["tiles"]] == [
        (tile.low, tile.high) for tile in match.round.hand(0)
    ]
    assert hand["your_turn"] and hand["hint"] and hand["face_down"] == 0
    table = state["table"]
    placements = match.round.layout.placements
    assert len(table["tiles"]) == len(placements)
    assert [tile["new"] for tile in table["tiles"]] == [False] * (len(placements) - 1) + [True]
    for tile in table["tiles"]:
        assert tile["x"] >= 0 and tile["x"] + tile["w"] <= table["width"]
        assert tile["y"] >= 0 and tile["y"] + tile["h"] <= table["height"]
        assert {tile["w"], tile["h"]} == {2 * table["unit"], 4 * table["unit"]}
    pips = sorted(end["pip"] for end in table["ends"])
    assert pips == sorted(pip for _, pip in match.round.layout.view().open_ends)
    assert {end["label"] for end in table["ends"]} == {ARROWS[End.LEFT], ARROWS[End.RIGHT]}
    assert table["bazaar"] == match.round.bazaar_size
    assert state["events"][-1] == "Маша кладёт кость"
    assert state["round_end"] is None


def test_a_tile_that_fits_two_ends_has_a_play_on_each_named_by_its_end() -> None:
    game = record("kozel", seed=2)
    until(game, two_ends)
    state = state_of(game, 0)
    ends = state["table"]["ends"]
    doubles = [tile for tile in state["hand"]["tiles"] if len(tile["plays"]) > 1]
    assert doubles
    for tile in doubles:
        targets = [play["end"] for play in tile["plays"]]
        assert len(set(targets)) == len(targets) == 2
        for play in tile["plays"]:
            action = parse_action(play["action"])
            assert isinstance(action, Play) and action.end is not None
            end = ends[play["end"]]
            assert end["arm"] == action.end.name.lower()
            assert end["pip"] in (tile["a"], tile["b"])
            arrow = {"left": "⬅️", "right": "➡️"}[end["arm"]]
            assert play["label"] == f"{tile['a']}|{tile['b']} на {arrow} {end['pip']}"
    match = game.match
    assert match is not None
    fitting = {a.tile for a in match.legal_actions() if isinstance(a, Play)}
    marked = {(tile["a"], tile["b"]) for tile in state["hand"]["tiles"] if tile["plays"]}
    assert marked == {(tile.low, tile.high) for tile in fitting}


def test_a_seat_that_must_draw_has_the_draw_and_no_tile_to_play() -> None:
    game = record("kozel", seed=2)
    until(game, lambda m: any(isinstance(a, Draw) for a in m.legal_actions()))
    match = game.match
    assert match is not None
    seat = match.turn
    state = state_of(game, seat)
    assert state["hand"]["moves"] == [{"action": "d", "label": "🎲 Взять из базара"}]
    assert all(not tile["plays"] for tile in state["hand"]["tiles"])
    other = state_of(game, 1 - (seat or 0))
    assert other["hand"]["moves"] == [] and not other["hand"]["your_turn"]
    assert not other["hand"]["hint"]


def test_the_public_sees_the_table_and_no_hand() -> None:
    game = record("kozel", seed=2)
    until(game, lambda m: len(m.log) >= 3)
    state = state_of(game, None, may_join=True)
    assert state["viewer"] == {
        "seat": None,
        "spectator": True,
        "may_join": True,
        "away": False,
        "controls": False,
    }
    assert state["hand"] is None
    assert not any(seat["you"] for seat in state["seats"])
    assert state["table"]["tiles"]


def test_the_turns_clock_is_the_stored_deadline_of_the_move_in_progress() -> None:
    game = record("kozel", seed=2)
    match = game.match
    assert match is not None
    deadline = NOW + timedelta(seconds=42)
    timed = replace(game, turn_deadline=TurnDeadline(7, len(match.log), deadline, 60.0))
    turn = state_of(timed, 0)["turn"]
    assert turn == {
        "seat": match.turn,
        "deadline": int(deadline.timestamp() * 1000),
        "limit": 60,
    }
    stale = replace(game, turn_deadline=TurnDeadline(7, len(match.log) + 1, deadline, 60.0))
    assert state_of(stale, 0)["turn"]["deadline"] is None


def test_a_person_the_computer_plays_for_sees_the_hand_but_no_move() -> None:
    game = record("kozel", seed=2)
    until(game, lambda m: m.turn == 0)
    away = replace(game, seats=(replace(game.seats[0], away=True), game.seats[1]))
    state = state_of(away, 0)
    assert state["viewer"]["away"] and state["seats"][0]["away"]
    assert state["seats"][0]["name"] == "Олег <3 & Co (🤖)"
    hand = state["hand"]
    assert hand["tiles"] and all(not tile["plays"] for tile in hand["tiles"])
    assert hand["moves"] == [] and hand["menus"] == [] and not hand["your_turn"]
    assert hand["note"] == t("hand.away", Lang.RU)  # the private hand's own words
    assert state["texts"]["back_in_game"] == "🙋 Я снова играю"


# --- Осёл: several doubles, a closed end, the spinner -----------------------------


def test_osel_offers_several_doubles_as_one_menu() -> None:
    game = record("osel", seed=6)
    until(
        game, lambda m: m.turn == 0 and any(isinstance(a, PlayDoubles) for a in m.legal_actions())
    )
    match = game.match
    assert match is not None
    state = state_of(game, 0)
    (menu,) = [menu for menu in state["hand"]["menus"] if menu["kind"] == "doubles"]
    assert menu["label"] == t("btn.choose_doubles", Lang.RU, n=match.ruleset.game.max_doubles)
    legal = [a for a in match.legal_actions() if isinstance(a, PlayDoubles)]
    assert [option["action"] for option in menu["options"]] == [str(a) for a in legal]
    assert [option["label"] for option in menu["options"]] == [doubles_label(a) for a in legal]
    assert all("+" in option["label"] for option in menu["options"])


def test_osel_a_closed_end_lies_face_down_with_a_lock_and_takes_no_tile() -> None:
    game = record("osel", seed=1)
    until(game, lambda m: any(isinstance(a, Close) for a in m.legal_actions()))
    match = game.match
    assert match is not None
    mover = match.turn
    closing = state_of(game, mover)
    (menu,) = [menu for menu in closing["hand"]["menus"] if menu["kind"] == "close"]
    assert menu["label"] == "🔒 Закрыть конец дублем"
    close = next(a for a in match.legal_actions() if isinstance(a, Close))
    option = next(o for o in menu["options"] if o["action"] == str(close))
    assert option["label"].startswith("🔒 Закрыть")
    match.apply(close, mover)
    state = state_of(game, None)
    table = state["table"]
    (face_down,) = [tile for tile in table["tiles"] if tile["closed"]]
    assert face_down["a"] == face_down["b"] == close.tile.low
    (locked,) = [end for end in table["ends"] if end["closed"]]
    assert locked["pip"] is None and locked["arm"] == close.end.name.lower()
    assert locked["label"] == ARROWS[close.end]
    x, y = locked["x"], locked["y"]
    assert face_down["x"] <= x <= face_down["x"] + face_down["w"]
    assert face_down["y"] <= y <= face_down["y"] + face_down["h"]
    seat = match.turn
    after = state_of(game, seat)
    closed_index = table["ends"].index(locked)
    for tile in after["hand"]["tiles"]:
        assert all(play["end"] != closed_index for play in tile["plays"])


def test_a_spinner_game_rings_its_spinner_and_sums_its_four_ends() -> None:
    game = record("all_fives", seed=1)
    until(game, lambda m: len(m.round.layout.view().open_ends) >= 3)
    match = game.match
    assert match is not None
    layout = match.round.layout.view()
    assert layout.spinner is not None
    table = state_of(game, None)["table"]
    (spinner,) = [tile for tile in table["tiles"] if tile["spinner"]]
    assert spinner["a"] == spinner["b"] == layout.spinner.tile.low
    assert spinner["h"] > spinner["w"]  # across the line
    arms = {end["arm"] for end in table["ends"]}
    assert arms == {end.name.lower() for end, _ in layout.open_ends}
    assert len(arms) >= 3
    _, count = match.ruleset.game.move_points(match.ruleset, layout)
    assert table["sum"] == count
    narrow = table["narrow"]  # a phone's square: the same tiles and ends, laid again
    assert narrow["width"] == narrow["height"] < table["width"]
    assert [(t["a"], t["b"], t["spinner"]) for t in narrow["tiles"]] == [
        (t["a"], t["b"], t["spinner"]) for t in table["tiles"]
    ]
    assert [(e["arm"], e["pip"]) for e in narrow["ends"]] == [
        (e["arm"], e["pip"]) for e in table["ends"]
    ]
    assert any(end["muted"] for end in table["ends"]) or all(
        end["count"] is None or end["count"].startswith("=") for end in table["ends"]
    )


def test_osel_is_laid_on_a_spinner_with_arms_up_and_down() -> None:
    game = record("osel", seed=6)
    until(game, lambda m: any(e is End.UP for e, _ in m.round.layout.view().open_ends))
    table = state_of(game, 0)["table"]
    assert any(tile["spinner"] for tile in table["tiles"])
    assert "up" in {end["arm"] for end in table["ends"]}
    assert table["sum"] is None  # Осёл does not score the ends


# --- Втемную ----------------------------------------------------------------------


def test_dark_the_stack_is_a_count_and_the_flip_its_only_move() -> None:
    game = record("dark", seed=3)
    match = game.match
    assert match is not None
    seat = match.turn
    assert seat is not None
    state = state_of(game, seat)
    hand = state["hand"]
    assert hand["tiles"] == []
    assert hand["face_down"] == match.round.view(None).hand_counts[seat] > 0
    assert hand["moves"] == [{"action": str(Flip()), "label": "⬛ Открыть верхнюю"}]
    assert hand["face_down_text"] and not hand["hint"]
    assert state["seats"][seat]["face_down"] == hand["face_down"]


def test_dark_a_tile_turned_up_that_fits_two_ends_is_its_owners_to_lay() -> None:
    game = record("dark", seed=3)
    until(game, lambda m: m.round.turned_up is not None)
    match = game.match
    assert match is not None
    turned = match.round.turned_up
    assert turned is not None
    seat = match.turn
    state = state_of(game, seat)
    assert state["table"]["turned_up"] == [turned.low, turned.high]
    (tile,) = [tile for tile in state["hand"]["tiles"] if tile["plays"]]
    assert (tile["a"], tile["b"]) == (turned.low, turned.high)
    assert len({play["end"] for play in tile["plays"]}) == 2
    assert state["hand"]["hint"]  # a real choice
    assert state["hand"]["note"] and f"{turned.low}|{turned.high}" in state["hand"]["note"]
    public = state_of(game, None)
    assert public["table"]["turned_up"] == [turned.low, turned.high]
    assert public["hand"] is None


# --- the round's end, the sheet, the lobby, the end of a game ----------------------


def test_a_round_that_ended_is_laid_open_until_the_next_round_begins() -> None:
    game = record("kozel", seed=2)
    until(game, lambda m: bool(m.results))
    match = game.match
    assert match is not None
    ended = match.ended_round(1)
    state = state_of(game, 1)
    shown = state["round_end"]
    assert shown is not None and shown["round"] == 1
    assert shown["title"] == "Раунд 1 · итоги"
    assert [hand["tiles"] for hand in shown["hands"]] == [
        [[tile.low, tile.high] for tile in ended.hand(seat)] for seat in range(2)
    ]
    for hand, seat in zip(shown["hands"], range(2), strict=True):
        tiles = ended.hand(seat)
        expected = f"= {sum(t.low + t.high for t in tiles)}" if tiles else "костей не осталось"
        assert hand["total"] == expected and hand["name"] == NAMES[seat]
    assert len(shown["table"]["tiles"]) == len(ended.layout.placements)
    assert shown["lines"] and not any("<" in line and ">" in line for line in shown["lines"][1:])
    assert state["sheet"]["rows"] == [["1", *map(str, match.results[0].points)]]
    assert state["sheet"]["heads"] == ["Раунд", NAMES[0], NAMES[1]]
    assert state["sheet"]["totals"][0] == "Итого"
    assert state["status"].startswith("Раунд 1: ")
    until(game, lambda m: bool(m.round.history))
    assert state_of(game, 1)["round_end"] is None


def test_a_finished_match_keeps_its_last_round_open_and_names_the_goat() -> None:
    game = record("kozel", seed=2)
    until(game, lambda m: m.over, limit=2000)
    finished = replace(game, status=GameStatus.FINISHED)
    state = state_of(finished, 0)
    assert state["hand"] is None and state["round_end"] is not None
    assert state["status"].startswith("Козёл: ")
    assert state["turn"]["seat"] is None and not any(seat["turn"] for seat in state["seats"])
    # The match's end as the group's announcement says it, a line each, without HTML.
    match = finished.match
    assert match is not None
    said = match_end_text(match.view(None), seat_names(finished, Lang.RU), Lang.RU)
    lines = state["round_end"]["match_lines"]
    assert lines == [plain(line) for line in said.split("\n")]
    assert lines[0].startswith("🐐 Козёл — ") and NAMES[0] in " ".join(lines)
    assert all(str(side["score"]) in " ".join(lines) for side in state["sides"])
    assert state["round_end"]["round"] == len(match.results)
    english = state_of(finished, None, Lang.EN)["round_end"]["match_lines"]
    assert english[0].startswith("🐐 The goat is ")


def test_the_ended_rounds_table_is_laid_for_a_phone_too() -> None:
    game = record("osel", seed=6)
    until(game, lambda m: bool(m.results))
    ended = state_of(game, 0)["round_end"]["table"]
    narrow = ended["narrow"]
    assert (narrow["width"], narrow["height"]) == (NARROW_AREA.width, NARROW_AREA.height)
    assert len(narrow["tiles"]) == len(ended["tiles"]) > 0
    assert [end["arm"] for end in narrow["ends"]] == [end["arm"] for end in ended["ends"]]

    def laid(table: dict[str, Any]) -> list[tuple[int, int]]:
        return sorted((min(x["a"], x["b"]), max(x["a"], x["b"])) for x in table["tiles"])

    assert laid(narrow) == laid(ended)  # the same tiles, laid again for the width


def test_a_round_end_has_no_match_lines_while_the_match_goes_on() -> None:
    game = record("kozel", seed=2)
    until(game, lambda m: bool(m.results))
    shown = state_of(game, 0)["round_end"]
    assert shown is not None and shown["match_lines"] == []


def test_a_match_played_out_after_everyone_left_says_how_it_counts() -> None:
    """Everyone left (the first to go is the culprit, K-11): the computers play the
    match to its end; the app's lines are the announcement's, its notes included."""
    game = record("kozel", seed=2)
    until(game, lambda m: len(m.log) >= 3)
    game = game.left_by(0).left_by(1)
    until(game, lambda m: m.over, limit=2000)
    finished = game.ended(GameStatus.FINISHED, NOW)
    state = state_of(finished, None)
    assert state["round_end"] is not None  # the match is over: its last round stays
    lines = state["round_end"]["match_lines"]
    # The first to leave loses, whatever the board says; marked as the group's names are.
    assert lines[0] == f"🐐 Козёл — {NAMES[0]} (🤖)"
    notes = [plain(note) for note in played_out_notes(finished, Lang.RU)]
    assert notes and lines[1 : 1 + len(notes)] == notes
    assert state["status"] == f"Козёл: {NAMES[0]} (🤖)"


# --- a game that ended early: which round end it shows (none but one just ended) ----


def test_a_game_cancelled_mid_round_shows_no_earlier_round_end() -> None:
    """The bug: /cancel in round 2 showed round 1's results as if round 2 had ended."""
    game = record("kozel", seed=2)
    until(game, lambda m: bool(m.results) and len(m.round.history) >= 2)
    assert state_of(game, 0)["round_end"] is None  # round 2 runs
    cancelled = game.ended(GameStatus.CANCELLED, NOW)
    for seat in (0, None):
        state = state_of(cancelled, seat)
        assert state["round_end"] is None
        assert state["status"] == "Игра отменена"
        assert state["hand"] is None
    assert state_of(cancelled, 0, Lang.EN)["status"] == "The game was cancelled"


def test_a_game_cancelled_between_rounds_shows_no_round_end_either() -> None:
    game = record("kozel", seed=2)
    until(game, lambda m: bool(m.results))
    assert state_of(game, 0)["round_end"] is not None  # the round just ended
    cancelled = game.ended(GameStatus.CANCELLED, NOW)
    state = state_of(cancelled, 0)
    assert state["round_end"] is None and state["status"] == "Игра отменена"


def test_a_cancelled_game_that_still_counts_says_it_was_cancelled_and_who_loses() -> None:
    game = record("kozel", seed=2)
    until(game, lambda m: bool(m.results) and len(m.round.history) >= 2)
    cancelled = game.left_by(1).ended(GameStatus.CANCELLED, NOW)
    state = state_of(cancelled, 0)
    assert state["round_end"] is None
    assert state["status"] == f"Игра отменена · Козёл: {NAMES[1]} (🤖)"


def test_a_surrender_mid_round_shows_no_earlier_round_end() -> None:
    game = record("kozel", seed=2)
    until(game, lambda m: bool(m.results) and len(m.round.history) >= 2)
    given_up = game.abandoned_by(1, Ending.SURRENDER)
    given_up = given_up.ended(GameStatus.FINISHED, NOW, Ending.SURRENDER)
    state = state_of(given_up, 0)
    assert state["round_end"] is None
    assert state["status"] == f"Козёл: {NAMES[1]}"
    assert state["hand"] is None


def test_a_surrender_right_after_a_round_ended_shows_that_round_end() -> None:
    game = record("kozel", seed=2)
    until(game, lambda m: bool(m.results))
    given_up = game.abandoned_by(0, Ending.SURRENDER)
    given_up = given_up.ended(GameStatus.FINISHED, NOW, Ending.SURRENDER)
    shown = state_of(given_up, 1)["round_end"]
    assert shown is not None and shown["round"] == 1
    # The match ended with it: the app says so as the status does (who lost it).
    assert shown["match_lines"][0] == f"🐐 Козёл — {NAMES[0]}"


def test_a_cancelled_game_says_so_and_offers_no_move() -> None:
    game = record("kozel", seed=2)
    until(game, lambda m: len(m.log) >= 2)
    cancelled = replace(game, status=GameStatus.CANCELLED)
    state = state_of(cancelled, 0)
    assert state["status"] == "Игра отменена"
    assert state["hand"] is None


def test_a_lobby_shows_its_seats_and_whether_the_viewer_may_join() -> None:
    game = replace(record("kozel", seed=2), status=GameStatus.LOBBY, match=None)
    game = replace(game, seats=game.seats[:1], seats_wanted=3)
    state = state_of(game, None, may_join=True)
    assert state["game"]["status"] == "lobby" and state["game"]["move"] == 0
    assert state["viewer"]["may_join"]
    assert [seat["name"] for seat in state["seats"]] == [NAMES[0]]
    assert state["status"] == "Набор игроков: 1 из 3"
    assert state["status"] != state["game"]["title"]
    assert state["table"] is None and state["hand"] is None and state["sheet"] is None
    assert state["texts"]["join"] == "🙋 Играю"
    assert state["lobby"]["rules"] == [
        "Игроков: 3 · игра до 101",
        "Рыба: на одного · открыть счёт: 13",
    ]
    # The lobby message's own lines, without its HTML.
    message = plain(lobby_text(game, Lang.RU)).split("\n")
    assert all(line in message for line in state["lobby"]["rules"])
    english = state_of(game, None, Lang.EN, may_join=True)
    assert english["status"] == "Waiting for players: 1 of 3"
    assert english["lobby"]["rules"][0] == "Players: 3 · game to 101"
    assert "lobby" not in state_of(record("kozel", seed=2), None)


def test_a_lobby_of_four_in_pairs_says_who_sits_with_whom() -> None:
    game = replace(record("kozel", seed=2, players=4), status=GameStatus.LOBBY, match=None)
    game = replace(game, seats=game.seats[:3], ruleset=replace(game.ruleset, teams=True))
    rules = state_of(game, None)["lobby"]["rules"]
    message = plain(lobby_text(game, Lang.RU)).split("\n")
    assert all(line in message for line in rules)
    assert rules[-2:] == [
        "Пары: 2×2, партнёры напротив",
        f"🤝 Пары: {NAMES[0]} + {NAMES[2]} · {NAMES[1]} + …",  # HTML taken out
    ]
    alone = replace(game, ruleset=replace(game.ruleset, teams=False))
    assert state_of(alone, None)["lobby"]["rules"][-1] == "Каждый сам за себя"
    # The game's name is the title, never a rule's line or the status.
    state = state_of(game, None)
    assert all(state["game"]["title"] not in line for line in state["lobby"]["rules"])


def test_a_lobby_says_the_straight_spinner_and_a_games_own_turn_times() -> None:
    game = replace(record("all_fives", seed=2), status=GameStatus.LOBBY, match=None)
    straight = replace(game, ruleset=replace(game.ruleset, layout=LayoutKind.SPINNER))
    assert state_of(straight, None)["lobby"]["rules"][-1].startswith("🌀 Спиннер")
    assert not any("🌀" in line for line in state_of(game, None)["lobby"]["rules"])
    sport = replace(record("sport", seed=2, players=4), status=GameStatus.LOBBY, match=None)
    timed = state_of(sport, None, timer=TurnTimer.S60)["lobby"]["rules"]
    assert timed[-1].startswith("⏱ Время на ход по правилам спортивного домино")
    assert not any(
        "⏱" in line for line in state_of(sport, None, timer=TurnTimer.OFF)["lobby"]["rules"]
    )
    assert not any("⏱" in line for line in state_of(sport, None)["lobby"]["rules"])


# --- texts --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", list(Lang))
def test_every_text_is_plain_and_in_the_groups_language(lang: Lang) -> None:
    game = record("kozel", seed=2)
    until(game, lambda m: len(m.log) >= 4 and m.turn == 0)
    state = state_of(game, 0, lang)
    assert state["lang"] == lang.value
    assert set(PAGE_TEXTS) <= set(state["texts"])
    assert all(state["texts"].values())
    for text in texts_of(state):
        assert "&lt;" not in text and "&amp;" not in text and "<b>" not in text
    english = lang is Lang.EN
    assert state["texts"]["sheet"] == ("Score" if english else "Счёт")
    assert any(NAMES[0] in line for line in state["events"])


@pytest.mark.parametrize("lang", list(Lang))
def test_the_pages_new_words(lang: Lang) -> None:
    texts = state_of(record("kozel", seed=2), 0, lang)["texts"]
    english = lang is Lang.EN
    assert texts["menu_back"] == t("btn.back", lang) == ("↩️ Back" if english else "↩️ Назад")
    assert texts["no_fit"] == (
        "That tile does not fit now." if english else "Эта кость сейчас не подходит."
    )
    start = t("btn.start", lang)
    assert (f"“{start}”" if english else f"«{start}»") in texts["lobby_wait"]
    assert texts["match_over"] == ("The match is over" if english else "Партия окончена")
    assert t("table.over", lang).startswith(texts["match_over"])  # the group's words
    if english:
        assert texts["spectator"] == "You are watching this game."


def test_english_quotes_are_english_and_a_round_goes_out_in_the_same_words() -> None:
    game = record("kozel", seed=2)
    until(game, lambda m: bool(m.results) and m.results[-1].outcome.kind.value == "went_out")
    state = state_of(game, 0, Lang.EN)
    for text in texts_of(state):
        assert "«" not in text and "»" not in text, text
    assert "went out" in state["status"]
    assert any("went out" in line for line in state["round_end"]["lines"])
    assert not any(" is out" in line for line in state["round_end"]["lines"])


def test_plain_takes_out_telegrams_html() -> None:
    assert plain("<b>Олег &lt;3</b> — <i>ход</i> &amp; всё") == "Олег <3 — ход & всё"
