-- Match records and rating totals for /top, /stats and /history (storage/stats.py).
-- The records keep no foreign key to `games`: they are the match's lasting record and
-- must outlive any clean-up of game rows. Times are ISO-8601 UTC text.

-- One row per recorded match (a finished game, or one abandoned by a person: K-11).
CREATE TABLE stat_matches (
    game_id       INTEGER PRIMARY KEY,           -- games.id; one record per game
    chat_id       INTEGER NOT NULL,
    variant       TEXT    NOT NULL,              -- Variant value
    ruleset       TEXT    NOT NULL,              -- JSON: Ruleset.to_dict()
    target        INTEGER NOT NULL,
    teams         INTEGER NOT NULL,              -- 1: partners 0+2 against 1+3
    sides         TEXT    NOT NULL,              -- JSON: seats of each side
    ending        TEXT    NOT NULL,              -- Ending value
    culprit_seat  INTEGER,                       -- the first person to abandon, if any
    rounds        INTEGER NOT NULL,
    elo_counted   INTEGER NOT NULL,              -- 0: a computer sat at the table from the start
    started_at    TEXT,
    ended_at      TEXT    NOT NULL
);

CREATE INDEX stat_matches_history ON stat_matches(chat_id, ended_at DESC, game_id DESC);

-- Each seat of a recorded match: who sat there then and how they did.
CREATE TABLE stat_seats (
    game_id         INTEGER NOT NULL REFERENCES stat_matches(game_id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL,
    user_id         INTEGER,                     -- NULL: a computer player from the start
    chat_id         INTEGER NOT NULL,            -- copied from the match, for the indexes
    name            TEXT    NOT NULL,            -- the name at the time
    side            INTEGER NOT NULL,
    points          INTEGER NOT NULL,            -- final points (the side's, in team play)
    goat            INTEGER NOT NULL,            -- 1: козёл of this match
    rating_gain     INTEGER NOT NULL,            -- K-11
    went_out        INTEGER NOT NULL,            -- rounds this seat went out
    fish_made       INTEGER NOT NULL,            -- rounds this seat ended as the рыбак
    eggs_taken      INTEGER NOT NULL,            -- rounds this seat's side took carried eggs
    elo_before      REAL,                        -- in the group; NULL unless the match counted
    elo_after       REAL,
    elo_all_before  REAL,                        -- across all groups
    elo_all_after   REAL,
    PRIMARY KEY (game_id, seat)
);

-- /stats: best and worst match of a person, in one group and across all groups.
CREATE INDEX stat_seats_user_chat ON stat_seats(user_id, chat_id, rating_gain, game_id)
    WHERE user_id IS NOT NULL;
CREATE INDEX stat_seats_user ON stat_seats(user_id, rating_gain, game_id)
    WHERE user_id IS NOT NULL;

-- Every round of a recorded match: the score sheet.
CREATE TABLE stat_rounds (
    game_id        INTEGER NOT NULL REFERENCES stat_matches(game_id) ON DELETE CASCADE,
    round_no       INTEGER NOT NULL,
    outcome        TEXT    NOT NULL,             -- OutcomeKind value: went_out or fish
    seat           INTEGER NOT NULL,             -- who went out, or the рыбак
    points         TEXT    NOT NULL,             -- JSON: each side's points this round
    totals         TEXT    NOT NULL,             -- JSON: each side's recorded points after it
    eggs_before    INTEGER NOT NULL,             -- K-9: eggs carried into the round
    eggs_after     INTEGER NOT NULL,             -- eggs carried out of it
    eggs_taken_by  INTEGER,                      -- the side that took the carried eggs
    PRIMARY KEY (game_id, round_no)
);

-- Running totals per person, kept up to date by every recorded match, so /top is one
-- indexed query. scope: the chat id, or 0 for all groups together.
CREATE TABLE stat_players (
    scope        INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    matches      INTEGER NOT NULL,
    rating       INTEGER NOT NULL,
    goats        INTEGER NOT NULL,
    points_sum   INTEGER NOT NULL,
    went_out     INTEGER NOT NULL,
    fish_made    INTEGER NOT NULL,
    eggs_taken   INTEGER NOT NULL,
    elo          REAL,                           -- NULL: no Elo match yet
    streak       INTEGER NOT NULL,               -- > 0 not козёл in a row, < 0 козёл in a row
    name         TEXT    NOT NULL,               -- the seat name last recorded (users wins)
    PRIMARY KEY (scope, user_id)
);

CREATE INDEX stat_players_board
    ON stat_players(scope, rating DESC, matches, elo DESC, user_id);

-- Running totals per pair of partners in team games (user_lo < user_hi).
CREATE TABLE stat_pairs (
    scope       INTEGER NOT NULL,
    user_lo     INTEGER NOT NULL,
    user_hi     INTEGER NOT NULL,
    matches     INTEGER NOT NULL,
    rating      INTEGER NOT NULL,
    goats       INTEGER NOT NULL,
    points_sum  INTEGER NOT NULL,
    PRIMARY KEY (scope, user_lo, user_hi)
);

CREATE INDEX stat_pairs_board ON stat_pairs(scope, rating DESC, matches, user_lo, user_hi);
