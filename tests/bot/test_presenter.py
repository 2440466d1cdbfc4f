"""The presenter's lobby, settings and confirmation screens by value, without Telegram:
the exact texts people read and every button's text and callback data."""

from __future__ import annotations

import dataclasses

import pytest
from aiogram.types import InlineKeyboardMarkup

from bot.app.usecases.lobby_options import with_option
from bot.telegram import presenter
from bot.telegram.callbacks import LobbyOption, SettingsSection
from bot.telegram.delivery import seat_names
from bot.telegram.presenter.lobby import PLAYABLE, game_named, games_list, playable_games
from bot.telegram.presenter.rules import rules_text
from bot.telegram.presenter.settings import SECTIONS, section_keyboard, section_text
from domino.rules import CLASSIC, KOZEL, FishMode
from domino.timing import TurnTimer
from domino.variants import VARIANTS, find_variant
from i18n import Lang, t
from storage.records import ChatSettings, GameRecord, GameStatus, HandsPlace, SeatRecord

MASHA = SeatRecord(0, 1, "Маша")
OLEG = SeatRecord(1, 2, "Олег <3")
COMPUTER = SeatRecord(2, None, "🤖 Компьютер 1")


def buttons(markup: InlineKeyboardMarkup | None) -> list[list[tuple[str, str]]]:
    """A keyboard as rows of (text, callback data)."""
    assert markup is not None
    return [[(b.text, b.callback_data or "") for b in row] for row in markup.inline_keyboard]


def lobby(*seats: SeatRecord, wanted: int = 2, **rules: object) -> GameRecord:
    return GameRecord(
        id=7,
        chat_id=-100,
        status=GameStatus.LOBBY,
        creator_id=1,
        ruleset=dataclasses.replace(KOZEL, **rules),  # type: ignore[arg-type]
        seats_wanted=wanted,
        seats=seats,
    )


# --- the lobby -------------------------------------------------------------------------


def test_a_fresh_lobby_shows_the_rules_the_creator_and_how_to_join() -> None:
    assert presenter.lobby_text(lobby(MASHA), Lang.RU, hands=HandsPlace.PRIVATE) == (
        "🎲 <b>Домино: Козёл</b>\n"
        "\n"
        "Игроков: 2 · игра до 101\n"
        "Рыба: на одного · открыть счёт: 13\n"
        "\n"
        "<b>Игроки (1/2):</b>\n"
        "👤 Маша\n"
        "\n"
        "Нажмите «Играю», чтобы сесть за стол. Кости придут вам в личку.\n"
        "Начать игру, менять правила и убирать игроков могут её создатель и админы чата."
    )
    # A group showing hands in the group (the default): people play right there.
    for hands in (HandsPlace.GROUP, HandsPlace.BOTH):
        assert presenter.lobby_text(lobby(MASHA), Lang.RU, hands=hands).splitlines()[-2] == (
            "Нажмите «🙋 Играю», чтобы сесть за стол. Играем прямо здесь: ваши кости — под "
            "столом, кнопка «✋ Мои кости»; открывать чат со мной не нужно."
        )


def test_a_fresh_lobby_has_every_control_each_with_its_action() -> None:
    assert buttons(presenter.lobby_keyboard(lobby(MASHA), Lang.RU)) == [
        [("🙋 Играю", "l1:7:j:-"), ("🚪 Выйти", "l1:7:l:-")],
        [("🤖 Добавить компьютер", "l1:7:c:-")],
        [("🎲 Игра: Козёл", "l1:7:o:v")],
        [("👥 Игроков: 2", "l1:7:o:n"), ("🎯 До 101", "l1:7:o:g")],
        [("🐟 Рыба: на одного", "l1:7:o:f"), ("🔓 Открыть с 13", "l1:7:o:h")],
        [("🚫 Убрать игрока", "l1:7:r:-")],
        [("▶️ Начать", "l1:7:s:-"), ("✖️ Отменить", "l1:7:x:-")],
    ]


def test_a_lobby_of_four_in_teams_with_a_computer_and_the_rule_of_13_off() -> None:
    game = lobby(MASHA, OLEG, COMPUTER, wanted=4, teams=True, open_threshold=0)
    text = presenter.lobby_text(game, Lang.RU)
    assert "Рыба: на одного · открыть счёт: нет\nПары: 2×2, партнёры напротив\n" in text
    assert "<b>Игроки (3/4):</b>\n👤 Маша\n👤 Олег &lt;3\n🤖 Компьютер 1 · Средний\n" in text
    # Who plays with whom, before the start (seats opposite: 1+3, 2+4; a free seat «…»).
    assert "\n🤝 Пары: Маша + 🤖 Компьютер 1 · Олег &lt;3 + …\n" in text
    # A computer seated in Russian is named in the group's language (people as they are).
    english = presenter.lobby_text(game, Lang.EN)
    assert "🤝 Pairs: Маша + 🤖 Computer 1 · Олег &lt;3 + …" in english
    assert "🤖 Computer 1 · Medium\n" in english and "Компьютер" not in english
    rows = buttons(presenter.lobby_keyboard(game, Lang.RU))
    assert rows[3:6] == [
        [("👥 Игроков: 4", "l1:7:o:n"), ("🎯 До 101", "l1:7:o:g")],
        [("🐟 Рыба: на одного", "l1:7:o:f"), ("🔓 Открыть с нет", "l1:7:o:h")],
        [("🤝 Пары: да", "l1:7:o:t")],
    ]


def test_the_teams_button_says_no_when_four_play_each_for_themselves() -> None:
    game = lobby(MASHA, wanted=4, fish=FishMode.EACH)
    assert "Каждый сам за себя" in presenter.lobby_text(game, Lang.RU)
    rows = buttons(presenter.lobby_keyboard(game, Lang.RU))
    assert ("🐟 Рыба: на всех", "l1:7:o:f") in rows[4]
    assert [("🤝 Пары: нет", "l1:7:o:t")] in rows


def test_a_classic_lobby_has_no_kozel_options_and_nobody_to_remove() -> None:
    game = dataclasses.replace(lobby(COMPUTER), ruleset=CLASSIC)
    assert presenter.lobby_text(game, Lang.EN).splitlines()[:4] == [
        "🎲 <b>Dominoes: Classic</b>",
        "",
        "Players: 2 · game to 100",
        "",
    ]
    assert buttons(presenter.lobby_keyboard(game, Lang.EN)) == [
        [("🙋 Join", "l1:7:j:-"), ("🚪 Leave", "l1:7:l:-")],
        [("🤖 Add a computer player", "l1:7:c:-")],
        [("🎲 Game: Classic", "l1:7:o:v")],
        [("👥 Players: 2", "l1:7:o:n"), ("🎯 To 100", "l1:7:o:g")],
        [("🤖 Computer 1 · Medium", "l1:7:h:2")],
        [("▶️ Start", "l1:7:s:-"), ("✖️ Cancel", "l1:7:x:-")],
    ]


def test_a_closed_lobby_names_the_players_or_says_it_was_called_off() -> None:
    started = dataclasses.replace(lobby(MASHA, OLEG), status=GameStatus.PLAYING)
    assert presenter.lobby_closed_text(started, Lang.RU) == (
        "🎲 <b>Игра началась!</b> Игроки: Маша, Олег &lt;3"
    )
    called_off = dataclasses.replace(lobby(MASHA), status=GameStatus.CANCELLED)
    assert presenter.lobby_closed_text(called_off, Lang.RU) == "✖️ Набор в игру отменён."


def test_the_removal_keyboard_has_one_button_per_person_naming_seat_and_user() -> None:
    game = lobby(MASHA, COMPUTER, OLEG, wanted=3)
    people = game.people
    assert buttons(presenter.removal_keyboard(game, people, Lang.RU)) == [
        [("🚫 Маша", "k1:7:0:1")],
        [("🚫 Олег <3", "k1:7:1:2")],
    ]


def test_a_long_name_is_cut_with_an_ellipsis() -> None:
    assert presenter.short_name("  Вася \n Пупкин ") == "Вася Пупкин"
    assert presenter.short_name("") == "?"
    long = presenter.short_name("я" * 40)
    assert len(long) == 32 and long.endswith("я…")


# --- which game: the lobby's button, /domino's argument, /rules, the group's default -----


def test_the_bot_offers_every_game_in_the_registry_order() -> None:
    assert PLAYABLE == (
        "kozel",
        "classic",
        "sea_kozel",
        "osel",
        "sport",
        "all_fives",
        "threes_and_fives",
        "bergen",
        "dubli",
        "blitz",
        "cross",
        "shesterka",
        "dark",
    )
    assert playable_games() == VARIANTS


def test_a_classic_lobby_names_its_game_in_the_title_and_on_the_game_button() -> None:
    game = dataclasses.replace(lobby(MASHA, OLEG), ruleset=CLASSIC)
    text = presenter.lobby_text(game, Lang.RU)
    assert text.splitlines()[:3] == [
        "🎲 <b>Домино: Классика</b>",
        "",
        "Игроков: 2 · игра до 100",
    ]
    assert "Рыба" not in text
    rows = buttons(presenter.lobby_keyboard(game, Lang.RU))
    assert rows[2] == [("🎲 Игра: Классика", "l1:7:o:v")]


def test_the_game_button_cycles_the_games_with_their_own_default_options() -> None:
    kozel = lobby(MASHA, OLEG, COMPUTER, wanted=4, teams=True, target=125, open_threshold=0)
    classic = with_option(kozel, LobbyOption.GAME)
    assert classic.ruleset == CLASSIC  # the new game's own defaults, no pairs included
    assert (classic.seats_wanted, classic.seats) == (4, kozel.seats)
    back = classic
    for game in VARIANTS[2:]:
        back = with_option(back, LobbyOption.GAME)
        assert back.ruleset == game.ruleset
        assert (back.seats_wanted, back.seats) == (4, kozel.seats)
    back = with_option(back, LobbyOption.GAME)
    assert back.ruleset == KOZEL  # the pairs, 125 and the threshold are gone
    assert with_option(with_option(classic, LobbyOption.TARGET), LobbyOption.TARGET).ruleset == (
        CLASSIC.with_options(target=200)
    )


def test_the_game_button_keeps_three_seats_without_pairs() -> None:
    game = with_option(lobby(MASHA, wanted=3), LobbyOption.GAME)
    assert (game.ruleset, game.seats_wanted) == (CLASSIC, 3)


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("classic", "classic"),
        ("КЛАССИКА", "classic"),
        ("Классика", "classic"),
        (" Classic ", "classic"),
        ("kozel", "kozel"),
        ("Козёл", "kozel"),
        ("козел", "kozel"),
        ("КОЗЁЛ", "kozel"),
        ("Kozel (Goat)", "kozel"),
        ("пятерки", "all_fives"),
        ("All Fives", "all_fives"),
        ("тройки и пятёрки", "threes_and_fives"),
        ("threes_and_fives", "threes_and_fives"),
    ],
)
def test_domino_takes_a_game_by_its_key_or_name_in_any_case(name: str, key: str) -> None:
    game = game_named(name)
    assert game is not None and game.key.value == key


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("muggins", "all_fives"),
        ("Muggins", "all_fives"),
        ("Все пятёрки", "all_fives"),
        ("все пятерки", "all_fives"),
        ("пятёрки", "all_fives"),
        ("all-fives", "all_fives"),
        ("fives and threes", "threes_and_fives"),
        ("Fives & Threes", "threes_and_fives"),
        ("threes and fives", "threes_and_fives"),
        ("пятёрки и тройки", "threes_and_fives"),
        ("Тройки и пятерки", "threes_and_fives"),
        ("doubles", "dubli"),
        ("Dubli", "dubli"),
        ("Doubles (Dubli)", "dubli"),
        ("дубли", "dubli"),
        ("ДУБЛИ", "dubli"),
        ("bergen", "bergen"),
        ("Берген", "bergen"),
        ("goat", "kozel"),
        ("donkey", "osel"),
        ("sea goat", "sea_kozel"),
        ("dark", "dark"),
        ("Втемную", "dark"),
        ("втёмную", "dark"),
        ("в темную", "dark"),
        ("В тёмную", "dark"),
        ("темную", "dark"),
        ("вслепую", "dark"),
        ("blind", "dark"),
        ("In the Dark", "dark"),
    ],
)
def test_domino_takes_the_names_players_use(name: str, key: str) -> None:
    """Besides the key and the bot's own names: what players call the games (All Fives
    is Muggins, threes and fives «Fives and Threes», Дубли «Doubles», Втемную «в темную»
    or «blind»), ё or е."""
    game = game_named(name)
    assert game is not None and game.key.value == key


@pytest.mark.parametrize(
    "name", ["xyz", "", "козёлл", "kozel classic", "1", "fives threes", "doubles dubli", "()"]
)
def test_domino_takes_no_other_word_for_a_game(name: str) -> None:
    assert game_named(name) is None


def test_the_games_are_listed_as_domino_takes_them() -> None:
    assert games_list(Lang.RU).splitlines() == [
        "/domino kozel — Козёл",
        "/domino classic — Классика",
        "/domino sea_kozel — Морской козёл",
        "/domino osel — Осёл",
        "/domino sport — Спортивное",
        "/domino all_fives — Пятёрки",
        "/domino threes_and_fives — Тройки и пятёрки",
        "/domino bergen — Берген",
        "/domino dubli — Дубли",
        "/domino blitz — Блиц",
        "/domino cross — Крест",
        "/domino shesterka — Шестёрка",
        "/domino dark — Втемную",
    ]
    assert games_list(Lang.EN).splitlines()[:2] == [
        "/domino kozel — Kozel (Goat)",
        "/domino classic — Classic",
    ]


def test_the_rules_are_the_games_own_with_the_target_chosen() -> None:
    kozel = rules_text(KOZEL.with_options(target=125), Lang.RU)
    assert kozel.startswith("<b>Козёл</b> — кто первым наберёт 125 очков, тот и козёл.")
    classic = rules_text(CLASSIC.with_options(target=150), Lang.RU)
    assert classic.startswith("<b>Классика</b> — кто первым наберёт 150 очков, тот и победил.")
    assert "6|6" in classic and "25" in classic and "T-" not in classic
    english = rules_text(CLASSIC, Lang.EN)
    assert english.startswith("<b>Classic</b>: whoever first reaches 100 points wins.")


def test_a_groups_default_game_reads_back_and_an_unknown_one_is_kozel() -> None:
    chosen = ChatSettings(default_game="classic")
    assert chosen.to_dict()["default_game"] == "classic"
    assert ChatSettings.from_dict(chosen.to_dict()) == chosen
    assert "default_game" not in ChatSettings().to_dict()
    assert ChatSettings.from_dict({"default_game": "chess"}).default_game == "kozel"
    assert ChatSettings.from_dict({"default_game": 5}).default_game == "kozel"


def test_the_settings_keyboard_marks_the_groups_default_game() -> None:
    settings = ChatSettings(default_game="osel")
    rows = buttons(presenter.settings_keyboard(settings, Lang.RU))
    assert rows[0][0] == ("🎲 Игра", "se1:g")
    rows = buttons(section_keyboard(SettingsSection.GAME, settings, Lang.RU))
    assert rows == [
        [("Козёл", "dg1:kozel"), ("Классика", "dg1:classic")],
        [("Морской козёл", "dg1:sea_kozel"), ("✅ Осёл", "dg1:osel")],
        [("Спортивное", "dg1:sport"), ("Пятёрки", "dg1:all_fives")],
        [("Тройки и пятёрки", "dg1:threes_and_fives"), ("Берген", "dg1:bergen")],
        [("Дубли", "dg1:dubli"), ("Блиц", "dg1:blitz")],
        [("Крест", "dg1:cross"), ("Шестёрка", "dg1:shesterka")],
        [("Втемную", "dg1:dark")],
        [("↩️ Назад", "se1:m")],
    ]
    assert section_text(SettingsSection.GAME, settings, Lang.RU).splitlines()[0] == (
        "🎲 Игра по умолчанию: <b>Осёл</b>"
    )


# --- /settings and the confirmations ---------------------------------------------------


def test_the_settings_text_tells_each_setting_in_force() -> None:
    settings = ChatSettings(
        turn_timer=TurnTimer.S60, group_lang="en", lobby_timeout=0, default_game="bergen"
    )
    assert presenter.settings_text("Дворик", settings, Lang.RU).splitlines() == [
        "⚙️ <b>Настройки «Дворик»</b>",
        "🎲 Игра по умолчанию: <b>Берген</b>",
        "⏱ Таймер хода: <b>60 с</b>",
        "🌐 Язык группы: <b>английский</b>",
        "⌛ Несыгранная игра закрывается через: <b>никогда</b>",
        "💡 Подсказки: <b>вкл</b>",
        "✋ Кости игроков: <b>в группе и в личке</b>",
        "",
        "Менять могут админы чата: кнопка — раздел настроек.",
    ]
    # A group without a language yet names the one the message is shown in.
    unsettled = presenter.settings_text("Yard", ChatSettings(), Lang.EN)
    assert "🌐 Group language: <b>English</b>" in unsettled.splitlines()


def test_the_settings_keyboard_has_a_short_button_a_section_two_a_row() -> None:
    for lang in Lang:
        rows = buttons(presenter.settings_keyboard(ChatSettings(), lang))
        assert [len(row) for row in rows] == [2, 2, 2]
        assert all(len(text) <= 14 for row in rows for text, _ in row), rows
    assert buttons(presenter.settings_keyboard(ChatSettings(), Lang.RU)) == [
        [("🎲 Игра", "se1:g"), ("⏱ Таймер", "se1:t")],
        [("🌐 Язык", "se1:l"), ("⌛ Набор", "se1:w")],
        [("💡 Подсказки", "se1:h"), ("✋ Кости", "se1:p")],
    ]


def test_each_section_marks_the_choice_in_force_two_a_row_and_leads_back() -> None:
    settings = ChatSettings(turn_timer=TurnTimer.S30, group_lang="ru", lobby_timeout=10)
    assert buttons(section_keyboard(SettingsSection.TIMER, settings, Lang.RU)) == [
        [("выключен", "ts1:off")],
        [("✅ 30 с", "ts1:30"), ("60 с", "ts1:60")],
        [("2 мин", "ts1:120"), ("5 мин", "ts1:300")],
        [("спортивный (5 / 20 / 60 с)", "ts1:sport")],
        [("↩️ Назад", "se1:m")],
    ]
    assert buttons(section_keyboard(SettingsSection.LANG, settings, Lang.RU)) == [
        [("✅ 🇷🇺 Русский", "gl1:ru"), ("🇬🇧 English", "gl1:en")],
        [("↩️ Назад", "se1:m")],
    ]
    assert buttons(section_keyboard(SettingsSection.LOBBY, settings, Lang.RU)) == [
        [("никогда", "lt1:0"), ("5 мин", "lt1:5")],
        [("✅ 10 мин", "lt1:10"), ("30 мин", "lt1:30")],
        [("↩️ Назад", "se1:m")],
    ]
    assert buttons(section_keyboard(SettingsSection.HINTS, settings, Lang.RU)) == [
        [("✅ вкл", "hs1:1"), ("выкл", "hs1:0")],
        [("↩️ Назад", "se1:m")],
    ]
    for section in SECTIONS:  # an opened section names its value first, then what it does
        text = section_text(section, settings, Lang.RU)
        assert (
            text.splitlines()[0]
            == presenter.settings_text("Д", settings, Lang.RU).splitlines()[
                1 + SECTIONS.index(section)
            ]
        )
        assert len(text.splitlines()) > 2, section
    language = section_text(SettingsSection.LANG, settings, Lang.RU)
    assert "В личке — каждому на его языке" in language


def test_the_cancel_confirmation_says_yes_or_no_for_the_game() -> None:
    assert buttons(presenter.cancel_confirm_keyboard(7, Lang.RU)) == [
        [("Да, отменить игру", "x1:7:1"), ("Нет, играем дальше", "x1:7:0")]
    ]


def test_the_surrender_confirmation_is_for_one_person_and_who_abandoned_first() -> None:
    assert buttons(presenter.surrender_confirm_keyboard(7, 2, 1, Lang.EN)) == [
        [("🏳 Yes, I give up", "s2:7:2:1:1"), ("No, play on", "s2:7:2:1:0")]
    ]


# --- turn times of a game's own (S-7), help, names a computer plays for -----------------


def test_a_game_timed_by_its_own_rules_says_so_in_the_lobby_unless_the_timer_is_off() -> None:
    sport = dataclasses.replace(lobby(MASHA, wanted=4), ruleset=find_variant("sport").ruleset)
    line = "⏱ Время на ход по правилам спортивного домино: 5, 20 или 60 с"
    for timer in (TurnTimer.S30, TurnTimer.S300, TurnTimer.SPORT):
        assert line in presenter.lobby_text(sport, Lang.RU, timer).splitlines()
    assert "⏱" not in presenter.lobby_text(sport, Lang.RU, TurnTimer.OFF)
    english = presenter.lobby_text(sport, Lang.EN, TurnTimer.S60)
    assert "⏱ Turn times follow sport domino's rules: 5, 20 or 60 s" in english
    # Козёл has no times of its own: its lobby says nothing of them, whatever the timer.
    assert "⏱" not in presenter.lobby_text(lobby(MASHA), Lang.RU, TurnTimer.SPORT)


def test_the_settings_tell_which_game_keeps_its_own_turn_times() -> None:
    settings = ChatSettings(turn_timer=TurnTimer.S60, group_lang=None, lobby_timeout=10)
    text = section_text(SettingsSection.TIMER, settings, Lang.RU)
    own = "⏱ Спортивное: время на ход по своим правилам — 5, 20 или 60 с, если таймер не выключен."
    assert own in text.splitlines()
    english = section_text(SettingsSection.TIMER, settings, Lang.EN)
    assert "5, 20 or 60 s, unless the timer is off." in english


def test_help_names_everything_settings_hold() -> None:
    assert "/settings — настройки группы: язык, игра по умолчанию, таймер хода" in t(
        "help.group", Lang.RU
    )
    assert "/settings — group settings: language, default game, turn timer" in t(
        "help.group", Lang.EN
    )


def test_a_person_a_computer_plays_for_keeps_their_name_as_it_is() -> None:
    away = SeatRecord(1, 2, "Вера", away=True)
    game = dataclasses.replace(lobby(MASHA, away), status=GameStatus.PLAYING)
    assert seat_names(game, Lang.RU) == ["Маша", "Вера (🤖)"]
    assert seat_names(game, Lang.EN) == ["Маша", "Вера (🤖)"]
    assert t("notice.taken_over", Lang.RU, name="Вера") == (
        "🤖 Вера: трижды кончилось время на ход, дальше ходит компьютер."
    )


@pytest.mark.parametrize(("n", "word"), [(1, "раз"), (2, "раза"), (4, "раза"), (5, "раз")])
def test_the_strikes_count_in_russian_plurals(n: int, word: str) -> None:
    assert f"вышло {n} {word} из 3 " in t("hand.strikes", Lang.RU, n=n, limit=3)
