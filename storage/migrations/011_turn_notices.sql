-- «🔔 Ваш ход» notices in a person's private chat.
-- `users.turn_notices`: whether the person wants them (1, the default) or muted them in
-- the private /settings (0).
-- `turn_notice_messages`: the notices sent and not yet deleted, so a restart deletes
-- those the last run left behind (a notice lives only while its turn does). No foreign
-- key: the row must outlive anything else until its message is gone.
ALTER TABLE users ADD COLUMN turn_notices INTEGER NOT NULL DEFAULT 1;

CREATE TABLE turn_notice_messages (
    chat_id     INTEGER NOT NULL,           -- the person's private chat (their user id)
    message_id  INTEGER NOT NULL,
    game_id     INTEGER NOT NULL,
    PRIMARY KEY (chat_id, message_id)
);
