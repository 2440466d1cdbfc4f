-- A match is stored once, in `games.match` (its seed, action log and round
-- results: `Match.to_json`). The `actions` table repeated every entry of that log and
-- had to be kept equal to it; it goes, with its rows. Matches stored in format 1 stay
-- as they are: `Match.from_json` reads them, and the next save writes format 2.
DROP TABLE actions;
