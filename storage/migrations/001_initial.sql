-- The first schema: people, chats, games with their seats, the action log and the outbox.
-- Times are ISO-8601 UTC text. JSON columns hold engine values (Ruleset.to_dict, Match.to_json).

CREATE TABLE users (
    id            INTEGER PRIMARY KEY,          -- Telegram user id
    first_name    TEXT    NOT NULL,
    last_name     TEXT,
    username      TEXT,
    language      TEXT    NOT NULL DEFAULT 'ru',
    can_message   INTEGER NOT NULL DEFAULT 0,   -- pressed Start in the private chat and not blocked us
    updated_at    TEXT    NOT NULL
);

CREATE TABLE chats (
    id            INTEGER PRIMARY KEY,          -- Telegram chat id
    type          TEXT    NOT NULL,             -- private, group, supergroup
    title         TEXT,
    bot_member    INTEGER NOT NULL DEFAULT 1,   -- 0 once the bot was removed
    settings      TEXT    NOT NULL DEFAULT '{}',
    updated_at    TEXT    NOT NULL
);

CREATE TABLE games (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id          INTEGER NOT NULL REFERENCES chats(id) ON UPDATE CASCADE,
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    creator_id       INTEGER NOT NULL REFERENCES users(id),
    ruleset          TEXT    NOT NULL,          -- JSON: Ruleset.to_dict()
    seats_wanted     INTEGER NOT NULL,
    match            TEXT,                      -- JSON: Match.to_json(), once started
    version          INTEGER NOT NULL DEFAULT 0, -- bumped by every change (optimistic locking)
    created_at       TEXT    NOT NULL,
    started_at       TEXT,
    ended_at         TEXT
);

-- One game per group at a time.
CREATE UNIQUE INDEX games_one_active_per_chat
    ON games(chat_id) WHERE status IN ('lobby', 'playing');

CREATE TABLE seats (
    game_id         INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL,
    user_id         INTEGER REFERENCES users(id),   -- NULL: a computer player
    name            TEXT    NOT NULL,
    active          INTEGER NOT NULL DEFAULT 1,     -- 1 while the game is in the lobby or playing
    PRIMARY KEY (game_id, seat)
);

-- One active game per person at a time.
CREATE UNIQUE INDEX seats_one_active_game_per_user
    ON seats(user_id) WHERE active = 1 AND user_id IS NOT NULL;

CREATE TABLE actions (
    game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,              -- 1, 2, ... in the order applied
    round_no    INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    action      TEXT    NOT NULL,              -- str(Action), read back by parse_action
    actor_id    INTEGER,                       -- the person who pressed; NULL for a computer
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- The messages that show a game (the lobby, the table, each hand), kept apart from the
-- game's state: they change when Telegram answers, not when the game moves. `digest`
-- is a hash of what the message shows now, so nothing is sent again that is already there.
CREATE TABLE messages (
    game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    role        TEXT    NOT NULL CHECK (role IN ('lobby', 'table', 'hand')),
    seat        INTEGER NOT NULL DEFAULT -1,   -- the hand's seat; -1 for the lobby and the table
    chat_id     INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    file_id     TEXT,                          -- the table picture, reused by the hands
    digest      TEXT,
    PRIMARY KEY (game_id, role, seat)
);

-- Messages owed to Telegram, written in the same transaction as the change they
-- announce and marked sent afterwards, so a crash in between re-sends, never forgets.
CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER REFERENCES games(id) ON DELETE CASCADE,
    chat_id     INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    payload     TEXT    NOT NULL,              -- JSON
    created_at  TEXT    NOT NULL,
    sent_at     TEXT
);

CREATE INDEX outbox_pending ON outbox(id) WHERE sent_at IS NULL;
