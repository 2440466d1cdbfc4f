"""Which game a group plays, end to end through the fake Telegram with the bot as a
process: a whole match of Классика opened by `/domino classic`, an unknown game answered
politely, the lobby's game button, the group's default game in /settings, and /rules for
the game in the chat; whole matches of Морской козёл, Осёл and Спортивное from
`/domino <game>` to the final announcement, with several doubles laid at once and an end
closed by people's presses, «Пас» in Спортивное, and the bot killed and started again in
the middle of Осёл."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.telegram.callbacks import SettingsSection
from bot.telegram.presenter.common import side_names
from domino.actions import Draw
from domino.match import Match
from i18n import Lang, t
from tests.e2e.fault_tools import check_stored_games
from tests.e2e.harness import (
    BotProcess,
    Person,
    Press,
    assert_hands_private,
    button_data,
    is_hand_button,
    kind_of,
    live_table,
    move_of,
    open_settings,
    play_until,
    set_turn_timer,
    settle,
)
from tests.fakegram import CallbackAnswer, FakeTelegram
from tests.fakegram.world import FakeChat, FakeUser, StoredMessage

WAIT = 60.0  # a window with no progress at all (tests.fakegram.waiting), not a deadline


async def press_and_wait(
    user: FakeUser, group: FakeChat, lobby: StoredMessage, fragment: str, shows: str
) -> None:
    """`user` presses the lobby's button containing `fragment`, until the lobby shows `shows`."""
    answer = await user.press(lobby, data=button_data(lobby, fragment), timeout=WAIT)
    assert answer.answered and not answer.show_alert, answer
    await group.wait_for_message(lambda m: m is lobby and shows in m.content, timeout=WAIT)


async def open_games(user: FakeUser, group: FakeChat, lobby: StoredMessage) -> None:
    """`user` presses the lobby's game button, until the lobby shows the list of games."""
    answer = await user.press(lobby, data=button_data(lobby, "🎲 Игра:"), timeout=WAIT)
    assert answer.answered and not answer.show_alert, answer
    await group.wait_for_message(
        lambda m: m is lobby and any("↩️" in b.text for b in m.buttons), timeout=WAIT
    )


async def pick_game(
    user: FakeUser, group: FakeChat, lobby: StoredMessage, name: str, *, opened: bool = False
) -> None:
    """`user` opens the lobby's list of games (unless `opened`) and picks `name`, until
    the lobby is that game's, its own buttons back."""
    if not opened:
        await open_games(user, group, lobby)
    game = next(b for b in lobby.buttons if b.text.removeprefix("✅ ") == name)
    answer = await user.press(lobby, data=game.callback_data, timeout=WAIT)
    assert answer.answered and not answer.show_alert, answer
    await group.wait_for_message(
        lambda m: (
            m is lobby
            and m.content.splitlines()[0].endswith(f"Домино: {name}")
            and any(b.text == f"🎲 Игра: {name}" for b in m.buttons)
        ),
        timeout=WAIT,
    )


async def test_a_whole_match_of_classic_from_domino_classic_to_its_winner(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    group = fakegram.add_group("Домино во дворе", members=[alice, bob], admins=[alice])
    for person in (alice, bob):
        await person.start()
        await person.private_chat.wait_for_message(lambda m: "Привет" in m.content)
    await set_turn_timer(group, alice)  # off: only the people and computers move the game

    await alice.command(group, "domino", "classic")
    lobby = await group.wait_for_message(lambda m: "Игроки" in m.content, timeout=WAIT)
    assert "Домино: Классика" in lobby.content and "игра до 100" in lobby.content
    assert "Рыба:" not in lobby.content  # K-9's fish modes are Козёл's
    assert any(b.text == "🎲 Игра: Классика" for b in lobby.buttons)
    assert any(b.text == "🎯 До 100" for b in lobby.buttons)  # T-6: the lowest target

    answer = await bob.press(lobby, data=button_data(lobby, "Играю"), timeout=WAIT)
    assert answer.answered and answer.url is None
    for _ in range(2):
        await alice.press(lobby, data=button_data(lobby, "компьютер"), timeout=WAIT)
    await group.wait_for_message(lambda m: m is lobby and "(4/4)" in m.content, timeout=WAIT)
    # A full table asks nobody to sit down: it says the game may start.
    assert "Все места заняты" in lobby.content and "Нажмите «🙋 Играю»" not in lobby.content
    answer = await alice.press(lobby, data=button_data(lobby, "Начать"), timeout=WAIT)
    assert answer.answered and not answer.show_alert, answer

    table = await group.wait_for_message(
        lambda m: m.photo is not None and "раунд 1" in m.content, timeout=WAIT
    )
    assert "Классика" in table.content

    people = [Person(fakegram, alice), Person(fakegram, bob)]
    await play_until(
        fakegram, people, lambda: any("Победа —" in m.content for m in group.bot_messages)
    )
    await settle(fakegram)

    match = bot.stored_match()
    assert match.ruleset.variant.value == "classic" and match.ruleset.target == 100
    assert match.over and match.winners and not match.losers
    assert not any("Козёл —" in m.content for m in group.bot_messages)  # a winner, no козёл
    # The announcement (the table's caption says «Победа —» too once the match is over).
    announced = await group.wait_for_message(
        lambda m: m.photo is None and "Победа —" in m.content, timeout=WAIT
    )
    end = announced.content
    names = ["Алиса", "Боб", "🤖 Компьютер 1", "🤖 Компьютер 2"]
    winner_line = end.splitlines()[0]
    for side in match.winners:
        assert names[side] in winner_line
    for side, account in enumerate(match.scores):
        assert f"{names[side]}: {account.recorded}" in end
    assert max(account.recorded for account in match.scores) >= 100  # T-6
    await group.wait_for_message(
        lambda m: m is live_table(group, table) and "Партия окончена" in m.content
    )
    checked = assert_hands_private(fakegram, match, {0: alice.id, 1: bob.id})
    assert checked > 20
    assert sum(p.presses for p in people) > 5


async def test_the_lobby_switches_games_and_a_group_keeps_a_default_game(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")  # an admin
    bob = fakegram.add_user("Боб", username="bob")  # a member
    group = fakegram.add_group("Домино во дворе", members=[alice, bob], admins=[alice])
    for person in (alice, bob):
        await person.start()
        await person.private_chat.wait_for_message(lambda m: "Привет" in m.content)

    # An unknown game is answered politely with the games there are; no lobby opens.
    await alice.command(group, "domino", "xyz")
    refused = await group.wait_for_message(lambda m: "Не знаю такой игры" in m.content)
    assert "/domino kozel — Козёл" in refused.content
    assert "/domino classic — Классика" in refused.content
    await settle(fakegram)
    assert bot.stored("SELECT id FROM games WHERE chat_id = ?", group.id) == []

    # A plain /domino opens the group's default game, Козёл; its button opens the list.
    await alice.command(group, "domino")
    lobby = await group.wait_for_message(lambda m: "Игроки" in m.content, timeout=WAIT)
    assert "Домино: Козёл" in lobby.content and "Рыба:" in lobby.content
    await press_and_wait(alice, group, lobby, "🎯", "игра до 125")
    answer = await bob.press(lobby, data=button_data(lobby, "🎲"), timeout=WAIT)
    assert answer.show_alert and "админы чата" in (answer.text or ""), answer
    assert any(b.text == "🎲 Игра: Козёл" for b in lobby.buttons)  # nothing changed
    await pick_game(alice, group, lobby, "Классика")
    assert "игра до 100" in lobby.content and "Рыба:" not in lobby.content
    assert any(b.text == "🎲 Игра: Классика" for b in lobby.buttons)
    await press_and_wait(alice, group, lobby, "🎯", "игра до 150")
    # /rules tells the rules of the game in the group, to its target (the rules name tiles
    # of no hand: this test checks no hand's privacy), and in private the person's own.
    before = group.bot_messages[-1]
    await bob.command(group, "rules")
    rules = await group.wait_for_message(lambda m: "Классика" in m.content, after=before)
    assert "150 очков, тот и победил" in rules.content and "25" in rules.content
    await alice.command(None, "rules")
    await alice.private_chat.wait_for_message(lambda m: "Классика — кто" in m.content)
    await bob.command(None, "rules")
    await bob.private_chat.wait_for_message(lambda m: "Козёл — кто" in m.content)
    # Every game is one press away, each with its own options.
    games = [
        ("Морской козёл", 125),
        ("Осёл", 125),
        ("Спортивное", 200),
        ("Пятёрки", 250),
        ("Тройки и пятёрки", 250),
        ("Берген", 15),
        ("Дубли", 10),
        ("Блиц", 100),
        ("Крест", 100),
        ("Шестёрка", 100),
        ("Втемную", 100),
        ("Козёл", 101),  # back to Козёл's own defaults
    ]
    for name, target in games:
        await pick_game(alice, group, lobby, name)
        assert f"игра до {target}" in lobby.content
        if name == "Спортивное":
            assert "Пары: 2×2" in lobby.content
            assert not any("👥" in b.text for b in lobby.buttons)
    # «↩️ Назад», and the lobby's own game, bring the lobby's buttons back unchanged.
    shown = lobby.content
    for close in ("↩️ Назад", "✅ Козёл"):
        await open_games(alice, group, lobby)
        answer = await alice.press(lobby, data=button_data(lobby, close), timeout=WAIT)
        assert answer.answered and not answer.show_alert, answer
        await group.wait_for_message(
            lambda m: m is lobby and any("▶️" in b.text for b in m.buttons), timeout=WAIT
        )
        assert lobby.content == shown
    # Someone who may not change the lobby cannot pick from an open list, nor close it; a
    # forged pick (a game that is no game) and a press of the list on another message
    # change nothing.
    await open_games(alice, group, lobby)
    for fragment in ("Осёл", "↩️ Назад"):
        answer = await bob.press(lobby, data=button_data(lobby, fragment), timeout=WAIT)
        assert answer.show_alert and "админы чата" in (answer.text or ""), answer
    forged = await alice.forge_press(lobby, button_data(lobby, "Осёл").replace("osel", "nope"))
    assert forged.show_alert, forged
    elsewhere = await alice.forge_press(rules, button_data(lobby, "Осёл"))
    assert elsewhere.show_alert, elsewhere
    await settle(fakegram)
    assert lobby.content == shown and any(b.text == "✅ Козёл" for b in lobby.buttons)
    ((stored,),) = bot.stored("SELECT ruleset FROM games WHERE status = 'lobby'")
    assert '"kozel"' in stored
    await pick_game(alice, group, lobby, "Осёл", opened=True)
    await press_and_wait(alice, group, lobby, "Отменить", "Набор в игру отменён")
    # A pick from the list of a lobby that is closed, as an old client still shows it.
    stale = await alice.press(lobby, text="Классика", stale=True, timeout=WAIT)
    assert stale.show_alert and stale.text, stale
    await settle(fakegram)
    assert "Набор в игру отменён" in lobby.content
    assert bot.stored("SELECT status FROM games WHERE status = 'lobby'") == []

    # An admin makes Классика the group's game: a plain /domino and /rules follow it.
    shown = await open_settings(group, alice, SettingsSection.GAME)
    assert shown.content.splitlines()[0] == "🎲 Игра по умолчанию: Козёл"
    assert [b.text for b in shown.buttons if (b.callback_data or "").startswith("dg1:")] == [
        "✅ Козёл",
        "Классика",
        "Морской козёл",
        "Осёл",
        "Спортивное",
        "Пятёрки",
        "Тройки и пятёрки",
        "Берген",
        "Дубли",
        "Блиц",
        "Крест",
        "Шестёрка",
        "Втемную",
    ]
    answer = await bob.press(shown, data="dg1:classic", timeout=WAIT)
    assert answer.show_alert, answer  # admins only
    answer = await alice.press(shown, data="dg1:classic", timeout=WAIT)
    assert answer.answered and not answer.show_alert and "Классика" in (answer.text or "")
    await group.wait_for_message(
        lambda m: m is shown and "🎲 Игра по умолчанию: Классика" in m.content
    )
    before = group.bot_messages[-1]
    await bob.command(group, "rules")
    await group.wait_for_message(lambda m: "Классика" in m.content, after=before)
    before = group.bot_messages[-1]
    await alice.command(group, "domino")
    lobby = await group.wait_for_message(
        lambda m: "Игроки" in m.content, after=before, timeout=WAIT
    )
    assert "Домино: Классика" in lobby.content
    # The game named after /domino wins over the group's default, in any case.
    await press_and_wait(alice, group, lobby, "Отменить", "Набор в игру отменён")
    before = group.bot_messages[-1]
    await alice.command(group, "domino", "КОЗЁЛ")
    lobby = await group.wait_for_message(
        lambda m: "Игроки" in m.content, after=before, timeout=WAIT
    )
    assert "Домино: Козёл" in lobby.content


# --- Морской козёл, Осёл, Спортивное ------------------------------------------------------

COMPUTERS = ["🤖 Компьютер 1", "🤖 Компьютер 2", "🤖 Компьютер 3"]
MOVES = {Press.PLAY, Press.DOUBLES, Press.CLOSE, Press.KNOCK}


@dataclass
class Player(Person):
    """A person who lays several doubles at once whenever the hand offers them (from the
    «⏩» menu), closes an end from the «🔒» menu the first `closes` times it is offered
    once someone at the `table` laid several doubles (closing early ends rounds in fish
    before doubles come: with random deals a whole Осёл match then lays none about one
    time in fifteen; waiting for them leaves it to about one in two thousand matches
    with no close at all), and otherwise plays as a plain `Person`. Keeps every press
    the bot took (no alert) with the text of the button pressed."""

    closes: int = 1
    table: list[Player] = field(default_factory=list)
    taken: list[tuple[str, str]] = field(default_factory=list)  # (callback data, text)
    shown: dict[str, str] = field(default_factory=dict)  # callback data -> button text

    def pressed(self, kind: Press) -> int:
        return sum(1 for data, _ in self.taken if kind_of(data) is kind)

    def choice(self, hand: StoredMessage) -> str | None:
        self.shown.update({b.callback_data: b.text for b in hand.buttons if b.callback_data})
        return super().choice(hand)

    def answered(self, data: str, answer: CallbackAnswer) -> None:
        if answer.answered and not answer.show_alert:
            self.taken.append((data, self.shown.get(data, "")))

    async def take_turn(self) -> bool:
        hand = self.hand()
        if hand is None or not self.my_turn():
            return False
        offered = {kind_of(b.callback_data): b.callback_data for b in move_buttons(hand)}
        if Press.DOUBLES_MENU in offered:
            return await self._from_menu(hand, offered[Press.DOUBLES_MENU], Press.DOUBLES)
        if (
            Press.CLOSE_MENU in offered
            and self.pressed(Press.CLOSE) < self.closes
            and any(p.pressed(Press.DOUBLES) for p in self.table or [self])
        ):
            return await self._from_menu(hand, offered[Press.CLOSE_MENU], Press.CLOSE)
        return await super().take_turn()

    async def _from_menu(self, hand: StoredMessage, opener: str, kind: Press) -> bool:
        """Open the menu, then press its first move: the hand shows the menu in place."""
        answer = await self.user.press(hand, data=opener, timeout=self.press_timeout)
        self.presses += 1
        if answer.show_alert:
            return True  # the position moved on meanwhile: the next look decides
        await self.fake.wait_for(
            lambda: any(kind_of(b.callback_data) == kind for b in move_buttons(hand)),
            timeout=WAIT,
        )
        button = next(b for b in move_buttons(hand) if kind_of(b.callback_data) == kind)
        self.shown[button.callback_data] = button.text
        answer = await self.user.press(hand, data=button.callback_data, timeout=self.press_timeout)
        self.presses += 1
        self.answered(button.callback_data, answer)
        return True


@dataclass(frozen=True)
class MoveButton:
    text: str
    callback_data: str


def move_buttons(message: StoredMessage) -> list[MoveButton]:
    return [
        MoveButton(b.text, b.callback_data)
        for b in message.buttons
        if b.callback_data and is_hand_button(b.callback_data)
    ]


@dataclass(frozen=True)
class Lobby:
    content: str
    buttons: list[str]


async def open_named_game(
    fake: FakeTelegram, game: str, people: list[FakeUser], computers: int
) -> tuple[FakeChat, Lobby, StoredMessage]:
    """`/domino <game>` in a new group whose admin (the first person) switched the turn
    timer off: everyone sits down, computers fill the other seats, the creator starts.
    The group, the lobby as it was when the table was full, and the table."""
    group = fake.add_group("Домино во дворе", members=people, admins=people[:1])
    for user in people:
        await user.start()
        await user.private_chat.wait_for_message(lambda m: "Привет" in m.content, timeout=WAIT)
    creator = people[0]
    await set_turn_timer(group, creator)  # off: Спортивное would time every turn (S-7)
    await creator.command(group, "domino", game)
    lobby = await group.wait_for_message(lambda m: "Игроки" in m.content, timeout=WAIT)
    for user in people[1:]:
        answer = await user.press(lobby, data=button_data(lobby, "Играю"), timeout=WAIT)
        assert answer.answered and answer.url is None, answer
    for _ in range(computers):
        await creator.press(lobby, data=button_data(lobby, "компьютер"), timeout=WAIT)
    seated = len(people) + computers
    await group.wait_for_message(lambda m: m is lobby and f"({seated}/" in m.content, timeout=WAIT)
    shown = Lobby(lobby.content, [b.text for b in lobby.buttons])
    answer = await creator.press(lobby, data=button_data(lobby, "Начать"), timeout=WAIT)
    assert answer.answered and not answer.show_alert, answer
    table = await group.wait_for_message(
        lambda m: m.photo is not None and "раунд 1" in m.content, timeout=WAIT
    )
    return group, shown, table


def over(group: FakeChat, table: StoredMessage) -> bool:
    """Whether the game's live table (sent anew when buried: `live_table`) says it is over."""
    shown = live_table(group, table)
    return shown is not None and t("table.over", Lang.RU) in shown.content


async def final_announcement(group: FakeChat, match: Match, names: list[str]) -> str:
    """The group's message that ends the match: «голый козёл» first when the last tile
    decided the match (M-4), then the winners (or the losers, where points are bad),
    then every side with its final points."""
    sides = [side_names(names, seats) for seats in match.sides]
    lines = [
        f"{side}: {account.recorded}" for side, account in zip(sides, match.scores, strict=True)
    ]
    # The table's caption lists the scores too: the announcement is the text after it.
    announced = await group.wait_for_message(
        lambda m: m.photo is None and all(line in m.content for line in lines), timeout=WAIT
    )
    # The match's last word is the group's last message: no table sent anew below it.
    await group.fake.wait_for(lambda: group.bot_messages[-1] is announced, timeout=WAIT)
    text = announced.content.splitlines()
    if match.won_by_last_tile():
        assert "Голый козёл" in text[0], text[0]
        text = text[1:]
    first = text[0]
    named = match.losers if match.ruleset.game.points_are_bad else match.winners
    assert named
    for side in named:
        assert sides[side] in first, (first, sides[side])
    return announced.content


async def test_a_whole_match_of_sea_kozel_with_two_doubles_laid_at_once(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    group, lobby, table = await open_named_game(fakegram, "sea_kozel", [alice, bob], 2)
    assert "Домино: Морской козёл" in lobby.content and "игра до 125" in lobby.content
    people = [Player(fakegram, alice), Player(fakegram, bob)]
    await play_until(fakegram, people, lambda: over(group, table))
    await settle(fakegram)

    match = bot.stored_match()
    assert match.ruleset.variant.value == "sea_kozel" and match.over
    names = ["Алиса", "Боб", *COMPUTERS[:2]]
    await final_announcement(group, match, names)
    assert max(account.recorded for account in match.scores) >= match.ruleset.target  # M-6
    assert check_stored_games(bot.database).finished == 1
    checked = assert_hands_private(fakegram, match, {0: alice.id, 1: bob.id})
    assert checked > 20
    # Every pair of doubles a person laid at once is in the log as one move of theirs.
    for seat, person in enumerate(people):
        for data, text in person.taken:
            if kind_of(data) is Press.DOUBLES:
                entry = match.log[move_of(data)]
                assert entry.seat == seat and "+" in str(entry.action) and " + " in text


async def test_a_whole_match_of_osel_with_doubles_closed_ends_and_a_restart(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    """Four people, so each kind of move comes to someone's hand: several doubles at once
    (O-2) and an end closed face down (O-3), pressed from the hand's menus. Mid-match the
    bot is killed (SIGKILL) and started again: the match goes on where it was, and every
    move a person's press was answered for is in the log once, at its move number.

    The restart comes six moves in: a fish goes to one player whole (K-9), which can pass
    125 in round 1 and end the match (O-6), and the earliest fish around a spinner takes
    nine moves (each of its four arms laid and closed), so six moves in is always mid-match."""
    users = [
        fakegram.add_user(name, username=name.lower()) for name in ("Алиса", "Боб", "Вера", "Глеб")
    ]
    group, lobby, table = await open_named_game(fakegram, "osel", users, 0)
    assert "Домино: Осёл" in lobby.content
    people = [Player(fakegram, user, closes=2) for user in users]
    for person in people:
        person.table = people

    await play_until(
        fakegram, people, lambda: over(group, table) or len(bot.stored_match().log) >= 6
    )
    assert not over(group, table)
    before = bot.stored_match()
    await settle(fakegram)
    await bot.restart(kill=True)
    after_restart = bot.stored_match()
    assert after_restart.log[: len(before.log)] == before.log  # nothing committed is lost
    await play_until(fakegram, people, lambda: over(group, table))
    await settle(fakegram)

    match = bot.stored_match()
    assert match.ruleset.variant.value == "osel" and match.over and match.losers
    assert match.log[: len(before.log)] == before.log
    await final_announcement(group, match, [user.first_name for user in users])
    assert max(account.recorded for account in match.scores) >= match.ruleset.target  # O-6
    assert check_stored_games(bot.database).finished == 1  # the replay gives the same match
    # Each person's moves in the log are exactly the moves their answered presses made.
    for seat, person in enumerate(people):
        made = {
            i for i, e in enumerate(match.log) if e.seat == seat and not isinstance(e.action, Draw)
        }
        pressed = [move_of(data) for data, _ in person.taken if kind_of(data) in MOVES]
        assert sorted(pressed) == sorted(made), person.user.first_name
        for data, _ in person.taken:
            if kind_of(data) is Press.DRAW:
                assert match.log[move_of(data)].seat == seat
    doubles = sum(p.pressed(Press.DOUBLES) for p in people)
    closed = sum(p.pressed(Press.CLOSE) for p in people)
    assert doubles >= 1 and closed >= 1, (doubles, closed)
    for data, text in (item for p in people for item in p.taken):
        if kind_of(data) is Press.CLOSE:
            assert str(match.log[move_of(data)].action).startswith("c") and "🔒" in text
    checked = assert_hands_private(fakegram, match, {i: u.id for i, u in enumerate(users)})
    assert checked > 50


async def test_a_whole_match_of_sport_in_pairs_with_pass(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    group, lobby, table = await open_named_game(fakegram, "sport", [alice, bob], 2)
    assert "Домино: Спортивное" in lobby.content
    assert "Пары: 2×2" in lobby.content  # S-1: four in fixed pairs, no button changes them
    assert not any(text.startswith(("👥", "🤝")) for text in lobby.buttons)
    people = [Player(fakegram, alice), Player(fakegram, bob)]
    await play_until(fakegram, people, lambda: over(group, table))
    await settle(fakegram)

    match = bot.stored_match()
    assert match.ruleset.variant.value == "sport" and match.over and match.ruleset.teams
    names = ["Алиса", "Боб", *COMPUTERS[:2]]
    assert match.sides == ((0, 2), (1, 3))  # S-1: partners opposite
    await final_announcement(group, match, names)
    assert max(account.recorded for account in match.scores) >= match.ruleset.target  # S-6
    assert not any(isinstance(e.action, Draw) for e in match.log)  # no bazaar (S-1)
    passes = [text for p in people for data, text in p.taken if kind_of(data) is Press.KNOCK]
    assert passes and set(passes) == {"🤚 Пас"}  # S-3
    assert bot.stored("SELECT turn_deadline FROM games") == [(None,)]  # the timer is off
    checked = assert_hands_private(fakegram, match, {0: alice.id, 1: bob.id})
    assert checked > 20
