-- Tokens become records of their own, several per player, each with a
-- label, a coarse last use, an optional expiry and a revocation. Every
-- existing player's token becomes its first record, labelled
-- 'registration'. Times are unix nanoseconds, UTC; NULL: never.
CREATE TABLE tokens (
    id           TEXT    PRIMARY KEY,
    player_id    TEXT    NOT NULL,
    label        TEXT    NOT NULL,
    token_hash   TEXT    NOT NULL UNIQUE,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER,
    expires_at   INTEGER,
    revoked_at   INTEGER
);
CREATE INDEX tokens_by_player ON tokens (player_id, created_at);

INSERT INTO tokens (id, player_id, label, token_hash, created_at)
SELECT 'tk_' || lower(hex(randomblob(12))), id, 'registration', token_hash, created_at FROM players;

-- SQLite cannot drop a UNIQUE column: the table is rebuilt without it.
CREATE TABLE players_new (
    id         TEXT    PRIMARY KEY,
    name       TEXT    NOT NULL,
    created_at INTEGER NOT NULL -- unix nanoseconds, UTC
);
INSERT INTO players_new (id, name, created_at) SELECT id, name, created_at FROM players;
DROP TABLE players;
ALTER TABLE players_new RENAME TO players;
