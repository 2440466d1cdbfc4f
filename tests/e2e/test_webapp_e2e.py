"""The Mini App in a real browser, against the bot as a process and the fake Telegram:
four people play whole matches through the app only, while the group's table and their
private hands follow.

Four people in a group press Start in their private chats; one sends /domino. Each
opens the app from the lobby's «🃏 Открыть стол» (signed `initData`, as a client opens
it) in a browser context of their own, and the three others sit down from the app
(`[data-do="join"]`). The creator starts the game in the group, as a Telegram press:
starting is no action of the app. From then on every move is a tap in the app of the
person whose turn it is, by the page's hooks (listed at the top of
`bot/webapp/static/app.js`): a marked tile, the end lit on the table when it fits two,
a menu's option, draw or knock. No turn timer runs (`set_turn_timer`): only the people
move the game.

Along the way, at the first move of each match, the move made in the app is seen to
reach the mover's private hand and the group's table; at every move, no page shows a
tile that is not its own seat's (the stored match's hands, replayed). At the end the
stored match is over, the group's live table shows its last round, every private hand
was edited after its owner's last move in the app and offers no move, every page shows
the match over, and the transcript passes the privacy checks.

Осёл: the people lay several doubles and close an end from their menus; rematches
follow («🔁 Ещё партию»), each joined from the app again, until the log holds both, at
most three matches (the rules allow a match without several doubles).

Screenshots of the first person's app at 390x844 and 1280x800, in the middle of the
first match and at its end, go to `ARTIFACTS` (default `.artifacts/`). Debian's Chromium
drives the pages through Playwright (`executable_path`); where it is missing the tests
are skipped and say so.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from domino.actions import Close, PlayDoubles
from domino.match import Match
from tests.browser import chromium
from tests.e2e.harness import (
    PRESS_SECONDS,
    REPLY_SECONDS,
    TABLE_TITLE,
    BotProcess,
    Person,
    Stall,
    assert_hands_private,
    button_data,
    chats_of,
    dealt_hands,
    live_table,
    progress_mark,
    running_bot,
    set_turn_timer,
    settle,
    wait_edited,
    webapp_env,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.world import FakeChat, FakeUser, StoredMessage

if TYPE_CHECKING:
    from playwright.async_api import Browser, ConsoleMessage, Page, ViewportSize
    from playwright.async_api import Error as BrowserError

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("ARTIFACTS") or ROOT / ".artifacts")
OPEN_TABLE = "🃏 Открыть стол"
OVER = "Партия окончена"  # the table's caption and the private hand at the match's end
NAMES = ("Алиса", "Боб", "Вера", "Гоша")
SEATS = 4
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
# The browser's waits are steps: between two, the fake's progress (the bot's calls and
# CPU) decides whether to go on waiting, as everywhere else in the end-to-end tests.
STEP_MS = 2000
SHOT_AT = 4  # the move of the first match at which the middle's screenshots are taken
ROUND = re.compile(r"(?:Раунд|Round) (\d+)")
# The page may move now: its turn, no press waiting, the state of move `move` drawn.
READY_JS = """(move) => document.body.dataset.yourTurn === "1"
    && !document.body.dataset.busy && document.body.dataset.move === move"""
HAND_JS = """() => ({
    title: document.querySelector("#title").textContent,
    view: document.body.dataset.view,
    tiles: [...document.querySelectorAll("#hand .tile")].map((tile) => tile.dataset.tile),
})"""


@dataclass
class App:
    """One person's Mini App, in a browser context of their own."""

    user: FakeUser
    page: Page
    errors: list[str] = field(default_factory=list)
    seat: int = -1
    # Their private hand message as it stood before their last move in the app.
    hand_before: tuple[StoredMessage, int] | None = None

    def script_failed(self, error: BrowserError) -> None:
        self.errors.append(str(error))

    def logged(self, message: ConsoleMessage) -> None:
        """A console error (a Content-Security-Policy violation among them) fails the test."""
        if message.type == "error":
            self.errors.append(message.text)

    @property
    def person(self) -> Person:
        return Person(self.user.fake, self.user)


@dataclass
class Played:
    """What a match played through the apps left: the stored match, the presses by
    kind, how many pages were looked at for hands."""

    match: Match
    presses: Counter[str]
    looks: int


class Party:
    """The group, its people's apps, and the bot: a match set up and played."""

    def __init__(
        self, fake: FakeTelegram, bot: BotProcess, browser: Browser, group: FakeChat
    ) -> None:
        self.fake = fake
        self.bot = bot
        self.browser = browser
        self.group = group
        self.apps: list[App] = []
        self.first_table: StoredMessage | None = None
        self.game_id = 0
        self.presses = 0

    @property
    def users(self) -> list[FakeUser]:
        return [app.user for app in self.apps]

    async def open_apps(self, users: list[FakeUser]) -> None:
        for user in users:
            context = await self.browser.new_context(viewport=PHONE)
            # A tap waits this long for its target (drawn by the page itself, no round
            # trip); the waits on the bot are `until`'s.
            context.set_default_timeout(REPLY_SECONDS * 1000)
            page = await context.new_page()
            app = App(user, page)
            page.on("pageerror", app.script_failed)
            page.on("console", app.logged)
            self.apps.append(app)

    async def until(self, page: Page, script: str, arg: object = None, *, what: str) -> None:
        """Until `script(arg)` holds in `page`, for as long as something moves."""
        from playwright.async_api import TimeoutError as BrowserTimeout

        watch = self.fake.watch(REPLY_SECONDS, what)
        while True:
            try:
                await page.wait_for_function(script, arg=arg, timeout=STEP_MS)
                return
            except BrowserTimeout:
                watch.check()

    async def shown(self, page: Page, selector: str) -> None:
        await self.until(
            page,
            "(selector) => document.querySelector(selector) !== null",
            selector,
            what=f"the page did not show {selector}",
        )

    async def gather(self, lobby: StoredMessage) -> None:
        """Everyone opens the app from the lobby's «🃏 Открыть стол»; all but the creator
        (seated already) sit down from it; the Telegram lobby and every app follow."""
        for app in self.apps:
            launch = app.user.open_web_app_button(lobby, text=OPEN_TABLE)
            assert launch.start_param and launch.chat_type == "group", launch
            await app.page.goto(launch.url)
            await self.shown(app.page, 'body[data-view="lobby"]')
        assert not await self.apps[0].page.locator('[data-do="join"]').count()
        for seated, app in enumerate(self.apps[1:], 2):
            join = app.page.locator('[data-do="join"]')
            await self.shown(app.page, '[data-do="join"]')
            await join.click()
            await self.group.wait_for_message(
                functools.partial(shows, lobby, f"({seated}/{SEATS})"), timeout=REPLY_SECONDS
            )
        for app in self.apps:
            await self.until(
                app.page,
                "(n) => document.querySelectorAll('#lobby-seats li').length === n",
                SEATS,
                what="the app's lobby did not show every seat taken",
            )

    async def start(self, lobby: StoredMessage) -> None:
        """The creator presses «▶️ Начать» in the group; the table comes, every app plays."""
        creator = self.apps[0].user
        answer = await creator.press(
            lobby, data=button_data(lobby, "Начать"), timeout=PRESS_SECONDS
        )
        assert answer.answered and not answer.show_alert, answer
        self.first_table = await self.group.wait_for_message(
            lambda m: m.photo is not None and bool(TABLE_TITLE.search(m.content)),
            after=lobby,
            timeout=REPLY_SECONDS,
        )
        self.game_id = int(self.bot.stored("SELECT max(id) FROM games")[0][0])
        seats = dict(
            self.bot.stored("SELECT user_id, seat FROM seats WHERE game_id = ?", self.game_id)
        )
        for app in self.apps:
            app.seat = int(seats[app.user.id])
            app.hand_before = None
            await self.shown(app.page, 'body[data-view="play"]')

    def owners(self) -> dict[int, int]:
        return {app.seat: app.user.id for app in self.apps}

    def table(self) -> StoredMessage:
        table = live_table(self.group, self.first_table)
        assert table is not None
        return table

    async def play(self, menus: Menus, *, shots: str | None = None) -> Played:
        """Every move of the match, each in the app of the person to move, until the
        match is over; `shots`: the name under which screenshots are kept."""
        presses: Counter[str] = Counter()
        hands = Hands(self)
        stall = Stall(
            lambda: (self.presses, progress_mark(chats_of(self.fake, self.users))),
            what="the match did not reach its end in the apps",
        )
        by_seat = {app.seat: app for app in self.apps}
        made = 0
        while True:
            stall.check()
            match = self.bot.stored_match(self.game_id)
            if match.over:
                break
            assert match.turn is not None, "no seat to move in a running match"
            app = by_seat[match.turn]
            moved = len(match.log)
            await self.until(
                app.page,
                READY_JS,
                str(moved),
                what=f"{app.user.first_name}'s app did not offer move {moved}",
            )
            await hands.look(match)
            if shots is not None and made == SHOT_AT:
                await screenshots(self.apps[0].page, f"{shots}_middle")
            following = await self.following(app) if made == 0 else None
            hand = app.person.hand()
            app.hand_before = None if hand is None else (hand, len(hand.history))
            presses[await take_turn(app.page, menus.wanted(presses))] += 1
            self.presses += 1
            made += 1
            await self.until(
                app.page,
                "(move) => document.body.dataset.move !== move",
                str(moved),
                what=f"{app.user.first_name}'s move {moved} did not come back to the app",
            )
            if following is not None:
                await following()
        return Played(self.bot.stored_match(self.game_id), presses, hands.looks)

    async def following(self, app: App) -> Callable[[], Awaitable[None]]:
        """Before a move in `app`: once the mover's private hand says it is their turn, a
        wait for the group's table and that hand to show the move (the mover's tiles
        left in the table's caption; the hand edited, no longer their turn)."""
        name = app.user.first_name
        await self.fake.wait_for(
            app.person.my_turn,
            timeout=REPLY_SECONDS,
            what=f"{name}'s private hand did not say it is their turn",
        )
        hand = app.person.hand()
        assert hand is not None
        hand_shown = len(hand.history)

        def hand_moved_on() -> bool:
            now = app.person.hand()
            return (
                now is not None
                and (now is not hand or len(hand.history) > hand_shown)
                and not app.person.my_turn()
            )

        async def wait() -> None:
            left = len(self.bot.stored_match(self.game_id).round.hand(app.seat))
            caption = re.compile(rf"^{name} — {left} кост", re.M)
            await self.fake.wait_for(
                lambda: bool(caption.search(self.table().content)),
                timeout=REPLY_SECONDS,
                what=f"the group's table did not show {name}'s move made in the app",
            )
            await self.fake.wait_for(
                hand_moved_on,
                timeout=REPLY_SECONDS,
                what=f"{name}'s private hand did not follow their move made in the app",
            )

        return wait

    async def finish(self, loser: str, since: int) -> Match:
        """After the last move: the group's last word, every app's end, the live table
        and the private hands, the transcript's privacy; the stored match."""
        last_word = await self.group.wait_for_message(
            lambda m: m.photo is None and loser in m.content,
            after=self.first_table,
            timeout=REPLY_SECONDS,
        )
        for app in self.apps:
            await self.shown(app.page, 'body[data-view="over"]')
            status = await app.page.locator("#status").inner_text()
            assert loser.split()[0] in status, status  # «Козёл: …», «Осёл: …»
        await self.fake.wait_for(
            lambda: OVER in self.table().content,
            timeout=REPLY_SECONDS,
            what="the group's table did not show the match over",
        )
        for app in self.apps:
            assert app.hand_before is not None, f"{app.user.first_name} never moved"
            hand = app.hand_before[0]
            await self.fake.wait_for(
                functools.partial(says, hand, OVER),
                timeout=REPLY_SECONDS,
                what=f"{app.user.first_name}'s private hand did not show the match over",
            )
        await settle(self.fake)
        match = self.bot.stored_match(self.game_id)
        assert match.over and match.losers, match
        assert self.bot.match_over()

        table = self.table()
        assert not table.deleted and table.message_id < last_word.message_id
        # The final position: the last round, the match over, each hand's tiles left.
        assert f"раунд {match.round_no}" in table.content, table.content
        assert OVER in table.content, table.content
        last = match.finished_round
        assert last is not None
        for app in self.apps:
            left = len(last.hand(app.seat))
            assert re.search(rf"^{app.user.first_name} — {left} кост", table.content, re.M), (
                app.user.first_name,
                left,
                table.content,
            )
        assert not table.buttons, [b.text for b in table.buttons]  # nothing to open or bring

        # Each private hand was edited after its owner's last move in the app, to the
        # match's end, with no move left to press.
        for app in self.apps:
            assert app.hand_before is not None, f"{app.user.first_name} never moved"
            hand, shown = app.hand_before
            assert not hand.deleted and len(hand.history) > shown, (
                f"{app.user.first_name}'s private hand was not edited after their last move"
            )
            assert OVER in hand.content and "Ваш ход" not in hand.content, hand.content
            assert not hand.buttons, [b.text for b in hand.buttons]
            assert await app.page.locator("#play").is_hidden()  # no hand to play from
        assert assert_hands_private(self.fake, match, self.owners(), since=since) > 0
        return match


class Menus:
    """Which menus a person opens when the app offers them, in order of preference."""

    def wanted(self, presses: Counter[str]) -> tuple[str, ...]:
        return ()


class OselMenus(Menus):
    """Several doubles whenever offered; closing an end whenever offered, but for the
    stretch after a close and before several doubles were laid: closing every end it
    may ends rounds so fast that several doubles are rarely seen (a simulation of the
    engine: with it, both come in 999 matches of 1,000; without, in three of five)."""

    def wanted(self, presses: Counter[str]) -> tuple[str, ...]:
        if presses["close"] and not presses["doubles"]:
            return ("doubles",)
        return ("doubles", "close")


class Hands:
    """Every page's hand held against the stored match: while a round runs a page shows
    only tiles its own seat was dealt or drew in that round (`dealt_hands`)."""

    def __init__(self, table: Party) -> None:
        self.table = table
        self.dealt: list[dict[int, set[str]]] = []
        self.looks = 0

    async def look(self, match: Match) -> None:
        for app in self.table.apps:
            shown = await app.page.evaluate(HAND_JS)
            tiles = set(shown["tiles"])
            if not tiles:
                continue
            assert shown["view"] == "play", shown
            found = ROUND.search(shown["title"])
            assert found is not None, shown
            index = int(found.group(1)) - 1
            if index >= len(self.dealt) or not tiles <= self.dealt[index][app.seat]:
                self.dealt = dealt_hands(self.table.bot.stored_match(self.table.game_id))
            assert index < len(self.dealt), (shown, match.round_no)
            others = set().union(
                *(held for seat, held in self.dealt[index].items() if seat != app.seat)
            )
            assert not tiles & others, (
                f"{app.user.first_name}'s app shows another seat's tiles {tiles & others}"
            )
            assert tiles <= self.dealt[index][app.seat], (app.user.first_name, shown)
            self.looks += 1


def says(message: StoredMessage, text: str) -> bool:
    return text in message.content


def shows(message: StoredMessage, text: str, seen: StoredMessage) -> bool:
    """Whether `seen` is `message` showing `text`."""
    return seen is message and text in seen.content


async def take_turn(page: Page, menus: tuple[str, ...]) -> str:
    """One move of the person, chosen from what the page offers and tapped on it: a menu
    of `menus` (its first option), else the first marked tile (and, where it fits two
    ends, the first end lit on the table), else the first move button (draw, knock).
    What was pressed: the menu's kind, "end", "tile" or "move"."""
    for overlay in ("#round-end", "#modal"):  # a round's end, an answer's alert
        shown = page.locator(overlay)
        if await shown.is_visible():
            await shown.locator('[data-do="close"]').click()
    for kind in menus:
        menu = page.locator(f'#moves [data-menu][data-kind="{kind}"]')
        if await menu.count():
            await menu.first.click()
            await page.locator("#modal .menu-option").first.click()
            return kind
    tile = page.locator("#hand .tile.playable").first
    if await tile.count():
        direct = await tile.get_attribute("data-action")
        await tile.click()
        if direct is not None:
            return "tile"
        # An end lit on the table, else (a play that names no end) its button.
        await page.locator("#table .end.target, #choices [data-action]").first.click()
        return "end"
    await page.locator("#moves [data-action]").first.click()
    return "move"


async def resized(page: Page, size: ViewportSize) -> None:
    """The page at `size`, once it has laid the table out for it."""
    await page.set_viewport_size(size)
    layout = "narrow" if size["width"] < 700 else "wide"
    await page.wait_for_selector(f'#table[data-layout="{layout}"]', timeout=REPLY_SECONDS * 1000)


async def screenshots(page: Page, name: str) -> None:
    """`page` at a phone's width and a desktop's, kept in `ARTIFACTS`."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    await resized(page, PHONE)
    await page.screenshot(path=str(ARTIFACTS / f"{name}_phone.png"), full_page=True)
    await resized(page, DESKTOP)
    await page.screenshot(path=str(ARTIFACTS / f"{name}_desktop.png"), full_page=True)
    await resized(page, PHONE)


@contextlib.asynccontextmanager
async def browser() -> AsyncIterator[Browser]:
    executable = chromium(
        "the app's API is still tested without a browser in tests/webapp/test_api_e2e.py"
    )
    playwright = pytest.importorskip(
        "playwright.async_api", reason="Playwright is not installed (the dev extras have it)"
    )
    async with playwright.async_playwright() as driver:
        launched = await driver.chromium.launch(executable_path=executable, headless=True)
        try:
            yield launched
        finally:
            await launched.close()


@contextlib.asynccontextmanager
async def four_at_a_table(fake: FakeTelegram, workdir: Path) -> AsyncIterator[Party]:
    """The bot with its Mini App, four people who pressed Start, their group with no turn
    timer, and a browser context for each."""
    env = webapp_env()
    fake.add_web_app(env["WEBAPP_SHORT_NAME"], env["WEBAPP_URL"])
    async with (
        running_bot(
            fake, workdir, COMPUTER_DELAY="0", PACING="false", TABLE_INTERVAL="0.2", **env
        ) as bot,
        browser() as chromium_browser,
    ):
        users = [fake.add_user(name, username=f"user{n}") for n, name in enumerate(NAMES)]
        group = fake.add_group("Домино во дворе", members=users, admins=users[:1])
        for user in users:
            await user.start()
            await user.private_chat.wait_for_message(
                lambda m: "Привет" in m.content, timeout=REPLY_SECONDS
            )
        await set_turn_timer(group, users[0])  # off: only the people move the game
        table = Party(fake, bot, chromium_browser, group)
        await table.open_apps(users)
        yield table
        for app in table.apps:
            assert not app.errors, f"{app.user.first_name}'s page: {app.errors}"
    assert not bot.problems(), bot.problem_report()
    fake.assert_clean()


async def open_lobby(table: Party) -> StoredMessage:
    """The creator sends /domino in the group; the lobby, for four."""
    group, creator = table.group, table.apps[0].user
    before = group.bot_messages[-1] if group.bot_messages else None
    await creator.command(group, "domino")
    lobby = await group.wait_for_message(
        lambda m: "Игроки" in m.content, after=before, timeout=REPLY_SECONDS
    )
    while f"Игроков: {SEATS}" not in lobby.content:
        shown = lobby.content
        await creator.press(lobby, data=button_data(lobby, "👥"), timeout=PRESS_SECONDS)
        await wait_edited(table.fake, lobby, shown)
    return lobby


async def pick_game(table: Party, lobby: StoredMessage, name: str) -> None:
    """The creator opens the lobby's list of games («🎲 Игра») and picks `name`."""
    group, creator = table.group, table.apps[0].user
    answer = await creator.press(lobby, data=button_data(lobby, "🎲 Игра:"), timeout=PRESS_SECONDS)
    assert answer.answered and not answer.show_alert, answer
    await group.wait_for_message(
        lambda m: m is lobby and any("↩️" in b.text for b in m.buttons), timeout=REPLY_SECONDS
    )
    game = next(b for b in lobby.buttons if b.text.removeprefix("✅ ") == name)
    answer = await creator.press(lobby, data=game.callback_data, timeout=PRESS_SECONDS)
    assert answer.answered and not answer.show_alert, answer
    await group.wait_for_message(
        lambda m: m is lobby and any(b.text == f"🎲 Игра: {name}" for b in m.buttons),
        timeout=REPLY_SECONDS,
    )


@pytest.mark.slow(seconds=45)
async def test_four_people_play_a_whole_kozel_match_in_the_mini_app(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    started = time.monotonic()
    async with four_at_a_table(fakegram, tmp_path) as table:
        lobby = await open_lobby(table)
        await table.gather(lobby)
        await table.start(lobby)
        played = await table.play(Menus(), shots="webapp_e2e_kozel")
        match = await table.finish("Козёл —", since=0)
        await screenshots(table.apps[0].page, "webapp_e2e_kozel_end")
        assert match.ruleset.variant.value == "kozel"
        assert len(match.log) == sum(played.presses.values())  # every move from an app
        assert played.presses["tile"] and played.looks
    print(
        f"a four-person Козёл match through the Mini App: {len(match.log)} moves, "
        f"{match.round_no} rounds, {played.presses}, {time.monotonic() - started:.1f} s"
    )


@pytest.mark.slow(seconds=40)
async def test_four_people_lay_several_doubles_and_close_an_end_in_osel(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    started = time.monotonic()
    kinds: set[type] = set()
    matches: list[Match] = []
    async with four_at_a_table(fakegram, tmp_path) as table:
        lobby = await open_lobby(table)
        await pick_game(table, lobby, "Осёл")
        for _ in range(3):
            since = len(fakegram.exposures)
            await table.gather(lobby)
            await table.start(lobby)
            shots = None if matches else "webapp_e2e_osel"
            played = await table.play(OselMenus(), shots=shots)
            match = await table.finish("Осёл —", since=since)
            if shots is not None:
                await screenshots(table.apps[0].page, f"{shots}_end")
            assert match.ruleset.variant.value == "osel"
            assert len(match.log) == sum(played.presses.values())
            matches.append(match)
            kinds |= {type(entry.action) for entry in match.log}
            if {PlayDoubles, Close} <= kinds:
                break
            # «🔁 Ещё партию» under the match's last word: a new lobby of Осёл.
            last_word = next(m for m in reversed(table.group.bot_messages) if "Осёл —" in m.content)
            newest = table.group.bot_messages[-1]
            creator = table.apps[0].user
            answer = await creator.press(
                last_word, data=button_data(last_word, "Ещё партию"), timeout=PRESS_SECONDS
            )
            assert answer.answered and not answer.show_alert, answer
            lobby = await table.group.wait_for_message(
                lambda m: "Игроки" in m.content, after=newest, timeout=REPLY_SECONDS
            )
    assert PlayDoubles in kinds, f"no several doubles in {len(matches)} matches"
    assert Close in kinds, f"no end closed in {len(matches)} matches"
    print(
        f"Осёл through the Mini App: {len(matches)} matches, "
        f"{sum(len(m.log) for m in matches)} moves, {time.monotonic() - started:.1f} s"
    )
