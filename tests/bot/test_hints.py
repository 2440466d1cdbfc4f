"""«💡 Подсказка» through the application: a real database file, the fake Bot API and
a decider that counts its calls (and can be held, to press during a search).

Алиса and Боб play a two-person Козёл (no computer, so only their presses move it): the
hint goes to the person whose turn it is, once per turn (a second press shows the same
hint, neither computed nor counted again), one search at a time a person; the count
is stored with the game and copied into the match record, where /stats reads it. Every
refusal (not seated, not their turn, a stale or forged move, hints off in the group, a
finished game) changes nothing."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiogram.types import InlineKeyboardMarkup

from bot.app import standings
from bot.app.people import Person
from bot.app.reply import Reply
from bot.app.usecases.hints import Hints
from bot.app.usecases.lobby_options import LobbyOption
from bot.telegram.callbacks import HandCb, HandKind, HintsCb, SettingsSection
from bot.telegram.presenter.hand_keyboard import hand_keyboard
from bot.telegram.presenter.moves import action_text, hint_text
from bot.telegram.presenter.replies import reply_text
from bot.telegram.presenter.settings import section_keyboard, settings_text
from bot.telegram.stats_view import player_stats_text
from domino.ai import REASONS, Decision, Level
from domino.match import Match
from domino.players import GreedyPlayer
from domino.rules import KOZEL
from domino.variants import find_variant
from domino.views import MatchView
from i18n import Lang, t
from storage import hints as hint_store
from storage import repo, stats
from storage.connect import open_database
from storage.records import ChatSettings, GameRecord, GameStatus
from tests.bot.app_setup import ALICE, CHAT, FakeTime, Setup, make, no_admin

BOB = Person(502, "Боб", language_code="ru")
EVE = Person(503, "Ева", language_code="en")
GAME = 1
KOZEL_VARIANT = find_variant("kozel")


class Decider:
    """Decides as the heaviest tile would, with a fixed reason; counts its calls and
    checks it is handed the presser's own view only."""

    def __init__(self) -> None:
        self.calls = 0
        self.hold: asyncio.Event | None = None  # set: the search waits for it

    async def decide(self, view: MatchView, level: Level) -> Decision:
        assert level is Level.HARD
        assert view.round.seat == view.round.turn, "a hint is for the presser's own turn"
        self.calls += 1
        if self.hold is not None:
            await self.hold.wait()
        return Decision(GreedyPlayer().choose(view), "double")


@dataclasses.dataclass
class Table:
    setup: Setup
    hints: Hints
    decider: Decider

    async def game(self) -> GameRecord:
        return await self.setup.game(GAME)

    async def mover(self) -> tuple[Person, int]:
        """Who is to move, and the move number."""
        game = await self.game()
        assert game.match is not None and game.match.turn is not None
        return (ALICE, BOB)[game.match.turn], len(game.match.log)

    async def hint(self, person: Person, move: int) -> Reply:
        return await self.setup.run(self.hints.press(GAME, person, move))

    async def play(self) -> None:
        """The person to move plays the heaviest tile (or draws, knocks)."""
        game = await self.game()
        assert game.match is not None and game.match.turn is not None
        seat = game.match.turn
        action = GreedyPlayer().choose(game.match.view(seat))
        person = (ALICE, BOB)[seat]
        answer = await self.setup.run(
            self.setup.app.playing.play(GAME, person, len(game.match.log), action)
        )
        assert not answer.alert, answer


def said(reply: Reply, lang: Lang = Lang.RU) -> str:
    """The text the press is answered with."""
    return reply_text(reply, lang)


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    database = await open_database(tmp_path / "hints.sqlite3")
    setup = make(database, FakeTime(), seed=7)
    await setup.app.resume()
    try:
        for person in (ALICE, BOB):
            await setup.app.people.remember(person, can_message=True)
        assert await setup.run(setup.app.lobby.open(CHAT, ALICE, KOZEL_VARIANT)) is None
        lobby = setup.app.lobby
        await setup.run(lobby.set_option(GAME, CHAT.id, ALICE, LobbyOption.SEATS, no_admin))
        await setup.run(lobby.join(GAME, CHAT.id, BOB))
        await setup.run(lobby.start_game(GAME, CHAT.id, ALICE, no_admin))
        game = await setup.game(GAME)
        assert game.status is GameStatus.PLAYING and [s.user_id for s in game.seats] == [
            ALICE.id,
            BOB.id,
        ]
        decider = Decider()
        hints = Hints(setup.app.playing.context, decider)
        yield Table(setup, hints, decider)
    finally:
        await setup.close()
        await database.close()


async def test_a_hint_is_a_legal_move_with_its_reason_counted_once_a_turn(table: Table) -> None:
    mover, move = await table.mover()
    before = await table.game()
    answer = await table.hint(mover, move)
    assert answer.alert and said(answer).startswith("💡 ")
    assert t("hint.reason.double", Lang.RU) in said(answer)
    assert table.decider.calls == 1
    game = await table.game()
    assert game.match is not None
    seat = game.match.turn
    assert seat is not None
    stored = await hint_store.last_hint(table.setup.db, GAME, seat)
    assert stored is not None and stored.count == 1 and stored.move == move
    view = game.match.view(seat)
    legal = {action_text(view, a, Lang.RU) for a in view.round.legal}
    assert said(answer).removeprefix("💡 ").split(" — ")[0] in legal
    assert game.version == before.version  # the game itself is not touched

    # Again on the same turn: the same hint, not computed or counted.
    again = await table.hint(mover, move)
    assert again == answer and table.decider.calls == 1
    assert await hint_store.hint_counts(table.setup.db, GAME) == {seat: 1}

    # The next turn of the same seat counts anew.
    await table.play()
    while (await table.mover())[0] != mover:
        await table.play()
    _, move = await table.mover()
    assert (await table.hint(mover, move)).alert
    assert table.decider.calls == 2
    assert await hint_store.hint_counts(table.setup.db, GAME) == {seat: 2}


async def test_a_press_while_the_hint_is_worked_out_waits_and_the_next_turn_is_not_held_up(
    table: Table,
) -> None:
    mover, move = await table.mover()
    table.decider.hold = asyncio.Event()
    first = asyncio.ensure_future(table.hint(mover, move))
    while table.decider.calls == 0:  # the search has begun
        await asyncio.sleep(0)
    soon = await table.hint(mover, move)
    assert not soon.alert and said(soon) == t("answer.hint_too_fast", Lang.RU)
    table.decider.hold.set()
    assert (await first).alert
    assert (await table.hint(mover, move)) == await first  # shown again at once
    assert table.decider.calls == 1

    # The person's next turn, however soon, gets its own hint on the first press.
    await table.play()
    while (await table.mover())[0] != mover:
        await table.play()
    _, move = await table.mover()
    assert (await table.hint(mover, move)).alert
    assert table.decider.calls == 2


async def test_refusals_change_nothing(table: Table) -> None:
    mover, move = await table.mover()
    other = BOB if mover is ALICE else ALICE
    before = await table.game()

    def text(key: str, person: Person = mover, **values: object) -> str:
        return t(key, person.lang, **values)

    cases = [
        (EVE, move, text("alert.not_in_game", EVE)),  # not at the table
        (mover, move + 1, text("alert.hint_stale")),  # forged: a move not made yet
        (mover, move - 1 if move else 5, text("alert.hint_stale")),  # an earlier turn
    ]
    for person, pressed, expected in cases:
        answer = await table.hint(person, pressed)
        assert said(answer, person.lang) == expected, (person, pressed, answer)
    off_turn = await table.hint(other, move)
    assert not off_turn.alert and mover.name in said(off_turn)
    missing = await table.setup.run(table.hints.press(999, mover, move))
    assert missing.alert and said(missing) == text("alert.stale")

    # Hints switched off in the group: refused, and the hands show no button.
    settings = table.setup.app.settings
    await settings.change(CHAT, ChatSettings(hints=False))
    assert said(await table.hint(mover, move)) == text("alert.hints_off")
    await settings.change(CHAT, ChatSettings(hints=True))

    assert table.decider.calls == 0
    assert await hint_store.hint_counts(table.setup.db, GAME) == {}
    assert (await table.game()).version == before.version


async def test_no_hint_for_a_seat_a_computer_plays(table: Table) -> None:
    """Away after three timeouts: «a computer plays for you»; left for good: not in the game."""
    mover, move = await table.mover()
    game = await table.game()
    seat = game.seats.index(next(s for s in game.seats if s.user_id == mover.id))
    for changed, key in [
        (game.struck(seat, 3, away=True), "alert.away"),
        (game.left_by(seat), "alert.not_in_game"),
    ]:
        async with table.setup.db.transaction() as tx:
            current = await repo.load_game(tx, GAME)
            assert current is not None
            await repo.save_game(tx, dataclasses.replace(changed, version=current.version))
        assert said(await table.hint(mover, move)) == t(key, Lang.RU)
    assert table.decider.calls == 0


async def test_a_move_made_while_the_hint_is_worked_out_leaves_it_uncounted(
    table: Table,
) -> None:
    """The search runs outside any transaction: if the person moves meanwhile (another
    press of theirs), the hint arrives stale and is neither shown nor counted."""
    mover, move = await table.mover()
    decide = table.decider.decide

    async def moving(view: MatchView, level: Level) -> Decision:
        decision = await decide(view, level)
        await table.play()
        return decision

    table.decider.decide = moving  # type: ignore[method-assign]
    answer = await table.hint(mover, move)
    assert answer.alert and said(answer) == t("alert.hint_stale", Lang.RU)
    assert await hint_store.hint_counts(table.setup.db, GAME) == {}
    assert len((await table.game()).match.log) > move  # type: ignore[union-attr]


async def test_the_count_goes_to_the_match_record_and_stats_not_the_rating(table: Table) -> None:
    mover, move = await table.mover()
    assert (await table.hint(mover, move)).alert
    seat = 0 if mover is ALICE else 1
    game = await table.game()
    assert game.match is not None
    match = game.match
    while not match.over:
        turn = match.turn
        assert turn is not None
        match.take_turn(turn, GreedyPlayer())
    async with table.setup.db.transaction() as tx:
        ended = game.ended(GameStatus.FINISHED, game.started_at or game.created_at)
        await repo.save_game(tx, dataclasses.replace(ended, match=match))
        stored = await repo.load_game(tx, GAME) or ended
        scored = standings.score(stored)
        assert scored is not None and await stats.record_match(tx, stored, scored)
    rows = await table.setup.db.fetch_all(
        "SELECT seat, hints, rating_gain FROM stat_seats WHERE game_id = ? ORDER BY seat", (GAME,)
    )
    assert [row["hints"] for row in rows] == [int(s == seat) for s in range(2)]
    assert [row["rating_gain"] for row in rows] == list(match.rating())
    mine = await stats.player_stats(table.setup.db, mover.id, CHAT.id, game=KOZEL_VARIANT.key)
    theirs = await stats.player_stats(
        table.setup.db, (BOB if mover is ALICE else ALICE).id, CHAT.id, game=KOZEL_VARIANT.key
    )
    assert mine is not None and theirs is not None and mine.hints == 1 and theirs.hints == 0
    assert "💡 1 подсказка" in player_stats_text(mine, CHAT.title, Lang.RU)
    assert "💡" not in player_stats_text(theirs, CHAT.title, Lang.RU)
    # The game is over: a hint press is refused.
    assert said(await table.hint(mover, move)) == t("alert.finished", Lang.RU)


def test_the_hint_button_shows_on_the_own_turn_only_where_hints_are_on() -> None:
    match = Match.new(KOZEL, 2, seed=3)
    mover = match.turn
    assert mover is not None
    move = len(match.log)
    hint = HandCb(game=GAME, move=move, kind=HandKind.HINT).pack()

    def data(markup: InlineKeyboardMarkup | None) -> list[str]:
        assert markup is not None
        return [b.callback_data or "" for row in markup.inline_keyboard for b in row]

    own = match.view(mover)
    assert hint in data(hand_keyboard(own, GAME, move, Lang.RU, hints=True))
    assert hint not in data(hand_keyboard(own, GAME, move, Lang.RU, hints=False))
    other = match.view(1 - mover)
    assert all(
        HandCb.unpack(d).kind is not HandKind.HINT
        for d in data(hand_keyboard(other, GAME, move, Lang.RU, hints=True))
        if d.startswith("hb1:")
    )
    assert "💡 Hint" in [
        b.text
        for row in hand_keyboard(own, GAME, move, Lang.EN, hints=True).inline_keyboard  # type: ignore[union-attr]
        for b in row
    ]


def test_every_reason_has_a_text_and_plurals_in_both_languages() -> None:
    match = Match.new(KOZEL, 2, seed=3)
    view = match.view(match.turn or 0)
    action = view.round.legal[0]
    args = {"chance": 23, "worlds": 121, "points": 15}
    for lang in Lang:
        for reason in REASONS:
            text = hint_text(view, action, reason, args, lang)
            assert text.startswith("💡 ") and " — " in text, (lang, reason, text)
            # One dash: the one between the move and its reason («💡 2|4 на ⬅️ 4 —
            # последняя кость, и раунд ваш»), none inside the reason.
            assert text.count(" — ") == 1, (lang, reason, text)
            assert len(text) <= 200  # Telegram's limit of a press's answer
        # A reason this version has no text for shows the move alone.
        assert hint_text(view, action, "unknown", {}, lang) == "💡 " + action_text(
            view, action, lang
        )
    # A search's reason shows no figure (issue 33: «шанс выиграть: 100 %» after 13
    # play-outs); a likely outcome reads as the game counts it.
    for reason in ("search", "search_likely"):
        for lang in Lang:
            text = hint_text(view, action, reason, {"chance": 93, "worlds": 121}, lang)
            why = text.split(" — ")[1]
            assert not any(c.isdigit() for c in why) and "%" not in why, text
    likely = hint_text(view, action, "search_likely", args, Lang.RU)
    assert likely.endswith(" — с этим ходом козлом, скорее всего, будете не вы")
    classic = Match.new(find_variant("classic").ruleset, 2, seed=3).view(0)
    won = hint_text(classic, classic.round.legal[0], "search_likely", args, Lang.RU)
    assert won.endswith(" — с этим ходом партия, скорее всего, ваша")
    assert hint_text(view, action, "search_likely", args, Lang.EN).endswith(
        " — with this move you will most likely not end up the goat"
    )
    # The pips shed, as the game counts them: the holder's own, or the round's winner's.
    assert hint_text(view, action, "heavy", {}, Lang.RU).endswith(
        " — тяжёлую кость лучше сбросить: очки, оставшиеся на руке, запишут вам"
    )
    assert "запишут тому, кто выиграет раунд" in hint_text(
        classic, classic.round.legal[0], "heavy_to_winner", {}, Lang.RU
    )
    # Games that score during play: what the move scores now, in the plural it takes.
    scores = hint_text(view, action, "scores", {"points": 21}, Lang.RU)
    assert scores.endswith(" — ход сразу приносит 21 очко")
    assert hint_text(view, action, "scores", {"points": 10}, Lang.EN).endswith(
        " — the move scores 10 points at once"
    )


def test_settings_show_the_switch_in_force() -> None:
    on, off = ChatSettings(), ChatSettings(hints=False)
    assert "Подсказки: <b>вкл</b>" in settings_text("Группа", on, Lang.RU)
    assert "Hints: <b>off</b>" in settings_text("Group", off, Lang.EN)
    for settings in (on, off):
        keyboard = section_keyboard(SettingsSection.HINTS, settings, Lang.RU).inline_keyboard
        buttons = [b for row in keyboard for b in row]
        marked = [b.callback_data for b in buttons if b.text.startswith("✅")]
        assert marked == [HintsCb(on=settings.hints).pack()]
    assert ChatSettings.from_dict(off.to_dict()) == off and "hints" not in on.to_dict()
