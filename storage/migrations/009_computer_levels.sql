-- How strong each computer seat plays, chosen in the lobby (🤖 Лёгкий /
-- Средний / Сильный): a `domino.ai.Level` value. Seats of earlier games, and people's
-- seats (a computer standing in for a person plays at medium), read as 'medium'.
ALTER TABLE seats ADD COLUMN level TEXT NOT NULL DEFAULT 'medium';
