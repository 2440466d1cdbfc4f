"""Блиц and Крест (section V) in the bot: a turn of any number of tiles. By value: the
hand's «✔️ Сходить» and its text in the middle of a turn, the caption's one line per turn
(«Алиса кладёт 3 кости») with the turn marker kept on the mover, the texts built from the
games' keys, the hint for ending a turn; through the application (a real database file,
the fake Bot API, `FakeTime`): a person's tiles and «✔️ Сходить», a computer's turn of
several tiles applied whole, the turn's one deadline through its tiles, a turn whose time
runs out after a tile ending there without a strike, the turn notice's turn kept."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.telegram import presenter
from bot.telegram.callbacks import MoveCb, action_of
from bot.telegram.presenter.hand import ends_text, hand_text, laid_this_turn, tile_refusal
from bot.telegram.presenter.hand_keyboard import hand_keyboard
from bot.telegram.presenter.moves import action_text, hint_text
from bot.telegram.presenter.replies import reply_text
from bot.telegram.presenter.table import Shown, event_text, open_ends_text, recent_events
from bot.telegram.turn_notices import turn_of
from domino.actions import (
    END_TURN,
    Action,
    Draw,
    Ended,
    EndTurn,
    Event,
    Knock,
    Knocked,
    Play,
    Played,
)
from domino.children import SHESTERKA
from domino.geometry import End
from domino.match import Match
from domino.tiles import Tile
from domino.variants import find_variant
from domino.views import Account, MatchView
from i18n import Lang, t
from storage import repo
from storage.connect import open_database
from storage.records import GameRecord, GameStatus, SeatRecord
from tests.bot.app_setup import ALICE, START, FakeTime, Setup, eventually, make, settle
from tests.bot.test_play import COMPUTER_SEED, BotsComputer, start_against_a_computer

NAMES = ("Алиса", "Боб")
GAMES = ("blitz", "cross")


def mid_turn(key: str) -> tuple[Match, int]:
    """A 2-seat match of `key` where seat 0 opened the round and may lay another tile
    (or end the turn), and its seed."""
    rules = find_variant(key).ruleset
    for seed in range(200):
        match = Match.new(rules, 2, seed=seed)
        if match.turn != 0:
            continue
        match.apply(next(a for a in match.legal_actions() if isinstance(a, Play)), 0)
        if match.turn == 0 and match.round.mid_turn:
            return match, seed
    raise AssertionError(f"no seed of {key} leaves seat 0 in the middle of its turn")


def moves(view: MatchView, lang: Lang = Lang.RU) -> list[tuple[str, Action | None]]:
    """The hand's move buttons: each one's text and the action its data carries."""
    markup = hand_keyboard(view, 7, len(view.round.history), lang)
    assert markup is not None
    return [
        (b.text, action_of(MoveCb.unpack(b.callback_data)))
        for row in markup.inline_keyboard
        for b in row
        if b.callback_data and b.callback_data.startswith("m2:")
    ]


# --- the hand ---------------------------------------------------------------------------


@pytest.mark.parametrize("key", GAMES)
def test_the_hand_offers_end_turn_only_in_the_middle_of_a_turn(key: str) -> None:
    match, _ = mid_turn(key)
    view = match.view(0)
    assert END_TURN in view.round.legal
    ends = [text for text, action in moves(view) if action == END_TURN]
    assert ends == ["✔️ Сходить"]
    assert [text for text, action in moves(view, Lang.EN) if action == END_TURN] == ["✔️ End turn"]
    # No draw or knock beside it: a tile of the hand fits.
    assert not any(isinstance(action, Draw | Knock) for _, action in moves(view))
    # At the start of a turn (here: the round's first tile) there is nothing to end.
    fresh = Match.replay(match.ruleset, 2, match.seed, []).view(0)
    assert END_TURN not in {action for _, action in moves(fresh)}


def test_a_one_tile_game_never_offers_end_turn() -> None:
    match = Match.new(find_variant("classic").ruleset, 2, seed=1)
    for _ in range(30):
        seat = match.turn
        if seat is None or match.over:
            break
        view = match.view(seat)
        assert END_TURN not in {action for _, action in moves(view)}
        match.apply(view.round.legal[0], seat)


@pytest.mark.parametrize("key", GAMES)
def test_the_hand_says_how_many_tiles_were_laid_and_what_may_follow(key: str) -> None:
    match, _ = mid_turn(key)
    view = match.view(0)
    assert laid_this_turn(view) == 1
    text = hand_text(view, NAMES, "Двор", Lang.RU)
    assert (
        "Вы положили 1 кость за этот ход. Можно положить ещё кость или нажать «✔️ Сходить»."
        in text.splitlines()
    )
    english = hand_text(view, NAMES, "Yard", Lang.EN)
    assert "You have played 1 tile this turn. Play another or press “✔️ End turn”." in english
    if len(view.round.legal) > 2:  # another tile and the end of the turn at least
        second = next(a for a in view.round.legal if isinstance(a, Play))
        match.apply(second, 0)
        if match.turn == 0:
            again = match.view(0)
            assert laid_this_turn(again) == 2
            assert "Вы положили 2 кости за этот ход." in hand_text(again, NAMES, "Двор", Lang.RU)
    # The other seat, waiting, reads nothing of it.
    assert laid_this_turn(match.view(1)) == 0
    assert "положили" not in hand_text(match.view(1), NAMES, "Двор", Lang.RU)


@pytest.mark.parametrize(
    ("n", "ru", "en"),
    [
        (2, "Вы положили 2 кости за этот ход.", "You have played 2 tiles this turn."),
        (5, "Вы положили 5 костей за этот ход.", "You have played 5 tiles this turn."),
        (11, "Вы положили 11 костей за этот ход.", "You have played 11 tiles this turn."),
        (13, "Вы положили 13 костей за этот ход.", "You have played 13 tiles this turn."),
    ],
)
def test_the_tiles_of_a_turn_take_their_plural(n: int, ru: str, en: str) -> None:
    assert t("hand.mid_turn", Lang.RU, n=n).startswith(ru)
    assert t("hand.mid_turn", Lang.EN, n=n).startswith(en)


# --- the caption ------------------------------------------------------------------------


def caption_view(key: str, history: tuple[Event, ...], turn: int | None) -> MatchView:
    view = Match.new(find_variant(key).ruleset, 2, seed=1).view(None)
    rnd = dataclasses.replace(view.round, history=history, turn=turn)
    return dataclasses.replace(view, round=rnd)


def played(seat: int, tile: str) -> Played:
    return Played(seat, Tile.parse(tile), None)


@pytest.mark.parametrize("key", GAMES)
def test_a_turn_of_several_tiles_is_one_line_however_it_ended(key: str) -> None:
    history = (
        played(0, "0-0"),
        played(0, "0-3"),
        played(0, "3-3"),
        Ended(0),  # «✔️ Сходить»
        Knocked(1),
        played(0, "3-5"),
        played(0, "5-5"),  # passed by itself: no event
        played(1, "5-6"),
    )
    caption = presenter.table_caption(caption_view(key, history, 0), NAMES, Lang.RU)
    assert caption.endswith(
        "Последние ходы: Боб: стучу → Алиса кладёт 2 кости → Боб кладёт кость"
    ), caption
    first = presenter.table_caption(caption_view(key, history[:4], 1), NAMES, Lang.RU)
    assert first.endswith("Последние ходы: Алиса кладёт 3 кости"), first
    english = presenter.table_caption(caption_view(key, history[:4], 1), NAMES, Lang.EN)
    assert english.endswith("Алиса plays 3 tiles"), english


@pytest.mark.parametrize("key", GAMES)
def test_in_the_middle_of_a_turn_the_mover_is_still_to_move(key: str) -> None:
    match, _ = mid_turn(key)
    view = match.view(None)
    caption = presenter.table_caption(view, NAMES, Lang.RU)
    assert "Ход: <b>Алиса</b>" in caption
    assert "▶️ Алиса — " in caption and "▶️ Боб" not in caption
    assert caption.endswith("Последние ходы: Алиса кладёт кость")
    match.apply(next(a for a in match.legal_actions() if isinstance(a, Play)), 0)
    if match.turn == 0:
        caption = presenter.table_caption(match.view(None), NAMES, Lang.RU)
        assert "Ход: <b>Алиса</b>" in caption and caption.endswith("Алиса кладёт 2 кости")
        match.apply(END_TURN, 0)
        caption = presenter.table_caption(match.view(None), NAMES, Lang.RU)
        assert "Ход: <b>Боб</b>" in caption and caption.endswith("Алиса кладёт 2 кости")


def test_a_turn_folds_with_its_end_and_other_games_fold_their_doubles() -> None:
    history = (played(0, "3-3"), played(0, "5-5"), Ended(0))
    shown = recent_events(caption_view("blitz", history, 1))
    assert [(type(s.event), s.plays) for s in shown] == [(Played, 2)]
    osel = caption_view("osel", history[:2], 1)
    assert event_text(recent_events(osel)[0], NAMES, "osel", Lang.RU) == "Алиса кладёт 2 дубля"
    # An end of a turn whose tiles the caption no longer holds is told as such.
    assert event_text(Shown(Ended(1)), NAMES, "blitz", Lang.RU) == "Боб заканчивает ход"
    assert event_text(Shown(Ended(1)), NAMES, "cross", Lang.EN) == "Боб ends the turn"


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (2, "Алиса кладёт 2 кости"),
        (4, "Алиса кладёт 4 кости"),
        (5, "Алиса кладёт 5 костей"),
        (11, "Алиса кладёт 11 костей"),
        (14, "Алиса кладёт 14 костей"),
        (21, "Алиса кладёт 21 кость"),
    ],
)
def test_the_tiles_of_a_turn_in_the_caption_take_their_plural(n: int, text: str) -> None:
    assert event_text(Shown(played(0, "1-1"), plays=n), NAMES, "blitz", Lang.RU) == text


# --- the texts built from the games' keys -------------------------------------------------


@pytest.mark.parametrize("key", GAMES)
def test_the_games_name_rules_knock_and_winner(key: str) -> None:
    game = find_variant(key)
    name = {"blitz": ("Блиц", "Blitz"), "cross": ("Крест", "Cross")}[key]
    assert (t(game.name_key, Lang.RU), t(game.name_key, Lang.EN)) == name
    rules = presenter.rules_text(game.ruleset.with_options(target=50), Lang.RU)
    assert rules.startswith(f"<b>{name[0]}</b> — детская игра; кто первым наберёт 50 очков")
    assert "«✔️ Сходить»" in rules and "сколько угодно костей" in rules
    english = presenter.rules_text(game.ruleset, Lang.EN)
    assert english.startswith(f"<b>{name[1]}</b>, a children's game: whoever first reaches 100")
    assert "✔️ End turn" in english
    assert t(f"event.knocked.{key}", Lang.RU, name="Алиса") == "Алиса: стучу"
    assert t(f"loser.{key}", Lang.RU, names="Алиса") == "Проигрыш: Алиса."
    view = dataclasses.replace(
        Match.new(game.ruleset, 2, seed=1).view(None),
        scores=(Account(104), Account(37)),
        over=True,
        winners=(0,),
    )
    assert presenter.match_end_text(view, NAMES, Lang.RU) == (
        "🏆 Победа — Алиса\nАлиса: 104\nБоб: 37"
    )


def test_blitz_and_cross_tell_there_is_no_bazaar() -> None:
    blitz = presenter.rules_text(find_variant("blitz").ruleset, Lang.RU)
    assert "Базара нет." in blitz and "по 14" in blitz and "рубашкой вверх" in blitz
    cross = presenter.rules_text(find_variant("cross").ruleset, Lang.RU)
    assert "базар" not in cross.lower().replace("базара нет", "") and "центр креста" in cross


# --- the hint ---------------------------------------------------------------------------


def test_a_hint_to_end_the_turn_names_the_button_and_a_reason_that_fits() -> None:
    match, _ = mid_turn("blitz")
    view = match.view(0)
    assert action_text(view, END_TURN, Lang.RU) == "✔️ Сходить"
    fits = hint_text(view, END_TURN, "keep_suits", {}, Lang.RU)
    assert fits == "💡 ✔️ Сходить — на руке останется чем ответить на концы"
    # A reason that speaks of the tile laid does not fit the end of a turn.
    for reason in ("heavy", "double", "go_out", "only", "scores"):
        text = hint_text(view, END_TURN, reason, {"points": 5}, Lang.RU)
        assert text == "💡 ✔️ Сходить — остальные кости лучше придержать на следующие ходы"
    assert hint_text(view, END_TURN, "heavy", {}, Lang.EN) == (
        "💡 ✔️ End turn — the other tiles are better kept for later turns"
    )
    search = hint_text(view, END_TURN, "search", {"chance": 40, "worlds": 30}, Lang.RU)
    assert search == (
        "💡 ✔️ Сходить — если разыграть возможные расклады чужих костей, этот ход выходит"
        " лучше других"
    )


# --- the turn notice ----------------------------------------------------------------------


def test_the_turn_notice_keeps_the_turn_through_its_tiles() -> None:
    match, _ = mid_turn("blitz")
    fresh = Match.replay(match.ruleset, 2, match.seed, [])
    record = notice_game(fresh)
    turn = turn_of(record)
    assert turn is not None and turn.start == 0
    assert turn_of(notice_game(match)) == turn  # a tile laid: the same turn
    match.apply(END_TURN, 0)
    assert turn_of(notice_game(match)) != turn  # Боб's now


def notice_game(match: Match) -> GameRecord:
    return GameRecord(
        id=7,
        chat_id=-100555,
        status=GameStatus.PLAYING,
        creator_id=501,
        ruleset=match.ruleset,
        seats_wanted=2,
        seats=(SeatRecord(0, 501, "Алиса"), SeatRecord(1, 502, "Боб")),
        match=match,
        version=1,
    )


# --- through the application ----------------------------------------------------------------


def seed_where_the_computer_lays_several() -> int:
    """A seed of Блиц where Алиса (seat 0) opens and may lay another tile, and where the
    bot's computer (`BotsComputer`), after her first tile and «✔️ Сходить», lays several
    tiles in its turn."""
    rules = find_variant("blitz").ruleset
    for seed in range(200):
        match = Match.new(rules, 2, seed=seed)
        if match.turn != 0:
            continue
        match.apply(next(a for a in match.legal_actions() if isinstance(a, Play)), 0)
        if match.turn != 0 or not match.round.mid_turn:
            continue
        match.apply(END_TURN, 0)
        laid = 0
        while match.turn == 1 and match.round_no == 1 and not match.over:
            action = BotsComputer().choose(match.view(1))
            laid += isinstance(action, Play)
            match.apply(action, 1)
        if laid > 1:
            return seed
    raise AssertionError("no seed of Блиц gives the computer a turn of several tiles")


@pytest.fixture
async def blitz(tmp_path: Path) -> AsyncIterator[Setup]:
    """Алиса (seat 0, who opens) against the bot's computer in Блиц, the group's default
    turn timer (60 s) running on `FakeTime`."""
    database = await open_database(tmp_path / "children.sqlite3")
    setup = make(database, FakeTime(), seed_where_the_computer_lays_several())
    setup.app.thinker.new_seed = lambda: COMPUTER_SEED  # the computer as simulated
    await setup.app.resume()
    try:
        await start_against_a_computer(setup, "blitz")
        await settle()
        yield setup
    finally:
        await setup.close()
        await database.close()


async def press_play(setup: Setup) -> GameRecord:
    """Алиса presses the first tile she may lay; the game as stored after it."""
    game = await setup.game()
    assert game.match is not None and game.match.turn == 0
    action = next(a for a in game.match.legal_actions() if isinstance(a, Play))
    answer = await setup.run(setup.app.playing.play(game.id, ALICE, len(game.match.log), action))
    assert not answer.alert, answer
    await settle()
    return await setup.game()


async def test_a_person_lays_tiles_then_ends_the_turn_and_the_computer_plays_its_whole_turn(
    blitz: Setup,
) -> None:
    setup = blitz
    game = await press_play(setup)
    assert game.match is not None and game.match.turn == 0 and game.match.round.mid_turn
    markup = presenter.hand_keyboard(game.match.view(0), game.id, len(game.match.log), Lang.RU)
    assert markup is not None
    assert "✔️ Сходить" in [b.text for row in markup.inline_keyboard for b in row]
    moves_before = len(game.match.log)

    # A stale «✔️ Сходить» (an older move number) changes nothing.
    stale = await setup.run(setup.app.playing.play(game.id, ALICE, moves_before - 1, END_TURN))
    assert stale.alert and reply_text(stale, Lang.RU) == t("alert.stale", Lang.RU)
    answer = await setup.run(setup.app.playing.play(game.id, ALICE, moves_before, END_TURN))
    assert not answer.alert, answer
    await eventually(lambda: alice_moves_or_round_over(setup, moves_before))
    after = await setup.game()
    assert after.match is not None
    log = after.match.log
    assert isinstance(log[moves_before].action, EndTurn) and log[moves_before].seat == 0
    # The computer's turn of several tiles: every action of it applied, one after
    # another, up to the turn passing back (or the round's end).
    computer = log[moves_before + 1 :]
    assert computer and all(entry.seat == 1 for entry in computer)
    assert sum(isinstance(entry.action, Play) for entry in computer) > 1
    assert after.match.turn == 0 or after.match.round_no > 1
    # Ending the turn when none is in progress is refused (a forged button).
    if after.match.turn == 0 and not after.match.round.mid_turn:
        refused = await setup.run(
            setup.app.playing.play(after.id, ALICE, len(after.match.log), END_TURN)
        )
        assert refused.alert and reply_text(refused, Lang.RU) == t("alert.illegal", Lang.RU)


async def alice_moves_or_round_over(setup: Setup, since: int) -> bool:
    game = await setup.game()
    match = game.match
    if match is None or game.status is not GameStatus.PLAYING:
        return True
    return len(match.log) > since + 1 and (match.turn == 0 or match.round_no > 1)


async def test_the_turns_deadline_stands_through_its_tiles_and_ends_the_turn_without_a_strike(
    blitz: Setup,
) -> None:
    setup = blitz
    clock = setup.app.timers.clock_of(1)
    assert clock is not None and clock.move == 0 and clock.deadline == START + 60
    await setup.time.advance(20)
    game = await press_play(setup)
    assert game.match is not None and game.match.round.mid_turn
    moved = setup.app.timers.clock_of(1)
    assert moved is not None and moved.move == 1 and moved.seat == 0
    assert moved.deadline == START + 60 and moved.limit == 60  # no fresh minute per tile
    stored = await repo.turn_deadlines(setup.db)
    assert stored[1].move == 1 and stored[1].deadline.timestamp() == START + 60

    await setup.time.advance(26)  # past the warning (15 s before the end) ...
    warned = setup.app.timers.clock_of(1)
    assert warned is not None and warned.warned
    if game.match.turn == 0 and len(game.match.round.hand(0)) > 1:
        game = await press_play(setup)  # ... a tile laid after it: still warned
        assert game.match is not None
        kept = setup.app.timers.clock_of(1)
        if game.match.round.mid_turn:
            assert kept is not None and kept.warned and kept.deadline == START + 60
    assert game.match is not None
    if not game.match.round.mid_turn:
        return  # the turn passed by itself: nothing left to time out
    moves_before = len(game.match.log)
    await setup.time.advance(60)
    await eventually(lambda: ended_by_timeout(setup, moves_before))
    after = await setup.game()
    assert after.match is not None
    entry = after.match.log[moves_before]
    assert isinstance(entry.action, EndTurn) and entry.seat == 0
    assert after.seats[0].strikes == 0 and not after.seats[0].away


async def ended_by_timeout(setup: Setup, move: int) -> bool:
    game = await setup.game()
    return game.match is not None and len(game.match.log) > move


async def test_a_turn_nobody_took_is_played_whole_by_the_computer_with_a_strike(
    blitz: Setup,
) -> None:
    setup = blitz
    await setup.time.advance(61)
    await eventually(lambda: struck(setup))
    game = await setup.game()
    assert game.match is not None
    log = game.match.log
    turn = [entry for entry in log if entry.seat == 0]
    assert len(turn) > 1 and all(isinstance(entry.action, Play) for entry in turn[:-1])
    assert list(log[: len(turn)]) == turn  # her turn, played whole for her, then the computer's
    # The whole turn: laid until nothing more fitted or the computer ended it, so the
    # turn passed (or the round ended) and was not left in the middle.
    passed = len(log) > len(turn) and log[len(turn)].seat == 1
    assert passed or game.match.round_no > 1 or game.match.over
    assert game.seats[0].strikes == 1


async def struck(setup: Setup) -> bool:
    game = await setup.game()
    return game.seats[0].strikes == 1


def test_shesterka_ends_say_which_half_each_takes() -> None:
    """Шестёрка: the caption and the hand list each end with the half that makes 6 with
    it, so nobody looks for an equal number (`listed_ends`)."""
    match = Match.new(SHESTERKA, 2, 9)
    seat = match.turn
    assert seat is not None and match.round.opening_tile is not None
    match.apply(Play(match.round.opening_tile), seat)
    ends = dict(match.round.layout.open_ends())
    view = match.view(match.turn)
    left = ends[End.LEFT]
    text = open_ends_text(view, Lang.RU)
    assert text is not None and f"{left} (к нему — {6 - left})" in text
    english = open_ends_text(view, Lang.EN)
    assert english is not None and f"{left} (takes a {6 - left})" in english
    hand = ends_text(view, Lang.RU)
    assert hand is not None and f"⬅️ {left} (к нему — {6 - left})" in hand


def test_three_play_blitz_counts_no_bazaar_for_its_face_down_tile() -> None:
    """The one tile left of 3-player Блиц is never drawn: no «базар: 1» in the caption."""
    match = Match.new(find_variant("blitz").ruleset, 3, 4)
    caption = presenter.table_caption(match.view(None), ["Аня", "Боря", "Вика"], Lang.RU)
    assert "базар" not in caption
    kozel = Match.new(find_variant("kozel").ruleset, 3, 4)
    assert "базар: 7" in presenter.table_caption(kozel.view(None), ["Аня", "Боря", "Вика"], Lang.RU)


def test_a_refused_tile_in_shesterka_says_what_each_end_takes() -> None:
    """A newcomer presses the tile with the equal number: the answer says which half each
    end takes, not only that the tile does not fit."""
    match = Match.new(SHESTERKA, 2, 9)
    seat = match.turn
    assert seat is not None and match.round.opening_tile is not None
    match.apply(Play(match.round.opening_tile), seat)
    view = match.view(match.turn)
    pips = sorted(set(dict(view.round.layout.open_ends).values()))
    answer = tile_refusal(view, Lang.RU)
    assert answer.startswith("Не подходит: соседние половинки вместе дают 6 — ")
    assert all(f"к {pip} — {6 - pip}" in answer for pip in pips), answer
    english = tile_refusal(view, Lang.EN)
    assert all(f"{pip} takes a {6 - pip}" in english for pip in pips), english
