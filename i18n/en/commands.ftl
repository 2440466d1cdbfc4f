### The command menu (setMyCommands) and /help.
### In English.

help-group =
    /domino — a new game (a lobby with buttons); /domino osel — straight to Osel
    /rules — the rules of the game
    /leave — leave the game (a computer plays on)
    /surrender — give up (the match counts as your loss)
    /cancel — cancel the game (creator or admin; players by a vote)
    /hand — where are my tiles
    /settings — group settings: language, default game, turn timer, when an unstarted game closes, hints, where players' tiles are shown (admins change them)
    /tournament — a tournament: sign-up, rounds of tables, standings after every match
    /top — the group's leaderboard · /stats — my stats · /history — the last matches
help-private =
    Your tiles arrive here: press a ✅ tile to play it. In Blitz and Cross a turn may lay several tiles one after another; ✔️ End turn ends it. Playing In the Dark, your tiles lie face down: press ⬛ Turn up the top tile.
    💡 Hint — the strong computer's move (shown to you alone, one a turn).
    /hand — send my hand again
    /leave — leave the game
    /surrender — give up (the match counts as your loss)
    /rules — the rules of the games
    /stats — my stats across all groups
    /settings — where your tiles are shown and whether to remind you of your turn
    To start a game, add me to a group and send /domino there.

cmd-domino = a new game of dominoes
cmd-rules = the rules of the game
cmd-help = help
cmd-hand = send my tiles again
cmd-leave = leave the game
cmd-cancel = cancel the game
cmd-top = the group's leaderboard
cmd-stats = my stats
cmd-history = the group's last matches
cmd-surrender = give up
cmd-tournament = a tournament in the group
cmd-settings = group settings
