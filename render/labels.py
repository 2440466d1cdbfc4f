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
from domino.views import Account, MatchView, OutcomeKind, RoundOutcome
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
                "turn_of": "ход: {name}",
                "win": "победа",
                "winner": "Победа: {names}",
                "went_out": "домино",
                "went_out_of": "домино: {name}",
                "fisherman": "рыбак",
                "fish_of": "рыба, рыбак: {name}",
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
                "reached_of": "{name} набирает {target} — партия окончена",
                "reached_by": "{name} набирает {target}",
                "reached": "набирает {target}",
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
                "turn_of": "to move: {name}",
                "win": "winner",
                "winner": "Winner: {names}",
                "went_out": "domino",
                "went_out_of": "domino: {name}",
                "fisherman": "fisherman",
                "fish_of": "fish, fisherman: {name}",
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
                "reached_of": "{name} reaches {target} — match over",
                "reached_by": "{name} reaches {target}",
                "reached": "reached {target}",
                "scored": "+{n} {name}",
                "ends": "ends: {n}",
            }
        ),
    }
)

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
                "threes_and_fives": "Fives and Threes",
                "bergen": "Bergen",
                "dubli": "Doubles",
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


def team_letter(side: int, lang: str = "ru") -> str:
    letters = word("teams", lang)
    return letters[side] if side < len(letters) else str(side + 1)


def is_team_play(view: MatchView) -> bool:
    return any(len(seats) > 1 for seats in view.sides)


def outcome(
    result: RoundOutcome,
    names: Sequence[str],
    lang: str = "ru",
    target: int | None = None,
    *,
    match_said: bool = False,
) -> str:
    """«домино: Маша» (C-8 a), «рыба, рыбак: Саша» (C-8 b), or for a round stopped by a
    move that reached the match's `target` (F-6) «Маша набирает 250 — партия окончена»,
    without its end where the picture says that already (`match_said`)."""
    name = names[result.seat]
    if result.kind is OutcomeKind.REACHED:
        if target is None:
            raise RenderError("a round stopped at the match's target needs the target")
        return word("reached_by" if match_said else "reached_of", lang, name=name, target=target)
    if result.kind is OutcomeKind.FISH:
        return word("fish_of", lang, name=name)
    return word("went_out_of", lang, name=name)


def outcome_tag(result: RoundOutcome, target: int, lang: str = "ru") -> str:
    """The word under the name of the seat that ended the round: «домино» (C-8 a),
    «рыбак» (C-8 b), «набирает 250» (F-6)."""
    if result.kind is OutcomeKind.REACHED:
        return word("reached", lang, target=target)
    return word("went_out" if result.kind is OutcomeKind.WENT_OUT else "fisherman", lang)


def match_end(view: MatchView, names: Sequence[str], lang: str = "ru") -> str:
    """«Козёл: Саша» (K-10), «Осёл: Саша» (O-6) or «Победа: Маша» (T-6, M-6, S-6),
    a pair «Козёл: Маша + Оля»; empty while the match goes on."""
    if not view.over:
        return ""
    # A pair as the caption names it, «Маша + Оля»: no letter, so no second colon.
    if view.losers:
        sides = ", ".join(" + ".join(names[p] for p in view.sides[s]) for s in view.losers)
        return f"{loser_word(view, lang)}: {sides}"
    if view.winners:
        sides = ", ".join(" + ".join(names[p] for p in view.sides[s]) for s in view.winners)
        return word("winner", lang, names=sides)
    return word("over", lang)


def has_bazaar(view: MatchView) -> bool:
    """Whether the deal left a bazaar (C-3: none with four players of seven tiles, as
    in Спортивное): a picture does not count a bazaar the game never had."""
    return view.ruleset.hand_size(view.players) * view.players < SET_SIZE
