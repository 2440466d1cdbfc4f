-- «💡 Подсказка». The hints each seat of a game took (`storage.hints`): one
-- row per seat that pressed at least once, with the last hint shown (for the move
-- number `move`, so a second press on the same turn shows it again without counting
-- or computing it again). `action` is the engine's text of the move
-- (`domino.actions.parse_action` reads it back), `reason` one of `domino.ai.REASONS`,
-- `args` its numbers (JSON). The row goes with its game.
CREATE TABLE hints (
    game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    count    INTEGER NOT NULL,            -- hints counted: one per turn at most
    move     INTEGER NOT NULL,            -- the match's move number of the last hint
    action   TEXT    NOT NULL,
    reason   TEXT    NOT NULL,
    args     TEXT    NOT NULL DEFAULT '{}',
    PRIMARY KEY (game_id, seat)
);

-- The match record: each seat's hints (stat_seats), and each person's running total per
-- scope and game (stat_players). Matches recorded before count none.
ALTER TABLE stat_seats ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
ALTER TABLE stat_players ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
