"""Втемную (section V, `domino.children`) in the bot: each player's tiles lie in a
face-down stack nobody sees, its owner included, turned up one a turn by «⬛ Открыть
верхнюю»; the last three are turned up for their owner, who then plays as in Блиц.

By value: the hand of a face-down seat names no tile, says how many lie face down
(with the plural), offers the one button on its turn and the stack off turn; the turned-up
hand; no hint while face down, and the answers of a flip; the caption's «открывает 2|5:
не подходит, уходит под стопку» and «5 костей рубашкой вверх». Through the application
(a real database file, the fake Bot API, `FakeTime`): a person's flip, answered without
the tile, her hands never naming a tile of her stack; a hint pressed while face down
refused and not counted; a face-down turn nobody took is flipped for her with a
strike."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from aiogram.methods import EditMessageText, SendMessage

from bot.app.usecases.play import flip_answer, laid_answer
from bot.telegram import presenter
from bot.telegram.callbacks import HandCb, HandKind, MoveCb, action_of
from bot.telegram.presenter.hand import flip_text, hand_text, others_text, tile_refusal
from bot.telegram.presenter.hand_keyboard import away_keyboard, hand_keyboard
from bot.telegram.presenter.lobby import game_named
from bot.telegram.presenter.moves import action_text, hint_text
from bot.telegram.presenter.replies import reply_text
from bot.telegram.presenter.table import Shown, event_text, recent_events, table_caption
from domino.actions import FLIP, Draw, Flip, Flipped, Knock, Play, Played, TurnedUp
from domino.ai import Level, computer
from domino.match import Match
from domino.round import FACE_UP
from domino.tiles import Tile
from domino.variants import find_variant
from domino.views import MatchView
from i18n import Lang, t
from storage import hints as hint_store
from storage.connect import open_database
from tests.bot.app_setup import ALICE, START, FakeTime, Setup, eventually, make, settle
from tests.bot.test_play import COMPUTER_SEED, start_against_a_computer

NAMES = ("Алиса", "Боб")
DARK = find_variant("dark").ruleset
TILE = re.compile(r"(?<![0-9])[0-6][|-][0-6](?![0-9])")


def played_out(players: int = 2, seed: int = 1) -> Iterator[tuple[Match, object]]:
    """A seeded match of Втемную played to its end by the medium computer: the match after
    each action and the event it made."""
    match = Match.new(DARK, players, seed=seed)
    player = computer(Level.MEDIUM, seed=seed)
    while not match.over:
        seat = match.turn
        assert seat is not None
        event = match.apply(player.choose(match.view(seat)), seat)
        yield match, event


def seat_0_opens() -> Match:
    """A fresh 2-seat match whose first leader (drawn by lot) is seat 0."""
    seed = next(s for s in range(100) if Match.new(DARK, 2, seed=s).turn == 0)
    return Match.new(DARK, 2, seed=seed)


def after_a_miss(drew: bool) -> Match:
    """A match just after a tile turned up fitted nowhere (`Flipped`), a bazaar tile
    drawn onto the stack or not, the round going on."""
    for seed in range(20):
        for match, event in played_out(seed=seed):
            history = match.round.history
            if isinstance(event, Flipped) and event.drew is drew and history[-1:] == (event,):
                return match
    raise AssertionError("no such miss")


def turned_up_to_move() -> Match:
    """A match where the seat to move has its stack turned up (and the other not)."""
    for match, _ in played_out():
        seat = match.turn
        if seat is not None and not match.round.face_down(seat) and match.round.face_down(1 - seat):
            return match
    raise AssertionError("no turned-up seat to move")


def buttons(view: MatchView, *, hints: bool = False) -> list[list[tuple[str, MoveCb | HandCb]]]:
    markup = hand_keyboard(view, 7, 12, Lang.RU, hints=hints)
    assert markup is not None
    return [
        [(b.text, unpacked(b.callback_data or "")) for b in row] for row in markup.inline_keyboard
    ]


def unpacked(data: str) -> MoveCb | HandCb:
    """A hand button's data: a move, or a button that makes none."""
    return MoveCb.unpack(data) if data.startswith("m2:") else HandCb.unpack(data)


# --- the hand ---------------------------------------------------------------------------


def test_a_face_down_hand_on_its_turn_offers_one_button_and_names_no_tile() -> None:
    match = seat_0_opens()
    view = match.view(0)
    assert view.round.hand == () and view.round.face_down == (True, True)
    text = hand_text(view, NAMES, "Двор", Lang.RU)
    assert not TILE.search(text), text
    lines = text.splitlines()
    assert lines[1] == "<b>Ваш ход!</b>"
    assert lines[2] == (
        "⬛ Ваши кости лежат рубашкой вверх: 7 костей. "
        "Их не видит никто, даже вы; когда останется 3, они откроются."
    )
    assert lines[3] == (
        "Нажмите «⬛ Открыть верхнюю»: подойдёт кость — ляжет на стол, "
        "не подойдёт — уйдёт под низ стопки, а сверху ляжет кость из базара."
    )
    assert "Стол пуст." in lines and "Костей у соперника: Боб — 7 ⬛ · базар: 14" in lines
    flip = MoveCb(game=7, move=12, action=str(FLIP))
    assert buttons(view) == [[("⬛ Открыть верхнюю", flip)]]
    # No «💡 Подсказка» where the group allows hints: the one move needs none.
    assert buttons(view, hints=True) == [[("⬛ Открыть верхнюю", flip)]]
    assert action_of(flip) is FLIP
    assert MoveCb.unpack(flip.pack()) == flip


def test_a_face_down_hand_off_turn_shows_the_stack_and_whose_turn_it_is() -> None:
    match = seat_0_opens()
    view = match.view(1)
    text = hand_text(view, NAMES, "Двор", Lang.RU)
    assert not TILE.search(text), text
    # Two at the table: the one opponent is named; at three or four the stack tells.
    assert "Ходит Алиса, стол — в группе." in text and "на кость" not in text
    assert "рубашкой вверх: 7 костей" in text
    info = HandCb(game=7, move=0, kind=HandKind.INFO)
    assert buttons(view) == [[("⬛ × 7", info)]]
    away = away_keyboard(view, 7, Lang.RU)
    assert [b.text for b in away.inline_keyboard[0]] == ["⬛ × 7"]
    assert "Ходит Алиса" in hand_text(view, NAMES, "Двор", Lang.RU, away=True)
    english = hand_text(view, NAMES, "Yard", Lang.EN)
    assert "⬛ Your tiles lie face down: 7 tiles. Nobody sees them, not even you" in english
    assert "Waiting for Алиса; the table is in the group." in english
    three = Match.new(DARK, 3, seed=1)
    waiting = next(seat for seat in range(3) if seat != three.turn)
    text = hand_text(three.view(waiting), (*NAMES, "Вера"), "Двор", Lang.RU)
    assert "Ходят соперники, стол — в группе. Нажмите на стопку, чтобы узнать, чей ход." in text
    english = hand_text(three.view(waiting), (*NAMES, "Vera"), "Yard", Lang.EN)
    assert "Press your stack to see whose turn it is." in english


def test_the_flip_says_a_bazaar_tile_goes_on_top_only_while_the_bazaar_has_one() -> None:
    view = seat_0_opens().view(0)
    assert flip_text(view, Lang.RU).endswith(
        "уйдёт под низ стопки, а сверху ляжет кость из базара."
    )
    assert flip_text(view, Lang.EN).endswith("under your stack, and a boneyard tile goes on top.")
    empty = dataclasses.replace(view, round=dataclasses.replace(view.round, bazaar_size=0))
    assert flip_text(empty, Lang.RU).endswith("не подойдёт — уйдёт под низ стопки.")
    assert flip_text(empty, Lang.EN).endswith("if not, under your stack.")
    assert tile_refusal(empty, Lang.RU) == t("hand.flip", Lang.RU)


@pytest.mark.parametrize(
    ("n", "ru", "en"),
    [
        (1, "1 кость", "1 tile"),
        (3, "3 кости", "3 tiles"),
        (5, "5 костей", "5 tiles"),
        (11, "11 костей", "11 tiles"),
        (21, "21 кость", "21 tiles"),
    ],
)
def test_the_face_down_count_takes_its_plural(n: int, ru: str, en: str) -> None:
    assert f"рубашкой вверх: {ru}." in t("hand.face_down", Lang.RU, n=n, up=FACE_UP)
    assert f"face down: {en}." in t("hand.face_down", Lang.EN, n=n, up=FACE_UP)


def test_a_turned_up_hand_plays_as_in_blitz() -> None:
    match = turned_up_to_move()
    seat = match.turn
    assert seat is not None
    view = match.view(seat)
    assert view.round.hand and len(view.round.hand) <= FACE_UP
    text = hand_text(view, NAMES, "Двор", Lang.RU)
    assert "⬛ Ваши кости открыты: за ход можно положить несколько подряд." in text
    assert "рубашкой вверх" not in text
    moves = {action_of(cb) for row in buttons(view) for _, cb in row if isinstance(cb, MoveCb)}
    assert FLIP not in moves and any(isinstance(a, Play | Draw | Knock) for a in moves)
    assert f"{NAMES[1 - seat]} — {view.round.hand_counts[1 - seat]} ⬛" in others_text(
        view, NAMES, Lang.RU
    )


def test_the_flip_is_hinted_as_the_only_move_and_a_stack_press_explains_it() -> None:
    view = seat_0_opens().view(0)
    assert action_text(view, FLIP, Lang.RU) == "⬛ Открыть верхнюю"
    assert action_text(view, FLIP, Lang.EN) == "⬛ Turn up the top tile"
    assert hint_text(view, FLIP, "only", {}, Lang.RU) == "💡 ⬛ Открыть верхнюю — другого хода нет"
    decision = computer(Level.HARD, seed=3).decide(view)
    assert decision.action == FLIP
    assert "⬛ Открыть верхнюю" in hint_text(view, FLIP, decision.reason, decision.args, Lang.RU)
    assert tile_refusal(view, Lang.RU) == t("hand.flip_bazaar", Lang.RU)


# --- the answers of a flip -------------------------------------------------------------------


def test_a_flip_is_answered_with_what_became_of_the_tile_never_the_tile() -> None:
    seen: set[str] = set()
    laid = 0
    for seed in range(3):
        match = Match.new(DARK, 2, seed=seed)
        player = computer(Level.MEDIUM, seed=seed)
        while not match.over:
            seat = match.turn
            assert seat is not None
            action = player.choose(match.view(seat))
            round_no, down = match.round_no, match.round.face_down(seat)
            laying = match.round.turned_up is not None
            event = match.apply(action, seat)
            assert isinstance(action, Flip) == (down and not laying)
            turned = match.round_no == round_no and not match.round.face_down(seat)
            if laying:  # the end chosen for a tile turned up that fits both
                assert isinstance(action, Play) and isinstance(event, Played)
                answer = laid_answer(match, seat, round_no)
                assert answer == ("answer.flip_turned_up" if turned and not match.over else None)
                laid += answer is not None
            if isinstance(action, Flip):
                key = flip_answer(match, seat, round_no, event)
                if isinstance(event, Flipped):
                    assert key == ("answer.flip_under_drew" if event.drew else "answer.flip_under")
                elif isinstance(event, TurnedUp):
                    assert key == "answer.flip_choice" and match.turn == seat
                else:
                    assert isinstance(event, Played)
                    assert (key == "answer.flip_turned_up") == (turned and not match.over)
                seen.add(key)
                for lang in Lang:
                    assert not TILE.search(t(key, lang))
    assert seen == {
        "answer.flip_laid",
        "answer.flip_turned_up",
        "answer.flip_under",
        "answer.flip_under_drew",
        "answer.flip_choice",
    }
    assert laid  # a choice of end that turned the last tiles up says so


# --- the group's caption ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("drew", "lang", "text"),
    [
        (
            True,
            Lang.RU,
            "Алиса открывает 2|5: не подходит, уходит под стопку, сверху — кость из базара",
        ),
        (False, Lang.RU, "Алиса открывает 2|5: не подходит, уходит под стопку"),
        (
            True,
            Lang.EN,
            "Алиса turns up 2|5: it does not fit and goes under the stack, a boneyard tile on top",
        ),
        (False, Lang.EN, "Алиса turns up 2|5: it does not fit and goes under the stack"),
    ],
)
def test_a_miss_names_the_tile_everyone_saw(drew: bool, lang: Lang, text: str) -> None:
    shown = Shown(Flipped(0, Tile.parse("2-5"), drew))
    assert event_text(shown, NAMES, "dark", lang) == text


@pytest.mark.parametrize("drew", [True, False])
def test_the_caption_tells_the_miss_and_whose_tiles_lie_face_down(drew: bool) -> None:
    match = after_a_miss(drew)
    view = match.view(None)
    event = view.round.history[-1]
    assert isinstance(event, Flipped)
    assert recent_events(view)[-1] == Shown(event)
    caption = table_caption(view, NAMES, Lang.RU)
    tail = "уходит под стопку, сверху — кость из базара" if drew else "уходит под стопку"
    tile = f"{event.tile.low}|{event.tile.high}"
    said = f"{NAMES[event.seat]} открывает {tile}: не подходит, {tail}"
    assert caption.splitlines()[-1].endswith(said), caption
    for seat, name in enumerate(NAMES):
        n = view.round.hand_counts[seat]
        line = next(ln for ln in caption.splitlines() if ln.removeprefix("▶️ ").startswith(name))
        assert (" рубашкой вверх · " in line) == view.round.face_down[seat], line
        assert f" — {n} " in line
    english = table_caption(view, NAMES, Lang.EN)
    assert "<b>In the Dark</b> · round" in english and "face down" in english


def test_a_turned_up_seat_reads_as_in_any_game() -> None:
    match = turned_up_to_move()
    caption = table_caption(match.view(None), NAMES, Lang.RU)
    seat = match.turn
    assert seat is not None
    mover = next(ln for ln in caption.splitlines() if ln.startswith("▶️ "))
    assert "рубашкой вверх" not in mover and NAMES[seat] in mover


def test_the_game_is_offered_by_its_names_with_its_rules() -> None:
    for name in ("dark", "Втемную", "в тёмную", "blind", "In the Dark"):
        game = game_named(name)
        assert game is not None and game.key.value == "dark"
    rules = presenter.rules_text(DARK, Lang.RU)
    assert rules.startswith("<b>Втемную</b> — детская игра; кто первым наберёт 100 очков")
    for words in ("рубашкой вверх", "«⬛ Открыть верхнюю»", "под низ стопки", "из базара"):
        assert words in rules
    assert "3 кости" in rules and "«✔️ Сходить»" in rules and "рыбу" in rules
    # A turned-up player who drew may hold more than three: «несколько», not «одну, две
    # или три»; a flipped tile that fits both ends is its owner's to lay on either.
    assert "за ход можно положить несколько костей подряд" in rules and "одну, две" not in rules
    assert "подходит к обоим концам — выберите, к какому её положить." in rules
    assert not re.search(r"\b[A-Z]-\d", rules)  # no rule ids for players
    english = presenter.rules_text(DARK, Lang.EN)
    assert english.startswith("<b>In the Dark</b>, a children's game")
    assert "a turn may lay several tiles in a row" in english and "one, two" not in english
    assert "if it fits both ends, choose the end to lay it on." in english


# --- through the application ----------------------------------------------------------------


@pytest.fixture
async def dark(tmp_path: Path) -> AsyncIterator[Setup]:
    """Алиса (seat 0, the first leader by lot) against the bot's computer in Втемную, the
    group's default turn timer (60 s) running on `FakeTime`."""
    database = await open_database(tmp_path / "dark.sqlite3")
    seed = next(s for s in range(100) if Match.new(DARK, 2, seed=s).turn == 0)
    setup = make(database, FakeTime(), seed)
    setup.app.thinker.new_seed = lambda: COMPUTER_SEED
    await setup.app.resume()
    try:
        await start_against_a_computer(setup, "dark")
        await settle()
        yield setup
    finally:
        await setup.close()
        await database.close()


def alice_texts(setup: Setup) -> list[str]:
    """Every text the bot sent or edited into Алиса's private chat."""
    return [
        call.text
        for call in setup.telegram.calls
        if isinstance(call, SendMessage | EditMessageText)
        and call.chat_id == ALICE.id
        and call.text is not None
    ]


async def test_a_person_flips_and_is_told_what_became_of_the_tile(dark: Setup) -> None:
    setup = dark
    game = await setup.game()
    assert game.match is not None and game.match.turn == 0
    assert game.match.round.face_down(0)
    flips = chosen = 0
    for _ in range(6):
        game = await setup.game()
        match = game.match
        assert match is not None
        if match.over or match.turn != 0 or not match.round.face_down(0) or match.round_no > 1:
            break
        if match.round.turned_up is not None:  # it fits both ends: hers to lay on either
            play = match.legal_actions()[0]
            await setup.run(setup.app.playing.play(game.id, ALICE, len(match.log), play))
            await eventually(functools.partial(alice_to_move_again, setup, len(match.log)))
            await setup.app.publisher.idle()
            chosen += 1
            continue
        answer = await setup.run(setup.app.playing.play(game.id, ALICE, len(match.log), FLIP))
        assert not answer.alert and reply_text(answer, Lang.RU) in {
            t(key, Lang.RU)
            for key in (
                "answer.flip_laid",
                "answer.flip_turned_up",
                "answer.flip_under",
                "answer.flip_under_drew",
                "answer.flip_choice",
            )
        }, answer
        flips += 1
        await eventually(functools.partial(alice_to_move_again, setup, len(match.log)))
        await setup.app.publisher.idle()
    assert flips >= 2
    game = await setup.game()
    assert game.match is not None
    mine = [entry for entry in game.match.log if entry.seat == 0]
    kinds = [type(entry.action) for entry in mine[: flips + chosen]]
    assert kinds.count(Flip) == flips and kinds.count(Play) == chosen
    # A stale «⬛ Открыть верхнюю» (an older move number) changes nothing.
    stale = await setup.run(setup.app.playing.play(game.id, ALICE, 0, FLIP))
    assert stale.alert and reply_text(stale, Lang.RU) == t("alert.stale", Lang.RU)
    # Her hand, while face down, never named a tile.
    face_down = [text for text in alice_texts(setup) if "рубашкой вверх" in text]
    assert face_down and not any(TILE.search(text) for text in face_down)


async def test_a_hint_pressed_while_face_down_is_refused_and_not_counted(dark: Setup) -> None:
    """The hand offers no «💡 Подсказка» while her tiles lie face down; a forged press (the
    move number hers, the group's hints on) is answered politely, nothing worked out,
    counted or changed."""
    setup = dark
    game = await setup.game()
    match = game.match
    assert match is not None and match.turn == 0 and match.round.face_down(0)
    assert setup.app.settings.hints_allowed(game.chat_id)
    move = len(match.log)
    hint = HandCb(game=game.id, move=move, kind=HandKind.HINT).pack()
    markup = hand_keyboard(match.view(0), game.id, move, Lang.RU, hints=True)
    assert markup is not None
    assert hint not in [b.callback_data for row in markup.inline_keyboard for b in row]

    async def refuse(view: MatchView, level: Level) -> object:
        raise AssertionError("no hint is worked out for a face-down stack")

    setup.app.hints.decider.decide = refuse  # type: ignore[method-assign]
    for person_lang in (Lang.RU, Lang.EN):
        person = dataclasses.replace(ALICE, language_code=person_lang.value)
        answer = await setup.run(setup.app.hints.press(game.id, person, move))
        said = reply_text(answer, person_lang)
        assert answer.alert and said == t("alert.hint_face_down", person_lang), answer
        assert not TILE.search(said)
    assert await hint_store.hint_counts(setup.db, game.id) == {}
    assert (await setup.game()).version == game.version


async def alice_to_move_again(setup: Setup, since: int) -> bool:
    game = await setup.game()
    match = game.match
    return match is None or match.over or (len(match.log) > since and match.turn == 0)


async def test_a_face_down_turn_nobody_took_is_flipped_for_her_with_a_strike(
    dark: Setup,
) -> None:
    setup = dark
    clock = setup.app.timers.clock_of(1)
    assert clock is not None and clock.move == 0 and clock.deadline == START + 60
    await setup.time.advance(61)

    async def struck() -> bool:
        return (await setup.game()).seats[0].strikes == 1

    await eventually(struck)
    game = await setup.game()
    assert game.match is not None
    first = game.match.log[0]
    assert first.seat == 0 and isinstance(first.action, Flip)
