"""The play page in a real browser: two people and two computers play a whole match of
Козёл through `tasks.py demo`'s page only, in headless Chromium.

A fresh page is looked at too: the fake's bare address leads to it, it says what to
do until the first message, and four chats fit its width.

Everything the people do goes through the page: Start in their private chats, /domino
typed in the group, the lobby's buttons (acting as one person or the other with «I am»),
the tiles of their hands. The test only reads the page to choose what to press. At the
end it keeps a screenshot of the page, wide and at a phone's width, in `ARTIFACTS`
(default `.artifacts/` in the project, which git ignores).

Debian's Chromium drives it through Playwright (`executable_path`: no browser is
downloaded); `.ci/run` installs Chromium where it can, and where it is missing the test
is skipped and says so. The routes themselves are tested without a browser in
`tests/test_fakegram/test_play_page.py`.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.browser import chromium
from tests.e2e.demo import Demo, demo
from tests.e2e.harness import REPLY_SECONDS, ROOT, STALL_SECONDS
from tests.fakegram import FakeTelegram
from tests.fakegram.aiogram_support import aiogram_parse_problems
from tests.fakegram.play import PlayPage

if TYPE_CHECKING:
    from playwright.async_api import Locator, Page

ARTIFACTS = Path(os.environ.get("ARTIFACTS") or ROOT / ".artifacts")
REPLY_MS = REPLY_SECONDS * 1000
# The browser's waits are steps: between two, the fake's progress (the bot's calls and CPU,
# the page's presses) decides whether to go on waiting (`shown`), as everywhere else.
STEP_MS = 2000
GOAT = "Козёл —"  # the match's last word: «🐐 Козёл — …»

# The page's own view of a hand: the newest message of a private chat with a keyboard and
# a round in its title («Козёл в «…» · раунд 2»).
HAND_JS = """
(pane) => {
  const hands = [...pane.querySelectorAll("li.msg")].filter(
    (li) => li.querySelector(".kb") && li.textContent.includes("· раунд"));
  return hands.at(-1) || null;
}
"""
# The button a simple person presses in their hand now, or null: not their turn (or a
# press still waits for its answer). An end for a tile that fits both, else a marked
# tile, else draw, else knock.
CHOICE_JS = f"""
(pane) => {{
  const hand = ({HAND_JS})(pane);
  if (!hand || !hand.textContent.includes("Ваш ход") || hand.querySelector("button.busy"))
    return null;
  const buttons = [...hand.querySelectorAll(".kb button")];
  for (const wanted of [(t) => t.includes(" на "), (t) => t.startsWith("✅"),
                        (t) => t.includes("базар"), (t) => t.includes("Стучу")]) {{
    const found = buttons.find((b) => wanted(b.textContent));
    if (found) return found;
  }}
  return null;
}}
"""


@contextlib.asynccontextmanager
async def browser_page() -> AsyncIterator[Page]:
    executable = chromium(
        "the page's routes are still tested without a browser in "
        "tests/test_fakegram/test_play_page.py"
    )
    playwright = pytest.importorskip(
        "playwright.async_api", reason="Playwright is not installed (the dev extras have it)"
    )
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


async def take_turn(page: Page, pane: Locator) -> bool:
    """Press what a simple person presses if it is their turn; True if pressed."""
    from playwright.async_api import Error as BrowserError
    from playwright.async_api import TimeoutError as BrowserTimeout

    await close_alert(page)
    button = (await pane.evaluate_handle(CHOICE_JS)).as_element()
    if button is None:
        return False
    shown = await button.evaluate(
        "(b) => [b.closest('li').dataset.id, b.closest('li').dataset.version]"
    )
    try:
        await button.click(timeout=REPLY_MS)
    except BrowserError:  # the hand was drawn anew meanwhile: look at it again
        return False
    # Every legal press changes the hand (a tile laid, an end asked for, a tile drawn):
    # wait for that before looking again, so no press is sent twice. A press refused
    # after all (stale by then) changes nothing: look again after the wait.
    with contextlib.suppress(BrowserTimeout):
        await page.wait_for_function(
            f"""([pane, id, version]) => {{
                const hand = ({HAND_JS})(pane);
                return !hand || hand.dataset.id !== id || hand.dataset.version !== version;
            }}""",
            arg=[await pane.element_handle(), *shown],
            timeout=REPLY_MS,
        )
    return True


async def shown(fake: FakeTelegram, locator: Locator, *, window: float = REPLY_SECONDS) -> None:
    """Until the page shows `locator`, for as long as something moves (no fixed end)."""
    from playwright.async_api import TimeoutError as BrowserTimeout

    watch = fake.watch(window, f"the page did not show {locator}")
    while True:
        try:
            await locator.wait_for(timeout=STEP_MS)
            return
        except BrowserTimeout:
            watch.check()


async def close_alert(page: Page) -> None:
    """An answer shown as an alert waits for its OK, as in a client."""
    alert = page.locator("dialog#alert[open]")
    if await alert.count():
        await alert.locator("button").click()


@pytest.mark.slow
async def test_two_people_play_a_match_to_the_goat_through_the_page(tmp_path: Path) -> None:
    started = time.monotonic()
    async with (
        browser_page() as page,
        demo(tmp_path, COMPUTER_DELAY="0", TABLE_INTERVAL="0.2", PACING="false") as running,
    ):
        try:
            await play_a_match(page, running)
        finally:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            await page.screenshot(path=ARTIFACTS / "play_page.png")
            await page.set_viewport_size({"width": 390, "height": 844})
            await page.screenshot(path=ARTIFACTS / "play_page_phone.png")
        # Readable on a phone: the chats stack, nothing runs off to the side.
        assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    print(
        f"a match through the page in {time.monotonic() - started:.1f} s; "
        f"screenshots in {ARTIFACTS}"
    )
    assert running.exit_code == 0, running.bot.log()[-4000:]
    assert not running.bot.problems(), running.bot.problem_report()
    running.fake.assert_clean()
    assert not aiogram_parse_problems(running.fake)


@pytest.mark.slow(seconds=10)
async def test_a_fresh_page_says_what_to_do_and_fits_four_chats_in_its_width() -> None:
    """The fake's bare address leads to the page; an empty page says in three lines what
    to do, until the first message, with every START button in view; three people and
    their group at 1,400 px all fit the width (more chats go on a second row rather than
    off the edge)."""
    fake = FakeTelegram()
    url = await fake.start(routes=PlayPage(fake).attach)
    try:
        people = [fake.add_user(name) for name in ("Алиса", "Боб", "Вера")]
        fake.add_group("Домино во дворе", members=people, admins=people[:1])
        async with browser_page() as page:
            await page.goto(f"{url}/")
            assert page.url == f"{url}/play/"
            panes = page.locator(".pane")
            await shown(fake, panes.nth(3))
            hint = page.locator("#first-run")
            assert await hint.is_visible()
            assert len(await hint.locator("li").all_inner_texts()) == 3
            width = await page.evaluate("window.innerWidth")
            assert width == 1400
            assert await panes.count() == 4
            for box in [await pane.bounding_box() for pane in await panes.all()]:
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
            assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            starts = page.locator(".pane.private .start")  # what the hint asks for, in view
            assert await starts.count() == 3
            for box in [await start.bounding_box() for start in await starts.all()]:
                assert box is not None and box["y"] + box["height"] <= 900

            await page.locator(f'.pane[data-owner="{people[0].id}"] .start').click()
            await shown(fake, page.locator("li.msg", has_text="/start"))
            await hint.wait_for(state="hidden", timeout=REPLY_MS)
    finally:
        await fake.stop()


async def play_a_match(page: Page, running: Demo) -> None:
    from playwright.async_api import TimeoutError as BrowserTimeout

    alice, bob = running.people
    fake = running.fake
    await page.goto(running.page)
    group = page.locator(f'.pane[data-chat="{running.group.id}"]')
    lobby = group.locator("li.msg", has=page.locator(".kb")).filter(has_text="Игроки").last

    def private(user_id: int) -> Locator:
        return page.locator(f'.pane[data-owner="{user_id}"]')

    async def act_as(user_id: int) -> None:
        await page.locator("#me").select_option(str(user_id))

    async def lobby_button(text: str) -> None:
        await lobby.locator(".kb button", has_text=text).click()

    for user in (alice, bob):  # each opens the chat with the bot and presses START
        await private(user.id).locator(".start").click()
        await shown(fake, private(user.id).locator("li.msg", has_text="Привет"))

    await act_as(alice.id)
    await group.locator(".compose input").fill("/domino")
    await group.locator(".compose input").press("Enter")
    await shown(fake, lobby)
    await lobby_button("Играю")  # seated already: the answer is a toast
    await shown(fake, page.locator(".toast", has_text="Вы уже за столом"))

    await act_as(bob.id)
    await lobby_button("Играю")
    await shown(fake, lobby.filter(has_text="(2/4)"))
    await lobby_button("Добавить компьютер")  # only the creator or an admin: an alert
    alert = page.locator("dialog#alert")
    await shown(fake, alert.filter(has_text="создатель игры и админы"))
    await alert.locator("button").click()

    await act_as(alice.id)
    for seated in ("(3/4)", "(4/4)"):
        await lobby_button("Добавить компьютер")
        await shown(fake, lobby.filter(has_text=seated))
    await lobby_button("Начать")
    await shown(fake, group.locator("li.msg img").first)  # the table
    await hands_in_the_group(page, running, group, act_as)

    people = [private(alice.id), private(bob.id)]
    handles = [await pane.element_handle() for pane in people]
    goat = group.locator("li.msg", has_text=GOAT)
    stall = fake.watch(STALL_SECONDS, "the match did not reach its end on the page")
    while not await goat.count():
        moved = False
        for pane in people:
            moved = await take_turn(page, pane) or moved
        if not moved:  # until someone may move, or the match is over
            stall.check()
            with contextlib.suppress(BrowserTimeout):
                await page.wait_for_function(
                    f"""([group, panes]) =>
                        group.textContent.includes({GOAT!r}) ||
                        panes.some((pane) => ({CHOICE_JS})(pane) !== null)""",
                    arg=[await group.element_handle(), handles],
                    timeout=STEP_MS,
                )
    # The end is shown as the group's clients show it, and the table picture stands.
    assert await group.locator("li.msg img").count() >= 1


async def hands_in_the_group(
    page: Page, running: Demo, group: Locator, act_as: Callable[[int], Awaitable[None]]
) -> None:
    """«✋ Мои кости» under the table brings each person's hand into the group as an
    ephemeral message: the page draws it only while its person is «I am», marked as
    theirs alone, and its buttons answer them."""
    alice, bob = running.people
    fake = running.fake
    mine = group.locator("li.msg.ephemeral")

    async def bring() -> str:
        await group.locator(".kb button", has_text="Мои кости").last.click()
        await shown(fake, mine.filter(has_text="Only you can see this message"))
        assert await mine.count() == 1  # nobody else's
        key = await mine.get_attribute("data-id")
        assert key is not None and key.startswith("e")
        return key

    await act_as(alice.id)
    alices = await bring()
    await act_as(bob.id)  # Bob's client does not show Alice's hand
    await page.wait_for_function(
        "([group, key]) => !group.querySelector(`li[data-id='${key}']`)",
        arg=[await group.element_handle(), alices],
    )
    bobs = await bring()
    assert bobs != alices
    await act_as(alice.id)  # hers again, and only hers
    await shown(fake, group.locator(f'li.msg.ephemeral[data-id="{alices}"]'))
    assert await mine.count() == 1
    # A button of her hand goes to the bot as her press on that message and comes back
    # answered (a move, or why not now): no error from the page.
    version = await mine.get_attribute("data-version")
    errors = page.locator(".toast.error")
    await page.evaluate("document.querySelectorAll('.toast').forEach((t) => t.remove())")
    await mine.locator(".kb button").first.click()
    await page.wait_for_function(
        """([group, key, version]) => {
            const hand = group.querySelector(`li[data-id='${key}']`);
            return !hand || hand.dataset.version !== version
                || document.querySelector("#toasts .toast:not(.error), dialog#alert[open]");
        }""",
        arg=[await group.element_handle(), alices, version],
        timeout=REPLY_MS,
    )
    assert await errors.count() == 0, await errors.all_inner_texts()
    await close_alert(page)
