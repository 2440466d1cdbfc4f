"""The Mini App's page alone, in headless Chromium, against a stand-in of its server.

The stand-in (an aiohttp app written here, no bot and no database) serves
`bot/webapp/static/` and answers `/api/state`, `/api/events` and `/api/act` from a
`GameRecord` and its `Match` in memory, through the real `bot.webapp.views.game_view`;
a computer (`GreedyPlayer`) moves for the other seat at once after each press. The
person plays through the page only, by its hooks (listed at the top of `app.js`):
tapping a marked tile, an end on the table when the tile fits two, a menu's option,
draw and knock. A whole two-seat Козёл match, and a round of Осёл in which several
doubles are laid at once from their menu. Screenshots at a phone's 390 px and at
1280 px go to `ARTIFACTS` (default `.artifacts/`); no script error and no console
error (a Content-Security-Policy violation among them) is allowed.

Debian's Chromium drives it through Playwright (`executable_path`); where either is
missing the tests are skipped and say so. The whole road through the bot is another
test's (the fake Telegram's Mini App frame).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import urllib.parse
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from aiohttp import web

from bot.webapp.views import game_view
from domino.actions import parse_action
from domino.match import Match
from domino.players import GreedyPlayer
from domino.variants import find_variant
from i18n import Lang
from storage.records import GameRecord, GameStatus, SeatRecord
from tests.browser import chromium

if TYPE_CHECKING:
    from playwright.async_api import Page, ViewportSize

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "bot" / "webapp" / "static"
ARTIFACTS = Path(os.environ.get("ARTIFACTS") or ROOT / ".artifacts")
TOKEN = "Tk7x2c9QpZr4mW8s"
INIT_DATA = urllib.parse.urlencode(
    {
        "user": json.dumps({"id": 1, "first_name": "Алиса", "language_code": "ru"}),
        "auth_date": "1700000000",
        "start_param": TOKEN,
        "hash": "0" * 64,
    }
)
THEME = {"bg_color": "#ffffff", "text_color": "#000000", "button_color": "#2481cc"}
# The server's own policy: no inline script or style may run.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'"
)
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}
STEP_MS = 20_000  # the page's answer to a press is one round trip on this machine
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 860}


OUTSIDER = "Этот стол видят только участники группы, где идёт партия."


class StandIn:
    """One game in memory, two seats unless `players` says more: seat 0 the person at
    the page (`seat`; None: a member of the group watching), every other seat a
    computer. With `lobby` the game waits for the person to join (`do: join` seats them
    and deals). `rounds`: the match is played on by computers for every seat until that
    round begins; `hold`: the computers wait for `release()` before their first moves;
    `outsider`: the person may not see the game (every request answered 403)."""

    def __init__(
        self,
        variant: str,
        seed: int,
        *,
        seat: int | None = 0,
        lobby: bool = False,
        players: int = 2,
        rounds: int = 1,
        hold: bool = False,
        outsider: bool = False,
        creator: bool = False,
    ) -> None:
        self.ruleset = find_variant(variant).ruleset
        self.seed = seed
        self.seat = seat
        self.outsider = outsider
        self.creator = creator  # the lobby's creator: its start and computers offered
        self.match = Match.new(self.ruleset, players, seed=seed)
        computers = (SeatRecord(n, None, f"🤖 Компьютер {n}") for n in range(1, players))
        seats = (SeatRecord(0, 1, "Алиса"), *computers)
        self.game = GameRecord(
            1,
            -100,
            GameStatus.PLAYING,
            1,
            self.ruleset,
            players,
            seats,
            self.match,
            join_token=TOKEN,
        )
        if lobby:
            waiting = (dataclasses.replace(seats[1], seat=0),)
            self.game = dataclasses.replace(
                self.game, status=GameStatus.LOBBY, seats=waiting, match=None
            )
        self.computer = GreedyPlayer()
        self.version = 0
        self.streams = 0  # event streams opened
        self.dropped = 0  # streams cut so far: each open one ends when this grows
        self.changed = asyncio.Condition()
        self.closing = False
        self.presses: list[str] = []
        self.refused: list[str] = []
        self.draws: list[object] = []  # the rounds «🤝 Предложить ничью» was pressed in
        while self.match.round_no < rounds and not self.match.over:
            turn = self.match.turn
            self.match.apply(self.computer.choose(self.match.view(turn)), turn)
        if not lobby and not hold:
            self._computers_move()

    async def release(self) -> None:
        """The held computers move, up to the person's turn."""
        self._computers_move()
        await self.changes()

    def state(self) -> dict[str, Any]:
        lobby = self.game.status is GameStatus.LOBBY
        may_join = lobby and self.seat is None
        return game_view(
            self.game,
            self.seat,
            Lang.RU,
            now=datetime.now(UTC),
            hints=True,
            may_join=may_join,
            controls=lobby and self.creator,
        )

    def _computers_move(self) -> None:
        while not self.match.over and self.match.turn != 0:
            turn = self.match.turn
            self.match.apply(self.computer.choose(self.match.view(turn)), turn)
        if self.match.over:
            self.game = dataclasses.replace(self.game, status=GameStatus.FINISHED)

    async def changes(self) -> None:
        async with self.changed:
            self.version += 1
            self.changed.notify_all()

    async def drop_streams(self) -> None:
        """Cut every open event stream, as a restart or a lost connection would."""
        async with self.changed:
            self.dropped += 1
            self.changed.notify_all()

    def _join(self) -> None:
        """The person takes the first seat; the match is dealt."""
        person = SeatRecord(0, 1, "Алиса")
        computer = dataclasses.replace(self.game.seats[0], seat=1)
        self.game = dataclasses.replace(
            self.game, status=GameStatus.PLAYING, seats=(person, computer), match=self.match
        )
        self.seat = 0
        self._computers_move()

    def _check(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != "tma " + INIT_DATA:
            raise web.HTTPUnauthorized(text='{"error": "no initData"}')
        if self.outsider:
            raise web.HTTPForbidden(
                text=json.dumps({"error": OUTSIDER}), content_type="application/json"
            )
        token = request.query.get("g")
        if token is not None and token != TOKEN:
            raise web.HTTPNotFound(text='{"error": "no such game"}')

    async def page(self, request: web.Request) -> web.StreamResponse:
        return self._file("index.html")

    async def static(self, request: web.Request) -> web.StreamResponse:
        return self._file(request.match_info["name"])

    @staticmethod
    def _file(name: str) -> web.StreamResponse:
        path = STATIC / name
        if path.parent != STATIC or not path.is_file() or path.suffix not in TYPES:
            raise web.HTTPNotFound()
        headers = {"Content-Type": TYPES[path.suffix], "Content-Security-Policy": CSP}
        return web.FileResponse(path, headers=headers)

    async def api_state(self, request: web.Request) -> web.Response:
        self._check(request)
        return web.json_response(self.state())

    async def events(self, request: web.Request) -> web.StreamResponse:
        self._check(request)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        self.streams += 1
        dropped = self.dropped
        sent = -1
        while not self.closing and dropped == self.dropped:
            if sent != self.version:
                sent = self.version
                data = json.dumps(self.state(), ensure_ascii=False)
                await response.write(f"event: state\ndata: {data}\n\n".encode())
            async with self.changed:
                await self.changed.wait_for(self._moved_on(sent, dropped))
        return response

    def _moved_on(self, sent: int, dropped: int) -> Callable[[], bool]:
        return lambda: self.closing or sent != self.version or dropped != self.dropped

    async def act(self, request: web.Request) -> web.Response:
        self._check(request)
        body = await request.json()
        if body.get("g") != TOKEN:
            raise web.HTTPNotFound()
        kind = body.get("do")
        if kind == "hint":
            return self._answer(True, "💡", alert=True)
        if kind == "draw":
            self.draws.append(body.get("move"))
            return self._answer(True, "🤝 Ничья предложена: ждём ответа остальных.")
        if kind == "start" and self.game.status is GameStatus.LOBBY and self.creator:
            self._join()  # the creator sits at the deal, in this stand-in
            await self.changes()
            return self._answer(True, "Игра началась")
        if kind == "join" and self.game.status is GameStatus.LOBBY and self.seat is None:
            self._join()
            await self.changes()
            return self._answer(True, "Вы за столом")
        if kind != "play" or body.get("move") != len(self.match.log) or self.match.over:
            self.refused.append(json.dumps(body))
            return self._answer(False, "stale")
        action = parse_action(str(body["action"]))
        self.match.apply(action, 0)
        self.presses.append(str(action))
        self._computers_move()
        await self.changes()
        return self._answer(True, None)

    @staticmethod
    def _answer(ok: bool, text: str | None, *, alert: bool = False) -> web.Response:
        return web.json_response({"ok": ok, "text": text, "alert": alert, "url": None})

    async def close(self) -> None:
        async with self.changed:
            self.closing = True
            self.changed.notify_all()


@contextlib.asynccontextmanager
async def served(stand_in: StandIn) -> AsyncIterator[str]:
    app = web.Application()
    app.router.add_get("/", stand_in.page)
    app.router.add_get("/static/{name}", stand_in.static)
    app.router.add_get("/api/state", stand_in.api_state)
    app.router.add_get("/api/events", stand_in.events)
    app.router.add_post("/api/act", stand_in.act)
    runner = web.AppRunner(app, shutdown_timeout=1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await stand_in.close()
        await runner.cleanup()


@contextlib.asynccontextmanager
async def opened(
    stand_in: StandIn, viewport: ViewportSize, *, ready: bool = True
) -> AsyncIterator[Page]:
    """The page as Telegram opens it: the game's token in `startapp`, the launch
    parameters in the hash; fails on any script or console error (but the refused
    request's own, when the person may not see the game: `ready` False)."""
    executable = chromium()
    playwright = pytest.importorskip(
        "playwright.async_api", reason="Playwright is not installed (the dev extras have it)"
    )
    hash_part = urllib.parse.urlencode(
        {
            "tgWebAppData": INIT_DATA,
            "tgWebAppThemeParams": json.dumps(THEME),
            "tgWebAppPlatform": "web",
            "tgWebAppVersion": "7.0",
        },
        quote_via=urllib.parse.quote,
    )
    async with served(stand_in) as base, playwright.async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=executable, headless=True)
        try:
            page = await browser.new_page(viewport=viewport)
            page.set_default_timeout(STEP_MS)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on(
                "console",
                lambda message: (
                    errors.append(message.text)
                    if message.type == "error" and (ready or "403" not in message.text)
                    else None
                ),
            )
            await page.goto(f"{base}/?startapp={TOKEN}#{hash_part}")
            await page.wait_for_selector('body[data-ready="1"]' if ready else "#connection")
            yield page
            assert not errors, f"the page's script failed: {errors}"
        finally:
            await browser.close()


async def snapshot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


# Buttons drawn with nothing on them: no word, no tile.
EMPTY_BUTTONS_JS = """() => [...document.querySelectorAll("button")]
    .filter((b) => b.getClientRects().length && !b.textContent.trim() && !b.querySelector("svg"))
    .map((b) => b.outerHTML)"""

# What of the hand (its tiles and moves) lies outside the screen or under the fixed bar.
HIDDEN_HAND_JS = """() => {
    const bar = document.querySelector("#bar");
    const fixed = !bar.hidden && getComputedStyle(bar).position === "fixed";
    const floor = fixed ? bar.getBoundingClientRect().top : innerHeight;
    return [...document.querySelectorAll("#hand .tile, #moves button")]
        .filter((node) => {
            const box = node.getBoundingClientRect();
            return box.top < 0 || box.bottom > floor || box.left < 0 || box.right > innerWidth;
        })
        .map((node) => node.dataset.tile || node.textContent);
}"""

# Each seat's name as shown, and whether any of it is cut off.
SEAT_NAMES_JS = """() => [...document.querySelectorAll("#seats .seat .name")].map((name) => ({
    text: name.textContent,
    cut: name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1,
}))"""


async def resized(page: Page, size: ViewportSize) -> None:
    """The page at `size`, once it has laid the table out for it (a phone's square
    under 700 px, else the picture's wide felt)."""
    await page.set_viewport_size(size)
    layout = "narrow" if size["width"] < 700 else "wide"
    await page.wait_for_selector(f'#table[data-layout="{layout}"]')


async def take_turn(page: Page, *, menus: bool = False, shot: str | None = None) -> str:
    """One move of the person, chosen from what the page offers and pressed on it: a
    menu of several doubles (`menus`), else the first marked tile (and, where it fits
    two ends, the first end lit on the table), else the first move button (draw,
    knock). What was pressed: "menu", "end", "tile" or "move". `shot`: a screenshot's
    name, taken while the ends are lit for a tile that fits two."""
    await page.wait_for_selector('body[data-your-turn="1"]:not([data-busy])')
    ended = page.locator("#round-end")
    if await ended.is_visible():
        await ended.locator('[data-do="close"]').click()
    before = await page.evaluate("() => document.body.dataset.move")
    pressed = await _press(page, menus=menus, shot=shot)
    await page.wait_for_function(
        "(before) => document.body.dataset.move !== before", arg=before, timeout=STEP_MS
    )
    return pressed


async def _press(page: Page, *, menus: bool, shot: str | None) -> str:
    doubles = page.locator('#moves [data-menu][data-kind="doubles"]')
    if menus and await doubles.count():
        await doubles.first.click()
        # the menu's dismiss button is no second «Закрыть» beside «🔒 Закрыть …»
        assert await page.locator('#modal [data-do="close"]').inner_text() == "↩️ Назад"
        await page.locator("#modal .menu-option").first.click()
        return "menu"
    tile = page.locator("#hand .tile.playable").first
    if await tile.count():
        direct = await tile.get_attribute("data-action")
        await tile.click()
        if direct is not None:
            return "tile"
        target = page.locator("#table .end.target").first
        await target.wait_for()
        if shot is not None:
            await snapshot(page, shot)
        await target.click()
        return "end"
    await page.locator("#moves [data-action]").first.click()
    return "move"


@pytest.mark.slow(seconds=40)
async def test_a_person_plays_a_whole_kozel_match_by_tapping_tiles_and_ends() -> None:
    stand_in = StandIn("kozel", seed=3)
    pressed: list[str] = []
    async with opened(stand_in, PHONE) as page:
        assert await page.locator("#status").inner_text()
        assert await page.locator("#table .table-tile").count() == len(
            stand_in.match.round.layout.placements
        )
        while not stand_in.match.over:
            shot = None if "end" in pressed else "webapp_choose_end_phone"
            pressed.append(await take_turn(page, shot=shot))
            if len(pressed) == 4:
                await snapshot(page, "webapp_phone")
                await resized(page, DESKTOP)
                await snapshot(page, "webapp_desktop")
                await resized(page, PHONE)
        await page.wait_for_selector('body[data-view="over"]')
        assert "Козёл" in await page.locator("#status").inner_text()
        await page.wait_for_selector("#round-end:not([hidden])")
        shown = await page.locator("#round-end .reveal").count()
        assert shown == 2
        assert "Партия окончена" in await page.locator("#round-end-match").inner_text()
        width = await page.locator("#round-end-table").evaluate("(n) => n.clientWidth")
        panel = await page.locator("#round-end .panel").evaluate("(n) => n.clientWidth")
        assert width >= panel - 32, "the round's table is drawn narrower than its panel"
        assert not await page.evaluate(EMPTY_BUTTONS_JS)
        await snapshot(page, "webapp_match_end_phone")
        await resized(page, DESKTOP)
        await snapshot(page, "webapp_match_end_desktop")
    assert "end" in pressed, f"no tile fitted two ends in the whole match: {pressed}"
    assert "tile" in pressed and "move" in pressed
    assert not stand_in.refused


@pytest.mark.slow(seconds=15)
async def test_an_osel_round_lays_several_doubles_from_their_menu() -> None:
    """The stream is cut after the first move too: the page opens it again and follows
    the game on from its current state."""
    stand_in = StandIn("osel", seed=6)
    pressed: list[str] = []
    async with opened(stand_in, PHONE) as page:
        while stand_in.match.round_no == 1 and not stand_in.match.over:
            pressed.append(await take_turn(page, menus=True))
            if len(pressed) == 1:
                await stand_in.drop_streams()
            if pressed[-1] == "menu":
                await snapshot(page, "webapp_osel_doubles_phone")
        await page.wait_for_selector("#round-end:not([hidden]), body[data-your-turn='1']")
    assert "menu" in pressed, pressed
    doubles = [press for press in stand_in.presses if "+" in press]
    assert doubles, stand_in.presses
    assert stand_in.streams >= 2, "the page never opened the stream again"
    assert not stand_in.refused


@pytest.mark.slow(seconds=8)
async def test_a_person_joins_from_the_lobby_and_gets_a_hand() -> None:
    stand_in = StandIn("kozel", seed=3, seat=None, lobby=True)
    async with opened(stand_in, PHONE) as page:
        await page.wait_for_selector('body[data-view="lobby"]')
        assert await page.locator("#lobby-seats li").all_inner_texts() == ["🤖 Компьютер 1"]
        assert await page.locator("#status").inner_text() == "Набор игроков: 1 из 2"
        assert "Набор игроков" not in await page.locator("#lobby").inner_text()
        assert not await page.evaluate(EMPTY_BUTTONS_JS)
        await snapshot(page, "webapp_lobby_phone")
        await page.locator('[data-do="join"]').click()
        await page.wait_for_selector('body[data-view="play"]')
        await page.wait_for_selector("#toast:not([hidden])")
        assert await page.locator("#toast").inner_text() == "Вы за столом"
        tiles = await page.locator("#hand .tile").count()
        assert tiles == len(stand_in.match.round.hand(0))


async def test_the_lobbys_creator_starts_it_from_the_app() -> None:
    stand_in = StandIn("kozel", seed=3, seat=None, lobby=True, creator=True)
    async with opened(stand_in, PHONE) as page:
        await page.wait_for_selector('body[data-view="lobby"]')
        start = page.locator('#lobby-actions [data-do="start"]')
        assert await start.inner_text() == "▶️ Начать"
        add = page.locator('#lobby-actions [data-do="add_computer"]')
        assert await add.inner_text() == "🤖 Добавить компьютер"
        assert await page.locator("#lobby-wait").is_hidden()  # the line says who starts it
        await start.click()
        await page.wait_for_selector('body[data-view="play"]')
        assert await page.locator("#hand .tile").count() == len(stand_in.match.round.hand(0))


@pytest.mark.slow(seconds=8)
async def test_a_draw_is_offered_by_its_button_with_the_round() -> None:
    stand_in = StandIn("kozel", seed=1)
    async with opened(stand_in, PHONE) as page:
        button = page.locator('#moves [data-do="draw"]')
        await button.wait_for()
        assert await button.inner_text() == "🤝 Предложить ничью"
        await button.click()
        await page.wait_for_selector("#toast:not([hidden])")
    assert stand_in.draws == [1]
    assert not stand_in.refused


async def test_a_spectator_sees_the_table_and_no_hand() -> None:
    stand_in = StandIn("osel", seed=6, seat=None)
    async with opened(stand_in, DESKTOP) as page:
        await page.wait_for_selector('body[data-view="spectator"]')
        assert await page.locator("#play").is_hidden()
        assert await page.locator("#spectator").is_visible()
        laid = len(stand_in.match.round.layout.placements)
        assert await page.locator("#table .table-tile").count() == laid
        await snapshot(page, "webapp_spectator_desktop")


@pytest.mark.slow(seconds=8)
async def test_a_dark_round_flips_the_stack_and_lays_a_turned_up_tile_on_an_end() -> None:
    stand_in = StandIn("dark", seed=15)
    pressed: list[str] = []
    async with opened(stand_in, PHONE) as page:
        assert await page.locator("#stack").is_visible()
        while stand_in.match.round_no == 1 and not stand_in.match.over:
            if await page.locator("#turned-up").count():
                await snapshot(page, "webapp_dark_turned_up_phone")
            pressed.append(await take_turn(page))
    assert "move" in pressed and "end" in pressed, pressed
    assert "f" in stand_in.presses
    assert not stand_in.refused


@pytest.mark.slow(seconds=10)
async def test_a_tap_off_ones_turn_says_whose_turn_and_the_turn_brings_the_hand_in_sight() -> None:
    """Four seats at a phone's 390 x 844: a tile tapped while a computer is to move says
    whose turn it is; when the turn comes, every tile of the hand and every move button
    is on the screen, none under the fixed bar at the foot."""
    stand_in = StandIn("kozel", seed=1, players=4, hold=True)
    assert stand_in.match.turn != 0
    async with opened(stand_in, PHONE) as page:
        assert await page.evaluate("() => document.body.dataset.yourTurn") == "0"
        assert await page.locator("#toast").is_hidden()
        await page.locator("#hand .tile").first.click()
        await page.wait_for_selector("#toast:not([hidden])")
        status = await page.locator("#status").inner_text()
        assert await page.locator("#toast").inner_text() == status
        await stand_in.release()
        await page.wait_for_selector('body[data-your-turn="1"]')
        assert await page.locator("#toast").is_hidden(), "whose turn it was, still said"
        await page.wait_for_function(f"() => !({HIDDEN_HAND_JS})().length")
        assert await page.locator("#moves button").count(), "no hint button on the turn"
        await snapshot(page, "webapp_turn_came_phone")
        assert not await page.evaluate(EMPTY_BUTTONS_JS)
        stuck = page.locator("#hand .tile:not(.playable)")
        if await stuck.count():
            await stuck.first.click()
            note = await page.locator("#note").inner_text()
            wanted = "Эта кость сейчас не подходит." if note == "Ваш ход" else note
            await page.wait_for_function(
                "(wanted) => document.querySelector('#toast').textContent === wanted",
                arg=wanted,
            )


@pytest.mark.slow(seconds=10)
async def test_four_seats_names_stay_whole_and_the_sheet_fits_a_phone() -> None:
    """Later in a four-seat match, where scores are wide: no seat's name is cut (two
    computers never both read «🤖 Компьюте…»), and the score sheet, five columns, stays
    inside the phone's width (scrolling sideways in its own box if it must)."""
    stand_in = StandIn("kozel", seed=3, players=4, rounds=3)
    async with opened(stand_in, PHONE) as page:
        names = await page.evaluate(SEAT_NAMES_JS)
        assert [name["text"] for name in names] == [
            "Алиса",
            "🤖 Компьютер 1",
            "🤖 Компьютер 2",
            "🤖 Компьютер 3",
        ]
        assert not [name for name in names if name["cut"]], names
        await snapshot(page, "webapp_four_seats_phone")
        await page.locator('[data-do="sheet"]').click()
        await page.wait_for_selector("#modal:not([hidden]) table.sheet")
        assert await page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        sheet = await page.locator("#modal .sheet-scroll").evaluate(
            "(box) => ({box: box.getBoundingClientRect().right, panel: box.closest('.panel')"
            ".getBoundingClientRect().right, heads: [...box.querySelectorAll('th')]"
            ".map((th) => th.getClientRects()[0].height)})"
        )
        assert sheet["box"] <= sheet["panel"], sheet
        assert max(sheet["heads"]) < 40, f"a heading wraps: {sheet}"
        await snapshot(page, "webapp_sheet_phone")
        await resized(page, DESKTOP)
        await page.locator('#modal [data-do="close"]').click()
        assert await page.evaluate("() => document.documentElement.scrollWidth <= innerWidth"), (
            "the side column's sheet widens the page"
        )
        await snapshot(page, "webapp_four_seats_desktop")


@pytest.mark.slow(seconds=6)
async def test_a_person_not_allowed_sees_why_and_no_empty_button() -> None:
    stand_in = StandIn("kozel", seed=3, outsider=True)
    async with opened(stand_in, PHONE, ready=False) as page:
        await page.wait_for_function(
            "(text) => document.querySelector('#connection').textContent === text",
            arg=OUTSIDER,
        )
        assert not await page.evaluate(EMPTY_BUTTONS_JS)
        assert await page.locator("#bar").is_hidden()
        await snapshot(page, "webapp_outsider_phone")


@pytest.mark.slow(seconds=6)
async def test_a_seated_person_in_the_lobby_reads_who_starts_the_game() -> None:
    stand_in = StandIn("kozel", seed=3, seat=0, lobby=True)
    async with opened(stand_in, PHONE) as page:
        await page.wait_for_selector('body[data-view="lobby"]')
        assert await page.locator("#lobby-wait").is_visible()
        assert await page.locator("#lobby-wait").inner_text()
        assert not await page.locator('[data-do="join"]').count()
        assert not await page.evaluate(EMPTY_BUTTONS_JS)
        await snapshot(page, "webapp_lobby_seated_phone")
