### «💡 Подсказка»: the computer's choice for a turn, to the presser only.
### In English.

# $move: the move as the hand's buttons name it (“5|5 on ⬅️ 3”); $reason: one of hint-reason-*.
hint-shown = 💡 { $move } — { $reason }
hint-move_only = 💡 { $move }
hint-reason-only = there is no other move
hint-reason-go_out = your last tile, and the round is yours
hint-reason-double = a double is best laid early
# Where the pips left in hand are the holder's own points (Козёл, Осёл).
hint-reason-heavy = shed the heavy tile: the points left in your hand are written to you
# Where the round's winner writes them (Классика, Морской козёл, Спортивное, All Fives…).
hint-reason-heavy_to_winner = shed the heavy tile: the points left in your hand go to whoever wins the round
hint-reason-keep_suits = keeps tiles in hand that answer the ends
hint-reason-block = leaves ends an opponent will find harder to follow
hint-reason-block_leader = makes it harder for the side in the lead
# $game: the game's key (see top-col_fish).
hint-reason-fish_win = { $game ->
    [all_fives] blocks the game, in your favour
    [threes_and_fives] blocks the game, in your favour
    [bergen] blocks the game, in your favour
    [dubli] blocks the game, in your favour
   *[other] a fish, in your favour
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
# The search chose another move than the simple rules would: it did best when the
# others' tiles were dealt at random many times and played out. No figures (issue 33).
hint-reason-search = this move does best when the unseen tiles are dealt at random and played out
# Only when the play-outs support it well ($game: the game's key; where points are bad, not
# ending up last).
hint-reason-search_likely = { $game ->
    [kozel] with this move you will most likely not end up the goat
    [osel] with this move you will most likely not end up the donkey
   *[other] with this move the match is most likely yours
}
# “✔️ End turn” advised for a reason that speaks of a tile laid: why the turn ends here.
hint-end_turn = the other tiles are better kept for later turns

hints-on = on
hints-off = off
