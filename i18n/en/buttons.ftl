### The buttons.
### In English.

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
btn-my_hand = ✋ My tiles
btn-table = 🖼 The table in the group
# The Mini App (bot.webapp): the group's direct link, and the private hand's button.
btn-open_table = 🃏 Open table
btn-app_table = 🃏 The table in the app
btn-rematch = 🔁 Play again
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
btn-flip = ⬛ Turn up the top tile
# In the Dark: the face-down stack in the hand, off turn (press: whose turn it is).
btn-face_down = ⬛ × { $n }
btn-close_end = 🔒 Close { $end } with { $tile }
btn-computer_level = { $name } · { $level }
btn-add_to_group = ➕ Add to a group
btn-rules = 📖 Rules
btn-open_private = Open the private chat
btn-rules_current = 📖 { $game }
btn-top_pairs = 👥 Pairs
btn-top_players = 👤 Players
btn-history_back = ↩️ Back to the matches
btn-surrender_yes = 🏳 Yes, I give up
btn-surrender_no = No, play on
btn-vote_yes = ✅ For ({ $n })
btn-vote_no = ❌ Against ({ $n })
btn-group_lang-ru = 🇷🇺 Русский
btn-group_lang-en = 🇬🇧 English
btn-back_in_game = 🙋 I'm back
btn-remove_player = 🚫 Remove a player
btn-remove_seat = 🚫 { $name }
btn-hint = 💡 Hint
# The sections of a group's /settings (two a row: short enough for a phone).
btn-settings-game = 🎲 Game
btn-settings-timer = ⏱ Timer
btn-settings-lang = 🌐 Language
btn-settings-lobby = ⌛ Lobby
btn-settings-hints = 💡 Hints
btn-settings-hands = ✋ Tiles
btn-turn_notices = 🔔 Turn reminders: { $state }
btn-offer_draw = 🤝 Offer a draw
btn-draw_yes = ✅ Agree ({ $n })
btn-draw_no = ❌ Against ({ $n })
