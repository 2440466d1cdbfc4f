"""The translation layer: complete, consistent, Russian by default, with real plurals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fluent.runtime import FluentBundle
from fluent.syntax import ast as fluent_ast
from fluent.syntax.visitor import Visitor

from i18n import (
    Lang,
    _Catalogue,
    catalogue_source,
    fluent_id,
    lang_of,
    parse_catalogue,
    split_catalogue,
    t,
)


class _Variables(Visitor):
    """Every `{ $name }` a message uses, in its text or in a plural selector."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_VariableReference(self, node: fluent_ast.VariableReference) -> None:
        self.names.add(node.id.name)


def catalogue(lang: Lang) -> dict[str, frozenset[str]]:
    """The code's key of every message in `lang`'s catalogue, with its variables."""
    messages: dict[str, frozenset[str]] = {}
    for entry in parse_catalogue(catalogue_source(lang)).body:
        if isinstance(entry, fluent_ast.Message):
            variables = _Variables()
            variables.visit(entry)
            messages[entry.id.name.replace("-", ".")] = frozenset(variables.names)
    return messages


CATALOGUES = {lang: catalogue(lang) for lang in Lang}
KEYS = sorted(CATALOGUES[Lang.RU])


def test_every_language_has_every_key_and_no_other() -> None:
    for lang in Lang:
        assert sorted(CATALOGUES[lang]) == KEYS, lang


CHOOSERS = frozenset({"game"})
"""Variables that only pick a language's words: the code passes them always, and a
language whose words do not differ leaves them out (English says «block» where Russian
says «рыба» in every game; `$game` is the game's key)."""


@pytest.mark.parametrize("key", KEYS)
def test_every_text_has_the_same_variables_in_every_language(key: str) -> None:
    assert {lang: CATALOGUES[lang][key] - CHOOSERS for lang in Lang} == dict.fromkeys(
        Lang, CATALOGUES[Lang.RU][key] - CHOOSERS
    )


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("lang", list(Lang))
def test_every_text_renders_without_isolation_marks(key: str, lang: Lang) -> None:
    text = t(key, lang, **dict.fromkeys(CATALOGUES[lang][key], 7))
    assert text.strip()
    assert not set(text) & {"\u2068", "\u2069"}


@pytest.mark.parametrize("lang", list(Lang))
def test_each_entry_cut_from_its_catalogue_parses_as_the_whole_catalogue_has_it(
    lang: Lang,
) -> None:
    """`t()` parses one message at a time, from the text `split_catalogue` cuts out: each
    must be the entry the whole catalogue's parse has, and none may be missing."""
    whole = {
        ("-" if isinstance(entry, fluent_ast.Term) else "") + entry.id.name: entry
        for entry in parse_catalogue(catalogue_source(lang)).body
        if isinstance(entry, fluent_ast.Message | fluent_ast.Term)
    }
    cut = split_catalogue(catalogue_source(lang))
    assert sorted(cut) == sorted(whole)
    for entry_id, source in cut.items():
        entries = [
            entry
            for entry in parse_catalogue(source).body
            if isinstance(entry, fluent_ast.Message | fluent_ast.Term)
        ]
        assert len(entries) == 1, entry_id
        assert entries[0].equals(whole[entry_id], ignored_fields=["span", "comment"]), entry_id


def test_a_message_is_parsed_with_the_messages_and_terms_it_refers_to() -> None:
    source = "a = A { b } { -c }\nb = B\n-c = C\nd = { $n ->\n [one] one\n*[other] many\n}\n"
    assert sorted(split_catalogue(source)) == ["-c", "a", "b", "d"]
    catalogue = _Catalogue(FluentBundle(["en"], use_isolating=False), split_catalogue(source))
    pattern = catalogue.pattern("a")
    assert pattern is not None
    assert catalogue.bundle.format_pattern(pattern, {}) == ("A B C", [])
    assert catalogue.added == {"a", "b", "-c"}  # "d" is not parsed until it is used
    assert catalogue.pattern("-c") is None  # a term is no text of its own
    assert catalogue.pattern("e") is None


def test_a_key_becomes_a_fluent_id_by_its_dots() -> None:
    assert fluent_id("alert.foreign_game") == "alert-foreign_game"
    assert fluent_id("btn.group_lang.auto") == "btn-group_lang-auto"


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (0, "0 костей"),
        (1, "1 кость"),
        (2, "2 кости"),
        (4, "4 кости"),
        (5, "5 костей"),
        (11, "11 костей"),
        (12, "12 костей"),
        (14, "14 костей"),
        (21, "21 кость"),
        (22, "22 кости"),
        (25, "25 костей"),
        (111, "111 костей"),
        (101, "101 кость"),
    ],
)
def test_russian_plurals_follow_the_language(n: int, text: str) -> None:
    assert t("table.tiles", Lang.RU, n=n) == text


@pytest.mark.parametrize(("n", "text"), [(0, "0 tiles"), (1, "1 tile"), (2, "2 tiles")])
def test_english_plurals_follow_the_language(n: int, text: str) -> None:
    assert t("table.tiles", Lang.EN, n=n) == text


def test_numbers_are_written_without_grouping() -> None:
    assert t("table.bazaar", Lang.RU, n=12345) == "базар: 12345"
    assert t("table.tiles", Lang.EN, n=1000) == "1000 tiles"
    assert t("lobby.options", Lang.EN, seats=4, target=-1500) == "Players: 4 · game to -1500"


def test_texts_keep_leading_spaces_and_line_breaks() -> None:
    assert t("table.team_score", Lang.RU, names="А + Б", score="+12") == "   пара А + Б: +12"
    loser = t("loser.kozel", Lang.EN, names="A")
    surrendered = t("notice.surrendered", Lang.EN, name="A", loser=loser, lines="x\ny")
    assert surrendered == (
        "🏳 A gives up. 🐐 Goat: A.\nScore when the match was first abandoned · rating gained:\nx\ny"
    )


@pytest.mark.parametrize(
    ("code", "lang"),
    [
        (None, Lang.RU),
        ("ru", Lang.RU),
        ("uk", Lang.RU),
        ("de", Lang.RU),
        ("en", Lang.EN),
        ("en-GB", Lang.EN),
        ("EN", Lang.EN),
    ],
)
def test_language_is_taken_from_telegram_with_russian_by_default(
    code: str | None, lang: Lang
) -> None:
    assert lang_of(code) is lang


def test_the_players_terms_are_used_in_russian() -> None:
    assert t("announce.fish", Lang.RU, name="Маша", n=3) == "🐟 Раунд 3: рыба! Рыбак — Маша."
    assert t("announce.loser.kozel", names="Олег") == "🐐 Козёл — Олег"
    assert {t(f"term.{w}") for w in ("fish", "goat", "bazaar", "eggs", "knock")} == {
        "рыба",
        "козёл",
        "базар",
        "яйца",
        "стучу",
    }


def test_an_unknown_key_names_itself() -> None:
    with pytest.raises(KeyError, match=r"no\.such"):
        t("no.such", Lang.EN)


def test_a_missing_value_is_an_error_not_a_hole_in_the_text() -> None:
    with pytest.raises(KeyError, match=r"announce\.fish"):
        t("announce.fish", Lang.RU)


def test_a_broken_catalogue_fails_on_loading() -> None:
    with pytest.raises(ValueError, match="unreadable"):
        parse_catalogue("good = text\nbad = { $unclosed\n")


def test_every_key_the_code_uses_exists() -> None:
    """Catches a typo in a text key before a player sees a KeyError."""
    root = Path(__file__).resolve().parents[2]
    namespaces = "|".join(sorted({key.split(".")[0] for key in KEYS}))
    literal = re.compile(rf'"((?:{namespaces})\.[a-z_]+)"')
    used: set[str] = set()
    for folder in ("bot", "handlers"):
        for path in (root / folder).rglob("*.py"):
            used |= set(literal.findall(path.read_text(encoding="utf-8")))
    assert used, "the scan found no keys at all"
    assert sorted(used - set(KEYS)) == []
