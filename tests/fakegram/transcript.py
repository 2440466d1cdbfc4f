"""The record of every call the bot made, in order, with what the fake answered."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Call:
    """One request: typed params as the fake understood them, and the answer it gave."""

    seq: int
    at: float  # the fake's clock
    wall: float  # time.time()
    method: str  # canonical spelling from the spec, e.g. "sendMessage"
    params: Mapping[str, Any]
    ok: bool
    result: Any = None
    error_code: int | None = None
    description: str | None = None
    parameters: Mapping[str, Any] | None = None
    injected: bool = False  # the answer came from fault injection
    dropped: bool = False  # the connection was closed without an answer
    via: str = "http"  # or "webhook-reply" for a method returned in a webhook response
    sender: str | None = None  # the request's User-Agent: which bot process made it

    @property
    def chat_id(self) -> object:
        """The chat the call names, if any (as sent: a number or an @username)."""
        return self.params.get("chat_id")

    def line(self) -> str:
        params = json.dumps(self.params, ensure_ascii=False, default=repr)
        if self.ok:
            outcome = "ok"
        elif self.dropped:
            outcome = "DROPPED"
        else:
            outcome = f"{self.error_code} {self.description}"
        sender = f" [{self.sender.rsplit(' ', 1)[-1]}]" if self.sender else ""  # domino/<name>
        return f"#{self.seq} {self.at:.3f}{sender} {self.method} {params[:300]} -> {outcome}"


class Transcript:
    """Calls in order. ``position`` is the ``seq`` the next call will get."""

    def __init__(self) -> None:
        self._calls: list[Call] = []

    def append(self, call: Call) -> None:
        self._calls.append(call)

    @property
    def position(self) -> int:
        return len(self._calls)

    def next_seq(self) -> int:
        return len(self._calls)

    def __iter__(self) -> Iterator[Call]:
        return iter(list(self._calls))

    def __len__(self) -> int:
        return len(self._calls)

    def __getitem__(self, index: int) -> Call:
        return self._calls[index]

    def calls(self, method: str | None = None, *, ok: bool | None = None) -> list[Call]:
        """Calls of ``method`` (case-insensitive), optionally only successes or failures."""
        return [
            c
            for c in self._calls
            if (method is None or c.method.lower() == method.lower()) and (ok is None or c.ok is ok)
        ]

    def leading_to(self, call: Call, count: int) -> list[Call]:
        """The last `count` calls to `call`'s chat before it: what a refusal followed."""
        earlier = [c for c in self._calls[: call.seq] if c.chat_id == call.chat_id]
        return earlier[-count:] if count > 0 else []

    def dump(self, *, skip_polling: bool = True) -> str:
        """Readable lines, for failure messages."""
        return "\n".join(
            c.line()
            for c in self._calls
            if not (skip_polling and c.method == "getUpdates" and c.ok and not c.result)
        )
