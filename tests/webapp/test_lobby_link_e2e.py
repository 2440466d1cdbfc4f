"""The lobby's «🃏 Открыть стол» stays through the list of games: the handler that
draws the list (and the lobby's buttons again on «↩️ Назад») keeps the app's link, as
the publisher draws it after any change."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import (
    PRESS_SECONDS,
    button_data,
    open_game,
    running_bot,
    webapp_env,
)
from tests.fakegram import FakeTelegram

OPEN_TABLE = "🃏 Открыть стол"


async def test_the_lobbys_app_link_survives_the_list_of_games(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    env = webapp_env()
    fakegram.add_web_app(env["WEBAPP_SHORT_NAME"], env["WEBAPP_URL"])
    async with running_bot(fakegram, tmp_path, PACING="false", **env):
        alice = fakegram.add_user("Алиса", username="alice")
        game = await open_game(fakegram, [alice], start=False)
        lobby = game.lobby
        link = lobby.button(text=OPEN_TABLE).url
        assert link is not None and "startapp=" in link

        shown = lobby.content, tuple(b.text for b in lobby.buttons)
        answer = await alice.press(lobby, data=button_data(lobby, "🎲"), timeout=PRESS_SECONDS)
        assert answer.answered and not answer.show_alert, answer
        await fakegram.wait_for(lambda: OPEN_TABLE not in [b.text for b in lobby.buttons])

        answer = await alice.press(lobby, data=button_data(lobby, "Назад"), timeout=PRESS_SECONDS)
        assert answer.answered and not answer.show_alert, answer
        await fakegram.wait_for(lambda: any(b.text == OPEN_TABLE for b in lobby.buttons))
        assert lobby.button(text=OPEN_TABLE).url == link
        assert (lobby.content, tuple(b.text for b in lobby.buttons)) == shown
