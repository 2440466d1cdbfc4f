"""All user-facing text, the pictures' words and the games' names, through one function:
`t()`.

The texts live in Fluent catalogues, one folder per language (`i18n/ru/`, `i18n/en/`),
each split into the same files by area (`games.ftl`, `lobby.ftl`, `play.ftl`,
`pictures.ftl`, ...): a translator edits them without touching the code. The languages
are the folders found (`languages`): a new language is a new folder of .ftl files with
every key of the others, and no code. Fluent brings each language's own plural rules
(CLDR: one/few/many/other), so "1 кость, 2 кости, 5 костей" is written in the
catalogue, not in Python.

The code names a text by a dotted key, `t("alert.foreign_game", lang, name=...)`; its
Fluent message id is the key with every "." written as "-" (`alert-foreign_game`),
since Fluent ids allow no dots. `lang_of(language_code)` picks the language from a
Telegram user's settings: the folder of that code, else Russian, the default. The
players' own words stay as they say them: рыба, козёл, базар, яйца, стучу, вышел, рыбак.

Nothing is parsed at import, and a catalogue is not parsed whole either: its text is
cut into entries at each line that begins one (`split_catalogue`, a regular expression
over the files), and each message is parsed at its first use, with what it refers to.
Fluent's parser reads a character at a time, so a whole catalogue would cost the first
texts after a start (the command menus, the games picked up) a noticeable pause on the
event loop; one message costs microseconds. A lock keeps a second thread (the
pictures' drawing thread) from adding a message meanwhile. A syntax error in a message
fails loudly at its first use, and the whole catalogue is parsed by the tests
(`parse_catalogue`), where it fails first.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any

from fluent.runtime import FluentBundle, FluentResource
from fluent.runtime.resolver import Pattern
from fluent.runtime.types import fluent_number
from fluent.syntax import ast as fluent_ast
from fluent.syntax.visitor import Visitor

CATALOGUES: Traversable = files("i18n")
"""The folder of the language folders, as shipped inside the package."""

DEFAULT_CODE = "ru"
"""Russian: the bot's main audience, and the language of anyone whose own has no folder."""


def languages(root: Traversable = CATALOGUES) -> tuple[str, ...]:
    """The codes of the languages with a catalogue under `root` (a folder holding .ftl
    files): Russian first, then the others by code."""
    found = [
        entry.name
        for entry in root.iterdir()
        if entry.is_dir() and any(file.name.endswith(".ftl") for file in entry.iterdir())
    ]
    return tuple(sorted(found, key=lambda code: (code != DEFAULT_CODE, code)))


if TYPE_CHECKING:
    # The two languages shipped, named for the code (and the tests) that need one of
    # them; at run time the members are the folders found.
    class Lang(StrEnum):
        RU = "ru"
        EN = "en"

else:
    Lang = StrEnum("Lang", [(code.upper().replace("-", "_"), code) for code in languages()])
    Lang.__doc__ = "A language with a catalogue: one member per folder found (`languages`)."


DEFAULT_LANG = Lang(DEFAULT_CODE)


def lang_of(language_code: str | None) -> Lang:
    """The language to answer a person in, from Telegram's `language_code` ("en-GB"):
    the language of that code or of its first part, if it has a folder, else Russian."""
    if language_code:
        code = language_code.lower().replace("_", "-")
        for candidate in (code, code.split("-")[0]):
            if candidate in Lang.__members__.values():
                return Lang(candidate)
    return DEFAULT_LANG


def fluent_id(key: str) -> str:
    """The catalogue's message id of the code's key: "alert.foreign_game" → "alert-foreign_game"."""
    return key.replace(".", "-")


def catalogue_source(lang: Lang) -> str:
    """The text of the language's catalogue: every .ftl file of its folder, by name."""
    folder = CATALOGUES / lang.value
    return "\n".join(
        entry.read_text(encoding="utf-8")
        for entry in sorted(folder.iterdir(), key=lambda entry: entry.name)
        if entry.name.endswith(".ftl")
    )


# A line that begins an entry: a message's or a term's id at the line's start, then "=".
# Every other line (indented text, a variant, a closing brace, a comment, a blank line)
# belongs to the entry above it.
ENTRY_START = re.compile(r"^(-?[a-zA-Z][a-zA-Z0-9_-]*)[ \t]*=", re.MULTILINE)


def split_catalogue(source: str) -> dict[str, str]:
    """Each entry's text by its id (a term's with its "-"), cut at the lines that begin
    one; the first of two entries of one id is kept, as `FluentBundle` keeps it."""
    starts = [(found.start(), found.group(1)) for found in ENTRY_START.finditer(source)]
    ends = [start for start, _ in starts[1:]] + [len(source)]
    entries: dict[str, str] = {}
    for (start, entry_id), end in zip(starts, ends, strict=True):
        entries.setdefault(entry_id, source[start:end])
    return entries


def parse_catalogue(source: str) -> fluent_ast.Resource:
    """The catalogue parsed; a syntax error fails loudly here rather than turning the
    broken text into a missing message at the first player who needs it."""
    resource = FluentResource(source)
    junk = [entry for entry in resource.body if isinstance(entry, fluent_ast.Junk)]
    if junk:
        raise ValueError(f"unreadable Fluent text: {(junk[0].content or '')[:80]!r}")
    return resource


class _Selectors(Visitor):
    """The variables a message takes as numbers: those it picks a variant by (`{ $n ->
    [one] ... }`) and those it formats with `NUMBER()` (`{ NUMBER($day,
    minimumIntegerDigits: 2) }`)."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_SelectExpression(self, node: fluent_ast.SelectExpression) -> None:
        if isinstance(node.selector, fluent_ast.VariableReference):
            self.names.add(node.selector.id.name)
        self.generic_visit(node)

    def visit_FunctionReference(self, node: fluent_ast.FunctionReference) -> None:
        if node.id.name == "NUMBER":
            for argument in node.arguments.positional:
                if isinstance(argument, fluent_ast.VariableReference):
                    self.names.add(argument.id.name)
        self.generic_visit(node)


class _References(Visitor):
    """The messages and terms an entry refers to (`{ other-message }`, `{ -term }`)."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def visit_MessageReference(self, node: fluent_ast.MessageReference) -> None:
        self.ids.add(node.id.name)
        self.generic_visit(node)

    def visit_TermReference(self, node: fluent_ast.TermReference) -> None:
        self.ids.add(f"-{node.id.name}")
        self.generic_visit(node)


@dataclass(frozen=True)
class _Catalogue:
    bundle: FluentBundle  # the messages used so far, and what they refer to
    sources: Mapping[str, str]  # entry id -> its text (`split_catalogue`)
    # Message id -> the variables it takes as numbers (`_Selectors`), of those in `bundle`.
    selectors: dict[str, frozenset[str]] = field(default_factory=dict)
    added: set[str] = field(default_factory=set)  # the entries in `bundle`

    @classmethod
    def load(cls, lang: Lang) -> _Catalogue:
        # No Unicode isolation marks: Telegram shows them as they are in some clients, and
        # the names put into texts are already cut and escaped by the presenter.
        bundle = FluentBundle([lang.value], use_isolating=False)
        return cls(bundle, split_catalogue(catalogue_source(lang)))

    def pattern(self, message_id: str) -> Pattern | None:
        """The message's pattern, parsed at its first use; None: no such message."""
        if message_id.startswith("-"):
            return None  # a term: no text of its own
        if message_id not in self.added:
            if message_id not in self.sources:
                return None
            with _LOADING:
                if message_id not in self.added:
                    self._add(message_id)
        return self.bundle.get_message(message_id).value

    def _add(self, entry_id: str) -> None:
        """Parse the entry and put it in the bundle, with the entries it refers to."""
        resource = parse_catalogue(self.sources[entry_id])
        references = _References()
        references.visit(resource)
        for entry in resource.body:
            if isinstance(entry, fluent_ast.Message):
                found = _Selectors()
                found.visit(entry)
                self.selectors[entry.id.name] = frozenset(found.names)
        self.bundle.add_resource(resource)
        self.added.add(entry_id)
        for other in sorted(references.ids - self.added):
            if other in self.sources:  # else Fluent says it is missing, at its format
                self._add(other)

    def argument(self, message_id: str, name: str, value: Any) -> Any:
        """A value as Fluent takes it. A number a plural picks by (or `NUMBER()` formats)
        goes in as a number, its digits ungrouped ("1000 костей", never "1 000");
        everything else as its text, so numbers read exactly as `str()` writes them (and
        cost no locale formatting)."""
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
    (a hand, a caption or a picture asks for the same texts at every move); a value that
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
    pattern = catalogue.pattern(message_id)
    if pattern is None:
        raise KeyError(f"no text {key!r} in {lang.value}")
    arguments = {name: catalogue.argument(message_id, name, v) for name, v in values.items()}
    text, errors = catalogue.bundle.format_pattern(pattern, arguments)
    if errors:
        raise KeyError(f"text {key!r} in {lang.value}: {errors[0]}")
    return str(text)
