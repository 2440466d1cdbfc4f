"""People's names as every text shows them: one line, no control or bidi characters,
never empty, and cut by one rule everywhere: by the columns a
phone draws (`display_width`: a Cyrillic letter is one column, an emoji or an East-Asian
wide character two, marks and joiners none), a ZWJ sequence or a flag kept whole or left
out whole, and "…" where something was cut. The presenter's texts cut names to
`NAME_LIMIT` columns (`short_name`), the /top table to its column's width (`pad` in
the stats screens); the pictures cut by pixels (`render.text.fit`)."""

from __future__ import annotations

import functools
import unicodedata

from i18n import Lang, t

NAME_LIMIT = 32  # columns; 15 emoji and "…" at most, inside an alert's 200 characters
ELLIPSIS = "…"

_ZWJ = "\u200d"
_VS16 = "\ufe0f"  # emoji presentation: the character before it is drawn as a picture
_ZERO_WIDTH = frozenset({"Mn", "Me", "Cf"})
# Bidi overrides and isolates would reorder the rest of a table line; they are dropped.
_BIDI_CONTROLS = frozenset(
    "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def _regional(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF  # the letters that make flags in pairs


def _skin_tone(char: str) -> bool:
    return 0x1F3FB <= ord(char) <= 0x1F3FF


def _pictograph(char: str) -> bool:
    """What a ZWJ joins into one picture (👨 and 👩 in 👨‍👩, 🏃 and ♀ in 🏃‍♀️); a stray
    ZWJ next to a letter or a space joins nothing."""
    return unicodedata.category(char) == "So" or unicodedata.east_asian_width(char) in ("W", "F")


def clusters(text: str) -> list[str]:
    """`text` cut into what a reader sees as single characters: a base with its marks,
    a ZWJ sequence (👨‍👩‍👧), a flag (two regional letters), an emoji with its skin tone."""
    found: list[str] = []
    joined = False
    for char in text:
        attach = bool(found) and (
            (joined and _pictograph(char) and _pictograph(found[-1][0]))
            or unicodedata.category(char) in _ZERO_WIDTH
            or _skin_tone(char)
            or (_regional(char) and len(found[-1]) == 1 and _regional(found[-1]))
        )
        if attach:
            found[-1] += char
        else:
            found.append(char)
        joined = char == _ZWJ
    return found


def cluster_width(cluster: str) -> int:
    base = cluster[0]
    if unicodedata.category(base) in _ZERO_WIDTH:
        return 0  # a mark with nothing before it
    if _regional(base) or unicodedata.east_asian_width(base) in ("W", "F") or _VS16 in cluster:
        return 2
    return 1


def display_width(text: str) -> int:
    """The columns `text` takes in a monospace font as Telegram draws it."""
    return sum(cluster_width(cluster) for cluster in clusters(text))


def truncate(text: str, width: int) -> str:
    """`text` cut to at most `width` columns, ending in "…" if anything was cut; a
    cluster (a ZWJ sequence, a flag) is kept whole or left out whole."""
    if display_width(text) <= width:
        return text
    kept: list[str] = []
    used = 0
    for cluster in clusters(text):
        size = cluster_width(cluster)
        if used + size > width - 1:
            break
        kept.append(cluster)
        used += size
    return "".join(kept) + ELLIPSIS


def pad(text: str, width: int, *, right: bool = False) -> str:
    """`text` truncated to `width` columns and filled with spaces to exactly `width`."""
    text = truncate(text, width)
    fill = " " * (width - display_width(text))
    return fill + text if right else text + fill


def clean_name(name: str) -> str:
    """A name made safe for one table cell: no control or bidi characters, one line."""
    kept = "".join(
        " " if unicodedata.category(char) == "Cc" else char
        for char in name
        if char not in _BIDI_CONTROLS
    )
    return " ".join(kept.split()) or "?"


@functools.lru_cache(maxsize=8192)
def short_name(name: str, limit: int = NAME_LIMIT) -> str:
    """A name as texts show it: cleaned (`clean_name`) and cut to `limit` columns with an
    ellipsis (`truncate`); never empty. Every text built from a name uses this. Kept for
    the names seen last: every hand, caption and seat list asks again at every move."""
    return truncate(clean_name(name), limit)


def computer_name(name: str, lang: Lang) -> str:
    """A computer seat's stored name («🤖 Компьютер 2», named in its creator's language
    when it sat down) in `lang`, so an English group never reads «Компьютер 2 knocks»;
    any other name stays as it is."""
    for n in range(1, 5):
        if any(name == t("computer.name", other, n=n) for other in Lang):
            return t("computer.name", lang, n=n)
    return name
