"""The words and numbers the pictures show, in the group's language: the words come from
the catalogues (`i18n`, the `picture.*` texts), and this module chooses which and puts
the numbers and names into them.

The pictures name a game's loser in that game's own word (`picture.loser`, chosen by
the game's stable key, as the bot's texts are): the козёл, the осёл; a game with no such
word says plainly who lost. Nothing here asks which game is played otherwise: good or
bad points come from the game object (`MatchView.ruleset.game`).
"""

from __future__ import annotations

from collections.abc import Sequence

from domino.tiles import SET_SIZE
from domino.views import Account, MatchView, OutcomeKind, RoundOutcome, RoundResult
from i18n import Lang, lang_of, t
from render import draw, text
from render.geometry import RenderError


def _lang(lang: str) -> Lang:
    """The language of the pictures: `lang` where it has a catalogue, else Russian."""
    return lang_of(lang)


def word(key: str, lang: str = "ru", **values: object) -> str:
    """One of the pictures' words (`picture.<key>` in the catalogue) in `lang`, with
    `values` put in."""
    return t(f"picture.{key}", _lang(lang), **values)


def game_word(view: MatchView, key: str, lang: str = "ru", **values: object) -> str:
    """`word` as `view`'s game says it: the catalogue may choose by the game's key (in
    English a blocked round is a block where the game scores in play, C-8 b)."""
    return word(key, lang, game=view.ruleset.game.key.value, **values)


def variant_name(view: MatchView, lang: str = "ru") -> str:
    """The game's name as the pictures show it (`picture.game.<key>`)."""
    return word(f"game.{view.ruleset.game.key.value}", lang)


def loser_word(view: MatchView, lang: str = "ru") -> str:
    """The game's loser in its own word (the козёл, the осёл), else plainly a loss."""
    return game_word(view, "loser", lang)


def check_names(view: MatchView, names: Sequence[str]) -> None:
    if len(names) != view.players:
        raise RenderError(f"{view.players} players need {view.players} names, got {len(names)}")


def shown_names(names: Sequence[str], lang: str = "ru") -> list[str]:
    """The names as drawn: a name with nothing drawable in it (only spaces, marks no
    font has) is «Игрок N» by its seat, so no seat, row or «ход:» is ever empty."""
    return [
        name if text.clean(name, True) and text.clean(name) else word("player_n", lang, n=seat + 1)
        for seat, name in enumerate(names)
    ]


def account(view: MatchView, acc: Account) -> tuple[str, draw.RGB]:
    """An account as the online platforms show it, with its colour.

    Where points are bad (Козёл, K-7): an open account is a plain number in red;
    remembered points are `+N` in yellow; nothing yet is a muted 0. Where they are good
    (Классика, Морской козёл, Спортивное): the recorded points, in green.
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


def side_name(view: MatchView, side: int, names: Sequence[str], lang: str = "ru") -> str:
    """A player's name, or for a pair «А: Маша и Оля»."""
    seats = view.sides[side]
    if len(seats) == 1:
        return names[seats[0]]
    return f"{team_letter(side, lang)}: " + word("and", lang).join(names[s] for s in seats)


def side_names(view: MatchView, side: int, names: Sequence[str]) -> str:
    """A side as the captions name it: a player's name, a pair «Маша + Оля» (no letter,
    so no second colon after «Победа:»)."""
    return " + ".join(names[seat] for seat in view.sides[side])


def team_letter(side: int, lang: str = "ru") -> str:
    letters = word("teams", lang)
    return letters[side] if side < len(letters) else str(side + 1)


def is_team_play(view: MatchView) -> bool:
    return any(len(seats) > 1 for seats in view.sides)


def doubles_left(count: int, lang: str = "ru") -> str:
    """What a hand left counts at the round's end where doubles count (B-1: a block goes
    to the hand without any; B-2: such a hand scores 1): «без дублей», «2 дубля»."""
    return word("doubles_left", lang, n=count)


def _reaches(view: MatchView, side: int, lang: str) -> str:
    """F-6's verb as the side's size needs it: «набирает» for one, «набирают» for a pair."""
    return word("reaches" if len(view.sides[side]) == 1 else "reach", lang)


def outcome(
    view: MatchView,
    ended: RoundOutcome,
    names: Sequence[str],
    lang: str = "ru",
    score: int | None = None,
    *,
    match_said: bool = False,
    round_no: int | None = None,
) -> str:
    """«домино: Маша» (C-8 a), «рыба, рыбак: Саша» (C-8 b; in English «blocked by Sasha»
    where the game scores in play, `game_word`), or for a round stopped by a move that
    reached the match's target (F-6) the side and the `score` it reached, «Маша + Оля
    набирают 256 — партия окончена», without its end where the picture says that
    already (`match_said`). After the round's number (`round_no`) the name follows a
    dash, so that the line has one colon: «Раунд 3: домино — Маша», «Раунд 3: рыба,
    рыбак — Саша», «Раунд 3: Маша набирает 255»."""
    if ended.kind is OutcomeKind.REACHED:
        if score is None:
            raise RenderError("a round stopped at the match's target needs the score reached")
        side = view.side_of(ended.seat)
        key = "reached_by" if match_said else "reached_of"
        verb = _reaches(view, side, lang)
        said = word(key, lang, name=side_names(view, side, names), verb=verb, score=score)
    else:
        kind = "fish" if ended.kind is OutcomeKind.FISH else "went_out"
        form = "of" if round_no is None else "by"
        said = game_word(view, f"{kind}_{form}", lang, name=names[ended.seat])
    return said if round_no is None else word("round_of", lang, n=round_no) + said


def outcome_tag(view: MatchView, ended: RoundOutcome, score: int, lang: str = "ru") -> str:
    """The word under the name of the side that ended the round: «домино» (C-8 a),
    «рыбак» (C-8 b; in English «block» where the game scores in play), «набирает 256»
    or for a pair «набирают 256» (F-6: the `score` the side reached)."""
    if ended.kind is OutcomeKind.REACHED:
        verb = _reaches(view, view.side_of(ended.seat), lang)
        return word("reached", lang, verb=verb, score=score)
    return game_word(view, "went_out" if ended.kind is OutcomeKind.WENT_OUT else "fisherman", lang)


def reached_score(view: MatchView, result: RoundResult) -> int:
    """The score the side that ended `result`'s round has after it: for a round stopped
    at the target (F-6), what it reached (not the target: a move may go past it)."""
    return result.after[view.side_of(result.outcome.seat)].recorded


def in_play_split(in_play: int, at_end: int | None, lang: str = "ru") -> str:
    """A side's round points taken apart (F-3; F-5, B-1, B-2): «в игре +15 · в конце
    +10» (scored by the round's moves, and by its end); only the first where the round
    had no end to score (F-6, or a round still played)."""
    said = word("in_play", lang, n=in_play)
    if at_end is None:
        return said
    return f"{said} · {word('at_end', lang, n=at_end)}"


def match_end(view: MatchView, names: Sequence[str], lang: str = "ru") -> str:
    """«Козёл: Саша» (K-10), «Осёл: Саша» (O-6) or «Победа: Маша» (T-6, M-6, S-6),
    a pair «Козёл: Маша + Оля»; empty while the match goes on."""
    if not view.over:
        return ""
    if view.losers:
        sides = ", ".join(side_names(view, side, names) for side in view.losers)
        return f"{loser_word(view, lang)}: {sides}"
    if view.winners:
        sides = ", ".join(side_names(view, side, names) for side in view.winners)
        return word("winner", lang, names=sides)
    return word("over", lang)


def has_bazaar(view: MatchView) -> bool:
    """Whether the deal left a bazaar anybody may draw from (C-3: none with four players
    of seven tiles, as in Спортивное; Блиц shares out all 28, and with three the one
    tile left lies face down for the whole round, C-6's reserve): a picture does not
    count a bazaar the game never had."""
    ruleset = view.ruleset
    return SET_SIZE - ruleset.hand_size(view.players) * view.players > ruleset.bazaar_reserve
