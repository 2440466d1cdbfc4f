"""The stats use cases against a temporary database: screens, and refusals of pages and
matches that a forged or foreign press names."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app import standings
from bot.app.stats import page_exists
from bot.app.usecases import Refusal
from bot.telegram.callbacks import HistoryCb, StatsCb, TopCb, TopScope
from bot.telegram.stats_service import MAX_PAGE, Chat, StatsService
from domino.match import Match
from domino.players import GreedyPlayer
from domino.rules import CLASSIC, KOZEL, Ruleset
from domino.simulate import play_match
from domino.variants import find_variant
from domino.views import OutcomeKind
from i18n import Lang
from storage import repo, stats
from storage.connect import open_database
from storage.db import Transaction
from storage.records import (
    ChatRecord,
    Ending,
    GameRecord,
    GameStatus,
    SeatRecord,
    UserRecord,
)

GROUP = Chat(-100, "Двор", is_group=True)
OTHER = Chat(-200, "Чужая", is_group=True)
PRIVATE = Chat(7, None, is_group=False)
DAY = datetime(2026, 11, 2, 20, 0, tzinfo=UTC)


def finished(
    game_id: int, chat_id: int, people: tuple[int, int], ruleset: Ruleset = KOZEL
) -> GameRecord:
    match = play_match(Match.new(ruleset, 2, game_id), [GreedyPlayer()] * 2)
    return GameRecord(
        id=game_id,
        chat_id=chat_id,
        status=GameStatus.FINISHED,
        creator_id=people[0],
        ruleset=ruleset,
        seats_wanted=2,
        seats=tuple(SeatRecord(seat, uid, f"Игрок {uid}") for seat, uid in enumerate(people)),
        match=match,
        started_at=DAY,
        ended_at=DAY + timedelta(minutes=game_id),
        ending=Ending.FINISHED,
    )


async def record(tx: Transaction, game: GameRecord) -> bool:
    """Record a finished game as the bot does, counted by its standings."""
    scored = standings.score(game)
    assert scored is not None
    return await stats.record_match(tx, game, scored)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[StatsService]:
    """Twelve people in GROUP (six matches of Козёл, two people each: two pages of ten),
    one of them also once in OTHER, where two of them also played Классика."""
    db = await open_database(tmp_path / "stats.sqlite3")
    async with db.transaction() as tx:
        for user_id in range(1, 13):
            await repo.upsert_user(tx, UserRecord(user_id, f"Игрок {user_id}"))
        for n in range(6):
            await record(tx, finished(n + 1, GROUP.id, (2 * n + 1, 2 * n + 2)))
        await record(tx, finished(50, OTHER.id, (7, 12)))
        await record(tx, finished(51, OTHER.id, (7, 12), CLASSIC))
    yield StatsService(db)
    await db.close()


async def test_the_board_pages_and_refuses_pages_that_do_not_exist(
    service: StatsService,
) -> None:
    first = await service.top(GROUP, Lang.RU)
    assert "стр. 1/2" in first.text
    assert first.keyboard is not None
    assert (
        first.keyboard.inline_keyboard[0][0].callback_data
        == TopCb(game="kozel", scope=TopScope.PLAYERS, page=2).pack()
    )
    second = await service.top(GROUP, Lang.EN, game="kozel", page=2)
    assert "page 2/2" in second.text and " 11 " in second.text and " 12 " in second.text
    for page in (0, -1, 3, MAX_PAGE + 1, 10**30):
        with pytest.raises(Refusal) as refused:
            await service.top(GROUP, Lang.RU, game="kozel", page=page)
        assert refused.value.key == "alert.no_such_page"
    pairs = await service.top(GROUP, Lang.RU, game="kozel", scope=TopScope.PAIRS)
    assert "2×2" in pairs.text  # no team games: page 1 exists
    with pytest.raises(Refusal):
        await service.top(GROUP, Lang.RU, game="kozel", scope=TopScope.PAIRS, page=2)


async def test_the_core_gives_records_and_the_games_to_switch_to(service: StatsService) -> None:
    """`bot.app.stats` answers rows, the game shown and the games with records; the
    screens are the adapter's."""
    core = service.stats
    board = await core.top_players(OTHER, preferred="classic", page=1)
    assert board.game.key.value == "classic" and board.rows.total == 2
    assert [game.value for game in board.games] == ["kozel", "classic"]
    history = await core.history(GROUP, game="kozel")
    assert history.rows.total == len(history.rows.rows) == 6 and history.games == board.games[:1]
    with pytest.raises(Refusal):
        await core.history(GROUP, game="kozel", page=2)
    assert await core.player(99, GROUP) is None
    mine = await core.player(7, PRIVATE, preferred="classic")
    assert mine is not None and mine.found.game.value == "classic" and len(mine.games) == 2
    assert page_exists(1, 0, 10) and page_exists(2, 11, 10) and not page_exists(3, 20, 10)


async def test_a_command_opens_the_default_game_and_offers_the_others(
    service: StatsService,
) -> None:
    kozel = await service.top(OTHER, Lang.RU, preferred="kozel")
    assert "· Козёл ·" in kozel.text
    assert kozel.keyboard is not None
    games = kozel.keyboard.inline_keyboard[-1]
    assert [(b.text, b.callback_data) for b in games] == [
        ("✅ Козёл", TopCb(game="kozel", scope=TopScope.PLAYERS, page=1).pack()),
        ("Классика", TopCb(game="classic", scope=TopScope.PLAYERS, page=1).pack()),
    ]
    classic = await service.top(OTHER, Lang.RU, preferred="classic")
    assert "· Классика ·" in classic.text and "Поб" in classic.text
    # A group with records of Козёл only: no row of games; its default game has no
    # records, so the command opens the one that has.
    alone = await service.top(GROUP, Lang.RU, preferred="classic")
    assert "· Козёл ·" in alone.text
    assert alone.keyboard is not None and len(alone.keyboard.inline_keyboard) == 2
    history = await service.history(OTHER, Lang.RU, preferred="classic")
    assert "· Классика ·" in history.text and "📋 1" in str(history.keyboard)
    for forged in ("nope", "osel_x", "a"):
        with pytest.raises(Refusal) as refused:
            await service.top(OTHER, Lang.RU, game=forged)
        assert refused.value.key == "alert.no_such_game"
        with pytest.raises(Refusal):
            await service.history(OTHER, Lang.RU, game=forged)


async def test_stats_per_game_with_buttons_for_the_persons_other_games(
    service: StatsService,
) -> None:
    mine = await service.player(7, "Игрок 7", OTHER, Lang.RU, preferred="classic")
    assert "· Классика" in mine.text.splitlines()[0] and "🏆" in mine.text
    assert mine.keyboard is not None
    assert [b.callback_data for b in mine.keyboard.inline_keyboard[0]] == [
        StatsCb(game="kozel", user=7).pack(),
        StatsCb(game="classic", user=7).pack(),
    ]
    kozel = await service.player_game(7, OTHER, Lang.RU, game="kozel")
    assert "· Козёл" in kozel.text.splitlines()[0] and "Козлом" in kozel.text
    here = await service.player(7, "Игрок 7", GROUP, Lang.RU, preferred="classic")
    assert "· Козёл" in here.text.splitlines()[0] and here.keyboard is None
    for game in ("classic", "nope"):  # no Классика of Игрок 7 in GROUP; no such game
        with pytest.raises(Refusal) as refused:
            await service.player_game(7, GROUP, Lang.RU, game=game)
        assert refused.value.key == "alert.no_such_game"


async def test_an_empty_group_gets_a_friendly_text_without_buttons(
    service: StatsService,
) -> None:
    empty = await service.top(Chat(-300, "Новая", is_group=True), Lang.RU)
    assert "/domino" in empty.text and empty.keyboard is None
    history = await service.history(Chat(-300, "Новая", is_group=True), Lang.EN)
    assert "Kozel (Goat): no recorded matches here yet" in history.text
    assert "Play one with /domino" in history.text and history.keyboard is None


async def test_stats_in_a_group_and_across_all_groups(service: StatsService) -> None:
    here = await service.player(7, "Игрок 7", GROUP, Lang.RU)
    assert "в «Двор»" in here.text and "Партий: 1 ·" in here.text
    everywhere = await service.player(7, "Игрок 7", PRIVATE, Lang.RU)
    assert "во всех группах" in everywhere.text and "Партий: 2 ·" in everywhere.text
    nobody = await service.player(99, "Новичок", GROUP, Lang.RU)
    assert nobody.text.startswith("📊 Новичок: в этой группе")
    assert (await service.player(99, "Новичок", PRIVATE, Lang.EN)).text.startswith(
        "📊 Новичок: no recorded matches yet"
    )


async def test_a_score_sheet_opens_only_in_its_own_chat(service: StatsService) -> None:
    listing = await service.history(GROUP, Lang.RU)
    assert listing.keyboard is not None
    newest = listing.keyboard.inline_keyboard[0][0]
    assert newest.callback_data == HistoryCb(game="kozel", page=1, match=6).pack()
    assert newest.text == "📋 6" and "<b>№6</b>" in listing.text
    sheet = await service.sheet(GROUP, "kozel", 6, 1, Lang.RU)
    assert "Партия №6" in sheet.text
    assert sheet.keyboard is not None
    back = HistoryCb(game="kozel", page=1).pack()
    assert sheet.keyboard.inline_keyboard[0][0].callback_data == back
    for chat, game_id in ((GROUP, 50), (OTHER, 6), (GROUP, 404), (GROUP, -6), (GROUP, 2**70)):
        with pytest.raises(Refusal) as refused:
            await service.sheet(chat, "kozel", game_id, 1, Lang.RU)
        assert refused.value.key == "alert.no_such_match"
    with pytest.raises(Refusal) as refused:  # a match of another game than the button's
        await service.sheet(OTHER, "kozel", 51, 1, Lang.RU)
    assert refused.value.key == "alert.no_such_match"
    with pytest.raises(Refusal):
        await service.sheet(GROUP, "kozel", 6, 0, Lang.RU)  # a page that cannot exist
    with pytest.raises(Refusal):
        await service.history(GROUP, Lang.RU, game="kozel", page=2)


async def test_all_fives_counts_the_most_points_as_the_win_even_when_reached_mid_round(
    tmp_path: Path,
) -> None:
    """Пятёрки (F-6): points are good, the winner is the side with the most; a match a
    move ended mid-round is recorded like any other, its last round «цель набрана» on
    the sheet (neither «домино» nor «рыба» in the person's counts)."""
    rules = find_variant("all_fives").ruleset
    db = await open_database(tmp_path / "fives.sqlite3")
    try:
        games = [finished(1, GROUP.id, (1, 2), rules), finished(3, GROUP.id, (2, 3), rules)]
        async with db.transaction() as tx:
            for user_id in (1, 2, 3):
                await repo.upsert_user(tx, UserRecord(user_id, f"Игрок {user_id}"))
            for game in games:
                assert game.match is not None
                assert game.match.results[-1].outcome.kind is OutcomeKind.REACHED
                await record(tx, game)
        service = StatsService(db)
        first = games[0].match
        assert first is not None and first.winners == (1,)  # Игрок 2, at the target
        top = await service.top(GROUP, Lang.RU, game="all_fives")
        assert "· Пятёрки ·" in top.text and "Поб" in top.text and "Коз" not in top.text
        mine = await service.player(2, "Игрок 2", GROUP, Lang.RU, preferred="all_fives")
        went_out = 0
        for game in games:
            assert game.match is not None
            for result in game.match.results:
                seat = game.seats[result.outcome.seat]
                if result.outcome.kind is OutcomeKind.WENT_OUT and seat.user_id == 2:
                    went_out += 1
        assert f"🏁 Домино: {went_out} " in mine.text
        assert "🏆 " in mine.text and "🐐" not in mine.text
        sheet = await service.sheet(GROUP, "all_fives", 1, 1, Lang.RU)
        last = first.results[-1]
        mover = f"Игрок {games[0].seats[last.outcome.seat].user_id}"
        assert f"Раунд {last.round_no} · цель набрана: {mover}" in sheet.text
        assert "«цель набрана» — ход довёл счёт до цели" in sheet.text
        assert f"Игрок 2 🏆: итог {first.scores[1].recorded}, рейтинг +" in sheet.text
        english = await service.sheet(GROUP, "all_fives", 1, 1, Lang.EN)
        assert f"Round {last.round_no} · target reached by {mover}" in english.text
    finally:
        await db.close()


async def stored_game(tx: Transaction, game: GameRecord) -> GameRecord:
    """`game` as the bot keeps it, a row of its own (its id the database's), recorded."""
    lobby = await repo.create_game(
        tx,
        chat_id=game.chat_id,
        creator_id=game.creator_id,
        ruleset=game.ruleset,
        seats_wanted=game.seats_wanted,
        seats=game.seats,
    )
    kept = await repo.save_game(tx, dataclasses.replace(game, id=lobby.id, version=lobby.version))
    assert await record(tx, kept)
    return kept


async def test_the_sheet_calls_a_match_won_by_the_naked_goat_by_its_name(
    tmp_path: Path,
) -> None:
    """M-4: a Морской козёл match won by going out on `0-0` shows its last round as
    «голый козёл», not as a plain «домино» that wrote up to the target; a match won
    otherwise keeps «домино»."""
    rules = find_variant("sea_kozel").ruleset
    db = await open_database(tmp_path / "sea.sqlite3")
    try:
        async with db.transaction() as tx:
            await repo.upsert_chat(tx, ChatRecord(GROUP.id, "supergroup", GROUP.title))
            for user_id in (1, 2):
                await repo.upsert_user(tx, UserRecord(user_id, f"Игрок {user_id}"))
            naked = await stored_game(tx, finished(1, GROUP.id, (1, 2), rules))
            plain = await stored_game(tx, finished(13, GROUP.id, (1, 2), rules))
        for game, won_by_last_tile in ((naked, True), (plain, False)):
            assert game.match is not None and game.match.won_by_last_tile() is won_by_last_tile
        service = StatsService(db)
        assert naked.match is not None and plain.match is not None
        last = naked.match.results[-1]
        winner = f"Игрок {naked.seats[last.outcome.seat].user_id}"
        sheet = await service.sheet(GROUP, "sea_kozel", naked.id, 1, Lang.RU)
        lines = sheet.text.split("\n")
        said = f"Раунд {last.round_no} · голый козёл: {winner}, домино пустышкой"
        assert said in lines
        assert sum("голый козёл" in line for line in lines) == 1  # the last round only
        english = await service.sheet(GROUP, "sea_kozel", naked.id, 1, Lang.EN)
        assert f"naked goat: {winner} went out on the double blank" in english.text
        other = await service.sheet(GROUP, "sea_kozel", plain.id, 1, Lang.RU)
        ended = plain.match.results[-1]
        mover = f"Игрок {plain.seats[ended.outcome.seat].user_id}"
        assert f"Раунд {ended.round_no} · домино: {mover}" in other.text
        assert "голый" not in other.text
    finally:
        await db.close()
