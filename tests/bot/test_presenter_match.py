"""The presenter's match screens by value, without Telegram: the table caption, a hand's
text and keyboard on and off turn, the announcements of a round's and a match's end,
and the turn timer's lines. Views are built by hand so each case shows exactly the
position it is about."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence

from aiogram.types import InlineKeyboardMarkup

from bot.app.timers import TurnClock
from bot.telegram import presenter
from domino.actions import Action, Draw, Drew, Event, Knock, Knocked, Play, Played
from domino.geometry import End
from domino.match import Match
from domino.players import GreedyPlayer
from domino.rules import CLASSIC, KOZEL
from domino.tiles import Tile
from domino.variants import find_variant
from domino.views import (
    Account,
    LayoutView,
    MatchView,
    OutcomeKind,
    RoundOutcome,
    RoundResult,
    RoundView,
)
from i18n import Lang
from storage.records import GameRecord, GameStatus, SeatRecord

NAMES = ("Маша", "Олег <3", "Вика", "🤖 Компьютер 1")
ENDS = ((End.LEFT, 3), (End.RIGHT, 5))


def tiles(*texts: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(text) for text in texts)


def buttons(markup: InlineKeyboardMarkup | None) -> list[list[tuple[str, str]]]:
    """A keyboard as rows of (text, callback data)."""
    assert markup is not None
    return [[(b.text, b.callback_data or "") for b in row] for row in markup.inline_keyboard]


def match_view(
    *,
    seat: int | None = 0,
    turn: int | None = 0,
    hand: Sequence[Tile] = (),
    legal: Sequence[Action] = (),
    counts: Sequence[int] = (3, 6),
    sides: Sequence[Sequence[int]] = ((0,), (1,)),
    scores: Sequence[Account] = (Account(), Account()),
    ends: Sequence[tuple[End, int]] = ENDS,
    history: Sequence[Event] = (),
    eggs: int = 0,
    over: bool = False,
    ruleset: object = KOZEL,
    losers: Sequence[int] = (),
    winners: Sequence[int] = (),
) -> MatchView:
    rnd = RoundView(
        seat=seat,
        players=len(counts),
        hand=tuple(hand),
        hand_counts=tuple(counts),
        bazaar_size=9,
        drawable=9,
        layout=LayoutView(placements=(), open_ends=tuple(ends), arms=(), spinner=None),
        turn=turn,
        turn_no=4,
        history=tuple(history),
        drawn=(),
        legal=tuple(legal),
        outcome=None,
    )
    return MatchView(
        ruleset=ruleset,  # type: ignore[arg-type]
        players=len(counts),
        round_no=2,
        round=rnd,
        sides=tuple(tuple(side) for side in sides),
        scores=tuple(scores),
        eggs=eggs,
        results=(),
        over=over,
        losers=tuple(losers),
        winners=tuple(winners),
    )


INFO = "hb1:7:0:i:"  # a tile that is no move: pressing it tells whose turn it is
HAND = tiles("1-2", "2-5", "3-5")
# 2-5 fits the right end only; 3-5 fits both.
PLAYS = (Play(HAND[1], End.RIGHT), Play(HAND[2], End.LEFT), Play(HAND[2], End.RIGHT))


# --- the table in the group ------------------------------------------------------------


def test_the_table_caption_shows_turn_counts_scores_bazaar_ends_and_recent_moves() -> None:
    view = match_view(
        seat=None,
        turn=1,
        scores=(Account(remembered=8), Account(recorded=25, opened=True)),
        history=(Played(0, HAND[0], None), Drew(1), Drew(1), Knocked(1)),
        eggs=4,
    )
    assert presenter.table_caption(view, NAMES, Lang.RU) == (
        "<b>Козёл</b> · раунд 2\n"
        "Ход: <b>Олег &lt;3</b>\n"
        "\n"
        "Маша — 3 кости · +8\n"
        "▶️ Олег &lt;3 — 6 костей · 25\n"
        "\n"
        "базар: 9 · концы: 3 · 5 · 🥚 +4\n"
        "Последние ходы: Маша кладёт кость → Олег &lt;3 берёт из базара ×2 → Олег &lt;3: стучу"
    )


def test_the_same_move_made_again_and_again_is_one_line_with_its_count() -> None:
    """A person drawing three tiles in a row is one line «×3», not three alike; a draw
    once has no count; another person's draw is a line of its own."""
    history = (Played(0, HAND[0], None), Drew(1), Drew(1), Drew(1), Played(1, HAND[1], End.RIGHT))
    view = match_view(seat=None, history=(*history, Drew(0)))
    recent = presenter.table_caption(view, NAMES, Lang.RU).splitlines()[-1]
    assert recent == (
        "Последние ходы: Олег &lt;3 берёт из базара ×3 → Олег &lt;3 кладёт кость → "
        "Маша берёт из базара"
    )
    english = presenter.table_caption(view, NAMES, Lang.EN).splitlines()[-1]
    assert english == "Last moves: Олег &lt;3 draws ×3 → Олег &lt;3 plays a tile → Маша draws"


def test_no_two_recent_moves_in_a_row_read_the_same() -> None:
    """Over whole matches of every game: the caption never shows one line twice in a row."""
    for key in ("kozel", "bergen", "all_fives", "osel"):
        match = Match.new(find_variant(key).ruleset, 3, seed=5)
        while not match.over:
            seat = match.turn
            assert seat is not None
            match.take_turn(seat, GreedyPlayer())
            moves = presenter.table_caption(match.view(None), NAMES[:3], Lang.RU).splitlines()[-1]
            lines = moves.removeprefix("Последние ходы: ").split(" → ")
            assert all(a != b for a, b in itertools.pairwise(lines)), moves


def test_the_table_caption_of_teams_lists_seats_in_turn_order_then_each_pairs_score() -> None:
    view = match_view(
        seat=None,
        turn=None,
        counts=(1, 5, 0, 2),
        sides=((0, 2), (1, 3)),
        scores=(Account(recorded=40, opened=True), Account()),
        ends=(),
        over=True,
    )
    assert presenter.table_caption(view, NAMES, Lang.EN) == (
        "<b>Kozel (Goat)</b> · round 2\n"
        "The match is over.\n"
        "\n"
        "Маша — 1 tile\n"
        "Олег &lt;3 — 5 tiles\n"
        "Вика — 0 tiles\n"
        "🤖 Компьютер 1 — 2 tiles\n"
        "   pair Маша + Вика: 40\n"
        "   pair Олег &lt;3 + 🤖 Компьютер 1: 0"
    )


# --- the hand in the private chat ------------------------------------------------------


def test_a_hand_at_its_turn_tells_the_ends_the_others_and_the_scores() -> None:
    view = match_view(hand=HAND, legal=PLAYS, scores=(Account(), Account(remembered=12)))
    text = presenter.hand_text(view, NAMES, "Дворик", Lang.RU, drew=tiles("2-5"))
    assert text == (
        "🎲 <b>Козёл</b> в «Дворик» · раунд 2\n"
        "<b>Ваш ход!</b>\n"
        "Из базара: 2|5\n"
        "концы: ⬅️ 3 · ➡️ 5\n"
        "Костей у соперника: Олег &lt;3 — 6 · базар: 9\n"
        "Счёт: Маша: 0 · Олег &lt;3: +12"
    )


def test_a_hand_shows_each_open_end_with_the_arrow_its_buttons_use() -> None:
    four = ((End.LEFT, 2), (End.RIGHT, 0), (End.UP, 1), (End.DOWN, 1))
    view = match_view(hand=HAND, legal=(Play(HAND[0], End.UP), Play(HAND[0], End.DOWN)), ends=four)
    text = presenter.hand_text(view, NAMES, "Дворик", Lang.RU)
    assert "\nконцы: ⬅️ 2 · ➡️ 0 · ⬆️ 1 · ⬇️ 1\n" in text
    assert buttons(presenter.hand_keyboard(view, 7, 4, Lang.RU, choosing=HAND[0]))[0] == [
        ("1|2 на ⬆️ 1", "m2:7:4:p1-2U"),
        ("1|2 на ⬇️ 1", "m2:7:4:p1-2D"),
    ]
    english = presenter.hand_text(view, NAMES, "Yard", Lang.EN)
    assert "\nends: ⬅️ 2 · ➡️ 0 · ⬆️ 1 · ⬇️ 1\n" in english


def test_a_pair_game_names_the_partner_apart_and_a_full_deal_no_bazaar() -> None:
    view = match_view(
        seat=1, turn=1, hand=HAND, legal=PLAYS, counts=(2, 3, 2, 1), sides=((0, 2), (1, 3))
    )
    lines = presenter.hand_text(view, NAMES, "Дворик", Lang.RU).split("\n")
    assert (
        lines[3]
        == "Костей у партнёра: 🤖 Компьютер 1 — 1 · Костей у соперников: Маша — 2, Вика — 2"
    )
    english = presenter.hand_text(view, NAMES, "Yard", Lang.EN).split("\n")
    assert (
        english[3] == "Partner's tiles: 🤖 Компьютер 1 — 1 · Opponents' tiles: Маша — 2, Вика — 2"
    )
    # Four players each on their own, seven tiles each: no bazaar either (C-3).
    alone = match_view(
        hand=HAND,
        legal=PLAYS,
        counts=(3, 3, 2, 1),
        sides=((0,), (1,), (2,), (3,)),
        scores=(Account(),) * 4,
    )
    line = presenter.hand_text(alone, NAMES, "Дворик", Lang.RU).split("\n")[3]
    assert line == "Костей у соперников: Олег &lt;3 — 3, Вика — 2, 🤖 Компьютер 1 — 1"


def test_a_hand_at_its_turn_marks_what_fits_and_asks_for_the_end_when_both_fit() -> None:
    view = match_view(hand=HAND, legal=PLAYS)
    assert buttons(presenter.hand_keyboard(view, 7, 4, Lang.RU)) == [
        [("1|2", "hb1:7:0:i:"), ("✅ 2|5", "m2:7:4:p2-5R"), ("✅ 3|5", "hb1:7:4:e:3-5")]
    ]
    assert buttons(presenter.hand_keyboard(view, 7, 4, Lang.RU, choosing=HAND[2])) == [
        [("3|5 на ⬅️ 3", "m2:7:4:p3-5L"), ("3|5 на ➡️ 5", "m2:7:4:p3-5R")],
        [("↩️ Назад", "hb1:7:4:b:")],
    ]


def test_a_tile_that_fits_one_end_only_is_not_offered_a_choice() -> None:
    view = match_view(hand=HAND, legal=PLAYS)
    choosing_single = presenter.hand_keyboard(view, 7, 4, Lang.RU, choosing=HAND[1])
    assert choosing_single == presenter.hand_keyboard(view, 7, 4, Lang.RU)


def test_a_hand_with_nothing_to_play_draws_or_knocks() -> None:
    many = tiles("0-0", "0-1", "1-1", "1-2", "4-4")
    drawing = match_view(hand=many, legal=(Draw(),))
    assert buttons(presenter.hand_keyboard(drawing, 7, 4, Lang.RU)) == [
        [(label, INFO) for label in ("0|0", "0|1", "1|1", "1|2")],
        [("4|4", INFO)],
        [("🎲 Взять из базара", "m2:7:4:d")],
    ]
    knocking = match_view(hand=many[:1], legal=(Knock(),))
    assert buttons(presenter.hand_keyboard(knocking, 7, 4, Lang.EN))[-1] == [
        ("✊ Knock", "m2:7:4:k")
    ]


def test_the_first_tile_of_a_round_needs_no_end() -> None:
    view = match_view(hand=HAND[:1], legal=(Play(HAND[0]),), ends=())
    assert buttons(presenter.hand_keyboard(view, 7, 0, Lang.RU)) == [[("✅ 1|2", "m2:7:0:p1-2")]]
    assert "\nСтол пуст.\n" in presenter.hand_text(view, NAMES, "Дворик", Lang.RU)


def test_a_hand_off_its_turn_waits_and_its_tiles_only_tell_whose_turn_it_is() -> None:
    view = match_view(turn=1, hand=HAND)
    assert presenter.hand_text(view, NAMES, "Дворик", Lang.RU) == (
        "🎲 <b>Козёл</b> в «Дворик» · раунд 2\n"
        "Ходит Олег &lt;3, стол — в группе.\n"  # the one opponent named
        "Счёт: Маша: 0 · Олег &lt;3: 0"
    )
    assert buttons(presenter.hand_keyboard(view, 7, 4, Lang.RU)) == [
        [("1|2", "hb1:7:0:i:"), ("2|5", "hb1:7:0:i:"), ("3|5", "hb1:7:0:i:")]
    ]


def test_a_hand_a_computer_plays_for_reads_as_off_turn_and_offers_coming_back() -> None:
    view = match_view(hand=HAND, legal=PLAYS)
    assert "<b>Ваш ход!</b>" not in presenter.hand_text(view, NAMES, "Д", Lang.RU, away=True)
    assert buttons(presenter.away_keyboard(view, 7, Lang.RU)) == [
        [("1|2", "hb1:7:0:i:"), ("2|5", "hb1:7:0:i:"), ("3|5", "hb1:7:0:i:")],
        [("🙋 Я снова играю", "r1:7")],
    ]


def test_the_hand_shows_the_eggs_on_and_off_turn() -> None:
    for turn in (0, 1):
        view = match_view(turn=turn, hand=HAND, legal=PLAYS, eggs=118)
        text = presenter.hand_text(view, NAMES, "Д", Lang.RU)
        assert text.splitlines()[-1] == "🥚 +118", turn


def test_a_finished_match_has_no_hand_keyboard() -> None:
    view = match_view(turn=None, hand=HAND, over=True)
    assert presenter.hand_keyboard(view, 7, 4, Lang.RU) is None
    assert presenter.hand_text(view, NAMES, "Д", Lang.RU).splitlines()[1] == "Партия окончена."


# --- announcements ---------------------------------------------------------------------


def result(kind: OutcomeKind, *, eggs: tuple[int, int], taken_by: int | None) -> RoundResult:
    return RoundResult(
        round_no=3,
        outcome=RoundOutcome(kind=kind, seat=1, hand_values=(5, 0)),
        before=(Account(), Account()),
        points=(5, 0),
        after=(Account(), Account()),
        eggs_before=eggs[0],
        eggs_after=eggs[1],
        eggs_taken_by=taken_by,
    )


def test_a_round_end_tells_who_went_out_or_the_fisherman_and_the_eggs() -> None:
    view = match_view(seat=None)
    went_out = result(OutcomeKind.WENT_OUT, eggs=(0, 0), taken_by=None)
    assert presenter.round_end_text(view, went_out, NAMES, Lang.RU) == (
        "🏁 Раунд 3: домино — Олег &lt;3!"
    )
    tied = result(OutcomeKind.FISH, eggs=(0, 14), taken_by=None)
    assert presenter.round_end_text(view, tied, NAMES, Lang.RU) == (
        "🐟 Раунд 3: рыба! Рыбак — Олег &lt;3.\n🥚 Яйца: 14 очков переходят в следующий раунд."
    )
    taken = result(OutcomeKind.FISH, eggs=(14, 0), taken_by=0)
    assert presenter.round_end_text(view, taken, NAMES, Lang.EN) == (
        "🐟 Round 3: fish! The fisherman is Олег &lt;3.\n🥚 Маша takes the eggs (14)."
    )


def test_the_remembered_points_are_explained_only_while_the_match_runs() -> None:
    went_out = dataclasses.replace(
        result(OutcomeKind.WENT_OUT, eggs=(0, 0), taken_by=None),
        after=(Account(remembered=9), Account()),
    )
    running = presenter.round_end_text(match_view(seat=None), went_out, NAMES, Lang.RU)
    assert "«+N» — очки запомнены" in running
    over = match_view(seat=None, turn=None, over=True, losers=(1,))
    assert "+N" not in presenter.round_end_text(over, went_out, NAMES, Lang.RU)
    assert "+N" not in presenter.round_end_text(over, went_out, NAMES, Lang.EN)


def test_the_match_end_names_the_goat_and_lists_the_scores_lowest_first() -> None:
    view = match_view(
        seat=None,
        turn=None,
        counts=(0, 0, 0, 0),
        sides=((0, 2), (1, 3)),
        scores=(Account(recorded=104, opened=True), Account(recorded=61, opened=True)),
        over=True,
        losers=(0,),
    )
    assert presenter.match_end_text(view, NAMES, Lang.RU) == (
        "🐐 Козёл — Маша + Вика\nОлег &lt;3 + 🤖 Компьютер 1: 61\nМаша + Вика: 104"
    )


def test_a_classic_match_end_names_the_winner_and_lists_the_scores_highest_first() -> None:
    view = match_view(
        seat=None,
        turn=None,
        scores=(Account(recorded=35), Account(recorded=110)),
        over=True,
        ruleset=CLASSIC,
        winners=(1,),
    )
    assert presenter.match_end_text(view, NAMES, Lang.EN) == (
        "🏆 The winner is Олег &lt;3\nОлег &lt;3: 110\nМаша: 35"
    )


def test_side_names_and_score_lines_are_written_one_way() -> None:
    assert presenter.side_names(NAMES, (0, 2)) == "Маша + Вика"
    assert presenter.side_names(["x" * 40], (0,)) == "x" * 31 + "…"
    assert presenter.score_line("Маша + Вика", 104) == "Маша + Вика: 104"
    assert presenter.score_line("Олег", 12, gain=3) == "Олег: 12 · +3"


# --- the turn timer --------------------------------------------------------------------


def playing(*seats: SeatRecord) -> GameRecord:
    return GameRecord(
        id=7,
        chat_id=-100,
        status=GameStatus.PLAYING,
        creator_id=1,
        ruleset=KOZEL,
        seats_wanted=len(seats),
        seats=seats,
        match=Match.new(KOZEL, len(seats), seed=1),
    )


def test_the_timer_tells_the_player_their_time_and_the_group_the_warning() -> None:
    names = ("Маша", "Олег")
    game = playing(SeatRecord(0, 1, names[0]), SeatRecord(1, 2, names[1], strikes=1))
    assert game.match is not None and game.match.turn is not None
    turn = game.match.turn
    clock = TurnClock(7, move=0, seat=turn, deadline=100.0, limit=60, warn_at=90, warned=False)
    assert presenter.hand_timer_lines(game, turn, clock, 40.5, Lang.RU).endswith(
        "\n⏱ На ход: до 1 минуты"
    )
    assert presenter.table_timer_line(game, clock, 40.5, names, Lang.RU) == ""
    warned = dataclasses.replace(clock, warned=True)
    assert presenter.hand_timer_lines(game, turn, warned, 95.2, Lang.RU).endswith(
        "\n⏳ <b>Осталось не больше 5 секунд!</b> Потом за вас сходит компьютер."
    )
    assert presenter.table_timer_line(game, warned, 95.2, names, Lang.RU) == (
        f"\n⏳ {names[turn]}: на ход — не больше 5 секунд"
    )
    stale = dataclasses.replace(warned, move=3)
    assert presenter.table_timer_line(game, stale, 95.2, names, Lang.RU) == ""


def test_the_timer_tells_the_strikes_and_the_computer_standing_in() -> None:
    game = playing(SeatRecord(0, 1, "Маша", away=True), SeatRecord(1, 2, "Олег", strikes=2))
    assert presenter.hand_timer_lines(game, 0, None, 0, Lang.RU) == (
        "\n🤖 За вас играет компьютер. Хотите снова играть — нажмите «Я снова играю»."
    )
    assert presenter.hand_timer_lines(game, 1, None, 0, Lang.RU) == (
        "\n⏰ Время на ход вышло 2 раза из 3 — за вас ходил компьютер."
    )
    once = playing(SeatRecord(0, 1, "Маша"), SeatRecord(1, 2, "Олег", strikes=1))
    assert "вышло 1 раз из 3" in presenter.hand_timer_lines(once, 1, None, 0, Lang.RU)
