"""Пятёрки and Тройки и пятёрки end to end through the fake Telegram with the bot as a
process: whole matches from `/domino all_fives` to the final announcement, every move
pressed by people in their private chats. The group's one table message shows each seat's
running score, the «+N» of the play that scored (checked against the stored match,
replayed) and the sum of the open ends; a match a move ends mid-round (F-6) is announced
as reached; the hands show each playable tile's points (hints are on by default) and go to
their owners only."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from domino.actions import Play, Played
from domino.match import Match
from domino.rules import LayoutKind
from domino.views import OutcomeKind
from tests.e2e.harness import (
    TABLE_TITLE,
    BotProcess,
    Person,
    Stall,
    assert_hands_private,
    button_data,
    is_hand_button,
    play_until,
    set_turn_timer,
    settle,
    wait_edited,
    wait_progressing,
)
from tests.fakegram import CallbackAnswer, FakeTelegram
from tests.fakegram.world import FakeChat, FakeUser, StoredMessage

WAIT = 60.0  # a window with no progress at all (tests.fakegram.waiting), not a deadline
SCORED = re.compile(r"(\S+) кладёт кость: \+(\d+)")
POINTS_BUTTON = re.compile(r"^✅ [0-6]\|[0-6] (до )?\+\d+$")


# The plays that scored after which a person looks at the table until it shows their
# «+N»: the table's edits are merged while moves come quickly (most plays are never on
# it), so the test makes sure a few are.
LOOKS = 3


@dataclass
class Player(Person):
    """A plain person who keeps the text of every move button their hand showed. With
    the `group`, after each of their first `looks` plays that scored without ending the
    round, they look at the group's table until it shows that play's «+N» (nobody moves
    meanwhile: the people take their turns one by one)."""

    seen: set[str] = field(default_factory=set)
    group: FakeChat | None = None
    looks: int = LOOKS
    last_answer: CallbackAnswer | None = None

    def choice(self, hand: StoredMessage) -> str | None:
        self.seen.update(b.text for b in hand.buttons if is_hand_button(b.callback_data))
        return super().choice(hand)

    async def take_turn(self) -> bool:
        hand = self.hand()
        data = None if hand is None or not self.my_turn() else self.choice(hand)
        pressed = ""
        if hand is not None and data is not None:
            pressed = next((b.text for b in hand.buttons if b.callback_data == data), "")
        round_no = None if self.group is None else caption_round(live_caption(self.group))
        if not await super().take_turn():
            return False
        answer = self.last_answer
        taken = answer is not None and answer.answered and not (answer.show_alert or answer.text)
        if self.group is not None and self.looks > 0 and taken and POINTS_BUTTON.match(pressed):
            # «до +N»: the end it goes to decides how much; else exactly N.
            points = "" if " до +" in pressed else pressed.rsplit("+", 1)[1]
            scored = f"{self.user.first_name} кладёт кость: +{points}"
            if await self._look_for(self.group, scored, round_no):
                self.looks -= 1
        return True

    def answered(self, data: str, answer: CallbackAnswer) -> None:
        self.last_answer = answer

    async def _look_for(self, group: FakeChat, scored: str, round_no: int | None) -> bool:
        """Until the table shows `scored` (True), or another round than `round_no` (the
        play ended the round, or the table was behind: False)."""

        def seen() -> bool:
            return scored in (live_caption(group) or "")

        def moved_on() -> bool:
            return caption_round(live_caption(group)) != round_no

        stall = Stall.of_chats(self.fake, [self.user], what=f"the table never showed «{scored}»")
        try:
            await wait_progressing(self.fake, lambda: seen() or moved_on(), stall)
        except TimeoutError as exc:
            raise TimeoutError(f"{exc}; the table shows:\n{live_caption(group)}") from None
        return seen()


def caption_round(caption: str | None) -> int | None:
    found = re.search(r"· раунд (\d+)", caption or "")
    return int(found.group(1)) if found else None


def in_play_points(match: Match) -> tuple[dict[int, set[tuple[int, int]]], dict[int, set[int]]]:
    """From the stored match replayed: per round, the (seat, points) of every play that
    scored as it was laid (F-3), and per side every score it had during the match."""
    replayed = Match.replay(match.ruleset, match.players, match.seed, [])
    plays: dict[int, set[tuple[int, int]]] = {}
    scores: dict[int, set[int]] = {side: {0} for side in range(len(match.sides))}
    game = match.ruleset.game
    for entry in match.log:
        round_no, results = replayed.round_no, len(replayed.results)
        side = replayed.side_of(entry.seat)
        before = replayed.scores[side].recorded
        replayed.apply(entry.action, entry.seat)
        ended = len(replayed.results) > results
        played_on = replayed.finished_round if ended else replayed.round
        assert played_on is not None
        points = 0  # a draw or a knock scores nothing
        if isinstance(entry.action, Play):
            points, _ = game.move_points(match.ruleset, played_on.layout.view())
        if not ended or replayed.results[-1].outcome.kind is OutcomeKind.REACHED:
            # The play's points went to its side at once (the end of a round gone out
            # or blocked adds F-5's points to its last play's).
            assert replayed.scores[side].recorded - before == points
        if points:
            plays.setdefault(round_no, set()).add((entry.seat, points))
        for index, account in enumerate(replayed.scores):
            scores[index].add(account.recorded)
    return plays, scores


def captions(group: FakeChat) -> list[str]:
    """Every caption the group's table messages ever showed, edits included."""
    shown = []
    for message in group.messages.values():
        if not message.from_bot:
            continue
        for version in [*message.history, message.version]:
            if version.photo is not None and TABLE_TITLE.search(version.caption or ""):
                shown.append(version.caption or "")
    return shown


def check_captions(group: FakeChat, match: Match, names: list[str]) -> int:
    """Every «+N» on the table is a play of that round that scored N for that seat, and
    the seat lines show scores the sides really had; the number of «+N» seen."""
    plays, scores = in_play_points(match)
    seen = 0
    for caption in captions(group):
        round_no = int(re.search(r"раунд (\d+)", caption).group(1))  # type: ignore[union-attr]
        for name, points in SCORED.findall(caption):
            seat = names.index(name)
            assert (seat, int(points)) in plays.get(round_no, set()), (name, points, caption)
            seen += 1
        if len(match.sides[0]) == 1:
            for seat, name in enumerate(names):
                line = re.search(rf"^(?:▶️ )?{re.escape(name)} — .* · (\d+)$", caption, re.M)
                assert line is not None, caption
                assert int(line.group(1)) in scores[match.side_of(seat)], caption
        ends = re.search(r"концы: (.*) = (\d+)$", caption, re.M)
        assert ends is not None or "концы:" not in caption, caption
        if ends is not None:
            # Each end as it counts («6+6», «6 (0)»): what they add up to is the sum shown.
            terms = [t for t in ends.group(1).split(" · ") if not t.endswith("(0)")]
            assert sum(int(h) for t in terms for h in t.split("+")) == int(ends.group(2)), caption
    return seen


async def open_fives(
    fakegram: FakeTelegram,
    game: str,
    people: list[FakeUser],
    *,
    pairs: bool = False,
    straight: bool = False,
    target: int | None = None,
) -> tuple[FakeChat, str]:
    """`/domino <game>` in a new group whose admin (the first person) switched the turn
    timer off; the table made as big as the company, in pairs if asked, with F-2's
    «Straight» if asked (only an opening double spins), to `target` if given (pressing
    «🎯» until the lobby says it), everyone seated, started. The group and the lobby's
    text with everyone seated."""
    group = fakegram.add_group("Домино во дворе", members=people, admins=people[:1])
    for user in people:
        await user.start()
        await user.private_chat.wait_for_message(lambda m: "Привет" in m.content, timeout=WAIT)
    creator = people[0]
    await set_turn_timer(group, creator)
    await creator.command(group, "domino", game)
    lobby = await group.wait_for_message(lambda m: "Игроки" in m.content, timeout=WAIT)
    while f"Игроков: {len(people)}" not in lobby.content:
        shown = lobby.content
        await creator.press(lobby, data=button_data(lobby, "👥"), timeout=WAIT)
        await wait_edited(fakegram, lobby, shown, timeout=WAIT)
    if pairs:
        await creator.press(lobby, data=button_data(lobby, "🤝 Пары"), timeout=WAIT)
        await group.wait_for_message(lambda m: m is lobby and "Пары: 2×2" in m.content)
    if straight:
        assert "🌀 Спиннер: первый дубль" in [b.text for b in lobby.buttons]
        await creator.press(lobby, data=button_data(lobby, "🌀 Спиннер"), timeout=WAIT)
        await group.wait_for_message(
            lambda m: m is lobby and "Спиннер — только дубль, которым открыт раунд" in m.content,
            timeout=WAIT,
        )
        assert "🌀 Спиннер: только дубль первым ходом" in [b.text for b in lobby.buttons]
    while target is not None and f"игра до {target}" not in lobby.content:
        shown = lobby.content
        await creator.press(lobby, data=button_data(lobby, "🎯"), timeout=WAIT)
        await wait_edited(fakegram, lobby, shown, timeout=WAIT)
    for user in people[1:]:
        answer = await user.press(lobby, data=button_data(lobby, "Играю"), timeout=WAIT)
        assert answer.answered and answer.url is None, answer
    seated = f"({len(people)}/{len(people)})"
    await group.wait_for_message(lambda m: m is lobby and seated in m.content, timeout=WAIT)
    full = lobby.content
    answer = await creator.press(lobby, data=button_data(lobby, "Начать"), timeout=WAIT)
    assert answer.answered and not answer.show_alert, answer
    await group.wait_for_message(
        lambda m: m.photo is not None and "раунд 1" in m.content, timeout=WAIT
    )
    return group, full


def announcements(group: FakeChat) -> list[str]:
    """The group's messages that are no table: round ends (pictures) and the match's end."""
    return [
        m.content
        for m in group.bot_messages
        if m.content and not TABLE_TITLE.search(m.content) and "Игроки" not in m.content
    ]


def caption_seats(
    caption: str, names: Sequence[str]
) -> tuple[int, int | None, tuple[int, ...], tuple[int, ...]]:
    """A table caption's round, the seat its ▶️ marks (None: nobody) and each seat's
    tiles and score, from its lines «▶️ Алиса — 5 костей · 12»."""
    round_no = int(re.search(r"· раунд (\d+)", caption).group(1))  # type: ignore[union-attr]
    turn, tiles, scores = None, [], []
    for seat, name in enumerate(names):
        line = re.search(rf"^(▶️ )?{re.escape(name)} — (\d+) \S+ · (\d+)$", caption, re.M)
        assert line is not None, (name, caption)
        if line.group(1):
            assert turn is None, caption
            turn = seat
        tiles.append(int(line.group(2)))
        scores.append(int(line.group(3)))
    return round_no, turn, tuple(tiles), tuple(scores)


def live_caption(group: FakeChat) -> str | None:
    """The caption of the group's newest table picture that is not deleted."""
    tables = [
        m
        for m in group.visible_messages
        if m.from_bot and m.photo is not None and TABLE_TITLE.search(m.content)
    ]
    return tables[-1].content if tables else None


async def see_the_end(fakegram: FakeTelegram, group: FakeChat, users: list[FakeUser]) -> None:
    """Wait until the group has the match's end and its table says the match is over (on
    a loaded machine the table's last edit may come after the announcement)."""

    def shown() -> bool:
        ended = any(m.startswith("🏆 Победа — ") for m in announcements(group))
        return ended and "Партия окончена." in (live_caption(group) or "")

    stall = Stall.of_chats(fakegram, users, what="the match's end was not all shown")
    await wait_progressing(fakegram, shown, stall)
    await settle(fakegram)


def check_the_end(group: FakeChat, match: Match, names: list[str]) -> None:
    """The last round told as it ended (F-6: reached mid-round), each round's points in
    play and at its end together, then the winner and the final scores."""
    sides = [" + ".join(names[seat] for seat in seats) for seats in match.sides]
    said = announcements(group)
    last = match.results[-1]
    ended = next(text for text in said if f"Раунд {last.round_no}:" in text)
    side = match.side_of(last.outcome.seat)
    if last.outcome.kind is OutcomeKind.REACHED:
        who = sides[side] if len(match.sides[side]) == 1 else f"пара {sides[side]}"
        total = match.scores[side].recorded
        assert ended.startswith(f"🎯 Раунд {last.round_no}: {who} набирает {total} "), ended
        assert "— победа!" in ended
    for result in match.results:
        text = next(t for t in said if f"Раунд {result.round_no}:" in t)
        points = " · ".join(
            f"{name} +{gained}" for name, gained in zip(sides, result.points, strict=True)
        )
        assert f"✍️ Очки за раунд: {points}" in text, text
    winner = max(range(len(sides)), key=lambda index: match.scores[index].recorded)
    assert match.winners == (winner,)
    end = next(text for text in said if text.startswith("🏆 Победа — "))
    assert end.splitlines()[0] == f"🏆 Победа — {sides[winner]}"
    for name, account in zip(sides, match.scores, strict=True):
        assert f"{name}: {account.recorded}" in end


def points_buttons(people: Iterable[Player]) -> list[str]:
    return [text for person in people for text in person.seen if POINTS_BUTTON.match(text)]


async def test_a_whole_match_of_all_fives_between_two_people(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    group, lobby = await open_fives(fakegram, "all_fives", [alice, bob])
    assert "Домино: Пятёрки" in lobby and "игра до 250" in lobby

    people = [Player(fakegram, alice, group=group), Player(fakegram, bob, group=group)]
    await play_until(fakegram, people, bot.match_over)
    await settle(fakegram)
    await see_the_end(fakegram, group, [alice, bob])

    match = bot.stored_match()
    assert match.ruleset.variant.value == "all_fives" and match.over
    assert max(account.recorded for account in match.scores) >= 250  # F-6
    names = ["Алиса", "Боб"]
    assert check_captions(group, match, names) > 0  # «+N» on the plays that scored
    check_the_end(group, match, names)
    assert points_buttons(people), "no tile button showed its points"
    assert assert_hands_private(fakegram, match, {0: alice.id, 1: bob.id}) > 50
    assert sum(p.presses for p in people) > 20


async def test_threes_and_fives_in_pairs_between_four_people(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    users = [
        fakegram.add_user(name, username=f"p{index}")
        for index, name in enumerate(["Алиса", "Боб", "Вика", "Дима"])
    ]
    group, lobby = await open_fives(fakegram, "threes_and_fives", users, pairs=True, target=61)
    assert "Домино: Тройки и пятёрки" in lobby and "игра до 61" in lobby

    people = [Player(fakegram, user, group=group) for user in users]
    await play_until(fakegram, people, bot.match_over)
    await settle(fakegram)
    await see_the_end(fakegram, group, users)

    match = bot.stored_match()
    assert match.ruleset.teams and match.sides == ((0, 2), (1, 3)) and match.over
    names = ["Алиса", "Боб", "Вика", "Дима"]
    assert check_captions(group, match, names) > 0
    final = live_caption(group)
    assert final is not None and "Партия окончена." in final
    for side, seats in enumerate(match.sides):
        pair = " + ".join(names[seat] for seat in seats)
        assert f"пара {pair}: {match.scores[side].recorded}" in final
    check_the_end(group, match, names)
    assert match.ruleset.target == 61  # the pub's board, picked in the lobby
    assert pub_round_ends(match) > 0, "no round ended by going out"
    assert points_buttons(people), "no tile button showed its points"
    owners = {seat: user.id for seat, user in enumerate(users)}
    assert assert_hands_private(fakegram, match, owners) > 50


def pub_round_ends(match: Match) -> int:
    """On the pub's board (61, 121) a round won by going out scores, beside its plays,
    the pips left in the other pair's hands rounded to 5 and divided by 5 (F-5 in fives);
    each such round checked on the stored match replayed, how many there were."""
    game = match.ruleset.game
    replayed = Match.replay(match.ruleset, match.players, match.seed, [])
    checked = 0
    for entry in match.log:
        in_play = replayed.view(None).round_points
        results = len(replayed.results)
        event = replayed.apply(entry.action, entry.seat)
        if len(replayed.results) == results:
            continue
        result = replayed.results[-1]
        if result.outcome.kind is not OutcomeKind.WENT_OUT:
            continue
        ended = replayed.finished_round
        assert ended is not None and isinstance(event, Played)
        last, _ = game.move_points(match.ruleset, ended.layout.view())
        side = replayed.side_of(result.outcome.seat)
        left = sum(
            result.outcome.hand_values[seat]
            for index, seats in enumerate(match.sides)
            if index != side
            for seat in seats
        )
        end = [0] * len(match.sides)
        end[side] = (left + 2) // 5 * 5 // 5
        expected = [a + b for a, b in zip(in_play, end, strict=True)]
        expected[side] += last
        assert list(result.points) == expected, (result, in_play, last)
        checked += 1
    return checked


def spinners(match: Match) -> tuple[int, int]:
    """The stored match replayed position by position: how many tables had a spinner and
    how many were lines; a spinner, when there is one, is the round's opening double."""
    replayed = Match.replay(match.ruleset, match.players, match.seed, [])
    spun = plain = 0
    for entry in match.log:
        results = len(replayed.results)
        replayed.apply(entry.action, entry.seat)
        table = replayed.finished_round if len(replayed.results) > results else replayed.round
        assert table is not None
        layout = table.layout.view()
        if layout.spinner is not None:
            assert layout.spinner is layout.centre and layout.spinner.tile.is_double
            spun += 1
        elif layout.centre is not None:
            plain += 1
    return spun, plain


async def test_all_fives_with_straight_spins_only_an_opening_double(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    """F-2's option chosen in the lobby: the match is played with it to the end, a
    spinner only ever the double that opened its round, the captions' points and sums
    what the stored match says, the hands private."""
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    group, lobby = await open_fives(fakegram, "all_fives", [alice, bob], straight=True)
    assert "Домино: Пятёрки" in lobby and "Спиннер — только дубль" in lobby

    people = [Player(fakegram, alice, group=group), Player(fakegram, bob, group=group)]
    await play_until(fakegram, people, bot.match_over)
    await settle(fakegram)
    await see_the_end(fakegram, group, [alice, bob])

    match = bot.stored_match()
    assert match.ruleset.variant.value == "all_fives" and match.over
    assert match.ruleset.layout is LayoutKind.SPINNER
    spun, plain = spinners(match)
    assert spun + plain > 20
    names = ["Алиса", "Боб"]
    check_captions(group, match, names)
    check_the_end(group, match, names)
    assert assert_hands_private(fakegram, match, {0: alice.id, 1: bob.id}) > 20
