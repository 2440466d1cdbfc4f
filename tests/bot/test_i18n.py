"""The translation layer: complete, consistent, Russian by default."""

from __future__ import annotations

import pytest

from bot.i18n import TEXTS, Lang, lang_of, placeholders, t


@pytest.mark.parametrize("key", sorted(TEXTS))
def test_every_text_exists_in_both_languages_with_the_same_placeholders(key: str) -> None:
    assert set(TEXTS[key]) == set(Lang)
    assert placeholders(TEXTS[key][Lang.RU]) == placeholders(TEXTS[key][Lang.EN])
    assert all(text.strip() for text in TEXTS[key].values())


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
    assert t("announce.fish", Lang.RU, name="Маша") == "🐟 Рыба! Рыбак — Маша."
    assert t("announce.goat", names="Олег") == "🐐 Козёл — Олег"
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


def test_every_key_the_code_uses_exists() -> None:
    """Catches a typo in a text key before a player sees a KeyError."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    namespaces = "|".join(sorted({key.split(".")[0] for key in TEXTS}))
    literal = re.compile(rf'"((?:{namespaces})\.[a-z_]+)"')
    used: set[str] = set()
    for folder in ("bot", "handlers"):
        for path in (root / folder).rglob("*.py"):
            if path.name != "i18n.py":
                used |= set(literal.findall(path.read_text(encoding="utf-8")))
    assert used, "the scan found no keys at all"
    assert sorted(used - set(TEXTS)) == []
