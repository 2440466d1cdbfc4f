-- Fencing the lease (bot.leadership, storage.leases): `term` grows by one each time the
-- lease is taken (by another instance, or by the same name started again), never when
-- it is renewed. An instance acts under the term it took; every change it writes checks,
-- in its own transaction, that the term is still the current one (storage.db.Fence), so a
-- leader that was paused past its lease and resumed after a takeover changes nothing.
ALTER TABLE leases ADD COLUMN term INTEGER NOT NULL DEFAULT 0;
