"""Many games at once through failing Telegram calls and SIGKILLs, end to end.

Each test runs the bot as `python -m bot` against tests/fakegram (see harness.py) and
prints its figures in one line (`pytest -s` shows them).
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from domino.match import Match
from tests.e2e.fault_tools import (
    assert_game_private,
    audit_announcements,
    audit_presses,
    check_stored_games,
    game_id_of,
    open_games,
    private_tile_lines,
    stored_matches,
)
from tests.e2e.harness import EXIT_SECONDS, MOVE_PREFIX, BotProcess, settle
from tests.fakegram import FakeTelegram

# 20 games: most are the usual small table (2 people, 2 computers), some 4 people.
LAYOUTS = [(2, 2)] * 17 + [(4, 0)] * 3
FAULT_SEED = 7
# 10% of the bot's calls fail: 4% 5xx, 3% 429 retry_after, 3% dropped connections.
SERVER_ERRORS, FLOODS, DROPS = 0.04, 0.03, 0.03
ROUND_LINE = re.compile(r": round (\d+) over ")
MOVES_LINE = re.compile(r": moves (\d+) to (\d+) by ")


def moves_in(line: re.Match[str]) -> range:
    return range(int(line.group(1)), int(line.group(2)) + 1)


@pytest.fixture
async def bot(fakegram: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The bot without pacing, a table picture at most every 2 s per game (twenty games
    of pictures at the harness's 0.2 s would take a whole core), stopped with SIGTERM at
    the end: exit 0 and no error in its log."""
    process = BotProcess(fakegram, tmp_path, PACING="false", TABLE_INTERVAL="2")
    await process.start()
    try:
        yield process
    finally:
        code = await process.stop(timeout=EXIT_SECONDS)
        assert code == 0, f"the bot exited with {code}:\n{process.log()[-4000:]}"
        assert not process.problems(), f"errors in the bot's log:\n{process.problem_report()}"


@pytest.mark.slow(seconds=80)
async def test_twenty_games_through_ten_percent_failing_calls(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    games = await open_games(fakegram, LAYOUTS)
    await settle(fakegram)
    calls_before = len(fakegram.transcript.calls())
    fakegram.faults.random(
        seed=FAULT_SEED,
        retry_after=1,
        server_statuses=(500, 502, 503),
        server_error=SERVER_ERRORS,
        flood=FLOODS,
        drop=DROPS,
    )
    started = time.monotonic()
    await asyncio.gather(*(game.play(fakegram) for game in games))
    await settle(fakegram)
    elapsed = time.monotonic() - started
    fakegram.faults.clear()

    during = fakegram.transcript.calls()[calls_before:]
    bot_calls = [c for c in during if c.method.lower() != "getupdates"]
    injected = [c for c in bot_calls if c.injected]
    kinds = Counter(
        "drop" if c.dropped else ("429" if c.error_code == 429 else "5xx") for c in injected
    )
    stored = check_stored_games(bot.database)
    presses, losses, duplicates = audit_presses(games, bot.database)
    unanswered = sum(p.unanswered for g in games for p in g.players)
    print(
        f"\nfaults: games={len(games)} finished={stored.finished} moves={stored.moves} "
        f"presses={presses} unanswered={unanswered} bot_calls={len(bot_calls)} "
        f"faults_injected={len(injected)} ({dict(kinds)}, "
        f"{100 * len(injected) / max(1, len(bot_calls)):.1f}%) losses={losses} "
        f"duplicates={duplicates} time={elapsed:.1f}s "
        f"per_game={[round(g.seconds) for g in games]}"
    )
    assert stored.games == stored.finished == len(games)
    assert len(injected) >= 0.08 * len(bot_calls) and kinds["drop"] and kinds["429"]
    assert losses == 0 and duplicates == 0 and unanswered == 0
    matches = stored_matches(bot.database)
    for game in games:  # nothing of a hand leaked through the retries
        assert assert_game_private(fakegram, game, matches[game_id_of(bot, game)]) > 0
    assert not bot.problems(), bot.problem_report()
    # Logs a person can read: one INFO line per game event with chat and game ids, and no
    # tile of any hand anywhere in the log.
    log = bot.log()
    assert private_tile_lines(log, list(matches.values())) == []
    for game_id, match in matches.items():
        mark = re.compile(rf"chat -\d+ game {game_id}: ")
        events = [line for line in log.splitlines() if mark.search(line)]
        assert all(" INFO " in line or " WARNING " in line for line in events)
        assert sum("lobby opened" in line for line in events) == 1, game_id
        assert sum(": started" in line for line in events) == 1, game_id
        assert sum("match over" in line for line in events) == 1, game_id
        rounds = [int(m.group(1)) for e in events if (m := ROUND_LINE.search(e))]
        assert rounds == list(range(1, len(match.results) + 1)), game_id
        # One line per batch of moves, and together they name every move exactly once.
        logged = [n for e in events if (m := MOVES_LINE.search(e)) for n in moves_in(m)]
        assert logged == list(range(1, len(match.log) + 1)), game_id


@pytest.mark.slow(seconds=170)
async def test_sigkill_at_twenty_moments_during_twenty_games(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    games = await open_games(fakegram, [(2, 2)] * 14 + [(1, 1)] * 6)
    await settle(fakegram)
    for game in games:
        for player in game.players:
            player.press_timeout = 4.0  # a press the killed bot took with it: press again
            # People's pace: the twenty kills (a restart takes ~3 s) come while the games
            # are still on, however fast this machine plays them.
            player.think = 0.6
            player.rng = random.Random(player.user.id)
    rng = random.Random(20261129)
    kills = 20
    restarts: list[float] = []
    checked: list[int] = []

    async def killer() -> None:
        for _ in range(kills):
            await asyncio.sleep(rng.uniform(0.1, 1.0))
            if all(game.over for game in games):
                break
            await bot.kill()
            stored = check_stored_games(bot.database)  # the state as the crash left it
            checked.append(stored.started)
            began = time.monotonic()
            await bot.start()
            restarts.append(time.monotonic() - began)

    play = asyncio.gather(*(game.play(fakegram) for game in games))
    await asyncio.gather(killer(), play)
    await settle(fakegram)
    stored = check_stored_games(bot.database)
    matches = stored_matches(bot.database)
    # Item 10: a kill between Telegram taking an announcement and the outbox marking it
    # sent sends it again on restart (a repeat is the price of never losing one).
    audit = audit_announcements(bot, games)
    print(
        f"\nsigkill: games={len(games)} kills={len(restarts)} finished={stored.finished} "
        f"moves={stored.moves} restart_mean={sum(restarts) / max(1, len(restarts)):.2f}s"
        f"\nannouncement repeats: {audit.rate}, lost: {len(audit.lost)}"
        + (f", other group messages: {audit.other}" if audit.other else "")
    )
    assert audit.lost == [], "announcements lost across the kills"
    assert len(restarts) == kills, "the games ended before every kill"
    assert all(n == len(games) for n in checked)
    assert stored.finished == len(games)
    for game in games:
        assert game.over
    # Every move button the bot ever showed named a move of the stored match.
    for game in games:
        for player in game.players:
            for message in player.chat.bot_messages:
                for button in message.buttons:
                    data = button.callback_data or ""
                    if data.startswith(MOVE_PREFIX):
                        gid = int(data.split(":")[1])
                        assert int(data.split(":")[2]) <= len(matches[gid].log)
    assert isinstance(next(iter(matches.values())), Match)
