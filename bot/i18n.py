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

Each catalogue is parsed at its language's first text, not at import (issue 15, item
14: parsing both took more than a second of a loaded machine's start-up), once: a lock
keeps a second thread (the pictures' drawing thread) from parsing it again meanwhile.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from importlib.resources import files
from typing import Any

from fluent.runtime import FluentBundle, FluentResource
from fluent.runtime.types import fluent_number
from fluent.syntax import ast as fluent_ast
from fluent.syntax.visitor import Visitor


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


class _Selectors(Visitor):
    """The variables a message picks a variant by (`{ $n -> [one] ... }`)."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_SelectExpression(self, node: fluent_ast.SelectExpression) -> None:
        if isinstance(node.selector, fluent_ast.VariableReference):
            self.names.add(node.selector.id.name)
        self.generic_visit(node)


@dataclass(frozen=True)
class _Catalogue:
    bundle: FluentBundle
    selectors: Mapping[str, frozenset[str]]  # message id -> the variables its plurals use

    @classmethod
    def load(cls, lang: Lang) -> _Catalogue:
        resource = parse_catalogue(catalogue_source(lang))
        # No Unicode isolation marks: Telegram shows them as they are in some clients, and
        # the names put into texts are already cut and escaped by the presenter.
        bundle = FluentBundle([lang.value], use_isolating=False)
        bundle.add_resource(resource)
        selectors = {}
        for entry in resource.body:
            if isinstance(entry, fluent_ast.Message):
                found = _Selectors()
                found.visit(entry)
                selectors[entry.id.name] = frozenset(found.names)
        return cls(bundle, selectors)

    def argument(self, message_id: str, name: str, value: Any) -> Any:
        """A value as Fluent takes it. A number a plural picks by goes in as a number, its
        digits ungrouped ("1000 костей", never "1 000"); everything else as its text, so
        numbers read exactly as `str()` writes them (and cost no locale formatting)."""
        if name in self.selectors[message_id] and isinstance(value, int):
            return fluent_number(value, useGrouping=False)
        return format(value)


_CATALOGUES: dict[Lang, _Catalogue] = {}  # the languages used so far
_LOADING = threading.Lock()


def _catalogue(lang: Lang) -> _Catalogue:
    """The language's catalogue, parsed at its first use."""
    catalogue = _CATALOGUES.get(lang)
    if catalogue is None:
        with _LOADING:
            catalogue = _CATALOGUES.get(lang)
            if catalogue is None:
                if lang not in Lang.__members__.values():
                    raise KeyError(lang)  # as a lookup of a language with no catalogue
                catalogue = _CATALOGUES[lang] = _Catalogue.load(Lang(lang))
    return catalogue


def t(key: str, lang: Lang = DEFAULT_LANG, /, **values: Any) -> str:
    """The text `key` in `lang`, with `values` filled in. The texts made last are kept
    (issue 16: a hand or a caption asks for the same texts at every move); a value that
    cannot be a key (none so far) makes it each time."""
    try:  # the type too: True and 1 are equal keys, yet read "True" and "1"
        return _kept_text(key, lang, tuple((k, type(v), v) for k, v in values.items()))
    except TypeError:  # an unhashable value
        return _text(key, lang, values)


@functools.lru_cache(maxsize=8192)
def _kept_text(key: str, lang: Lang, values: tuple[tuple[str, type, Any], ...]) -> str:
    return _text(key, lang, {name: value for name, _, value in values})


def _text(key: str, lang: Lang, values: dict[str, Any]) -> str:
    catalogue = _catalogue(lang)
    message_id = fluent_id(key)
    if not catalogue.bundle.has_message(message_id):
        raise KeyError(f"no text {key!r} in {lang.value}")
    pattern = catalogue.bundle.get_message(message_id).value
    assert pattern is not None, f"{message_id} has no value"
    arguments = {name: catalogue.argument(message_id, name, v) for name, v in values.items()}
    text, errors = catalogue.bundle.format_pattern(pattern, arguments)
    if errors:
        raise KeyError(f"text {key!r} in {lang.value}: {errors[0]}")
    return str(text)
