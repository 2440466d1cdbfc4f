-- The group message that shows a tournament (its sign-up, then its rounds and standings:
-- bot/telegram/tournament_board.py), so a restart edits it instead of sending another;
-- `digest` is what it shows now (NULL: not known, edited once more).
CREATE TABLE tournament_messages (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments(id) ON DELETE CASCADE,
    chat_id       INTEGER NOT NULL,
    message_id    INTEGER NOT NULL,
    digest        TEXT
);
