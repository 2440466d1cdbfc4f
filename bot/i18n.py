"""All user-facing text, Russian first and English, through one function: `t()`.

The texts live in Fluent catalogues, one per language (`bot/locales/ru.ftl`,
`bot/locales/en.ftl`), which a translator edits without touching the code; Fluent
brings each language's own plural rules (CLDR: one/few/many/other), so "1 кость,
2 кости, 5 костей" is written in the catalogue, not in Python.

The code names a text by a dotted key, `t("alert.foreign_game", lang, name=...)`; its
Fluent message id is the key with every "." written as "-" (`alert-foreign_game`),
since Fluent ids allow no dots. `lang_of(language_code)` picks the language from a
Telegram user's settings (English for `en*`, Russian for everything else: Russian is
the default). The players' own words stay as they say them: рыба, козёл, базар, яйца,
стучу, вышел, рыбак.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from importlib.resources import files
from typing import Any

from fluent.runtime import FluentBundle, FluentResource
from fluent.runtime.types import fluent_number
from fluent.syntax import ast as fluent_ast


class Lang(StrEnum):
    RU = "ru"
    EN = "en"


DEFAULT_LANG = Lang.RU


def lang_of(language_code: str | None) -> Lang:
    """The language to answer a person in, from Telegram's `language_code`."""
    if language_code and language_code.lower().startswith("en"):
        return Lang.EN
    return DEFAULT_LANG


def fluent_id(key: str) -> str:
    """The catalogue's message id of the code's key: "alert.foreign_game" → "alert-foreign_game"."""
    return key.replace(".", "-")


def catalogue_source(lang: Lang) -> str:
    """The text of the language's catalogue, as shipped inside the package."""
    return (files("bot") / "locales" / f"{lang.value}.ftl").read_text(encoding="utf-8")


def parse_catalogue(source: str) -> fluent_ast.Resource:
    """The catalogue parsed; a syntax error fails loudly here rather than turning the
    broken text into a missing message at the first player who needs it."""
    resource = FluentResource(source)
    junk = [entry for entry in resource.body if isinstance(entry, fluent_ast.Junk)]
    if junk:
        raise ValueError(f"unreadable Fluent text: {(junk[0].content or '')[:80]!r}")
    return resource


def _bundle(lang: Lang) -> FluentBundle:
    # No Unicode isolation marks: Telegram shows them as they are in some clients, and
    # the names put into texts are already cut and escaped by the presenter.
    bundle = FluentBundle([lang.value], use_isolating=False)
    bundle.add_resource(parse_catalogue(catalogue_source(lang)))
    return bundle


_BUNDLES: Mapping[Lang, FluentBundle] = {lang: _bundle(lang) for lang in Lang}


def _argument(value: Any) -> Any:
    """Integers as Fluent numbers without digit grouping ("1000", not "1 000"), so the
    plural rules still see a number; anything else as its text."""
    if isinstance(value, int) and not isinstance(value, bool):
        return fluent_number(int(value), useGrouping=False)
    return format(value)


def t(key: str, lang: Lang = DEFAULT_LANG, /, **values: Any) -> str:
    """The text `key` in `lang`, with `values` filled in."""
    bundle = _BUNDLES[lang]
    message_id = fluent_id(key)
    if not bundle.has_message(message_id):
        raise KeyError(f"no text {key!r} in {lang.value}")
    pattern = bundle.get_message(message_id).value
    assert pattern is not None, f"{message_id} has no value"
    text, errors = bundle.format_pattern(
        pattern, {name: _argument(value) for name, value in values.items()}
    )
    if errors:
        raise KeyError(f"text {key!r} in {lang.value}: {errors[0]}")
    return str(text)
