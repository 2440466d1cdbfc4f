"""The words and numbers the pictures show, in the group's language (Russian, the bot's
main audience, unless the bot asks for English).

The pictures name a game's loser in that game's own word (`LOSERS`, keyed by the game's
stable key, as the bot's texts are): the козёл, the осёл; a game with no such word says
plainly who lost. Nothing here asks which game is played otherwise: good or bad points
come from the game object (`MatchView.ruleset.game`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from domino.tiles import SET_SIZE
from domino.views import Account, MatchView, OutcomeKind, RoundOutcome, RoundResult
from render import draw, text
from render.geometry import RenderError

LANGS = ("ru", "en")
"""The languages the pictures speak; any other is drawn in Russian."""

_WORDS: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "ru": MappingProxyType(
            {
                "round": "Раунд",
                "pairs": "пары",
                "pair": "пара",
                "bazaar": "базар",
                "turn": "ход",
                "face_up": "открыты",
                "turn_of": "ход: {name}",
                "win": "победа",
                "winner": "Победа: {names}",
                "went_out": "домино",
                "went_out_of": "домино: {name}",
                "went_out_by": "домино — {name}",
                "fisherman": "рыбак",
                "fish_of": "рыба, рыбак: {name}",
                "fish_by": "рыба, рыбак — {name}",
                "draw": "ничья",
                "too_few": "меньше {n}: не пишется",
                "empty": "стол пуст: первый ход",
                "over": "Партия окончена",
                "results": "Раунд {n} · итоги",
                "round_of": "Раунд {n}: ",
                "score": "Счёт · раунд {n}",
                "before": "было",
                "points": "раунд",
                "after": "стало",
                "player": "игрок",
                "to": "{game} · игра до {target}",
                "eggs_next": "+{n} в следующий раунд",
                "eggs_taken": "+{n} забирает {name}",
                "turned": "кто ходит первым: открытые кости",
                "and": " и ",
                "teams": "АБ",
                "player_n": "Игрок {n}",
                "no_tiles": "костей не осталось",
                "reaches": "набирает",
                "reach": "набирают",
                "reached_of": "{name} {verb} {score} — партия окончена",
                "reached_by": "{name} {verb} {score}",
                "reached": "{verb} {score}",
                "in_play": "в игре +{n}",
                "at_end": "в конце +{n}",
                "no_doubles": "без дублей",
                "scored": "+{n} {name}",
                "ends": "концы: {n}",
            }
        ),
        "en": MappingProxyType(
            {
                "round": "Round",
                "pairs": "pairs",
                "pair": "pair",
                "bazaar": "boneyard",
                "turn": "to move",
                "face_up": "turned up",
                "turn_of": "to move: {name}",
                "win": "winner",
                "winner": "Winner: {names}",
                "went_out": "domino",
                "went_out_of": "{name} goes out",
                "went_out_by": "{name} goes out",
                "fisherman": "fisherman",
                "fish_of": "fish, fisherman: {name}",
                "fish_by": "fish, fisherman — {name}",
                "draw": "draw",
                "too_few": "under {n}: not written",
                "empty": "empty table: first move",
                "over": "Match over",
                "results": "Round {n} · results",
                "round_of": "Round {n}: ",
                "score": "Score · round {n}",
                "before": "before",
                "points": "round",
                "after": "after",
                "player": "player",
                "to": "{game} · game to {target}",
                "eggs_next": "+{n} to the next round",
                "eggs_taken": "+{n} taken by {name}",
                "turned": "who leads: the turned tiles",
                "and": " and ",
                "teams": "AB",
                "player_n": "Player {n}",
                "no_tiles": "no tiles left",
                "reaches": "reaches",
                "reach": "reach",
                "reached_of": "{name} {verb} {score} — match over",
                "reached_by": "{name} {verb} {score}",
                "reached": "{verb} {score}",
                "in_play": "in play +{n}",
                "at_end": "round end +{n}",
                "no_doubles": "no doubles",
                "scored": "+{n} {name}",
                "ends": "ends: {n}",
            }
        ),
    }
)

_BLOCK_WORDS: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "en": MappingProxyType(
            {
                "fisherman": "block",
                "fish_of": "blocked by {name}",
                "fish_by": "blocked by {name}",
            }
        ),
    }
)
"""The words for a blocked round (C-8 b) where they differ in the games that score in
play (`GameVariant.scores_in_play`: All Fives, Threes and Fives, Bergen, Doubles): a
block in English, as the bot's texts call it there; Russian says «рыба» in every game."""

LOSERS: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "ru": MappingProxyType({"kozel": "Козёл", "osel": "Осёл"}),
        "en": MappingProxyType({"kozel": "Goat", "osel": "Donkey"}),
    }
)
"""A game's loser in its own word, by language and game key (K-10, O-6)."""

_LOSS = MappingProxyType({"ru": "Проигрыш", "en": "Loss"})

NAMES: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "en": MappingProxyType(
            {
                "kozel": "Kozel",
                "classic": "Classic",
                "sea_kozel": "Sea Kozel",
                "osel": "Osel",
                "sport": "Sport dominoes",
                "all_fives": "All Fives",
                "threes_and_fives": "Threes and Fives",
                "bergen": "Bergen",
                "dubli": "Doubles",
                "blitz": "Blitz",
                "cross": "Cross",
                "shesterka": "Sixes",
                "dark": "In the Dark",
            }
        ),
    }
)
"""The games' names where they differ from `GameVariant.name` (Russian)."""


def _lang(lang: str) -> str:
    return lang if lang in LANGS else "ru"


def word(key: str, lang: str = "ru", **values: object) -> str:
    """One of the pictures' words in `lang`, with `values` put in."""
    return _WORDS[_lang(lang)][key].format(**values)


def game_word(view: MatchView, key: str, lang: str = "ru", **values: object) -> str:
    """`word` as `view`'s game says it: a blocked round's words where the game scores in
    play (`_BLOCK_WORDS`), else the words of every game."""
    if view.ruleset.game.scores_in_play:
        said = _BLOCK_WORDS.get(_lang(lang), {}).get(key)
        if said is not None:
            return said.format(**values)
    return word(key, lang, **values)


def variant_name(view: MatchView, lang: str = "ru") -> str:
    """The game's name as the pictures show it (`GameVariant.name`, or its translation)."""
    game = view.ruleset.game
    return NAMES.get(_lang(lang), {}).get(game.key.value, game.name)


def loser_word(view: MatchView, lang: str = "ru") -> str:
    """The game's loser in its own word (the козёл, the осёл), else plainly a loss."""
    words = LOSERS[_lang(lang)]
    return words.get(view.ruleset.game.key.value, _LOSS[_lang(lang)])


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


def plural(n: int, one: str, few: str, many: str) -> str:
    """The Russian noun form for `n`: 1 дубль, 2 дубля, 5 дублей (21 дубль, 11 дублей)."""
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def doubles_left(count: int, lang: str = "ru") -> str:
    """What a hand left counts at the round's end where doubles count (B-1: a block goes
    to the hand without any; B-2: such a hand scores 1): «без дублей», «2 дубля»."""
    if not count:
        return word("no_doubles", lang)
    if _lang(lang) == "en":
        return f"{count} double" + ("" if count == 1 else "s")
    return f"{count} " + plural(count, "дубль", "дубля", "дублей")


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
