"""The lobby in the group: the rules chosen, who sits down, the buttons to change them."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.app.lobby_rules import PLAYABLE as PLAYABLE
from bot.app.lobby_rules import pairs_fixed, seat_choices
from bot.app.lobby_rules import playable_game as playable_game
from bot.app.lobby_rules import playable_games as playable_games
from bot.app.names import computer_name
from bot.app.timers import timer_in_force
from bot.telegram.callbacks import (
    LEVEL_ACTIONS,
    NO_FIELD,
    LobbyAction,
    LobbyCb,
    LobbyOption,
    RemoveCb,
    seat_field,
)
from bot.telegram.presenter.common import fish_mode_name, short_name, variant_name
from domino.ai import Level
from domino.rules import LayoutKind, Ruleset, Variant
from domino.timing import (
    DEFAULT_TURN_TIMER,
    SPORT_COULD_FISH,
    SPORT_ONE_MOVE,
    SPORT_SEVERAL_MOVES,
    TurnTimer,
)
from domino.variants import GameVariant
from i18n import Lang, t
from storage.records import DEFAULT_HANDS, GameRecord, GameStatus, HandsPlace, SeatRecord

ALIASES: Mapping[Variant, tuple[str, ...]] = MappingProxyType(
    {
        Variant.ALL_FIVES: ("Muggins", "Fives", "Все пятёрки"),
        Variant.THREES_AND_FIVES: ("Fives and Threes", "Fives & Threes", "Пятёрки и тройки"),
        Variant.DUBLI: ("Doubles",),
        Variant.DARK: ("В темную", "Темную", "Вслепую", "Blind"),
    }
)
"""Other names players give the games, as `/domino` takes them besides each game's key
and its names in the bot's languages: All Fives is also Muggins, threes and fives also
«Fives and Threes», Втемную also «в темную» (ё or е alike: «втёмную»). A name in brackets
counts too («Doubles (Dubli)»: Doubles, Dubli)."""


def _spelling(name: str) -> str:
    """A name as `/domino` compares it: any case, ё as е, «_» and «-» as spaces, one space."""
    folded = name.casefold().replace("ё", "е").replace("_", " ").replace("-", " ")
    return " ".join(folded.split())


def _names(game: GameVariant) -> set[str]:
    """Every spelling `/domino` takes for `game`: its key, its name in each language and
    that name's parts («Kozel (Goat)»: Kozel, Goat), its other names (`ALIASES`)."""
    names = {game.key.value, *ALIASES.get(game.key, ())}
    for lang in Lang:
        name = t(game.name_key, lang)
        names.add(name)
        outer, _, inner = name.partition("(")
        if inner:
            names.update((outer, inner.rstrip(")")))
    return {_spelling(name) for name in names}


def game_named(name: str) -> GameVariant | None:
    """The playable game `name` names: its key (`classic`), its name in any language
    («Классика», «козел»), or another name players use («Muggins»), any case; None
    for anything else."""
    wanted = _spelling(name)
    return next((game for game in playable_games() if wanted in _names(game)), None)


def games_list(lang: Lang) -> str:
    """The playable games as `/domino` takes them, one a line: «/domino classic — Классика»."""
    return "\n".join(f"/domino {g.key.value} — {t(g.name_key, lang)}" for g in playable_games())


def _offers_fish_and_threshold(rules: Ruleset) -> bool:
    """Whether the game lets the group choose K-9's fish mode and K-7's threshold (Козёл)."""
    return rules.game.offers("fish") and rules.game.offers("open_threshold")


def layout_name(layout: LayoutKind, lang: Lang) -> str:
    """F-2's spinner as the lobby's button names it: «первый дубль», or «только дубль
    первым ходом» for the option «Straight» (`LayoutKind.SPINNER`)."""
    return t(f"layout.{layout.value}", lang)


def straight(rules: Ruleset) -> bool:
    """Whether the group chose F-2's «Straight» (only an opening double spins): said in
    the lobby only of a game that offers the choice (Осёл's spinner is its own rule)."""
    return rules.game.offers("layout") and rules.layout is LayoutKind.SPINNER


def own_turn_times() -> dict[str, str]:
    """K-12's turn times in seconds (`domino.timing`), as the texts name them: `one`
    move possible, `several`, a move that could make `fish`."""
    return {
        "one": f"{SPORT_ONE_MOVE:g}",
        "several": f"{SPORT_SEVERAL_MOVES:g}",
        "fish": f"{SPORT_COULD_FISH:g}",
    }


def level_name(level: Level, lang: Lang) -> str:
    """A computer's level as players read it: «Лёгкий», «Средний», «Сильный»."""
    return t(f"level.{level.value}", lang)


def next_level(level: Level) -> Level:
    """The level a computer's lobby button switches to: easy, medium, hard, easy, ..."""
    levels = tuple(Level)
    return levels[(levels.index(level) + 1) % len(levels)]


def lobby_text(
    game: GameRecord,
    lang: Lang,
    timer: TurnTimer = DEFAULT_TURN_TIMER,
    *,
    hands: HandsPlace = DEFAULT_HANDS,
    waiting: Sequence[str] = (),
) -> str:
    """The lobby: the game, its options, who sits. `timer` is the group's turn timer: a
    game with turn times of its own says it is timed by them (S-7, `timer_in_force`).
    `hands` is the group's default place of hands: shown in the group, the lobby says
    people play right there, with no private chat to open. A tournament's table
    (`GameRecord.tournament`) is headed by its round and table and who it waits for
    (`waiting`, plain names), and asks its people for «✅ Я на месте»."""
    rules = game.ruleset
    table = game.tournament
    lines = [] if table is None else [_table_header(table.round_no, table.table_no, waiting, lang)]
    lines += [
        t("lobby.title", lang, variant=variant_name(rules.variant, lang)),
        "",
        *lobby_options(game, lang, timer),
        "",
    ]
    lines.append(t("lobby.players", lang, joined=len(game.seats), wanted=game.seats_wanted))
    for seat in game.seats:
        # A computer's name carries its own 🤖 (`computer.name`) and its level; a person
        # gets 👤.
        name = html.escape(seat_name(seat, lang))
        if seat.is_computer:
            lines.append(t("lobby.computer", lang, name=name, level=level_name(seat.level, lang)))
        else:
            lines.append(f"👤 {name}")
    if not game.seats and table is None:
        # Hands kept in private: the creator is seated at once only if the bot may write
        # to them.
        lines.append(t("lobby.nobody_in_group" if hands.group else "lobby.nobody", lang))
    elif rules.teams and game.seats_wanted == 4:
        lines.append(
            t("lobby.pairs", lang, first=_pair(game, 0, lang), second=_pair(game, 1, lang))
        )
    lines.append("")
    if table is not None:
        lines.append(t("tournament.lobby_hint", lang))
        return "\n".join(lines)
    if len(game.seats) >= game.seats_wanted:
        lines.append(t("lobby.full", lang))  # nobody is asked to sit down any more
    else:
        lines.append(t("lobby.hint_in_group" if hands.group else "lobby.hint", lang))
    lines.append(t("lobby.controls", lang))
    return "\n".join(lines)


def _table_header(round_no: int, table_no: int, waiting: Sequence[str], lang: Lang) -> str:
    """«🏆 Турнир · тур 2 · стол 1 — ждём: Алиса, Боб» (or «все на месте»)."""
    if not waiting:
        return t("tournament.lobby_all_here", lang, round=round_no, table=table_no)
    names = ", ".join(html.escape(short_name(name), quote=False) for name in waiting)
    return t("tournament.lobby", lang, round=round_no, table=table_no, names=names)


def lobby_options(
    game: GameRecord, lang: Lang, timer: TurnTimer | None, *, pairs: bool = False
) -> list[str]:
    """The lobby's options, a line each (HTML): how many play and to what target;
    Козёл's fish and the score's threshold (K-9, K-7); F-2's «Straight»; pairs or each
    for themselves at a table of four (`pairs`: and who sits with whom, for a lobby that
    lists its seats elsewhere); a game timed by its own turn times under the group's
    `timer` (S-7, `timer_in_force`; None: not said)."""
    rules = game.ruleset
    lines = [t("lobby.options", lang, seats=game.seats_wanted, target=rules.target)]
    if _offers_fish_and_threshold(rules):
        lines.append(
            t(
                "lobby.kozel_options",
                lang,
                fish=fish_mode_name(rules.fish, lang),
                threshold=rules.open_threshold or t("lobby.off", lang),
            )
        )
    if straight(rules):
        lines.append(t("lobby.straight", lang))
    if game.seats_wanted == 4:
        lines.append(t("lobby.teams_on" if rules.teams else "lobby.teams_off", lang))
        if pairs and rules.teams and game.seats:
            lines.append(
                t("lobby.pairs", lang, first=_pair(game, 0, lang), second=_pair(game, 1, lang))
            )
    if (
        timer is not None
        and rules.game.turn_timing
        and timer_in_force(timer, rules.game) is TurnTimer.SPORT
    ):
        lines.append(t("lobby.sport_timing", lang, **own_turn_times()))
    return lines


def seat_name(seat: SeatRecord, lang: Lang) -> str:
    """A seated name as the lobby shows it: a computer's own name in `lang` (it was
    stored in its creator's language), a person's as they call themselves."""
    return short_name(computer_name(seat.name, lang) if seat.user_id is None else seat.name)


def _pair(game: GameRecord, first_seat: int, lang: Lang) -> str:
    """The partners of seats `first_seat` and `first_seat + 2` (sitting opposite), a seat
    still free shown as «…»: who plays with whom, before the start."""
    names = [
        html.escape(seat_name(game.seats[seat], lang)) if seat < len(game.seats) else "…"
        for seat in (first_seat, first_seat + 2)
    ]
    return " + ".join(names)


def lobby_closed_text(game: GameRecord, lang: Lang) -> str:
    """What the lobby message says once the game started or was called off (a
    tournament's table closed with no match: too few came, or the tournament ended)."""
    if game.status is GameStatus.CANCELLED and game.match is None:
        if game.tournament is not None:
            return t("tournament.lobby_closed", lang)
        return t("lobby.closed_cancelled", lang)
    names = ", ".join(html.escape(seat_name(seat, lang)) for seat in game.seats)
    return t("lobby.closed_started", lang, names=names)


def lobby_keyboard(
    game: GameRecord, lang: Lang, app_link: str | None = None
) -> InlineKeyboardMarkup:
    """The lobby's buttons: sitting down (and, given the Mini App's direct link
    `app_link`, «🃏 Открыть стол», where one sits down too), adding a computer, the game
    (opening the list of games, `games_keyboard`) and then that game's own options (the
    table sizes it is played by, pairs where four may choose them, the rule options of
    `GameVariant.choices`: the target, K-9's fish and K-7's threshold, F-2's spinner on a
    row of its own), one button per computer that shows its level and switches it to the
    next, removing someone, start and cancel. An option the game does not let the group
    change has no button."""

    def button(
        text_key: str, action: LobbyAction, option: str = NO_FIELD, **values: object
    ) -> InlineKeyboardButton:
        data = LobbyCb(game=game.id, action=action, option=option).pack()
        return InlineKeyboardButton(text=t(text_key, lang, **values), callback_data=data)

    rules = game.ruleset
    game_name = variant_name(rules.variant, lang)
    if game.tournament is not None:  # the tournament set the table: its people come
        rows = [[button("btn.tournament_here", LobbyAction.JOIN)]]
    else:
        rows = [[button("btn.join", LobbyAction.JOIN), button("btn.leave", LobbyAction.LEAVE)]]
    if app_link is not None:
        rows.append([InlineKeyboardButton(text=t("btn.open_table", lang), url=app_link)])
    if game.tournament is not None:
        return InlineKeyboardMarkup(inline_keyboard=rows)
    rows.append([button("btn.add_computer", LobbyAction.ADD_COMPUTER)])
    rows.append([button("btn.opt_game", LobbyAction.OPTION, LobbyOption.GAME, game=game_name)])
    sizes: list[InlineKeyboardButton] = []
    if len(seat_choices(rules)) > 1:
        sizes.append(
            button("btn.opt_seats", LobbyAction.OPTION, LobbyOption.SEATS, n=game.seats_wanted)
        )
    if rules.game.offers("target"):
        sizes.append(
            button("btn.opt_target", LobbyAction.OPTION, LobbyOption.TARGET, n=rules.target)
        )
    scoring: list[InlineKeyboardButton] = []
    if rules.game.offers("fish"):
        fish = fish_mode_name(rules.fish, lang)
        scoring.append(button("btn.opt_fish", LobbyAction.OPTION, LobbyOption.FISH, mode=fish))
    if rules.game.offers("open_threshold"):
        threshold = rules.open_threshold or t("lobby.off", lang)
        scoring.append(
            button("btn.opt_threshold", LobbyAction.OPTION, LobbyOption.THRESHOLD, n=threshold)
        )
    table: list[InlineKeyboardButton] = []
    if rules.game.offers("layout"):
        spinner = layout_name(rules.layout, lang)
        table.append(
            button("btn.opt_spinner", LobbyAction.OPTION, LobbyOption.SPINNER, layout=spinner)
        )
    rows.extend(row for row in (sizes, scoring, table) if row)
    if game.seats_wanted == 4 and not pairs_fixed(rules):
        teams = "btn.opt_teams_on" if rules.teams else "btn.opt_teams_off"
        rows.append([button(teams, LobbyAction.OPTION, LobbyOption.TEAMS)])
    # One button per computer: it shows the level and switches to the next.
    for seat in game.seats:
        if seat.is_computer:
            level = seat.level
            action = LEVEL_ACTIONS[tuple(Level).index(next_level(level))]
            rows.append(
                [
                    button(
                        "btn.computer_level",
                        action,
                        seat_field(seat.seat),
                        name=seat_name(seat, lang),
                        level=level_name(level, lang),
                    )
                ]
            )
    if game.people:
        rows.append([button("btn.remove_player", LobbyAction.REMOVE)])
    rows.append([button("btn.start", LobbyAction.START), button("btn.cancel", LobbyAction.CANCEL)])
    return InlineKeyboardMarkup(inline_keyboard=rows)


GAMES_PER_ROW = 2  # a phone shows a name such as «Тройки и пятёрки» whole only two a row


def games_keyboard(game: GameRecord, lang: Lang) -> InlineKeyboardMarkup:
    """The list of games the game's button opens in place of the lobby's buttons: one
    button per playable game, two a row, the lobby's own marked ✅; a press takes that
    game with its own default options (`LobbyAction.PICK`); «↩️ Назад» brings the lobby's
    buttons back."""
    current = game.ruleset.variant
    games = [
        InlineKeyboardButton(
            text=("✅ " if choice.key is current else "") + t(choice.name_key, lang),
            callback_data=LobbyCb(
                game=game.id, action=LobbyAction.PICK, option=choice.key.value
            ).pack(),
        )
        for choice in playable_games()
    ]
    rows = [games[i : i + GAMES_PER_ROW] for i in range(0, len(games), GAMES_PER_ROW)]
    back = LobbyCb(game=game.id, action=LobbyAction.BACK).pack()
    rows.append([InlineKeyboardButton(text=t("btn.back", lang), callback_data=back)])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def removal_keyboard(
    game: GameRecord, people: Sequence[SeatRecord], lang: Lang
) -> InlineKeyboardMarkup:
    """One button per seated person: pressing it removes them from the lobby."""
    rows = []
    for seat in people:
        assert seat.user_id is not None
        data = RemoveCb(game=game.id, seat=seat.seat, user=seat.user_id).pack()
        text = t("btn.remove_seat", lang, name=short_name(seat.name))
        rows.append([InlineKeyboardButton(text=text, callback_data=data)])
    return InlineKeyboardMarkup(inline_keyboard=rows)
