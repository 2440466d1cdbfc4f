"""bench/e2e.py's shard mode (``--instances``, issue 35, docs/instances.md): N bot
processes on one PostgreSQL schema, each playing its share of the groups, and the search
for the number of games they hold (``--held``).

Not a benchmark itself: bench/e2e.py imports it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tests.e2e.harness import free_port
from tests.e2e.shard_audit import ShardInstance, wait_shared
from tests.fakegram import FakeTelegram

# Shards for the runs: a few times the instances, as docs/instances.md advises, and few
# enough that a second instance's share (six give-backs) arrives within ~15 s.
SHARDS = 12
# LEASE_SECONDS of the runs: the keepers' round is a third of it, and a newcomer's share
# comes one shard a round; 6 s (as tests/e2e/test_shards_e2e.py) spreads two instances'
# shards within ~15 s of the second start instead of the default 15 s's ~40 s.
LEASE = 6
SHARING_SECONDS = 20 * LEASE  # a deadline (stretched by the machine's pace), not a wait
HELD_P99 = 1.0  # seconds: press -> answer p99 under this, the games are held
HELD_PRECISION = 0.12  # the search ends when the first not held is within 12% of the last held


def instance_counts(given: Sequence[str]) -> list[int]:
    """`--instances 1,2` or `--instances 1 2`: the counts, in the order given, each once."""
    counts: list[int] = []
    for item in given:
        for part in item.split(","):
            if not part.strip():
                continue
            count = int(part)
            if count < 1:
                raise ValueError(f"an instance count is at least 1, not {count}")
            if count not in counts:
                counts.append(count)
    if not counts:
        raise ValueError("no instance count given")
    return counts


def instance_name(number: int) -> str:
    """The INSTANCE_NAME of the `number`-th instance (1-based): sorted as started."""
    return f"bench-{number:02d}"


async def start_instances(
    fake: FakeTelegram, workdir: Path, database: Path, count: int, env: dict[str, str]
) -> list[ShardInstance]:
    """`count` instances of ``python -m bot`` in shard mode on the schema standing for
    `database` (`tests.databases`), each with `env` and its own folder; returned once each
    has written its heartbeat and the shards are shared fairly, so that every group set up
    afterwards is played from the start by the instance it stays with.

    With a webhook (`env` has WEBHOOK_URL) every instance listens on a port of its own,
    and the fake (which holds one webhook URL, as Telegram does) posts every update to the
    first one, which stores it in the queue of its shard; without, the holder of shard 0
    long-polls and stores them."""
    bots = []
    for number in range(1, count + 1):
        folder = workdir / instance_name(number)
        folder.mkdir(exist_ok=True)
        own = dict(env)
        if number > 1 and "WEBHOOK_URL" in env:
            own["WEBHOOK_LISTEN"] = f"127.0.0.1:{free_port()}"
        bots.append(
            ShardInstance(
                fake,
                folder,
                **own,
                DATABASE_PATH=str(database),
                INSTANCE_NAME=instance_name(number),
                SHARDS=str(SHARDS),
                LEASE_SECONDS=str(LEASE),
            )
        )
    for bot in bots:  # one at a time: the first start migrates the schema
        await bot.start()
    url = bots[0].env["DATABASE_URL"]
    await wait_shared(fake, url, [bot.name for bot in bots], SHARDS, seconds=SHARING_SECONDS)
    return bots


@dataclass(frozen=True)
class Step:
    """One run of the capacity search: its games, and what the people got."""

    games: int
    p99: float  # seconds, press -> answer (an unanswered press counts as infinite)
    moves_per_second: float
    cpu_per_move: float  # ms of the bot's processes
    server_cpu_per_move: float | None  # ms of PostgreSQL's
    fake_share: float  # this process's CPU (the fake and the people), share of one core
    bot_share: float  # the bot's processes' CPU, share of one core

    @property
    def held(self) -> bool:
        return self.p99 < HELD_P99


@dataclass
class CapacitySearch:
    """Doubling from `start` games until a count is not held, then halving the interval
    between the last held and the first not held until they are within `precision` of
    each other (or `most` steps were run): the games held is the last held."""

    start: int
    precision: float = HELD_PRECISION
    most: int = 8
    steps: list[Step] = field(default_factory=list)

    @property
    def held(self) -> Step | None:
        """The step with the most games held, if any was."""
        return max((s for s in self.steps if s.held), key=lambda s: s.games, default=None)

    @property
    def not_held(self) -> Step | None:
        """The step with the fewest games not held, if any."""
        return min((s for s in self.steps if not s.held), key=lambda s: s.games, default=None)

    def next_games(self) -> int | None:
        """The next count to try, or None when the search is over."""
        if not self.steps:
            return self.start
        if len(self.steps) >= self.most:
            return None
        held, failed = self.held, self.not_held
        if failed is None:
            assert held is not None
            return held.games * 2
        if held is None:
            # Even the start was not held: halve down to a count that is (or to 1).
            return None if failed.games <= 1 else max(1, failed.games // 2)
        if failed.games - held.games <= max(1, math.ceil(held.games * self.precision)):
            return None
        return (held.games + failed.games) // 2

    def record(self, step: Step) -> None:
        self.steps.append(step)
