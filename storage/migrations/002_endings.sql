-- How a match ended, for the stats: `ending` is an `Ending` value once the game is over;
-- `abandonment` (JSON: {"seat", "reason", "points"}) is the first person who gave up,
-- timed out or left a running match, with every seat's points at that moment (K-11).
ALTER TABLE games ADD COLUMN ending TEXT;
ALTER TABLE games ADD COLUMN abandonment TEXT;
