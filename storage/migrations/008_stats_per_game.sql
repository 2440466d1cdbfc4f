-- Leaderboards, /stats, /history and Elo per game (storage/stats.py).
-- `stat_matches.variant` already holds the game's key (`GameVariant.key`: kozel,
-- classic, ...). The running totals gain the game in their keys, and each seat the
-- game (copied from its match, for the indexes) and whether it won (first place).
-- Before this migration only Козёл could be played through the bot, so the running
-- totals kept so far are Козёл's: they move to the key 'kozel' as they are.

-- History per game: the group's matches of one game, the latest first; and which
-- games a group has records of (one seek per game).
CREATE INDEX stat_matches_game_history
    ON stat_matches(chat_id, variant, ended_at DESC, game_id DESC);
DROP INDEX stat_matches_history;

-- Each seat: its match's game, and 1 if it took first place (`elo.places`: the
-- fewest points in Козёл, the most in Классика; a culprit's side never). Old seats
-- are placed by their final points the same way, the culprit's side last.
ALTER TABLE stat_seats ADD COLUMN variant TEXT NOT NULL DEFAULT 'kozel';
ALTER TABLE stat_seats ADD COLUMN won INTEGER NOT NULL DEFAULT 0;
UPDATE stat_seats
SET variant = (SELECT m.variant FROM stat_matches m WHERE m.game_id = stat_seats.game_id);
UPDATE stat_seats
SET won = 1
WHERE NOT EXISTS (
    SELECT 1 FROM stat_matches m JOIN stat_seats c ON c.game_id = m.game_id
    WHERE m.game_id = stat_seats.game_id AND c.seat = m.culprit_seat AND c.side = stat_seats.side
)
AND points = (
    SELECT CASE WHEN stat_seats.variant = 'kozel' THEN MIN(o.points) ELSE MAX(o.points) END
    FROM stat_seats o JOIN stat_matches m ON m.game_id = o.game_id
    WHERE o.game_id = stat_seats.game_id
      AND NOT EXISTS (
          SELECT 1 FROM stat_seats c
          WHERE c.game_id = m.game_id AND c.seat = m.culprit_seat AND c.side = o.side
      )
);

-- /stats: best and worst match of a person in one game, in one group and overall.
DROP INDEX stat_seats_user_chat;
DROP INDEX stat_seats_user;
CREATE INDEX stat_seats_user_chat_game
    ON stat_seats(user_id, chat_id, variant, rating_gain, game_id) WHERE user_id IS NOT NULL;
CREATE INDEX stat_seats_user_game
    ON stat_seats(user_id, variant, rating_gain, game_id) WHERE user_id IS NOT NULL;

-- Running totals per person and game (scope: the chat id, or 0 for all groups).
CREATE TABLE stat_players_by_game (
    scope        INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    game         TEXT    NOT NULL,               -- GameVariant.key
    matches      INTEGER NOT NULL,
    rating       INTEGER NOT NULL,
    goats        INTEGER NOT NULL,               -- matches in last place (Козёл: козёл)
    wins         INTEGER NOT NULL,               -- matches in first place
    points_sum   INTEGER NOT NULL,
    went_out     INTEGER NOT NULL,
    fish_made    INTEGER NOT NULL,
    eggs_taken   INTEGER NOT NULL,
    elo          REAL,                           -- NULL: no Elo match of this game yet
    streak       INTEGER NOT NULL,               -- > 0 good matches in a row, < 0 bad ones
    name         TEXT    NOT NULL,               -- the seat name last recorded (users wins)
    PRIMARY KEY (scope, user_id, game)
);

INSERT INTO stat_players_by_game (
    scope, user_id, game, matches, rating, goats, wins, points_sum, went_out, fish_made,
    eggs_taken, elo, streak, name
)
SELECT p.scope, p.user_id, 'kozel', p.matches, p.rating, p.goats,
       (SELECT COUNT(*) FROM stat_seats s
        WHERE s.user_id = p.user_id AND s.won = 1 AND (p.scope = 0 OR s.chat_id = p.scope)),
       p.points_sum, p.went_out, p.fish_made, p.eggs_taken, p.elo, p.streak, p.name
FROM stat_players p;

DROP TABLE stat_players;
ALTER TABLE stat_players_by_game RENAME TO stat_players;
CREATE INDEX stat_players_board
    ON stat_players(scope, game, rating DESC, matches, elo DESC, user_id);

-- Running totals per pair of partners and game (user_lo < user_hi).
CREATE TABLE stat_pairs_by_game (
    scope       INTEGER NOT NULL,
    user_lo     INTEGER NOT NULL,
    user_hi     INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    matches     INTEGER NOT NULL,
    rating      INTEGER NOT NULL,
    goats       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    points_sum  INTEGER NOT NULL,
    PRIMARY KEY (scope, user_lo, user_hi, game)
);

INSERT INTO stat_pairs_by_game (
    scope, user_lo, user_hi, game, matches, rating, goats, wins, points_sum
)
SELECT p.scope, p.user_lo, p.user_hi, 'kozel', p.matches, p.rating, p.goats,
       (SELECT COUNT(*) FROM stat_seats a JOIN stat_seats b
            ON b.game_id = a.game_id AND b.side = a.side AND b.seat <> a.seat
        WHERE a.user_id = p.user_lo AND b.user_id = p.user_hi AND a.won = 1
          AND (p.scope = 0 OR a.chat_id = p.scope)),
       p.points_sum
FROM stat_pairs p;

DROP TABLE stat_pairs;
ALTER TABLE stat_pairs_by_game RENAME TO stat_pairs;
CREATE INDEX stat_pairs_board
    ON stat_pairs(scope, game, rating DESC, matches, user_lo, user_hi);
