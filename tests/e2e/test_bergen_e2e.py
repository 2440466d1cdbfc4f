"""Берген and «Дубли» (section B) end to end through the fake Telegram with the bot as a
process: whole matches from `/domino bergen` (`/domino dubli`) to the final announcement,
every move pressed by people in their private chats.

The stored match is replayed move by move, and every caption the group's table ever
showed must be one of those moments exactly: the round, whose turn, each seat's tiles
and running score, the bazaar (never below the two tiles nobody draws, B-1), the open
ends, and the «+N» of the recent plays that scored, each as the game's `move_points`
gives it. Each round's announcement says how it ended and its points, the points scored
in play and those of its end together (the end's worked out here from B-1 / B-2 and the
hands left); the first round is opened by the lowest double (else the lowest tile), a
later one by the last round's winner; the match's end names the winner(s) and the
scores; no tile of a hand is ever shown to anyone but its owner."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from domino.actions import Drew, Knock, Play, Played
from domino.match import Match
from domino.tiles import Tile
from domino.views import MatchView, OutcomeKind, RoundResult
from tests.e2e.harness import (
    BotProcess,
    Press,
    Stall,
    assert_hands_private,
    is_hand_button,
    kind_of,
    move_of,
    play_until,
    settle,
    wait_progressing,
)
from tests.e2e.test_all_fives_e2e import (
    SCORED,
    Player,
    announcements,
    caption_seats,
    captions,
    live_caption,
    open_fives,
    points_buttons,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.world import FakeChat, FakeUser, StoredMessage

RECENT = 3  # the moves the caption's «Последние ходы» shows
RESERVE = 2  # B-1: the last two bazaar tiles are never drawn
POINTS = re.compile(r"\+(\d+)$")


@dataclass
class Scorer(Player):
    """A person who presses the play that scores most by the points their hand's buttons
    show (hints are on by default: «✅ 4|4 +3», «до +2», an end's «+2»), else plays like
    everyone else: a shorter match, and more plays that score. After a play whose button
    showed points, they look at the table until it shows that play (`TableWatch`)."""

    greedy: bool = True
    watch: TableWatch | None = None

    def choice(self, hand: StoredMessage) -> str | None:
        plain = super().choice(hand)
        if not self.greedy:
            return plain
        best: tuple[int, str] | None = None
        for button in hand.buttons:
            data = button.callback_data or ""
            if not is_hand_button(data) or kind_of(data) not in (Press.PLAY, Press.ENDS):
                continue
            found = POINTS.search(button.text)
            if found and (best is None or int(found.group(1)) > best[0]):
                best = int(found.group(1)), data
        return plain if best is None else best[1]

    async def take_turn(self) -> bool:
        hand = self.hand()
        if hand is None or not self.my_turn():
            return False
        data = self.choice(hand)
        if data is None:
            return False
        label = next(b.text for b in hand.buttons if b.callback_data == data)
        answer = await self.user.press(hand, data=data, timeout=self.press_timeout)
        self.presses += 1
        points = POINTS.search(label)
        if kind_of(data) is Press.PLAY and points is not None:
            assert self.watch is not None
            if not answer.answered:  # no answer in time (a loaded machine): not known
                self.watch.unanswered += 1
            elif not answer.text and not answer.show_alert:  # played, not refused
                await self.watch.scored(int(points.group(1)), move_of(data))
        return True


@dataclass
class TableWatch:
    """Waits, after a play that scored, until the group's table shows the match as the
    bot stored it (nobody moves meanwhile: the people take their turns one by one), so
    that every play that scored is seen with its «+N»; keeps each such button's points
    and what the play really scored."""

    fake: FakeTelegram
    bot: BotProcess
    group: FakeChat
    names: list[str]
    users: list[FakeUser]
    # The log index of each such play -> (the points its button showed, the engine's).
    hinted: dict[int, tuple[int, int]] = field(default_factory=dict)
    unanswered: int = 0  # presses of such buttons the bot did not answer in time

    async def scored(self, shown: int, move: int) -> None:
        """The play pressed on a button that showed `shown` points when the match had
        `move` actions was made (the press was answered after it was stored)."""
        match = self.bot.stored_match()
        assert len(match.log) == move + 1 and isinstance(match.log[move].action, Play)
        game = replay(match, self.names)
        self.hinted[move] = (shown, game.points[move])
        if not match.over and match.log[-1].round_no != match.round_no:
            return  # the play ended its round: the table shows the next one
        expected = game.moments[-1]

        def on_the_table() -> bool:
            caption = live_caption(self.group)
            return caption is not None and seen_moment(caption, self.names) == expected

        stall = Stall.of_chats(self.fake, self.users, what="the table did not show the play")
        await wait_progressing(self.fake, on_the_table, stall)


@dataclass(frozen=True)
class Moment:
    """What the table's caption shows of the match at one moment."""

    round_no: int
    over: bool
    turn: int | None
    tiles: tuple[int, ...]  # per seat
    scores: tuple[int, ...]  # per seat, its side's
    bazaar: int
    ends: tuple[int, ...]
    scored: tuple[tuple[str, int], ...]  # the recent plays that scored: (name, points)


@dataclass
class Replayed:
    """The stored match played again from its seed and log."""

    moments: list[Moment]
    in_play: dict[int, list[int]]  # round -> per side, the points its plays scored
    scoring_plays: int
    dealt: dict[int, list[tuple[Tile, ...]]]  # round -> each seat's hand as dealt
    leaders: dict[int, int]  # round -> the seat of its first move
    first_plays: dict[int, Play]  # round -> the play that opened it
    points: list[int]  # per log entry, what it scored in play
    round_ended: list[bool]  # per log entry, whether it ended a round the match went on from
    knocks: list[int]  # the bazaar at each knock


def replay(match: Match, names: list[str]) -> Replayed:
    replayed = Match.replay(match.ruleset, match.players, match.seed, [])
    game = match.ruleset.game
    scored: dict[tuple[int, int], int] = {}  # (round, index in its history) -> points
    in_play: dict[int, list[int]] = {}
    dealt: dict[int, list[tuple[Tile, ...]]] = {}
    leaders: dict[int, int] = {}
    first_plays: dict[int, Play] = {}
    knocks: list[int] = []
    points_of: list[int] = []
    round_ended: list[bool] = []

    def moment() -> Moment:
        view = replayed.view(None)
        return Moment(
            round_no=view.round_no,
            over=view.over,
            turn=None if view.over else view.round.turn,
            tiles=view.round.hand_counts,
            scores=tuple(view.scores[view.side_of(s)].recorded for s in range(view.players)),
            bazaar=view.round.bazaar_size,
            ends=tuple(pip for _, pip in view.round.layout.open_ends),
            scored=recent_scores(view, scored, names),
        )

    shown = [moment()]
    for entry in match.log:
        round_no, results = replayed.round_no, len(replayed.results)
        if round_no not in dealt:
            dealt[round_no] = [replayed.round.hand(s) for s in range(match.players)]
            leaders[round_no] = entry.seat
        if isinstance(entry.action, Play):
            first_plays.setdefault(round_no, entry.action)
        if isinstance(entry.action, Knock):
            knocks.append(replayed.round.bazaar_size)
        side = replayed.side_of(entry.seat)
        before = replayed.scores[side].recorded
        replayed.apply(entry.action, entry.seat)
        ended = len(replayed.results) > results
        played_on = replayed.finished_round if ended else replayed.round
        assert played_on is not None
        points = 0
        if isinstance(entry.action, Play):
            points, _ = game.move_points(match.ruleset, played_on.layout.view())
        if points:
            scored[round_no, len(played_on.history) - 1] = points
        points_of.append(points)
        round_ended.append(ended and not replayed.over)
        in_play.setdefault(round_no, [0] * len(match.sides))[side] += points
        if not ended or replayed.results[-1].outcome.kind is OutcomeKind.REACHED:
            # In play the move's points go to its side at once (a round's end adds its own).
            assert replayed.scores[side].recorded - before == points, entry
        shown.append(moment())
    assert replayed.over == match.over and replayed.results == match.results
    return Replayed(
        shown, in_play, len(scored), dealt, leaders, first_plays, points_of, round_ended, knocks
    )


def recent_scores(
    view: MatchView, scored: dict[tuple[int, int], int], names: list[str]
) -> tuple[tuple[str, int], ...]:
    """The caption's recent moves (a run of draws by one seat is one move) that scored."""
    folded: list[tuple[int, object]] = []
    for index, event in enumerate(view.round.history):
        last = folded[-1][1] if folded else None
        if isinstance(event, Drew) and isinstance(last, Drew) and last.seat == event.seat:
            continue
        folded.append((index, event))
    return tuple(
        (names[event.seat], scored[view.round_no, index])
        for index, event in folded[-RECENT:]
        if isinstance(event, Played) and (view.round_no, index) in scored
    )


def seen_moment(caption: str, names: list[str]) -> Moment:
    """A table caption read back as a `Moment`."""
    round_no, turn, tiles, scores = caption_seats(caption, names)
    bazaar = re.search(r"базар: (\d+)", caption)
    assert bazaar is not None, caption
    ends = re.search(r"концы: ([\d ·]+)", caption)
    recent = next((ln for ln in caption.splitlines() if ln.startswith("Последние ходы:")), "")
    return Moment(
        round_no=round_no,
        over="Партия окончена." in caption,
        turn=turn,
        tiles=tiles,
        scores=scores,
        bazaar=int(bazaar.group(1)),
        ends=tuple(int(pip) for pip in ends.group(1).split(" · ")) if ends else (),
        scored=tuple((name, int(points)) for name, points in SCORED.findall(recent)),
    )


def check_captions(
    group: FakeChat, match: Match, names: list[str], game: Replayed, watched: set[int]
) -> int:
    """Every caption the table showed is a moment of the match replayed, and the plays
    `watched` (by log index) that scored were shown; the number of «+N» shown."""
    moments = set(game.moments)
    assert all(m.bazaar >= RESERVE for m in moments)  # B-1: the last two stay
    shown = captions(group)
    assert shown
    plus = 0
    for caption in shown:
        seen = seen_moment(caption, names)
        if seen not in moments:
            near = [m for m in game.moments if m.round_no == seen.round_no and m.ends == seen.ends]
            raise AssertionError(f"no such moment in the match: {seen}\n{caption}\nnear: {near}")
        plus += len(seen.scored)
    final = shown[-1]
    assert "Партия окончена." in final, final
    # Every play that scored was on the table with its «+N» (`TableWatch`), but one
    # that ended a round the match went on from: the table then shows the next round.
    seen_moments = {seen_moment(caption, names) for caption in shown}
    for index, points in enumerate(game.points):
        if points and not game.round_ended[index] and index in watched:
            after = game.moments[index + 1]
            assert after in seen_moments, (match.log[index], after)
            assert after.scored[-1] == (names[match.log[index].seat], points), after
    return plus


def end_points(match: Match, result: RoundResult) -> list[int]:
    """B-1 / B-2: what the end of a round scores, per side, from the hands left."""
    points = [0] * len(match.sides)
    outcome = result.outcome
    if outcome.kind is OutcomeKind.REACHED:
        return points
    ended = match.ended_round(result.round_no)
    hands = [ended.hand(seat) for seat in range(match.players)]
    if outcome.kind is OutcomeKind.WENT_OUT:
        assert not hands[outcome.seat]
        points[match.side_of(outcome.seat)] += 2
    if match.ruleset.variant.value == "dubli":
        for seat, hand in enumerate(hands):
            if hand and not any(tile.is_double for tile in hand):
                points[match.side_of(seat)] += 1
    elif outcome.kind is OutcomeKind.FISH:
        winner = block_winner(hands)
        if winner is not None:
            points[match.side_of(winner)] += 2
    return points


def block_winner(hands: list[tuple[Tile, ...]]) -> int | None:
    """B-1 (README's choices): the one hand without doubles; of several such the lowest
    (a tie: nobody); if every hand holds a double, the holder of the lowest double."""
    clean = [seat for seat, hand in enumerate(hands) if not any(t.is_double for t in hand)]
    if len(clean) == 1:
        return clean[0]
    if clean:
        value = {seat: sum(t.value for t in hands[seat]) for seat in clean}
        lowest = min(value.values())
        best = [seat for seat in clean if value[seat] == lowest]
        return best[0] if len(best) == 1 else None
    doubles = {seat: min(t.value for t in hand if t.is_double) for seat, hand in enumerate(hands)}
    return min(doubles, key=doubles.__getitem__)


def check_openings(match: Match, game: Replayed) -> None:
    """Round 1 opens with 0|0 or the nearest double (none dealt: the lowest tile, a tie
    by the lower higher half); a later round by who went out, after a block by the
    lowest hand (a tie: the blocker if among them, else the first seat)."""
    dealt = [tile for hand in game.dealt[1] for tile in hand]
    doubles = sorted((t for t in dealt if t.is_double), key=lambda t: t.value)
    opening = doubles[0] if doubles else min(dealt, key=lambda t: (t.value, t.high))
    assert game.first_plays[1].tile == opening, (game.first_plays[1], game.dealt[1])
    assert opening in game.dealt[1][game.leaders[1]]
    for result in match.results[:-1]:
        outcome = result.outcome
        if outcome.kind is OutcomeKind.WENT_OUT:
            leader = outcome.seat
        else:
            assert outcome.kind is OutcomeKind.FISH
            values = outcome.hand_values
            lowest = [seat for seat, value in enumerate(values) if value == min(values)]
            leader = outcome.seat if outcome.seat in lowest else lowest[0]
        assert game.leaders[result.round_no + 1] == leader, result


def check_rounds(group: FakeChat, match: Match, names: list[str], game: Replayed) -> None:
    """Each round's announcement: how it ended and its points, in play and at its end."""
    sides = [" + ".join(names[seat] for seat in seats) for seats in match.sides]
    said = announcements(group)
    start = [0] * len(match.sides)
    for result in match.results:
        n, outcome = result.round_no, result.outcome
        texts = [t for t in said if re.match(rf"\S+ Раунд {n}:", t)]
        assert len(texts) == 1, (n, said)
        text = texts[0]
        who = names[outcome.seat]
        side = match.side_of(outcome.seat)
        if outcome.kind is OutcomeKind.WENT_OUT:
            assert text.startswith(f"🏁 Раунд {n}: домино — {who}!"), text
        elif outcome.kind is OutcomeKind.FISH:
            assert text.startswith(f"🐟 Раунд {n}: рыба! Рыбак — {who}."), text
        else:
            assert result is match.results[-1]
            total = result.after[side].recorded
            assert total >= match.ruleset.target
            assert text.startswith(f"🎯 Раунд {n}: {sides[side]} набирает {total} "), text
            assert "— победа!" in text
        in_play = game.in_play.get(n, [0] * len(sides))
        expected = [a + b for a, b in zip(in_play, end_points(match, result), strict=True)]
        assert list(result.points) == expected, (result, in_play)
        points = " · ".join(
            f"{name} +{gained}" for name, gained in zip(sides, expected, strict=True)
        )
        assert f"✍️ Очки за раунд: {points}" in text, text
        assert [a.recorded for a in result.before] == start
        start = [a + b for a, b in zip(start, expected, strict=True)]
        assert [a.recorded for a in result.after] == start
    assert [a.recorded for a in match.scores] == start


def check_the_end(group: FakeChat, match: Match, names: list[str]) -> None:
    """The winner(s) as the engine decides them (`match_deciders`): every side at the
    most points, at or above the target (so a round's end may share or take the win
    from the side whose last move reached the target); the last caption and the
    match's end name them, then the scores, best first."""
    sides = [" + ".join(names[seat] for seat in seats) for seats in match.sides]
    recorded = [account.recorded for account in match.scores]
    best = max(recorded)
    assert best >= match.ruleset.target
    winners = tuple(side for side, points in enumerate(recorded) if points == best)
    assert match.winners == winners
    named = ", ".join(sides[side] for side in winners)
    ends = [text for text in announcements(group) if text.startswith("🏆 Победа — ")]
    assert len(ends) == 1, ends
    order = sorted(range(len(sides)), key=lambda side: recorded[side], reverse=True)
    expected = [f"🏆 Победа — {named}", *(f"{sides[s]}: {recorded[s]}" for s in order)]
    assert ends[0].splitlines() == expected, ends[0]
    assert f"🏆 Победа — {named}" in captions(group)[-1]


async def play_a_match(
    fakegram: FakeTelegram, bot: BotProcess, game: str, names: list[str]
) -> tuple[FakeChat, str, Match, list[Scorer], TableWatch]:
    """A match of `game` between people named `names`, from the lobby to its end and
    every announcement, no hand shown to anyone else."""
    users = [fakegram.add_user(name, username=f"p{i}") for i, name in enumerate(names)]
    group, lobby = await open_fives(fakegram, game, users)
    watch = TableWatch(fakegram, bot, group, names, users)
    # Two who press the play that scores most, the others the first tile that fits.
    people = [
        Scorer(fakegram, user, greedy=index % 2 == 0, watch=watch)
        for index, user in enumerate(users)
    ]
    await play_until(fakegram, people, bot.match_over)
    await settle(fakegram)
    match = bot.stored_match()
    assert match.over

    def all_said() -> bool:
        said = announcements(group)
        rounds = all(any(f"Раунд {r.round_no}:" in t for t in said) for r in match.results)
        table = live_caption(group) or ""
        return (
            rounds
            and any(t.startswith("🏆 Победа — ") for t in said)
            and "Партия окончена." in table
        )

    # The announcements, and the table at the match's end (its picture drawn after them
    # may take a while on a loaded machine).
    stall = Stall.of_chats(fakegram, users, what="the match's end was not all shown")
    await wait_progressing(fakegram, all_said, stall)
    await settle(fakegram)
    owners = {seat: user.id for seat, user in enumerate(users)}
    assert assert_hands_private(fakegram, match, owners) > sum(p.presses for p in people)
    return group, lobby, match, people, watch


def check_match(
    group: FakeChat, match: Match, names: list[str], people: list[Scorer], watch: TableWatch
) -> None:
    game = replay(match, names)
    assert game.scoring_plays > 0
    # What a play's button promised is what it scored, and (every press answered) every
    # play that scored was pressed on a button that said so.
    assert watch.hinted, "no play pressed on a button that showed points"
    assert all(shown == real for shown, real in watch.hinted.values()), watch.hinted
    scoring = {index for index, points in enumerate(game.points) if points}
    assert set(watch.hinted) <= scoring
    if not watch.unanswered:
        assert set(watch.hinted) == scoring, (watch.hinted, scoring)
    assert check_captions(group, match, names, game, set(watch.hinted)) > 0
    check_openings(match, game)
    check_rounds(group, match, names, game)
    check_the_end(group, match, names)
    assert points_buttons(people), "no tile button showed its points"
    assert all(p.presses > 5 for p in people)
    # B-1: a knock only with the two tiles nobody draws left in the bazaar.
    assert all(bazaar == RESERVE for bazaar in game.knocks), game.knocks


async def test_a_whole_match_of_dubli_between_four_people(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    names = ["Алиса", "Боб", "Вика", "Дима"]
    group, lobby, match, people, watch = await play_a_match(fakegram, bot, "dubli", names)
    assert "Домино: Дубли" in lobby and "игра до 10" in lobby and "Каждый сам за себя" in lobby
    assert match.ruleset.variant.value == "dubli" and not match.ruleset.teams
    assert match.sides == ((0,), (1,), (2,), (3,))
    check_match(group, match, names, people, watch)


async def test_a_whole_match_of_bergen_between_two_people(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    names = ["Алиса", "Боб"]
    group, lobby, match, people, watch = await play_a_match(fakegram, bot, "bergen", names)
    assert "Домино: Берген" in lobby and "игра до 15" in lobby
    assert match.ruleset.variant.value == "bergen" and match.sides == ((0,), (1,))
    check_match(group, match, names, people, watch)


async def test_a_whole_match_of_bergen_between_three_people_is_to_10(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    """B-1: «при трех до 10»: the lobby's table made three (👥) sets the target to 10,
    and the match is played to it."""
    names = ["Алиса", "Боб", "Вика"]
    group, lobby, match, people, watch = await play_a_match(fakegram, bot, "bergen", names)
    assert "Домино: Берген" in lobby and "игра до 10" in lobby
    assert match.ruleset.target == 10 and match.sides == ((0,), (1,), (2,))
    check_match(group, match, names, people, watch)
