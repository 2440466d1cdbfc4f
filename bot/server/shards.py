"""Every instance plays: each holds a fair share of the shards (issue 35).

A game belongs to the shard of its chat (`storage.shards.shard_of`), and each shard is a
lease "shard:<n>" with the semantics of the lease "leader" (`storage.leases`): taken when
free, run out or this name's own, each take a new term, renewed only in its term. The
`ShardKeeper` of an instance holds its share: every `ttl / 3` seconds, on a thread of its
own with its own event loop and database connection (`bot.server.keeper_thread`, as
`bot.server.leadership`'s keeper: a busy bot loop never delays a renewal), it renews
every shard it holds in one round trip, writes its heartbeat, and compares what it holds
with its fair share.

**Fair share.** The live instances (a heartbeat within the lease's time) split the
shards by their sorted names (`storage.shards.fair_share`): every instance computes the
same split alone. A keeper holding fewer than its share takes shards that are free, given
back or run out, lowest first; shards no live instance holds (their holder died, or gave
them back) before those of a live holder that is merely late to renew.

**Takeover.** An instance that dies or stalls stops its heartbeat and its renewals: a
lease's time later it is not live, the others' shares grow, and they take its shards as
their leases run out. A renewal that is slow or fails never drops a shard (nobody else
could take it meanwhile either); a shard is lost only when it is found taken by another
term, or a change for it is refused by its fence: `on_lost(shard)`, and the bot stops
acting for that shard at once.

**Give-back.** A newcomer makes the others' shares smaller. A keeper holding more than
its share asks the bot for its highest shard, one at a time (`on_release_asked`); the
bot stops acting for it, then calls `give_back`, which releases the lease, so the
newcomer takes it at its next round. Nobody stops: each shard moves alone.

**Fencing.** Every change written for a shard's games checks that shard's term in its
own transaction (`fence_for`, a `storage.db.Fence`), so an instance paused past its
lease, whose shard another took meanwhile, changes nothing for it after it resumes.
Telegram is called for a shard only while its lease surely runs (`valid`: the guard of
`bot.server.leadership`, per shard).

**The instance's fence.** Besides its shards, the keeper holds the instance's own lease
"instance:<name>", taken in a new term before any shard (`start` returns once it is) and
renewed with the shards in the same statement. Its fence (`instance_fence`) is the
`Database.fence` of the instance: every change not made in a shard's scope checks it.
A keeper that takes a shard whose holder's lease ran out also ends that holder's
instance term if its own lease ran out too (`storage.shards.evict_instance`), so an
instance that stalled past its leases and resumes is refused its very next change of
any kind, or finds its instance lease gone at its next renewal: `on_evicted`, and the
process stops (as a deposed leader's does).

A stop asked for (`close`) gives every shard and the instance's lease back and deletes
the instance's heartbeat, so the others take its share at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any, TypeVar

from bot.server.keeper_thread import (
    DEFAULT_TTL,
    RELEASE_SECONDS,
    RENEWAL_FAILURES,
    KeeperThread,
)
from storage import leases, shards
from storage.db import Database, Deposed, Fence

log = logging.getLogger(__name__)
T = TypeVar("T")


class ShardKeeper:
    """The shards of one named instance: take its fair share, keep it (on the keeper's
    thread), fence each shard's changes with its term, give shards back when asked.

    The callbacks run on the bot's loop (the one `start` is awaited on): `on_gained(shard,
    term)` when a shard is taken (pick up its games as a restart does); `on_lost(shard)`
    when it is found taken or a change for it is refused (stop acting for it at once);
    `on_release_asked(shard)` when the instance holds more than its share (stop acting
    for it, then `await give_back(shard)`). `open_keeper_db` opens the keeper's own
    connection, in the keeper's loop. With `thread=False` the keeper runs as a task on
    the bot's loop instead (the tests, with an injected `clock`, `monotonic` and
    `sleep`). `on_evicted()` is told when the instance's own lease is found taken, or a
    change under `instance_fence` is refused (stop the process; None: every shard is
    lost instead). A keeper that fails loses every shard: nobody would renew them."""

    def __init__(
        self,
        name: str,
        *,
        open_keeper_db: Callable[[], Awaitable[Database]],
        on_gained: Callable[[int, int], None],
        on_lost: Callable[[int], None],
        on_release_asked: Callable[[int], None],
        on_evicted: Callable[[], None] | None = None,
        count: int = shards.DEFAULT_SHARD_COUNT,
        ttl: float = DEFAULT_TTL,
        thread: bool = True,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.name = name
        self.count = count
        self.ttl = ttl
        self._on_gained = on_gained
        self._on_lost = on_lost
        self._on_release_asked = on_release_asked
        self._on_evicted = on_evicted
        self._clock = clock
        self._monotonic = monotonic
        self._sleep = sleep
        # Shard → term held, and shard → monotonic time its lease surely runs until:
        # replaced whole under `_state` (the keeper and a refused change may both write),
        # read anywhere without it.
        self._owned: Mapping[int, int] = {}
        self._valid_until: Mapping[int, float] = {}
        self._state = threading.Lock()
        self.instance_term: int | None = None  # the instance's own lease, once taken
        self._instance_valid_until: float | None = None  # monotonic, as `_valid_until`
        self._evicted = False
        self._asked: int | None = None  # the shard the bot was asked to give back
        self.share: int | None = None  # the fair share at the last round (None before)
        self.live = 1  # the live instances at the last round (the bot-wide budget's share)
        self._db: Database | None = None  # the keeper's connection, once open
        self._db_turn = asyncio.Lock()  # on the keeper's loop: one statement at a time
        self._keeper = KeeperThread(
            f"shards-{name}",
            owner="the shards'",
            open_db=open_keeper_db,
            begin=self._take_instance,
            keep=self._keep,
            thread=thread,
            sleep=sleep,
        )

    # What the bot reads (from its own loop, or any thread).

    def owned(self) -> dict[int, int]:
        """The shards held now, each with its term."""
        return dict(self._owned)

    def fence_for(self, shard: int) -> Fence | None:
        """The fence of the changes written for the shard's games while this instance
        holds it (None when it does not): a change refused by it loses the shard."""
        term = self._owned.get(shard)
        if term is None:
            return None

        def deposed(refusal: Deposed) -> None:
            self._deposed(shard, term, refusal)

        return Fence(shards.lease_name(shard), term, deposed, hold=self.ttl / 3)

    def instance_fence(self) -> Fence | None:
        """The fence of every change the instance writes outside a shard's scope (its
        `Database.fence`): its own lease's term; None before `start` took it."""
        term = self.instance_term
        if term is None:
            return None
        return Fence(
            shards.instance_lease_name(self.name), term, self._instance_deposed, hold=self.ttl / 3
        )

    def instance_valid(self) -> bool:
        """Whether the instance's own lease surely still runs (as `valid` for a shard). It
        is renewed with the shards in one statement, so while it runs no shard it holds
        has run out: an instance paused past its leases is not sure of it until its
        keeper's next renewal (which finds it evicted, and stops the process)."""
        until = self._instance_valid_until
        return not self._evicted and until is not None and self._monotonic() < until

    def valid(self, shard: int) -> bool:
        """Whether the shard's lease surely still runs: for `ttl - ttl / 6` seconds (the
        clocks' slack) after the start of its last take or renewal that succeeded."""
        until = self._valid_until.get(shard)
        return shard in self._owned and until is not None and self._monotonic() < until

    # What the bot asks.

    async def start(self) -> None:
        """Start the keeper; return once it holds the instance's own lease
        (`instance_fence`). It then takes the instance's share as it finds shards free,
        telling each one to `on_gained`. Raises when the database does not answer the
        start (`bot.server.keeper_thread`: the start fails)."""
        await self._keeper.start()

    async def give_back(self, shard: int) -> bool:
        """The bot has stopped acting for `shard` (asked by `on_release_asked`): release
        its lease, so another instance takes it at once. False when it was not held, or
        the release failed (then the lease runs out by itself), or the keeper stopped
        first (`close`: it releases every shard)."""
        return await self._keeper.on_keeper_loop(self._give_back(shard), False)

    async def close(self) -> None:
        """At a stop asked for: no more renewing; every shard given back and the heartbeat
        deleted (by the keeper, on its connection, before it closes it)."""
        await self._keeper.stop(RELEASE_SECONDS * 2)

    # The keeper: on its own thread (or, in tests, a task of the bot's loop).

    async def _keep(self, db: Database) -> None:
        """Keep the share until cancelled; then give every shard back. A keeper that
        fails loses its shards: nobody would renew them."""
        self._db = db
        try:
            await self._rounds(db)
        except Exception:
            log.critical("the shards' keeper failed: every shard is lost", exc_info=True)
            for shard, term in sorted(self._owned.items()):
                self._lose(shard, term)
        finally:
            await self._leave(db)

    async def _take_instance(self, db: Database) -> None:
        """The instance's own lease, in a new term, with the start's patience (a database
        that does not answer fails the start)."""

        async def take() -> tuple[float, int]:
            began_m = self._monotonic()
            term = await self._answer(
                shards.take_instance(db, self.name, now=self._clock(), ttl=self.ttl)
            )
            return began_m, term

        began_m, term = await self._keeper.at_start(
            "taking the instance's lease", take, RENEWAL_FAILURES
        )
        self.instance_term = term
        self._instance_valid_until = began_m + self.ttl - self.ttl / 6
        log.info("instance %r in term %d", self.name, term)

    async def _rounds(self, db: Database) -> None:
        failing_since: float | None = None
        while True:
            began_m = self._monotonic()
            try:
                async with self._db_turn:
                    await self._round(db)
            except RENEWAL_FAILURES as exc:
                if failing_since is None:  # once a burst
                    failing_since = began_m
                    log.warning(
                        "the shards are not renewed now (%s); tried again (their changes "
                        "stay fenced, Telegram waits once a lease may have run out)",
                        str(exc) or "no answer in time",
                    )
                await self._sleep(self.ttl / 6)
                continue
            if failing_since is not None:
                log.info("the shards are renewed again after %.1f s", began_m - failing_since)
                failing_since = None
            await self._sleep(self.ttl / 3)

    async def _round(self, db: Database) -> None:
        """Renew what is held, say we are alive, then take or give back towards the
        fair share. An evicted instance takes nothing more: it is stopping."""
        await self._renew(db)
        if self._evicted:
            return
        now = self._clock()
        await self._answer(shards.heartbeat(db, self.name, now=now))
        live = await self._answer(shards.live_instances(db, now=now, ttl=self.ttl))
        share = shards.fair_share(live, self.name, self.count)
        self.live = max(1, len(live))
        if share != self.share:
            log.info(
                "instance %s: its share is %d of %d shards (%d live instance(s))",
                self.name,
                share,
                self.count,
                len(live),
            )
            self.share = share
        held = len(self._owned)
        if held < share:
            await self._take(db, live, share)
        elif held > share:
            self._ask_back(share)

    async def _renew(self, db: Database) -> None:
        terms = dict(self._owned)
        instance_term = self.instance_term
        began, began_m = self._clock(), self._monotonic()
        kept, mine = await self._answer(
            shards.renew_held(db, self.name, terms, instance_term, now=began, ttl=self.ttl)
        )
        if instance_term is not None and not mine:
            log.critical(
                "the lease of instance %r was ended by another instance (it was found "
                "stalled): stopping at once",
                self.name,
            )
            self._evict()
            return
        if mine:
            self._instance_valid_until = began_m + self.ttl - self.ttl / 6
        with self._state:
            valid = dict(self._valid_until)
            for shard in kept:
                if self._owned.get(shard) == terms[shard]:
                    valid[shard] = began_m + self.ttl - self.ttl / 6
            self._valid_until = valid
        lost = sorted(set(terms) - kept)
        if not lost:
            return
        found = await self._holders_quietly(db)
        for shard in lost:
            holder = found.get(shard)
            log.critical(
                "shard %d was taken over by %r (term %s): its games stop here at once",
                shard,
                holder.holder if holder else "?",
                holder.term if holder else "?",
            )
            self._lose(shard, terms[shard])

    async def _take(self, db: Database, live: list[str], share: int) -> None:
        """Take free, given back or run out shards, lowest first, but those no live
        instance holds before those of a live one late to renew, until the share is
        held (a take another instance won is passed over)."""
        found = await self._answer(shards.holders(db, self.count))
        now = self._clock()
        others = set(live) - {self.name}

        def takeable(shard: int) -> bool:
            lease = found.get(shard)
            return lease is None or lease.expires_at < now or lease.holder == self.name

        def late_live_holder(shard: int) -> bool:
            lease = found.get(shard)
            return lease is not None and lease.holder in others and not shards.released(lease)

        wanted = sorted(
            (shard for shard in range(self.count) if shard not in self._owned and takeable(shard)),
            key=lambda shard: (late_live_holder(shard), shard),
        )
        for shard in wanted:
            if len(self._owned) >= share:
                return
            began, began_m = self._clock(), self._monotonic()
            lease = found.get(shard)
            if lease is not None and lease.holder != self.name and not shards.released(lease):
                await self._evict_holder(db, lease.holder, began)
            term = await self._answer(
                shards.take_shard(db, shard, self.name, now=began, ttl=self.ttl)
            )
            if term is not None:
                self._gain(shard, term, began_m)

    async def _evict_holder(self, db: Database, holder: str, now: float) -> None:
        """The shard's holder let its lease run out: end its instance term too if its
        own lease ran out (it stalled or died), so it changes nothing should it resume."""
        if await self._answer(shards.evict_instance(db, holder, now=now)):
            log.warning("instance %r stalled past its lease: its term is ended", holder)

    def _gain(self, shard: int, term: int, began_m: float) -> None:
        with self._state:
            self._owned = {**self._owned, shard: term}
            self._valid_until = {
                **self._valid_until,
                shard: began_m + self.ttl - self.ttl / 6,
            }
        log.info("shard %d taken as %r in term %d", shard, self.name, term)
        self._keeper.tell(self._on_gained, shard, term)

    def _ask_back(self, share: int) -> None:
        """One shard at a time: the highest, once the last one asked for is given back
        (or lost)."""
        if self._asked is not None and self._asked in self._owned:
            return
        shard = max(self._owned)
        self._asked = shard
        log.debug(
            "%d shards held, %d is the share: shard %d asked back", len(self._owned), share, shard
        )
        self._keeper.tell(self._on_release_asked, shard)

    async def _give_back(self, shard: int) -> bool:
        db = self._db
        async with self._db_turn:
            term = self._owned.get(shard)
            if term is None or db is None:
                return False
            self._drop(shard)
            if self._asked == shard:
                self._asked = None
            try:
                given = await self._answer(shards.release_shard(db, shard, self.name, term))
            except RENEWAL_FAILURES as exc:
                log.warning("shard %d is not given back (%s): it runs out by itself", shard, exc)
                return False
        if given:
            log.info("shard %d given back (term %d)", shard, term)
        return given

    async def _leave(self, db: Database) -> None:
        """At the keeper's end: every shard released, the heartbeat deleted (the keeper's
        thread then closes the connection)."""
        with self._state:
            terms = dict(self._owned)
            self._owned, self._valid_until = {}, {}
        instance_term = None if self._evicted else self.instance_term
        try:
            async with asyncio.timeout(RELEASE_SECONDS):
                given = await shards.release_shards(db, self.name, terms, instance_term)
                await shards.leave(db, self.name)
        except RENEWAL_FAILURES as exc:
            log.warning("the shards are not given back (%s): they run out by themselves", exc)
        else:
            if given:
                log.info("shards given back at the stop: %s", ", ".join(map(str, sorted(given))))
        self._db = None

    async def _holders_quietly(self, db: Database) -> dict[int, leases.Lease]:
        """Who holds the shards, for a log line: nothing when the database cannot say."""
        with contextlib.suppress(*RENEWAL_FAILURES):
            return await self._answer(shards.holders(db, self.count))
        return {}

    async def _answer(self, asked: Coroutine[Any, Any, T]) -> T:
        """One call to the database, given up after `ttl / 3` (`TimeoutError`)."""
        async with asyncio.timeout(self.ttl / 3):
            return await asked

    # Losing a shard, and telling the bot.

    def _deposed(self, shard: int, term: int, refusal: Deposed) -> None:
        """The fence refused a change for the shard: another instance holds it now."""
        log.critical("%s: another instance holds shard %d now; its games stop here", refusal, shard)
        self._lose(shard, term)

    def _instance_deposed(self, refusal: Deposed) -> None:
        """The instance's fence refused a change: another instance found it stalled."""
        log.critical("%s: this instance was found stalled; stopping at once", refusal)
        self._evict()

    def _evict(self) -> None:
        """The instance's own term is over (once): every shard lost, and the bot told
        to stop (`on_evicted`)."""
        with self._state:
            if self._evicted:
                return
            self._evicted = True
        for shard, term in sorted(self._owned.items()):
            self._lose(shard, term)
        if self._on_evicted is not None:
            self._keeper.tell(self._on_evicted)

    def _lose(self, shard: int, term: int) -> None:
        """The shard is lost in `term` (once: the keeper and a refused change may both
        find it): no longer held, and the bot told."""
        with self._state:
            if self._owned.get(shard) != term:
                return
            self._drop_locked(shard)
        self._keeper.tell(self._on_lost, shard)

    def _drop(self, shard: int) -> None:
        with self._state:
            self._drop_locked(shard)

    def _drop_locked(self, shard: int) -> None:
        self._owned = {s: t for s, t in self._owned.items() if s != shard}
        self._valid_until = {s: v for s, v in self._valid_until.items() if s != shard}
