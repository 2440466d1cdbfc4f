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
tournament-table = Table { $n } · { $state }: { $names }
tournament-seats = Table { $n }: { $names }
tournament-seats_decided = Table { $n }: { $results } — not played
tournament-table_result = Table { $n } · result: { $results }
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
tournament-line_withdrawn = — { $name } — { $points }
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
tournament-absent_note = Not there: { $names } — lost without playing.
tournament-forfeit = ⌛ Round { $round } · table { $table }: not here — { $names }. Scored as a loss.
tournament-topic = 🏆 Round { $round } · table { $table }

# The lobby of a tournament's table.
tournament-lobby = 🏆 <b>Tournament · round { $round } · table { $table }</b> — waiting for: { $names }
tournament-lobby_all_here = 🏆 <b>Tournament · round { $round } · table { $table }</b> — all here

tournament-your_table = 🏆 Your tournament table in «{ $chat }» is open: round { $round }, table { $table }. Press «✅ I'm here» there — you have { $minutes } min, or it counts as a loss.
tournament-lobby_hint = The people of this table press «✅ I'm here»: the match starts by itself once all are there.
tournament-lobby_closed = ⌛ The table closed without a match.

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
tournament-stale = This button is out of date: the tournament's message has changed.

# /history and /stats.
tournament-history_title = 🏆 <b>Tournaments</b>
tournament-history_line = { $date } · { $game } · { $winner }
tournament-history_no_winner = no winner
tournament-stats = 🏆 Tournaments: { $played }, won: { $won }

# core replies
tournament-not_here = This tournament is not here.
tournament-already_open = This topic already has a tournament: a new one can open once it is over.
tournament-organiser_only = Only the organiser and the group's admins can do this.
tournament-signup_closed = Sign-up for the tournament is closed.
tournament-signed_up = You are signed up for the tournament.
tournament-already_signed_up = You are signed up already.
tournament-signed_off = You are no longer signed up.
tournament-not_signed_up = You are not among the entrants.
tournament-full = No places left: { $n } { $n ->
    [one] person has
   *[other] people have
} signed up.
tournament-withdrawn_now = You left the tournament: your later tables count as losses, what you played stays.
tournament-anonymous = An anonymous admin cannot play in a tournament: write as yourself.
tournament-bad_option = This setting has no such value.
tournament-pairs_need_four = Pairs play four at a table, and this game is not played so.
tournament-pairs_fixed = This game is always played this way: pairs are not a choice.
tournament-table_size_pairs = In a pairs tournament a table is always two pairs.
tournament-table_size_not_played = This game is not played at a table of { $n }.
tournament-rounds_swiss_only = The number of rounds is chosen in the Swiss system only.
tournament-too_few = Too few entrants: { $n }, and at least { $min } are needed.
tournament-too_many = Too many entrants: { $n }, and this format takes at most { $max }.
tournament-too_few_pairs = Too few pairs: { $n }, and at least { $min } are needed.
tournament-too_many_pairs = Too many pairs: { $n }, and this format takes at most { $max }.
tournament-odd_pairs = Pairs need an even number of entrants, and { $n } signed up.
tournament-started = The tournament has started!
tournament-started_fewer_rounds = The tournament has begun! { $rounds ->
    [one] { $rounds } round
   *[other] { $rounds } rounds
}: { $n } entrants cannot play more.
tournament-not_running = The tournament is not running now.
tournament-paused_now = The tournament is paused.
tournament-resumed = The tournament goes on.
tournament-not_paused = The tournament is not paused.
tournament-cancelled_now = The tournament is cancelled.
tournament-removed = { $name } is out of the tournament.
tournament-no_such_entrant = There is no such entrant in the tournament.
tournament-over = The tournament is over.
tournament-not_your_table = This table is for other entrants: { $names }.
tournament-finish_other_game = Finish your other game first: the table waits for you until the show-up time runs out.
tournament-table_fixed = The bot sets up tournament tables: they cannot be changed.
