"""The words players read: Russian grammar with real plurals and
names in the nominative, English that is all English, one word for one thing, no rule
ids, names cut by one rule, a lobby that explains its empty table, the «+N» legend."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

import pytest

from bot.app.names import NAME_LIMIT, display_width, pad, short_name, truncate
from bot.telegram.delivery import computer_name, seat_names
from bot.telegram.presenter import round_end_text
from bot.telegram.presenter.lobby import lobby_text
from bot.telegram.presenter.table import Shown, event_text
from domino.actions import Knocked
from domino.variants import find_variant
from domino.views import Account, OutcomeKind, RoundOutcome, RoundResult
from i18n import Lang, t
from storage.records import GameRecord, GameStatus, HandsPlace, SeatRecord
from tests.bot.test_i18n import CATALOGUES, KEYS

NUMBERS = (0, 1, 2, 5, 11, 21, 22, 25, 101)
NAME = "Алиса"
GAME_NAMES_IN_ENGLISH = ("Русский",)
"""The only Cyrillic an English text may hold: the language's own name on its switch
(«🇷🇺 Русский»). The games are written in Latin letters there (Kozel, Osel)."""

# Values of the variables that are not counts, as the code passes them.
WORDS = {
    "name": NAME,
    "names": NAME,
    "partner": NAME,
    "others": NAME,
    "chat": "Двор",
    "game": "kozel",
    "variant": "Козёл",
    "bot": "domino_bot",
    "lines": "Алиса: 12",
    "loser": "🐐 Козёл: Алиса.",
    "tiles": "1|4",
    "tile": "1|4",
    "end": "⬅️ 3",
    "ends": "3 · 5",
    "move": "5|5 на ⬅️ 3",
    "reason": "другого хода нет",
    "scores": "Алиса 12",
    "score": "+12",
    "date": "29.11.2026",
    "ending": "доиграна",
    "outcome": "Коз — раз козлом",
    "state": "вкл",
    "timer": "60 с",
    "lang": "русский",
    "time": "10 мин",
    "level": "Средний",
    "mode": "на одного",
    "games": "/domino kozel — Козёл",
    "goat": " 🐐",
    "share": "25%",
    "threshold": "13",
}
ENGLISH_WORDS = {
    **WORDS,
    "chat": "Yard",
    "name": "Alice",
    "names": "Alice",
    "partner": "Alice",
    "others": "Alice",
    "variant": "Kozel (Goat)",
    "lines": "Alice: 12",
    "loser": "🐐 Goat: Alice.",
    "move": "5|5 on ⬅️ 3",
    "reason": "there is no other move",
    "scores": "Alice 12",
    "ending": "played out",
    "outcome": "Goat — times the goat",
    "state": "on",
    "timer": "60 s",
    "lang": "English",
    "time": "10 min",
    "level": "Medium",
    "mode": "all to the highest hand",
    "games": "/domino kozel — Kozel (Goat)",
    "share": "25%",
}


def rendered(lang: Lang) -> list[tuple[str, int, str]]:
    """Every message of `lang`'s catalogue with every count set to each of NUMBERS."""
    words = WORDS if lang is Lang.RU else ENGLISH_WORDS
    texts = []
    for key in KEYS:
        variables = CATALOGUES[lang][key]
        # A text that picks its words by the game's key: a Russian game's and Bergen's.
        games = (words["game"], "bergen") if "game" in variables else (words["game"],)
        for n in NUMBERS:
            for game in games:
                values = {v: words.get(v, n) for v in variables} | {"game": game}
                if key.startswith("lobby.kozel_options") or key.startswith("btn.opt_fish"):
                    values["fish"] = words["mode"]
                texts.append((key, n, t(key, lang, **values)))
    return texts


TEXTS = {lang: rendered(lang) for lang in Lang}
RULE_ID = re.compile(r"\b[A-Z]-\d+")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")
# A past-tense verb: «вышел», «вернулся», «ушла» (the forms that show a gender).
PAST = re.compile(r"^[а-яё]+(?:л|лся|ла|лась|ло|лось)$")
# «вкл» is the sample `state` (short for «включено»), no verb.
NOT_VERBS = frozenset(
    {"стол", "дубль", "пол", "мол", "угол", "козёл", "осёл", "мало", "было", "вкл"}
)
# Words after which a name would have to change its case («за Боба», «написать Бобу»).
CASE_GOVERNORS = frozenset(
    {"за", "для", "у", "к", "с", "со", "от", "о", "об", "по", "при", "без", "из", "написать"}
)


@pytest.mark.parametrize("lang", list(Lang))
def test_no_abbreviated_or_wrong_plural_points(lang: Lang) -> None:
    for key, n, text in TEXTS[lang]:
        assert "очк." not in text, (key, n, text)
        assert "101 очков" not in text, (key, n, text)
        assert not re.search(r"\b(?:2|22) раз\b(?!а)", text), (key, n, text)
        assert not re.search(r"\b1 points?\b.*\b1 points\b|\b1 points\b", text), (key, n, text)


@pytest.mark.parametrize("lang", list(Lang))
def test_no_rule_ids_in_any_text(lang: Lang) -> None:
    for key, n, text in TEXTS[lang]:
        assert not RULE_ID.search(text), (key, n, text)


def test_english_texts_are_all_english() -> None:
    for key, n, text in TEXTS[Lang.EN]:
        for allowed in GAME_NAMES_IN_ENGLISH:
            text = text.replace(allowed, "")
        assert not CYRILLIC.search(text), (key, n, text)


def _words(text: str) -> list[str]:
    return re.findall(r"[а-яёА-ЯЁ]+", text)


def test_no_gendered_verb_next_to_a_name_in_russian() -> None:
    """«Алиса вернулся», «вышел — Алиса»: the words on either side of a name are no
    past-tense verb, whose ending would give the name a gender."""
    for key, n, text in TEXTS[Lang.RU]:
        if NAME not in CATALOGUES[Lang.RU][key] and NAME not in text:
            continue
        for before, _, after in [text.partition(NAME)]:
            near = _words(before)[-1:] + _words(after)[:1]
            verbs = [w for w in near if PAST.match(w.lower()) and w.lower() not in NOT_VERBS]
            assert not verbs, (key, n, text)


def test_no_past_tense_about_people_in_russian() -> None:
    """No masculine past tense about a player anywhere: «вышел», «вернулся», «ушёл»."""
    gendered = re.compile(r"\b(?:вышел|вернулся|ушёл|вышедший|сдался|выложил|покинул)\b")
    for key, n, text in TEXTS[Lang.RU]:
        assert not gendered.search(text.lower()), (key, n, text)


def test_a_name_is_never_after_a_word_that_would_decline_it() -> None:
    """«Компьютер играет за Боб», «Не могу написать Боб»: a name stays in the nominative,
    so it never follows a preposition or a verb that needs another case."""
    for key, n, text in TEXTS[Lang.RU]:
        if NAME not in text:
            continue
        before = text.partition(NAME)[0]
        last = _words(before)[-1:] if re.search(r"[а-яё]\s*$", before) else []
        assert not (last and last[0].lower() in CASE_GOVERNORS), (key, n, text)


@pytest.mark.parametrize(
    ("key", "values", "text"),
    [
        ("rules.kozel", {"target": 101}, "кто первым наберёт 101 очко, тот и козёл"),
        ("rules.kozel", {"target": 125}, "кто первым наберёт 125 очков, тот и козёл"),
        ("rules.kozel", {"target": 22}, "кто первым наберёт 22 очка, тот и козёл"),
        ("hand.strikes", {"n": 2, "limit": 3}, "вышло 2 раза из 3"),
        ("hand.strikes", {"n": 1, "limit": 3}, "вышло 1 раз из 3"),
        ("announce.eggs", {"points": 21}, "21 очко переходит"),
        ("announce.eggs", {"points": 0}, "0 очков переходят"),
        ("announce.too_few", {"points": 25}, "меньше 25 очков"),
        ("announce.too_few", {"points": 21}, "меньше 21 очка"),
        ("announce.remembered", {"threshold": 13}, "счёт открывается с 13 очков"),
        ("stats.went_out", {"n": 22}, "🏁 Домино: 22 раза"),
        ("stats.went_out", {"n": 5}, "🏁 Домино: 5 раз"),
        ("table.tiles", {"n": 21}, "21 кость"),
        ("event.doubles", {"name": "Алиса", "n": 2}, "Алиса кладёт 2 дубля"),
    ],
)
def test_russian_numbers_take_their_plural(key: str, values: dict[str, object], text: str) -> None:
    assert text in t(key, Lang.RU, **values)


@pytest.mark.parametrize(
    ("key", "values", "text"),
    [
        ("announce.eggs", {"points": 1}, "1 point carries over"),
        ("announce.eggs", {"points": 14}, "14 points carry over"),
        ("announce.too_few", {"points": 1}, "fewer than 1 point is"),
        ("announce.remembered", {"threshold": 13}, "scoring opens at 13 points"),
        ("stats.losses.kozel", {"n": 1, "share": "5%"}, "The goat in 1 match (5%)"),
        ("stats.losses.kozel", {"n": 2, "share": "9%"}, "The goat in 2 matches (9%)"),
        ("hand.strikes", {"n": 2, "limit": 3}, "ran out 2 times out of 3"),
        ("sheet.cut", {"n": 1}, "The first round did not fit"),
    ],
)
def test_english_numbers_take_their_plural(key: str, values: dict[str, object], text: str) -> None:
    assert text in t(key, Lang.EN, **values)


def test_names_stay_in_the_nominative_with_no_gender() -> None:
    assert t("notice.unreachable", Lang.RU, name="Боб", bot="b").startswith(
        "⚠️ Боб: не могу написать вам в личку."
    )
    assert t("computer.instead", Lang.RU, name="Боб") == "Боб (🤖)"
    assert t("announce.went_out", Lang.RU, name="Алиса", n=2) == "🏁 Раунд 2: домино — Алиса!"
    assert t("btn.back_in_game", Lang.RU) == "🙋 Я снова играю"
    assert t("notice.back", Lang.RU, name="Алиса") == "🙋 Алиса снова в игре."
    assert t("ending.left", Lang.RU) == "уход игрока"


def test_the_fish_announcement_names_its_round() -> None:
    for game in ("kozel", "bergen"):
        fish = t("announce.fish", Lang.RU, name="Маша", n=4, game=game)
        assert fish == "🐟 Раунд 4: рыба! Рыбак — Маша."
    assert t("announce.fish", Lang.EN, name="Masha", n=4, game="kozel") == (
        "🐟 Round 4: fish! The fisherman is Masha."
    )


@pytest.mark.parametrize("game", ["all_fives", "threes_and_fives", "bergen", "dubli"])
def test_english_calls_a_blocked_round_a_block_in_the_games_that_score_in_play(
    game: str,
) -> None:
    """The Russian «рыба» is «fish» in English only in the Russian games: All Fives,
    Bergen and their kin say «block», in every English text a blocked round is named."""
    assert t("announce.fish", Lang.EN, name="Masha", n=4, game=game) == (
        "🧱 Round 4: blocked! Nobody can move; Masha laid the last tile."
    )
    texts = [
        t("stats.fish", Lang.EN, n=3, game=game),
        t("top.col_fish", Lang.EN, game=game),
        t("top.legend", Lang.EN, outcome="x", game=game),
        t("sheet.fish", Lang.EN, name="Masha", game=game),
        t("hint.reason.fish_win", Lang.EN, game=game),
        t("hint.reason.avoid_fish", Lang.EN, game=game),
        t(find_variant(game).rules_key, Lang.EN, target=61),
    ]
    assert not [text for text in texts if re.search(r"\bfish", text, re.I)], texts
    assert t("sheet.fish", Lang.EN, name="Masha", game=game) == "blocked by Masha"
    assert t("stats.fish", Lang.EN, n=3, game=game) == "🧱 Rounds blocked: 3"


def test_english_is_natural() -> None:
    assert t("fish.max_takes_all", Lang.EN) == "all to the highest hand"
    assert t("top.col_matches", Lang.EN) == "Games"
    knock = Shown(Knocked(seat=0))
    assert event_text(knock, ["Дмитрий"], "kozel", Lang.EN) == "Дмитрий knocks"
    assert event_text(knock, ["Dmitry"], "sport", Lang.EN) == "Dmitry passes"
    assert "Mat " not in t("top.legend", Lang.EN, outcome="x", game="kozel")


def test_one_word_for_one_thing() -> None:
    """Going out is «домино» in the announcement, the score sheet, /stats and the rules;
    the end is «Партия окончена» in texts and pictures; tiles are written «1|4» (the
    rules name one, all but Спортивное's)."""
    from render.labels import word

    assert t("sheet.went_out", Lang.RU, name="Боб") == "домино: Боб"
    assert t("stats.went_out", Lang.RU, n=2) == "🏁 Домино: 2 раза"
    assert word("over", "ru") == t("table.over", Lang.RU).rstrip(".")
    for lang in Lang:
        for key in KEYS:
            if key.startswith("rules."):
                text = t(key, lang, target=101)
                assert not re.search(r"(?<![\d–-])[0-6]-[0-6](?![\d-])", text), (key, text)
                assert re.search(r"[0-6]\|[0-6]", text) or key == "rules.sport", key


def test_a_computer_is_named_once_and_in_the_groups_language() -> None:
    stored = t("computer.name", Lang.RU, n=2)
    assert stored == "🤖 Компьютер 2" and stored.count("🤖") == 1
    assert computer_name(stored, Lang.EN) == "🤖 Computer 2"
    assert computer_name("Боб", Lang.EN) == "Боб"
    game = _lobby([SeatRecord(0, 7, "Боб"), SeatRecord(1, None, stored)], status=GameStatus.PLAYING)
    assert seat_names(game, Lang.EN) == ["Боб", "🤖 Computer 2"]
    assert seat_names(game, Lang.RU) == ["Боб", "🤖 Компьютер 2"]


def test_names_are_cut_by_one_rule_everywhere() -> None:
    long = "Александра Константиновна Воскресенская-Преображенская"
    cut = short_name(long)
    assert display_width(cut) == NAME_LIMIT and cut.endswith("…")
    assert cut == truncate(long, NAME_LIMIT)
    assert pad(long, 16).startswith(cut[:15]) and pad(long, 16).endswith("…")
    family = "👨\u200d👩\u200d👧"
    emoji = short_name(family * 40)
    assert emoji == family * 15 + "…"  # a ZWJ sequence is never cut in half
    assert short_name("a\u202eb") == "ab" and short_name(" \n ") == "?"


def _lobby(seats: list[SeatRecord], status: GameStatus = GameStatus.LOBBY) -> GameRecord:
    return GameRecord(
        id=1,
        chat_id=-100,
        status=status,
        creator_id=7,
        ruleset=find_variant("kozel").ruleset,
        seats_wanted=4,
        seats=tuple(seats),
    )


@pytest.mark.parametrize("lang", list(Lang))
def test_an_empty_lobby_explains_its_empty_table(lang: Lang) -> None:
    for hands, key in (
        (HandsPlace.PRIVATE, "lobby.nobody"),
        (HandsPlace.BOTH, "lobby.nobody_in_group"),
    ):
        empty = lobby_text(_lobby([]), lang, hands=hands)
        assert t(key, lang) in empty
        assert ("Играю" if lang is Lang.RU else "Join") in t(key, lang)
        seated = lobby_text(_lobby([SeatRecord(0, 7, "Боб")]), lang, hands=hands)
        assert t(key, lang) not in seated


def test_the_round_caption_explains_remembered_points_once() -> None:
    from tests.bot.test_presenter_games import NAMES, view_of

    view = view_of("kozel")
    outcome = RoundOutcome(OutcomeKind.WENT_OUT, 0, (0, 9))
    opened = (Account(30, 0, True), Account(20, 0, True))
    plain = RoundResult(2, outcome, opened, (0, 9), opened, 0, 0, None)
    assert "+N" not in round_end_text(view, plain, NAMES, Lang.RU)
    remembered = dataclasses.replace(plain, after=(Account(0, 0, False), Account(0, 9, False)))
    text = round_end_text(view, remembered, NAMES, Lang.RU)
    assert text.count("«+N»") == 1
    assert "запомнены, но ещё не записаны" in text and "с 13 очков" in text


def test_a_lobby_names_each_computer_with_one_robot() -> None:
    computer = SeatRecord(1, None, t("computer.name", Lang.RU, n=1))
    text = lobby_text(_lobby([SeatRecord(0, 7, "Боб"), computer]), Lang.RU)
    line = next(line for line in text.splitlines() if "Компьютер 1" in line)
    assert line.count("🤖") == 1


def test_the_pictures_words_have_no_rule_ids_and_english_ones_no_cyrillic() -> None:
    """The words drawn (render.labels; once they come from the catalogues, the tests
    above cover them)."""
    from render import labels

    tables: Mapping[str, Mapping[str, str]] = getattr(labels, "_WORDS", {})
    for lang, words in tables.items():
        for key, text in words.items():
            assert not RULE_ID.search(text), (lang, key, text)
            if lang == "en":
                assert not CYRILLIC.search(text), (key, text)


def test_english_says_pairs_not_teams() -> None:
    """One word for one thing: the lobby's button and the line under it both say «Pairs»."""
    for key in ("btn.opt_teams_on", "btn.opt_teams_off", "lobby.teams_on", "alert.teams_need_four"):
        assert "Pairs" in t(key, Lang.EN) and "Team" not in t(key, Lang.EN), key
