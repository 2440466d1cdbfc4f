"""The engine's errors: one base class, precise subclasses, messages that name the problem."""

from __future__ import annotations


class DominoError(ValueError):
    """Anything the engine refuses. The message says what was wrong, for people."""


class IllegalMove(DominoError):
    """The action is not allowed in this position (tile not in hand, does not fit, ...)."""


class NotYourTurn(DominoError):
    """A seat tried to act while another seat is to move."""


class StaleAction(DominoError):
    """The action was meant for an earlier position (an old turn number)."""


class RoundOver(DominoError):
    """An action arrived after the round had ended."""


class MatchOver(DominoError):
    """An action arrived after the match had ended."""


class BadRuleset(DominoError):
    """A ruleset option is out of range or options contradict each other."""


class UnknownVariant(BadRuleset):
    """No game is registered under the key asked for (`domino.rules.find_variant`)."""


class BadState(DominoError):
    """Serialized state that cannot be read back (wrong version, broken invariants)."""
