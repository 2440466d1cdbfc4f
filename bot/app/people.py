"""The people the bot writes to: who pressed or wrote (`Person`), and what the bot
remembers of everyone it knows (`People`): their language and name as last seen."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from bot.infra.lru import Lru
from i18n import Lang, lang_of
from storage import group_hands, repo
from storage.db import Database
from storage.records import HandsPlace, UserRecord

SEEN_CACHE_SIZE = 100_000  # people whose last-seen name is remembered in memory
LANG_CACHE_SIZE = 100_000  # people whose language is remembered in memory
REACHABLE_CACHE_SIZE = 100_000  # people whose latest /start of this run is remembered
HANDS_CACHE_SIZE = 100_000  # people whose hands choice and reach are remembered in memory
# Telegram's sender of an anonymous admin's messages in groups (`sender_chat` is the group).
ANONYMOUS_ADMIN_ID = 1087968824


@dataclass(frozen=True, slots=True)
class Person:
    """Who pressed or wrote, as Telegram describes them."""

    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None

    @property
    def lang(self) -> Lang:
        return lang_of(self.language_code)

    @property
    def name(self) -> str:
        full = f"{self.first_name} {self.last_name}" if self.last_name else self.first_name
        return " ".join(full.split()) or (self.username or str(self.id))

    @property
    def anonymous_admin(self) -> bool:
        """An admin writing as the group: nobody can write to them, so they get no seat."""
        return self.id == ANONYMOUS_ADMIN_ID

    def record(self) -> UserRecord:
        return UserRecord(
            id=self.id,
            first_name=self.first_name,
            last_name=self.last_name,
            username=self.username,
            language=self.lang.value,
        )


class People:
    """Everyone the bot knows, over the `users` table, with the language and the record
    of each as last seen kept in memory (bounded: anything forgotten is read again)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._langs: Lru[int, Lang] = Lru(LANG_CACHE_SIZE)  # user id -> language, as last seen
        self._seen: Lru[int, UserRecord] = Lru(SEEN_CACHE_SIZE)  # user id -> as last written
        # User id -> their latest mark as reachable (a /start) in this run, numbered by one
        # rising count: a refusal of a call begun before it answers a block they lifted.
        self._reachable: Lru[int, int] = Lru(REACHABLE_CACHE_SIZE)
        self._marks = itertools.count(1)
        # User id -> (their hands choice, None: the group's; whether the bot may write to
        # them), as stored.
        self._hands: Lru[int, tuple[HandsPlace | None, bool]] = Lru(HANDS_CACHE_SIZE)
        self._hands_changes = 0  # bumped at each change: a read begun before is not kept

    def noticed(self, person: Person) -> Lang:
        """The person wrote or pressed: write to them in their language from now on."""
        lang = self._langs[person.id] = person.lang
        return lang

    async def remember(self, person: Person, *, can_message: bool | None = None) -> None:
        """Store the person (and whether the bot may write to them, when known)."""
        if can_message:
            # Marked before it is written: no refusal of an older call can be taken up
            # while the database already says reachable and the mark does not.
            self._reachable[person.id] = next(self._marks)
        async with self.db.transaction() as tx:
            await repo.upsert_user(tx, person.record(), can_message=can_message)
        self._forget_hands(person.id)  # read again
        self.noticed(person)

    def unreachable(self, user_id: int) -> None:
        """The bot may no longer write to the person (stored so by the caller)."""
        self._forget_hands(user_id)

    async def hands_place(self, user_id: int, group_default: HandsPlace) -> HandsPlace:
        """Where the person wants their hand: their own choice, else their group's default."""
        chosen, _ = await self._hands_of(user_id)
        return chosen or group_default

    async def private_hand(self, user_id: int, group_default: HandsPlace) -> bool:
        """Whether the person's hand goes to their private chat: they want it there (or in
        both places) and the bot may write to them (they pressed Start and did not block
        it). Someone who never opened the bot's chat plays from the group alone."""
        chosen, can_message = await self._hands_of(user_id)
        return can_message and (chosen or group_default).private

    async def choose_hands(self, person: Person, place: HandsPlace | None) -> None:
        """Store the person's choice (None: their group's default from now on)."""
        async with self.db.transaction() as tx:
            await group_hands.choose_hands(tx, person.record(), place)
        self._forget_hands(person.id)

    async def hands_chosen(self, user_id: int) -> HandsPlace | None:
        """The person's own choice; None: their group's default."""
        chosen, _ = await self._hands_of(user_id)
        return chosen

    async def _hands_of(self, user_id: int) -> tuple[HandsPlace | None, bool]:
        known = self._hands.get(user_id)
        if known is None:
            began = self._hands_changes
            known = await group_hands.hands_and_reach(self.db, user_id)
            if self._hands_changes == began:
                self._hands[user_id] = known
        return known

    def _forget_hands(self, user_id: int) -> None:
        self._hands.pop(user_id)
        self._hands_changes += 1

    def reachable_mark(self, user_id: int) -> int:
        """The number of the person's latest mark as reachable in this run (0: none). Taken
        when a call to them begins, it tells whether Telegram's refusal of the call is
        still news when it is taken up (`bot.app.usecases.chats.Chats.person_unreachable`)."""
        return self._reachable.get(user_id) or 0

    async def seen(self, person: Person) -> None:
        """Any update from a person: a known person's name and language are kept as last
        seen (the leaderboards list people so, also after they left the group). Written
        only when something changed since the last sighting."""
        record = person.record()
        if self._seen.get(person.id) == record:
            return
        self._seen[person.id] = record
        self.noticed(person)
        await repo.refresh_user(self.db, record)

    async def language_of(self, user_id: int, db: repo.Reader | None = None) -> Lang:
        """The language to write to `user_id` in; `db` is the transaction when inside one."""
        lang = self._langs.get(user_id)
        if lang is None:
            user = await repo.get_user(db or self.db, user_id)
            # `remember` may have set it meanwhile, newer than this read.
            lang = self._langs.get(user_id) or (Lang(user.language) if user else Lang.RU)
            self._langs[user_id] = lang
        return lang

    def __len__(self) -> int:
        """How many people are remembered in memory (for the bound's test)."""
        return max(len(self._langs), len(self._seen))
