"""Draw offers end to end, the bot as `python -m bot` against the fake: «🤝 Предложить
ничью» from a hand, the group's answer by the vote's buttons (all agree: the match ends
drawn; one against, or the time out: play goes on), a computer's answer by the score
(level at the start: it declines; behind, when a match gets there: it agrees), every
bad press refused, and /stats and the stored ratings checked after each."""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.harness import (
    PRESS_SECONDS,
    REPLY_SECONDS,
    BotProcess,
    GroupPerson,
    Person,
    Press,
    button_data,
    is_hand_button,
    kind_of,
    move_of,
    open_game,
    play_until,
    running_bot,
    settle,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.world import FakeChat, FakeUser, StoredMessage


def offer_data(hand: StoredMessage) -> str:
    data = find_offer(hand)
    if data is None:
        raise LookupError([b.text for b in hand.buttons])
    return data


def find_offer(hand: StoredMessage) -> str | None:
    """The data of the hand's «🤝 Предложить ничью», or None while the hand shows a
    sub-menu (a tile's choice of ends, several doubles)."""
    for button in hand.buttons:
        data = button.callback_data or ""
        if is_hand_button(data) and kind_of(data) is Press.OFFER_DRAW:
            assert button.text == "🤝 Предложить ничью"
            return data
    return None


class Heavy(Person):
    """Lays the heaviest tile it may (fewer pips left in hand: Козёл's points), so that
    the computer is sometimes behind."""

    def choice(self, hand: StoredMessage) -> str | None:
        tiles = [
            (sum(int(d) for d in found.groups()), b.callback_data)
            for b in hand.buttons
            if b.callback_data
            and is_hand_button(b.callback_data)
            and kind_of(b.callback_data) in (Press.PLAY, Press.ENDS)
            and (found := TILE.search(b.text))
        ]
        return max(tiles)[1] if tiles else super().choice(hand)


TILE = re.compile(r"([0-6])\|([0-6])")


def is_offer(message: StoredMessage) -> bool:
    return "предлагает ничью" in message.content


async def offer(fakegram: FakeTelegram, person: Person) -> tuple[str, str]:
    """`person` presses «🤝 Предложить ничью» on their hand (private, or the one shown
    inside the group to a `GroupPerson`): the answer's text and the button's data."""
    if isinstance(person, GroupPerson) and person.hand() is None:
        await person.bring_hand()
    await fakegram.wait_for(lambda: person.hand() is not None, timeout=REPLY_SECONDS)
    hand = person.hand()
    assert hand is not None
    data = offer_data(hand)
    answer = await person.user.press(hand, data=data, timeout=PRESS_SECONDS)
    return answer.text or "", data


async def stats_of(group: FakeChat, user: FakeUser) -> str:
    after = group.last_bot_message if group.bot_messages else None
    await user.command(group, "stats")
    found = await group.wait_for_message(
        lambda m: "📊" in m.content and user.first_name in m.content, after=after, timeout=10
    )
    return found.content


def totals(bot: BotProcess) -> list[tuple[object, ...]]:
    """Each person's running totals in the group: matches, draws, rating, goats, wins."""
    return [
        tuple(row)
        for row in bot.stored(
            "SELECT user_id, matches, draws, rating, goats, wins FROM stat_players"
            " WHERE scope <> 0 ORDER BY user_id"
        )
    ]


async def test_all_agree_and_the_match_ends_drawn(fakegram: FakeTelegram, bot: BotProcess) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    eve = fakegram.add_user("Ева", username="eve")
    game = await open_game(fakegram, [alice, bob], seats=2)
    await eve.join(game.group)
    said, _ = await offer(fakegram, game.people[0])
    assert said == "🤝 Ничья предложена: ждём ответа остальных."
    asked = await game.group.wait_for_message(is_offer)
    assert "Согласны: 1 из 2" in asked.content
    stranger = await eve.press(asked, data=button_data(asked, "За ничью"))
    assert stranger.show_alert and "только игроки" in (stranger.text or "")
    agreed = await bob.press(asked, data=button_data(asked, "За ничью"))
    assert agreed.text == "Ваш ответ: согласие на ничью."
    await game.group.wait_for_message(lambda m: m is asked and "вничью" in m.content)
    told = await game.group.wait_for_message(lambda m: m.content.startswith("🤝 Ничья:"))
    assert "Козла нет" in told.content
    await settle(fakegram)
    # Nothing names a loser or a winner of a drawn match.
    shown = [m.content for m in game.group.bot_messages if not m.deleted]
    assert not any("🐐" in text or "🏆" in text for text in shown), shown
    assert bot.stored("SELECT status, ending FROM games") == [("finished", "draw")]
    assert bot.stored("SELECT ending FROM stat_matches") == [("draw",)]
    assert totals(bot) == [(alice.id, 1, 1, 0, 0, 0), (bob.id, 1, 1, 0, 0, 0)]
    assert bot.stored("SELECT elo_after FROM stat_seats ORDER BY seat") == [(1500.0,), (1500.0,)]
    shown = await stats_of(game.group, alice)
    assert "🤝 Ничьих: 1" in shown and "рейтинг: 0" in shown


async def test_one_against_then_a_second_offer_and_bad_presses_are_refused(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    eve = fakegram.add_user("Ева", username="eve")
    game = await open_game(fakegram, [alice, bob], seats=2)
    await eve.join(game.group)
    _, data = await offer(fakegram, game.people[0])
    asked = await game.group.wait_for_message(is_offer)
    yes = button_data(asked, "За ничью")
    against = await bob.press(asked, data=button_data(asked, "Против"))
    assert against.text == "Ваш ответ: играем дальше."
    await game.group.wait_for_message(lambda m: m is asked and "Не все согласны" in m.content)
    assert not asked.buttons
    # The same round: a second offer, by either of them, is refused.
    again, _ = await offer(fakegram, game.people[1])
    assert again == "В этом раунде ничью уже предлагали."
    # An offer forged by someone not seated, on the group's table: refused.
    assert game.table is not None
    forged = await eve.forge_press(game.table, data)
    assert forged.text, forged
    # A stale answer on the closed offer, and a forged vote id.
    late = await bob.press(asked, data=yes, stale=True)
    assert late.show_alert and "закончилось" in (late.text or "")
    unknown = await bob.forge_press(asked, "v1:999999:1")
    assert unknown.show_alert
    assert bot.stored("SELECT status FROM games") == [("playing",)]
    assert bot.stored("SELECT kind, state FROM cancel_votes") == [("draw", "failed")]
    assert totals(bot) == []
    shown = await stats_of(game.group, alice)
    assert "записанных партий пока нет" in shown


async def test_the_time_runs_out_and_play_goes_on(fakegram: FakeTelegram, tmp_path: Path) -> None:
    async with running_bot(fakegram, tmp_path, PACING="false", VOTE_SECONDS="2") as bot:
        alice = fakegram.add_user("Алиса", username="alice")
        bob = fakegram.add_user("Боб", username="bob")
        game = await open_game(fakegram, [alice, bob], seats=2)
        await offer(fakegram, game.people[1])
        asked = await game.group.wait_for_message(is_offer)
        await game.group.wait_for_message(
            lambda m: m is asked and "Время на ответ вышло" in m.content, timeout=60
        )
        assert not asked.buttons
        assert bot.stored("SELECT status FROM games") == [("playing",)]
        assert bot.stored("SELECT state FROM cancel_votes") == [("expired",)]
        assert totals(bot) == []
        assert "записанных партий пока нет" in await stats_of(game.group, bob)


async def test_a_computer_answers_by_the_score(fakegram: FakeTelegram, bot: BotProcess) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    game = await open_game(fakegram, [alice], computers=1)
    # Level at the start: the computer plays on, and says so at once.
    said, _ = await offer(fakegram, game.people[0])
    assert said == "🤝 Ничья предложена: ждём ответа остальных."
    told = await game.group.wait_for_message(lambda m: "против ничьей" in m.content)
    assert told.content.startswith("🤝 ") and "играем дальше" in told.content
    assert bot.stored("SELECT state FROM cancel_votes") == [("failed",)]
    assert bot.stored("SELECT status FROM games") == [("playing",)]
    assert totals(bot) == []
    assert "записанных партий пока нет" in await stats_of(game.group, alice)
    # Once its side is behind (Козёл: more recorded points), the computer agrees.
    people = [Heavy(fakegram, alice)]

    def computer_behind() -> bool:
        match = bot.stored_match()
        alice_points, computer_points = match.seat_points()
        return match.over or computer_points > alice_points

    await play_until(fakegram, people, computer_behind)
    match = bot.stored_match()
    if match.over:
        return  # the match ended before the computer was ever behind: nothing to offer
    round_no = len(match.results) + 1

    def hand_of_the_round() -> bool:
        hand = people[0].hand()
        data = None if hand is None else find_offer(hand)
        return data is not None and move_of(data) == round_no

    # The hand drawn for the round before carries that one: pressed now, it is stale.
    # It may still show the last round's choice of ends until the new deal's edit lands.
    await fakegram.wait_for(hand_of_the_round, timeout=REPLY_SECONDS)
    said, _ = await offer(fakegram, people[0])
    assert said == "🤝 Ничья предложена: ждём ответа остальных."
    told = await game.group.wait_for_message(lambda m: m.content.startswith("🤝 Ничья:"))
    assert "Козла нет" in told.content
    assert bot.stored("SELECT status, ending FROM games") == [("finished", "draw")]
    assert totals(bot) == [(alice.id, 1, 1, 0, 0, 0)]
    # With a computer at the table the match counts for nobody's Elo.
    assert bot.stored("SELECT elo_after FROM stat_seats WHERE user_id IS NOT NULL") == [(None,)]
    assert "🤝 Ничьих: 1" in await stats_of(game.group, alice)


async def test_a_draw_is_offered_from_the_hand_inside_the_group(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(fakegram, [alice, bob], seats=2, in_group=[bob])
    assert isinstance(game.people[1], GroupPerson)
    said, _ = await offer(fakegram, game.people[1])
    assert said == "🤝 Ничья предложена: ждём ответа остальных."
    asked = await game.group.wait_for_message(lambda m: "Боб предлагает ничью" in m.content)
    await alice.press(asked, data=button_data(asked, "За ничью"))
    await game.group.wait_for_message(lambda m: m.content.startswith("🤝 Ничья:"))
    assert totals(bot) == [(alice.id, 1, 1, 0, 0, 0), (bob.id, 1, 1, 0, 0, 0)]
    assert "🤝 Ничьих: 1" in await stats_of(game.group, bob)
