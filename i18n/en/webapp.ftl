### The Mini App's own words (bot.webapp): the page's labels and the lines of its state.
### Plain text: the page shows no HTML.

webapp-connecting = Connecting…
webapp-reconnecting = Connection lost, reconnecting…
webapp-error = The game could not be opened.
webapp-lobby = Waiting for players
webapp-spectator = You are watching this game.
webapp-your_turn = Your move
webapp-choose_end = The tile fits two ends: tap an end on the table.
webapp-sheet = Score
webapp-events = Last moves
webapp-round_end = Round over
webapp-next = Back to the table
webapp-close = Close
webapp-bazaar = Boneyard
webapp-face_down = face down
webapp-empty_table = No tiles yet: first move
webapp-away = the computer moves for this player
webapp-score = score
webapp-tiles = tiles
webapp-round = Round
webapp-total = Total
webapp-cancelled = The game was cancelled
# The lobby's line: $n seats taken of $wanted.
webapp-lobby_status = Waiting for players: { $n } of { $wanted }
# Dismisses a menu of the hand (several doubles, closing an end): as the messages' “↩️ Back”.
webapp-menu_back = ↩️ Back
# A tap on a tile of the hand that has no play now.
webapp-no_fit = That tile does not fit now.
# Under the lobby's seats: who starts the game, and where (the lobby's “▶️ Start”, btn-start).
webapp-lobby_wait = The game's creator or a chat admin starts it with “▶️ Start”.
# The match has ended: as the group's table says it (table-over).
webapp-match_over = The match is over
# The round-end view's last line: each side's score now.
webapp-round_scores = Score: { $scores }
# A lobby whose seats are all taken.
webapp-lobby_full = Every seat is taken: ready to start
