"""The official Bot API definitions, as a request checker and response shaper.

The definitions are Bot API 10.3, built from three files beside this one (see
:func:`load_definitions`): ``api.json``, Bot API 10.1 from telegram-bot-api-spec (MIT,
``LICENSE``), which gives every method's return types and every union's members;
``aiogram-schema-10.2.json``, Bot API 10.2 as aiogram's code generator reads it
(``.butcher/schema/schema.json`` of the aiogram repository, MIT, ``LICENSE-aiogram``), whose
fields replace 10.1's; and ``bot-api-10.3.json``, the 10.3 changes to ephemeral messages as
aiogram 3.31's generated classes carry them (same licence). A field 10.3 deprecates is still
accepted, as the real server accepts it, but reported like an unknown one.
Requests are checked the way the real server checks them: unknown method, missing required
field, value of the wrong type. Unknown fields are *not* refused (the real server ignores
them) but reported, so the fake can fail the test that sent them. Responses built by the fake
go through :meth:`ApiSpec.conform`, which refuses any undeclared field or wrong type: a bug in
the fake must never hand the bot something Telegram would not.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from .errors import ApiError, bad_request

SPEC_PATH = Path(__file__).with_name("api.json")
AIOGRAM_SCHEMA_PATH = Path(__file__).with_name("aiogram-schema-10.2.json")
UPDATE_PATH = Path(__file__).with_name("bot-api-10.3.json")

# Fields aiogram 3.31 requires in answers that the definitions (Bot API 10.3) do not list; the
# real server sends them, so the fake declares them too rather than break the client.
EXTRA_RESPONSE_FIELDS: Mapping[str, tuple[tuple[str, str, bool], ...]] = {
    "ChatMemberAdministrator": (("can_send_welcome_messages", "Boolean", False),),
}

_DISCRIMINATOR = re.compile(r"(?:must be|always) [“\"']?([a-z_]+)")
_INTEGER = re.compile(r"-?\d+")


@dataclass(frozen=True)
class UploadedFile:
    """A file part of a multipart request."""

    name: str
    filename: str
    data: bytes

    def __repr__(self) -> str:
        return f"<file {self.filename!r}, {len(self.data)} bytes>"


@dataclass(frozen=True)
class FieldSpec:
    name: str
    types: tuple[str, ...]
    required: bool
    deprecated: bool = False


@dataclass(frozen=True)
class MethodSpec:
    name: str
    fields: Mapping[str, FieldSpec]
    returns: tuple[str, ...]


@dataclass
class ParsedRequest:
    """Typed parameters of one request, plus the fields the spec does not know."""

    method: MethodSpec
    params: dict[str, Any]
    unknown_fields: list[str] = field(default_factory=list)
    deprecated_fields: list[str] = field(default_factory=list)


class SpecViolation(AssertionError):
    """The fake built a response that the Bot API definitions do not allow (a fake bug)."""


class ApiSpec:
    """Lookup and checking against one ``api.json``."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.version: str = data["version"]
        self._methods: dict[str, MethodSpec] = {}
        for name, raw in data["methods"].items():
            fields = {f["name"]: _field(f) for f in raw.get("fields", [])}
            self._methods[name.lower()] = MethodSpec(name, fields, tuple(raw["returns"]))
        self._types: dict[str, dict[str, FieldSpec]] = {}
        self._subtypes: dict[str, tuple[str, ...]] = {}
        for name, raw in data["types"].items():
            if "subtypes" in raw:
                self._subtypes[name] = tuple(raw["subtypes"])
            self._types[name] = {f["name"]: _field(f) for f in raw.get("fields", [])}
        for name, extras in EXTRA_RESPONSE_FIELDS.items():
            for field_name, type_name, required in extras:
                self._types[name][field_name] = FieldSpec(field_name, (type_name,), required)
        self._discriminators: dict[str, tuple[str, str]] = {}
        for name, raw in data["types"].items():
            for raw_field in raw.get("fields", []):
                if raw_field["name"] in ("type", "status", "source"):
                    found = _DISCRIMINATOR.search(raw_field["description"])
                    if found:
                        self._discriminators[name] = (raw_field["name"], found.group(1))

    def method(self, name: str) -> MethodSpec | None:
        """The method called ``name``, compared case-insensitively as the real server does."""
        return self._methods.get(name.lower())

    def method_names(self) -> list[str]:
        return sorted(m.name for m in self._methods.values())

    # ----------------------------------------------------------------- requests

    def parse_request(self, method: MethodSpec, raw: Mapping[str, Any]) -> ParsedRequest:
        """Check and type the raw parameters of a request (form strings, files or JSON)."""
        parsed = ParsedRequest(method, {})
        for key, value in raw.items():
            spec = method.fields.get(key)
            if spec is None:
                if not isinstance(value, UploadedFile):
                    parsed.unknown_fields.append(key)
                continue
            if spec.deprecated:
                parsed.deprecated_fields.append(key)
            parsed.params[key] = self._top_level(spec, value, parsed.unknown_fields)
        for spec in method.fields.values():
            if spec.required and spec.name not in parsed.params:
                raise _missing(method.name, spec.name)
        return parsed

    def _top_level(self, spec: FieldSpec, value: Any, unknown: list[str]) -> Any:
        if isinstance(value, UploadedFile):
            if "InputFile" in spec.types:
                return value
            raise bad_request(f'field "{spec.name}" must be of type {spec.types[0]}')
        if isinstance(value, str) and not all(_is_object(t) for t in spec.types):
            for type_expr in spec.types:
                try:
                    return self._from_form(type_expr, value, spec.name, unknown)
                except ApiError:
                    continue
            raise bad_request(f'field "{spec.name}" must be of type {spec.types[0]}')
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                raise bad_request(f'can\'t parse JSON object in field "{spec.name}"') from None
        return self._first_fitting(spec.types, value, spec.name, unknown)

    def _first_fitting(
        self, types: tuple[str, ...], value: Any, path: str, unknown: list[str]
    ) -> Any:
        """Check ``value`` against alternatives, best key match first; report its error."""
        if len(types) == 1:
            return self.check_json(types[0], value, path, unknown)
        ordered = sorted(types, key=lambda t: -self._key_overlap(t, value))
        first_error: ApiError | None = None
        for type_expr in ordered:
            extra: list[str] = []
            try:
                checked = self.check_json(type_expr, value, path, extra)
            except ApiError as error:
                first_error = first_error or error
                continue
            unknown.extend(extra)
            return checked
        assert first_error is not None
        raise first_error

    def _key_overlap(self, type_expr: str, value: Any) -> int:
        if not isinstance(value, dict):
            return 0
        fields = self._types.get(type_expr, {})
        return sum(1 for key in value if key in fields)

    def _from_form(self, type_expr: str, value: str, path: str, unknown: list[str]) -> Any:
        if type_expr == "Integer":
            if _INTEGER.fullmatch(value.strip()):
                return int(value)
            raise bad_request(f'field "{path}" must be of type Integer')
        if type_expr in ("String", "InputFile"):
            return value
        if type_expr in ("Boolean", "True"):
            lowered = value.strip().lower()
            if lowered in ("true", "1"):
                return True
            if lowered in ("false", "0"):
                return False
            raise bad_request(f'field "{path}" must be of type Boolean')
        if type_expr == "Float":
            try:
                return float(value)
            except ValueError:
                raise bad_request(f'field "{path}" must be of type Float') from None
        try:
            decoded = json.loads(value)
        except ValueError:
            raise bad_request(f'can\'t parse JSON object in field "{path}"') from None
        return self.check_json(type_expr, decoded, path, unknown)

    def check_json(self, type_expr: str, value: Any, path: str, unknown: list[str]) -> Any:
        """Check a decoded JSON value against ``type_expr``; unknown keys go to ``unknown``."""
        if type_expr.startswith("Array of "):
            if not isinstance(value, list):
                raise bad_request(f'field "{path}" must be of type Array')
            inner = type_expr.removeprefix("Array of ")
            return [
                self.check_json(inner, item, f"{path}[{i}]", unknown)
                for i, item in enumerate(value)
            ]
        if type_expr == "Integer":
            if isinstance(value, int) and not isinstance(value, bool):
                return value
            if isinstance(value, str) and _INTEGER.fullmatch(value):
                return int(value)
            raise bad_request(f'field "{path}" must be of type Integer')
        if type_expr == "Float":
            if isinstance(value, int | float) and not isinstance(value, bool):
                return value
            raise bad_request(f'field "{path}" must be of type Float')
        if type_expr in ("String", "InputFile"):
            if isinstance(value, str):
                return value
            raise bad_request(f'field "{path}" must be of type String')
        if type_expr in ("Boolean", "True"):
            if isinstance(value, bool):
                return value
            raise bad_request(f'field "{path}" must be of type Boolean')
        if type_expr in self._subtypes:
            return self._check_union(type_expr, value, path, unknown)
        fields = self._types.get(type_expr)
        if fields is None:
            raise SpecViolation(f"unknown type {type_expr!r} in the spec")
        if not isinstance(value, dict):
            raise bad_request(f'field "{path}" must be of type {type_expr}')
        result: dict[str, Any] = {}
        for key, item in value.items():
            spec = fields.get(key)
            if spec is None:
                unknown.append(f"{path}.{key}")
                continue
            result[key] = self._nested(spec, item, f"{path}.{key}", unknown)
        for spec in fields.values():
            if spec.required and spec.name not in result:
                raise bad_request(f'field "{path}.{spec.name}" is required')
        return result

    def _nested(self, spec: FieldSpec, value: Any, path: str, unknown: list[str]) -> Any:
        return self._first_fitting(spec.types, value, path, unknown)

    def _check_union(self, name: str, value: Any, path: str, unknown: list[str]) -> Any:
        candidates = list(self._subtypes[name])
        if isinstance(value, dict):
            narrowed = [
                c
                for c in candidates
                if c in self._discriminators
                and value.get(self._discriminators[c][0]) == self._discriminators[c][1]
            ]
            if any(c in self._discriminators for c in candidates):
                if not narrowed:
                    key = next(
                        self._discriminators[c][0] for c in candidates if c in self._discriminators
                    )
                    raise bad_request(
                        f'field "{path}.{key}" has unsupported value {value.get(key)!r}'
                    )
                candidates = narrowed
        return self._first_fitting(tuple(candidates), value, path, unknown)

    # ---------------------------------------------------------------- responses

    def conform(self, type_expr: str, value: Any, path: str = "result") -> Any:
        """Return ``value`` if it matches ``type_expr`` exactly; raise :class:`SpecViolation`."""
        unknown: list[str] = []
        try:
            checked = self.check_json(type_expr, value, path, unknown)
        except ApiError as error:
            raise SpecViolation(
                f"response does not match {type_expr}: {error.description}"
            ) from None
        if unknown:
            raise SpecViolation(f"response has fields not in {type_expr}: {unknown}")
        return checked

    def conform_result(self, method: MethodSpec, value: Any) -> Any:
        """Check a method's result against any of the types it may return."""
        errors: list[str] = []
        for type_expr in method.returns:
            try:
                return self.conform(type_expr, value)
            except SpecViolation as error:
                errors.append(str(error))
        raise SpecViolation(f"{method.name} result matches none of {method.returns}: {errors}")


def _field(raw: Mapping[str, Any]) -> FieldSpec:
    return FieldSpec(
        raw["name"], tuple(raw["types"]), bool(raw["required"]), bool(raw.get("deprecated"))
    )


def _is_object(type_expr: str) -> bool:
    return type_expr not in ("Integer", "String", "Boolean", "True", "Float", "InputFile")


def _missing(method: str, name: str) -> ApiError:
    specific = {
        "text": "message text is empty",
        "chat_id": "chat_id is empty",
        "message_id": "message identifier is not specified",
        "callback_query_id": "query is too old and response timeout expired or query ID is invalid",
        "inline_query_id": "query is too old and response timeout expired or query ID is invalid",
        "photo": "there is no photo in the request",
        "user_id": "invalid user_id specified",
    }
    if name in specific:
        return bad_request(specific[name])
    return bad_request(f'parameter "{name}" is required')


_UNION_MEMBER = re.compile(r"^ - ([A-Z]\w+)$", re.MULTILINE)


def _aiogram_types(type_text: str) -> list[str]:
    """aiogram's ``"A or B"`` and ``"Array of A, B and C"`` as api.json's list of types."""
    if type_text.startswith("Array of ") and ", " in type_text:
        inner = type_text.removeprefix("Array of ").replace(" and ", ", ").split(", ")
        return [f"Array of {name}" for name in inner]
    return type_text.split(" or ")


def _aiogram_entries(node: Any) -> Iterator[Mapping[str, Any]]:
    if isinstance(node, dict):
        if {"anchor", "name", "category"} <= node.keys():
            yield node
        for value in node.values():
            yield from _aiogram_entries(value)
    elif isinstance(node, list):
        for value in node:
            yield from _aiogram_entries(value)


def overlay_aiogram_schema(data: dict[str, Any], schema: Mapping[str, Any]) -> None:
    """Replace ``data``'s fields (api.json's shape) with those of a later aiogram schema.

    A method keeps api.json's return types (aiogram's schema has them in prose only); a
    method new in the schema must get its return types from a later update. A type without
    fields whose description lists its members (" - Name" lines) is a union, as api.json
    writes one with ``subtypes``.
    """
    data["version"] = f"Bot API {schema['api']['version']}"
    for entry in _aiogram_entries(schema["items"]):
        section = data[entry["category"]]
        known = section.setdefault(entry["name"], {"name": entry["name"]})
        known["description"] = [entry["description"]]
        annotations = entry.get("annotations", [])
        members = _UNION_MEMBER.findall(entry["description"])
        if entry["category"] == "types" and not annotations and members:
            known["subtypes"] = members
            continue
        known["fields"] = [
            {
                "name": a["name"],
                "types": _aiogram_types(a["type"]),
                "required": bool(a["required"]),
                "description": a["description"],
            }
            for a in annotations
        ]


def apply_update(data: dict[str, Any], update: Mapping[str, Any]) -> None:
    """Apply ``bot-api-10.3.json``: new types, fields added or changed, fields deprecated."""
    data["version"] = update["version"]
    data["release_date"] = update["release_date"]
    data["changelog"] = update["changelog"]
    data["types"].update(update["types"])
    for method, added in update["added_fields"].items():
        data["methods"][method]["fields"].extend(added)
    for method, changed in update["changed_fields"].items():
        fields = data["methods"][method]["fields"]
        for new in changed:
            names = [f["name"] for f in fields]
            if new["name"] in names:
                fields[names.index(new["name"])] = new
            else:
                fields.append(new)
    for method, names in update["deprecated_fields"].items():
        for known in data["methods"][method]["fields"]:
            if known["name"] in names:
                known["deprecated"] = True
    for method, returns in update["returns"].items():
        data["methods"][method]["returns"] = returns


def load_definitions() -> dict[str, Any]:
    """Bot API 10.3 in api.json's shape: 10.1, then aiogram's 10.2 schema, then 10.3."""
    data: dict[str, Any] = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    overlay_aiogram_schema(data, json.loads(AIOGRAM_SCHEMA_PATH.read_text(encoding="utf-8")))
    apply_update(data, json.loads(UPDATE_PATH.read_text(encoding="utf-8")))
    missing = [name for name, raw in data["methods"].items() if "returns" not in raw]
    if missing:
        raise SpecViolation(f"methods without return types: {missing}")
    return data


@cache
def load_spec() -> ApiSpec:
    """The spec bundled with the fake (Bot API 10.3), parsed once per process."""
    return ApiSpec(load_definitions())
