### /top, /stats, /history and the score sheets.
### In English.

top-title = 🏆 <b>Leaderboard of “{ $chat }”</b> · { $game } · page { $page }/{ $pages }
top-pairs_title = 🏆 <b>Pairs of “{ $chat }”</b> · { $game } · page { $page }/{ $pages }
top-col_name = Player
top-col_pair = Pair
top-col_rating = Rtg
top-col_elo = Elo
top-col_matches = Games
top-col_losses-kozel = Goat
top-col_safe-kozel = Safe
top-col_losses-osel = Donk
top-col_safe-osel = Safe
top-col_wins = Won
top-col_win_share = Won %
# $game: the game's key. A blocked round is a «fish» in the Russian games and a block
# in the games that score during play (All Fives, Threes and Fives, Bergen, Doubles).
top-col_fish = { $game ->
    [all_fives] Blk
    [threes_and_fives] Blk
    [bergen] Blk
    [dubli] Blk
   *[other] Fish
}
top-col_avg = Avg
# $game: the game's key (see top-col_fish).
top-legend = <i>Rtg — the rating earned by matches (not match points); Elo — from matches without computers. Games — matches played, { $outcome }, { $game ->
    [all_fives] Blk — rounds blocked
    [threes_and_fives] Blk — rounds blocked
    [bergen] Blk — rounds blocked
    [dubli] Blk — rounds blocked
   *[other] Fish — fish made
}, Avg — average final points.</i>
top-legend_losses-kozel = Goat — times the goat, Safe — share of matches not the goat
top-legend_losses-osel = Donk — times the donkey, Safe — share of matches not the donkey
top-legend_wins = Won — matches won (first place), Won % — their share
top-pairs_legend = <i>A pair is the same two people in team play, whatever their seats. Rtg — the rating earned by matches, Games — matches played, { $outcome }, Avg — average final points.</i>
top-empty = 🏆 { $game }: no matches played in this group yet. Start one: /domino
top-pairs_empty = 👥 { $game }: no team matches (four players, 2×2) here yet.
top-private = Leaderboards belong to groups: send /top in a group where you play. Your stats across all groups: /stats

stats-title_group = 📊 <b>{ $name }</b> in “{ $chat }” · { $game }
stats-title_all = 📊 <b>{ $name }</b> across all groups · { $game }
stats-matches = Matches: { $n } · rating: { $rating } · Elo: { $elo }
stats-losses-kozel = 🐐 The goat { $n } { $n ->
    [one] time
   *[other] times
} ({ $share } of matches)
stats-losses-osel = 🐴 The donkey { $n } { $n ->
    [one] time
   *[other] times
} ({ $share } of matches)
stats-wins = 🏆 { $n } { $n ->
    [one] win
   *[other] wins
} ({ $share } of matches)
stats-went_out = 🏁 Domino: { $n } { $n ->
    [one] time
   *[other] times
}
# $game: the game's key (see top-col_fish).
stats-fish = { $game ->
    [all_fives] 🧱 Rounds blocked: { $n }
    [threes_and_fives] 🧱 Rounds blocked: { $n }
    [bergen] 🧱 Rounds blocked: { $n }
    [dubli] 🧱 Rounds blocked: { $n }
   *[other] 🐟 Fish made: { $n }
}
# Only to a player who has taken eggs: most games have none.
stats-eggs = 🥚 Eggs taken: { $n }
stats-best = 👍 Best match: final score { $points }, { $date } (rating +{ $gain })
stats-worst = 👎 Worst match: final score { $points }, { $date } (rating +{ $gain })
stats-only_match = 📋 The only match: final score { $points }, { $date } (rating +{ $gain })
stats-best_and_worst = 👍👎 Every match rated +{ $gain }; the latest: final score { $points }, { $date }
stats-streak_good-kozel = 🔥 Not the goat { $n } { $n ->
    [one] match
   *[other] matches
} in a row
stats-streak_bad-kozel = 🐐 The goat { $n } { $n ->
    [one] match
   *[other] matches
} in a row
stats-streak_good-osel = 🔥 Not the donkey { $n } { $n ->
    [one] match
   *[other] matches
} in a row
stats-streak_bad-osel = 🐴 The donkey { $n } { $n ->
    [one] match
   *[other] matches
} in a row
stats-streak_wins = 🔥 { $n } { $n ->
    [one] win
   *[other] wins
} in a row
stats-streak_no_wins = No win in { $n } { $n ->
    [one] match
   *[other] matches
} in a row
stats-mark-kozel = 🐐
stats-mark-osel = 🐴
stats-mark_winner = 🏆
stats-none_group = 📊 { $name }: no recorded matches in this group yet. Play one: /domino
stats-none_all = 📊 { $name }: no recorded matches yet. Add me to a group and send /domino there.

history-title = 📜 <b>Matches in “{ $chat }”</b> · { $game } · page { $page }/{ $pages }
history-entry = <b>{ $n }.</b> { $date } · { $ending } · { $rounds } { $rounds ->
    [one] round
   *[other] rounds
}
history-hint = <i>A numbered button opens that match's round-by-round score sheet.</i>
history-empty = 📜 { $game }: no matches played here yet. Start one: /domino
history-private = Match history belongs to groups: send /history in a group.

sheet-title = 📋 <b>Match #{ $id }</b> · { $variant } to { $target } · { $date } · { $ending }
sheet-player = { $seat }. { $name }{ $goat }: final score { $points }
sheet-col_round = R
sheet-col_outcome = Result
sheet-went_out = domino { $seat }
# $game: the game's key (see top-col_fish).
sheet-fish = { $game ->
    [all_fives] block
    [threes_and_fives] block
    [bergen] block
    [dubli] block
   *[other] fish
} { $seat }
sheet-reached = goal { $seat }
sheet-eggs = eggs +{ $n } carried
sheet-cut = { $n ->
        [one] The first round did not fit in one message; the latest follow.
       *[other] The first { $n } rounds did not fit in one message; the latest follow.
    }
# $game: the game's key (see top-col_fish).
sheet-legend = <i>“domino N”: player N laid all their tiles; { $game ->
    [all_fives] “block N”: nobody could move, player N laid the last tile
    [threes_and_fives] “block N”: nobody could move, player N laid the last tile
    [bergen] “block N”: nobody could move, player N laid the last tile
    [dubli] “block N”: nobody could move, player N laid the last tile
   *[other] “fish N”: a fish, player N the fisherman
}. A round's line holds its points, the line below the score after it.</i>
sheet-legend_13 = <i>Points before the account is open are only remembered and count later.</i>
sheet-legend_in_play = <i>A round's points are those of its moves and of its end. “goal N”: a move of player N reached the target, and the round was not played on.</i>

stats-hints = 💡 { $n } { $n ->
    [one] hint
   *[other] hints
}
