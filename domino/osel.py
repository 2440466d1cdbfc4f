"""«Осёл» (O-1 .. O-6): Козёл on a spinner, with double tricks, to 125.

The default options that the game object (`domino.variants.Osel`) carries. The round is
the common one (`domino.round`) on a spinner table (`domino.layout.SpinnerLayout`), with
the game's two moves offered where `GameVariant.max_doubles` and `GameVariant.may_close`
say so: several doubles in one turn (O-2, `domino.actions.PlayDoubles`) and a double laid
face down to close its end (O-3, `domino.actions.Close`). Scoring is Козёл's
(`domino.scoring.score_kozel_round`) with these options. Where section O of RULES.md is
silent, the choices are written in `OSEL`'s docstring and in those of
`domino.round.Round` (the moves) and `domino.layout.SpinnerLayout` (the table).
"""

from __future__ import annotations

from domino.rules import FishMode, LayoutKind, Opening, Ruleset, Scoring, Variant

OSEL = Ruleset(
    variant=Variant.OSEL,
    scoring=Scoring.OSEL,
    opening=Opening.LOWEST_DOUBLE_FROM_ONE,  # O-1, as K-3
    layout=LayoutKind.SPINNER,  # O-1: the opening double is the spinner (C-10)
    hand_sizes={2: 7, 3: 7, 4: 7},  # O-1
    target=125,  # O-6
    open_threshold=13,  # O-5
    lone_blank=10,  # O-5
    lone_blank_on_fish=False,  # O-5: the lone 0-0 counts 10 only when the round was no fish
    fish=FishMode.EACH,
)
"""«Осёл»'s default options.

Choices where section O is silent:
- the first round opens as K-3 (O-1): the holder of `1-1`, else `2-2` ... `6-6`, then
  `0-0`, opens with it and it is the spinner; with no double dealt the highest tile
  opens, and a first tile that is not a double makes a plain line with no spinner (the
  same holds in later rounds, which the one who went out or the fisherman opens with any
  tile, O-4, K-4);
- a fish is scored "рыба на всех" (K-9 `each`): O-5 names only K-6 and K-7, under
  which everyone scores their own hand; the other K-9 modes are lobby choices;
- with four players, 2x2 teams (partners opposite) are an option as in K-1: the team
  scores as one side, the team at the target is the осёл;
- the rating of a finished match is K-11's, as in Козёл.
"""
