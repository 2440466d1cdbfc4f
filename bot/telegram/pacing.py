"""How fast the bot lets itself talk: token buckets per chat and for the whole bot,
shaped a little under Telegram's limits (TELEGRAM.md: limits)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pace:
    """A token bucket's shape: `rate` calls a second on average, `burst` at once."""

    rate: float
    burst: int


@dataclass(frozen=True, slots=True)
class Limits:
    """How fast the bot lets itself talk. `Limits.off()` for measuring the bot itself."""

    # A little under Telegram's one a second with a burst of three, so that timing jitter
    # never tips it over: a token is taken when a call leaves and Telegram counts it when
    # it arrives, so the burst is one short of Telegram's, slack for a call held up to a
    # second on its way (a loaded machine holds calls up that long).
    private: Pace | None = Pace(rate=0.95, burst=2)
    # At most 3 + 16 = 19 calls in any minute: under the 20 a group allows.
    group: Pace | None = Pace(rate=16 / 60, burst=3)
    overall: Pace | None = Pace(rate=25.0, burst=25)
    retries: int = 5  # attempts after a 5xx or a dropped connection
    backoff: float = 0.5  # first pause before such a retry, doubled each time
    # Calls waiting per chat and lane. The game lane holds at most one call per message
    # of a game (the publisher waits for each), so 100 is far above any real chat; the
    # reply lane is what a flood of commands fills: 20 replies are a minute of a group's
    # pacing, and anything older than that is no longer worth sending.
    game_queue: int = 100
    reply_queue: int = 20

    @classmethod
    def off(cls) -> Limits:
        return cls(private=None, group=None, overall=None)


class TokenBucket:
    def __init__(self, pace: Pace, clock: Callable[[], float], tokens: float | None = None) -> None:
        """A bucket holding `tokens` now (None: full)."""
        self.pace = pace
        self.clock = clock
        self.tokens = float(pace.burst) if tokens is None else tokens
        self.updated = clock()

    def wait_time(self) -> float:
        """Seconds until a token is there (0: now)."""
        moment = self.clock()
        self.tokens = min(
            float(self.pace.burst), self.tokens + (moment - self.updated) * self.pace.rate
        )
        self.updated = moment
        # A token short by a rounding error is there: waiting for 1e-16 s more could be
        # lost in the clock's own rounding and wait forever.
        return 0.0 if self.tokens >= 1.0 - 1e-9 else (1.0 - self.tokens) / self.pace.rate

    def take(self) -> None:
        self.tokens -= 1.0

    def level(self) -> float:
        """The tokens held now."""
        self.wait_time()
        return self.tokens

    def full(self) -> bool:
        """Whether the bucket holds its whole burst again (as a new one would)."""
        return self.level() >= self.pace.burst - 1e-9
