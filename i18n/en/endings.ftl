### How a match ends early: /surrender, the vote to cancel, a player who left.
### In English.

ending-finished = finished
ending-surrender = surrender
ending-timeout = timeout
ending-left = a player left
ending-cancelled = cancelled
ending-draw = drawn by agreement

# The end of a match the computers played to its end after someone abandoned it (K-11):
# why it counts as that one's loss ($reason: timeout or left), and each person's rating.
ending-played_out = { $reason ->
        [left] 🚪 { $name } left the game and a computer finished the match, so it counts as a loss.
       *[timeout] 🤖 { $name } ran out of time three times and a computer finished the match, so it counts as a loss.
    }
ending-rating = 📈 Rating for the match: { $lines }

surrender-confirm = 🏳 Give up? The match ends at once and counts as your loss. { $loser } You gain no rating for it; the others gain rating by how far they are ahead of your score.
surrender-confirm_after = 🏳 Give up? The match ends at once. It already counts as a loss: { $name } was the first to abandon it. { $loser } You gain no rating for it; the others gain rating by how far they were ahead of the score { $name } had then.
surrender-not_playing = You are not playing here, so there is nothing to give up.

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
vote-already_open = A vote to cancel is already open: use its buttons.

draw-title =
    🤝 <b>{ $name } offers a draw.</b>
    If every player agrees, the match ends drawn: nobody gains rating.
draw-count = Agree: { $yes } of { $voters } · against: { $no }
draw-state_open = The match's players answer, for { $minutes } min. An answer may be changed.
draw-state_passed = 🤝 Everyone agrees: the match ends in a draw.
draw-state_failed = ▶️ Not everyone agrees: playing on.
draw-state_expired = ⌛ Time to answer ran out: playing on.
draw-state_closed = The offer is closed: the match has ended.
