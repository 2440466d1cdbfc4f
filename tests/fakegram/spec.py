"""The official Bot API definitions (``api.json``) as a request checker and response shaper.

``api.json`` comes from telegram-bot-api-spec (MIT, see ``LICENSE`` beside it), Bot API 10.1.
Requests are checked the way the real server checks them: unknown method, missing required
field, value of the wrong type. Unknown fields are *not* refused (the real server ignores
them) but reported, so the fake can fail the test that sent them. Responses built by the fake
go through :meth:`ApiSpec.conform`, which refuses any undeclared field or wrong type: a bug in
the fake must never hand the bot something Telegram would not.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from .errors import ApiError, bad_request

SPEC_PATH = Path(__file__).with_name("api.json")

# Fields aiogram 3.31 requires in answers that api.json (Bot API 10.1) does not list; the
# real server sends them, so the fake declares them too rather than break the client.
EXTRA_RESPONSE_FIELDS: Mapping[str, tuple[tuple[str, str, bool], ...]] = {
    "ChatMemberAdministrator": (("can_send_welcome_messages", "Boolean", False),),
}

_DISCRIMINATOR = re.compile(r"(?:must be|always) [“\"]?([a-z_]+)")
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
    return FieldSpec(raw["name"], tuple(raw["types"]), bool(raw["required"]))


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


@cache
def load_spec() -> ApiSpec:
    """The spec bundled with the fake, parsed once per process."""
    return ApiSpec(json.loads(SPEC_PATH.read_text(encoding="utf-8")))
