"""Блиц, Крест, Шестёрка and Втемную (section V of RULES.md): children's games. In Блиц
and Крест a turn may lay any number of tiles, one after another
(`GameVariant.many_per_turn`, `domino.round`); in Шестёрка the halves that touch add up
to 6 (`domino.layout.SumSixLayout`); in Втемную each player's tiles are a face-down stack
turned up one a turn (`GameVariant.face_down`).

RULES.md names them in one line each ("Блиц: any number of tiles per turn, tiles shared
out equally, no bazaar"; "Крест: a cross from the opening double, any number per
turn"; "Шестёрка: adjacent halves must sum to 6"); everything else is a choice, written
here once:

- A turn: the mover must lay a tile if one fits (C-5), and then may lay more, each on
  any open end as the table then stands, for as long as one fits; «✔️ Сходить»
  (`EndTurn`) ends the turn early, and the turn passes by itself once nothing more
  fits; with nothing that fits the mover knocks (C-7: no bazaar). C-8 ends the round as
  in every chain game.
- Крест follows its source text (seeds/002): the tiles are shared out equally and the
  rest put away, as in Блиц, and the game starts with a double, the cross's centre.
  Every round opens so (`opening_every_round`): the holder of `0-0` or the nearest
  double opens with it (the text draws lots or counts out among several holders; here
  the youngest double starts, as in the first round of the other children's games).
  A double is always dealt: every tile is, but the one put away at three.
- Шестёрка is the common draw game (its text: «как и в традиционном домино»): one tile
  a turn, 7 tiles each for two, 5 for three or four (4 for five), draw until one fits
  (C-6), knock with nothing to draw (C-7).
- The first round is opened by `0-0` or the nearest double, else the lowest tile
  (`Opening.LOWEST_DOUBLE`, as B-1: the youngest double starts, as families play it);
  a later round, but in Крест, by its winner, with any tile (as T-2).
- Scoring is Классика's (T-4, T-5: the winner writes the pips left in the others'
  hands, a fish the lowest hand), points are good and the first to 100 wins: a
  children's game scored the way grown-ups in the same room score theirs. No special
  values: the `0-0` left alone counts 0 and a `6-6` left counts 12.

Втемную follows the source text the spec names it from (seeds/002): 2 players 7 tiles,
3 or 4 players 5, the rest a bazaar; the tiles stay face down in a stack nobody looks
at; who starts is drawn by lot; on a turn the player turns up the top tile and lays it
if it fits, else puts it under the stack and takes a bazaar tile face down on top; with
three tiles left the player turns them up and from the next turn lays one, two or three
in a row; the first to lay all tiles wins, and so does the one whose tile made the fish.
The choices where the text is silent:

- The bot turns the tile for you (`Flip`, the seat's only move while its tiles lie face
  down) and lays it on the open end it fits. A tile that fits both ends waits for its
  owner to choose one (`flip_choice`, the text's reading: once turned up it is the
  player's to lay, «выкладывают на поле»; `TurnedUp`, then a `Play`;
  `domino.round.Round._flip`); a ruleset without the option (a game stored before it)
  lays it on the first, LEFT before RIGHT.
- The opening tile is the first leader's top tile (any tile opens); a later round is
  opened by the last round's winner the same way.
- A line, not the text's optional cross.
- The turned-up tiles are shown to their owner only, as a hand in the other games; the
  others see how many there are. From then on the owner plays as in Блиц: any number of
  tiles a turn, draw until one fits (C-6) while the bazaar has tiles, else knock (C-7).
- Scoring is Классика's to 100, except that a fish is won by its fisherman (the text's
  rule), who writes the others' pips as if going out (`score_dark_round`). No C-11
  redeal: nobody sees the hand it would spare.
"""

from __future__ import annotations

from domino.rules import LayoutKind, Opening, RoundEnd, Ruleset, Scoring, Variant
from domino.scoring import side_totals, written_result
from domino.views import RoundResult

BLITZ = Ruleset(
    variant=Variant.BLITZ,
    scoring=Scoring.CLASSIC,
    opening=Opening.LOWEST_DOUBLE,
    layout=LayoutKind.LINE,
    hand_sizes={2: 14, 3: 9, 4: 7},
    bazaar_reserve=1,
    redeal_doubles=0,
    target=100,
    open_threshold=0,
    lone_blank=0,
    lone_blank_on_fish=False,
)
"""Блиц's default options: all 28 tiles shared out equally (2 players 14 each, 4 players
7); with three, 9 each and the one tile left lies face down for the whole round (it is
the bazaar's reserve: nobody draws it), so with nothing that fits a player knocks. A
hand of 14 often holds five doubles, so C-11's redeal is off."""

CROSS = BLITZ.with_options(
    variant=Variant.CROSS,
    layout=LayoutKind.FIRST_DOUBLE,
    opening_every_round=True,
)
"""Крест's default options: Блиц's deal (every tile shared out, no bazaar; at three the
tile left over lies face down all round); every round opens with the youngest double
dealt, which is the cross's centre, open on four sides once its left and right are
taken (F-2's spinner, `LayoutKind.FIRST_DOUBLE`)."""

SHESTERKA = Ruleset(
    variant=Variant.SHESTERKA,
    scoring=Scoring.CLASSIC,
    opening=Opening.LOWEST_DOUBLE,
    layout=LayoutKind.SUM_SIX,
    hand_sizes={2: 7, 3: 5, 4: 5, 5: 4},
    target=100,
    open_threshold=0,
    lone_blank=0,
    lone_blank_on_fish=False,
)
"""Шестёрка's default options: 7 tiles each for two, 5 for three or four (4 for five, as
Классика's fifth player), the rest a bazaar; a line whose touching halves add up to 6
(after 0-0 opens, only a tile with a 6 fits)."""

DARK = Ruleset(
    variant=Variant.DARK,
    scoring=Scoring.CLASSIC,
    opening=Opening.RANDOM_LEADER,
    layout=LayoutKind.LINE,
    hand_sizes={2: 7, 3: 5, 4: 5},
    redeal_doubles=0,
    target=100,
    open_threshold=0,
    lone_blank=0,
    lone_blank_on_fish=False,
    flip_choice=True,
)
"""Втемную's default options: 7 tiles each for two, 5 for three or four, the rest a
bazaar; the first leader drawn by lot; a line; a tile turned up that fits both ends is
laid on the end its owner chooses (`flip_choice`; a game stored before the option has
none in its ruleset and lays it on the first end, as it was dealt under)."""


def score_dark_round(end: RoundEnd) -> RoundResult:
    """Втемную's round: the side of the seat that went out, or of the fisherman whose
    tile made the fish, writes the other sides' pips (T-4's count; see the module's
    docstring)."""
    totals = side_totals(end.values, end.sides)
    winner = next(index for index, seats in enumerate(end.sides) if end.outcome.seat in seats)
    points = [0] * len(end.sides)
    points[winner] = sum(totals) - totals[winner]
    return written_result(end.round_no, end.outcome, end.before, points)
