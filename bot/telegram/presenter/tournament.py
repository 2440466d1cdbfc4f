"""A tournament as its group reads it (docs/tournaments.md): the one message in its topic
(sign-up with its options, then the round, its tables and the standings, then the final
standings), its buttons and their menus, and the announcements of rounds, tables,
forfeits and the end. Pure functions of the stored `TournamentRecord`.

The standings are a plain list that reads on a phone («1. Алиса — 2½»), never a
monospace table: points in halves written by `domino.tournament.points_text`, computers
marked 🤖 by their own name, withdrawn entrants marked so."""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.app.lobby_rules import pairs_fixed, playable_games, seat_choices
from bot.app.names import computer_name, short_name
from bot.app.usecases.tournaments import can_pair
from bot.telegram.callbacks import NO_FIELD, TournamentAction, TournamentCb
from domino.ai import Level
from domino.rules import find_variant
from domino.tournament import Format, Line, points_text, table_half_points
from i18n import Lang, t
from render.standings import StandingsPicture, StandingsRow
from storage.records import (
    EntrantRecord,
    GameRecord,
    TableRecord,
    TableState,
    TournamentOptions,
    TournamentRecord,
    TournamentStatus,
)

STANDINGS_ON_BOARD = 8  # lines of the standings the tournament's message shows
GAMES_PER_ROW = 2  # as the lobby's list of games
SHOW_UP_CHOICES = (5, 10, 30)  # minutes (docs/tournaments.md, «Show-up time»)
PAIRS = "pairs"  # a choice of the settings' table button: two pairs at a table
SWISS_ROUNDS_MAX = 7  # the settings' rounds button cycles 1..this; the start checks the count


class MenuKind(StrEnum):
    """What the tournament's message shows in place of its own buttons."""

    MAIN = "main"
    SETTINGS = "settings"
    GAMES = "games"
    REMOVE = "remove"  # whom to remove
    REMOVE_ONE = "remove_one"  # confirm removing `Menu.entrant`
    CANCEL = "cancel"  # confirm cancelling the tournament


@dataclass(frozen=True, slots=True)
class Menu:
    kind: MenuKind = MenuKind.MAIN
    entrant: int | None = None


MAIN_MENU = Menu()


# Names ---------------------------------------------------------------------------------


def entrant_name(entrant: EntrantRecord, lang: Lang) -> str:
    """An entrant as texts name it (plain text): a person's short name, a computer's own
    name in `lang` (with its 🤖), a fixed pair as «Алиса + Боб»."""
    if entrant.user_id is None:
        return short_name(computer_name(entrant.name, lang))
    if entrant.partner_name is not None:
        return f"{short_name(entrant.name)} + {short_name(entrant.partner_name)}"
    return short_name(entrant.name)


def _escaped(tournament: TournamentRecord, number: int, lang: Lang) -> str:
    return html.escape(entrant_name(tournament.entrants[number], lang), quote=False)


def game_name(options: TournamentOptions, lang: Lang) -> str:
    return t(find_variant(options.game).name_key, lang)


def level_word(level: Level, lang: Lang) -> str:
    return t(f"tournament.level-{level.value}", lang)


# The options ---------------------------------------------------------------------------


def format_name(format: Format, lang: Lang) -> str:
    return t(f"tournament.format-{format.value}", lang)


def options_lines(options: TournamentOptions, lang: Lang) -> list[str]:
    """The options in words, a line each: format (and Swiss rounds), tables, computers,
    the time to take a seat."""
    fmt = format_name(options.format, lang)
    if options.format is Format.SWISS and options.rounds is not None:
        lines = [t("tournament.format_rounds", lang, format=fmt, rounds=options.rounds)]
    else:
        lines = [t("tournament.format", lang, format=fmt)]
    if options.pairs:
        lines.append(t("tournament.tables_pairs", lang))
    else:
        lines.append(t("tournament.tables_of", lang, n=options.table_size))
    if options.computers is None:
        lines.append(t("tournament.computers_off", lang))
    else:
        lines.append(t("tournament.computers", lang, level=level_word(options.computers, lang)))
    lines.append(t("tournament.show_up", lang, minutes=options.show_up_minutes))
    return lines


# The message of the tournament ----------------------------------------------------------


def board_text(
    tournament: TournamentRecord, organiser: str, lang: Lang, menu: Menu = MAIN_MENU
) -> str:
    """The tournament's one message: its title and options, then by its state the
    entrants (sign-up), the current round and the standings (running, paused), or the
    final standings and the winner; a question of the organiser's menu last.
    `organiser` is the name of who opened it."""
    options = tournament.options
    lines = [
        t("tournament.title", lang, game=html.escape(game_name(options, lang), quote=False)),
        t("tournament.organiser", lang, name=html.escape(short_name(organiser), quote=False)),
        *options_lines(options, lang),
        "",
    ]
    status = tournament.status
    if status is TournamentStatus.SIGNUP:
        lines += entrants_lines(tournament, lang)
        lines += ["", t("tournament.signup_hint", lang)]
    elif status in (TournamentStatus.RUNNING, TournamentStatus.PAUSED):
        lines += round_lines(tournament, tournament.current_round, lang)
        if status is TournamentStatus.PAUSED:
            lines += ["", t("tournament.paused", lang)]
        lines += ["", t("tournament.standings", lang)]
        lines += standings_lines(tournament, lang, limit=STANDINGS_ON_BOARD)
    elif status is TournamentStatus.FINISHED:
        lines += final_lines(tournament, lang)
    else:
        lines.append(t("tournament.cancelled", lang))
    question = _question(tournament, menu, lang)
    if question:
        lines += ["", question]
    return "\n".join(lines)


def _question(tournament: TournamentRecord, menu: Menu, lang: Lang) -> str:
    if menu.kind is MenuKind.SETTINGS:
        return t("tournament.settings_hint", lang)
    if menu.kind is MenuKind.REMOVE:
        return t("tournament.ask_remove", lang)
    named = _named(tournament, menu)
    if named is not None:
        return t("tournament.ask_remove_one", lang, name=_escaped(tournament, named, lang))
    if menu.kind is MenuKind.CANCEL:
        return t("tournament.ask_cancel", lang)
    return ""


def _named(tournament: TournamentRecord, menu: Menu) -> int | None:
    """The entrant a removal's confirmation names, if it is one of the tournament's."""
    entrant = menu.entrant
    if menu.kind is not MenuKind.REMOVE_ONE or entrant is None:
        return None
    return entrant if 0 <= entrant < len(tournament.entrants) else None


def entrants_lines(tournament: TournamentRecord, lang: Lang) -> list[str]:
    """«Участники (N):» and the list in sign-up order; with fixed pairs the pairs as they
    form (1st with 2nd, ...), the last one waiting for its partner shown with «…»."""
    entrants = tournament.entrants
    people = sum(2 if e.partner_id is not None else 1 for e in entrants)
    lines = [t("tournament.entrants", lang, n=people)]
    if not entrants:
        lines.append(t("tournament.nobody", lang))
    if tournament.options.pairs:
        # Signing up, each person is an entrant of their own, paired at the start in
        # sign-up order; once started, each entrant is a pair.
        names = [
            html.escape(short_name(name), quote=False)
            for entrant in entrants
            for name in (entrant.name, entrant.partner_name)
            if name is not None
        ]
        for index in range(0, len(names), 2):
            first = names[index]
            second = names[index + 1] if index + 1 < len(names) else "…"
            lines.append(t("tournament.pair", lang, n=index // 2 + 1, first=first, second=second))
        return lines
    for entrant in entrants:
        name = html.escape(entrant_name(entrant, lang), quote=False)
        lines.append(t("tournament.entrant", lang, n=entrant.number + 1, name=name))
    return lines


def tables_of(tournament: TournamentRecord, round_no: int) -> list[TableRecord]:
    return sorted(
        (table for table in tournament.tables if table.round_no == round_no),
        key=lambda table: table.table_no,
    )


def round_lines(tournament: TournamentRecord, round_no: int, lang: Lang) -> list[str]:
    """The round «Тур 2 из 3», a line per table (its names and state: ждём, играют, or
    its result), and who has no table."""
    lines = [t("tournament.round", lang, round=round_no, rounds=tournament.round_count())]
    for table in tables_of(tournament, round_no):
        if table.state is TableState.DONE:
            lines.append(
                t(
                    "tournament.table_result",
                    lang,
                    n=table.table_no,
                    results=table_results(tournament, table, lang),
                )
            )
        else:
            lines.append(
                t(
                    "tournament.table",
                    lang,
                    n=table.table_no,
                    names=table_names(tournament, table, lang),
                    state=t(f"tournament.state-{table.state.value}", lang),
                )
            )
    byes = [bye.entrant for bye in tournament.byes if bye.round == round_no]
    if byes:
        names = ", ".join(_escaped(tournament, number, lang) for number in byes)
        lines.append(t("tournament.bye", lang, names=names))
    return lines


def table_names(tournament: TournamentRecord, table: TableRecord, lang: Lang) -> str:
    """The table's entrants, «Алиса — Боб» (HTML)."""
    return " — ".join(_escaped(tournament, number, lang) for number in table.entrants)


def table_results(tournament: TournamentRecord, table: TableRecord, lang: Lang) -> str:
    """What each entrant took at a table that ended, best first: «Алиса 1 · Боб 0» (HTML)."""
    if table.result is None:
        return table_names(tournament, table, lang)
    halves = table_half_points(table.result)
    order = sorted(table.entrants, key=lambda number: -halves.get(number, 0))
    return " · ".join(
        f"{_escaped(tournament, number, lang)} {points_text(halves.get(number, 0))}"
        for number in order
    )


def standings_lines(
    tournament: TournamentRecord,
    lang: Lang,
    *,
    limit: int | None = None,
    upto_round: int | None = None,
) -> list[str]:
    """«1. Алиса — 2½», a line an entrant, best first (the first `limit`, then how many
    more); with `upto_round`, as of that round (`TournamentRecord.standings`). Those
    out of the tournament come last, with no place, as the picture shows them."""
    ranked = tournament.standings(upto_round)
    lines = [line for line in ranked if not line.withdrawn] + [
        line for line in ranked if line.withdrawn
    ]
    shown = lines if limit is None else lines[:limit]
    written = [standing_line(tournament, line, lang) for line in shown]
    if len(lines) > len(shown):
        written.append(t("tournament.standings_more", lang, n=len(lines) - len(shown)))
    return written


def standing_line(tournament: TournamentRecord, line: Line, lang: Lang) -> str:
    """«1. Алиса — 2½»; someone out of the tournament has no place, as in the picture:
    «— Гоша (вне турнира) — 1»."""
    name = _escaped(tournament, line.entrant, lang)
    points = points_text(line.half_points)
    if line.withdrawn:
        name = t("tournament.withdrawn", lang, name=name)
        return t("tournament.line_withdrawn", lang, name=name, points=points)
    return t("tournament.line", lang, place=line.place, name=name, points=points)


def winners(tournament: TournamentRecord) -> list[int]:
    """The entrants in first place of a finished tournament (several when tied)."""
    if tournament.status is not TournamentStatus.FINISHED:
        return []
    return [line.entrant for line in tournament.standings() if line.place == 1]


def marks_of(tournaments: Sequence[TournamentRecord], user_id: int) -> tuple[int, int]:
    """How many of these finished tournaments the person played (an entrant, alone or in
    a pair) and won (placed first, shared or not)."""
    played = won = 0
    for tournament in tournaments:
        entrant = tournament.entrant_of(user_id)
        if entrant is None:
            continue
        played += 1
        won += entrant.number in winners(tournament)
    return played, won


def winner_line(tournament: TournamentRecord, lang: Lang) -> str:
    """«🏆 Победитель турнира: Алиса» (or the winners, tied)."""
    first = winners(tournament)
    if not first:
        return t("tournament.no_winner", lang)
    names = ", ".join(_escaped(tournament, number, lang) for number in first)
    alone = len(first) == 1 and tournament.entrants[first[0]].partner_id is None
    return t("tournament.winner" if alone else "tournament.winners", lang, names=names)


def final_lines(tournament: TournamentRecord, lang: Lang) -> list[str]:
    return [
        t("tournament.finished", lang),
        "",
        t("tournament.standings_final", lang),
        *standings_lines(tournament, lang),
        "",
        winner_line(tournament, lang),
    ]


# Buttons -------------------------------------------------------------------------------


def _button(
    tournament: TournamentRecord,
    key: str,
    action: TournamentAction,
    lang: Lang,
    *,
    option: str = NO_FIELD,
    value: str = "",
    **values: object,
) -> InlineKeyboardButton:
    data = TournamentCb(tournament=tournament.id, action=action, option=option, value=value)
    return InlineKeyboardButton(text=t(key, lang, **values), callback_data=data.pack())


def board_keyboard(
    tournament: TournamentRecord, lang: Lang, menu: Menu = MAIN_MENU
) -> InlineKeyboardMarkup | None:
    """The message's buttons for `menu`: at sign-up «✅ Участвую» «🚪 Не участвую», the
    organiser's «⚙️ Настройки», «▶️ Начать», «✖️ Отменить»; while it runs «⏸ Пауза» or
    «▶️ Продолжить», «👤 Убрать участника», «✖️ Отменить турнир»; a menu's own buttons
    in its place; none once it is over."""
    status = tournament.status
    if status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        return None
    signup = status is TournamentStatus.SIGNUP
    kind = menu.kind
    if kind is MenuKind.SETTINGS and signup:
        return _settings_keyboard(tournament, lang)
    if kind is MenuKind.GAMES and signup:
        return _games_keyboard(tournament, lang)
    if kind is MenuKind.CANCEL:
        return _rows(
            [
                [
                    _button(
                        tournament, "btn.tournament_stop_yes", TournamentAction.CANCEL_YES, lang
                    ),
                    _button(tournament, "btn.tournament_no", TournamentAction.BACK, lang),
                ]
            ]
        )
    if kind is MenuKind.REMOVE and not signup:
        return _remove_keyboard(tournament, lang)
    named = _named(tournament, menu)
    if named is not None and not signup:
        name = entrant_name(tournament.entrants[named], lang)
        yes = _button(
            tournament,
            "btn.tournament_remove_yes",
            TournamentAction.REMOVE_YES,
            lang,
            value=str(named),
            name=name,
        )
        no = _button(tournament, "btn.tournament_no", TournamentAction.BACK, lang)
        return _rows([[yes], [no]])
    if signup:
        return _rows(
            [
                [
                    _button(tournament, "btn.tournament_join", TournamentAction.JOIN, lang),
                    _button(tournament, "btn.tournament_leave", TournamentAction.LEAVE, lang),
                ],
                [_button(tournament, "btn.tournament_settings", TournamentAction.SETTINGS, lang)],
                [
                    _button(tournament, "btn.tournament_start", TournamentAction.START, lang),
                    _button(tournament, "btn.tournament_cancel", TournamentAction.CANCEL, lang),
                ],
            ]
        )
    if status is TournamentStatus.PAUSED:
        pause = _button(tournament, "btn.tournament_resume", TournamentAction.RESUME, lang)
    else:
        pause = _button(tournament, "btn.tournament_pause", TournamentAction.PAUSE, lang)
    return _rows(
        [
            [pause],
            [_button(tournament, "btn.tournament_remove", TournamentAction.REMOVE, lang)],
            [_button(tournament, "btn.tournament_stop", TournamentAction.CANCEL, lang)],
        ]
    )


def _rows(rows: list[list[InlineKeyboardButton]]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=rows)


def _cycle(choices: Sequence[str], current: str) -> str:
    """The choice after `current` (the first when `current` is none of them)."""
    if current not in choices:
        return choices[0]
    return choices[(choices.index(current) + 1) % len(choices)]


def _settings_keyboard(tournament: TournamentRecord, lang: Lang) -> InlineKeyboardMarkup:
    """A button per option showing its value; a press sets the next value (the game's
    opens the list of games), «↩️ Назад» brings the message's buttons back."""
    options = tournament.options

    def setting(key: str, name: str, value: str, **values: object) -> list[InlineKeyboardButton]:
        return [
            _button(tournament, key, TournamentAction.SET, lang, option=name, value=value, **values)
        ]

    formats = [f.value for f in Format]
    rows = [
        [
            _button(
                tournament,
                "btn.tournament_game",
                TournamentAction.GAMES,
                lang,
                game=game_name(options, lang),
            )
        ],
        setting(
            "btn.tournament_format",
            "format",
            _cycle(formats, options.format.value),
            format=format_name(options.format, lang),
        ),
    ]
    rows += _tables_rows(tournament, lang)
    if options.format is Format.SWISS:
        rounds = options.rounds or 1
        choices = [str(n) for n in range(1, SWISS_ROUNDS_MAX + 1)]
        rows.append(
            setting("btn.tournament_rounds", "rounds", _cycle(choices, str(rounds)), n=rounds)
        )
    levels = ["off", *(level.value for level in Level)]
    current = "off" if options.computers is None else options.computers.value
    if options.computers is None:
        rows.append(setting("btn.tournament_computers_off", "computers", _cycle(levels, current)))
    else:
        rows.append(
            setting(
                "btn.tournament_computers",
                "computers",
                _cycle(levels, current),
                level=level_word(options.computers, lang),
            )
        )
    minutes = [str(m) for m in SHOW_UP_CHOICES]
    rows.append(
        setting(
            "btn.tournament_show_up",
            "show_up",
            _cycle(minutes, str(options.show_up_minutes)),
            minutes=options.show_up_minutes,
        )
    )
    rows.append([_button(tournament, "btn.tournament_back", TournamentAction.BACK, lang)])
    return _rows(rows)


def table_choices(options: TournamentOptions) -> tuple[str, ...]:
    """What the settings' table button cycles through for the game: the table sizes it
    is played by, then «pairs» where two pairs may play (none where the game decides)."""
    rules = find_variant(options.game).ruleset
    if pairs_fixed(rules):
        return ()
    sizes = tuple(str(n) for n in seat_choices(rules))
    return (*sizes, PAIRS) if can_pair(rules) else sizes


def _tables_rows(tournament: TournamentRecord, lang: Lang) -> list[list[InlineKeyboardButton]]:
    """The table button: it shows the table size (or pairs) and sets the next choice;
    none for a game that is always played one way."""
    options = tournament.options
    choices = table_choices(options)
    if len(choices) < 2:
        return []
    following = _cycle(choices, PAIRS if options.pairs else str(options.table_size))
    if following == PAIRS:
        option, value = "pairs", "on"
    elif options.pairs:
        option, value = "pairs", "off"
    else:
        option, value = "table_size", following
    key = "btn.tournament_tables_pairs" if options.pairs else "btn.tournament_tables_of"
    button = _button(
        tournament,
        key,
        TournamentAction.SET,
        lang,
        option=option,
        value=value,
        n=options.table_size,
    )
    return [[button]]


def _games_keyboard(tournament: TournamentRecord, lang: Lang) -> InlineKeyboardMarkup:
    """The playable games, the tournament's marked ✅; «↩️ Назад» to the settings."""
    current = tournament.options.game
    games = [
        InlineKeyboardButton(
            text=("✅ " if game.key.value == current else "") + t(game.name_key, lang),
            callback_data=TournamentCb(
                tournament=tournament.id,
                action=TournamentAction.SET,
                option="game",
                value=game.key.value,
            ).pack(),
        )
        for game in playable_games()
    ]
    rows = [games[i : i + GAMES_PER_ROW] for i in range(0, len(games), GAMES_PER_ROW)]
    rows.append([_button(tournament, "btn.tournament_back", TournamentAction.SETTINGS, lang)])
    return _rows(rows)


def removable(tournament: TournamentRecord) -> list[EntrantRecord]:
    """The entrants the organiser may remove: people still in the tournament."""
    return [e for e in tournament.entrants if e.user_id is not None and e.withdrawn_round is None]


def _remove_keyboard(tournament: TournamentRecord, lang: Lang) -> InlineKeyboardMarkup:
    rows = [
        [
            _button(
                tournament,
                "btn.tournament_remove_who",
                TournamentAction.REMOVE_ASK,
                lang,
                value=str(entrant.number),
                name=entrant_name(entrant, lang),
            )
        ]
        for entrant in removable(tournament)
    ]
    rows.append([_button(tournament, "btn.tournament_back", TournamentAction.BACK, lang)])
    return _rows(rows)


# Announcements -------------------------------------------------------------------------


def round_text(tournament: TournamentRecord, round_no: int, lang: Lang) -> str:
    """A round's tables announced: who sits where, who has no table, and how to sit down."""
    lines = [t("tournament.round_title", lang, round=round_no, rounds=tournament.round_count())]
    for table in tables_of(tournament, round_no):
        if table.result is not None and table.game_id is None:  # decided at the draw
            results = table_results(tournament, table, lang)
            lines.append(t("tournament.seats_decided", lang, n=table.table_no, results=results))
            continue
        names = table_names(tournament, table, lang)
        lines.append(t("tournament.seats", lang, n=table.table_no, names=names))
    byes = [bye.entrant for bye in tournament.byes if bye.round == round_no]
    if byes:
        names = ", ".join(_escaped(tournament, number, lang) for number in byes)
        lines.append(t("tournament.bye", lang, names=names))
    lines += ["", t("tournament.round_hint", lang, minutes=tournament.options.show_up_minutes)]
    return "\n".join(lines)


def table_done_text(tournament: TournamentRecord, table: TableRecord, lang: Lang) -> str:
    """A table's result and the standings after it (the caption of the standings'
    picture)."""
    lines = [
        t(
            "tournament.table_done",
            lang,
            round=table.round_no,
            table=table.table_no,
            results=table_results(tournament, table, lang),
        ),
    ]
    names = absent_names(tournament, table, lang)
    if names:
        lines.append(t("tournament.absent_note", lang, names=names))
    lines += [
        "",
        t("tournament.standings", lang),
        *standings_lines(tournament, lang, limit=STANDINGS_ON_BOARD, upto_round=table.round_no),
    ]
    return "\n".join(lines)


def absent_names(tournament: TournamentRecord, table: TableRecord, lang: Lang) -> str:
    """The table's entrants forfeited there, in seat order («Боб, Дима»; "" if none)."""
    absent = table.absent or (table.result.absent if table.result is not None else frozenset())
    return ", ".join(
        _escaped(tournament, number, lang) for number in table.entrants if number in absent
    )


def forfeit_text(tournament: TournamentRecord, table: TableRecord, lang: Lang) -> str:
    """Who did not take their seat at a table in time."""
    names = absent_names(tournament, table, lang)
    return t(
        "tournament.forfeit", lang, round=table.round_no, table=table.table_no, names=names or "—"
    )


def end_text(tournament: TournamentRecord, lang: Lang) -> str:
    """The tournament's end: the final standings and the winner (or that it was
    cancelled)."""
    title = t(
        "tournament.title", lang, game=html.escape(game_name(tournament.options, lang), quote=False)
    )
    if tournament.status is TournamentStatus.CANCELLED:
        return "\n".join([title, t("tournament.cancelled", lang)])
    return "\n".join([title, *final_lines(tournament, lang)])


def waiting_names(tournament: TournamentRecord, game: GameRecord, lang: Lang) -> list[str]:
    """Who a tournament table's lobby (`game`) still waits for: its entrants with someone
    not seated yet, forfeited ones left out (plain names)."""
    ref = game.tournament
    table = None if ref is None else tournament.table(ref.round_no, ref.table_no)
    if table is None:
        return []
    seated = {seat.user_id for seat in game.seats if seat.user_id is not None}
    return [
        entrant_name(tournament.entrants[number], lang)
        for number in table.entrants
        if number not in table.absent
        and not tournament.entrants[number].withdrawn_by(table.round_no)
        and not all(user in seated for user in tournament.entrants[number].people)
    ]


def topic_title(round_no: int, table_no: int, lang: Lang) -> str:
    """A table's forum topic: «🏆 Тур 2 · стол 1»."""
    return t("tournament.topic", lang, round=round_no, table=table_no)


def standings_picture(
    tournament: TournamentRecord,
    lang: Lang,
    *,
    highlight: Sequence[int] = (),
    final: bool = False,
    upto_round: int | None = None,
) -> StandingsPicture:
    """The standings as `render.standings` draws them: a row an entrant, best first, the
    entrants of `highlight` (the table that just ended) marked, the winners ringed when
    `final`; Swiss shows its Buchholz."""
    options = tournament.options
    swiss = options.format is Format.SWISS
    rows = []
    for line in tournament.standings(upto_round):
        entrant = tournament.entrants[line.entrant]
        tiebreak = points_text(line.buchholz) if swiss and line.buchholz is not None else ""
        rows.append(
            StandingsRow(
                place=None if line.withdrawn else line.place,
                name=entrant_name(entrant, lang),
                computer=entrant.user_id is None,
                points=points_text(line.half_points),
                played=line.played,
                firsts=line.firsts,
                tiebreak=tiebreak,
                withdrawn=line.withdrawn,
                highlight=line.entrant in highlight,
            )
        )
    if final:
        subtitle = t("tournament.picture_final", lang)
    else:
        subtitle = t(
            "tournament.picture_round",
            lang,
            round=upto_round or tournament.current_round,
            rounds=tournament.round_count(),
            format=format_name(options.format, lang),
        )
    return StandingsPicture(
        title=t("tournament.picture_title", lang, game=game_name(options, lang)),
        subtitle=subtitle,
        tiebreak_heading=t("tournament.buchholz", lang) if swiss else "",
        rows=tuple(rows),
        final=final,
    )
