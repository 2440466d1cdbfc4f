"""By value: a surrender after someone else abandoned the match keeps that one the
culprit (K-11) and gives the surrenderer no rating; the record keeps it."""

from __future__ import annotations

from bot.app.standings import abandonment_gains
from domino.variants import find_variant
from storage.records import Abandonment, Ending

KOZEL = find_variant("kozel")


def test_a_later_surrenderer_gains_nothing_and_the_culprit_stays() -> None:
    left = Abandonment(1, Ending.LEFT, (40, 62, 10))
    assert abandonment_gains(left, KOZEL) == (2, 0, 5)  # K-11: by the lead over 62
    given_up = left.given_up_by(0)
    assert (given_up.seat, given_up.surrendered) == (1, 0)
    assert abandonment_gains(given_up, KOZEL) == (0, 0, 5)
    assert left.given_up_by(1) is left  # the culprit giving up changes nothing


def test_the_surrenderer_is_stored_only_when_there_is_one() -> None:
    left = Abandonment(1, Ending.LEFT, (40, 62, 10))
    assert "surrendered" not in left.to_dict()  # records stored before read the same
    assert Abandonment.from_dict(left.to_dict()) == left
    given_up = left.given_up_by(2)
    assert Abandonment.from_dict(given_up.to_dict()) == given_up
