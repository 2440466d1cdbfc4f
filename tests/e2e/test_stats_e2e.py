"""/top, /stats and /history through the fake Telegram with the bot as a process: a whole
match played in a group, more players seeded through `storage.stats.record_match` into the
bot's database file, paging, the pairs' table, a person who left the group, score sheets,
and forged presses that change nothing; per game: a Козёл and a Классика match played in
one group, each game's table behind its button."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.app import standings
from bot.telegram.stats_view import LINE_WIDTH, display_width
from domino import elo
from domino.match import Match
from domino.players import GreedyPlayer
from domino.rules import KOZEL
from domino.simulate import play_match
from domino.variants import find_variant
from domino.views import OutcomeKind
from i18n import Lang, t
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
from tests.e2e.harness import (
    BotProcess,
    assert_hands_private,
    button_data,
    open_game,
    play_until,
    set_group_language,
    settle,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.world import FakeChat, FakeUser, StoredMessage

SEEDED = {  # user id: name; twelve more people for the group's board
    9001: "Очень Длинное Имя Пользователя",
    9002: "👨\u200d👩\u200d👧 Семья",
    9003: "🇷🇺 Ваня",
    9004: "<b>Хакер</b> & Co",
    9005: "Маша",
    9006: "李小龍",
    9007: "Оля 🌸",
    9008: "Петя",
    9009: "Зоя",
    9010: "Гоша",
    9011: "❤️ Лиза",
    9012: "Ян",
}
OTHER_CHAT = -424242
SEEDED_DAY = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def finished(
    game_id: int, chat_id: int, people: Sequence[int], *, seed: int, teams: bool = False
) -> GameRecord:
    """A finished match between greedy players, recorded as if those people played it."""
    ruleset = KOZEL.with_options(teams=True) if teams else KOZEL
    match = play_match(Match.new(ruleset, len(people), seed), [GreedyPlayer()] * len(people))
    ended = SEEDED_DAY + timedelta(hours=game_id - 1000)
    return GameRecord(
        id=game_id,
        chat_id=chat_id,
        status=GameStatus.FINISHED,
        creator_id=people[0],
        ruleset=ruleset,
        seats_wanted=len(people),
        seats=tuple(SeatRecord(seat, uid, SEEDED[uid]) for seat, uid in enumerate(people)),
        match=match,
        started_at=ended - timedelta(minutes=20),
        ended_at=ended,
        ending=Ending.FINISHED,
    )


async def record(tx: Transaction, game: GameRecord) -> bool:
    """Record a finished game as the bot does, counted by its standings."""
    scored = standings.score(game)
    assert scored is not None
    return await stats.record_match(tx, game, scored)


async def seed(database: Path, chat_id: int) -> None:
    """Six two-person matches (each seeded person plays once), a team match of four, and a
    match in another chat; written while the bot runs, as WAL lets a second writer."""
    db = await open_database(database)
    try:
        async with db.transaction() as tx:
            await repo.upsert_chat(tx, ChatRecord(OTHER_CHAT, "group", "Чужая"))
            for user_id, name in SEEDED.items():
                await repo.upsert_user(tx, UserRecord(user_id, name))
            ids = list(SEEDED)
            for n in range(6):
                game = finished(1001 + n, chat_id, ids[2 * n : 2 * n + 2], seed=n)
                assert await record(tx, game)
            team = finished(1007, chat_id, [9005, 9006, 9007, 9008], seed=7, teams=True)
            assert await record(tx, team)
            assert await record(tx, finished(1008, OTHER_CHAT, ids[:2], seed=8))
    finally:
        await db.close()


def table_lines(message: StoredMessage) -> list[str]:
    """The monospace block of a message: the lines between the header and the legend."""
    lines = message.content.split("\n")
    return [line for line in lines[1:] if display_width(line) == LINE_WIDTH]


def board(message: StoredMessage) -> dict[str, list[str]]:
    """Each player's two lines on a /top page, by the name as shown: [name line, counts]."""
    rows = table_lines(message)[3:]
    found: dict[str, list[str]] = {}
    for first, second in zip(rows[::2], rows[1::2], strict=True):
        name = re.sub(r"^\s*\d+ ", "", first.rsplit(maxsplit=2)[0])
        found[name] = [first, second.split()]
    return found


async def ask(chat: FakeChat, sender: FakeUser, command: str, mark: str) -> StoredMessage:
    """`sender` sends `/command` in `chat`; the bot's next message there showing `mark`."""
    after = chat.last_bot_message if chat.bot_messages else None
    await sender.command(None if chat is sender.private_chat else chat, command)
    return await chat.wait_for_message(lambda m: mark in m.content, after=after, timeout=10)


async def test_top_stats_and_history_after_real_and_recorded_matches(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    john = fakegram.add_user("John", username="john", language_code="en")
    game = await open_game(fakegram, [alice, bob], seats=2, title="Двор")
    group = game.group
    await john.join(group)

    # Before any match: a friendly empty board that says how to get on it, in the group's
    # language (set by whoever used the bot here first) though John speaks English.
    empty = await ask(group, john, "top", "🏆")
    assert "в рейтинге этой группы пока никого нет" in empty.content and not empty.buttons
    assert "Сыграйте партию — /domino" in empty.content

    await play_until(
        fakegram, game.people, lambda: any("Козёл —" in m.content for m in group.bot_messages)
    )
    await settle(fakegram)
    match = bot.stored_match()
    points = match.seat_points()
    gains = [max(1, (100 - p + 5) // 10) for p in points]  # K-11 by hand
    goats = {seat for side in match.losers for seat in match.sides[side]}
    stored = bot.stored(
        "SELECT seat, user_id, points, rating_gain, goat FROM stat_seats ORDER BY seat"
    )
    assert stored == [
        (0, alice.id, points[0], gains[0], int(0 in goats)),
        (1, bob.id, points[1], gains[1], int(1 in goats)),
    ]

    # The board after one real match: order by rating, the numbers as computed.
    top = await ask(group, alice, "top", "🏆")
    rows = board(top)
    # Rating first; equal ratings: the better Elo, i.e. fewer points in Козёл.
    order = sorted(range(2), key=lambda seat: (-gains[seat], points[seat], seat))
    assert list(rows) == [("Алиса", "Боб")[seat] for seat in order]
    for seat, name in enumerate(("Алиса", "Боб")):
        first, counts = rows[name]
        assert first.split()[-2] == str(gains[seat])  # rating; then Elo
        goat = int(seat in goats)
        assert counts == ["1", str(goat), f"{100 * (1 - goat)}%", counts[3], str(points[seat])]
    assert {b.text for b in top.buttons} == {"👥 Пары"}  # two rows: no paging

    # Twelve more people recorded: two pages, paged by editing the same message.
    await seed(bot.database, group.id)
    bob.first_name = "Бобби"  # renamed; the bot sees it with his next message
    bob_says = await bob.send(group, "Кто тут козёл?")
    await bob.leave(group)
    bob.first_name = "Борис"  # renamed after leaving: the bot never saw it
    top = await ask(group, alice, "top", "🏆")
    assert "стр. 1/2" in top.content
    page_one = board(top)
    assert len(page_one) == 10
    assert {b.text for b in top.buttons} == {"2 ▶️", "👥 Пары"}
    for line in table_lines(top):
        assert display_width(line) == LINE_WIDTH
    answer = await alice.press(top, text="2 ▶️")
    assert answer.answered and not answer.show_alert
    await group.wait_for_message(lambda m: m is top and "стр. 2/2" in m.content)
    page_two = board(top)
    assert len(page_one) + len(page_two) == 14
    names = set(page_one) | set(page_two)
    assert "Бобби" in names and "Борис" not in names  # left the group, listed as last seen
    assert "<b>Хакер</b> & Co" in names or "<b>Хакер</b> & …" in names
    places = [int(line.split()[0]) for line in table_lines(top)[3::2]]
    assert places == [11, 12, 13, 14]
    assert {b.text for b in top.buttons} == {"◀️ 1", "👥 Пары"}

    # Forged and old presses: politely refused or still working, nothing else changes.
    shown = top.content
    # A page past the end is the service's answer; a page no button could carry (0, a
    # negative, beyond SQLite's range) does not parse at all (bot/telegram/callbacks.py).
    refused = await alice.forge_press(top, "t2:kozel:g:3")
    assert refused.show_alert and "Такой страницы нет" in (refused.text or "")
    for data in ("t2:kozel:g:0", "t2:kozel:g:-5", "t2:kozel:g:99999999999999999999", "t1:g:2"):
        refused = await alice.forge_press(top, data)
        assert refused.show_alert and "устарела" in (refused.text or ""), data
    assert top.content == shown
    old = await alice.press(top, text="2 ▶️", stale=True)  # an old client's button
    assert old.answered and not old.show_alert
    assert top.content == shown

    # The pairs' table of the team match, and back.
    await alice.press(top, text="👥 Пары")
    await group.wait_for_message(lambda m: m is top and "Рейтинг пар" in m.content)
    pairs = table_lines(top)[3:]
    assert len(pairs) == 4  # two pairs, two lines each
    assert "Маша + Оля 🌸" in top.content and "李小龍 + Петя" in top.content
    await alice.press(top, text="👤 Игроки")
    await group.wait_for_message(lambda m: m is top and "стр. 1/2" in m.content)

    # /stats: your own here, someone's by reply, nobody's yet, and across all groups.
    mine = await ask(group, alice, "stats", "📊")
    assert "Алиса" in mine.content and "в «Двор»" in mine.content
    assert f"Партий: 1 · рейтинг: {gains[0]} · Elo:" in mine.content
    await alice.send(group, f"/stats@{fakegram.bot_username}", reply_to=bob_says)
    his = await group.wait_for_message(lambda m: "📊" in m.content, after=mine)
    assert his.content.startswith("📊 Бобби в «Двор»") and f"рейтинг: {gains[1]}" in his.content
    nobody = await ask(group, john, "stats", "📊")
    assert nobody.content.startswith("📊 John:") and "/domino" in nobody.content
    assert "no recorded" not in nobody.content  # the group's language, not John's
    private = await ask(alice.private_chat, alice, "stats", "📊")
    assert "Алиса во всех группах" in private.content and "Партий: 1" in private.content
    await alice.command(None, "top")
    await alice.private_chat.wait_for_message(lambda m: "/top в группе" in m.content)

    # /history: the real match first (the group's latest of eight: №8), then the recorded
    # ones; open a score sheet and back.
    history = await ask(group, alice, "history", "📜")
    assert "стр. 1/1" in history.content
    first = history.content.split("\n\n")[1]
    assert first.startswith("№8 · ") and "доиграна" in first and "🐐" in first
    rounds = len(match.results)
    assert f" · {rounds} раунд" in first  # 1 раунд, 2 раунда, 5 раундов
    assert [b.text for b in history.buttons][:8] == [f"📋 {n}" for n in range(8, 0, -1)]
    listing = history.content
    await alice.press(history, text="📋 8")
    await group.wait_for_message(lambda m: m is history and "Партия №" in m.content)
    sheet = history.content.split("\n")
    assert sheet[0].startswith("📋 Партия №8 · Козёл до ")
    header = sheet[sheet.index("─" * 31) - 1]
    assert header.split() == ["Алиса", "Бобби"]  # the players by name, as last seen
    names = ("Алиса", "Бобби")
    told = [line for line in sheet if line.startswith("Раунд ")]
    assert told == [
        f"Раунд {r.round_no} · домино: {names[r.outcome.seat]}"
        if r.outcome.kind is OutcomeKind.WENT_OUT
        else f"Раунд {r.round_no} · рыба, рыбак: {names[r.outcome.seat]}"
        for r in match.results
    ]
    totals = [line.split() for line in sheet if line.startswith("счёт ")]
    assert totals and totals[-1] == ["счёт"] + [str(a.recorded) for a in match.scores]
    await alice.press(history, text="↩️ К списку партий")
    await group.wait_for_message(lambda m: m is history and m.content == listing)
    # A recorded match: the number on its button is the number its sheet shows, whatever
    # its game id (1002 here).
    second = history.content.split("\n\n")[-2]
    assert second.startswith("№1 · 01.11.2026 · доиграна")
    await alice.press(history, text="📋 1")
    await group.wait_for_message(lambda m: m is history and "Партия №" in m.content)
    assert history.content.startswith("📋 Партия №1 · Козёл до ")
    assert " · 01.11.2026 · " in history.content.split("\n")[0]
    refused = await alice.forge_press(history, "h2:kozel:1:1008")  # a match of another chat
    assert refused.show_alert and "Такой партии" in (refused.text or "")
    refused = await alice.forge_press(history, "h2:kozel:1:777777")  # no such match at all
    assert refused.show_alert
    await alice.press(history, text="↩️ К списку партий")
    await group.wait_for_message(lambda m: m is history and m.content == listing)

    # The message deleted meanwhile: the press is answered, the failed edit only logged.
    history.deleted = True
    late = await alice.forge_press(history, "h2:kozel:1:0")
    assert late.answered and not late.show_alert
    await settle(fakegram)
    assert "could not be edited: Bad Request: message to edit not found" in bot.log()

    assert_hands_private(fakegram, match, {0: alice.id, 1: bob.id})


async def test_the_board_adds_up_three_whole_matches(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    """Three people play three whole matches in one group through the fake; /top then
    shows each one's K-11 rating, Elo, козёл count and average points as computed here."""
    users = [fakegram.add_user(name, username=login) for name, login in NEIGHBOURS]
    game = await open_game(fakegram, users, seats=3, title="Клуб")
    group, creator = game.group, users[0]
    rating = {user.id: 0 for user in users}
    goats = {user.id: 0 for user in users}
    points_sum = {user.id: 0 for user in users}
    ratings = {user.id: elo.START for user in users}
    for played in range(3):
        if played:
            await open_next_game(group, users, seats=3)
        await play_until(
            fakegram,
            game.people,
            lambda n=played: sum("🐐 Козёл —" in m.content for m in group.bot_messages) > n,
        )
        await settle(fakegram)
        match = bot.stored_match()
        assert match.over
        seated = [int(str(user_id)) for (user_id,) in bot.stored(LAST_GAME_SEATS)]
        points = match.seat_points()
        losers = {seat for side in match.losers for seat in match.sides[side]}
        after = elo.updated(
            [ratings[user_id] for user_id in seated], elo.places(points, fewer_is_better=True)
        )
        for seat, user_id in enumerate(seated):
            rating[user_id] += max(1, (100 - points[seat] + 5) // 10)  # K-11 by hand
            goats[user_id] += int(seat in losers)
            points_sum[user_id] += points[seat]
            ratings[user_id] = after[seat]
        if not played:  # the privacy check reads the whole transcript: one match in it
            assert_hands_private(fakegram, match, dict(enumerate(seated)))

    top = await ask(group, creator, "top", "🏆")
    rows = board(top)
    assert set(rows) == {name for name, _ in NEIGHBOURS}
    by_name = {user.first_name: user.id for user in users}
    shown_ratings = [rating[by_name[name]] for name in rows]
    assert shown_ratings == sorted(shown_ratings, reverse=True)  # rating first
    for name, (first, counts) in rows.items():
        user_id = by_name[name]
        shown_rating, shown_elo = first.split()[-2:]
        assert int(shown_rating) == rating[user_id]
        assert abs(int(shown_elo) - ratings[user_id]) <= 0.5 + 1e-9
        assert counts[:2] == ["3", str(goats[user_id])]
        assert counts[2] == f"{round(100 * (3 - goats[user_id]) / 3 + 1e-9)}%"
        assert int(counts[4]) == int(points_sum[user_id] / 3 + 0.5)


NEIGHBOURS = (("Аня", "anya"), ("Вова", "vova"), ("Гена", "gena"))
LAST_GAME_SEATS = (
    "SELECT user_id FROM seats WHERE game_id = (SELECT max(id) FROM games) ORDER BY seat"
)


async def open_next_game(group: FakeChat, users: Sequence[FakeUser], *, seats: int) -> None:
    """The next match in the same group: /domino, the seats set, everyone joins, start."""
    creator = users[0]
    before = group.last_bot_message
    await creator.command(group, "domino")
    lobby = await group.wait_for_message(lambda m: "Игроки" in m.content, after=before)
    while f"Игроков: {seats}" not in lobby.content:
        shown = lobby.content
        await creator.press(lobby, data=button_data(lobby, "👥"))
        await group.wait_for_message(lambda m, shown=shown: m is lobby and m.content != shown)
    for user in users[1:]:
        answer = await user.press(lobby, data=button_data(lobby, "Играю"))
        assert answer.answered and answer.url is None, answer
    await group.wait_for_message(lambda m: m is lobby and f"({seats}/{seats})" in m.content)
    answer = await creator.press(lobby, data=button_data(lobby, "Начать"))
    assert answer.answered and not answer.show_alert, answer


async def test_each_game_has_its_own_table_behind_its_button(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    """A Козёл match, then a Классика match, in one group: /top opens at the group's
    default game (Козёл) with a button for Классика, which switches the same message to
    Классика's table; /history and /stats likewise; forged presses change nothing."""
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(fakegram, [alice, bob], seats=2, title="Клуб")
    group = game.group
    await play_until(
        fakegram, game.people, lambda: any("Козёл —" in m.content for m in group.bot_messages)
    )
    await settle(fakegram)
    kozel = bot.stored_match()
    assert kozel.ruleset.variant.value == "kozel" and kozel.over

    before = group.last_bot_message
    await alice.command(group, "domino", "classic")
    lobby = await group.wait_for_message(lambda m: "Классика" in m.content, after=before)
    while "Игроков: 2" not in lobby.content:
        shown = lobby.content
        await alice.press(lobby, data=button_data(lobby, "👥"))
        await group.wait_for_message(lambda m, shown=shown: m is lobby and m.content != shown)
    answer = await bob.press(lobby, data=button_data(lobby, "Играю"))
    assert answer.answered and answer.url is None, answer
    await group.wait_for_message(lambda m: m is lobby and "(2/2)" in m.content)
    answer = await alice.press(lobby, data=button_data(lobby, "Начать"))
    assert answer.answered and not answer.show_alert, answer
    await play_until(
        fakegram, game.people, lambda: any("Победа —" in m.content for m in group.bot_messages)
    )
    await settle(fakegram)
    classic = bot.stored_match()
    assert classic.ruleset.variant.value == "classic" and classic.over
    assert bot.stored("SELECT variant FROM stat_matches ORDER BY game_id") == [
        ("kozel",),
        ("classic",),
    ]

    # /top: Козёл first (the group's default game), its ratings; Классика one press away.
    top = await ask(group, alice, "top", "🏆")
    assert "· Козёл ·" in top.content and "Коз" in top.content
    rows = board(top)
    for seat, name in enumerate(("Алиса", "Боб")):
        assert rows[name][0].split()[-2] == str(kozel.rating()[seat])
        assert rows[name][1][0] == "1"  # one match of Козёл each
    assert [b.text for b in top.buttons] == ["👥 Пары", "✅ Козёл", "Классика"]
    answer = await alice.press(top, text="Классика")
    assert answer.answered and not answer.show_alert
    await group.wait_for_message(lambda m: m is top and "· Классика ·" in m.content)
    rows = board(top)
    winners = {seat for side in classic.winners for seat in classic.sides[side]}
    for seat, name in enumerate(("Алиса", "Боб")):
        first, counts = rows[name]
        assert first.split()[-2] == str(classic.rating()[seat])
        assert counts[:2] == ["1", str(int(seat in winners))]  # matches, wins
    assert "Поб" in top.content and "Коз" not in top.content and "козл" not in top.content
    assert "Рейт — рейтинг" in top.content
    assert [b.text for b in top.buttons] == ["👥 Пары", "Козёл", "✅ Классика"]

    # Forged presses: a game that does not exist, a table forged onto the lobby message.
    shown = top.content
    refused = await alice.forge_press(top, "t2:nope:g:1")
    assert refused.show_alert and "Такой игры" in (refused.text or "")
    for data in ("t2:Kozel:g:1", "t2:kozel_kozel_kozel:g:1"):  # not a key's form at all
        refused = await alice.forge_press(top, data)
        assert refused.show_alert and "устарела" in (refused.text or ""), data
    assert top.content == shown
    lobby_text = lobby.content
    refused = await alice.forge_press(lobby, "t2:kozel:g:1")
    assert refused.show_alert and "устарела" in (refused.text or "")
    await settle(fakegram)
    assert lobby.content == lobby_text and top.content == shown

    # /history: Козёл's matches, then Классика's, and its sheet goes back to Классика.
    history = await ask(group, bob, "history", "📜")
    assert "· Козёл ·" in history.content and history.content.count("🐐") == 1
    await bob.press(history, text="Классика")
    await group.wait_for_message(lambda m: m is history and "· Классика ·" in m.content)
    assert "🐐" not in history.content and "🏆" in history.content
    await bob.press(history, text="📋 1")
    await group.wait_for_message(lambda m: m is history and "Партия №" in m.content)
    assert "Классика до 100" in history.content
    await bob.press(history, text="↩️ К списку партий")
    await group.wait_for_message(lambda m: m is history and "· Классика ·" in m.content)

    # /stats: Alice's Козёл, her Классика by the button; nobody else's by a forged one.
    mine = await ask(group, alice, "stats", "📊")
    assert "· Козёл" in mine.content.split("\n")[0] and "Козлом" in mine.content
    assert "Единственная партия" in mine.content and "Лучшая" not in mine.content
    await alice.press(mine, text="Классика")
    await group.wait_for_message(lambda m: m is mine and "· Классика" in m.content)
    assert "🏆" in mine.content and "Козлом" not in mine.content
    shown = mine.content
    refused = await bob.forge_press(mine, f"st1:kozel:{bob.id}")  # someone else's stats
    assert refused.show_alert and "устарела" in (refused.text or "")
    assert mine.content == shown

    # In the private chat: across all groups, by game too.
    private = await ask(bob.private_chat, bob, "stats", "📊")
    assert "Боб во всех группах · Козёл" in private.content
    await bob.press(private, text="Классика")
    await bob.private_chat.wait_for_message(
        lambda m: m is private and "во всех группах · Классика" in m.content
    )


BEACH_DAY = datetime(2026, 12, 3, 18, 0, tzinfo=UTC)


async def seed_naked_goat(database: Path, chat_id: int, people: Sequence[FakeUser]) -> GameRecord:
    """A Морской козёл match the first person won by going out on `0-0` (M-4), kept as
    the bot keeps a game (its row, the next id) and recorded; written while the bot runs."""
    sea_kozel = find_variant("sea_kozel").ruleset
    match = play_match(Match.new(sea_kozel, 2, 1), [GreedyPlayer()] * 2)
    assert match.won_by_last_tile() and match.results[-1].outcome.seat == 0
    seats = tuple(SeatRecord(seat, user.id, user.first_name) for seat, user in enumerate(people))
    db = await open_database(database)
    try:
        async with db.transaction() as tx:
            for user in people:
                await repo.upsert_user(tx, UserRecord(user.id, user.first_name))
            lobby = await repo.create_game(
                tx,
                chat_id=chat_id,
                creator_id=people[0].id,
                ruleset=sea_kozel,
                seats_wanted=2,
                seats=seats,
            )
            ended = dataclasses.replace(
                lobby,
                status=GameStatus.FINISHED,
                match=match,
                started_at=BEACH_DAY - timedelta(minutes=20),
                ended_at=BEACH_DAY,
                ending=Ending.FINISHED,
            )
            game = await repo.save_game(tx, ended)
            assert await record(tx, game)
    finally:
        await db.close()
    return game


async def test_history_numbers_a_match_as_its_sheet_does_and_names_the_naked_goat(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    """A lobby closed unplayed, then a Морской козёл match won by going out on `0-0`
    (M-4): /history lists it as the group's match №1 and its sheet says №1 too, not the
    game's id; the sheet's columns are the players' names, and its last round says
    «голый козёл» rather than leaving a bare +125 to guess at; in English likewise, with
    the date as English writes it."""
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    john = fakegram.add_user("John", username="john", language_code="en")
    group = fakegram.add_group("Пляж", members=[alice, bob, john], admins=[alice])
    await alice.command(group, "domino", "sea_kozel")
    lobby = await group.wait_for_message(lambda m: "Игроки" in m.content)
    answer = await alice.press(lobby, data=button_data(lobby, "Отменить"))
    assert answer.answered and not answer.show_alert, answer
    await group.wait_for_message(lambda m: m is lobby and "Набор в игру отменён" in m.content)
    game = await seed_naked_goat(bot.database, group.id, (alice, bob))
    assert game.id == 2 and game.match is not None  # the closed lobby took id 1
    last = game.match.results[-1]

    history = await ask(group, alice, "history", "📜")
    assert "· Морской козёл ·" in history.content
    ended = t("ending.finished", Lang.RU)
    assert history.content.split("\n\n")[1].startswith(f"№1 · 03.12.2026 · {ended}")
    assert [b.text for b in history.buttons] == ["📋 1"]
    await alice.press(history, text="📋 1")
    await group.wait_for_message(lambda m: m is history and "Партия №" in m.content)
    sheet = history.content.split("\n")
    assert sheet[0].startswith("📋 Партия №1 · Морской козёл до 125 · 03.12.2026")
    assert sheet[sheet.index("─" * 31) - 1].split() == ["Алиса", "Боб"]
    naked = f"Раунд {last.round_no} · голый козёл: Алиса, домино пустышкой"
    told = [line for line in sheet if line.startswith("Раунд ")]
    assert told[-1] == naked and naked not in told[:-1]
    assert sheet[sheet.index(naked) + 1].split() == ["очки", *(f"+{n}" for n in last.points)]

    await set_group_language(group, alice, "en")  # the group's language, whoever asks
    english = await ask(group, john, "history", "📜")
    ended = t("ending.finished", Lang.EN)
    assert english.content.split("\n\n")[1].startswith(f"#1 · 3 Dec 2026 · {ended}")
    await john.press(english, text="📋 1")
    await group.wait_for_message(lambda m: m is english and "Match #" in m.content)
    assert english.content.startswith("📋 Match #1 · Sea Kozel")
    assert f"Round {last.round_no} · naked goat: Алиса went out on the double blank" in (
        english.content.split("\n")
    )
