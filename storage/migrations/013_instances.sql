-- Several instances of the bot on one database.
--
-- `leases`: who may act now. An instance started with INSTANCE_NAME works (polls
-- Telegram, takes webhooks, runs the clocks, computers and announcements) only while it
-- holds the lease "leader": it renews `expires_at` (unix seconds) well before it passes;
-- a standby takes the lease once it has passed (storage.leases, bot.leadership).
CREATE TABLE leases (
    name        TEXT    PRIMARY KEY,
    holder      TEXT    NOT NULL,
    expires_at  REAL    NOT NULL
);

-- `flood_budgets`: each group's token bucket of the outgoing queue (bot.outgoing), as
-- last written: the tokens left at `at` (unix seconds). An instance that takes over, or
-- a bot started again, goes on from there instead of a full bucket, so the group's
-- twenty messages a minute hold across instances and restarts.
CREATE TABLE flood_budgets (
    chat_id  INTEGER PRIMARY KEY,
    tokens   REAL    NOT NULL,
    at       REAL    NOT NULL
);
