-- Who may join a lobby, and how long it waits.
-- `join_token` is the unguessable part of a lobby's deep link (/start j<token>): the
-- sequential game id no longer seats anyone. Games from before this migration get none,
-- so their old links are answered as out of date.
-- `lobby_deadline` (ISO-8601 UTC) is when a lobby nobody started closes by itself; NULL:
-- it waits for ever (the group's setting was off, or the game is older).
ALTER TABLE games ADD COLUMN join_token TEXT;
ALTER TABLE games ADD COLUMN lobby_deadline TEXT;
CREATE UNIQUE INDEX games_join_token ON games(join_token) WHERE join_token IS NOT NULL;
