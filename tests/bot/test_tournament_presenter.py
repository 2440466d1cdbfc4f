"""The tournament's texts and buttons by value (`bot.telegram.presenter.tournament`): the
sign-up message with its options and entrants, the settings, the running round with its
tables and standings, the end with its winner, the announcements, the standings'
picture's rows, /history's and /stats' marks, and the buttons' callback data."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from bot.telegram.callbacks import TournamentAction, TournamentCb
from bot.telegram.presenter import tournament as shown
from bot.telegram.presenter.lobby import lobby_closed_text, lobby_keyboard, lobby_text
from bot.telegram.presenter.tournament import MAIN_MENU, Menu, MenuKind
from bot.telegram.stats_history import tournaments_lines
from bot.telegram.stats_player import tournament_marks
from domino.ai import Level
from domino.rules import find_variant
from domino.tournament import Bye, Format, TableResult
from i18n import Lang
from render.standings import draw_standings
from storage.records import (
    EntrantRecord,
    GameRecord,
    GameStatus,
    SeatRecord,
    TableRecord,
    TableRef,
    TableState,
    TournamentOptions,
    TournamentRecord,
    TournamentStatus,
)

OPTIONS = TournamentOptions(
    game="classic",
    format=Format.ROUND_ROBIN,
    table_size=2,
    pairs=False,
    rounds=None,
    computers=None,
    show_up_minutes=10,
)
PEOPLE = (
    EntrantRecord(0, 101, "Алиса"),
    EntrantRecord(1, 102, "Боб"),
    EntrantRecord(2, 103, "Ева <b>"),
    EntrantRecord(3, 104, "Дима"),
)


def signup(*entrants: EntrantRecord, options: TournamentOptions = OPTIONS) -> TournamentRecord:
    return TournamentRecord(
        id=7,
        chat_id=-100,
        thread_id=None,
        creator_id=101,
        status=TournamentStatus.SIGNUP,
        options=options,
        entrants=entrants,
    )


def won(round_no: int, first: int, second: int) -> TableResult:
    return TableResult(round_no, (first, second), (0, 1), (10.0, -10.0))


def running() -> TournamentRecord:
    """Round 2 of 3 of a round robin of four: round 1 played (Алиса and Ева won), in
    round 2 one table over (Алиса beat Ева), one waiting."""
    tables = (
        TableRecord(1, 1, (0, 1), TableState.DONE, result=won(1, 0, 1)),
        TableRecord(1, 2, (2, 3), TableState.DONE, result=won(1, 2, 3)),
        TableRecord(2, 1, (0, 2), TableState.DONE, result=won(2, 0, 2)),
        TableRecord(2, 2, (1, 3), TableState.OPEN),
        TableRecord(3, 1, (0, 3), TableState.PLANNED),
        TableRecord(3, 2, (1, 2), TableState.PLANNED),
    )
    return dataclasses.replace(
        signup(*PEOPLE),
        status=TournamentStatus.RUNNING,
        tables=tables,
        current_round=2,
    )


def finished() -> TournamentRecord:
    tournament = running()
    tables = tuple(
        TableRecord(
            t.round_no, t.table_no, t.entrants, TableState.DONE, result=won(t.round_no, *t.entrants)
        )
        if t.result is None
        else t
        for t in tournament.tables
    )
    return dataclasses.replace(
        tournament,
        tables=tables,
        status=TournamentStatus.FINISHED,
        current_round=3,
        ended_at=datetime(2026, 12, 6, tzinfo=UTC),
    )


def texts(markup: object) -> list[str]:
    assert markup is not None
    return [button.text for row in markup.inline_keyboard for button in row]  # type: ignore[attr-defined]


def test_the_sign_up_message_says_the_game_its_options_and_who_is_in() -> None:
    text = shown.board_text(signup(*PEOPLE[:3]), "Алиса", Lang.RU)
    assert text.splitlines()[:7] == [
        "🏆 <b>Турнир: Классика</b>",
        "Организатор: Алиса",
        "Формат: круговой",
        "Столы: по 2",
        "Компьютеры: нет",
        "На сбор за столом: 10 мин",
        "",
    ]
    assert "<b>Участники (3):</b>\n1. Алиса\n2. Боб\n3. Ева &lt;b&gt;" in text
    assert "«✅ Участвую»" in text
    assert "пока никого" in shown.board_text(signup(), "Алиса", Lang.RU)
    english = shown.board_text(signup(*PEOPLE[:1]), "Alice", Lang.EN)
    assert "Tournament: Classic" in english and "Entrants (1):" in english


def test_swiss_with_computers_and_pairs_in_words() -> None:
    options = dataclasses.replace(
        OPTIONS, format=Format.SWISS, rounds=3, computers=Level.HARD, show_up_minutes=5
    )
    lines = shown.options_lines(options, Lang.RU)
    assert lines == [
        "Формат: швейцарская система, 3 тура",
        "Столы: по 2",
        "Компьютеры: сильный (добирают последний стол)",
        "На сбор за столом: 5 мин",
    ]
    paired = dataclasses.replace(OPTIONS, game="kozel", pairs=True)
    pairs = (
        EntrantRecord(0, 101, "Алиса", partner_id=102, partner_name="Боб"),
        EntrantRecord(1, 103, "Ева"),
    )
    text = shown.board_text(signup(*pairs, options=paired), "Алиса", Lang.RU)
    assert "Участники (3):</b>\n1. Алиса + Боб\n2. Ева + …" in text
    assert "пара на пару" in text


def test_the_sign_up_buttons_and_the_settings_menu() -> None:
    tournament = signup(*PEOPLE[:2])
    assert texts(shown.board_keyboard(tournament, Lang.RU)) == [
        "✅ Участвую",
        "🚪 Не участвую",
        "⚙️ Настройки",
        "▶️ Начать",
        "✖️ Отменить",
    ]
    settings = shown.board_keyboard(tournament, Lang.RU, Menu(MenuKind.SETTINGS))
    assert texts(settings) == [
        "🎲 Игра: Классика",
        "🏆 Формат: круговой",
        "👥 Столы: по 2",
        "🤖 Компьютеры: нет",
        "⏱ На сбор: 10 мин",
        "↩️ Назад",
    ]
    assert settings is not None
    # Each option's button sets its next value.
    data = [
        TournamentCb.unpack(b.callback_data or "") for row in settings.inline_keyboard for b in row
    ]
    sets = {d.option: d.value for d in data if d.action is TournamentAction.SET}
    assert sets == {"format": "swiss", "table_size": "3", "computers": "easy", "show_up": "30"}
    swiss = dataclasses.replace(
        tournament, options=dataclasses.replace(OPTIONS, format=Format.SWISS, rounds=3)
    )
    assert "🔁 Туров: 3" in texts(shown.board_keyboard(swiss, Lang.RU, Menu(MenuKind.SETTINGS)))
    games = texts(shown.board_keyboard(tournament, Lang.RU, Menu(MenuKind.GAMES)))
    assert "✅ Классика" in games and games[-1] == "↩️ Назад"
    assert "⚙️ Настройки" in shown.board_text(tournament, "Алиса", Lang.RU, Menu(MenuKind.SETTINGS))


def test_the_running_message_shows_the_round_its_tables_and_the_standings() -> None:
    tournament = running()
    text = shown.board_text(tournament, "Алиса", Lang.RU)
    assert (
        "<b>Тур 2 из 3</b>\n"
        "Стол 1 · итог: Алиса 1 · Ева &lt;b&gt; 0\n"
        "Стол 2 · ждём: Боб — Дима\n"
        "\n<b>Положение:</b>\n"
        "1. Алиса — 2\n"
        "2. Ева &lt;b&gt; — 1\n"
        "3. Боб — 0\n"
        "3. Дима — 0"
    ) in text
    assert texts(shown.board_keyboard(tournament, Lang.RU)) == [
        "⏸ Пауза",
        "👤 Убрать участника",
        "✖️ Отменить турнир",
    ]
    paused = dataclasses.replace(tournament, status=TournamentStatus.PAUSED)
    assert texts(shown.board_keyboard(paused, Lang.RU))[0] == "▶️ Продолжить"
    assert "на паузе" in shown.board_text(paused, "Алиса", Lang.RU)
    removal = texts(shown.board_keyboard(tournament, Lang.RU, Menu(MenuKind.REMOVE)))
    assert removal == ["👤 Алиса", "👤 Боб", "👤 Ева <b>", "👤 Дима", "↩️ Назад"]
    confirm = shown.board_keyboard(tournament, Lang.RU, Menu(MenuKind.REMOVE_ONE, 1))
    assert texts(confirm) == ["Да, убрать: Боб", "Нет"]
    assert "Убрать из турнира: Боб?" in shown.board_text(
        tournament, "Алиса", Lang.RU, Menu(MenuKind.REMOVE_ONE, 1)
    )
    assert texts(shown.board_keyboard(tournament, Lang.RU, Menu(MenuKind.CANCEL))) == [
        "Да, отменить",
        "Нет",
    ]
    # A removal naming no entrant of the tournament (forged) shows the usual buttons.
    assert shown.board_keyboard(tournament, Lang.RU, Menu(MenuKind.REMOVE_ONE, 9)) == (
        shown.board_keyboard(tournament, Lang.RU, MAIN_MENU)
    )


def test_the_end_names_the_winner_and_the_message_has_no_buttons() -> None:
    tournament = finished()
    text = shown.board_text(tournament, "Алиса", Lang.RU)
    assert "🏁 <b>Турнир окончен!</b>" in text
    assert "<b>Итоговое положение:</b>\n1. Алиса — 3\n" in text
    assert text.endswith("🏆 Победитель турнира: Алиса")
    assert shown.board_keyboard(tournament, Lang.RU) is None
    assert shown.end_text(tournament, Lang.EN).endswith("🏆 Tournament winner: Алиса")
    cancelled = dataclasses.replace(running(), status=TournamentStatus.CANCELLED)
    assert shown.end_text(cancelled, Lang.RU).endswith("✖️ Турнир отменён.")
    assert shown.winners(cancelled) == []


def test_tied_winners_are_named_together() -> None:
    tables = (
        TableRecord(
            1, 1, (0, 1), TableState.DONE, result=TableResult(1, (0, 1), (0, 0), (0.0, 0.0))
        ),
    )
    tournament = dataclasses.replace(
        signup(*PEOPLE[:2]), tables=tables, status=TournamentStatus.FINISHED, current_round=1
    )
    assert shown.winner_line(tournament, Lang.RU) == "🏆 Победители турнира: Алиса, Боб"
    assert shown.standings_lines(tournament, Lang.RU) == ["1. Алиса — ½", "1. Боб — ½"]


def test_announcements_of_a_round_a_table_and_a_forfeit() -> None:
    tournament = dataclasses.replace(
        running(),
        byes=(Bye(2, 3, 0),),
    )
    round_text = shown.round_text(tournament, 3, Lang.RU)
    assert round_text.startswith(
        "🏆 <b>Турнир · тур 3 из 3</b>\nСтол 1: Алиса — Дима\nСтол 2: Боб — Ева &lt;b&gt;"
    )
    assert "«✅ Я на месте»" in round_text and "10 мин" in round_text
    assert "Без стола в этом туре: Дима" in shown.board_text(tournament, "Алиса", Lang.RU)
    table = tournament.table(2, 1)
    assert table is not None
    done = shown.table_done_text(tournament, table, Lang.RU)
    assert done.startswith(
        "🏁 <b>Тур 2 · стол 1</b>: Алиса 1 · Ева &lt;b&gt; 0\n\n<b>Положение:</b>\n1. Алиса — 2"
    )
    absent = TableResult(2, (1, 3), (1, 0), (0.0, 0.0), frozenset({1}))
    forfeited = TableRecord(2, 2, (1, 3), TableState.DONE, result=absent, absent=frozenset({1}))
    assert shown.forfeit_text(tournament, forfeited, Lang.RU) == (
        "⌛ Тур 2 · стол 2: нет на месте — Боб. Засчитано поражение."
    )
    assert shown.topic_title(2, 1, Lang.RU) == "🏆 Тур 2 · стол 1"


def test_the_standings_picture_rows_follow_the_standings() -> None:
    tournament = finished()
    picture = shown.standings_picture(tournament, Lang.RU, final=True)
    assert [(r.place, r.name, r.points, r.played, r.firsts) for r in picture.rows][:2] == [
        (1, "Алиса", "3", 3, 3),
        (2, "Боб", "2", 3, 2),
    ]
    assert picture.final and picture.subtitle == "Итоги" and picture.tiebreak_heading == ""
    highlighted = shown.standings_picture(running(), Lang.RU, highlight=(0, 2))
    assert {r.name for r in highlighted.rows if r.highlight} == {"Алиса", "Ева <b>"}
    assert highlighted.subtitle == "Тур 2 из 3 · круговой"
    assert draw_standings(picture, Lang.RU).startswith(b"\x89PNG")


def test_history_and_stats_marks() -> None:
    tournament = finished()
    lines = tournaments_lines([tournament], Lang.RU)
    assert lines[1:] == ["🏆 <b>Турниры</b>", "06.12.2026 · Классика · 🏆 Алиса"]
    assert tournaments_lines([], Lang.RU) == []
    assert shown.marks_of([tournament, tournament], 101) == (2, 2)
    assert shown.marks_of([tournament], 102) == (1, 0)
    assert shown.marks_of([tournament], 999) == (0, 0)
    assert tournament_marks(3, 1, Lang.RU) == "🏆 Турниров: 3, побед: 1"


@pytest.mark.parametrize("action", list(TournamentAction))
def test_callback_data_round_trips_under_64_bytes(action: TournamentAction) -> None:
    data = TournamentCb(
        tournament=2**63 - 1, action=action, option="table_size", value="threes_and_fives"
    ).pack()
    assert len(data.encode()) <= 64
    assert TournamentCb.unpack(data).action is action


def test_forged_callback_data_does_not_parse() -> None:
    for forged in ("tr1:-1:j:-:", "tr1:1:z:-:", "tr1:1:v:format:SWISS", "tr1:1:e:-:²"):
        with pytest.raises(ValueError):
            TournamentCb.unpack(forged)
    assert TournamentCb.unpack("tr1:1:e:-:12").entrant == 12
    assert TournamentCb.unpack("tr1:1:e:-:").entrant is None


def test_a_tables_lobby_says_whom_it_waits_for_and_asks_them_alone() -> None:
    tournament = running()
    game = GameRecord(
        id=9,
        chat_id=-100,
        status=GameStatus.LOBBY,
        creator_id=101,
        ruleset=find_variant("dubli").ruleset,
        seats_wanted=2,
        seats=(SeatRecord(0, 104, "Дима"),),
        tournament=TableRef(7, 2, 2),
    )
    waiting = shown.waiting_names(tournament, game, Lang.RU)
    assert waiting == ["Боб"]
    text = lobby_text(game, Lang.RU, waiting=waiting)
    assert text.startswith("🏆 <b>Турнир · тур 2 · стол 2</b> — ждём: Боб\n")
    assert "«✅ Я на месте»" in text and "Играю" not in text
    assert lobby_text(game, Lang.RU).startswith("🏆 <b>Турнир · тур 2 · стол 2</b> — все на месте")
    keyboard = lobby_keyboard(game, Lang.RU)
    assert [b.text for row in keyboard.inline_keyboard for b in row] == ["✅ Я на месте"]
    closed = dataclasses.replace(game, status=GameStatus.CANCELLED)
    assert lobby_closed_text(closed, Lang.RU) == "⌛ Стол закрыт без партии."


def test_the_table_button_offers_the_games_own_sizes_then_pairs() -> None:
    assert shown.table_choices(dataclasses.replace(OPTIONS, game="kozel")) == (
        "2",
        "3",
        "4",
        "pairs",
    )
    assert shown.table_choices(dataclasses.replace(OPTIONS, game="sport")) == ()
    paired = signup(options=dataclasses.replace(OPTIONS, game="kozel", pairs=True))
    settings = shown.board_keyboard(paired, Lang.RU, Menu(MenuKind.SETTINGS))
    assert settings is not None
    table = next(
        TournamentCb.unpack(b.callback_data or "")
        for row in settings.inline_keyboard
        for b in row
        if b.text == "👥 Столы: пары"
    )
    assert (table.option, table.value) == ("pairs", "off")
    four = signup(options=dataclasses.replace(OPTIONS, game="kozel", table_size=4))
    settings = shown.board_keyboard(four, Lang.RU, Menu(MenuKind.SETTINGS))
    assert settings is not None
    table = next(
        TournamentCb.unpack(b.callback_data or "")
        for row in settings.inline_keyboard
        for b in row
        if b.text == "👥 Столы: по 4"
    )
    assert (table.option, table.value) == ("pairs", "on")
    sport = signup(options=dataclasses.replace(OPTIONS, game="sport", pairs=True))
    assert not any(
        "Столы" in text
        for text in texts(shown.board_keyboard(sport, Lang.RU, Menu(MenuKind.SETTINGS)))
    )


def test_pairs_form_in_sign_up_order_while_signing_up() -> None:
    """Each person signs up alone; the message pairs them as the start will (1st with
    2nd, 3rd with 4th), and a pair of the winners is «Победители»."""
    paired = dataclasses.replace(OPTIONS, game="kozel", pairs=True)
    text = shown.board_text(signup(*PEOPLE, options=paired), "Алиса", Lang.RU)
    assert "Участники (4):</b>\n1. Алиса + Боб\n2. Ева &lt;b&gt; + Дима\n" in text
    pairs = (
        EntrantRecord(0, 101, "Алиса", partner_id=102, partner_name="Боб"),
        EntrantRecord(1, 103, "Вера", partner_id=104, partner_name="Дима"),
    )
    tables = (TableRecord(1, 1, (0, 1), TableState.DONE, result=won(1, 0, 1)),)
    over = dataclasses.replace(
        signup(*pairs, options=paired),
        tables=tables,
        status=TournamentStatus.FINISHED,
        current_round=1,
    )
    assert shown.winner_line(over, Lang.RU) == "🏆 Победители турнира: Алиса + Боб"


def test_a_tables_result_shows_the_standings_of_its_round_and_who_was_not_there() -> None:
    """Гоша removed in round 2: his round-3 table was decided as round 3 was drawn, in the
    same transaction as round 2's last result. Round 2's result shows round 2's
    standings (not Ева's round-3 point), says who lost without playing, and marks the
    one out of the tournament with no place; round 3's announcement says its table was
    not played."""
    out = dataclasses.replace(PEOPLE[3], withdrawn_round=3)
    no_show = TableResult(2, (1, 3), (0, 1), (0.0, 0.0), frozenset({3}))
    walkover = TableResult(3, (2, 3), (0, 1), (0.0, 0.0), frozenset({3}))
    tables = (
        TableRecord(1, 1, (0, 1), TableState.DONE, result=won(1, 0, 1)),
        TableRecord(1, 2, (2, 3), TableState.DONE, result=won(1, 3, 2)),
        TableRecord(2, 1, (0, 2), TableState.DONE, result=won(2, 0, 2)),
        TableRecord(2, 2, (1, 3), TableState.DONE, result=no_show, absent=frozenset({3})),
        TableRecord(3, 1, (0, 1), TableState.DUE),
        TableRecord(3, 2, (2, 3), TableState.DONE, result=walkover, absent=frozenset({3})),
    )
    tournament = dataclasses.replace(
        signup(PEOPLE[0], PEOPLE[1], PEOPLE[2], out),
        status=TournamentStatus.RUNNING,
        tables=tables,
        current_round=3,
    )
    table = tournament.table(2, 2)
    assert table is not None
    done = shown.table_done_text(tournament, table, Lang.RU)
    assert done.splitlines()[:2] == [
        "🏁 <b>Тур 2 · стол 2</b>: Боб 1 · Дима 0",
        "Нет на месте: Дима — поражение без игры.",
    ]
    # Round 2's standings: Ева has no point yet (her walkover is round 3's).
    assert done.splitlines()[3:] == [
        "<b>Положение:</b>",
        "1. Алиса — 2",
        "2. Боб — 1",
        "3. Ева &lt;b&gt; — 0",
        "— Дима (вне турнира) — 1",
    ]
    picture = shown.standings_picture(tournament, Lang.RU, highlight=(1, 3), upto_round=2)
    assert picture.subtitle == "Тур 2 из 3 · круговой"
    assert [(r.place, r.name, r.played) for r in picture.rows] == [
        (1, "Алиса", 2),
        (2, "Боб", 1),
        (3, "Ева <b>", 2),
        (None, "Дима", 1),
    ]
    announced = shown.round_text(tournament, 3, Lang.RU)
    assert "Стол 1: Алиса — Боб\nСтол 2: Ева &lt;b&gt; 1 · Дима 0 — без игры\n" in announced
