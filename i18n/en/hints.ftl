### «💡 Подсказка»: the computer's choice for a turn, to the presser only.
### In English.

# $move: the move as the hand's buttons name it («5|5 on ⬅️ 3»); $reason: one of hint-reason-*.
hint-shown = 💡 { $move } — { $reason }
hint-move_only = 💡 { $move }
hint-reason-only = there is no other move
hint-reason-go_out = your last tile, and the round is yours
hint-reason-double = a double is best laid early
hint-reason-heavy = shed the heavy tile: points left in hand count
hint-reason-keep_suits = keeps tiles in hand that answer the ends
hint-reason-block = leaves the ends on a suit an opponent lacks
hint-reason-block_leader = makes it harder for the side in the lead
# $game: the game's key (see top-col_fish).
hint-reason-fish_win = { $game ->
    [all_fives] blocks the game, and the count favours you
    [threes_and_fives] blocks the game, and the count favours you
    [bergen] blocks the game, and the count favours you
    [dubli] blocks the game, and the count favours you
   *[other] a fish, and the count favours you
}
hint-reason-avoid_fish = { $game ->
    [all_fives] keeps the table open: a block now would go against you
    [threes_and_fives] keeps the table open: a block now would go against you
    [bergen] keeps the table open: a block now would go against you
    [dubli] keeps the table open: a block now would go against you
   *[other] keeps the table open: a fish now would go against you
}
hint-reason-draw = no tile in your hand fits
hint-reason-knock = no tile fits and nothing to draw
hint-reason-close = a closed end hurts the opponents more than you
# Games that score during play: $points, what the move scores now.
hint-reason-scores = the move scores { $points } { $points ->
    [one] point
   *[other] points
} at once
hint-reason-safe_ends = leaves ends on which the next player can hardly score
# $worlds: the deals of the unseen tiles played out; $chance: in %, the chance to end the match
# last where points are bad (козёл, осёл), else to win it; $game: the game's key.
hint-reason-search = the best move over { $worlds } { $worlds ->
    [one] deal
   *[other] deals
} of the unseen tiles played out; { $game ->
    [kozel] chance of ending up the goat
    [osel] chance of ending up the donkey
   *[other] chance to win the match
}: { $chance }%
# «✔️ End turn» advised for a reason that speaks of a tile laid: why the turn ends here.
hint-end_turn = the other tiles are better kept for later turns

hints-on = on
hints-off = off
