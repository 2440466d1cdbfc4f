### The table in the group, the hand in the private chat, the announcements.
### In English.

table-title = <b>{ $variant }</b> · round { $n }
table-turn = To move: <b>{ $name }</b>
table-over = The match is over.
table-team_score = { "   " }pair { $names }: { $score }
table-bazaar = boneyard: { $n }
table-ends = ends: { $ends }
# Sixes: an end and the half that makes 6 with it (a tile with that half goes there).
table-end_wanted = { $pip } (takes a { $wanted })
# F-3, in games that score the sum of the open ends: each end as it counts (“6+6”: a
# double across an end counts both halves) and their sum, $count.
table-ends_sum = open ends: { $ends } = { $count }
# An arm of the spinner with no tile yet: open, but it adds nothing to the sum.
table-end_uncounted = { $pip } — nothing on it yet (0)
# The last few moves, oldest first, joined by arrows.
table-recent = Last moves: { $moves }
# $n: the tiles a player holds, in the table's caption.
table-tiles = { $n } { $n ->
    [one] tile
   *[other] tiles
}
# In the Dark: a player's tiles while they lie face down, in the table's caption.
table-face_down = { $tiles } face down

event-played = { $name } plays a tile
# A knock by game: "knock", or "pass" where there is no boneyard to draw from.
event-knocked-kozel = { $name } knocks
event-knocked-classic = { $name } knocks
event-knocked-sea_kozel = { $name } knocks
event-knocked-osel = { $name } knocks
event-knocked-sport = { $name } passes
event-knocked-all_fives = { $name } knocks
event-knocked-threes_and_fives = { $name } knocks
event-knocked-bergen = { $name } knocks
event-knocked-dubli = { $name } knocks
event-knocked-blitz = { $name } knocks
event-knocked-cross = { $name } knocks
event-knocked-shesterka = { $name } knocks
event-knocked-dark = { $name } knocks
# A play that scored during the game (F-3): the points it made, never the tile.
event-scored = { $name } plays a tile: +{ $points }
# $n: the doubles laid in one turn (2 to 4).
event-doubles = { $name } lays { $n } { $n ->
    [one] double
   *[other] doubles
}
# $n: the tiles one player laid in one turn (Blitz, Cross: any number a turn; 2 and more).
event-tiles = { $name } plays { $n } { $n ->
    [one] tile
   *[other] tiles
}
# A turn of several tiles ended with “✔️ End turn”, when its tiles are not in the caption.
event-ended = { $name } ends the turn
event-closed = { $name } closes an end

# $n: the ends closed by a face-down double.
table-closed = 🔒 { $n ->
    [one] { $n } end closed
   *[other] { $n } ends closed
}
table-turned = 🎴 The turned tiles (in the picture) decide who leads: { $name } does.

event-drew = { $name } draws
# In the Dark: the tile turned up from a face-down stack fitted no end and went under the
# stack; _drew: a boneyard tile went face down on top. (A tile that fits is event-played.)
event-flipped = { $name } turns up { $tile }: it does not fit and goes under the stack
event-flipped_drew = { $name } turns up { $tile }: it does not fit and goes under the stack, a boneyard tile on top
# In the Dark: the tile turned up fits both ends; its owner chooses the end (the play follows).
event-flip_choice = { $name } turns up { $tile }, which fits both ends, and picks the end
# The same move made $n times in a row: “Bob draws ×3”.
event-repeated = { $move } ×{ $n }

table-cancelled = ✖️ The game was cancelled.

hand-cancelled = ✖️ The game was cancelled.
hand-title = 🎲 <b>{ $variant }</b> in “{ $chat }” · round { $n }
hand-your_turn = <b>Your turn!</b>
# At a table of two: the one opponent named.
hand-waiting_for = Waiting for { $name }; the table is in the group.
# The same on the hand shown inside the group (the table is right there).
hand-waiting_for_here = Waiting for { $name }.
hand-waiting = Waiting for the others; the table is in the group. Press a tile to see whose turn it is.
hand-waiting_here = Waiting for the others. Press a tile to see whose turn it is.
# In the Dark: the same while the player's tiles lie face down (the one button is the stack).
hand-waiting_face_down = Waiting for the others; the table is in the group. Press your stack to see whose turn it is.
hand-waiting_face_down_here = Waiting for the others. Press your stack to see whose turn it is.
hand-over = The match is over.
hand-drew = You drew: { $tiles }
hand-empty_table = The table is empty.
# The tiles each other player holds: «Маша — 2»; $n: how many opponents.
hand-partner = Partner's tiles: { $partner }
hand-others = { $n ->
    [one] Opponent's
   *[other] Opponents'
} tiles: { $others }
hand-your_partner = 🤝 Your partner: { $name }
hand-partner_turn = Waiting for your partner, { $name }; the table is in the group.
hand-partner_turn_here = Waiting for your partner, { $name }.
hand-scores = Score: { $scores }
# In the Dark: $n tiles in the player's face-down stack; $up: how many are left when it turns up.
hand-face_down = ⬛ Your tiles lie face down: { $n } { $n ->
    [one] tile
   *[other] tiles
}. Nobody sees them, not even you; when { $up } are left, they are turned up.
hand-flip = Press “⬛ Turn up the top tile”: if it fits, it goes on the table; if not, under your stack.
# The same while the boneyard has tiles: one of them then goes face down on top.
hand-flip_bazaar = Press “⬛ Turn up the top tile”: if it fits, it goes on the table; if not, under your stack, and a boneyard tile goes on top.
# In the Dark: the tile the player turned up fits both ends (everyone saw it): they choose one.
hand-flip_choice = You turned up { $tile }: it fits both ends. Choose the end to lay it on.
# In the Dark: on the player's turn once their last tiles are turned up.
hand-turned_up = ⬛ Your tiles are turned up: you may play several in one turn.
# $n: the tiles the player laid so far in the turn in progress (Blitz, Cross).
hand-mid_turn = You have played { $n } { $n ->
    [one] tile
   *[other] tiles
} this turn. Play another or press “✔️ End turn”.

announce-went_out = 🏁 Round { $n }: domino! { $name } went out.
# $game: the game's key. A blocked round is a “fish” in the Russian games and a block
# in the games that score during play (All Fives, Threes and Fives, Bergen, Doubles).
announce-fish = { $game ->
    [all_fives] 🧱 Round { $n }: blocked! Nobody can move; { $name } laid the last tile.
    [threes_and_fives] 🧱 Round { $n }: blocked! Nobody can move; { $name } laid the last tile.
    [bergen] 🧱 Round { $n }: blocked! Nobody can move; { $name } laid the last tile.
    [dubli] 🧱 Round { $n }: blocked! Nobody can move; { $name } laid the last tile.
   *[other] 🐟 Round { $n }: fish! The fisherman is { $name }.
}
# F-6: a move brought a side to the match's target; the round is not played on.
announce-reached = 🎯 Round { $n }: { $name } reaches { $points } { $points ->
        [one] point
       *[other] points
    } — a win! The round stops here.
# A side of two in a sentence: «пара Маша + Вика».
announce-pair = the pair { $names }
# Games that score during play (F-3): each side's points in the round, play and end together.
announce-round_points = ✍️ Points this round: { $points }
announce-eggs = 🥚 Eggs: { $points } { $points ->
        [one] point carries
       *[other] points carry
    } over to the next round.
announce-eggs_taken = 🥚 { $name } takes the eggs ({ $points }).
announce-loser-kozel = 🐐 The goat is { $names }
announce-loser-osel = 🐴 The donkey is { $names }
announce-last_tile-sea_kozel = 🐐 Naked goat! { $name } goes out on the double blank and wins the match at once.
announce-draw = 🤝 A draw: nobody scores.
announce-too_few = ✍️ A win of fewer than { $points } { $points ->
        [one] point
       *[other] points
    } is not written.
# $n: how many people the winning sides are.
announce-winner = 🏆 { $n ->
        [one] The winner is
       *[other] The winners are
    } { $names }
# The score sheet's legend under a round's picture while an account is not open (K-7):
# “+N” on the sheet is remembered, not yet recorded. $threshold: the points that open it.
announce-remembered = <i>“+N”: points remembered but not yet recorded; scoring opens at { $threshold } { $threshold ->
        [one] point
       *[other] points
    }.</i>

hand-moved = Your hand moved below ⬇️
hand-you_left = You left this game. A computer player took your seat.
hand-no_game = You are not in a game. Start one in a group: /domino

table-surrendered = 🏳 { $name } gave up.

hand-surrendered = 🏳 { $name } gave up.
# The turn's time left, rounded up, so that it stays true until the next edit (no
# countdown: Telegram would need an edit a second); $time: clock-minutes or clock-seconds.
hand-time_left = ⏱ Time to move: up to { $time }
clock-minutes = { $n } { $n ->
        [one] minute
       *[other] minutes
    }
clock-seconds = { $n } { $n ->
        [one] second
       *[other] seconds
    }
# $s: the seconds left at the warning, rounded up (the warning comes at most 15 s before).
hand-time_warning = ⏳ <b>At most { $s } { $s ->
        [one] second
       *[other] seconds
    } left!</b> Then a computer moves for you.
hand-strikes = ⏰ Your time ran out { $n } { $n ->
        [one] time
       *[other] times
    } out of { $limit }; a computer moved for you.
hand-away = 🤖 A computer is playing for you. To play yourself again, press “I'm back”.

table-time_warning = ⏳ { $name }: at most { $s } { $s ->
        [one] second
       *[other] seconds
    } to move

# “🔔 Your turn” inside the group, to the person alone (their hand is in the group).
notice-turn_in_group = 🔔 Your turn
