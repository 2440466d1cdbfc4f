-- Draw offers (P: "offer a draw") ride on the votes: `kind` is 'cancel' (the vote to
-- cancel, as before) or 'draw'; a draw's `round_no` is the match's round it was offered
-- in (its finished rounds + 1), and a match takes one offer a round. The one-open-vote
-- index holds for both kinds together.
ALTER TABLE cancel_votes ADD COLUMN kind TEXT NOT NULL DEFAULT 'cancel'
    CHECK (kind IN ('cancel', 'draw'));
ALTER TABLE cancel_votes ADD COLUMN round_no INTEGER;
CREATE UNIQUE INDEX cancel_votes_one_draw_a_round
    ON cancel_votes(game_id, round_no) WHERE kind = 'draw';

-- A match ended drawn by agreement counts in a column of its own in each person's
-- running totals (stat_matches.ending 'draw' says it of the match).
ALTER TABLE stat_players ADD COLUMN draws INTEGER NOT NULL DEFAULT 0;
