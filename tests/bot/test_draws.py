"""Draw offers through the application (`Endings.offer_draw`, the vote of kind draw): a
real database file and the fake Bot API. Алиса and Боб play a two-person Козёл; every
refusal (not seated, a second offer in a round, a stale round, an answer by someone not
asked, a forged vote, a foreign group) changes nothing; a drawn match counts for
nobody's rating and as a draw in /stats; a computer answers at once by the score."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app.people import Person
from bot.app.reply import Reply
from bot.app.usecases.lobby_options import LobbyOption
from bot.telegram.vote_board import vote_keyboard, vote_text
from domino.match import Match
from domino.players import GreedyPlayer
from domino.variants import find_variant
from i18n import Lang
from storage import repo, stats
from storage import votes as vote_store
from storage.connect import open_database
from storage.records import Ending, GameRecord, GameStatus
from storage.votes import Vote, VoteKind, VoteState
from tests.bot.app_setup import ALICE, CHAT, FakeTime, Setup, make, no_admin, settle, two_seated

BOB = Person(502, "Боб", language_code="ru")
EVE = Person(503, "Ева", language_code="ru")
GAME = 1
KOZEL = find_variant("kozel")


@pytest.fixture
async def setup(tmp_path: Path) -> AsyncIterator[Setup]:
    database = await open_database(tmp_path / "draws.sqlite3")
    setup = make(database, FakeTime(), seed=7)
    await setup.app.resume()
    try:
        yield setup
    finally:
        await setup.close()
        await database.close()


async def offer(setup: Setup, person: Person, round_no: int = 1) -> Reply:
    return await setup.run(setup.app.endings.offer_draw(GAME, person, round_no))


def refusal(key: str) -> Reply:
    return Reply(key, alert=True)


async def the_vote(setup: Setup) -> Vote:
    row = await setup.db.fetch_one("SELECT id FROM cancel_votes ORDER BY id DESC LIMIT 1")
    assert row is not None
    vote = await vote_store.load_vote(setup.db, int(row["id"]))
    assert vote is not None
    return vote


async def notices(setup: Setup) -> list[str]:
    rows = await setup.db.fetch_all("SELECT payload FROM outbox ORDER BY id")
    return [str(row["payload"]) for row in rows]


async def test_all_agree_the_match_ends_drawn_for_nobodys_rating(setup: Setup) -> None:
    await two_seated(setup, "kozel", BOB)
    assert await offer(setup, ALICE) == Reply("answer.draw_offered")
    vote = await the_vote(setup)
    assert (vote.kind, vote.round_no, vote.state) == (VoteKind.DRAW, 1, VoteState.OPEN)
    assert vote.ballots == ((ALICE.id, True),)
    assert (await setup.game()).status is GameStatus.PLAYING
    answer = await setup.run(setup.app.endings.vote(vote.id, CHAT.id, BOB, True))
    assert answer == Reply("answer.draw_yes")
    game = await setup.game()
    assert (game.status, game.ending) == (GameStatus.FINISHED, Ending.DRAW)
    assert (await the_vote(setup)).state is VoteState.PASSED
    assert any("notice.drawn" in payload for payload in await notices(setup))
    for person in (ALICE, BOB):
        found = await stats.player_stats(setup.db, person.id, CHAT.id, game=KOZEL.key)
        assert found is not None
        assert (found.matches, found.draws, found.rating, found.goats, found.wins) == (
            1,
            1,
            0,
            0,
            0,
        )
        assert found.elo == 1500  # a draw between equals moves nobody


async def test_one_against_play_goes_on_and_one_offer_a_round(setup: Setup) -> None:
    await two_seated(setup, "kozel", BOB)
    await offer(setup, ALICE)
    vote = await the_vote(setup)
    answer = await setup.run(setup.app.endings.vote(vote.id, CHAT.id, BOB, False))
    assert answer == Reply("answer.draw_no")
    assert (await the_vote(setup)).state is VoteState.FAILED
    assert (await setup.game()).status is GameStatus.PLAYING
    # A second offer in the same round, by either of them: refused, nothing stored.
    assert await offer(setup, BOB) == refusal("alert.draw_offered")
    assert await offer(setup, ALICE) == refusal("alert.draw_offered")
    assert (await the_vote(setup)).id == vote.id
    assert await stats.player_stats(setup.db, ALICE.id, CHAT.id, game=KOZEL.key) is None


async def test_the_time_runs_out_and_play_goes_on(setup: Setup) -> None:
    await two_seated(setup, "kozel", BOB)
    await offer(setup, ALICE)
    vote = await the_vote(setup)
    past = (datetime.now(UTC) - timedelta(seconds=1)).isoformat()
    await setup.db.execute("UPDATE cancel_votes SET expires_at = ? WHERE id = ?", (past, vote.id))
    await setup.run(setup.app.endings.vote_expired(vote.id))  # type: ignore[arg-type]
    assert (await the_vote(setup)).state is VoteState.EXPIRED
    assert (await setup.game()).status is GameStatus.PLAYING
    late = await setup.run(setup.app.endings.vote(vote.id, CHAT.id, BOB, True))
    assert late == refusal("alert.vote_over")


async def test_bad_presses_are_refused_and_change_nothing(setup: Setup) -> None:
    await two_seated(setup, "kozel", BOB)
    before = await setup.game()
    assert await offer(setup, EVE) == refusal("alert.not_in_game")
    assert await offer(setup, ALICE, round_no=2) == refusal("alert.stale")  # not this round
    assert await offer(setup, ALICE, round_no=0) == refusal("alert.stale")
    refused = await setup.run(setup.app.endings.offer_draw(GAME, ALICE, 1, group=-999))
    assert refused == refusal("alert.foreign_game")
    assert await setup.db.fetch_all("SELECT id FROM cancel_votes") == []
    await offer(setup, ALICE)
    vote = await the_vote(setup)
    endings = setup.app.endings
    assert await setup.run(endings.vote(vote.id, CHAT.id, EVE, True)) == refusal(
        "alert.vote_not_yours"
    )
    assert await setup.run(endings.vote(vote.id + 100, CHAT.id, BOB, True)) == refusal(
        "alert.stale"
    )
    assert await setup.run(endings.vote(vote.id, -999, BOB, True)) == refusal("alert.foreign_game")
    assert await setup.run(endings.vote(vote.id, CHAT.id, ALICE, True)) == Reply("alert.voted_same")
    now = await the_vote(setup)
    assert (now.state, now.ballots) == (vote.state, vote.ballots)
    after = await setup.game()
    assert (after.status, after.version) == (before.status, before.version)


async def with_a_computer(setup: Setup) -> GameRecord:
    """Алиса (seat 0) and a computer (seat 1) at a started Козёл."""
    await setup.app.people.remember(ALICE, can_message=True)
    lobby = setup.app.lobby
    assert await setup.run(lobby.open(CHAT, ALICE, KOZEL)) is None
    await setup.run(lobby.set_option(GAME, CHAT.id, ALICE, LobbyOption.SEATS, no_admin))
    await setup.run(lobby.add_computer(GAME, CHAT.id, ALICE, no_admin))
    await setup.run(lobby.start_game(GAME, CHAT.id, ALICE, no_admin))
    await settle()
    return await setup.game()


async def at_round_two(setup: Setup, game: GameRecord, computer_behind: bool) -> int:
    """The game stored at the start of its second round, the computer's side behind on
    the score or not; the round number to offer in."""
    assert game.match is not None
    for seed in range(200):
        match = Match.new(game.match.ruleset, 2, seed)
        greedy = GreedyPlayer()
        while not match.results:
            seat = match.turn
            assert seat is not None
            match.apply(greedy.choose(match.view(seat)), seat)
        points = match.seat_points()
        if (points[1] > points[0]) == computer_behind and points[0] != points[1]:
            async with setup.db.transaction() as tx:
                await repo.save_game(tx, dataclasses.replace(game, match=match))
            return len(match.results) + 1
    raise AssertionError("no such match")


@pytest.mark.parametrize("behind", [False, True], ids=["ahead", "behind"])
async def test_a_computer_answers_at_once_by_the_score(setup: Setup, behind: bool) -> None:
    game = await with_a_computer(setup)
    round_no = await at_round_two(setup, game, computer_behind=behind)
    assert await offer(setup, ALICE, round_no) == Reply("answer.draw_offered")
    vote = await the_vote(setup)
    game = await setup.game()
    if behind:
        assert vote.state is VoteState.PASSED
        assert (game.status, game.ending) == (GameStatus.FINISHED, Ending.DRAW)
        found = await stats.player_stats(setup.db, ALICE.id, CHAT.id, game=KOZEL.key)
        assert found is not None and (found.draws, found.rating, found.elo) == (1, 0, None)
    else:
        assert vote.state is VoteState.FAILED
        assert game.status is GameStatus.PLAYING
        assert any("notice.draw_declined" in payload for payload in await notices(setup))


async def test_the_group_is_asked_in_the_offers_own_words(setup: Setup) -> None:
    game = await two_seated(setup, "kozel", BOB)
    await offer(setup, ALICE)
    vote = await the_vote(setup)
    text = vote_text(game, vote, Lang.RU)
    assert "Алиса предлагает ничью" in text and "Согласны: 1 из 2 · против: 0" in text
    assert "Отвечают игроки партии, 5 мин." in text
    keyboard = vote_keyboard(game, vote, Lang.RU)
    assert keyboard is not None
    assert [b.text for b in keyboard.inline_keyboard[0]] == ["✅ За ничью (1)", "❌ Против (0)"]
    english = vote_text(game, vote, Lang.EN)
    assert "Алиса offers a draw" in english and "Agree: 1 of 2" in english
    closed = dataclasses.replace(vote, state=VoteState.EXPIRED)
    assert "Время на ответ вышло" in vote_text(game, closed, Lang.RU)
    assert vote_keyboard(game, closed, Lang.RU) is None


async def test_a_draw_is_off_once_somebody_leaves_the_match(setup: Setup) -> None:
    await two_seated(setup, "kozel", BOB)
    await offer(setup, ALICE)
    # Боб leaves while asked: Алиса alone would agree, but the match counts by K-11 now.
    await setup.run(setup.app.endings.leave(CHAT.id, BOB))
    assert (await the_vote(setup)).state is VoteState.FAILED
    game = await setup.game()
    assert game.ending is not Ending.DRAW and game.abandonment is not None
    assert (await offer(setup, ALICE, 1)).key == "alert.draw_after_abandonment"
