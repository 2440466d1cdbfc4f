"""The error answers of the Bot API, as one exception the fake raises and turns into JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class ApiError(Exception):
    """An error answer: HTTP status = ``error_code``, ``description``, optional ``parameters``."""

    def __init__(
        self, status: int, description: str, parameters: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = dict(parameters) if parameters else None

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.status,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(text: str, parameters: Mapping[str, Any] | None = None) -> ApiError:
    """400 ``Bad Request: <text>``."""
    return ApiError(400, f"Bad Request: {text}", parameters)


def forbidden(text: str) -> ApiError:
    """403 ``Forbidden: <text>``."""
    return ApiError(403, f"Forbidden: {text}")


def too_many_requests(retry_after: int) -> ApiError:
    """429 with ``parameters.retry_after``, as aiogram turns into ``TelegramRetryAfter``."""
    return ApiError(
        429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}
    )


NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
