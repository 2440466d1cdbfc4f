-- Values the bot keeps for itself from one run to the next, by name: the
-- webhook's secret token when WEBHOOK_SECRET is not set ("webhook_secret"), so a restart
-- tells Telegram the same one. The database file is private (0600), like the seeds.
CREATE TABLE bot_values (
    name   TEXT PRIMARY KEY,
    value  TEXT NOT NULL
) WITHOUT ROWID;
