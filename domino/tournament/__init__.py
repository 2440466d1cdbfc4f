"""Tournaments: round-robin schedules, Swiss pairing, points and standings.

Pure and deterministic: no I/O, no clock, no randomness, so a stored tournament
recomputes the same schedule and standings (docs/tournaments.md).
"""

from domino.tournament.schedule import Round, Table, round_robin
from domino.tournament.standings import (
    Bye,
    Format,
    Line,
    TableResult,
    bye_half_points,
    points_text,
    standings,
    table_half_points,
)
from domino.tournament.swiss import swiss_round, swiss_rounds_allowed

__all__ = [
    "Bye",
    "Format",
    "Line",
    "Round",
    "Table",
    "TableResult",
    "bye_half_points",
    "points_text",
    "round_robin",
    "standings",
    "swiss_round",
    "swiss_rounds_allowed",
    "table_half_points",
]
