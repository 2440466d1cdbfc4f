"""Command line of the engine: `python -m domino simulate ...` (see `domino.simulate`),
`python -m domino ladder ...` (one computer level against another on paired deals,
`domino.ladder`) and `python -m domino variants` (the games, `domino.variants`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from domino.errors import DominoError
from domino.ladder import LEVELS, format_ladder, matchup, run_ladder
from domino.rules import FishMode, GameVariant
from domino.simulate import PLAYER_KINDS, format_report, simulate
from domino.variants import VARIANTS, Kozel, find_variant


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m domino", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser(
        "variants", help="list the games: one line KEY<TAB>PLAYERS<TAB>TARGET<TAB>POINTS each"
    )
    sim = commands.add_parser(
        "simulate", help="play whole matches between computer players and print statistics"
    )
    sim.add_argument("--variant", choices=[v.key.value for v in VARIANTS], default=Kozel.key.value)
    sim.add_argument(
        "--players", type=int, help="seats at the table (default: 4 where the game allows it)"
    )
    sim.add_argument("--matches", type=int, default=1000)
    sim.add_argument("--seed", type=int, default=1, help="the run's seed (C-12)")
    sim.add_argument(
        "--teams",
        action=argparse.BooleanOptionalAction,
        help="four players in 2x2 teams, partners opposite (K-1); default: the game's",
    )
    sim.add_argument(
        "--players-kind",
        default="greedy",
        help=f"comma-separated player kind per seat ({', '.join(PLAYER_KINDS)}); a shorter"
        " list repeats",
    )
    sim.add_argument("--target", type=int, help="points that end the match (K-10, T-6)")
    sim.add_argument("--fish", choices=[m.value for m in FishMode], help="K-9 fish scoring")
    sim.add_argument("--open-threshold", type=int, help="K-7 rule of 13 (0 = off)")
    sim.add_argument(
        "--no-progress", action="store_true", help="no progress bar on stderr for long runs"
    )
    add_ladder_parser(commands)
    return parser


def add_ladder_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ladder = commands.add_parser(
        "ladder",
        help="a focal computer level against a field level on paired deals (the same deals"
        " with the seats rotated), with 95%% intervals and decision times",
    )
    ladder.add_argument(
        "--variant", choices=[v.key.value for v in VARIANTS], default=Kozel.key.value
    )
    ladder.add_argument(
        "--players", type=int, help="seats at the table (default: 4 where the game allows it)"
    )
    ladder.add_argument(
        "--pairs",
        action=argparse.BooleanOptionalAction,
        help="four players in 2x2, a focal pair against a field pair (K-1); default: the game's",
    )
    ladder.add_argument("--focal", choices=LEVELS, default="medium", help="the level measured")
    ladder.add_argument("--field", choices=LEVELS, default="greedy", help="the others' level")
    ladder.add_argument(
        "--matches",
        type=int,
        default=200,
        help="match seeds (deals); each is played once per seating (x players, x2 in pairs)",
    )
    ladder.add_argument("--seed", type=int, default=1, help="the run's seed (C-12)")
    ladder.add_argument(
        "--jobs", type=int, default=1, help="processes to play in (the figures do not change)"
    )
    ladder.add_argument(
        "--no-progress", action="store_true", help="no progress bar on stderr for long runs"
    )


def ladder_main(args: argparse.Namespace) -> int:
    try:
        chosen = matchup(
            args.variant, args.focal, args.field, players=args.players, pairs=args.pairs
        )
        report = run_ladder(
            chosen,
            args.matches,
            args.seed,
            args.jobs,
            progress=None if args.no_progress else sys.stderr,
        )
    except DominoError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(format_ladder(report))
    return 0


def variant_line(variant: GameVariant) -> str:
    """A game as the command line lists it, without words of any language (its name is
    a text of the bot's catalogues): its key, how many play, its default target and
    whether reaching it loses ("bad") or wins ("good"): "kozel	2-4	101	bad"."""
    ruleset = variant.ruleset
    players = f"{ruleset.min_players}-{ruleset.max_players}"
    if ruleset.min_players == ruleset.max_players:
        players = str(ruleset.min_players)
    points = "bad" if variant.points_are_bad else "good"
    return f"{variant.key.value}\t{players}\t{ruleset.target}\t{points}"


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "variants":
        for variant in VARIANTS:
            print(variant_line(variant))
        return 0
    if args.command == "ladder":
        return ladder_main(args)
    options: dict[str, object] = {} if args.teams is None else {"teams": args.teams}
    if args.target is not None:
        options["target"] = args.target
    if args.fish is not None:
        options["fish"] = FishMode(args.fish)
    if args.open_threshold is not None:
        options["open_threshold"] = args.open_threshold
    try:
        ruleset = find_variant(args.variant).ruleset.with_options(**options)
        players = args.players or (4 if 4 in ruleset.hand_sizes else ruleset.max_players)
        report = simulate(
            ruleset,
            players,
            args.matches,
            args.seed,
            [kind.strip() for kind in args.players_kind.split(",")],
            progress=None if args.no_progress else sys.stderr,
        )
    except DominoError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(format_report(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
