-- Hands shown inside the group (Bot API ephemeral messages: one member alone sees them).
-- `users.hands`: where the person wants their hand ('group', 'private', 'both'), chosen
-- in the private /settings; NULL: as their group's default (`chats.settings`' "hands").
-- `group_hands`: the ephemeral hand message each seat has in its game's group, so the
-- hand is edited in place as the game moves, also after a restart. Telegram names it by
-- the group, its receiver and `ephemeral_id` (its message_id is 0); `digest` is what it
-- shows now (NULL: not known, edited at the next change).
ALTER TABLE users ADD COLUMN hands TEXT;

CREATE TABLE group_hands (
    game_id       INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    chat_id       INTEGER NOT NULL,             -- the game's group
    receiver_id   INTEGER NOT NULL,             -- the seat's person
    ephemeral_id  INTEGER NOT NULL,
    digest        TEXT,
    PRIMARY KEY (game_id, seat)
);
