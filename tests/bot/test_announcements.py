"""The announcer's notices of an abandoned match name the loser in the game's own word:
the козёл, the осёл, or plainly a loss where points are good."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.telegram import announcements
from bot.telegram.announcements import notice_values
from domino.variants import find_variant
from i18n import Lang, t
from storage import repo
from storage.connect import open_database
from tests.bot.app_setup import FakeTime, make, seed_where_seat_0_opens

LINES = "Маша: 34 · +0\nОлег: 12 · +2"


@pytest.mark.parametrize(
    ("game", "loser"),
    [
        ("kozel", "🐐 Козёл: Маша."),
        ("osel", "🐴 Осёл: Маша."),
        ("classic", "Проигрыш: Маша."),
        ("sea_kozel", "Проигрыш: Маша."),
        ("sport", "Проигрыш: Маша."),
    ],
)
def test_a_surrender_names_the_loser_in_the_games_word(game: str, loser: str) -> None:
    values = notice_values(
        {"name": "Маша", "goat": "Маша", "lines": LINES}, find_variant(game), Lang.RU
    )
    assert values["loser"] == loser
    assert t("notice.surrendered", Lang.RU, **values) == (
        f"🏳 Маша сдаётся. {loser}\n"
        f"Счёт на момент первого ухода из партии · прибавка к рейтингу:\n{LINES}"
    )


def test_leaving_tells_how_the_match_counts_and_names_no_goat_while_it_runs() -> None:
    stored = {"name": "Маша", "goat": "Маша + Вика", "points": 34}
    for game in ("sport", "kozel"):
        text = t(
            "notice.left_scoring", Lang.RU, **notice_values(stored, find_variant(game), Lang.RU)
        )
        assert text == (
            "🚪 Маша уходит — партия засчитана как проигрыш: Маша + Вика; доиграет компьютер.\n"
            "Счёт на момент ухода: 34, рейтинг остальным — за отрыв от него."
        )
        assert "козёл" not in text.casefold() and "тайм-аут" not in text
    english = notice_values(stored, find_variant("osel"), Lang.EN)
    assert english["loser"] == "🐴 Donkey: Маша + Вика."


def test_other_notices_are_left_as_stored() -> None:
    stored = {"name": "Маша"}
    assert notice_values(stored, find_variant("kozel"), Lang.RU) == stored


async def test_the_sweep_sends_what_no_pass_has_read(tmp_path: Path) -> None:
    """An announcement committed with no request for a pass (a trigger lost by a fault)
    is sent by the sweep at its second look, and only then; one a pass read is not the
    sweep's business."""
    db = await open_database(tmp_path / "sweep.sqlite3")
    setup = make(db, FakeTime(), seed_where_seat_0_opens())
    await setup.app.resume()
    announcer = setup.app.publisher.announcer
    await announcer.idle()  # the pickup's pass
    try:
        async with db.transaction() as tx:
            await repo.enqueue(
                tx, game_id=None, chat_id=77, kind="notice", payload={"key": "start.welcome"}
            )
        await announcer.sweep()  # first look: noted, nothing sent yet
        await announcer.idle()
        assert setup.telegram.sent_to(77) == []
        await announcer.sweep()  # still unread: a pass
        await announcer.idle()
        assert setup.telegram.sent_to(77) == [t("start.welcome", Lang.RU)]
        assert await repo.oldest_owed(db) is None
        await announcer.sweep()
        await announcer.sweep()
        await announcer.idle()
        assert len(setup.telegram.sent_to(77)) == 1  # nothing more
    finally:
        await setup.close()
        await db.close()


async def test_one_pass_sends_a_backlog_longer_than_a_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stall of the SIGKILL test under load: more announcements owed than a pass read
    at once, and no commit after them to ask for another pass. A pass reads batch after
    batch to the end."""
    monkeypatch.setattr(announcements, "OUTBOX_BATCH", 2)
    db = await open_database(tmp_path / "backlog.sqlite3")
    setup = make(db, FakeTime(), seed_where_seat_0_opens())
    await setup.app.resume()
    announcer = setup.app.publisher.announcer
    await announcer.idle()
    try:
        async with db.transaction() as tx:
            for chat_id in range(71, 76):
                await repo.enqueue(
                    tx,
                    game_id=None,
                    chat_id=chat_id,
                    kind="notice",
                    payload={"key": "start.welcome"},
                )
        announcer.announce()  # one request for the five
        await announcer.idle()
        assert [len(setup.telegram.sent_to(chat_id)) for chat_id in range(71, 76)] == [1] * 5
        assert await repo.oldest_owed(db) is None
    finally:
        await setup.close()
        await db.close()
