### The Mini App's own words (bot.webapp): the page's labels and the lines of its state.
### Plain text: the page shows no HTML.

webapp-connecting = Connecting…
webapp-reconnecting = Connection lost, reconnecting…
webapp-error = The game could not be opened.
webapp-lobby = Waiting for players
webapp-spectator = You are watching: the players at the table move.
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
