### English texts of the bot.
### Each message id is the key the code asks for with every "." written as "-":
### t("alert.foreign_game") reads `alert-foreign_game` here. Every language file has the
### same ids and the same variables ({ $name }); tests/bot/test_i18n.py checks it.
### Texts are Telegram HTML: keep the <b> and <i> tags, and write no other < or &
### (the values put in are escaped already).

## The domain's words (RULES.md: they must appear in the Russian UI exactly so).

variant-kozel = Kozel (Goat)
variant-classic = Classic
variant-sea_kozel = Sea Kozel (Sea Goat)
variant-osel = Osel (Donkey)
variant-sport = Sport dominoes
variant-all_fives = All Fives
variant-threes_and_fives = Threes and Fives
variant-bergen = Bergen
variant-dubli = Doubles (Dubli)
variant-blitz = Blitz
variant-cross = Cross
variant-shesterka = Sixes
variant-dark = In the Dark
term-fish = fish (blocked)
term-goat = goat
term-bazaar = boneyard
term-eggs = eggs
term-knock = knock
term-fisherman = fisherman
fish-each = each scores their own
fish-max_takes_all = all to the highest hand
fish-fisherman_takes_all = all to the fisherman
layout-first_double = first double
layout-spinner = opening double only

## The lobby.

lobby-title = 🁢 <b>Dominoes: { $variant }</b>
lobby-options = Players: { $seats } · game to { $target }
lobby-kozel_options = Fish: { $fish } · scoring opens at: { $threshold }
lobby-off = off
lobby-straight = 🌀 Spinner: only a double that opens the round; a round opened with any other tile is a single line
lobby-teams_on = Pairs: 2×2, partners opposite
lobby-teams_off = Every player for themselves
lobby-pairs = 🤝 Pairs: { $first } · { $second }
# S-7: the game's own turn times (domino.timing), in seconds.
lobby-sport_timing = ⏱ Turn times follow sport domino's rules: { $one }, { $several } or { $fish } s
lobby-players = <b>Players ({ $joined }/{ $wanted }):</b>
lobby-hint = Press “Join” to take a seat. Your tiles arrive in a private chat.
# Nobody seated yet: the creator is seated only once the bot may write to them in private.
lobby-nobody = Nobody is seated yet. Press “🙋 Join” to sit down, the game's creator too: only someone who already has a private chat with me is seated at once (the tiles go there).
btn-join = 🙋 Join
btn-leave = 🚪 Leave
btn-add_computer = 🤖 Add a computer player
btn-opt_game = 🎲 Game: { $game }
btn-opt_seats = 👥 Players: { $n }
btn-opt_target = 🎯 To { $n }
btn-opt_fish = 🐟 Fish: { $mode }
btn-opt_threshold = 🔓 Open at { $n }
btn-opt_spinner = 🌀 Spinner: { $layout }
btn-opt_teams_on = 🤝 Pairs: yes
btn-opt_teams_off = 🤝 Pairs: no
btn-start = ▶️ Start
btn-cancel = ✖️ Cancel
btn-cancel_yes = Yes, cancel the game
btn-cancel_no = No, play on

## The table in the group.

table-title = <b>{ $variant }</b> · round { $n }
table-turn = To move: <b>{ $name }</b>
table-over = The match is over.
table-team_score = { "   " }pair { $names }: { $score }
table-bazaar = boneyard: { $n }
table-ends = open ends: { $ends }
# Sixes: an end and the half that makes 6 with it (a tile with that half goes there).
table-end_wanted = { $pip } (takes a { $wanted })
# F-3, in games that score the sum of the open ends: each end as it counts («6+6»: a
# double across an end counts both halves) and their sum, $count.
table-ends_sum = open ends: { $ends } = { $count }
# An arm of the spinner with no tile yet: open, but it adds nothing to the sum.
table-end_uncounted = { $pip } (0)
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
# A turn of several tiles ended with «✔️ End turn», when its tiles are not in the caption.
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
# The same move made $n times in a row: «Bob draws ×3».
event-repeated = { $move } ×{ $n }
table-cancelled = ✖️ The game was cancelled.
lobby-closed_started = 🁢 <b>The game has started!</b> Players: { $names }
lobby-closed_cancelled = ✖️ The game was called off.

## The hand in the private chat.

hand-cancelled = ✖️ The game was cancelled.
btn-table = 🖼 The table in the group
btn-rematch = 🔁 Play again
hand-title = 🁢 <b>{ $variant }</b> in “{ $chat }” · round { $n }
hand-your_turn = <b>Your turn!</b>
# At a table of two: the one opponent named.
hand-waiting_for = { $name } is moving; the table is in the group.
hand-waiting = The others are moving; the table is in the group. Press a tile to see whose turn it is.
# In the Dark: the same while the player's tiles lie face down (the one button is the stack).
hand-waiting_face_down = The others are moving; the table is in the group. Press your stack to see whose turn it is.
hand-over = The match is over.
hand-drew = From the boneyard: { $tiles }
hand-empty_table = The table is empty.
# The tiles each other player holds: «Маша — 2»; $n: how many opponents.
hand-partner = Partner's tiles: { $partner }
hand-others = { $n ->
    [one] Opponent's
   *[other] Opponents'
} tiles: { $others }
hand-your_partner = 🤝 Your partner: { $name }
hand-partner_turn = Your partner { $name } is moving; the table is in the group.
hand-scores = Score: { $scores }
btn-end = { $tile } on { $end }
# A tile that scores differently on the ends it fits (F-3): the most it can make.
btn-points_up_to = up to +{ $points }
btn-back = ↩️ Back
btn-draw = 🎲 Draw
# $game: the game's key; a knock is a pass in Спортивное (S-3).
btn-knock = { $game ->
    [sport] 🤚 Pass
   *[other] ✊ Knock
}
# $n: how many doubles the game lets a player lay at once (M-3: 2, O-2: up to 4).
btn-choose_doubles = { $n ->
    [2] ⏩ Two doubles at once
   *[other] ⏩ Several doubles at once
}
btn-choose_close = 🔒 Close an end with a double
# Blitz, Cross: ends a turn of several tiles (a tile laid, another may follow).
btn-end_turn = ✔️ End turn
# In the Dark: the one move of a player whose tiles lie face down.
btn-flip = 🁢 Turn up the top tile
# In the Dark: the face-down stack in the hand, off turn (press: whose turn it is).
btn-face_down = 🁢 × { $n }
# In the Dark: $n tiles in the player's face-down stack; $up: how many are left when it turns up.
hand-face_down = 🁢 Your tiles lie face down: { $n } { $n ->
    [one] tile
   *[other] tiles
}. Nobody sees them, not even you; when { $up } are left, they are turned up.
hand-flip = Press “🁢 Turn up the top tile”: if it fits, it goes on the table; if not, under your stack.
# The same while the boneyard has tiles: one of them then goes face down on top.
hand-flip_bazaar = Press “🁢 Turn up the top tile”: if it fits, it goes on the table; if not, under your stack, and a boneyard tile goes on top.
# In the Dark: on the player's turn once their last tiles are turned up.
hand-turned_up = 🁢 Your tiles are turned up: a turn may lay several in a row.
# $n: the tiles the player laid so far in the turn in progress (Blitz, Cross).
hand-mid_turn = You have played { $n } { $n ->
    [one] tile
   *[other] tiles
} this turn. Play another or press “✔️ End turn”.
btn-close_end = 🔒 Close { $end } with { $tile }

## Announcements in the group.

announce-went_out = 🏁 Round { $n }: domino! { $name } is out.
# $game: the game's key. A blocked round is a «fish» in the Russian games and a block
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
announce-loser-osel = 🫏 The donkey is { $names }
announce-last_tile-sea_kozel = 🐐 Naked goat! { $name } goes out on the double blank and wins the match at once.
announce-draw = 🤝 A draw: nobody scores.
announce-too_few = ✍️ A win of fewer than { $points } { $points ->
        [one] point
       *[other] points
    } is not written.
announce-winner = 🏆 The winner is { $names }
# The score sheet's legend under a round's picture while an account is not open (K-7):
# «+N» on the sheet is remembered, not yet written. $threshold: the points that open it.
announce-remembered = <i>“+N”: points remembered but not yet written; scoring opens at { $threshold } { $threshold ->
        [one] point
       *[other] points
    }.</i>

## Answers to presses and commands.

answer-joined = You have a seat!
answer-left = You left the table.
answer-cancelled = The game is cancelled.
answer-computer_added = A computer player sits down.
answer-rematch_opened = A new game with the same rules: waiting for players.
answer-started = Off we go! Tiles are in your private chat.
answer-tile_does_not_fit = That tile does not fit now: the ones marked ✅ do.
# Sixes: a refused tile; $ends: what each end takes («4 takes a 2, 0 takes a 6»).
answer-tile_sum_six = It does not fit: touching halves add up to 6 — { $ends }. The ✅ tiles fit.
answer-end_takes = { $pip } takes a { $wanted }
# The first round opens with a fixed tile (the game's rules); $tile: that tile («1|1»),
# $kind: double when it is one of the doubles that open, else tile (nobody got one).
answer-opening-lowest_double = { $kind ->
    [double] The first move is the lowest double: { $tile }.
   *[tile] Nobody has a double: the first move is the lowest tile, { $tile }.
}
answer-opening-lowest_double_from_one = { $kind ->
    [double] The first move is the lowest double (the double blank comes last): { $tile }.
   *[tile] Nobody has a double: the first move is the highest tile, { $tile }.
}
answer-opening-highest_double = { $kind ->
    [double] The first move is the highest double: { $tile }.
   *[tile] The first move is the highest tile: { $tile }.
}
answer-choose_end = Which end?
answer-choose_doubles = Which doubles?
answer-choose_close = Which end to close?
alert-option_fixed = This game does not let you change that.
answer-drew = From the boneyard: { $tiles }
# In the Dark, after “🁢 Turn up the top tile” (never the tile: nobody may see a face-down stack).
answer-flip_laid = It fitted and is on the table.
answer-flip_turned_up = It fitted and is on the table. Your last tiles are turned up: they are in your hand.
answer-flip_under = No fit: the tile went under your stack.
answer-flip_under_drew = No fit: the tile went under your stack, and a boneyard tile went on top.
computer-name = 🤖 Computer { $n }
# A person a computer plays for: the name stays as it is, marked.
computer-instead = { $name } (🤖)
# Computer levels (issue 14): chosen per computer seat in the lobby.
level-easy = Easy
level-medium = Medium
level-hard = Strong
lobby-computer = { $name } · { $level }
btn-computer_level = { $name } · { $level }
answer-level_set = { $name }: { $level }
alert-not_a_computer = This button is out of date: that computer is no longer at the table.
lobby-already_open = A game is already gathering players in this chat: press “🙋 Join” under it.
lobby-already_running = A game is already running in this chat. Finish it or /cancel it.
lobby-you_play_elsewhere = You are already playing in “{ $chat }”. Finish there or /leave.
start-welcome =
    👋 Hi! I run domino games in group chats: Kozel, Classic, Sea Kozel, Osel, Sport dominoes, All Fives, Threes and Fives, Bergen, Doubles, Blitz, Cross, Sixes and In the Dark.
    Add me to a group and send /domino there (or name the game: /domino osel). Your tiles will arrive here.
    Rules: /rules · help: /help
start-joined = ✅ You have a seat in “{ $chat }”. Your tiles will arrive here once it starts.
start-already_joined = You already have a seat in “{ $chat }”.
start-back_in_game = Welcome back! You are in the game again: your hand and its buttons are in this chat.
leave-not_playing = You are not playing here right now.
leave-done = You left the game. A computer player took your seat.
hand-moved = Your hand moved below ⬇️
hand-you_left = You left this game. A computer player took your seat.
hand-no_game = You are not in a game. Start one in a group: /domino
cancel-nothing = There is no game to cancel here.
cancel-confirm = Cancel the current game? Its scores will not be kept.
cancel-confirm_lobby = Cancel the current game? The gathering of players closes.
cancel-confirm_counted = Cancel the current game? It counts all the same, as lost on time: the first to leave the match was { $name }.
cancel-kept = Playing on.
notice-left = 🚪 { $name } left the game; a computer player took the seat.
notice-unreachable = ⚠️ { $name }: I cannot write to you privately. Open a chat with @{ $bot } and press Start (or unblock the bot) to get your tiles.
notice-bot_removed = I was removed from “{ $chat }”, so the game there has stopped.
private-group_only = Games happen in groups: add me to a group and send /domino there.
private-cancel_in_group = Cancel a game in its group: /cancel
private-unknown_command = I do not know that command. Help: /help
private-help_hint =
    👋 I run domino matches in groups. To play, add me to a group with the button below and send /domino there; your tiles will come here.
    The rules: the “📖 Rules” button; every command: /help.
btn-add_to_group = ➕ Add to a group
btn-rules = 📖 Rules
group-hand_is_private = Your tiles are in your private chat with me.
btn-open_private = Open the private chat
rules-kozel =
    <b>Kozel (Goat)</b>: whoever first reaches { $target } { $target ->
        [one] point
       *[other] points
    } is the goat.
    • 2–4 players, 7 tiles each; the rest is the boneyard. Four may play in pairs.
    • The holder of 1|1 leads (else 2|2, … 6|6, 0|0).
    • Lay a tile on an end with the same number. If you can play, you must.
    • Cannot play: draw until a tile fits; boneyard empty: knock.
    • A round ends in a domino, when someone has laid all their tiles, or in a fish: nobody can play.
    • Points are the pips left in your hand (a lone 0|0 counts 10). Until your account is open, rounds under 13 are remembered (+N).
    • Fish: the player with the most points takes them all; a tie makes eggs that carry over.
rules-classic =
    <b>Classic</b>: whoever first reaches { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • 2–4 players: two get 7 tiles each, three or four get 5; the rest is the boneyard. Four may play in pairs.
    • The holder of 6|6 leads (else 5|5, … 0|0; with no doubles at all, the highest tile). The next round is led by the last round's winner, with any tile.
    • Lay a tile on an end with the same number. If you can play, you must.
    • Cannot play: draw until a tile fits; boneyard empty: knock.
    • Whoever goes out wins the round and scores all the pips in the opponents' hands (a lone 0|0 in an opponent's hand counts 25).
    • Fish, when nobody can play: the player with the fewest pips wins the round and scores the opponents' pips minus their own. A tie for the fewest scores nobody.
rules-sea_kozel =
    <b>Sea Kozel</b>: whoever first reaches { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • Two players, or four (pairs allowed), 7 tiles each; the rest is the boneyard.
    • The holder of 1|1 leads (else 2|2, … 6|6, 0|0). The next round is led by whoever went out or made the fish, with any tile.
    • Lay a tile on an end with the same number. If you can play, you must. Two doubles that fit both ends may be laid in one turn.
    • Cannot play: draw until a tile fits; boneyard empty: knock.
    • Only the round's winner scores (whoever went out; in a fish, the one with fewer pips): the opponents' pips, if they make 25 or more.
    • A lone 0|0 left in hand counts 25, a lone 6|6 50, both together 75.
    • Going out with 0|0 as the last tile is the “naked goat”: it wins the match at once.
    • A tied fish makes eggs: the next round's winner takes them.
rules-osel =
    <b>Osel (Donkey)</b>: whoever first reaches { $target } { $target ->
        [one] point
       *[other] points
    } is the donkey.
    • 2–4 players, 7 tiles each; the rest is the boneyard. Four may play in pairs.
    • The holder of 1|1 leads (else 2|2, … 6|6, 0|0). That double is the spinner: once it has a tile on its left and right, tiles go on its top and bottom too.
    • Lay a tile on an end with the same number. If you can play, you must.
    • Instead of one tile you may lay several doubles at once, each on its own end.
    • A double may be laid face down: that end is closed for the rest of the round. Closing with your last tile is going out.
    • Cannot play: draw until a tile fits; boneyard empty: knock. The next round is led by whoever went out or made the fish, with any tile.
    • Points are the pips left in your hand (a lone 0|0 counts 10, but not in a fish). Until your account is open, rounds under 13 are remembered (+N).
    • Fish: everyone scores their own hand (the lobby also offers “all to the highest hand” and “all to the fisherman”).
rules-sport =
    <b>Sport dominoes</b>: two pairs; the first pair to reach { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • Exactly 4 players, partners opposite; 7 tiles each, no boneyard.
    • Before the first round everyone turns a tile: the highest (by value, a tie by the higher half) leads, with any tile. Later rounds are led by whoever went out or made the fish.
    • Lay a tile on an end with the same number. If you can play, you must; if not, pass.
    • When a player goes out, their pair scores all the pips left in all four hands.
    • Fish: the pair with fewer pips in hand scores them all; equal pips make a draw and nobody scores.
    • Sport turn times: 5 s with one possible move, 20 s with several, 60 s when a move could make a fish.
rules-all_fives =
    <b>All Fives</b>: points are scored during play; the first to reach { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • 2–4 players: two get 7 tiles each, three or four get 5; the rest is the boneyard. Four may play in pairs, a pair scoring together.
    • Who leads is drawn by lot, with any tile. Each later round is led by the winner of the one before.
    • Lay a tile on an end with the same number. The first double laid is the spinner: once tiles lie on both its sides, tiles go above and below it too. A lobby option makes only a double that opens the round the spinner; a round opened with any other tile stays a single line.
    • After every move add up the open ends: a double across an end counts both halves, and so does the spinner until tiles lie on both its sides. A multiple of 5 is scored by the mover: 5|5 as the first tile scores 10, and 0|5 laid on its right scores 10 again (5 + 5 + 0).
    • If nothing fits, draw from the boneyard until a tile fits; when it is empty, knock.
    • Whoever goes out scores the pips in the other hands, rounded to the nearest 5 (23 → 25).
    • A block (nobody can move): the lowest hand scores the difference to each other hand, rounded to 5 too.
    • The match ends as soon as someone reaches { $target }, even in the middle of a round.
rules-threes_and_fives =
    <b>Threes and Fives</b>: points are scored during play; the first to reach { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • 2–4 players: two get 7 tiles each, three or four get 5; the rest is the boneyard. Four may play in pairs, a pair scoring together.
    • Who leads is drawn by lot, with any tile. Each later round is led by the winner of the one before.
    • Lay a tile on an end with the same number. The first double laid is the spinner: once tiles lie on both its sides, tiles go above and below it too. A lobby option makes only a double that opens the round the spinner; a round opened with any other tile stays a single line.
    • After every move add up the open ends: a double across an end counts both halves, and so does the spinner until tiles lie on both its sides. A multiple of 3 scores a third of it, a multiple of 5 a fifth; 15 is both and scores 5 + 3 = 8. So 6|3 as the first tile adds up to 9 and scores 3; 5|5 adds up to 10 and scores 2.
    • If nothing fits, draw from the boneyard until a tile fits; when it is empty, knock.
    • Whoever goes out scores the pips in the other hands, rounded to the nearest 5 and divided by 5 (23 → 25 → 5).
    • A block (nobody can move): the lowest hand scores the difference to each other hand, rounded to 5 and divided by 5 the same way.
    • The match ends as soon as someone reaches { $target }, even in the middle of a round.
rules-bergen =
    <b>Bergen</b>: points are scored during play; the first to reach { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • 2–4 players: two or three get 6 tiles each, four get 5; the rest is the boneyard. Four may play in pairs, a pair scoring together.
    • The first round is led by whoever holds 0|0 (else 1|1, … 6|6; with no doubles dealt, the lowest tile). Each later round is led by the winner of the one before, with any tile.
    • Lay a tile on an end with the same number; doubles lie across. If nothing fits, draw from the boneyard until a tile fits; the last two tiles are never drawn, so then you knock.
    • Both ends showing the same number after your move score 2 (so does leading with a double). A double across one end and the same number at the other score 3: 4|4 across one end and a 4 at the other.
    • Going out scores 2. A block (nobody can move): 2 to the player with no double in hand; if several have none, to the lowest hand of them; if all hold doubles, to the lowest double.
    • The match ends as soon as someone reaches { $target }, even in the middle of a round.
rules-dubli =
    <b>Doubles</b>, a children's game: points are scored during play; the first to reach { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • 2–4 players: two get 7 tiles each, three 6, four 5; the rest is the boneyard. Four may play in pairs, a pair scoring together.
    • The first round is led by whoever holds 0|0 (else 1|1, … 6|6; with no doubles dealt, the lowest tile). Each later round is led by the winner of the one before, with any tile.
    • Lay a tile on an end with the same number; doubles lie across. If nothing fits, draw from the boneyard until a tile fits; the last two tiles are never drawn, so then you knock.
    • Laying a double scores 1. Both ends showing the same number after your move score 1; a double at one end and the same number at the other 2. They add up: 5|5 on a 5 while the other end shows 5 scores 1 + 2 = 3.
    • Going out scores 2. At the round's end everyone left with tiles but no double scores 1.
    • The match ends as soon as someone reaches { $target }, even in the middle of a round.
rules-blitz =
    <b>Blitz</b>, a children's game: whoever first reaches { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • 2–4 players, and all the tiles are shared out: two get 14 each, four get 7, three get 9 and the one left over stays face down all round. No boneyard. Four may play in pairs.
    • The first round is led by whoever holds 0|0 (else 1|1, … 6|6). Each later round is led by the winner of the one before, with any tile.
    • Lay a tile on an end with the same number. A turn may lay any number of tiles one after another, each on any end as the table then stands. Done? Press “✔️ End turn”; once nothing more fits, the turn passes by itself.
    • Cannot play: knock.
    • Whoever goes out first wins the round and scores all the pips in the opponents' hands.
    • Fish, when nobody can play: the player with the fewest pips wins the round and scores the opponents' pips minus their own. A tie for the fewest scores nobody.
rules-cross =
    <b>Cross</b>, a children's game: whoever first reaches { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • 2–4 players, 7 tiles each; the rest is the boneyard (four leave none). Four may play in pairs.
    • The first round is led by whoever holds 0|0 (else 1|1, … 6|6; with no doubles dealt, the lowest tile). Each later round is led by the winner of the one before, with any tile.
    • The first double laid is the centre of the cross: once tiles lie on both its sides, tiles are laid above and below it too.
    • Lay a tile on an end with the same number. A turn may lay any number of tiles one after another, each on any open end. Done? Press “✔️ End turn”; once nothing more fits, the turn passes by itself.
    • Cannot play: draw until a tile fits; boneyard empty: knock.
    • Whoever goes out first wins the round and scores all the pips in the opponents' hands.
    • Fish, when nobody can play: the player with the fewest pips wins the round and scores the opponents' pips minus their own. A tie for the fewest scores nobody.
rules-shesterka =
    <b>Sixes</b>, a children's game: whoever first reaches { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • 2–4 players, 7 tiles each; the rest is the boneyard (four leave none). Four may play in pairs.
    • The first round is led by whoever holds 0|0 (else 1|1, … 6|6; with no doubles dealt, the lowest tile). Each later round is led by the winner of the one before, with any tile.
    • Halves that touch add up to 6: an end showing 2 takes a tile with a 4, a 3 takes a 3, a 0 takes a 6 and a 6 a blank; the end then shows the tile's other half. Doubles lie across.
    • One tile a turn. If nothing fits, draw from the boneyard until a tile fits; boneyard empty: knock.
    • Whoever goes out first wins the round and scores all the pips in the opponents' hands.
    • Fish, when nobody can play: the player with the fewest pips wins the round and scores the opponents' pips minus their own. A tie for the fewest scores nobody.
rules-dark =
    <b>In the Dark</b>, a children's game: whoever first reaches { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • 2–4 players: two get 7 tiles each, three or four get 5; the rest is the boneyard. Four may play in pairs.
    • Nobody sees your tiles, not even you: they lie in a face-down stack. Who leads is drawn by lot; each later round is led by the winner of the one before.
    • On your turn press “🁢 Turn up the top tile”: the top tile is turned up and, if it fits an end with the same number (with ends 2 and 5, say, 2|6 or 4|5 fits) or the table is empty, it goes on the table; if it fits both ends, the bot lays it on the left one: nobody saw it, so nobody chooses. If not, it goes under your stack and a boneyard tile (if any is left) goes face down on top. Either way the turn passes.
    • When 3 tiles are left in your stack they are turned up, for your eyes only. From then on a turn may lay several tiles in a row; done? Press “✔️ End turn”. Cannot play: draw until a tile fits; boneyard empty: knock.
    • Whoever first lays all their tiles, or whose tile made the fish (nobody can play), wins the round and scores all the pips in the opponents' hands.
btn-rules_current = 📖 { $game }
alert-rules_unknown = There are no such rules: choose a game with a button under the message.
help-group =
    /domino — a new game (a lobby with buttons); /domino osel — straight to Osel
    /rules — the rules of the game
    /leave — leave the game (a computer plays on)
    /surrender — give up (the match counts as your loss)
    /cancel — cancel the game (creator or admin; players by a vote)
    /hand — where are my tiles
    /settings — group settings: language, default game, turn timer, when an unstarted game closes, hints (admins change them)
    /top — the group's leaderboard · /stats — my stats · /history — the last matches
help-private =
    Your tiles arrive here: press a ✅ tile to play it. In Blitz and Cross a turn may lay several tiles one after another; ✔️ End turn ends it. Playing In the Dark, your tiles lie face down: press 🁢 Turn up the top tile.
    💡 Hint — the strong computer's move (shown to you alone, one a turn).
    /hand — send my hand again
    /leave — leave the game
    /surrender — give up (the match counts as your loss)
    /rules — the rules of the games
    /stats — my stats across all groups
    /settings — whether to remind you of your turn
    To start a game, add me to a group and send /domino there.

## The command menu (setMyCommands).

cmd-domino = a new game of dominoes
cmd-rules = the rules of the game
cmd-help = help
cmd-hand = send my tiles again
cmd-leave = leave the game
cmd-cancel = cancel the game

## Refusals: a press or command that changes nothing.

alert-lobby_closed = This game is no longer taking players.
alert-already_seated = You already have a seat.
alert-not_seated = You do not have a seat.
alert-creator_only = Only the game's creator can do that.
alert-creator_or_admin = Only the game's creator or a chat admin can cancel it.
alert-table_full = The table is full.
alert-not_enough_players = Players needed: { $wanted }, seated: { $have }. Invite friends or add a computer player.
alert-not_enough_players_fewer = Players needed: { $wanted }, seated: { $have }. Invite friends, add a computer player, or play with { $have }: the lobby's “👥 Players” button.
alert-playing_elsewhere = You are already in another game. Finish it or /leave it.
alert-teams_need_four = Pairs need four players.
alert-illegal = That move is not allowed.
alert-not_in_game = You are not playing in this game.
alert-stale = This button is out of date: the game has moved on.
alert-answered = This question has already been answered.
alert-finished = This game is over.
alert-not_your_turn = It is { $name }'s turn.

## /top, /stats, /history and the score sheets (issue 6).

cmd-top = the group's leaderboard
cmd-stats = my stats
cmd-history = the group's last matches
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
btn-top_pairs = 👥 Pairs
btn-top_players = 👤 Players
stats-title_group = 📊 <b>{ $name }</b> in “{ $chat }” · { $game }
stats-title_all = 📊 <b>{ $name }</b> across all groups · { $game }
stats-matches = Matches: { $n } · rating: { $rating } · Elo: { $elo }
stats-losses-kozel = 🐐 The goat { $n } { $n ->
    [one] time
   *[other] times
} ({ $share } of matches)
stats-losses-osel = 🫏 The donkey { $n } { $n ->
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
stats-streak_bad-osel = 🫏 The donkey { $n } { $n ->
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
stats-mark-osel = 🫏
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
ending-finished = played out
ending-surrender = surrender
ending-timeout = timeout
ending-left = a player left
ending-cancelled = cancelled
btn-history_back = ↩️ Back to the matches
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
alert-no_such_page = There is no such page.
alert-no_such_match = There is no such match in this group's records.
alert-no_such_game = There is no such game in these stats: send the command again.

## Endings (issue 7): /surrender, the vote to cancel, how an abandoned match is scored.

cmd-surrender = give up
surrender-confirm = 🏳 Give up? The match ends at once and is scored as if the time had run out. { $loser } You gain no rating for it; the others gain rating by how far they are ahead of your score.
surrender-confirm_after = 🏳 Give up? The match ends at once. It is already scored as if the time had run out: { $name } was the first to abandon it. { $loser } You gain no rating for it; the others gain rating by how far they were ahead of the score { $name } had then.
surrender-not_playing = You are not playing here, so there is nothing to give up.
btn-surrender_yes = 🏳 Yes, I give up
btn-surrender_no = No, play on
answer-surrendered = You gave up. The match is over.
answer-playing_on = Playing on.
alert-not_your_confirmation = This confirmation is not yours.
alert-already_left = You have already left this match.
notice-surrendered =
    🏳 { $name } gives up. { $loser }
    Score, as if the time had run out · rating gained:
    { $lines }
notice-left_scoring =
    🚪 { $name } left the game; a computer player took the seat and plays the match out.
    For the rating the match counts as lost on time. { $loser } The score when leaving: { $points }; the others gain rating by how far they were ahead of that score.
notice-cancelled_counted =
    ✖️ The game is cancelled, but for the rating it counts as lost on time: the first to leave the match was { $name }. { $loser }
    Score when leaving · rating gained:
    { $lines }
notice-scored_as_timeout =
    📊 For the rating the match counts as lost on time: a computer played the seat out. { $loser }
    Score when leaving · rating gained:
    { $lines }
table-surrendered = 🏳 { $name } gave up.
hand-surrendered = 🏳 { $name } gave up.
vote-title =
    🗳 <b>{ $name } proposes to cancel the game.</b>
    Only the creator or a chat admin can cancel it outright, so the players vote.
vote-count = For: { $yes } · against: { $no } · cancelling needs { $needed } of { $voters } for
vote-who_yes = ✅ { $names }
vote-who_no = ❌ { $names }
vote-state_open = The match's players vote, for { $minutes } min. A vote may be changed.
vote-state_passed = ✖️ Decided: the game is cancelled.
vote-state_failed = ▶️ The vote failed: playing on.
vote-state_expired = ⌛ The vote ran out of time: playing on.
vote-state_closed = The vote is closed: the match has ended.
btn-vote_yes = ✅ For ({ $n })
btn-vote_no = ❌ Against ({ $n })
vote-already_open = A vote to cancel is already open: use its buttons.
answer-voted_yes = Your vote: cancel.
answer-voted_no = Your vote: play on.
alert-voted_same = You have already voted so.
alert-vote_over = This vote is over.
alert-vote_not_yours = Only this match's players vote.

## Turn timers, strikes, "I'm back", /settings (issue 7).

cmd-settings = group settings
settings-title =
    ⚙️ <b>Settings of “{ $chat }”</b>
    Turn timer: <b>{ $timer }</b>
settings-hint = When the time runs out a computer moves for the player; after three such moves it plays for them until they come back (/hand → “I'm back”). Chat admins may change this; a new limit applies from the next turn.
settings-lang = Language of the group's messages: <b>{ $lang }</b>
# S-7: a game with turn times of its own keeps them whatever timer is chosen, unless it is off.
settings-own_timing = ⏱ { $game }: turn times by its own rules — { $one }, { $several } or { $fish } s, unless the timer is off.
group_lang-auto = the game creator's
group_lang-ru = Russian
group_lang-en = English
btn-group_lang-auto = 🌐 Creator's
btn-group_lang-ru = 🇷🇺 Русский
btn-group_lang-en = 🇬🇧 English
answer-group_lang_set = The group's language: { $lang }.
settings-in_group = Each group has its own settings: send /settings in the group.
timer-off = off
timer-30 = 30 s
timer-60 = 60 s
timer-120 = 2 min
timer-300 = 5 min
timer-sport = sport (5 / 20 / 60 s)
answer-timer_set = Turn timer: { $timer }. It applies from the next turn.
alert-admins_only = Only the chat's admins can change the settings.
hand-time_left = ⏱ Time to move: { $s } s
hand-time_warning = ⏳ <b>{ $s } s left!</b> Then a computer moves for you.
hand-strikes = ⏰ Your time ran out { $n } { $n ->
        [one] time
       *[other] times
    } out of { $limit }; a computer moved for you.
hand-away = 🤖 A computer is playing for you. To play yourself again, press “I'm back”.
btn-back_in_game = 🙋 I'm back
table-time_warning = ⏳ { $name }: { $s } s
notice-taken_over = 🤖 { $name }: the time ran out three times, so a computer plays from now on.
notice-back = 🙋 { $name } is back in the game.
answer-back = Welcome back!
answer-not_away = You are playing yourself already.
alert-away = A computer is playing for you now. To play yourself: /hand → “I'm back”.

## Issue 11: who may act on a game, joining by link, removing people, lobby timeouts.

alert-foreign_game = This button does not belong to this chat's game.
alert-creator_or_admin_only = Only the game's creator and the chat's admins can do that.
alert-start_private_first = First open the chat with @{ $bot } and press Start, then “Join”.
start-link_stale = This link is out of date. Press “Join” under the game in the group.
start-not_a_member = This table is for the members of “{ $chat }”. Join the group, then press “Join” under the game.
lobby-controls = The game's creator and the chat's admins can start it, change the rules and remove players.
btn-remove_player = 🚫 Remove a player
btn-remove_seat = 🚫 { $name }
lobby-remove_who = Who should leave the table?
lobby-removed = 🚫 { $name } no longer has a seat.
answer-removed = { $name } no longer has a seat.
alert-nobody_to_remove = Nobody is seated yet.
alert-nobody_else_to_remove = Only you are seated. To leave yourself, press “🚪 Leave”.
alert-not_seated_any_more = That player no longer sits there.
notice-lobby_timed_out = ⌛ Nobody started the game in { $minutes } min, so it is closed. A new game: /domino
settings-lobby_timeout = A game nobody starts closes after: <b>{ $time }</b>
lobby_timeout-off = never
lobby_timeout-min = { $n } min
btn-lobby_timeout = ⌛ { $time }
answer-lobby_timeout_set = New games close unstarted after: { $time }.

## Which game (issue 13): /domino with a game, the group's default game in /settings.

lobby-unknown_game =
    I don't know that game. Start one like this:
    { $games }
btn-default_game = 🎲 { $game }
answer-default_game_set = New games with /domino: { $game }.

## Command spam in a group (issue 11, item 9; handlers/throttle.py).

spam-cooldown = ⏳ { $name }, that is too many commands in a row: I will answer your commands again in a minute.

## The database refused a change for the moment: locked by another process, or a full disk (issue
## 11, items 7 and 8; handlers/errors.py). Nothing was changed.

alert-db_unavailable = ⏳ One moment… The bot could not save that press; nothing has changed. Please press again in a few seconds.
reply-db_unavailable = ⏳ One moment… The bot could not save that; nothing has changed. Please send the command again in a few seconds.

## Who lost an abandoned match, in the game's own word (issue 13; the notices put it in).
## A colon, not the dash of the match's end («🐐 Козёл — …»): the tests wait for that one.

loser-kozel = 🐐 Goat: { $names }.
loser-osel = 🫏 Donkey: { $names }.
loser-classic = Loss: { $names }.
loser-sea_kozel = Loss: { $names }.
loser-sport = Loss: { $names }.
loser-all_fives = Loss: { $names }.
loser-threes_and_fives = Loss: { $names }.
loser-bergen = Loss: { $names }.
loser-dubli = Loss: { $names }.
loser-blitz = Loss: { $names }.
loser-cross = Loss: { $names }.
loser-shesterka = Loss: { $names }.
loser-dark = Loss: { $names }.

## «💡 Подсказка» (issue 14): the computer's choice for the turn, to the presser only;
## the group's switch in /settings; the count in /stats.

btn-hint = 💡 Hint
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
alert-hint_stale = This move has been made: its hint is no longer needed.
alert-hints_off = Hints are switched off in this group (/settings).
# In the Dark: a hint pressed while the presser's tiles lie face down (the one move is the flip).
alert-hint_face_down = Nothing to hint: your tiles lie face down, and the only move is “🁢 Turn up the top tile”.
answer-hint_too_fast = Your hint is on its way: press again in a moment.
settings-hints = Hints: <b>{ $state }</b>
hints-on = on
hints-off = off
btn-hints = 💡 Hints: { $state }
answer-hints_set = 💡 Hints: { $state }. The hands show the button from the next move.
stats-hints = 💡 { $n } { $n ->
    [one] hint
   *[other] hints
}

## «🔔 Your turn» in the private chat, and the private /settings (issue 15, item 7).

notice-turn = 🔔 Your turn — { $chat }
settings-private =
    ⚙️ <b>Your settings</b>
    🔔 Turn reminders: <b>{ $state }</b>
    If you have not moved a few seconds after your turn starts, a «🔔 Your turn» notification arrives here; it goes away when the turn ends.
turn_notices-on = on
turn_notices-off = off
btn-turn_notices = 🔔 Turn reminders: { $state }
answer-turn_notices_set = 🔔 Turn reminders: { $state }.
