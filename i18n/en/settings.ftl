### /settings of a group and of a private chat; turn timers.
### In English.

# A group's /settings: every value in force, a line a section (`SettingsSection`); a
# section opened shows its line and what it does (settings-about_*).
settings-title = ⚙️ <b>Settings of “{ $chat }”</b>
settings-game = 🎲 Default game: <b>{ $value }</b>
settings-timer = ⏱ Turn timer: <b>{ $value }</b>
settings-lang = 🌐 Group language: <b>{ $value }</b>
settings-lobby = ⌛ A game nobody starts closes after: <b>{ $value }</b>
settings-hints = 💡 Hints: <b>{ $value }</b>
settings-hands = ✋ Players' tiles: <b>{ $value }</b>
settings-admins = Chat admins may change them: a button for each part.
settings-about_game = A plain /domino opens it; another game opens by its name, such as /domino osel. A new default applies from the next game.
settings-about_timer = When the time runs out a computer moves for the player; after three such moves it plays for them until they come back (/hand → “I'm back”). A new limit applies from the next turn.
settings-about_lang = I write to everyone in the group in this language: the games, the answers to commands and buttons. In private chats, to each person in their own. At first a group's language is that of whoever first used me here.
settings-about_lobby = If nobody starts the game in this time, it closes by itself. A new time applies from the next game.
settings-about_hints = The “💡 Hint” button on a hand shows its player how a strong computer would move (nobody else sees it). Hints switched off leave the hands from the next turn.
# S-7: a game with turn times of its own keeps them whatever timer is chosen, unless it is off.
settings-own_timing = ⏱ { $game }: turn times by its own rules — { $one }, { $several } or { $fish } s, unless the timer is off.

group_lang-ru = Russian
group_lang-en = English

settings-in_group = Each group has its own settings: send /settings in the group.

timer-off = off
timer-30 = 30 s
timer-60 = 60 s
timer-120 = 2 min
timer-300 = 5 min
timer-sport = sport (5 / 20 / 60 s)

settings-private =
    ⚙️ <b>Your settings</b>
    🔔 Turn reminders: <b>{ $state }</b>
    If you have not moved a few seconds after your turn starts, a “🔔 Your turn” notification arrives here; it goes away when the turn ends.

turn_notices-on = on
turn_notices-off = off

# Where hands are shown (`HandsPlace`): a group's default, a person's own choice.
hands-group = in the group
hands-private = in private
hands-both = in the group and in private
hands-default = as the group has it (its admins' choice)
btn-hands-group = In the group
btn-hands-private = In private
btn-hands-both = Both
btn-hands-default = As the group
settings-about_hands = “In the group” and “Both”: people play right here (“✋ My tiles” under the table), with no need to open my chat; “In private”: press Start in my private chat first. Anyone may choose their own in /settings in my private chat.
settings-private_hands =
    ✋ Your tiles: <b>{ $place }</b>
    The “✋ My tiles” button under the table in the group always works; “In private” and “Both” keep your hand here too, and “🔔 Your turn” comes here; with “In the group” it comes in the group, to you alone.
