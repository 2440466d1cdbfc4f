### The words of the pictures: the table, the round's end and the score sheet.
### In English.
### A picture has no room for HTML: plain text only. Spaces at a text's start or end are
### written as { " " }, since Fluent drops them otherwise.

picture-round = Round
picture-pairs = pairs
picture-pair = pair
picture-bazaar = boneyard
picture-turn = to move
picture-face_up = turned up
picture-turn_of = to move: { $name }
picture-win = winner
picture-winner = Winner: { $names }
picture-went_out = went out
picture-went_out_of = { $name } went out
picture-went_out_by = { $name } went out
# A blocked round (C-8 b): a block in the games that score in play, as the bot's texts
# call it there; $game: the game's key.
picture-fisherman = { $game ->
    [all_fives] block
    [threes_and_fives] block
    [bergen] block
    [dubli] block
   *[other] fisherman
}
picture-fish_of = { $game ->
    [all_fives] blocked by { $name }
    [threes_and_fives] blocked by { $name }
    [bergen] blocked by { $name }
    [dubli] blocked by { $name }
   *[other] fish, fisherman: { $name }
}
picture-fish_by = { $game ->
    [all_fives] blocked by { $name }
    [threes_and_fives] blocked by { $name }
    [bergen] blocked by { $name }
    [dubli] blocked by { $name }
   *[other] fish, fisherman — { $name }
}
picture-draw = draw
# M-1: the round's winner writes only from $n up.
picture-too_few = under { $n }: not scored
picture-empty = no tiles yet: first move
picture-over = Match over
picture-results = Round { $n } · results
picture-round_of = Round { $n }:{ " " }
picture-score = Score · round { $n }
# The score sheet's columns: the accounts before the round, its points, after it.
picture-before = before
picture-points = round
picture-after = after
picture-player = player
picture-to = { $game } · playing to { $target }
picture-eggs_next = +{ $n } carried to the next round
picture-eggs_taken = +{ $n } taken by { $name }
# S-2: each player's card shows the tile they turned up.
picture-turned = the turned tiles decide who leads
# Joins the two names of a pair: “Masha and Olya”.
picture-and = { " and " }
# The letters of the pairs, in order.
picture-teams = AB
# A name with nothing drawable in it, by its seat.
picture-player_n = Player { $n }
picture-no_tiles = no tiles left
# F-6: the verb of a side that reached the target: one player, a pair.
picture-reaches = reaches
picture-reach = reach
picture-reached_of = { $name } { $verb } { $score } — match over
picture-reached_by = { $name } { $verb } { $score }
picture-reached = { $verb } { $score }
# F-3: a side's round points, scored by the moves and by the round's end.
picture-in_play = during play +{ $n }
picture-at_end = at the end +{ $n }
# B-1, B-2: the doubles a hand has left at the round's end.
picture-doubles_left = { $n ->
    [0] no doubles
    [one] { $n } double
   *[other] { $n } doubles
}
picture-scored = +{ $n } { $name }
picture-ends = open ends: { $n }
# The loser of a match in the game's own word (K-10, O-6), else plainly a loss.
picture-loser = { $game ->
    [kozel] Goat
    [osel] Donkey
   *[other] Loss
}

# The games' names as the pictures show them: short, without the bot's gloss.
picture-game-kozel = Kozel
picture-game-classic = { variant-classic }
picture-game-sea_kozel = Sea Kozel
picture-game-osel = Osel
picture-game-sport = { variant-sport }
picture-game-all_fives = { variant-all_fives }
picture-game-threes_and_fives = { variant-threes_and_fives }
picture-game-bergen = { variant-bergen }
picture-game-dubli = Doubles
picture-game-blitz = { variant-blitz }
picture-game-cross = { variant-cross }
picture-game-shesterka = { variant-shesterka }
picture-game-dark = { variant-dark }

# Tournament standings
# The columns' headings. An entrant is a person, a pair or a
# computer; “wins” counts the first places at a table (a match won).
picture-standings-place = place
picture-standings-entrant = entrant
picture-standings-points = points
picture-standings-played = played
picture-standings-firsts = wins
