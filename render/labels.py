"""The words and numbers the pictures show, in Russian (the bot's main audience)."""

from __future__ import annotations

from collections.abc import Sequence

from domino.views import Account, MatchView, OutcomeKind, RoundOutcome
from render import draw
from render.geometry import RenderError

TEAM_LETTERS = "АБ"


def variant_name(view: MatchView) -> str:
    """The game's name as the pictures show it (`GameVariant.name`)."""
    return view.ruleset.game.name


def check_names(view: MatchView, names: Sequence[str]) -> None:
    if len(names) != view.players:
        raise RenderError(f"{view.players} players need {view.players} names, got {len(names)}")


def account(view: MatchView, acc: Account) -> tuple[str, draw.RGB]:
    """An account as the online platforms show it, with its colour.

    Where points are bad (Козёл, K-7): an open account is a plain number in red;
    remembered points are `+N` in yellow; nothing yet is a muted 0. Where they are good
    (Классика): the recorded points.
    """
    if not view.ruleset.game.points_are_bad:
        return str(acc.recorded), draw.GOOD
    if acc.opened or acc.recorded:
        shown = str(acc.recorded)
        if acc.remembered:
            shown += f" +{acc.remembered}"
        return shown, draw.RECORDED
    if acc.remembered:
        return f"+{acc.remembered}", draw.REMEMBERED
    return "0", draw.MUTED


def side_name(view: MatchView, side: int, names: Sequence[str]) -> str:
    """A player's name, or for a team «А: Маша и Оля»."""
    seats = view.sides[side]
    if len(seats) == 1:
        return names[seats[0]]
    return f"{team_letter(side)}: " + " и ".join(names[s] for s in seats)


def team_letter(side: int) -> str:
    return TEAM_LETTERS[side] if side < len(TEAM_LETTERS) else str(side + 1)


def is_team_play(view: MatchView) -> bool:
    return any(len(seats) > 1 for seats in view.sides)


def outcome(result: RoundOutcome, names: Sequence[str]) -> str:
    """«домино: Маша» (C-8 a) or «рыба, рыбак: Саша» (C-8 b)."""
    if result.kind is OutcomeKind.FISH:
        return f"рыба, рыбак: {names[result.seat]}"
    return f"домино: {names[result.seat]}"


def match_end(view: MatchView, names: Sequence[str]) -> str:
    """«Козёл: Саша» (K-10) or «Победа: Маша» (T-6); empty while the match goes on."""
    if not view.over:
        return ""
    if view.losers:
        return "Козёл: " + ", ".join(side_name(view, s, names) for s in view.losers)
    if view.winners:
        return "Победа: " + ", ".join(side_name(view, s, names) for s in view.winners)
    return "Матч окончен"
