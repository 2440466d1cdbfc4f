"""What a hint's alert says, end to end: true for the game played, and no figures.

A newcomer playing Дубли was told «тяжёлую кость лучше сбросить: очки на руке идут в
счёт» when the strong computer's search ran out of time, though no round of Дубли
scores pips (B-2); and the search's reason read «лучший ход по 53 разыгранным раскладам
чужих костей; шанс выиграть партию: 42 %». Here Алиса asks a hint on each of her turns
of a Дубли match whose strong computer has next to no time (`HARD_BUDGET`: the medium
level's choice stands in, as on a loaded machine), and of a Козёл match with the usual
budget: every alert names a legal move (`Hinter`), none speaks of the pips in hand in
Дубли, and none carries a percentage or a count of play-outs."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import open_game, play_until, running_bot
from tests.e2e.test_hints_e2e import Hinter
from tests.fakegram import FakeTelegram

HINTS = 6  # the turns Алиса asks a hint on
PIPS_IN_HAND = ("очки на руке", "очки, оставшиеся на руке", "очки с вашей руки")


async def hints_in(fakegram: FakeTelegram, tmp_path: Path, game: str, **env: str) -> list[str]:
    """The reasons of the hints Алиса is shown on her first `HINTS` turns of `game`
    against Боб (or fewer, if the match ends first)."""
    async with running_bot(fakegram, tmp_path, PACING="false", **env) as bot:
        alice = fakegram.add_user("Алиса", username="alice")
        bob = fakegram.add_user("Боб", username="bob")
        table = await open_game(fakegram, [alice, bob], seats=2, game=game)
        hinter = Hinter(fakegram, alice, bot=bot, turns=HINTS)
        people = [hinter, table.people[1]]

        def over() -> bool:
            return any(
                "🏆 Победа —" in m.content or "Козёл —" in m.content
                for m in table.group.bot_messages
            )

        await play_until(fakegram, people, lambda: len(hinter.hinted) >= HINTS or over())
        assert hinter.shown, hinter.refused
        return [text.split(" — ", 1)[1] for text in hinter.shown if " — " in text]


async def test_hints_in_dubli_out_of_time_never_speak_of_pips(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    reasons = await hints_in(fakegram, tmp_path, "dubli", HARD_BUDGET="0.001")
    assert reasons
    for reason in reasons:
        assert not any(words in reason for words in PIPS_IN_HAND), reasons
        assert "%" not in reason and "расклад" not in reason, reasons


async def test_hints_in_kozel_carry_no_percentage(fakegram: FakeTelegram, tmp_path: Path) -> None:
    reasons = await hints_in(fakegram, tmp_path, "kozel")
    assert reasons
    for reason in reasons:
        assert "%" not in reason and not any(c.isdigit() for c in reason), reasons
