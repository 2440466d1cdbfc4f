"""Втемную (section V: the tiles lie in a face-down stack nobody sees, its owner included)
end to end through the fake Telegram with the bot as a process: whole matches of two people
and a computer (another in the same group until a person's stack was turned up and
played), from `/domino втемную` to the final announcement, every move pressed by the
people in their private chats.

While a person's tiles lie face down their hand shows none, only how many, and on their
turn the one button «⬛ Открыть верхнюю» (no «💡 Подсказка»: a forged hint press is
refused, there being nothing to hint); each press is answered with what became of the
tile, never the tile. Once the stack is turned up
(three left) the hand is the usual one and Алиса ends her turns with «✔️ Сходить» where
more would fit; after each of her flips she looks at the table until it shows it. The
stored matches replay to the same matches; every caption the group's table showed is a
moment of its match (the round, the turn, each seat's tiles and whether they
lie face down, the scores, the bazaar, the recent moves with the misses «Алиса открывает
2|5: не подходит, уходит под стопку»); the final announcement names the winner. No tile of a
hand is shown to anyone but its owner, no tile of a stack even to its owner (the privacy
check replays who saw what), and no hand that shows its tiles face down names a tile but
one it turned up that fits both ends: such a tile is everyone's to see, and its owner's
to lay on the end they choose (Алиса the ➡️ one, Боб the first offered); its flip is
answered with that choice to make.

A tile turned up that fits both ends, on purpose: the bot stops, the match of a game
just started is replaced in the database by one where Алиса's tile waits (a seeded deal
found here, stored as the bot stores a game), and the bot starts again; her hand comes
back with the tile's two ends, she presses ➡️, and the stored match has the tile on
that end, the group's table telling both moves."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from domino.actions import Flip, Play, Played, TurnedUp
from domino.geometry import End
from domino.match import LoggedAction, Match
from domino.rules import Ruleset
from domino.views import MatchView
from storage import repo
from storage.connect import open_database
from tests.e2e.fault_tools import check_stored_games, private_tile_lines
from tests.e2e.harness import (
    HAND_PREFIX,
    BotProcess,
    Person,
    Press,
    Stall,
    game_of,
    is_hand_button,
    kind_of,
    move_of,
    play_until,
    settle,
    wait_progressing,
)
from tests.e2e.test_all_fives_e2e import announcements, live_caption
from tests.e2e.test_children_e2e import (
    MatchSpan,
    assert_each_match_private,
    match_captions,
    newest_game,
    next_match,
    open_children,
    recent_moves,
    seat_names,
    see_the_end,
    tiles_word,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.world import FakeChat, FakeUser, StoredMessage

WAIT = 60.0  # a window with no progress at all (tests.fakegram.waiting), not a deadline
MATCHES = 4  # at most, until a person's stack was turned up and played
RECENT = 3  # the moves the caption's «Последние ходы» shows
FACE_DOWN = "рубашкой вверх"
TILE = re.compile(r"(?<![0-9])[0-6][|-][0-6](?![0-9])")
STALE = "Эта кнопка устарела: игра ушла дальше."
HINT_STALE = "Этот ход уже сделан — подсказка к нему больше не нужна."
FINISHED = "Эта партия уже закончилась."  # pressed as the other player went out
MOVED_ON = (STALE, HINT_STALE, FINISHED)  # answers to a press the match overtook
NOTHING_TO_HINT = (
    "Подсказывать нечего: кости лежат рубашкой вверх, и ход один — «⬛ Открыть верхнюю»."
)
CHOOSE = "Кость подходит к обоим концам — выберите, к какому её положить."
ANSWERS = {
    CHOOSE,
    "Кость подошла и легла на стол.",
    "Кость подошла и легла на стол. Ваши последние кости открыты — они в руке.",
    "Не подошла: кость ушла под низ стопки.",
    "Не подошла: кость ушла под низ стопки, а сверху легла кость из базара.",
}


@dataclass
class DarkWatch:
    """Waits until the group's table shows the match as the bot stored it, after a flip of
    Алиса's that handed the turn to Боб (nobody moves meanwhile: the people take their
    turns one by one, and no computer is due); keeps those moments."""

    fake: FakeTelegram
    bot: BotProcess
    group: FakeChat
    names: list[str]
    users: list[FakeUser]
    shown: list[Moment] = field(default_factory=list)

    async def after_flip(self) -> None:
        match = self.bot.stored_match()
        if match.over or match.log[-1].round_no != match.round_no or match.turn != 1:
            return
        expected = moments(match, self.names)[-1]

        def on_the_table() -> bool:
            caption = live_caption(self.group)
            return caption is not None and seen_moment(caption, self.names) == expected

        stall = Stall.of_chats(self.fake, self.users, what="the table did not show the flip")
        await wait_progressing(self.fake, on_the_table, stall)
        self.shown.append(expected)


@dataclass
class DarkPlayer(Person):
    """A person who presses «⬛ Открыть верхнюю» while their tiles lie face down (once
    first forging a hint press onto the hand, which offers none), then plays the first
    ✅ tile; with `end_turns`, presses «✔️ Сходить» whenever it is offered. A tile turned
    up that fits both ends they lay on the end `end` (the hand's two ends, the first
    offered when None). Keeps the face-down hands they pressed on, the answers to their
    flips, the forged hint's answer, the hands of such a choice and the turned-up hands'
    texts. With a `watch`, after each flip they look at the group's table until it shows
    the match as stored."""

    end_turns: bool = False
    watch: DarkWatch | None = None
    end: End | None = None
    face_down: list[str] = field(default_factory=list)  # the hands pressed on, face down
    answers: list[str] = field(default_factory=list)  # to each flip
    hint: str | None = None
    chose: list[str] = field(default_factory=list)  # the hands of a tile turned up to lay
    turned_up: list[str] = field(default_factory=list)  # the hands pressed on, turned up
    ended: int = 0

    def choice(self, hand: StoredMessage) -> str | None:
        moves = [  # «🤝 Предложить ничью» under every hand is no move
            b
            for b in hand.buttons
            if is_hand_button(b.callback_data)
            and kind_of(b.callback_data or "") is not Press.OFFER_DRAW
        ]
        kinds = {kind_of(b.callback_data or ""): b for b in moves}
        if FACE_DOWN in hand.content and choosing(hand):
            return end_pressed(hand, self.end)
        if FACE_DOWN in hand.content:
            # Face down, on the turn: nothing but the flip (no hint either), no tile.
            assert [b.text for b in moves] == ["⬛ Открыть верхнюю"], hand.content
            assert not TILE.search(hand.content), hand.content
            return kinds[Press.FLIP].callback_data
        assert Press.FLIP not in kinds, hand.content
        if self.end_turns and Press.END_TURN in kinds:
            return kinds[Press.END_TURN].callback_data
        return super().choice(hand)

    async def take_turn(self) -> bool:
        hand = self.hand()
        if hand is None or not self.my_turn():
            return False
        data = self.choice(hand)
        if data is None:
            return False
        down = FACE_DOWN in hand.content and not choosing(hand)
        if down and self.hint is None:
            # The hint's data for the flip's game and move number: the hand's.
            hint = f"{HAND_PREFIX}{game_of(data)}:{move_of(data)}:h:"
            asked = await self.user.forge_press(hand, hint, timeout=WAIT)
            assert asked.answered and asked.show_alert, asked
            if asked.text not in MOVED_ON:
                self.hint = asked.text or ""
        content = hand.content
        answer = await self.user.press(hand, data=data, timeout=WAIT)
        self.presses += 1
        if answer.show_alert:
            # A hand not yet edited after the last move (or the match's end): the press
            # is refused as stale.
            assert answer.text in MOVED_ON, answer
            return True
        kind = kind_of(data)
        if kind is Press.FLIP:
            assert answer.answered, answer
            self.face_down.append(content)
            self.answers.append(answer.text or "")
            if self.watch is not None:
                await self.watch.after_flip()
        elif FACE_DOWN in content:
            self.chose.append(content)
        else:
            self.turned_up.append(content)
            self.ended += kind is Press.END_TURN
        return True


CHOICE = re.compile(r"^Открылась кость ([0-6]\|[0-6]): она подходит к обоим концам\. ", re.M)
END_BUTTON = re.compile(r"^([0-6]\|[0-6]) на (⬅️|➡️) [0-6]$")


def choosing(hand: StoredMessage) -> bool:
    """Whether a face-down hand offers the ends of a tile it turned up (that fits both)."""
    return CHOICE.search(hand.content) is not None


def end_pressed(hand: StoredMessage, end: End | None) -> str:
    """A face-down hand waiting for its tile's end: it names that tile and no other, and
    offers its two ends as the choice of ends of any tile («2|3 на ⬅️ 2», «на ➡️ 3»),
    nothing else that moves (a hint where the group allows them); the data of `end`'s
    button (the first's when None)."""
    found = CHOICE.search(hand.content)
    assert found is not None, hand.content
    tile = found.group(1)
    assert set(TILE.findall(hand.content)) == {tile}, hand.content
    ends = [b for b in hand.buttons if is_hand_button(b.callback_data) and " на " in b.text]
    shown = [END_BUTTON.match(b.text) for b in ends]
    assert [m and (m.group(1), m.group(2)) for m in shown] == [
        (tile, "⬅️"),
        (tile, "➡️"),
    ], [b.text for b in hand.buttons]
    assert all(kind_of(b.callback_data or "") is Press.PLAY for b in ends)
    others = {
        kind_of(b.callback_data or "") for b in hand.buttons if is_hand_button(b.callback_data)
    }
    assert others <= {Press.PLAY, Press.HINT, Press.OFFER_DRAW}, hand.content
    button = ends[1] if end is End.RIGHT else ends[0]
    assert button.callback_data is not None
    return button.callback_data


def turned_up_tiles(match: Match) -> list[set[str]]:
    """Втемную, per round of `match`: the tiles turned up that fitted both ends
    (`TurnedUp`), in everyone's sight until laid."""
    replayed = Match.replay(match.ruleset, match.players, match.seed, [])
    tiles: list[set[str]] = [set() for _ in range(match.round_no)]
    for entry in match.log:
        event = replayed.apply(entry.action, entry.seat)
        if isinstance(event, TurnedUp):
            tiles[entry.round_no - 1].add(str(event.tile))
    return tiles


def chosen_ends(match: Match) -> list[tuple[int, End | None]]:
    """Each end chosen for a tile turned up that fitted both ends: (seat, end)."""
    replayed = Match.replay(match.ruleset, match.players, match.seed, [])
    chosen: list[tuple[int, End | None]] = []
    for entry in match.log:
        waiting = replayed.round.turned_up is not None
        replayed.apply(entry.action, entry.seat)
        if waiting:
            assert isinstance(entry.action, Play)
            chosen.append((entry.seat, entry.action.end))
    return chosen


@dataclass(frozen=True)
class Moment:
    """What the table's caption shows of the match at one moment."""

    round_no: int
    over: bool
    turn: int | None
    tiles: tuple[int, ...]  # per seat
    face_down: tuple[bool, ...]  # per seat: its tiles lie face down
    scores: tuple[int, ...]  # per seat
    bazaar: int
    recent: tuple[str, ...]


def moment_of(view: MatchView, names: Sequence[str]) -> Moment:
    return Moment(
        round_no=view.round_no,
        over=view.over,
        turn=None if view.over else view.round.turn,
        tiles=view.round.hand_counts,
        face_down=view.round.face_down,
        scores=tuple(view.scores[view.side_of(s)].recorded for s in range(view.players)),
        bazaar=view.round.bazaar_size,
        recent=recent_moves(view, names),
    )


def moments(match: Match, names: Sequence[str]) -> list[Moment]:
    """Every moment of the stored match, replayed from its seed and log; the replay must
    give the match as stored."""
    replayed = Match.replay(match.ruleset, match.players, match.seed, [])
    shown = [moment_of(replayed.view(None), names)]
    for entry in match.log:
        replayed.apply(entry.action, entry.seat)
        shown.append(moment_of(replayed.view(None), names))
    assert replayed.over == match.over and replayed.results == match.results
    assert replayed.scores == match.scores and replayed.winners == match.winners
    return shown


def seen_moment(caption: str, names: Sequence[str]) -> Moment:
    """A table caption read back as a `Moment`: «▶️ Алиса — 5 костей рубашкой вверх · 12»."""
    round_no = int(re.search(r"· раунд (\d+)", caption).group(1))  # type: ignore[union-attr]
    turn, tiles, down, scores = None, [], [], []
    for seat, name in enumerate(names):
        line = re.search(
            rf"^(▶️ )?{re.escape(name)} — (\d+) (\S+)( {FACE_DOWN})? · (\d+)$", caption, re.M
        )
        assert line is not None, (name, caption)
        assert line.group(3) == tiles_word(int(line.group(2))), caption
        if line.group(1):
            assert turn is None, caption
            turn = seat
        tiles.append(int(line.group(2)))
        down.append(bool(line.group(4)))
        scores.append(int(line.group(5)))
    mover = re.search(r"^Ход: (.+)$", caption, re.M)
    assert (mover.group(1) if mover else None) == (None if turn is None else names[turn]), caption
    bazaar = re.search(r"базар: (\d+)", caption)
    assert bazaar is not None, caption
    recent = next((ln for ln in caption.splitlines() if ln.startswith("Последние ходы: ")), "")
    return Moment(
        round_no=round_no,
        over="Партия окончена." in caption,
        turn=turn,
        tiles=tuple(tiles),
        face_down=tuple(down),
        scores=tuple(scores),
        bazaar=int(bazaar.group(1)),
        recent=tuple(recent.removeprefix("Последние ходы: ").split(" → ")) if recent else (),
    )


def check_match(
    group: FakeChat, lobby: StoredMessage, match: Match, names: Sequence[str]
) -> list[Moment]:
    """A finished match as the group saw it: every caption of its table is a moment of
    the match replayed, the last says the match is over, and the final announcement
    names the winner. The moments shown."""
    assert match.ruleset.variant.value == "dark" and match.over and match.players == 3
    known = set(moments(match, names))
    seen = [seen_moment(caption, names) for caption in match_captions(group, lobby)]
    for moment in seen:
        assert moment in known, f"no such moment in the match: {moment}"
    assert seen and seen[-1].over
    end = [text for text in announcements(group) if text.startswith("🏆 Победа — ")][-1]
    assert end.splitlines()[0] == "🏆 Победа — " + ", ".join(names[s] for s in match.winners)
    assert match.scores[match.winners[0]].recorded >= 100
    return seen


async def test_whole_matches_of_dark_with_stacks_nobody_sees(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    users = [alice, bob]
    people = [
        DarkPlayer(fakegram, alice, end_turns=True, end=End.RIGHT),
        DarkPlayer(fakegram, bob),
    ]
    watched: list[Moment] = []
    group: FakeChat | None = None
    spans: list[MatchSpan] = []
    seen: list[Moment] = []
    flips: list[LoggedAction] = []
    for _ in range(MATCHES):
        start = next_match(fakegram, spans)
        group, lobby, text = await open_children(
            fakegram, "втемную", users, computers=1, group=group
        )
        spans.append(MatchSpan(newest_game(bot), start))
        assert "Домино: Втемную" in text and "игра до 100" in text
        names = seat_names(bot)
        assert names[:2] == ["Алиса", "Боб"] and names[2].startswith("🤖")
        people[0].watch = DarkWatch(fakegram, bot, group, names, users)
        await play_until(fakegram, people, bot.match_over)
        await settle(fakegram)
        await see_the_end(fakegram, group, users, matches=len(spans))
        match = bot.stored_match()
        seen += check_match(group, lobby, match, names)
        watched += people[0].watch.shown
        flips += [entry for entry in match.log if isinstance(entry.action, Flip)]
        if all(person.face_down for person in people) and any(p.turned_up for p in people):
            break  # a short match may end before any person's stack is turned up
    else:
        raise AssertionError(f"no person's stack was turned up in {MATCHES} matches")
    stored = check_stored_games(bot.database)
    assert stored.finished == stored.started == len(spans)

    # Each person turned up tiles while they lay face down, told what became of each
    # (never which), and a hint forged onto such a hand was refused (nothing to hint, not
    # counted); turned up, the hand was the usual.
    assert {entry.seat for entry in flips} == {0, 1, 2}
    for person in people:
        assert person.face_down, person.user.first_name
        assert len(person.answers) == len(person.face_down)
        assert set(person.answers) <= ANSWERS, person.answers
        assert person.hint == NOTHING_TO_HINT, person.hint
    assert bot.stored("SELECT SUM(hints) FROM stat_seats") == [(0,)]  # none counted
    pressed = sum(len(person.face_down) for person in people)
    assert pressed == sum(1 for entry in flips if entry.seat in (0, 1))
    assert any("⬛ Ваши кости открыты" in hand for p in people for hand in p.turned_up)
    # The captions showed misses (after each flip of hers the table showed her move),
    # and stacks face down beside others turned up.
    assert watched and all(moment in seen for moment in watched)
    assert any(" открывает " in move for moment in seen for move in moment.recent)
    for moment in watched:
        assert moment.turn == 1 and moment.recent[-1].startswith("Алиса "), moment
    assert any(any(m.face_down) and not all(m.face_down) for m in seen)

    # A tile turned up that fitted both ends went where its owner pressed: Алиса's on ➡️,
    # Боб's on the first end offered (⬅️); a computer's wherever it chose.
    matches = [bot.stored_match(span.game_id) for span in spans]
    chosen = [choice for match in matches for choice in chosen_ends(match)]
    for seat, person, end in ((0, people[0], End.RIGHT), (1, people[1], End.LEFT)):
        mine = [e for s, e in chosen if s == seat]
        assert len(mine) == len(person.chose) and set(mine) <= {end}, (seat, mine)

    # Privacy: no tile of a hand shown to anyone else, none of a stack even to its owner
    # (`assert_hands_private` replays who saw what), and no private message that shows
    # the tiles face down names any tile.
    owners = {0: alice.id, 1: bob.id}
    assert assert_each_match_private(fakegram, bot, spans, owners) > 50
    face_down = [
        exposure
        for exposure in fakegram.exposures
        if (exposure.audience in owners.values() or exposure.chat_id in owners.values())
        and FACE_DOWN in exposure.text
    ]
    assert len(face_down) >= pressed  # each flip was pressed on such a hand
    public = {tile for match in matches for tiles in turned_up_tiles(match) for tile in tiles}
    for exposure in face_down:  # but a tile turned up that fits both ends, for all to see
        named = {tile.replace("|", "-") for tile in TILE.findall(exposure.text)}
        assert named <= public, exposure
    assert not private_tile_lines(bot.log(), matches)  # nor does the log at INFO


def waiting(ruleset: Ruleset) -> Match:
    """A two-seat match of `ruleset` in its first round, Алиса (seat 0) to move with a
    tile turned up that fits both ends, of two pips, waiting for its end; the seats play
    their first legal action (a flip while face down)."""
    for seed in range(50):
        match = Match.new(ruleset, 2, seed=seed)
        while not match.over and match.round_no == 1:
            rnd = match.round
            pips = {pip for _, pip in rnd.layout.open_ends()}
            if match.turn == 0 and rnd.turned_up is not None and len(pips) == 2:
                return match
            seat = match.turn
            assert seat is not None
            match.apply(match.legal_actions()[0], seat)
    raise AssertionError("no tile turned up that fits both ends in 50 matches")


async def test_a_tile_turned_up_that_fits_both_ends_goes_on_the_end_pressed(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    group, _, _ = await open_children(fakegram, "втемную", [alice, bob])
    assert seat_names(bot) == ["Алиса", "Боб"]
    game_id = newest_game(bot)
    # The bot stops; the game just started is stored as at Алиса's choice (a new game's
    # ruleset carries the option); the bot starts again and picks it up.
    assert await bot.stop() == 0
    db = await open_database(bot.database)
    try:
        async with db.transaction() as tx:
            game = await repo.load_game(tx, game_id)
            assert game is not None and game.ruleset.flip_choice
            match = waiting(game.ruleset)
            await repo.save_game(tx, dataclasses.replace(game, match=match))
    finally:
        await db.close()
    tile = match.round.turned_up
    assert tile is not None
    right = dict(match.round.layout.open_ends())[End.RIGHT]
    label = f"{tile.low}|{tile.high}"
    await bot.start()

    # Her hand: her tiles face down but the one turned up, whose two ends it offers.
    hand = await alice.private_chat.wait_for_message(
        lambda m: any(b.text == f"{label} на ➡️ {right}" for b in m.buttons), timeout=WAIT
    )
    assert FACE_DOWN in hand.content and "Ваш ход" in hand.content, hand.content
    data = end_pressed(hand, End.RIGHT)
    answer = await alice.press(hand, data=data, timeout=WAIT)
    assert answer.answered and not answer.show_alert, answer

    stored = bot.stored_match(game_id)
    assert len(stored.log) == len(match.log) + 1 and stored.round.turned_up is None
    assert stored.log[-1].action == Play(tile, End.RIGHT) and stored.turn == 1
    assert stored.round.history[-1] == Played(0, tile, End.RIGHT)
    assert stored.round.layout.open_ends()[-1] == (End.RIGHT, tile.other(right))

    # The group's table tells both: the tile turned up, then her play.
    told = f"Алиса открывает {label}: подходит к обоим концам — выбирает конец → Алиса кладёт кость"

    def shown() -> bool:
        caption = live_caption(group)
        return caption is not None and told in caption and "\nХод: Боб\n" in caption

    stall = Stall.of_chats(fakegram, [alice, bob], what="the table did not show her choice")
    await wait_progressing(fakegram, shown, stall)
