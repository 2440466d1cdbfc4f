### Tournaments: the sign-up message, the running tournament's message, its
### announcements (rounds, tables, forfeits, the end), /history's and /stats' marks.
### In English.

tournament-title = 🏆 <b>Tournament: { $game }</b>
tournament-organiser = Organiser: { $name }
tournament-format = Format: { $format }
tournament-format_rounds = Format: { $format }, { $rounds } { $rounds ->
    [one] round
   *[other] rounds
}
tournament-format-round_robin = round robin
tournament-format-swiss = Swiss system
tournament-tables_of = Tables: of { $n }
tournament-tables_pairs = Tables: pair against pair (partners in sign-up order)
tournament-computers_off = Computers: none
tournament-computers = Computers: { $level } (they fill the last table)
tournament-level-easy = beginner
tournament-level-medium = medium
tournament-level-hard = strong
tournament-show_up = Time to take a seat: { $minutes } min
tournament-entrants = <b>Entrants ({ $n }):</b>
tournament-nobody = nobody yet
tournament-entrant = { $n }. { $name }
tournament-pair = { $n }. { $first } + { $second }
tournament-computer = { $name } · { $level }
tournament-signup_hint = Sign up with «✅ I'm in». The organiser or a group admin starts it: «▶️ Start».
tournament-settings_hint = ⚙️ Settings: press a button to change its value.
tournament-withdrawn = { $name } (out)

# The running tournament.
tournament-round = <b>Round { $round } of { $rounds }</b>
tournament-paused = ⏸ The tournament is paused: no new table opens, matches under way are played out.
tournament-table = Table { $n }: { $names } — { $state }
tournament-seats = Table { $n }: { $names }
tournament-table_result = Table { $n }: { $results }
tournament-state-planned = later
tournament-state-due = soon
tournament-state-open = waiting
tournament-state-playing = playing
tournament-vs = { $first } — { $second }
tournament-bye = No table this round: { $names }
tournament-standings = <b>Standings:</b>
tournament-standings_final = <b>Final standings:</b>
tournament-standings_more = …and { $n } more
tournament-line = { $place }. { $name } — { $points }
tournament-finished = 🏁 <b>The tournament is over!</b>
tournament-cancelled = ✖️ The tournament was cancelled.
tournament-winner = 🏆 Tournament winner: { $names }
tournament-winners = 🏆 Tournament winners: { $names }
tournament-no_winner = No winner.

# The standings' picture (render/standings.py): its heading.
tournament-picture_title = 🏆 Tournament · { $game }
tournament-picture_round = Round { $round } of { $rounds } · { $format }
tournament-picture_final = Final standings
tournament-buchholz = Buchholz

# Announcements in the group.
tournament-round_title = 🏆 <b>Tournament · round { $round } of { $rounds }</b>
tournament-round_hint = At each table everyone presses «✅ I'm here»: the match starts once all are there. { $minutes } min to take a seat; whoever does not come loses.
tournament-table_done = 🏁 <b>Round { $round } · table { $table }</b>: { $results }
tournament-forfeit = ⌛ Round { $round } · table { $table }: not here — { $names }. Scored as a loss.
tournament-topic = 🏆 Round { $round } · table { $table }

# The lobby of a tournament's table.
tournament-lobby = 🏆 <b>Tournament · round { $round } · table { $table }</b> — waiting for: { $names }
tournament-lobby_all_here = 🏆 <b>Tournament · round { $round } · table { $table }</b> — all here

# The buttons.
btn-tournament_join = ✅ I'm in
btn-tournament_leave = 🚪 I'm out
btn-tournament_settings = ⚙️ Settings
btn-tournament_start = ▶️ Start
btn-tournament_cancel = ✖️ Cancel
btn-tournament_back = ↩️ Back
btn-tournament_game = 🎲 Game: { $game }
btn-tournament_format = 🏆 Format: { $format }
btn-tournament_tables_of = 👥 Tables: of { $n }
btn-tournament_tables_pairs = 👥 Tables: pairs
btn-tournament_rounds = 🔁 Rounds: { $n }
btn-tournament_computers = 🤖 Computers: { $level }
btn-tournament_computers_off = 🤖 Computers: none
btn-tournament_show_up = ⏱ To take a seat: { $minutes } min
btn-tournament_pause = ⏸ Pause
btn-tournament_resume = ▶️ Resume
btn-tournament_remove = 👤 Remove an entrant
btn-tournament_remove_who = 👤 { $name }
btn-tournament_remove_yes = Yes, remove { $name }
btn-tournament_stop = ✖️ Cancel the tournament
btn-tournament_stop_yes = Yes, cancel it
btn-tournament_no = No
btn-tournament_here = ✅ I'm here

# Questions the message asks its organiser.
tournament-ask_remove = 👤 Whom to remove from the tournament? Their later tables are lost, what they played stays.
tournament-ask_remove_one = 👤 Remove { $name } from the tournament? Their later tables are lost, what they played stays.
tournament-ask_cancel = ✖️ Cancel the tournament? Matches under way are cancelled, there will be no winner.

# The command and its answers.
tournament-private = Tournaments are played in groups: add me to a group and send /tournament there.
tournament-shown_again = A tournament is on here already: its message is below.

# /history and /stats.
tournament-history_title = 🏆 <b>Tournaments</b>
tournament-history_line = { $date } · { $game } · { $winner }
tournament-history_no_winner = no winner
tournament-stats = 🏆 Tournaments: { $played }, won: { $won }
