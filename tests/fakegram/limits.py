"""Flood limits and fault injection, both driven by an injectable clock and seed."""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import ApiError, too_many_requests

Clock = Callable[[], float]


class ManualClock:
    """A clock for tests: time stands still until :meth:`advance` moves it."""

    def __init__(self, start: float = 1_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass(frozen=True)
class FloodLimits:
    """Telegram's limits on sending (edits count like sends). Off unless switched on."""

    per_chat_per_second: float = 1.0
    per_chat_burst: int = 3
    per_group_per_minute: int = 20
    overall_per_second: float = 30.0


@dataclass
class _Bucket:
    tokens: float
    stamp: float


class FloodControl:
    """Token buckets per chat and overall, a sliding minute per group."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self.limits: FloodLimits | None = None
        self._chats: dict[int, _Bucket] = {}
        self._overall: _Bucket | None = None
        self._groups: dict[int, deque[float]] = {}

    def enable(self, limits: FloodLimits | None = None) -> None:
        self.limits = limits or FloodLimits()
        self._chats.clear()
        self._groups.clear()
        self._overall = None

    def disable(self) -> None:
        self.limits = None

    def check(self, chat_id: int, is_group: bool) -> None:
        """Count one message to ``chat_id`` or raise the 429 Telegram would answer."""
        limits = self.limits
        if limits is None:
            return
        now = self._clock()
        chat = self._refill(
            self._chats.setdefault(chat_id, _Bucket(limits.per_chat_burst, now)),
            now,
            limits.per_chat_per_second,
            limits.per_chat_burst,
        )
        if self._overall is None:
            self._overall = _Bucket(limits.overall_per_second, now)
        overall = self._refill(
            self._overall, now, limits.overall_per_second, limits.overall_per_second
        )
        waits = []
        if chat.tokens < 1:
            waits.append((1 - chat.tokens) / limits.per_chat_per_second)
        if overall.tokens < 1:
            waits.append((1 - overall.tokens) / limits.overall_per_second)
        window = self._groups.setdefault(chat_id, deque()) if is_group else None
        if window is not None:
            while window and window[0] <= now - 60:
                window.popleft()
            if len(window) >= limits.per_group_per_minute:
                waits.append(window[0] + 60 - now)
        if waits:
            raise too_many_requests(max(1, math.ceil(max(waits))))
        chat.tokens -= 1
        overall.tokens -= 1
        if window is not None:
            window.append(now)

    @staticmethod
    def _refill(bucket: _Bucket, now: float, rate: float, capacity: float) -> _Bucket:
        bucket.tokens = min(capacity, bucket.tokens + (now - bucket.stamp) * rate)
        bucket.stamp = now
        return bucket


@dataclass(frozen=True)
class Fault:
    """What to do to one request: answer an error, or drop the connection."""

    status: int = 500
    description: str = "Internal Server Error"
    parameters: Mapping[str, Any] | None = None
    drop: bool = False
    after_executing: bool = False  # drop only: run the method, then lose the answer

    def error(self) -> ApiError:
        return ApiError(self.status, self.description, self.parameters)


@dataclass
class _Scripted:
    fault: Fault
    method: str | None
    chat_id: int | None
    nth: int
    seen: int = 0


LIFECYCLE_METHODS = frozenset({"getupdates", "getme", "setwebhook", "deletewebhook"})


@dataclass
class _RandomFaults:
    rng: random.Random
    server_error: float
    flood: float
    drop: float
    retry_after: int
    methods: frozenset[str] | None
    server_statuses: tuple[int, ...] = (500,)


@dataclass
class Faults:
    """One-shot scripted faults and seeded random ones, consulted before every request."""

    _scripted: list[_Scripted] = field(default_factory=list)
    _random: _RandomFaults | None = None

    def fail_next(
        self,
        method: str | None = None,
        *,
        chat_id: int | None = None,
        nth: int = 1,
        status: int = 500,
        description: str | None = None,
        parameters: Mapping[str, Any] | None = None,
    ) -> None:
        """Answer the ``nth`` matching call (from now) with an error, once."""
        text = description or _default_description(status, parameters)
        self._add(Fault(status, text, parameters), method, chat_id, nth)

    def flood_next(
        self, method: str | None = None, *, chat_id: int | None = None, retry_after: int = 1
    ) -> None:
        """Answer the next matching call with 429 ``retry after N``, once."""
        self.fail_next(
            method,
            chat_id=chat_id,
            status=429,
            parameters={"retry_after": retry_after},
        )

    def drop_next(
        self,
        method: str | None = None,
        *,
        chat_id: int | None = None,
        nth: int = 1,
        after_executing: bool = False,
    ) -> None:
        """Close the connection of the ``nth`` matching call without an answer, once."""
        self._add(Fault(drop=True, after_executing=after_executing), method, chat_id, nth)

    def random(
        self,
        *,
        seed: int,
        server_error: float = 0.0,
        flood: float = 0.0,
        drop: float = 0.0,
        retry_after: int = 1,
        methods: set[str] | None = None,
        server_statuses: tuple[int, ...] = (500,),
    ) -> None:
        """Fail calls at these rates (0..1) from ``random.Random(seed)``.

        By default every method except the polling/webhook lifecycle ones is affected.
        A server error answers one of ``server_statuses`` (500, 502, 503, 504 ...).
        """
        if not server_statuses or any(not 500 <= s <= 599 for s in server_statuses):
            raise ValueError(f"server_statuses must be 5xx codes, got {server_statuses}")
        self._random = _RandomFaults(
            random.Random(seed),
            server_error,
            flood,
            drop,
            retry_after,
            frozenset(m.lower() for m in methods) if methods else None,
            tuple(server_statuses),
        )

    def clear(self) -> None:
        self._scripted.clear()
        self._random = None

    @property
    def pending(self) -> int:
        """Scripted faults that have not fired yet."""
        return len(self._scripted)

    def _add(self, fault: Fault, method: str | None, chat_id: int | None, nth: int) -> None:
        if nth < 1:
            raise ValueError("nth counts calls from 1")
        self._scripted.append(_Scripted(fault, method.lower() if method else None, chat_id, nth))

    def pick(self, method: str, chat_id: int | None) -> Fault | None:
        """The fault for this call, if any (scripted first, then random)."""
        key = method.lower()
        for entry in list(self._scripted):
            if entry.method not in (None, key) or entry.chat_id not in (None, chat_id):
                continue
            entry.seen += 1
            if entry.seen == entry.nth:
                self._scripted.remove(entry)
                return entry.fault
        chaos = self._random
        if chaos is None:
            return None
        if chaos.methods is None and key in LIFECYCLE_METHODS:
            return None
        if chaos.methods is not None and key not in chaos.methods:
            return None
        roll = chaos.rng.random()
        if roll < chaos.server_error:
            status = (
                chaos.rng.choice(chaos.server_statuses)
                if len(chaos.server_statuses) > 1
                else chaos.server_statuses[0]
            )
            return Fault(status, _default_description(status, None))
        roll -= chaos.server_error
        if roll < chaos.flood:
            return Fault(
                429,
                f"Too Many Requests: retry after {chaos.retry_after}",
                {"retry_after": chaos.retry_after},
            )
        roll -= chaos.flood
        if roll < chaos.drop:
            return Fault(drop=True)
        return None


def _default_description(status: int, parameters: Mapping[str, Any] | None) -> str:
    if status == 429:
        return f"Too Many Requests: retry after {(parameters or {}).get('retry_after', 1)}"
    return {
        400: "Bad Request",
        403: "Forbidden",
        409: "Conflict",
        500: "Internal Server Error",
        502: "Bad Gateway",
        503: "Service Unavailable",
        504: "Gateway Timeout",
    }.get(status, "Error")
