### Answers to presses and commands, refusals, notices in the group.
### In English.

answer-joined = You have a seat!
answer-left = You left the table.
answer-cancelled = The game is cancelled.
answer-computer_added = A computer player sits down.
answer-rematch_opened = A new game with the same rules: waiting for players.
answer-started = Off we go! Tiles are in your private chat.
answer-started_here = Off we go! Your tiles are under the table: “✋ My tiles”.
answer-tile_does_not_fit = That tile does not fit now: the ones marked ✅ do.
# Sixes: a refused tile; $ends: what each end takes (“4 takes a 2, 0 takes a 6”).
answer-tile_sum_six = It does not fit: touching halves add up to 6 — { $ends }. The ✅ tiles fit.
answer-end_takes = { $pip } takes a { $wanted }
# The first round opens with a fixed tile (the game's rules); $tile: that tile (“1|1”),
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
# In the Dark, after “⬛ Turn up the top tile” (never the tile: nobody may see a face-down stack).
answer-flip_laid = It fitted and is on the table.
answer-flip_turned_up = It fitted and is on the table. Your last tiles are turned up: they are in your hand.
answer-flip_under = No fit: the tile went under your stack.
answer-flip_under_drew = No fit: the tile went under your stack, and a boneyard tile went on top.
# The tile turned up fits both ends: the player chooses (the hand shows the two ends).
answer-flip_choice = It fits both ends: choose the end to lay it on.
answer-level_set = { $name }: { $level }

alert-not_a_computer = This button is out of date: that computer is no longer at the table.

notice-left = 🚪 { $name } left the game; a computer player took the seat.
notice-unreachable = ⚠️ { $name }: I cannot write to you privately. Open a chat with @{ $bot } and press Start (or unblock the bot) to get your tiles.
# The group shows hands in the group: the person plays on from there.
notice-unreachable_hand_in_group = ⚠️ { $name }: I cannot write to you privately. Your tiles are here: “✋ My tiles” under the table; /start in the chat with @{ $bot } brings them back there too.
notice-bot_removed = I was removed from “{ $chat }”, so the game there has stopped.
# Said in General of a forum: the topic of a game was closed to the bot, or deleted.
notice-topic_closed = ⏸ The game's topic was closed, and I cannot write there. The game is not lost: you can still move, from your private chat with me or from the “✋ My tiles” already open, and the table and results will come back to the topic once it is reopened.
notice-topic_deleted = 🗑 The game's topic was deleted, so the game has stopped. Start a new one with /domino.

private-group_only = Games happen in groups: add me to a group and send /domino there.
private-cancel_in_group = Cancel a game in its group: /cancel
private-unknown_command = I do not know that command. Help: /help
private-help_hint =
    👋 I run domino matches in groups. To play, add me to a group with the button below and send /domino there; your tiles will come here.
    The rules: the “📖 Rules” button; every command: /help.


alert-rules_unknown = There are no such rules: choose a game with a button under the message.
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
alert-no_such_page = There is no such page.
alert-no_such_match = There is no such match in this group's records.
alert-no_such_game = There is no such game in these stats: send the command again.

answer-surrendered = You gave up. The match is over.
answer-playing_on = Playing on.

alert-not_your_confirmation = This confirmation is not yours.
alert-already_left = You have already left this match.

notice-surrendered =
    🏳 { $name } gives up. { $loser }
    Score when the match was first abandoned · rating gained:
    { $lines }
# $goat: the side that loses the match (the person who left, with the partner in pairs).
notice-left_scoring =
    🚪 { $name } leaves: the match counts as a loss for { $goat }, and a computer finishes it.
    The score when leaving: { $points }; the others gain rating by how far they are ahead of it.
notice-cancelled_counted =
    ✖️ The game is cancelled, but it still counts as a loss: the first to abandon the match was { $name }. { $loser }
    Score when leaving · rating gained:
    { $lines }
notice-scored_as_timeout =
    📊 For the rating the match counts as lost on time: a computer played the seat out. { $loser }
    Score when leaving · rating gained:
    { $lines }

answer-voted_yes = Your vote: cancel.
answer-voted_no = Your vote: play on.

answer-draw_offered = 🤝 Draw offered: waiting for the others' answers.
answer-draw_yes = Your answer: agree to a draw.
answer-draw_no = Your answer: play on.
alert-draw_offered = A draw has already been offered this round.
alert-draw_vote_open = A vote is open now: wait until it ends.
alert-draw_after_abandonment = A draw can no longer be offered: the match counts already, since a player abandoned it.
# $kind: the game's key; the game's own word for the loser who is not there.
notice-drawn =
    🤝 A draw: every player agreed, and the match is over. { $kind ->
        [kozel] Nobody is the goat
        [osel] Nobody is the donkey
       *[other] Nobody loses
    }, and nobody gains rating.
notice-draw_declined = 🤝 { $name } declines the draw: playing on.

alert-voted_same = You have already voted so.
alert-vote_over = This vote is over.
alert-vote_not_yours = Only this match's players vote.

answer-group_lang_set = The group's language: { $lang }.
answer-timer_set = Turn timer: { $timer }. It applies from the next turn.

alert-admins_only = Only the chat's admins can change the settings.

notice-taken_over = 🤖 { $name }: the time ran out three times, so a computer plays from now on.
# The same, when it is the match's first abandonment (K-11); $goat: the side that loses,
# $points: the seat's points now.
notice-taken_over_counted =
    🤖 { $name }: the time ran out three times, so a computer plays from now on.
    Unless { $name } comes back with “🙋 I'm back”, the match counts as a loss for { $goat }; the others gain rating by how far they are ahead of { $points }.
notice-back = 🙋 { $name } is back in the game.

answer-back = Welcome back!
answer-not_away = You are playing yourself already.

alert-away = A computer is playing for you now. To play yourself: /hand → “I'm back”.
alert-foreign_game = This button does not belong to this chat's game.
alert-creator_or_admin_only = Only the game's creator and the chat's admins can do that.
alert-start_private_first = First open the chat with @{ $bot } and press Start, then “Join”.

answer-removed = { $name } no longer has a seat.

alert-nobody_to_remove = Nobody is seated yet.
alert-nobody_else_to_remove = Only you are seated. To leave yourself, press “🚪 Leave”.
alert-not_seated_any_more = That player no longer sits there.

notice-lobby_timed_out = ⌛ Nobody started the game in { $minutes } min, so it is closed. A new game: /domino

answer-lobby_timeout_set = New games close unstarted after: { $time }.
answer-default_game_set = New games with /domino: { $game }.

spam-cooldown = ⏳ { $name }, that is too many commands in a row: I will answer your commands again in a minute.

alert-db_unavailable = ⏳ One moment… The bot could not save that press; nothing has changed. Please press again in a few seconds.

reply-db_unavailable = ⏳ One moment… The bot could not save that; nothing has changed. Please send the command again in a few seconds.

alert-hint_stale = This move has been made: its hint is no longer needed.
alert-hints_off = Hints are switched off in this group (/settings).
# In the Dark: a hint pressed while the presser's tiles lie face down (the one move is the flip).
alert-hint_face_down = Nothing to hint: your tiles lie face down, and the only move is “⬛ Turn up the top tile”.

answer-hint_too_fast = Your hint is on its way: press again in a moment.
answer-hints_set = 💡 Hints: { $state }. The hands show the button from the next move.

notice-turn = 🔔 Your turn — { $chat }

answer-turn_notices_set = 🔔 Turn reminders: { $state }.
answer-hands_set = ✋ Your tiles: { $place }.
answer-group_hands_set = ✋ Players' tiles: { $place }.
