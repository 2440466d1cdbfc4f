"""Блиц and Крест (section V: any number of tiles in one turn) end to end through the fake
Telegram with the bot as a process, every move pressed by people in their private chats.

Блиц: a whole match between two people. Алиса ends a turn with «✔️ Сходить» once she has
laid two tiles of it and more would fit; Боб lays all that fit, so his turns pass by
themselves. After each of her tiles that leaves her turn open, after each «✔️ Сходить»
and after each turn of several tiles of his that passed by itself, they look at the
group's table until it shows that moment (nobody moves meanwhile), so the middle and
the end of such turns are seen there; /history then opens the match's sheet. Крест: a
whole match of two people and a computer (another if the computer never laid several
tiles in one turn with the round going on); after such a turn the person to move
first looks at the table until it shows it, as one move of the computer's.

The stored match is replayed move by move, and every caption the group's table ever
showed must be one of those moments exactly: the round, whose turn (the ▶️ marker and
«Ход:» naming the same seat), each seat's tiles and score, the bazaar where there is one,
and the recent moves, a turn's tiles folded into one line («Алиса кладёт 3 кости»,
worked out here from the public history on its own). No tile of a hand is ever shown to
anyone but its owner. No turn timer runs (the group's admin switched it off), and every
wait ends on what the chats show, not on time."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from domino.actions import (
    Drew,
    Ended,
    EndTurn,
    Event,
    Flipped,
    Knocked,
    Play,
    Played,
    TurnedUp,
)
from domino.match import Match
from domino.views import MatchView
from tests.e2e.harness import (
    TABLE_TITLE,
    BotProcess,
    Press,
    Stall,
    assert_hands_private,
    button_data,
    is_hand_button,
    kind_of,
    play_until,
    set_turn_timer,
    settle,
    wait_edited,
    wait_progressing,
)
from tests.e2e.test_all_fives_e2e import Player, announcements, caption_seats, live_caption
from tests.fakegram import FakeTelegram
from tests.fakegram.world import FakeChat, FakeUser, StoredMessage

WAIT = 60.0  # a window with no progress at all (tests.fakegram.waiting), not a deadline
RECENT = 3  # the moves the caption's «Последние ходы» shows
LAID = re.compile(r"Вы положили (\d+) \S+ за этот ход\. Можно положить ещё кость или нажать")
# Блиц matches at most until both turns the test looks at came: Алиса ended a turn of two
# tiles herself, and a turn of several tiles of Боб's passed on by itself without ending
# its round (the first is missing from about one match in a hundred, the second from
# some more: each extra match makes a miss of both that much rarer)
MATCHES = 4


def tiles_word(n: int) -> str:
    """Russian's plural of «кость» after a number: 1 кость, 2–4 кости, 5–20 костей, 21 кость."""
    if n % 10 == 1 and n % 100 != 11:
        return "кость"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "кости"
    return "костей"


@dataclass(frozen=True)
class Moment:
    """What the table's caption shows of the match at one moment."""

    round_no: int
    over: bool
    turn: int | None
    tiles: tuple[int, ...]  # per seat
    scores: tuple[int, ...]  # per seat
    bazaar: int | None  # None where the deal left none (Блиц)
    recent: tuple[str, ...]


def recent_moves(view: MatchView, names: Sequence[str]) -> tuple[str, ...]:
    """The caption's last moves as players read them: one seat's plays in a row are one
    turn («кладёт 3 кости»), the «✔️ Сходить» that ended it adds nothing, a run of one
    seat's draws or knocks is one move «×N», and in Втемную a miss names the tile everyone
    saw turned up, and so does a tile turned up that fits both ends (the play that follows
    is a move of its own)."""
    folded: list[tuple[Event, int]] = []  # (the run's event, its count)
    for event in view.round.history:
        if folded:
            last, count = folded[-1]
            if event.seat == last.seat:
                if isinstance(event, Ended) and isinstance(last, Played):
                    continue
                if type(event) is type(last) and isinstance(event, Played | Drew | Knocked):
                    folded[-1] = (event, count + 1)
                    continue
        folded.append((event, 1))
    shown = []
    for event, count in folded[-RECENT:]:
        name = names[event.seat]
        if isinstance(event, Played):
            shown.append(
                f"{name} кладёт кость"
                if count == 1
                else f"{name} кладёт {count} {tiles_word(count)}"
            )
            continue
        if isinstance(event, TurnedUp):  # Втемную: a tile turned up that fits both ends
            tile = f"{event.tile.low}|{event.tile.high}"
            shown.append(f"{name} открывает {tile}: подходит к обоим концам — выбирает конец")
            continue
        if isinstance(event, Flipped):
            tile = f"{event.tile.low}|{event.tile.high}"
            drew = ", сверху — кость из базара" if event.drew else ""
            shown.append(f"{name} открывает {tile}: не подходит, уходит под стопку{drew}")
            continue
        assert isinstance(event, Knocked | Drew), event
        move = f"{name}: стучу" if isinstance(event, Knocked) else f"{name} берёт из базара"
        shown.append(move if count == 1 else f"{move} ×{count}")
    return tuple(shown)


def moment_of(view: MatchView, names: Sequence[str], bazaar: bool) -> Moment:
    return Moment(
        round_no=view.round_no,
        over=view.over,
        turn=None if view.over else view.round.turn,
        tiles=view.round.hand_counts,
        scores=tuple(view.scores[view.side_of(s)].recorded for s in range(view.players)),
        bazaar=view.round.bazaar_size if bazaar else None,
        recent=recent_moves(view, names),
    )


def moments(match: Match, names: Sequence[str]) -> list[Moment]:
    """Every moment of the stored match, replayed from its seed and log."""
    dealt = match.ruleset.hand_size(match.players) * match.players
    bazaar = dealt < 28 - match.ruleset.bazaar_reserve  # tiles someone may draw
    replayed = Match.replay(match.ruleset, match.players, match.seed, [])
    shown = [moment_of(replayed.view(None), names, bazaar)]
    for entry in match.log:
        replayed.apply(entry.action, entry.seat)
        shown.append(moment_of(replayed.view(None), names, bazaar))
    assert replayed.over == match.over and replayed.results == match.results
    return shown


def seen_moment(caption: str, names: Sequence[str]) -> Moment:
    """A table caption read back as a `Moment`."""
    round_no, turn, tiles, scores = caption_seats(caption, names)
    mover = re.search(r"^Ход: (.+)$", caption, re.M)
    # «Ход:» names the seat the ▶️ marks, in the middle of a turn of several tiles too.
    assert (mover.group(1) if mover else None) == (None if turn is None else names[turn]), caption
    bazaar = re.search(r"базар: (\d+)", caption)
    recent = next((ln for ln in caption.splitlines() if ln.startswith("Последние ходы: ")), "")
    return Moment(
        round_no=round_no,
        over="Партия окончена." in caption,
        turn=turn,
        tiles=tiles,
        scores=scores,
        bazaar=int(bazaar.group(1)) if bazaar else None,
        recent=tuple(recent.removeprefix("Последние ходы: ").split(" → ")) if recent else (),
    )


def match_captions(group: FakeChat, lobby: StoredMessage) -> list[str]:
    """Every caption the table of the match opened in `lobby` showed, edits included
    (the tables after that lobby: an earlier match's in the same group are left out)."""
    messages = list(group.messages.values())
    later = messages[messages.index(lobby) + 1 :]
    shown = []
    for message in later:
        if not message.from_bot:
            continue
        for version in [*message.history, message.version]:
            if version.photo is not None and TABLE_TITLE.search(version.caption or ""):
                shown.append(version.caption or "")
    return shown


def check_captions(
    group: FakeChat, lobby: StoredMessage, match: Match, names: Sequence[str]
) -> list[Moment]:
    """Every caption the match's table showed is a moment of the match replayed; those
    moments, in the order shown."""
    known = set(moments(match, names))
    seen = []
    for caption in match_captions(group, lobby):
        moment = seen_moment(caption, names)
        assert moment in known, f"no such moment in the match: {moment}\n{caption}"
        seen.append(moment)
    assert seen
    return seen


@dataclass
class TableWatch:
    """Waits until the group's table shows the match as the bot stored it now (nobody
    moves meanwhile: the people take their turns one by one, and no computer is due)."""

    fake: FakeTelegram
    bot: BotProcess
    group: FakeChat
    names: list[str]
    users: list[FakeUser]

    async def shown(self) -> Moment:
        match = self.bot.stored_match()
        expected = moments(match, self.names)[-1]

        def on_the_table() -> bool:
            caption = live_caption(self.group)
            return caption is not None and seen_moment(caption, self.names) == expected

        stall = Stall.of_chats(self.fake, self.users, what="the table did not show the move")
        await wait_progressing(self.fake, on_the_table, stall)
        return expected


@dataclass
class Ender(Player):
    """A person who presses «✔️ Сходить» once they laid `stop_after` tiles of a turn and
    could lay more (None: never, they lay all that fits and the turn passes by itself).
    With a `watch` they look at the table until it shows the moment after «✔️ Сходить»,
    after a tile that leaves their turn open (if `watch_mid_turn`), and after a tile
    that passed a turn of several tiles on by itself."""

    stop_after: int | None = None
    watch: TableWatch | None = None
    watch_mid_turn: bool = True
    mid_turn_texts: list[str] = field(default_factory=list)  # the hand in a turn's middle
    mid_turn_tables: list[Moment] = field(default_factory=list)  # the table then
    ended_tables: list[Moment] = field(default_factory=list)  # after «✔️ Сходить»
    passed_tables: list[Moment] = field(default_factory=list)  # after a turn passed by itself

    def choice(self, hand: StoredMessage) -> str | None:
        plain = super().choice(hand)
        ends = [
            b.callback_data
            for b in hand.buttons
            if is_hand_button(b.callback_data) and kind_of(b.callback_data or "") is Press.END_TURN
        ]
        laid = LAID.search(hand.content)
        menu = any(  # of ends
            is_hand_button(b.callback_data) and kind_of(b.callback_data or "") is Press.BACK
            for b in hand.buttons
        )
        if not menu:  # the hand's tiles: the button and its line go together
            assert bool(ends) == bool(laid), hand.content
            assert [b.text for b in hand.buttons if b.callback_data in ends] == (
                ["✔️ Сходить"] if laid else []
            )
        if laid:
            self.mid_turn_texts.append(hand.content)
        if ends and laid and self.stop_after is not None and int(laid.group(1)) >= self.stop_after:
            return ends[0]
        return plain

    async def take_turn(self) -> bool:
        hand = self.hand()
        if hand is None or not self.my_turn():
            return False
        data = self.choice(hand)
        if data is None:
            return False
        answer = await self.user.press(hand, data=data, timeout=self.press_timeout)
        self.presses += 1
        refused = not answer.answered or answer.show_alert or bool(answer.text)
        kind = kind_of(data)
        if refused or kind not in (Press.PLAY, Press.END_TURN) or self.watch is None:
            return True
        match = self.watch.bot.stored_match()
        mine = match.log[-1].seat
        if kind is Press.END_TURN:
            assert isinstance(match.log[-1].action, EndTurn)
            self.ended_tables.append(await self.watch.shown())
        elif match.over or match.log[-1].round_no != match.round_no:
            pass  # the tile ended the round: the table shows the next one, or the end
        elif match.turn == mine:
            if match.round.mid_turn and self.watch_mid_turn:
                self.mid_turn_tables.append(await self.watch.shown())
        elif turns(match)[-1][2] >= 2:
            self.passed_tables.append(await self.watch.shown())
        return True


@dataclass
class Watcher(Player):
    """A plain person who, when their turn comes right after a turn of several tiles by
    the computer at seat `computer` (in the same round), first looks at the table until
    it shows that moment (`computer_turns`)."""

    watch: TableWatch | None = None
    computer: int = -1
    computer_turns: list[Moment] = field(default_factory=list)
    _watched: set[int] = field(default_factory=set)

    async def take_turn(self) -> bool:
        if self.watch is not None and self.my_turn():
            match = self.watch.bot.stored_match()
            last = turns(match)[-1:]
            if (
                last
                and not match.over
                and match.log[-1].seat == self.computer
                and last[0][1] == self.computer
                and last[0][2] >= 2
                and last[0][0] == match.round_no
                and len(match.log) not in self._watched
            ):
                self._watched.add(len(match.log))
                self.computer_turns.append(await self.watch.shown())
        return await super().take_turn()


async def open_children(
    fakegram: FakeTelegram,
    game: str,
    people: list[FakeUser],
    *,
    computers: int = 0,
    group: FakeChat | None = None,
) -> tuple[FakeChat, StoredMessage, str]:
    """`/domino <game>` in a new group whose admin (the first person) switched the turn
    timer off (or again in `group`), the table as big as the company and its computers,
    everyone seated, started. The group, the lobby and its text with everyone seated."""
    if group is None:
        group = fakegram.add_group("Домино во дворе", members=people, admins=people[:1])
        for user in people:
            await user.start()
            await user.private_chat.wait_for_message(lambda m: "Привет" in m.content, timeout=WAIT)
        await set_turn_timer(group, people[0])
    creator = people[0]
    before = group.bot_messages[-1] if group.bot_messages else None
    await creator.command(group, "domino", game)
    lobby = await group.wait_for_message(
        lambda m: "Игроки" in m.content, after=before, timeout=WAIT
    )
    seats = len(people) + computers
    while f"Игроков: {seats}" not in lobby.content:
        shown = lobby.content
        await creator.press(lobby, data=button_data(lobby, "👥"), timeout=WAIT)
        await wait_edited(fakegram, lobby, shown, timeout=WAIT)
    for user in people[1:]:
        answer = await user.press(lobby, data=button_data(lobby, "Играю"), timeout=WAIT)
        assert answer.answered and answer.url is None, answer
    for _ in range(computers):
        await creator.press(lobby, data=button_data(lobby, "компьютер"), timeout=WAIT)
    seated = f"({seats}/{seats})"
    await group.wait_for_message(lambda m: m is lobby and seated in m.content, timeout=WAIT)
    full = lobby.content
    answer = await creator.press(lobby, data=button_data(lobby, "Начать"), timeout=WAIT)
    assert answer.answered and not answer.show_alert, answer
    await group.wait_for_message(
        lambda m: m.photo is not None and "раунд 1" in m.content, after=lobby, timeout=WAIT
    )
    return group, lobby, full


@dataclass
class MatchSpan:
    """One match of a test: its game's id and the span of the fake's exposures (what the
    bot showed anyone) from its lobby on, so each match's hands are checked against what
    was shown while it was played."""

    game_id: int
    start: int
    end: int | None = None


class _Span:
    """The fake as `assert_hands_private` reads it, with only one span of its exposures."""

    def __init__(self, fake: FakeTelegram, exposures: list[Any]) -> None:
        self._fake = fake
        self.exposures = exposures

    def __getattr__(self, name: str) -> Any:
        return getattr(self._fake, name)


def assert_each_match_private(
    fake: FakeTelegram, bot: BotProcess, spans: Sequence[MatchSpan], owners: dict[int, int]
) -> int:
    """`assert_hands_private` for each match over what was shown while it was played
    (several matches in one group: a tile held in one may be shown to its owner in the
    next); the exposures checked."""
    checked = 0
    for span in spans:
        shown = _Span(fake, fake.exposures[span.start : span.end])
        match = bot.stored_match(span.game_id)
        checked += assert_hands_private(cast(FakeTelegram, shown), match, owners)
    return checked


def next_match(fake: FakeTelegram, spans: list[MatchSpan]) -> int:
    """Close the span of the match before, if any; where the next one's begins."""
    if spans:
        spans[-1].end = len(fake.exposures)
    return len(fake.exposures)


def newest_game(bot: BotProcess) -> int:
    return int(str(bot.stored("SELECT MAX(id) FROM games")[0][0]))


def seat_names(bot: BotProcess) -> list[str]:
    """The names of the newest game's seats, as the group's caption shows them."""
    rows = bot.stored(
        "SELECT name FROM seats WHERE game_id = (SELECT MAX(id) FROM games) ORDER BY seat"
    )
    return [str(name) for (name,) in rows]


async def see_the_end(
    fakegram: FakeTelegram, group: FakeChat, users: list[FakeUser], *, matches: int = 1
) -> None:
    """Until the group has the end of its `matches`-th match (the ends of its earlier
    matches are there already) and its table says the match is over."""

    def shown() -> bool:
        ends = [m for m in announcements(group) if m.startswith("🏆 Победа — ")]
        ended = len(ends) >= matches
        return ended and "Партия окончена." in (live_caption(group) or "")

    stall = Stall.of_chats(fakegram, users, what="the match's end was not all shown")
    await wait_progressing(fakegram, shown, stall)
    await settle(fakegram)


def turns(match: Match) -> list[tuple[int, int, int, bool]]:
    """Each turn of the match that laid a tile: (round, seat, tiles laid, ended by
    «✔️ Сходить»); a turn is a seat's actions in a row within a round."""
    found: list[tuple[int, int, int, bool]] = []
    run: list[object] = []
    last: tuple[int, int] | None = None
    for entry in [*match.log, None]:
        key = None if entry is None else (entry.round_no, entry.seat)
        if key != last and last is not None and run:
            laid = sum(isinstance(action, Play) for action in run)
            if laid:
                found.append((*last, laid, isinstance(run[-1], EndTurn)))
            run = []
        if entry is not None:
            run.append(entry.action)
        last = key
    return found


async def test_a_whole_match_of_blitz_between_two_people(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    users = [alice, bob]
    names = ["Алиса", "Боб"]
    group: FakeChat | None = None
    spans: list[MatchSpan] = []
    for _ in range(MATCHES):
        start = next_match(fakegram, spans)
        group, lobby, text = await open_children(fakegram, "blitz", users, group=group)
        spans.append(MatchSpan(newest_game(bot), start))
        assert "Домино: Блиц" in text and "игра до 100" in text
        assert seat_names(bot) == names
        watch = TableWatch(fakegram, bot, group, names, users)
        people = [
            Ender(fakegram, alice, stop_after=2, watch=watch),
            Ender(fakegram, bob, stop_after=None, watch=watch, watch_mid_turn=False),
        ]
        await play_until(fakegram, people, bot.match_over)
        await settle(fakegram)
        await see_the_end(fakegram, group, users, matches=len(spans))
        match = bot.stored_match()
        ended_two = any(seat == 0 and laid >= 2 and ended for _, seat, laid, ended in turns(match))
        if ended_two and people[1].passed_tables:
            break
    else:
        raise AssertionError(
            f"in {MATCHES} matches, no match where Алиса ended a turn of two tiles and a turn"
            " of several tiles of Боб's passed by itself in the middle of a round"
        )

    assert match.ruleset.variant.value == "blitz" and match.over
    assert match.ruleset.hand_size(2) == 14  # all 28 tiles shared out, no bazaar
    laid_turns = turns(match)
    # Алиса ended turns of two tiles herself; Боб's turns passed by themselves, some of
    # several tiles (a tile laid, and the next move another seat's).
    assert any(seat == 0 and laid == 2 and ended for _, seat, laid, ended in laid_turns)
    assert not any(ended for _, seat, _, ended in laid_turns if seat == 1)
    assert any(seat == 1 and laid >= 2 for _, seat, laid, _ in laid_turns)
    # Her hand said what she laid and what may follow, with the button.
    assert any("Вы положили 2 кости за этот ход." in text for text in people[0].mid_turn_texts)
    # The table in the middle of her turns: still her turn, her tiles so far on one line;
    # once she ended one, Боб's turn and her two tiles on one line; once his turn of
    # several tiles passed by itself, her turn and his tiles on one line.
    alice_laid = ("Алиса кладёт кость", "Алиса кладёт 2 кости")
    assert people[0].mid_turn_tables and people[0].ended_tables and people[1].passed_tables
    for moment in people[0].mid_turn_tables:
        assert moment.turn == 0 and moment.recent[-1] in alice_laid, moment
    for moment in people[0].ended_tables:
        assert moment.turn == 1 and moment.recent[-1] == alice_laid[1], moment
    bob_laid = re.compile(r"Боб кладёт \d+ (кости|костей)")
    for moment in people[1].passed_tables:
        assert moment.turn == 0 and bob_laid.fullmatch(moment.recent[-1]), moment
    check_captions(group, lobby, match, names)
    winner = max(range(2), key=lambda side: match.scores[side].recorded)
    assert match.winners == (winner,) and match.scores[winner].recorded >= 100
    end = [text for text in announcements(group) if text.startswith("🏆 Победа — ")][-1]
    assert end.splitlines()[0] == f"🏆 Победа — {names[winner]}"
    owners = {0: alice.id, 1: bob.id}
    assert assert_each_match_private(fakegram, bot, spans, owners) > 40

    # /history keeps the match: its sheet names the game and each round's outcome.
    before = group.bot_messages[-1]
    await alice.command(group, "history")
    history = await group.wait_for_message(lambda m: "📜" in m.content, after=before, timeout=WAIT)
    if "· Блиц ·" not in history.content:
        await alice.press(history, text="Блиц", timeout=WAIT)
        await group.wait_for_message(lambda m: m is history and "· Блиц ·" in m.content)
    assert "доиграна" in history.content
    newest = len(spans)  # the group's matches of Блиц, numbered from 1: the newest first
    await alice.press(history, text=f"📋 {newest}", timeout=WAIT)
    await group.wait_for_message(lambda m: m is history and "Партия №" in m.content)
    assert f"Партия №{newest} · Блиц до 100" in history.content
    marks = re.findall(r"^Раунд \d+ · (домино|рыба)", history.content, re.M)
    assert len(marks) == len(match.results), history.content


async def test_a_match_of_cross_with_a_computer_whose_turns_lay_several_tiles(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    users = [alice, bob]
    group: FakeChat | None = None
    spans: list[MatchSpan] = []
    computer = 2  # seated after the people
    for _ in range(MATCHES + 1):
        start = next_match(fakegram, spans)
        group, lobby, text = await open_children(fakegram, "cross", users, computers=1, group=group)
        spans.append(MatchSpan(newest_game(bot), start))
        assert "Домино: Крест" in text and "игра до 100" in text
        names = seat_names(bot)
        assert names[:2] == ["Алиса", "Боб"] and names[computer].startswith("🤖")
        watch = TableWatch(fakegram, bot, group, names, users)
        people = [Watcher(fakegram, user, watch=watch, computer=computer) for user in users]
        await play_until(fakegram, people, bot.match_over)
        await settle(fakegram)
        await see_the_end(fakegram, group, users, matches=len(spans))
        seen_turns = [moment for person in people for moment in person.computer_turns]
        if seen_turns:
            break  # the chances of no such turn in a match: about 1 in 10
    else:
        raise AssertionError(f"no turn of several tiles by the computer in {MATCHES + 1} matches")

    match = bot.stored_match()
    assert match.ruleset.variant.value == "cross" and match.over and match.players == 3
    # The computer's turns of several tiles were played out, each action applied, the
    # turn handed on; the table showed such a turn as one move of the computer's, with
    # a person to move.
    assert any(seat == computer and laid >= 2 for _, seat, laid, _ in turns(match))
    several = re.compile(rf"{re.escape(names[computer])} кладёт \d+ (кости|костей)")
    for moment in seen_turns:
        assert moment.turn != computer and several.fullmatch(moment.recent[-1]), moment
    seen = check_captions(group, lobby, match, names)
    assert seen and all(m.bazaar is None for m in seen)  # all shared out: no bazaar shown
    end = [text for text in announcements(group) if text.startswith("🏆 Победа — ")][-1]
    assert end.splitlines()[0] == "🏆 Победа — " + ", ".join(names[s] for s in match.winners)
    owners = {0: alice.id, 1: bob.id}
    assert assert_each_match_private(fakegram, bot, spans, owners) > 20
