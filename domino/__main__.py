"""Command line of the engine: `python -m domino simulate ...` (see `domino.simulate`) and
`python -m domino variants` (the games, `domino.variants`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from domino.errors import DominoError
from domino.rules import FishMode
from domino.simulate import PLAYER_KINDS, format_report, simulate
from domino.variants import VARIANTS, Kozel, find_variant


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m domino", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("variants", help="list the games: one line KEY<TAB>name each")
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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "variants":
        for variant in VARIANTS:
            print(f"{variant.key.value}\t{variant.name}")
        return 0
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
