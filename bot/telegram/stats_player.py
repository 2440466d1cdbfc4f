"""/stats: one person's numbers in one game, in a group or across all groups."""

from __future__ import annotations

import html
from collections.abc import Sequence

from aiogram.types import InlineKeyboardMarkup

from bot.app.names import clean_name
from bot.telegram.callbacks import StatsCb
from bot.telegram.stats_columns import (
    chat_title,
    day,
    elo_text,
    game_name,
    games_rows,
    keyboard_of,
    percent,
)
from domino.rules import Variant
from domino.variants import GameVariant, find_variant
from i18n import Lang, t
from storage.stats import MatchLine, PlayerStats

MIN_STREAK = 2  # /stats tells of a streak from two matches alike in a row: one is no streak


def player_stats_text(stats: PlayerStats, chat: str | None, lang: Lang) -> str:
    """One person's numbers in one game, in one group (`chat` its title) or across all
    groups (None). How the matches went is the game's: where points are bad, the times
    last under the loser's name (козёл, осёл) and the streaks of matches not last;
    where they are good, the wins and the streaks of wins; a streak is told from two
    matches alike in a row (`MIN_STREAK`). The best and the worst match are one line
    when they are the same match: «the only match», or, when every match gained the
    same rating, that rating and the latest match. The hints taken («💡 3 подсказки»)
    are told once there are any; they change no other number."""
    game = find_variant(stats.game)
    name = html.escape(clean_name(stats.name), quote=False)
    title_of_game = game_name(game, lang)
    if stats.chat_id is None:
        lines = [t("stats.title_all", lang, name=name, game=title_of_game)]
    else:
        title = t("stats.title_group", lang, name=name, chat=chat_title(chat), game=title_of_game)
        lines = [title]
    lines.append(
        t("stats.matches", lang, n=stats.matches, rating=stats.rating, elo=elo_text(stats.elo))
    )
    if game.points_are_bad:
        share = percent(stats.goats / stats.matches) if stats.matches else "0%"
        lines.append(t(f"stats.losses.{game.key.value}", lang, n=stats.goats, share=share))
    else:
        share = percent(stats.wins / stats.matches) if stats.matches else "0%"
        lines.append(t("stats.wins", lang, n=stats.wins, share=share))
    if stats.draws:  # matches ended drawn by agreement: neither lost nor won
        lines.append(t("stats.draws", lang, n=stats.draws))
    lines.append(t("stats.went_out", lang, n=stats.went_out))
    lines.append(t("stats.fish", lang, n=stats.fish_made, game=game.key.value))
    if stats.eggs_taken:  # K-9, M-5: most games have no eggs, and nobody took any here
        lines.append(t("stats.eggs", lang, n=stats.eggs_taken))
    if stats.hints:
        lines.append(t("stats.hints", lang, n=stats.hints))
    lines += _best_and_worst(stats, game, lang)
    if abs(stats.streak) >= MIN_STREAK:
        lines.append(_streak(game, stats.streak, lang))
    return "\n".join(lines)


def _best_and_worst(stats: PlayerStats, game: GameVariant, lang: Lang) -> list[str]:
    best, worst = stats.best, stats.worst
    if best is None or worst is None:
        return []
    if best.game_id == worst.game_id:
        key = "stats.only_match" if stats.matches == 1 else "stats.best_and_worst"
        return [_match_line(key, best, game, lang)]
    return [
        _match_line("stats.best", best, game, lang),
        _match_line("stats.worst", worst, game, lang),
    ]


def _streak(game: GameVariant, streak: int, lang: Lang) -> str:
    """The latest matches in a row alike (`PlayerStats.streak`), as the game counts them."""
    if game.points_are_bad:
        kind = "good" if streak > 0 else "bad"
        return t(f"stats.streak_{kind}.{game.key.value}", lang, n=abs(streak))
    return t("stats.streak_wins" if streak > 0 else "stats.streak_no_wins", lang, n=abs(streak))


def _match_line(key: str, match: MatchLine, game: GameVariant, lang: Lang) -> str:
    """A best or worst match: its final points, date and rating gained; the loser's mark
    where points are bad and the person was last."""
    line = t(key, lang, points=match.points, date=day(match.ended_at, lang), gain=match.rating_gain)
    if match.goat and game.points_are_bad:
        line += " " + t(f"stats.mark.{game.key.value}", lang)
    return line


def stats_keyboard(
    game: Variant, games: Sequence[Variant], user_id: int, lang: Lang
) -> InlineKeyboardMarkup | None:
    """The person's other games with records, to switch to (`games_rows`)."""
    return keyboard_of(
        games_rows(game, games, lambda key: StatsCb(game=key.value, user=user_id).pack(), lang)
    )


def no_stats_text(name: str, in_group: bool, lang: Lang) -> str:
    name = html.escape(clean_name(name), quote=False)
    return t("stats.none_group" if in_group else "stats.none_all", lang, name=name)


def tournament_marks(played: int, won: int, lang: Lang) -> str:
    """«🏆 Турниров: 3, побед: 1»: the finished tournaments of the group the person was
    an entrant of, and those they won (shared first places count)."""
    return t("tournament.stats", lang, played=played, won=won)
