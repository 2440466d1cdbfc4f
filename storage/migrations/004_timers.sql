-- Turn timers: the deadline of the turn in progress is stored with its game, so a
-- restarted bot times the turn out when it would have anyway (a past deadline fires at
-- once). `turn_move` is the match's move number the deadline is for (len(match.log)):
-- once the game moved on, the stored deadline is stale and means nothing.
-- `turn_limit` is the full time that turn got, in seconds (for the warning's moment).
-- A chat's turn-timer setting lives in `chats.settings` (JSON: ChatSettings.to_dict()).
ALTER TABLE games ADD COLUMN turn_move INTEGER;
ALTER TABLE games ADD COLUMN turn_deadline TEXT;
ALTER TABLE games ADD COLUMN turn_limit REAL;
