"""Ending a match early, through the fake Telegram with the bot as a process: /surrender,
the vote to cancel (passing, failing, expiring, surviving a restart), an admin's /cancel
closing an open vote, and /leave scored by K-11's timeout rule."""

from __future__ import annotations

from pathlib import Path

from domino.rating import round_half_up_tenth
from storage.records import Abandonment
from tests.e2e.harness import (
    EXIT_SECONDS,
    BotProcess,
    assert_hands_private,
    button_data,
    open_game,
    play_until,
    settle,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.world import MemberStatus, StoredMessage


def abandonment(bot: BotProcess) -> Abandonment:
    import json

    [(stored,)] = bot.stored("SELECT abandonment FROM games")
    assert isinstance(stored, str)
    return Abandonment.from_dict(json.loads(stored))


def timeout_gain(culprit_points: int, points: int) -> int:
    """K-11's timeout rule for a player who did not abandon the match."""
    return max(1, round_half_up_tenth(culprit_points - points))


def is_vote(message: StoredMessage) -> bool:
    return "предлагает отменить игру" in message.content


async def test_surrender_asks_first_then_ends_the_match_with_the_goat(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    carol = fakegram.add_user("Карина", username="carol")
    game = await open_game(fakegram, [alice, bob], seats=2)
    await carol.join(game.group)
    await carol.command(game.group, "surrender")
    await game.group.wait_for_message(lambda m: "сдаваться не в чем" in m.content)

    await alice.command(game.group, "surrender")
    asked = await game.group.wait_for_message(lambda m: "Сдаться?" in m.content)
    yes = button_data(asked, "Да")
    foreign = await bob.press(asked, data=yes)
    assert foreign.show_alert and "не для вас" in (foreign.text or "")
    kept = await alice.press(asked, data=button_data(asked, "Нет"))
    assert kept.text == "Играем дальше."
    # Answered, the confirmation closes: it says so and has no buttons left.
    await game.group.wait_for_message(
        lambda m: m is asked and not m.buttons and m.content.endswith("Играем дальше.")
    )
    # The game moves on: a client that still shows the old «Да» sends a stale press.
    await play_until(fakegram, game.people, lambda: sum(p.presses for p in game.people) >= 2)
    stale = await alice.press(asked, data=yes, stale=True)
    assert stale.show_alert and stale.text == "На этот вопрос уже ответили."
    assert bot.stored("SELECT status FROM games") == [("playing",)]

    await alice.command(None, "surrender")  # in private, too
    again = await alice.private_chat.wait_for_message(lambda m: "Сдаться?" in m.content)
    # Moves made while it is open change nothing it says: it still counts.
    await play_until(fakegram, game.people, lambda: sum(p.presses for p in game.people) >= 4)
    done = await alice.press(again, data=button_data(again, "Да"))
    assert done.text == "Вы сдались. Партия окончена."

    notice = await game.group.wait_for_message(lambda m: "сдаётся" in m.content, timeout=60)
    given_up = abandonment(bot)
    points = given_up.points
    assert given_up.seat == 0 and given_up.reason.value == "surrender"
    assert "🐐 Козёл: Алиса." in notice.content
    assert f"Алиса: {points[0]} · +0" in notice.content
    assert f"Боб: {points[1]} · +{timeout_gain(points[0], points[1])}" in notice.content
    assert bot.stored("SELECT status, ending FROM games") == [("finished", "surrender")]
    # The stats: the surrenderer is the козёл with nothing gained, the other by K-11.
    assert bot.stored(
        "SELECT seat, user_id, goat, rating_gain, points FROM stat_seats ORDER BY seat"
    ) == [
        (0, alice.id, 1, 0, points[0]),
        (1, bob.id, 0, timeout_gain(points[0], points[1]), points[1]),
    ]
    assert bot.stored("SELECT ending, culprit_seat FROM stat_matches") == [("surrender", 0)]
    # The table's final edit; the hands keep their tiles but lose their buttons.
    assert game.table is not None
    await game.group.wait_for_message(lambda m: m is game.table and "сдаётся" in m.content)
    for person in game.people:
        await person.chat.wait_for_message(lambda m: "Алиса сдаётся" in m.content)
        assert person.hand() is None
    await bob.command(game.group, "surrender")
    await game.group.wait_for_message(lambda m: "сдаваться не в чем" in m.content, after=notice)
    await settle(fakegram)
    assert_hands_private(fakegram, bot.stored_match(), {0: alice.id, 1: bob.id})


async def test_a_vote_to_cancel_fails_then_one_passes(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    vera = fakegram.add_user("Вера", username="vera")
    carol = fakegram.add_user("Карина", username="carol")
    game = await open_game(fakegram, [alice, bob, vera], computers=1)
    await carol.join(game.group)
    await carol.command(game.group, "cancel")
    await game.group.wait_for_message(lambda m: "создатель или админ чата" in m.content)

    await bob.command(game.group, "cancel")
    first = await game.group.wait_for_message(is_vote)
    assert "За: 1 · против: 0" in first.content and "2 из 3" in first.content
    yes_first = button_data(first, "За")
    await bob.command(game.group, "cancel")
    await game.group.wait_for_message(lambda m: "уже идёт" in m.content)
    outsider = await carol.press(first, data=button_data(first, "За"))
    assert outsider.show_alert and "только игроки" in (outsider.text or "")
    same = await bob.press(first, data=button_data(first, "За"))
    assert same.text == "Вы уже так проголосовали."
    against = await vera.press(first, data=button_data(first, "Против"))
    assert against.text == "Ваш голос: играем дальше."
    await game.group.wait_for_message(lambda m: m is first and "против: 1" in m.content)
    await alice.press(first, data=button_data(first, "Против"))
    await game.group.wait_for_message(lambda m: m is first and "не прошло" in m.content)
    assert not first.buttons
    over = await bob.press(first, data=yes_first, stale=True)  # an old client's button
    assert over.show_alert and "закончилось" in (over.text or "")
    assert bot.stored("SELECT status FROM games") == [("playing",)]

    await vera.command(game.group, "cancel")
    second = await game.group.wait_for_message(lambda m: is_vote(m) and m is not first)
    await alice.press(second, data=button_data(second, "Против"))
    await game.group.wait_for_message(lambda m: m is second and "против: 1" in m.content)
    changed = await alice.press(second, data=button_data(second, "За"))  # a change of mind
    assert changed.text == "Ваш голос: за отмену."
    await game.group.wait_for_message(lambda m: m is second and "игра отменена" in m.content)
    assert bot.stored("SELECT status, ending FROM games") == [("cancelled", "cancelled")]
    assert bot.stored("SELECT state FROM cancel_votes ORDER BY id") == [("failed",), ("passed",)]
    assert bot.stored("SELECT COUNT(*) FROM stat_matches") == [(0,)]  # nobody abandoned it
    assert game.table is not None
    await game.group.wait_for_message(lambda m: m is game.table and "Игра отменена" in m.content)
    await settle(fakegram)
    assert_hands_private(fakegram, bot.stored_match(), {0: alice.id, 1: bob.id, 2: vera.id})


async def test_a_leaver_is_counted_out_and_an_admins_cancel_closes_the_vote(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    vera = fakegram.add_user("Вера", username="vera")
    dave = fakegram.add_user("Денис", username="dave")
    game = await open_game(fakegram, [alice, bob, vera], seats=3)
    await dave.join(game.group)
    game.group.members[dave.id] = MemberStatus.ADMINISTRATOR

    await bob.command(game.group, "cancel")
    vote = await game.group.wait_for_message(is_vote)
    yes = button_data(vote, "За")
    assert "2 из 3" in vote.content
    await vera.command(game.group, "leave")
    await game.group.wait_for_message(lambda m: m is vote and "2 из 2" in m.content)
    gone = await vera.press(vote, data=yes)
    assert gone.show_alert and "только игроки" in (gone.text or "")
    await dave.command(game.group, "cancel")
    confirm = await game.group.wait_for_message(lambda m: "Отменить текущую игру" in m.content)
    # Вера left first: the match counts all the same, and the question says so.
    assert "проигрыш — Вера (первый уход из партии)" in confirm.content
    done = await dave.press(confirm, data=button_data(confirm, "Да"))
    assert done.text == "Игра отменена."
    told = await game.group.wait_for_message(lambda m: m.content.startswith("✖️ Игра отменена"))
    assert told.content.startswith("✖️ Игра отменена, но в зачёт всё равно идёт как проигрыш"), (
        told.content
    )
    assert "первый уход из партии — Вера" in told.content and "🐐" in told.content
    await game.group.wait_for_message(lambda m: m is vote and "закрыто" in m.content)
    late = await alice.press(vote, data=yes, stale=True)
    assert late.show_alert and "закончилось" in (late.text or "")
    assert bot.stored("SELECT state FROM cancel_votes") == [("closed",)]
    assert bot.stored("SELECT status FROM games") == [("cancelled",)]
    # Cancelled after Вера left: it counts, by the timeout rule with her as the козёл.
    assert bot.stored("SELECT ending, culprit_seat FROM stat_matches") == [("left", 2)]
    await settle(fakegram)
    assert_hands_private(fakegram, bot.stored_match(), {0: alice.id, 1: bob.id, 2: vera.id})


async def test_a_vote_survives_a_restart_and_expires(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    bot = BotProcess(fakegram, tmp_path, PACING="false", VOTE_SECONDS="3")
    await bot.start()
    try:
        alice = fakegram.add_user("Алиса", username="alice")
        bob = fakegram.add_user("Боб", username="bob")
        game = await open_game(fakegram, [alice, bob], computers=1)
        await bob.command(game.group, "cancel")
        first = await game.group.wait_for_message(is_vote)
        # Killed once the vote and its message are stored (a kill between Telegram's
        # answer and that write would send the message again: at least once, by design).
        await fakegram.wait_for(
            lambda: bot.stored("SELECT message_id FROM cancel_votes") != [(None,)], timeout=60
        )
        await bot.restart(kill=True)
        # The stored vote's clock goes on after the restart.
        await game.group.wait_for_message(
            lambda m: m is first and "Время голосования вышло" in m.content, timeout=60
        )
        assert not first.buttons
        assert bot.stored("SELECT state FROM cancel_votes") == [("expired",)]

        # A new vote after the expired one; it is not about the clock, so the bot gets
        # votes of the usual length (a loaded machine must not let this one expire).
        bot.env["VOTE_SECONDS"] = "300"
        await bot.restart(kill=False)
        await bob.command(game.group, "cancel")
        second = await game.group.wait_for_message(lambda m: is_vote(m) and m is not first)
        await alice.press(second, data=button_data(second, "За"))
        await game.group.wait_for_message(lambda m: m is second and "игра отменена" in m.content)
        assert bot.stored("SELECT status FROM games") == [("cancelled",)]
        await settle(fakegram)
        assert_hands_private(fakegram, bot.stored_match(), {0: alice.id, 1: bob.id})
    finally:
        code = await bot.stop(timeout=EXIT_SECONDS)
        assert code == 0, bot.log()[-4000:]
        assert not bot.problems(), bot.problem_report()


async def test_leaving_mid_match_counts_by_the_timeout_rule(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(fakegram, [alice, bob], seats=2)
    await bob.command(game.group, "leave")
    told = await game.group.wait_for_message(lambda m: "🚪 Боб уходит" in m.content)
    left = abandonment(bot)
    assert left.seat == 1 and left.reason.value == "left"
    # One group message says it all: who left, how it counts, the computer in the seat;
    # no козёл named while the match is still played (and no jargon).
    assert told.content == (
        "🚪 Боб уходит — партия засчитана как проигрыш: Боб; доиграет компьютер.\n"
        f"Счёт на момент ухода: {left.points[1]}, рейтинг остальным — за отрыв от него."
    )
    await settle(fakegram)
    about_leaving = [m for m in game.group.bot_messages if "уход" in m.content]
    assert about_leaving == [told]
    await bob.private_chat.wait_for_message(
        lambda m: "Вы покинули эту игру. Ваше место занял компьютер." in m.content
    )

    # The computer plays Боб's seat to the end: one result, the stats', said once at the
    # end, whoever the board makes the козёл.
    alice_person = game.people[0]
    await play_until(fakegram, [alice_person], bot.match_over)
    end = await game.group.wait_for_message(lambda m: m.content.startswith("🐐 Козёл — "))
    await settle(fakegram)
    gain = timeout_gain(left.points[1], left.points[0])
    lines = end.content.split("\n")
    assert lines[:3] == [
        "🐐 Козёл — Боб (🤖)",
        "🚪 Боб — уход из игры: партию доиграл компьютер, поэтому в зачёт она идёт как проигрыш.",
        f"📈 Рейтинг за партию: Алиса +{gain} · Боб +0",
    ]
    said = [
        m.content
        for m in game.group.bot_messages
        if ("Козёл —" in m.content or "Козёл:" in m.content) and m.photo is None
    ]
    assert said == [end.content], said
    assert bot.stored("SELECT status, ending FROM games") == [("finished", "finished")]
    assert bot.stored("SELECT ending, culprit_seat FROM stat_matches") == [("finished", 1)]
    assert bot.stored("SELECT seat, user_id, goat, rating_gain FROM stat_seats ORDER BY seat") == [
        (0, alice.id, 0, gain),
        (1, bob.id, 1, 0),
    ]
    await settle(fakegram)
    assert_hands_private(fakegram, bot.stored_match(), {0: alice.id, 1: bob.id})
