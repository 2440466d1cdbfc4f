-- Tournaments (docs/tournaments.md): a group's topic runs one at a time. Everything a
-- restart needs is here: the options, the entrants in sign-up order, every table with
-- its round, its game and its result, and the byes. The standings are never stored:
-- they are recomputed from the results (domino.tournament.standings).
CREATE TABLE tournaments (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id       INTEGER NOT NULL,
    thread_id     INTEGER,                     -- the topic it was opened in; NULL: General
    creator_id    INTEGER NOT NULL,
    status        TEXT    NOT NULL DEFAULT 'signup'
                  CHECK (status IN ('signup', 'running', 'paused', 'finished', 'cancelled')),
    options       TEXT    NOT NULL,            -- JSON: storage.records.TournamentOptions
    current_round INTEGER NOT NULL DEFAULT 0,  -- 0 until it starts
    version       INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT    NOT NULL,
    started_at    TEXT,
    ended_at      TEXT
);

CREATE UNIQUE INDEX tournaments_one_live_per_topic
    ON tournaments(chat_id, COALESCE(thread_id, 0))
    WHERE status IN ('signup', 'running', 'paused');
CREATE INDEX tournaments_by_chat ON tournaments(chat_id, status, id);

-- An entrant: a person, a computer (user_id NULL) or, in fixed pairs, two people.
CREATE TABLE tournament_entrants (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    number          INTEGER NOT NULL,          -- 0-based, in sign-up order
    user_id         INTEGER,
    name            TEXT    NOT NULL,
    partner_id      INTEGER,
    partner_name    TEXT,
    level           TEXT,                      -- a computer's
    withdrawn_round INTEGER,                   -- forfeited from this round on
    PRIMARY KEY (tournament_id, number)
);
CREATE INDEX tournament_entrants_by_user ON tournament_entrants(user_id);
CREATE INDEX tournament_entrants_by_partner ON tournament_entrants(partner_id);

CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round_no      INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    entrants      TEXT    NOT NULL,            -- JSON list of entrant numbers, seat order
    state         TEXT    NOT NULL
                  CHECK (state IN ('planned', 'due', 'open', 'playing', 'done')),
    game_id       INTEGER,
    thread_id     INTEGER,
    absent        TEXT    NOT NULL DEFAULT '[]',  -- JSON list: entrants forfeited here
    result        TEXT,                        -- JSON: domino.tournament.TableResult
    PRIMARY KEY (tournament_id, round_no, table_no)
);
CREATE INDEX tournament_tables_by_state ON tournament_tables(state);

CREATE TABLE tournament_byes (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round_no      INTEGER NOT NULL,
    entrant       INTEGER NOT NULL,
    half_points   INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, round_no, entrant)
);

-- A table's game names its table, so its end finds the table to count in.
ALTER TABLE games ADD COLUMN tournament_id INTEGER;
ALTER TABLE games ADD COLUMN tournament_round INTEGER;
ALTER TABLE games ADD COLUMN tournament_table INTEGER;
