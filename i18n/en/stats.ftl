### /top, /stats, /history and the score sheets.
### In English.

top-title = 🏆 <b>“{ $chat }” leaderboard</b> · { $game } · page { $page }/{ $pages }
top-pairs_title = 🏆 <b>“{ $chat }” pairs</b> · { $game } · page { $page }/{ $pages }
top-col_name = Player
top-col_pair = Pair
top-col_rating = Rating
top-col_elo = Elo
top-col_matches = Games
top-col_losses-kozel = Goat
top-col_safe-kozel = Safe
top-col_losses-osel = Donkey
top-col_safe-osel = Safe
top-col_wins = Won
top-col_win_share = Won %
# $game: the game's key. A blocked round is a “fish” in the Russian games and a block
# in the games that score during play (All Fives, Threes and Fives, Bergen, Doubles).
top-col_fish = { $game ->
    [all_fives] Blocks
    [threes_and_fives] Blocks
    [bergen] Blocks
    [dubli] Blocks
   *[other] Fish
}
top-col_avg = Avg
# $game: the game's key (see top-col_fish).
top-legend = <i>Rating — points earned by matches (not the points scored in them); Elo — from matches without computers. Games — matches played, { $outcome }, { $game ->
    [all_fives] Blocks — rounds they blocked
    [threes_and_fives] Blocks — rounds they blocked
    [bergen] Blocks — rounds they blocked
    [dubli] Blocks — rounds they blocked
   *[other] Fish — rounds they ended in a fish
}, Avg — average final score.</i>
top-legend_losses-kozel = Goat — times the goat, Safe — share of matches not the goat
top-legend_losses-osel = Donkey — times the donkey, Safe — share of matches not the donkey
top-legend_wins = Won — matches won (first place), Won % — share of matches won
top-pairs_legend = <i>A pair is the same two people in team play, whatever their seats. Rating — points earned by matches, Games — matches played, { $outcome }, Avg — average final score.</i>
top-empty = 🏆 { $game }: nobody is on this group's leaderboard yet. Play a match with /domino, and everyone who plays it gets on the board.
top-pairs_empty = 👥 { $game }: no team matches (four players, two against two) here yet.
top-private = Leaderboards belong to groups: send /top in a group where you play. Your stats across all groups: /stats

# A day: $day and $month as numbers, $year; also $dd, $mm with two digits each.
stats-date = { $day } { $month ->
    [1] Jan
    [2] Feb
    [3] Mar
    [4] Apr
    [5] May
    [6] Jun
    [7] Jul
    [8] Aug
    [9] Sep
    [10] Oct
    [11] Nov
   *[12] Dec
} { $year }
stats-title_group = 📊 <b>{ $name }</b> in “{ $chat }” · { $game }
stats-title_all = 📊 <b>{ $name }</b> across all groups · { $game }
stats-matches = Matches: { $n } · Rating: { $rating } · Elo: { $elo }
stats-losses-kozel = 🐐 The goat in { $n } { $n ->
    [one] match
   *[other] matches
} ({ $share })
stats-losses-osel = 🐴 The donkey in { $n } { $n ->
    [one] match
   *[other] matches
} ({ $share })
stats-wins = 🏆 Won { $n } { $n ->
    [one] match
   *[other] matches
} ({ $share })
stats-went_out = 🏁 Went out: { $n }
# $game: the game's key (see top-col_fish).
stats-draws = 🤝 Draws: { $n }
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
stats-only_match = 📋 Only match: final score { $points }, { $date } (rating +{ $gain })
stats-best_and_worst = 👍👎 Every match earned +{ $gain } rating; the latest: final score { $points }, { $date }
stats-streak_good-kozel = 🔥 Not the goat in any of the last { $n } { $n ->
    [one] match
   *[other] matches
}
stats-streak_bad-kozel = 🐐 The goat in each of the last { $n } { $n ->
    [one] match
   *[other] matches
}
stats-streak_good-osel = 🔥 Not the donkey in any of the last { $n } { $n ->
    [one] match
   *[other] matches
}
stats-streak_bad-osel = 🐴 The donkey in each of the last { $n } { $n ->
    [one] match
   *[other] matches
}
stats-streak_wins = 🔥 { $n } { $n ->
    [one] win
   *[other] wins
} in a row
stats-streak_no_wins = No win in the last { $n } { $n ->
    [one] match
   *[other] matches
}
stats-mark-kozel = 🐐
stats-mark-osel = 🐴
stats-mark_winner = 🏆
stats-none_group = 📊 { $name }: no recorded matches in this group yet. Play one: /domino
stats-none_all = 📊 { $name }: no recorded matches yet. Add me to a group and send /domino there.

history-title = 📜 <b>Matches in “{ $chat }”</b> · { $game } · page { $page }/{ $pages }
history-entry = <b>#{ $n }</b> · { $date } · { $ending } · { $rounds } { $rounds ->
    [one] round
   *[other] rounds
}
history-hint = <i>A 📋 button with a match's number opens its round-by-round score sheet.</i>
history-empty = 📜 { $game }: no recorded matches here yet. Play one with /domino, and it appears in the history.
history-private = Match history belongs to groups: send /history in a group.

sheet-title = 📋 <b>Match #{ $n }</b> · { $variant }, game to { $target } · { $date } · { $ending }
sheet-player = { $name }{ $goat }: final score { $points }, rating { $gain }
# A computer player: it has no rating.
sheet-computer = { $name }{ $goat }: final score { $points }
# The labels of a round's two rows: its points, and each side's score after it.
sheet-row_points = round
sheet-row_totals = total
# A round's line: its number and how it ended ($outcome: one of the next texts).
sheet-round = Round { $n } · { $outcome }
sheet-went_out = { $name } went out
# $game: the game's key (see top-col_fish).
sheet-fish = { $game ->
    [all_fives] blocked by { $name }
    [threes_and_fives] blocked by { $name }
    [bergen] blocked by { $name }
    [dubli] blocked by { $name }
   *[other] fish, fisherman: { $name }
}
# F-6: a move took the score to the target, and the round stopped there.
sheet-reached = target reached by { $name }
# M-4: the last round's last tile, 0-0, decided the match.
sheet-last_tile-sea_kozel = naked goat: { $name } went out on the double blank
# A round nobody scored in, said instead of its points: a draw; M-1: too few to write.
sheet-draw = a draw, nobody scores
sheet-too_few = under { $n }, not written
sheet-eggs = eggs +{ $n } carried to the next round
sheet-cut = { $n ->
        [one] The first round did not fit in one message; the latest follow.
       *[other] The first { $n } rounds did not fit in one message; the latest follow.
    }
sheet-legend_13 = <i>Points before the account is open are only remembered and count later.</i>
sheet-legend_in_play = <i>A round's points are those of its moves and of its end; “target reached”: a move took the score to the target, and the round was not played on.</i>

stats-hints = 💡 { $n } { $n ->
    [one] hint
   *[other] hints
} taken
