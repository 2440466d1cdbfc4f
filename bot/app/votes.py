"""Votes of a running match's people (to cancel it, or to end it drawn): who votes and
when a vote is decided.

The creator or a chat admin cancels a match outright (/cancel); anyone else seated in it
starts a vote instead. The people of the match vote (seated persons who have not left;
computers do not vote), each ballot may change while the vote is open, and the vote is
decided as soon as the outcome is certain:

- passed when more than half of the people are for cancelling;
- failed when so many are against that the rest could no longer make that majority;
- expired when `VOTE_TIME` runs out first; closed when the match ends another way.

A draw offer (`VoteKind.DRAW`) is the same vote with another majority: every person
must agree (the one who offered it has), one ballot against fails it.

`decide` is a pure function of the stored vote, the people and the time; the use cases
apply it inside their transactions. Each front end shows a vote its own way.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from storage.records import GameRecord
from storage.votes import Vote, VoteKind, VoteState

VOTE_TIME = timedelta(minutes=5)


def electorate(game: GameRecord) -> frozenset[int]:
    """The people who vote: seated persons who have not left the match (a person the
    computer stands in for after timeouts still votes: they may come back)."""
    return frozenset(s.user_id for s in game.seats if s.user_id is not None and not s.left)


@dataclass(frozen=True, slots=True)
class Tally:
    in_favour: int
    against: int
    voters: int  # the size of the electorate
    unanimous: bool = False  # a draw: every voter must be in favour

    @property
    def needed(self) -> int:
        """Ballots in favour that decide it: every voter for a draw, else more than
        half of the electorate."""
        return self.voters if self.unanimous else self.voters // 2 + 1

    @property
    def undecided(self) -> int:
        return self.voters - self.in_favour - self.against


def tally(vote: Vote, voters: frozenset[int]) -> Tally:
    """Count the ballots of the current electorate only: a ballot of someone who has
    left the match since no longer counts."""
    in_favour = sum(1 for user, yes in vote.ballots if yes and user in voters)
    against = sum(1 for user, yes in vote.ballots if not yes and user in voters)
    return Tally(in_favour, against, len(voters), vote.kind is VoteKind.DRAW)


def decide(vote: Vote, voters: frozenset[int], now: datetime) -> VoteState:
    """The vote's state now: a decided vote stays decided; an open one is decided by the
    ballots, else by the clock."""
    if not vote.state.open:
        return vote.state
    count = tally(vote, voters)
    if count.in_favour >= count.needed:
        return VoteState.PASSED
    if count.in_favour + count.undecided < count.needed:
        return VoteState.FAILED
    if now >= vote.expires_at:
        return VoteState.EXPIRED
    return VoteState.OPEN
