"""Presses that waited in Telegram while the bot was down, handled by the restarted bot
while it picks up the running games (`Application.resume(after=...)`: polling begins
before the pickup).

The bot (`python -m bot`, see harness.py) runs several games, each a person against a
computer; it is SIGKILLed at a moment when every person is to move, and some of them
press a tile while it is down. The restarted bot gets those presses in the answer to its
first long poll, which goes out before it has picked up the running games, so they are
handled while the pickup runs (or, on a machine that happens to be fast there, just
after it; either order must come out the same). Each press must be answered as a move,
applied once, and every game, pressed or not, must go on.
"""

from __future__ import annotations

import asyncio
import re
from datetime import datetime

from bot.telegram.callbacks import MoveCb, action_of
from domino.actions import Play
from domino.match import LoggedAction, Match
from tests.e2e.harness import (
    MOVE_PREFIX,
    REPLY_SECONDS,
    START_SECONDS,
    BotProcess,
    Person,
    Table,
    open_game,
    play_until,
    settle,
)
from tests.fakegram import FakeTelegram

GAMES = 8
PRESSES = 3  # people who press while the bot is down
PICKED_UP = re.compile(
    r"^(\S+ \S+) INFO bot\.server\.application: resumed (\d+) running games", re.M
)


def game_id_of(bot: BotProcess, table: Table) -> int:
    rows = bot.stored("SELECT id FROM games WHERE chat_id = ? ORDER BY id DESC", table.group.id)
    return int(rows[0][0])


async def at_the_people(fakegram: FakeTelegram, bot: BotProcess, ids: list[int]) -> None:
    """Until the bot is idle with a person to move in every game (none is over: a
    computer's move would come first)."""
    while True:
        await settle(fakegram)
        matches = [bot.stored_match(game_id) for game_id in ids]
        assert not any(match.over for match in matches), "a match ended before the kill"
        if all(match.turn == 0 for match in matches):
            return
        await asyncio.sleep(0.05)


def single_end_play(person: Person, match: Match) -> tuple[str, LoggedAction] | None:
    """The callback data of a tile in `person`'s hand (seat 0) that plays at once (its
    button names its end), and the action it must log; None if the hand has none."""
    hand = person.hand()
    assert hand is not None and person.my_turn()
    for button in hand.buttons:
        data = button.callback_data or ""
        if not data.startswith(MOVE_PREFIX):
            continue
        pressed = action_of(MoveCb.unpack(data))
        if not isinstance(pressed, Play) or pressed.end is None:
            continue
        for action in match.legal_actions():
            if action == pressed:
                return data, LoggedAction(match.round_no, 0, action)
    return None


async def test_presses_waiting_at_a_restart_count_once_while_the_games_are_picked_up(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    tables = []
    for number in range(GAMES):
        person = fakegram.add_user(f"Игрок {number}", username=f"player{number}")
        tables.append(await open_game(fakegram, [person], computers=1, title=f"Стол {number}"))
    people = [table.people[0] for table in tables]
    ids = [game_id_of(bot, table) for table in tables]
    await play_until(fakegram, people, lambda: all(p.presses >= 1 for p in people))
    await at_the_people(fakegram, bot, ids)
    before = {game_id: bot.stored_match(game_id) for game_id in ids}
    plays = {
        k: found
        for k in range(GAMES)
        if (found := single_end_play(people[k], before[ids[k]])) is not None
    }
    pressed = sorted(plays)[:PRESSES]
    assert pressed, "no hand had a tile that plays at once"

    await bot.kill()
    # Telegram keeps the presses (and the people wait for their answers) until a bot
    # takes them; the fake gives them longer than its usual window, as the start may
    # take a while on a loaded machine.
    fakegram.callback_timeout = START_SECONDS + REPLY_SECONDS
    presses = [
        asyncio.ensure_future(
            people[k].user.press(
                people[k].hand(), data=plays[k][0], timeout=START_SECONDS + REPLY_SECONDS
            )
        )
        for k in pressed
    ]
    await fakegram.wait_for(lambda: fakegram.pending_updates == len(pressed))
    restarted_at = fakegram.transcript.position
    await bot.start()  # its first long poll takes them

    answers = await asyncio.gather(*presses)
    for answer in answers:
        assert answer.answered and not answer.show_alert, answer
    await settle(fakegram)
    for k in range(GAMES):
        game_id = ids[k]
        now = bot.stored_match(game_id)
        moved = len(before[game_id].log)
        assert now.log[:moved] == before[game_id].log  # nothing lost
        if k in pressed:
            assert now.log[moved] == plays[k][1]  # the press, applied as pressed
        else:
            assert len(now.log) == moved  # nothing moved a game nobody pressed in

    # Every game answers its person's next moves, pressed or not: all were picked up.
    wanted = {id(p): p.presses + 2 for p in people}

    def moved_on() -> bool:
        return all(
            p.presses >= wanted[id(p)] or bot.stored_match(game_id).over
            for p, game_id in zip(people, ids, strict=True)
        )

    await play_until(fakegram, people, moved_on)
    report_order(fakegram, bot, restarted_at, len(pressed))


def report_order(fakegram: FakeTelegram, bot: BotProcess, since: int, pressed: int) -> None:
    """Print how many presses were answered before the pickup ended (informative: both
    orders are correct, and which one a run sees depends on the machine)."""
    found = list(PICKED_UP.finditer(bot.log()))
    assert found, "the restarted bot did not log the end of its pickup"
    ended = datetime.strptime(found[-1].group(1), "%Y-%m-%d %H:%M:%S,%f").timestamp()
    answers = [
        call.wall
        for call in fakegram.transcript.calls("answerCallbackQuery", ok=True)
        if call.seq >= since
    ][:pressed]
    during = sum(1 for wall in answers if wall < ended)
    print(
        f"\npickup of {found[-1].group(2)} running games; "
        f"presses answered before it ended: {during} of {pressed}"
    )
