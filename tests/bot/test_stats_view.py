"""The screens of /top, /stats and /history: alignment by display width, paging buttons,
score sheets, both languages."""

from __future__ import annotations

import dataclasses
import html
import re
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.telegram import stats_view as view
from bot.telegram.callbacks import HistoryCb, StatsCb, TopCb, TopScope
from domino.rules import Variant
from domino.variants import VARIANTS, GameVariant, find_variant
from domino.views import OutcomeKind
from i18n import Lang, t
from storage.records import Ending
from storage.stats import (
    HistoryEntry,
    HistoryPlayer,
    LeaderRow,
    MatchLine,
    MatchSheet,
    Page,
    PairRow,
    PlayerStats,
    SheetRound,
)

FAMILY = "👨\u200d👩\u200d👧"  # one picture from three emoji joined by ZWJ
FLAG = "🇷🇺"  # two regional indicator letters
NAMES = (
    "Алиса Иванова",
    "Боб 🐐🔥",
    f"{FAMILY} Семья",
    f"{FLAG} Ваня",
    "Очень длинное имя человека, который любит домино",
    "<b>&amp; Hacker</b>",
    "Zoë e\u0301",  # a combining acute accent
    "李小龍",
    "❤️ Маша",  # a heart made an emoji by VS16
    "👍🏽 Thumbs",  # a skin tone modifier
    "\u202eevil\u202c name\n2",  # a bidi override and a newline
)
DAY = datetime(2026, 11, 29, 18, 45, tzinfo=UTC)
KOZEL = find_variant("kozel")
CLASSIC = find_variant("classic")


def pre_lines(text: str) -> list[str]:
    """The lines of the text's <pre> block as the reader sees them (HTML unescaped)."""
    match = re.search(r"<pre>(.*?)</pre>", text, re.S)
    assert match, text
    return html.unescape(match.group(1)).split("\n")


def leader(place: int, name: str, **values: object) -> LeaderRow:
    fields: dict[str, object] = {
        "rating": 100 - place,
        "elo": 1000 + place,
        "matches": 10 + place,
        "goats": place % 4,
        "fish_made": place % 3,
        "avg_points": 40.5 + place,
    }
    fields.update(values)
    return LeaderRow(place=place, user_id=place, name=name, **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "width"),
    [
        ("", 0),
        ("Алиса", 5),
        ("Ёжик", 4),
        ("🐐", 2),
        (FAMILY, 2),
        (FLAG, 2),
        (FLAG + FLAG, 4),
        ("❤️", 2),
        ("❤", 1),
        ("e\u0301", 1),
        ("中文", 4),
        ("👍🏽", 2),
        ("1️⃣", 2),
        ("🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f", 2),  # England
        ("…", 1),
    ],
)
def test_display_width_counts_columns_as_a_phone_draws_them(text: str, width: int) -> None:
    assert view.display_width(text) == width


def test_truncation_keeps_a_joined_emoji_whole_and_marks_the_cut() -> None:
    assert view.truncate(FAMILY * 3, 5) == FAMILY * 2 + "…"
    assert view.truncate(FAMILY * 3, 4) == FAMILY + "…"
    assert view.truncate("Алиса", 5) == "Алиса"
    assert view.truncate("Алиса Иванова", 6) == "Алиса…"
    assert view.truncate(FLAG + "abc", 2) == "…"


def test_names_lose_control_and_bidi_characters() -> None:
    assert view.clean_name("\u202eevil\u202c name\n2") == "evil name 2"
    assert view.clean_name("  \t ") == "?"


@settings(max_examples=150, deadline=None)
@given(
    name=st.lists(
        st.sampled_from([*"Аяёabc <&>", "🐐", FAMILY, FLAG, "❤️", "\u0301", "中", "👍🏽", "\u200d"]),
        max_size=30,
    ).map("".join),
    width=st.integers(min_value=2, max_value=20),
)
def test_a_padded_cell_is_exactly_its_width(name: str, width: int) -> None:
    cell = view.pad(view.clean_name(name), width)
    assert view.display_width(cell) == width
    right = view.pad(view.clean_name(name), width, right=True)
    assert view.display_width(right) == width


@pytest.mark.parametrize("lang", list(Lang))
def test_the_players_table_lines_up_whatever_the_names(lang: Lang) -> None:
    rows = tuple(leader(place, name) for place, name in enumerate(NAMES[:10], start=1))
    text = view.leaderboard_text(Page(rows, 23, 0, 10), "Двор <&>", KOZEL, lang)
    lines = pre_lines(text)
    assert len(lines) == 3 + 2 * len(rows)
    assert {view.display_width(line) for line in lines} == {view.LINE_WIDTH}
    for row, line in zip(rows, lines[3::2], strict=True):
        assert line.endswith(f"{row.rating:>6}{row.elo:>6}")
        assert line.startswith(f"{row.place:>3} ")
    for row, line in zip(rows, lines[4::2], strict=True):
        share = f"{round((row.matches - row.goats) * 100 / row.matches)}%"
        assert line.split() == [
            str(row.matches),
            str(row.goats),
            share,
            str(row.fish_made),
            str(int(row.avg_points + 0.5)),
        ]
    assert "Двор &lt;&amp;&gt;" in text  # the chat's title is escaped too
    assert "&lt;b&gt;&amp;amp; Hacker…" in text  # the raw name is cut, then escaped
    assert "<b>&amp;" not in text.split("<pre>")[1]
    assert FAMILY in text and FLAG in text
    assert "1/3" in text
    header = "Игрок" if lang is Lang.RU else "Player"
    assert header in lines[0]


def test_a_player_without_elo_shows_a_dash_and_the_share_rounds_half_up() -> None:
    row = leader(1, "Алиса", elo=None, matches=8, goats=1, fish_made=0, avg_points=60.5)
    lines = pre_lines(view.leaderboard_text(Page((row,), 1, 0, 10), "Двор", KOZEL, Lang.RU))
    assert lines[3].endswith("     —")
    assert lines[4].split() == ["8", "1", "88%", "0", "61"]  # 87.5 % -> 88 %


@pytest.mark.parametrize("lang", list(Lang))
def test_the_table_says_the_rating_and_how_matches_went_as_the_game_counts(lang: Lang) -> None:
    """Where points are good the columns are the wins and their share, with no козёл;
    where they are bad, the game's loser; the rating column says it is the rating."""
    row = leader(1, "Алиса", matches=8, goats=3, wins=5, fish_made=0, avg_points=60.0)
    page = Page((row,), 1, 0, 10)
    classic = view.leaderboard_text(page, "Двор", CLASSIC, lang)
    kozel = view.leaderboard_text(page, "Двор", KOZEL, lang)
    assert pre_lines(classic)[4].split() == ["8", "5", "63%", "0", "60"]
    assert pre_lines(kozel)[4].split() == ["8", "3", "63%", "0", "60"]  # not козёл: 5 of 8
    if lang is Lang.RU:
        assert "Классика" in classic and "Поб" in pre_lines(classic)[1]
        assert "Коз" not in classic and "козлом" not in classic
        assert "Козёл" in kozel and "Коз" in pre_lines(kozel)[1] and "козлом" in kozel
        assert "Рейт" in pre_lines(kozel)[0] and "Очки" not in kozel
        assert "Рейт — рейтинг" in kozel
    else:
        assert "Won" in pre_lines(classic)[1] and "goat" not in classic.lower()
        assert "Rating" in pre_lines(kozel)[0] and "Rtg" not in kozel


@pytest.mark.parametrize("lang", list(Lang))
def test_the_pairs_table_lines_up_and_gives_way_to_the_shorter_name(lang: Lang) -> None:
    rows = (
        PairRow(1, (1, 2), ("Алиса Иванова-Петрова", "Боб"), 20, 4, 1, 50.0),
        PairRow(2, (3, 4), (FAMILY + " Семья", FLAG), 12, 2, 2, 101.0),
        PairRow(3, (5, 6), ("Очень длинное имя", "И ещё длиннее имя"), 7, 1, 0, 12.4),
    )
    lines = pre_lines(view.pairs_text(Page(rows, 3, 0, 10), "Двор", KOZEL, lang))
    assert {view.display_width(line) for line in lines} == {view.LINE_WIDTH}
    assert "+ Боб" in lines[3]
    assert "Алиса Иванова-П… + Боб" in lines[3]
    assert "Очень дл… + И ещё дли…" in lines[7]
    assert lines[4].split() == ["4", "1", "75%", "50"]


def test_empty_tables_say_how_to_start() -> None:
    empty: Page[LeaderRow] = Page((), 0, 0, 10)
    assert "/domino" in view.leaderboard_text(empty, "Двор", KOZEL, Lang.RU)
    assert view.leaderboard_text(empty, "Двор", CLASSIC, Lang.RU).startswith("🏆 Классика:")
    assert "/domino" in view.leaderboard_text(empty, "Двор", KOZEL, Lang.EN)
    assert "2×2" in view.pairs_text(Page((), 0, 0, 10), "Двор", KOZEL, Lang.RU)
    assert "/domino" in view.history_text(Page((), 0, 0, 10), "Двор", KOZEL, Lang.EN)


@pytest.mark.parametrize(
    ("offset", "buttons"),
    [
        (0, ["2 ▶️"]),
        (10, ["◀️ 1", "3 ▶️"]),
        (20, ["◀️ 2"]),
    ],
)
def test_paging_buttons_past_ten_rows_name_their_page(offset: int, buttons: list[str]) -> None:
    page: Page[LeaderRow] = Page((leader(offset + 1, "A"),), 23, offset, 10)
    keyboard = view.top_keyboard(page, Variant.KOZEL, TopScope.PLAYERS, (Variant.KOZEL,), Lang.RU)
    paging, switch = keyboard.inline_keyboard
    assert [b.text for b in paging] == buttons
    for button in paging:
        assert button.callback_data is not None
        data = TopCb.unpack(button.callback_data)
        assert data.scope is TopScope.PLAYERS and data.game == "kozel"
        assert str(data.page) in button.text
    assert switch[0].text == "👥 Пары"
    pairs = TopCb(game="kozel", scope=TopScope.PAIRS, page=1)
    assert TopCb.unpack(switch[0].callback_data or "") == pairs


def test_ten_rows_or_fewer_have_no_paging_and_pairs_switch_back() -> None:
    page: Page[PairRow] = Page((), 0, 0, 10)
    keyboard = view.top_keyboard(page, Variant.CLASSIC, TopScope.PAIRS, (), Lang.EN)
    assert [[b.text for b in row] for row in keyboard.inline_keyboard] == [["👤 Players"]]
    assert keyboard.inline_keyboard[0][0].callback_data == "t2:classic:g:1"


def test_the_other_games_with_records_are_buttons_with_the_shown_one_marked() -> None:
    page: Page[LeaderRow] = Page((leader(1, "A"),), 1, 0, 10)
    games = (Variant.KOZEL, Variant.CLASSIC)
    keyboard = view.top_keyboard(page, Variant.CLASSIC, TopScope.PAIRS, games, Lang.RU)
    switch, row = keyboard.inline_keyboard
    assert [b.text for b in switch] == ["👤 Игроки"]
    assert [b.text for b in row] == ["Козёл", "✅ Классика"]
    assert [b.callback_data for b in row] == ["t2:kozel:p:1", "t2:classic:p:1"]
    # The game shown is marked even without records, when others have them.
    only_classic = view.top_keyboard(
        page, Variant.KOZEL, TopScope.PLAYERS, (Variant.CLASSIC,), Lang.RU
    )
    assert [b.text for b in only_classic.inline_keyboard[-1]] == ["✅ Козёл", "Классика"]
    history = view.history_keyboard(Page((), 0, 0, 10), Variant.KOZEL, games, Lang.RU)
    assert history is not None
    assert [b.callback_data for b in history.inline_keyboard[-1]] == [
        "h2:kozel:1:0",
        "h2:classic:1:0",
    ]
    mine = view.stats_keyboard(Variant.KOZEL, games, 42, Lang.EN)
    assert mine is not None
    assert [StatsCb.unpack(b.callback_data or "") for b in mine.inline_keyboard[0]] == [
        StatsCb(game="kozel", user=42),
        StatsCb(game="classic", user=42),
    ]
    assert view.stats_keyboard(Variant.KOZEL, (Variant.KOZEL,), 42, Lang.EN) is None


def test_every_game_with_records_fits_rows_a_phone_shows() -> None:
    """Nine games with records are rows of three, in the registry's
    order, the shown one marked; Telegram takes at most 8 buttons a row."""
    games = tuple(game.key for game in VARIANTS)
    page: Page[LeaderRow] = Page((leader(1, "A"),), 1, 0, 10)
    keyboard = view.top_keyboard(page, Variant.ALL_FIVES, TopScope.PLAYERS, games, Lang.RU)
    rows = keyboard.inline_keyboard[1:]
    assert [len(row) for row in rows] == [3] * (len(games) // 3) + (
        [len(games) % 3] if len(games) % 3 else []
    )
    names = [b.text for row in rows for b in row]
    assert names == [
        ("✅ " if game.key is Variant.ALL_FIVES else "") + view.game_name(game, Lang.RU)
        for game in VARIANTS
    ]
    assert "✅ Пятёрки" in names
    mine = view.stats_keyboard(Variant.KOZEL, games, 42, Lang.RU)
    assert mine is not None and all(len(row) <= 3 for row in mine.inline_keyboard)


def test_page_numbers_that_exist() -> None:
    assert view.page_exists(1, 0)
    assert view.page_exists(3, 23) and not view.page_exists(4, 23)
    assert not view.page_exists(0, 23) and not view.page_exists(-1, 23)
    assert view.page_exists(2, 20) and not view.page_exists(3, 20)


def stats_of(**values: object) -> PlayerStats:
    fields: dict[str, object] = {
        "user_id": 1,
        "name": "Алиса <3",
        "chat_id": -100,
        "matches": 8,
        "rating": 61,
        "elo": 1012,
        "goats": 2,
        "went_out": 14,
        "fish_made": 3,
        "eggs_taken": 1,
        "best": MatchLine(1, -100, DAY, 12, 9, False),
        "worst": MatchLine(2, -100, DAY - timedelta(days=3), 104, 0, True),
        "streak": 3,
        "game": Variant.KOZEL,
        "wins": 1,
    }
    fields.update(values)
    return PlayerStats(**fields)  # type: ignore[arg-type]


def test_personal_stats_show_every_number_in_russian() -> None:
    text = view.player_stats_text(stats_of(), "Двор", Lang.RU)
    assert text.splitlines() == [
        "📊 <b>Алиса &lt;3</b> в «Двор» · Козёл",
        "Партий: 8 · рейтинг: 61 · Elo: 1012",
        "🐐 Козлом 2 раза (25% партий)",
        "🏁 Домино: 14 раз",
        "🐟 Рыб сделано: 3",
        "🥚 Яиц забрано: 1",
        "👍 Лучшая партия: итог 12, 29.11.2026 (рейтинг +9)",
        "👎 Худшая партия: итог 104, 26.11.2026 (рейтинг +0) 🐐",
        "🔥 Не козлом 3 партии подряд",
    ]


@pytest.mark.parametrize("game", [Variant.ALL_FIVES, Variant.BERGEN, Variant.CLASSIC])
@pytest.mark.parametrize("lang", list(Lang))
def test_stats_say_nothing_of_eggs_a_game_does_not_have(game: Variant, lang: Lang) -> None:
    """Eggs are Козёл's and Морской козёл's (a tied fish): no «Яиц забрано: 0» elsewhere;
    in English a blocked round of All Fives or Bergen is a block, Классика's a fish."""
    text = view.player_stats_text(stats_of(game=game, eggs_taken=0), "Двор", lang)
    assert "🥚" not in text and "Яиц" not in text and "Eggs" not in text
    blocked = "🐟 Рыб сделано: 3" if lang is Lang.RU else "🐟 Fish made: 3"
    if lang is Lang.EN and game is not Variant.CLASSIC:
        blocked = "🧱 Rounds blocked: 3"
    assert blocked in text.splitlines()


def test_english_tables_and_sheets_call_a_blocked_round_as_the_game_does() -> None:
    page = Page((leader(1, "Alice"),), 1, 0, 10)
    games = (
        (Variant.BERGEN, "blocked by Боб &lt;b&gt;", "Blocks"),
        (Variant.KOZEL, "fish, fisherman: Боб &lt;b&gt;", "Fish"),
    )
    for game, said, header in games:
        board = view.leaderboard_text(page, "Yard", find_variant(game.value), Lang.EN)
        assert header in board.split("\n")[2].split()  # the counts' headers, a whole word
        sheet_text = view.sheet_text(dataclasses.replace(sheet(), variant=game), Lang.EN)
        assert f"Round 2 · {said}" in sheet_text
    bergen = view.sheet_text(dataclasses.replace(sheet(), variant=Variant.BERGEN), Lang.EN)
    assert "fish" not in bergen.lower()
    assert "Blk" not in view.leaderboard_text(page, "Yard", find_variant("bergen"), Lang.EN)


def test_eggs_taken_are_told_and_none_taken_not() -> None:
    assert "🥚 Яиц забрано: 2" in view.player_stats_text(stats_of(eggs_taken=2), None, Lang.RU)
    assert "🥚" not in view.player_stats_text(stats_of(eggs_taken=0), None, Lang.RU)


@pytest.mark.parametrize(
    ("goats", "streak", "lines"),
    [
        (1, 5, ("🐐 Козлом 1 раз (13% партий)", "🔥 Не козлом 5 партий подряд")),
        (5, -2, ("🐐 Козлом 5 раз (63% партий)", "🐐 Козлом 2 партии подряд")),
        (0, 21, ("🐐 Козлом 0 раз (0% партий)", "🔥 Не козлом 21 партию подряд")),
    ],
)
def test_russian_counts_take_their_plural_forms(
    goats: int, streak: int, lines: tuple[str, str]
) -> None:
    text = view.player_stats_text(stats_of(goats=goats, streak=streak), "Двор", Lang.RU)
    assert set(lines) <= set(text.splitlines())


def test_where_points_are_good_stats_count_wins_and_no_goat() -> None:
    classic = stats_of(game=Variant.CLASSIC, wins=3, goats=2, streak=-4)
    text = view.player_stats_text(classic, "Двор", Lang.RU)
    assert "· Классика" in text.splitlines()[0]
    assert "🏆 3 победы (38% партий)" in text
    assert "Без побед 4 партии подряд" in text
    assert "🐐" not in text and "озл" not in text
    wins = view.player_stats_text(stats_of(game=Variant.CLASSIC, wins=1, streak=2), None, Lang.EN)
    assert "🏆 Won 1 match (13%)" in wins and "🔥 2 wins in a row" in wins


def test_one_match_is_shown_once_and_no_streak_of_one() -> None:
    only = MatchLine(5, -100, DAY, 37, 6, False)
    text = view.player_stats_text(
        stats_of(matches=1, best=only, worst=only, streak=1), "Двор", Lang.RU
    )
    assert "📋 Единственная партия: итог 37, 29.11.2026 (рейтинг +6)" in text
    assert "Лучшая" not in text and "Худшая" not in text and "подряд" not in text
    same = view.player_stats_text(stats_of(best=only, worst=only), "Двор", Lang.EN)
    assert "Every match earned +6 rating; the latest: final score 37, 29 Nov 2026" in same
    assert "Best match" not in same


def test_personal_stats_across_groups_in_english_with_a_goat_streak() -> None:
    text = view.player_stats_text(stats_of(chat_id=None, elo=None, streak=-2), None, Lang.EN)
    assert text.startswith("📊 <b>Алиса &lt;3</b> across all groups · Kozel (Goat)")
    assert "Elo: —" in text
    assert "🐐 The goat in each of the last 2 matches" in text
    assert "🏁 Went out: 14" in text.splitlines()  # no «Domino: 14 times»
    assert "no recorded matches in this group" in view.no_stats_text("Боб", True, Lang.EN)
    assert "/domino" in view.no_stats_text("Боб", False, Lang.RU)


@pytest.mark.parametrize(
    ("lang", "late_november", "second_of_january"),
    [(Lang.RU, "30.11.2026", "02.01.2026"), (Lang.EN, "30 Nov 2026", "2 Jan 2026")],
)
def test_dates_are_utc_days_as_the_language_writes_them(
    lang: Lang, late_november: str, second_of_january: str
) -> None:
    moscow = timezone(timedelta(hours=3))
    assert view.day(datetime(2026, 12, 1, 1, 30, tzinfo=moscow), lang) == late_november
    assert view.day(datetime(2026, 1, 2, 23, 59), lang) == second_of_january  # naive: UTC
    months = [view.day(datetime(2026, month, 3, tzinfo=UTC), Lang.EN) for month in range(1, 13)]
    assert [day.split()[1] for day in months] == [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
    ]  # fmt: skip


PLAYERS = (
    HistoryPlayer("Алиса", 1, 45, False, 6),
    HistoryPlayer("Боб <b>", 2, 103, True, 0),
    HistoryPlayer("🤖 Компьютер 1", None, 60, False, 4),
)


def entry(number: int, ending: Ending = Ending.FINISHED) -> HistoryEntry:
    """The group's match `number`, whose game id (500 more) is not that number: ids count
    every lobby of every group."""
    return HistoryEntry(500 + number, DAY, Variant.KOZEL, ending, 9, PLAYERS, number)


@pytest.mark.parametrize("lang", list(Lang))
def test_history_lists_matches_with_date_players_goat_and_ending(lang: Lang) -> None:
    page = Page((entry(2), entry(1, Ending.LEFT)), 12, 10, 10)
    text = view.history_text(page, "Двор", KOZEL, lang)
    number, date = ("№", "29.11.2026") if lang is Lang.RU else ("#", "29 Nov 2026")
    assert f"<b>{number}2</b> · {date}" in text and f"<b>{number}1</b> · {date}" in text
    assert ("9 раундов" if lang is Lang.RU else "9 rounds") in text
    computer = "🤖 Компьютер 1" if lang is Lang.RU else "🤖 Computer 1"  # in the reader's words
    assert f"Алиса 45 · Боб &lt;b&gt; 🐐 103 · {computer} 60" in text
    assert ("уход игрока" if lang is Lang.RU else "a player left") in text
    assert ("· Козёл ·" if lang is Lang.RU else "· Kozel (Goat) ·") in text.splitlines()[0]
    assert "2/2" in text
    keyboard = view.history_keyboard(page, Variant.KOZEL, (Variant.KOZEL,), lang)
    assert keyboard is not None
    sheets, paging = keyboard.inline_keyboard
    assert [b.text for b in sheets] == ["📋 2", "📋 1"]  # the numbers the list shows
    assert [HistoryCb.unpack(b.callback_data or "") for b in sheets] == [
        HistoryCb(game="kozel", page=2, match=502),
        HistoryCb(game="kozel", page=2, match=501),
    ]
    assert [(b.text, b.callback_data) for b in paging] == [("◀️ 1", "h2:kozel:1:0")]


def test_where_points_are_good_history_marks_the_winner() -> None:
    players = (HistoryPlayer("Алиса", 1, 104, False, 7, True), HistoryPlayer("Боб", 2, 30, True, 1))
    page = Page((HistoryEntry(3, DAY, Variant.CLASSIC, Ending.FINISHED, 1, players, 1),), 1, 0, 10)
    text = view.history_text(page, "Двор", CLASSIC, Lang.RU)
    assert "Алиса 🏆 104 · Боб 30" in text and "1 раунд" in text


def test_a_full_history_page_puts_five_sheet_buttons_a_row() -> None:
    page = Page(tuple(entry(100 - i) for i in range(10)), 10, 0, 10)
    keyboard = view.history_keyboard(page, Variant.KOZEL, (), Lang.RU)
    assert keyboard is not None
    assert [len(row) for row in keyboard.inline_keyboard] == [5, 5]


def sheet(teams: bool = False) -> MatchSheet:
    sides = ((0, 2), (1, 3)) if teams else ((0,), (1,), (2,))
    width = len(sides)
    players = PLAYERS + ((HistoryPlayer("Гоша", 4, 103, True, 0),) if teams else ())
    rounds = (
        SheetRound(1, OutcomeKind.WENT_OUT, 0, (0, 12, 25)[:width], (0, 12, 25)[:width], 0),
        SheetRound(2, OutcomeKind.FISH, 1, (0, 0, 0)[:width], (0, 12, 25)[:width], 30),
        SheetRound(3, OutcomeKind.WENT_OUT, 2, (45, 91, 0)[:width], (45, 103, 25)[:width], 0),
    )
    return MatchSheet(507, -100, Variant.KOZEL, 101, teams, DAY, DAY, Ending.FINISHED, players,
                      sides, rounds, 7)  # fmt: skip


@pytest.mark.parametrize("lang", list(Lang))
@pytest.mark.parametrize("teams", [False, True])
def test_the_score_sheet_shows_every_round_aligned(lang: Lang, teams: bool) -> None:
    """The columns are headed by the players' names, each round says how it ended and
    by whom, and its two rows say what they hold: no seat numbers to look up."""
    text = view.sheet_text(sheet(teams), lang)
    lines = pre_lines(text)
    ru = lang is Lang.RU
    rows = ("очки", "счёт") if ru else ("round", "total")
    table = [lines[0], lines[1], *(line for line in lines if line.startswith(rows))]
    assert len({view.display_width(line) for line in table}) == 1
    assert max(view.display_width(line) for line in table) <= view.LINE_WIDTH
    computer = "🤖 Компьютер 1" if ru else "🤖 Computer 1"  # in the reader's words
    assert lines[2] == ("Раунд 1 · домино: Алиса" if ru else "Round 1 · Алиса went out")
    assert lines[5] == (
        "Раунд 2 · рыба, рыбак: Боб <b>" if ru else "Round 2 · fish, fisherman: Боб <b>"
    )
    assert lines[8] == (
        "яйца +30 — в следующий раунд" if ru else "eggs +30 carried to the next round"
    )
    assert lines[9] == (f"Раунд 3 · домино: {computer}" if ru else f"Round 3 · {computer} went out")
    sides = len(sheet(teams).sides)
    assert lines[3].split() == [rows[0], "+0", "+12", "+25"][: 1 + sides]
    assert lines[-1].split() == [rows[1], "45", "103", "25"][: 1 + sides]
    header = lines[0].split()
    assert header == (
        ["Алиса+🤖", "1", "Боб", "<b>+Гоша"] if teams else ["Алиса", "Боб", "<b>", "🤖", "1"]
    )
    assert "Боб &lt;b&gt; 🐐" in text
    assert ("№7" if ru else "#7") in text and "507" not in text  # the group's number
    assert ("Алиса: итог 45, рейтинг +6" if ru else "Алиса: final score 45, rating +6") in text
    assert f"{computer}: " in text and "60, " not in text  # a computer has no rating
    assert "N»" not in text and "N”" not in text  # no legend of numbers


def test_four_players_share_the_sheet_by_names_a_column_holds() -> None:
    """Four single players get narrow columns: a long name is shortened to a word, a
    computer to its number, so that no two columns read alike."""
    players = (
        HistoryPlayer("Алиса Иванова", 1, 45, False, 6),
        HistoryPlayer("🤖 Компьютер 1", None, 60, False, 0),
        HistoryPlayer("Очень длинное имя", 2, 130, True, 0),
        HistoryPlayer("🤖 Компьютер 2", None, 20, False, 0),
    )
    rounds = (SheetRound(1, OutcomeKind.WENT_OUT, 3, (0, 40, 130, 0), (0, 40, 130, 0), 0),)
    four = dataclasses.replace(sheet(), players=players, sides=((0,), (1,), (2,), (3,)),
                               rounds=rounds)  # fmt: skip
    for lang in Lang:
        lines = pre_lines(view.sheet_text(four, lang))
        assert {view.display_width(line) for line in lines[:2] + lines[3:]} == {29}
        assert lines[0].split() == ["Алиса", "🤖", "1", "Очень", "🤖", "2"]
    assert lines[2] == "Round 1 · 🤖 Computer 2 went out"


def test_the_sheet_goes_back_to_the_page_it_came_from() -> None:
    keyboard = view.sheet_keyboard(Variant.CLASSIC, 3, Lang.RU)
    assert keyboard.inline_keyboard[0][0].callback_data == "h2:classic:3:0"
    assert keyboard.inline_keyboard[0][0].text == "↩️ К списку партий"


def test_a_very_long_match_keeps_its_latest_rounds_within_one_message() -> None:
    rounds = tuple(
        SheetRound(n, OutcomeKind.FISH, 1, (0, 0, 0), (0, 12, 25), 30 if n % 2 else 0)
        for n in range(1, 151)
    )
    long = dataclasses.replace(sheet(), rounds=rounds)
    text = view.sheet_text(long, Lang.RU)
    assert len(text.encode("utf-16-le")) // 2 <= view.TEXT_LIMIT
    lines = pre_lines(text)
    shown = [int(line.split()[1]) for line in lines if line.startswith("Раунд")]
    assert shown == list(range(151 - len(shown), 151)) and 25 < len(shown) < 150
    assert f"Первые раунды ({150 - len(shown)}) не поместились" in text
    assert "не поместились" not in view.sheet_text(sheet(), Lang.RU)


def test_the_sheet_tells_of_remembered_points_only_in_games_with_the_rule_of_13() -> None:
    assert "запоминаются" in view.sheet_text(sheet(), Lang.RU)
    classic = dataclasses.replace(sheet(), variant=Variant.CLASSIC)
    assert "запоминаются" not in view.sheet_text(classic, Lang.RU)


@pytest.mark.parametrize("lang", list(Lang))
@pytest.mark.parametrize("game", VARIANTS, ids=lambda game: game.key.value)
def test_every_game_has_its_screens_in_its_own_words(game: GameVariant, lang: Lang) -> None:
    """Each game's table, stats, history and sheet: the loser's word only where points
    are bad (Осёл's is the осёл, not the козёл), wins where they are good."""
    key = game.key
    board = view.leaderboard_text(Page((leader(1, "Алиса"),), 1, 0, 10), "Двор", game, lang)
    pairs = view.pairs_text(Page((PairRow(1, (1, 2), ("А", "Б"), 3, 2, 1, 9.0, 1),), 1, 0, 10),
                            "Двор", game, lang)  # fmt: skip
    mine = view.player_stats_text(stats_of(game=key, streak=-3), "Двор", lang)
    history = view.history_text(Page((entry(3),), 1, 0, 10), "Двор", game, lang)
    sheet_text = view.sheet_text(dataclasses.replace(sheet(), variant=key), lang)
    texts = (board, pairs, mine, history, sheet_text)
    name = view.game_name(game, lang)
    assert all(name in text for text in texts)
    goat = ("козлом", "🐐") if lang is Lang.RU else ("the goat", "🐐")
    donkey = ("ослом", "🐴") if lang is Lang.RU else ("the donkey", "🐴")
    marks = {"kozel": (goat, donkey), "osel": (donkey, goat)}
    own, other = marks.get(key.value, ((), goat + donkey))
    for text in texts:
        assert not any(word in text.lower() for word in other), text
    if own:  # the word in the table and /stats, the mark in /stats and the history
        assert own[0] in board.lower() and own[0] in mine.lower()
        assert own[1] in mine and own[1] in history
    if not game.points_are_bad:
        assert "🏆" in mine and ("Поб" if lang is Lang.RU else "Won") in board


@pytest.mark.parametrize("lang", list(Lang))
@pytest.mark.parametrize("game", VARIANTS, ids=lambda game: game.key.value)
def test_every_games_tables_fit_the_line_with_whole_words_apart(
    game: GameVariant, lang: Lang
) -> None:
    """The counts' columns take their widths from their headers in the reader's language:
    each header keeps a space before it, numbers never run together, and every line is
    LINE_WIDTH wide; English says «Rating», «Blocks», «Donkey», never a clipped «Rtg»,
    «Blk», «Donk»."""
    key = game.key.value
    outcome = (
        (f"top.col_losses.{key}", f"top.col_safe.{key}")
        if game.points_are_bad
        else ("top.col_wins", "top.col_win_share")
    )
    words = [t(k, lang, game=key) for k in ("top.col_matches", *outcome, "top.col_avg")]
    fish = t("top.col_fish", lang, game=key)
    row = leader(1, "Алиса", matches=1234, goats=999, wins=999, fish_made=999, avg_points=999.0)
    board = view.leaderboard_text(Page((row,), 1, 0, 10), "Двор", game, lang)
    pair = PairRow(1, (1, 2), ("А", "Б"), 3, 999, 999, 999.0, 1234)
    pairs = view.pairs_text(Page((pair,), 1, 0, 10), "Двор", game, lang)
    for text, headers in ((board, [*words, fish]), (pairs, words)):
        lines = pre_lines(text)
        assert {view.display_width(line) for line in lines} == {view.LINE_WIDTH}, lines
        assert all(f" {header}" in lines[1] for header in headers), lines[1]
        assert len(lines[4].split()) == len(headers), lines[4]
        if lang is Lang.EN:
            assert not re.search(r"\b(Rtg|Blk|Donk)\b", text), text
    assert t("top.col_rating", lang) in pre_lines(board)[0].split()


def test_a_round_nobody_scored_in_says_why_in_words() -> None:
    """A round whose points are all zero says why instead of a row of bare +0: in
    Морской козёл a winner with under 25 writes nothing (M-1), unless eggs it carries
    on explain it (M-5); in Классика a fish tied for the lowest is a draw (T-5)."""
    rounds = (
        SheetRound(1, OutcomeKind.WENT_OUT, 0, (0, 0), (0, 0), 0),  # too few
        SheetRound(2, OutcomeKind.FISH, 1, (0, 0), (0, 0), 40),  # tied: eggs
        SheetRound(3, OutcomeKind.WENT_OUT, 1, (0, 70), (0, 70), 0),  # eggs taken
    )
    players = PLAYERS[:2]
    two = dataclasses.replace(sheet(), players=players, sides=((0,), (1,)), rounds=rounds)
    sea = dataclasses.replace(two, variant=Variant.SEA_KOZEL)
    lines = pre_lines(view.sheet_text(sea, Lang.RU))
    assert lines[3] == "очки  меньше 25 — не пишется"
    assert lines[6].split() == ["очки", "+0", "+0"] and "яйца +40" in lines[8]
    assert lines[10].split() == ["очки", "+0", "+70"]
    assert "очки under 25, not written" not in view.sheet_text(sea, Lang.EN)
    assert "round under 25, not written" in view.sheet_text(sea, Lang.EN)
    tied = (SheetRound(1, OutcomeKind.FISH, 1, (0, 0), (0, 0), 0),)
    classic = dataclasses.replace(two, variant=Variant.CLASSIC, rounds=tied)
    assert pre_lines(view.sheet_text(classic, Lang.RU))[3] == "очки  ничья, никто не пишет"
    assert "round a draw, nobody scores" in view.sheet_text(classic, Lang.EN)
    eggs = (SheetRound(1, OutcomeKind.FISH, 1, (0, 0), (0, 0), 30),)  # K-9: eggs, no draw
    kozel = dataclasses.replace(two, rounds=eggs)
    assert pre_lines(view.sheet_text(kozel, Lang.RU))[3].split() == ["очки", "+0", "+0"]
