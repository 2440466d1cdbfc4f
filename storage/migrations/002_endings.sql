-- How a match ended, for the stats: `ending` is an `Ending` value once the game is over;
-- `abandonment` (JSON: {"seat", "reason", "points"}) is the first person who gave up,
-- timed out or left a running match, with every seat's points at that moment (K-11).
ALTER TABLE games ADD COLUMN ending TEXT;
ALTER TABLE games ADD COLUMN abandonment TEXT;

-- A seat keeps its person for the stats even when a computer plays it: `away` while a
-- computer stands in (turn-timer strikes; the person may come back), `has_left` once
-- the person left the match for good (their seat no longer blocks another game).
ALTER TABLE seats ADD COLUMN away INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN has_left INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN strikes INTEGER NOT NULL DEFAULT 0;
