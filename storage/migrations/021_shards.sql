-- Several instances that all play (docs/instances.md): each owns some shards.
--
-- A game belongs to the shard of its chat (`storage.shards.shard_of`: chat_id modulo
-- SHARD_COUNT). A shard is a lease in `leases` named "shard:<n>" (its term fences every
-- change written for its games, as "leader"'s does); the instances share the shards
-- fairly between the live ones.

-- `instances`: who is alive. Each instance in shard mode writes `seen_at` (unix seconds)
-- every few seconds; one not seen for a lease's time is gone, and its fair share of the
-- shards goes to the others.
CREATE TABLE instances (
    name        TEXT    PRIMARY KEY,
    started_at  REAL    NOT NULL,
    seen_at     REAL    NOT NULL
);

-- `update_queue`: Telegram's updates on their way to the instance that owns their shard.
-- The one instance that receives them (by polling, or the webhook behind nginx) stores
-- each here; the owner of `shard` takes them in `update_id` order (each chat's in its
-- order) and deletes the row in the same transaction as the change the update made, so
-- each update reaches its use case exactly once.
CREATE TABLE update_queue (
    update_id    INTEGER PRIMARY KEY,
    shard        INTEGER NOT NULL,
    chat_id      INTEGER,
    body         TEXT    NOT NULL,
    received_at  REAL    NOT NULL
);
CREATE INDEX update_queue_by_shard ON update_queue (shard, update_id);
-- `take` returns a chat's update only when none of that chat is older: by this index.
CREATE INDEX update_queue_by_chat ON update_queue (chat_id, update_id);

-- `bot_budget`: Telegram's bot-wide limit (about thirty messages a second) as one token
-- bucket shared by every instance: each claims a few tokens at a time, so N instances
-- together never send more than one would.
CREATE TABLE bot_budget (
    name    TEXT    PRIMARY KEY,
    tokens  REAL    NOT NULL,
    at      REAL    NOT NULL
);
