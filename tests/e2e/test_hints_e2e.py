"""«💡 Подсказка» end to end: the bot as `python -m bot` against the fake.

A hint press is answered with an alert to the presser alone, naming a legal move of
their hand; the count is kept per seat and shows in the match record and /stats; a
second press, a stale button, a press off turn, by someone outside the game or after
the match change nothing; hints switched off in /settings take the button off the
hands and refuse an old one. Every transcript keeps the hands private. Nothing here
waits on a clock: the turn timer is off and the computers move at once
(COMPUTER_DELAY=0)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.telegram.callbacks import HintsCb, SettingsSection
from bot.telegram.presenter.moves import action_text
from i18n import Lang
from tests.e2e.harness import (
    PRESS_SECONDS,
    REPLY_SECONDS,
    BotProcess,
    Person,
    Press,
    assert_hands_private,
    button_data,
    is_hand_button,
    kind_of,
    move_of,
    open_game,
    open_settings,
    play_until,
    settle,
)
from tests.fakegram import CallbackAnswer, FakeTelegram
from tests.fakegram.world import StoredMessage

HINTED_TURNS = 3  # the turns Алиса asks a hint on (each one costs a search)


def hint_data(message: StoredMessage) -> str | None:
    """The callback data of the hand's «💡» button, if it shows one."""
    for button in message.buttons:
        data = button.callback_data or ""
        if is_hand_button(data) and kind_of(data) is Press.HINT:
            return data
    return None


def turn_data(message: StoredMessage) -> list[str]:
    """The callback data of the hand's buttons drawn for a move (not the off-turn tiles)."""
    return [
        data
        for button in message.buttons
        if is_hand_button(data := button.callback_data or "")
        and kind_of(data) not in (Press.INFO, Press.OFFER_DRAW)
    ]


def seat_of(bot: BotProcess, user_id: int) -> int:
    rows = bot.stored("SELECT seat FROM seats WHERE user_id = ? ORDER BY game_id DESC", user_id)
    seat = rows[0][0]
    assert isinstance(seat, int)
    return seat


def legal_moves(bot: BotProcess, seat: int) -> set[str]:
    """Every legal move of the seat now, in the words of its hand's buttons."""
    view = bot.stored_match().view(seat)
    return {action_text(view, action, Lang.RU) for action in view.round.legal}


@dataclass
class Hinter(Person):
    """Asks a hint on each of their first `turns` turns before moving, checks it names a
    legal move of theirs, and keeps every hint shown (the alert's text)."""

    bot: BotProcess | None = None
    turns: int = HINTED_TURNS
    shown: list[str] = field(default_factory=list)
    refused: list[CallbackAnswer] = field(default_factory=list)
    hinted: set[str] = field(default_factory=set)  # the hint buttons pressed

    async def take_turn(self) -> bool:
        hand = self.hand()
        data = hint_data(hand) if hand is not None and self.my_turn() else None
        wanted = data is not None and data not in self.hinted and len(self.hinted) < self.turns
        if hand is not None and data is not None and wanted:
            self.hinted.add(data)
            answer = await self.user.press(hand, data=data, timeout=self.press_timeout)
            assert answer.answered, answer
            if answer.show_alert and (answer.text or "").startswith("💡 "):
                assert self.bot is not None
                move = (answer.text or "").removeprefix("💡 ").split(" — ")[0]
                assert move in legal_moves(self.bot, seat_of(self.bot, self.user.id))
                self.shown.append(answer.text or "")
            else:  # too soon after the last hint («не так часто»): a toast, no hint
                assert not answer.show_alert, answer
                self.refused.append(answer)
        return await super().take_turn()


async def test_a_hint_goes_to_its_owner_only_and_is_counted_in_the_match_record(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    eve = fakegram.add_user("Ева", username="eve")
    game = await open_game(fakegram, [alice, bob], seats=2, title="Двор")
    group = game.group
    hinter = Hinter(fakegram, alice, bot=bot)
    plain = game.people[1]
    people = [hinter, plain]

    # Алиса's first turn: a hint, then the same button again and presses by others.
    await fakegram.wait_for(lambda: hinter.my_turn() or plain.my_turn(), timeout=REPLY_SECONDS)
    if plain.my_turn():
        bob_first = plain.hand()
        assert bob_first is not None and hint_data(bob_first) is not None
        await plain.take_turn()
        await fakegram.wait_for(hinter.my_turn, timeout=REPLY_SECONDS)
    hand = hinter.hand()
    assert hand is not None
    data = hint_data(hand)
    assert data is not None, [b.text for b in hand.buttons]
    assert "💡 Подсказка" in [b.text for b in hand.buttons]
    first = await alice.press(hand, data=data, timeout=PRESS_SECONDS)
    assert first.show_alert and (first.text or "").startswith("💡 "), first
    move = (first.text or "").removeprefix("💡 ").split(" — ")[0]
    assert move in legal_moves(bot, seat_of(bot, alice.id))
    hinter.hinted.add(data)
    hinter.shown.append(first.text or "")
    again = await alice.press(hand, data=data, timeout=PRESS_SECONDS)
    assert again.text == first.text or not again.show_alert, again  # shown again, or «wait»
    # Боб is seated but it is not his turn; Ева holds no seat: neither gets the hint.
    await fakegram.wait_for(lambda: not plain.my_turn(), timeout=REPLY_SECONDS)
    bob_hand = plain.hand()
    assert bob_hand is not None and hint_data(bob_hand) is None  # off turn: no button
    off_turn = await bob.forge_press(bob_hand, data)
    assert not off_turn.show_alert and "Сейчас ходит Алиса" in (off_turn.text or "")
    await eve.start()
    own = await eve.private_chat.wait_for_message(lambda m: "Привет" in m.content)
    outsider = await eve.forge_press(own, data)
    assert outsider.show_alert and "не играете" in (outsider.text or "")
    # Pressed in the group (a hand button belongs in a private chat only): out of date.
    assert game.table is not None
    in_group = await alice.forge_press(game.table, data)
    assert "устарела" in (in_group.text or "")
    assert bot.stored("SELECT count FROM hints") == [(1,)]

    # Алиса moves; her old hint button is stale now.
    assert await hinter.take_turn()
    stale = await alice.press(hand, data=data, stale=True, timeout=PRESS_SECONDS)
    assert stale.show_alert and "уже сделан" in (stale.text or ""), stale

    # Алиса asks a hint on her next turns too; then Боб gives up, which ends the match
    # and records it (a whole match would only make the test slower).
    def over() -> bool:
        return any("Козёл —" in m.content for m in group.bot_messages)

    await play_until(fakegram, people, lambda: len(hinter.hinted) >= HINTED_TURNS or over())
    if not over():
        await bob.command(None, "surrender")
        asked = await bob.private_chat.wait_for_message(lambda m: "Сдаться?" in m.content)
        await bob.press(asked, data=button_data(asked, "Да"), timeout=PRESS_SECONDS)
        await group.wait_for_message(lambda m: "сдаётся" in m.content, timeout=REPLY_SECONDS)
    await settle(fakegram)
    taken = len(hinter.shown)
    assert 1 <= taken <= HINTED_TURNS
    # The game is over: an old hint button is answered so, and counts nothing.
    finished = await alice.press(hand, data=data, stale=True, timeout=PRESS_SECONDS)
    assert finished.show_alert and "закончилась" in (finished.text or ""), finished
    seat = seat_of(bot, alice.id)
    assert sorted(bot.stored("SELECT seat, hints FROM stat_seats")) == [
        (s, taken if s == seat else 0) for s in range(2)
    ]

    # The hints went to Алиса alone: every exposure showing one is her press's answer.
    for exposure in fakegram.exposures:
        if any(text in exposure.text for text in hinter.shown):
            assert exposure.audience == alice.id and exposure.kind == "callback answer", exposure
    # (The group's /settings names the hints' switch, «💡 Подсказки»: no hint.)
    assert not any(text in m.content for m in group.bot_messages for text in hinter.shown)
    assert not any("💡 " in m.content for m in bob.private_chat.bot_messages)
    match = bot.stored_match()
    assert assert_hands_private(fakegram, match, {seat: alice.id, 1 - seat: bob.id}) > 0

    # /stats shows the count: in the group and across all groups.
    noun = "подсказка" if taken == 1 else "подсказки"
    after = group.last_bot_message
    await alice.command(group, "stats")
    mine = await group.wait_for_message(lambda m: "📊" in m.content, after=after)
    assert f"💡 {taken} {noun}" in mine.content
    after = bob.private_chat.last_bot_message
    await bob.command(None, "stats")
    his = await bob.private_chat.wait_for_message(lambda m: "📊" in m.content, after=after)
    assert "💡" not in his.content


async def test_hints_off_in_settings_hide_the_button_and_refuse_an_old_one(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    game = await open_game(fakegram, [alice], computers=1, title="Двор")
    group = game.group
    await bob.join(group)
    person = game.people[0]
    await fakegram.wait_for(person.my_turn, timeout=REPLY_SECONDS)
    hand = person.hand()
    assert hand is not None
    data = hint_data(hand)
    assert data is not None

    # /settings: Боб (no admin) may not switch hints off; Алиса, the group's admin, may.
    shown = await open_settings(group, alice, SettingsSection.HINTS)
    assert "💡 Подсказки: вкл" in shown.content
    off = HintsCb(on=False).pack()
    assert off in [b.callback_data for b in shown.buttons]
    refused = await bob.press(shown, data=off, timeout=PRESS_SECONDS)
    assert refused.show_alert and "админы" in (refused.text or "")
    switched = await alice.press(shown, data=off, timeout=PRESS_SECONDS)
    assert switched.answered and not switched.show_alert and "выкл" in (switched.text or "")
    await group.wait_for_message(lambda m: m is shown and "💡 Подсказки: выкл" in m.content)

    # The hand drawn before still shows the button: pressing it is refused politely.
    answer = await alice.press(hand, data=data, timeout=PRESS_SECONDS)
    assert answer.show_alert and "выключены" in (answer.text or ""), answer
    assert bot.stored("SELECT COUNT(*) FROM hints") == [(0,)]
    moves = len(bot.stored_match().log)

    # From the next redraw on, no hand shows it: Алиса moves (a tile that fits two ends
    # asks which first), the computer answers, and her next turn's hand has no «💡».
    while len(bot.stored_match().log) == moves:
        await person.take_turn()
        await settle(fakegram)

    def next_turn_drawn() -> bool:
        hand = person.hand()
        numbers = [move_of(d) for d in turn_data(hand)] if hand else []
        return person.my_turn() and bool(numbers) and min(numbers) > moves

    await fakegram.wait_for(
        lambda: next_turn_drawn() or bot.stored_match().over, timeout=REPLY_SECONDS
    )
    if not bot.stored_match().over:
        fresh = person.hand()
        assert fresh is not None
        assert hint_data(fresh) is None, [b.text for b in fresh.buttons]
    assert bot.stored("SELECT COUNT(*) FROM hints") == [(0,)]
    owners = {seat_of(bot, alice.id): alice.id}
    assert assert_hands_private(fakegram, bot.stored_match(), owners) > 0
