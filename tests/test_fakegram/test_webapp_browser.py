"""The play page's Mini App panel in headless Chromium: a stand-in app (a page of another
origin that speaks Telegram's `postMessage` protocol, as telegram-web-app.js does in a
frame) opened from a group's direct-link button as the person acting, its back button,
theme, a link to the bot's chat, and the close button.

Skipped where Chromium or Playwright is missing; the routes are tested without a browser
in `tests/test_fakegram/test_webapp_play.py`.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import pytest
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiohttp import web

from tests.browser import chromium
from tests.fakegram import FakeTelegram
from tests.fakegram.aiogram_support import make_bot
from tests.fakegram.play import PlayPage

if TYPE_CHECKING:
    from playwright.async_api import Page

TOKEN = "Tq3vX_9kLm-2pQr7"
WAIT_MS = 20_000  # a step of the browser's on a busy machine; each waits for an event

# The stand-in app: shows who opened it and every event the client sent it; asks for the
# back button and the theme, and answers the back button with a link to the bot's chat.
STAND_IN = """<!doctype html><meta charset="utf-8"><title>app</title>
<p id="who"></p><p id="log"></p>
<script>
const launch = new URLSearchParams(location.hash.slice(1));
const data = new URLSearchParams(launch.get("tgWebAppData"));
document.getElementById("who").textContent =
  JSON.parse(data.get("user")).first_name + " " + data.get("start_param");
const post = (eventType, eventData = {}) =>
  parent.postMessage(JSON.stringify({ eventType, eventData }), "*");
window.addEventListener("message", (event) => {
  const { eventType } = JSON.parse(event.data);
  document.getElementById("log").textContent += eventType + ";";
  if (eventType === "back_button_pressed") {
    post("web_app_open_tg_link", { path_full: "/BOT" });
  }
});
post("web_app_ready");
post("web_app_expand");
post("web_app_trigger_haptic_feedback", { type: "impact", impact_style: "light" });
post("web_app_setup_back_button", { is_visible: true });
post("web_app_request_theme");
</script>
"""


@contextlib.asynccontextmanager
async def stand_in_app(bot_username: str) -> AsyncIterator[str]:
    """The stand-in app on a port of its own (another origin, as the bot's server is)."""
    page = STAND_IN.replace("/BOT", f"/{bot_username}")

    async def serve(request: web.Request) -> web.Response:
        return web.Response(text=page, content_type="text/html")

    app = web.Application()
    app.router.add_get("/app", serve)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    try:
        yield f"http://{host}:{port}/app"
    finally:
        await runner.cleanup()


@contextlib.asynccontextmanager
async def browser_page() -> AsyncIterator[Page]:
    executable = chromium()
    playwright = pytest.importorskip("playwright.async_api", reason="Playwright is not installed")
    async with playwright.async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=executable, headless=True)
        try:
            page = await browser.new_page(viewport={"width": 1400, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            yield page
            assert not errors, f"the page's script failed: {errors}"
        finally:
            await browser.close()


async def test_the_panel_opens_the_app_as_the_person_acting_and_speaks_its_events() -> None:
    fake = FakeTelegram()
    await fake.start(routes=PlayPage(fake).attach)
    bot = make_bot(fake)
    try:
        alice = fake.add_user("Алиса", started=True)
        bob = fake.add_user("Боб", started=True)
        group = fake.add_group("Домино", members=[alice, bob], supergroup=True)
        async with stand_in_app(fake.bot_username) as url, browser_page() as page:
            link = fake.add_web_app("table", url) + f"?startapp={TOKEN}"
            button = InlineKeyboardButton(text="🃏 Открыть стол", url=link)
            markup = InlineKeyboardMarkup(inline_keyboard=[[button]])
            await bot.send_message(group.id, "Стол", reply_markup=markup)
            await page.goto(f"{fake.url}/play/")
            await page.select_option("#me", str(bob.id))
            await page.get_by_role("button", name="🃏 Открыть стол").click(timeout=WAIT_MS)

            frame = page.frame_locator("#app-frame iframe")
            await frame.locator("#who").filter(has_text=f"Боб {TOKEN}").wait_for(timeout=WAIT_MS)
            await frame.locator("#log").filter(has_text="theme_changed;").wait_for(timeout=WAIT_MS)
            assert await page.locator("#app-who").text_content() == "as Боб"
            box = await page.locator("#app-frame iframe").bounding_box()
            assert box is not None and box["width"] == 390  # a phone's width
            await page.locator("#app-loading").wait_for(state="hidden", timeout=WAIT_MS)

            await page.locator("#app-back").click(timeout=WAIT_MS)  # shown at the app's ask
            await (
                frame.locator("#log")
                .filter(has_text="back_button_pressed;")
                .wait_for(timeout=WAIT_MS)
            )
            # The app answered with a link to the bot's chat: Боб's chat with the bot opens.
            await page.locator(".toast", has_text=f"the chat with @{fake.bot_username}").wait_for(
                timeout=WAIT_MS
            )

            await page.locator("#app-close").click(timeout=WAIT_MS)
            await page.locator("#app").wait_for(state="hidden", timeout=WAIT_MS)
            assert await page.locator("#app-frame iframe").count() == 0
    finally:
        await bot.session.close()
        await fake.stop()
    fake.assert_clean()
