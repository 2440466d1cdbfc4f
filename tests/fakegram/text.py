"""Message text the way Telegram sees it: HTML parse mode, entities, UTF-16 lengths, trimming.

The HTML parser follows Telegram's (tdlib ``parse_html``): the tags it knows, the four named
character entities plus numeric ones, and its error texts (``can't parse entities: ...``).
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import bad_request

MAX_TEXT = 4096
MAX_CAPTION = 1024

_SIMPLE_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
}
_ALL_TAGS = {*_SIMPLE_TAGS, "a", "span", "tg-emoji"}
_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_TAG_NAME = re.compile(r"[A-Za-z0-9-]+")
_PLAIN_RUN = re.compile(r"[^<&]+")
_ATTRIBUTE = re.compile(r"\s*([A-Za-z0-9-]+)\s*(?:=\s*(\"[^\"]*\"|'[^']*'|[^\s>]+))?")


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, the unit of Telegram's limits and entity offsets."""
    return len(text.encode("utf-16-le")) // 2


def parse_html(source: str) -> tuple[str, list[dict[str, Any]]]:
    """Plain text and entities of ``source`` in HTML parse mode, or a 400 like Telegram's."""
    out: list[str] = []
    out_len = 0  # UTF-16 units in ``out``
    stack: list[tuple[str, int, dict[str, Any]]] = []
    entities: list[dict[str, Any]] = []
    i = 0
    n = len(source)

    def byte_offset(pos: int) -> int:
        return len(source[:pos].encode("utf-8"))

    def fail(text: str) -> Exception:
        return bad_request(f"can't parse entities: {text}")

    while i < n:
        ch = source[i]
        if ch == "&":
            end = source.find(";", i + 1, i + 12)
            decoded = _decode_entity(source[i + 1 : end]) if end != -1 else None
            if decoded is not None:
                out.append(decoded)
                out_len += utf16_len(decoded)
                i = end + 1
                continue
            out.append("&")
            out_len += 1
            i += 1
            continue
        if ch != "<":
            run = _PLAIN_RUN.match(source, i)  # the text up to the next tag or entity
            assert run is not None  # `ch` is neither "<" nor "&"
            out.append(run.group(0))
            out_len += utf16_len(run.group(0))
            i = run.end()
            continue
        begin = i
        if i + 1 < n and source[i + 1] == "/":
            close = source.find(">", i)
            if close == -1:
                raise fail(f"Unclosed end tag at byte offset {byte_offset(begin)}")
            name = source[i + 2 : close].strip().lower()
            if not stack:
                raise fail(f"Unexpected end tag at byte offset {byte_offset(begin)}")
            open_name, start, opened = stack.pop()
            if name != open_name:
                raise fail(
                    f"Unmatched end tag at byte offset {byte_offset(begin)}, "
                    f'expected "</{open_name}>", found "</{name}>"'
                )
            length = out_len - start
            if length > 0 and opened:
                opened["offset"] = start
                opened["length"] = length
                entities.append(opened)
            i = close + 1
            continue
        match = _TAG_NAME.match(source, i + 1)
        if match is None:
            raise fail(
                "Character '<' is reserved and must be escaped as \"&lt;\" "
                f"at byte offset {byte_offset(begin)}"
            )
        name = match.group(0).lower()
        if name not in _ALL_TAGS:
            raise fail(f'Unsupported start tag "{name}" at byte offset {byte_offset(begin)}')
        close = source.find(">", match.end())
        if close == -1:
            raise fail(f"Unclosed start tag at byte offset {byte_offset(begin)}")
        attributes = _attributes(source[match.end() : close])
        entity = _entity_for(name, attributes, stack)
        if entity is None:
            raise fail(
                f'Tag "span" must have class "tg-spoiler" at byte offset {byte_offset(begin)}'
            )
        stack.append((name, out_len, entity or {}))
        i = close + 1
    if stack:
        raise fail(f'Can\'t find end tag corresponding to start tag "{stack[-1][0]}"')
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities


def _decode_entity(body: str) -> str | None:
    if body in _NAMED_ENTITIES:
        return _NAMED_ENTITIES[body]
    if body.startswith("#"):
        try:
            code = int(body[2:], 16) if body[1:2] in ("x", "X") else int(body[1:])
        except ValueError:
            return None
        if 0 < code < 0x110000:
            return chr(code)
    return None


def _attributes(raw: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for match in _ATTRIBUTE.finditer(raw):
        if not match.group(1):
            continue
        value = match.group(2) or ""
        if value[:1] in ("'", '"'):
            value = value[1:-1]
        found[match.group(1).lower()] = html.unescape(value)
    return found


def _entity_for(
    name: str, attributes: Mapping[str, str], stack: Sequence[tuple[str, int, dict[str, Any]]]
) -> dict[str, Any] | None:
    if name == "a":
        href = attributes.get("href", "")
        if href.startswith("tg://user?id="):
            return {"type": "text_mention", "user_id": href.removeprefix("tg://user?id=")}
        return {"type": "text_link", "url": href} if href else {}
    if name == "span":
        return {"type": "spoiler"} if attributes.get("class") == "tg-spoiler" else None
    if name == "tg-emoji":
        return {"type": "custom_emoji", "custom_emoji_id": attributes.get("emoji-id", "")}
    if name == "blockquote" and "expandable" in attributes:
        return {"type": "expandable_blockquote"}
    if name == "code" and stack and stack[-1][0] == "pre":
        language = attributes.get("class", "").removeprefix("language-")
        if language:
            stack[-1][2]["language"] = language
        return {}
    entity: dict[str, Any] = {"type": _SIMPLE_TAGS[name]}
    return entity


def trim(text: str, entities: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """Strip leading and trailing whitespace as Telegram does, keeping entities aligned."""
    stripped_left = text.lstrip()
    shift = utf16_len(text) - utf16_len(stripped_left)
    result = stripped_left.rstrip()
    limit = utf16_len(result)
    kept: list[dict[str, Any]] = []
    for entity in entities:
        start = max(entity["offset"] - shift, 0)
        end = min(entity["offset"] - shift + entity["length"], limit)
        if end > start:
            kept.append({**entity, "offset": start, "length": end - start})
    return result, kept


def format_text(
    text: str, parse_mode: str | None, entities: list[dict[str, Any]] | None
) -> tuple[str, list[dict[str, Any]]]:
    """Apply ``parse_mode`` (HTML checked; Markdown kinds passed through) and trim."""
    mode = (parse_mode or "").strip()
    if mode.lower() == "html":
        plain, found = parse_html(text)
    elif mode == "" or mode.lower() in ("markdown", "markdownv2"):
        plain, found = text, list(entities or [])
    else:
        raise bad_request("unsupported parse_mode")
    return trim(plain, found)
