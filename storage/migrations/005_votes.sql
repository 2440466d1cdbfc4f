-- Votes to cancel a running match (/cancel by a player who is neither the creator nor an
-- admin). One open vote per game; each person's latest ballot counts; kept here so a
-- restart keeps the vote, its deadline and its group message.
CREATE TABLE cancel_votes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    chat_id     INTEGER NOT NULL,
    started_by  INTEGER NOT NULL REFERENCES users(id),
    state       TEXT    NOT NULL DEFAULT 'open'
                CHECK (state IN ('open', 'passed', 'failed', 'expired', 'closed')),
    opened_at   TEXT    NOT NULL,
    expires_at  TEXT    NOT NULL,
    closed_at   TEXT,
    message_id  INTEGER,                       -- the group message with the buttons, once sent
    digest      TEXT                           -- what that message shows now
);

CREATE UNIQUE INDEX cancel_votes_one_open_per_game ON cancel_votes(game_id) WHERE state = 'open';

CREATE TABLE cancel_ballots (
    vote_id     INTEGER NOT NULL REFERENCES cancel_votes(id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL REFERENCES users(id),
    in_favour   INTEGER NOT NULL,              -- 1: cancel the match, 0: play on
    cast_at     TEXT    NOT NULL,
    PRIMARY KEY (vote_id, user_id)
);
