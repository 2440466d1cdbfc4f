### The lobby: the game being gathered, its options, the players and computers.
### In English.

lobby-title = 🎲 <b>Dominoes: { $variant }</b>
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
# The group shows hands in the group (its /settings): nobody needs the private chat.
lobby-hint_in_group = Press “🙋 Join” to take a seat. We play right here: your tiles are under the table, the “✋ My tiles” button; no need to open my chat.
# Nobody seated yet, in a group that keeps hands in private: the creator is seated only once the bot may write to them there.
lobby-nobody = Nobody is seated yet. Press “🙋 Join” to sit down, the game's creator too: only someone who already has a private chat with me is seated at once (the tiles go there).
lobby-nobody_in_group = Nobody is seated yet. Press “🙋 Join” to sit down.
# Every seat is taken: nobody is asked to sit down.
lobby-full = Every seat is taken: the game may start with “▶️ Start”.
lobby-closed_started = 🎲 <b>The game has started!</b> Players: { $names }
lobby-closed_cancelled = ✖️ The game was called off.

computer-name = 🤖 Computer { $n }
# A person a computer plays for: the name stays as it is, marked.
computer-instead = { $name } (🤖)

# Computer levels: chosen per computer seat in the lobby.
level-easy = Easy
level-medium = Medium
level-hard = Strong

lobby-computer = { $name } · { $level }
lobby-already_open = A game is already gathering players in this chat: press “🙋 Join” under it.
lobby-already_running = A game is already running in this chat. Finish it or /cancel it.
lobby-you_play_elsewhere = You are already playing in “{ $chat }”. Finish there or /leave.

start-welcome =
    👋 Hi! I run domino games in group chats: Kozel, Classic, Sea Kozel, Osel, Sport dominoes, All Fives, Threes and Fives, Bergen, Doubles, Blitz, Cross, Sixes and In the Dark.
    Add me to a group and send /domino there (or name the game: /domino osel). Your tiles will arrive here.
    Rules: /rules · help: /help
start-joined = ✅ You have a seat in “{ $chat }”. Your tiles will arrive here once it starts.
start-already_joined = You already have a seat in “{ $chat }”.
start-back_in_game = You are at the table: your hand and its buttons are in this chat.

leave-not_playing = You are not playing here right now.
leave-done = You left the game. A computer player took your seat.

cancel-nothing = There is no game to cancel here.
cancel-confirm = Cancel the current game? Its scores will not be kept.
cancel-confirm_lobby = Cancel the current game? The gathering of players closes.
cancel-confirm_counted = Cancel the current game? It counts all the same: as a loss for { $name }, the first to leave the match.
cancel-kept = Playing on.

start-link_stale = This link is out of date. Press “Join” under the game in the group.
start-not_a_member = This table is for the members of “{ $chat }”. Join the group, then press “Join” under the game.

lobby-controls = The game's creator and the chat's admins can start it, change the rules and remove players.
lobby-remove_who = Who should leave the table?
lobby-removed = 🚫 { $name } no longer has a seat.

lobby_timeout-off = never
lobby_timeout-min = { $n } min

lobby-unknown_game =
    I don't know that game. Start one like this:
    { $games }
