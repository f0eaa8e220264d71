-- Tokens become records of their own, several per player, each with a
-- label, a coarse last use, an optional expiry and a revocation (NULL:
-- never). Every existing player's token becomes its first record,
-- labelled 'registration'. Numbered after the SQLite store's migration of
-- the same change.
CREATE TABLE tokens (
    id           text        PRIMARY KEY,
    player_id    text        NOT NULL REFERENCES players (id),
    label        text        NOT NULL,
    token_hash   text        NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL,
    last_used_at timestamptz,
    expires_at   timestamptz,
    revoked_at   timestamptz
);
CREATE INDEX tokens_by_player ON tokens (player_id, created_at);

INSERT INTO tokens (id, player_id, label, token_hash, created_at)
SELECT 'tk_' || substr(md5(random()::text || clock_timestamp()::text || id), 1, 24), id, 'registration', token_hash, created_at
FROM players;

ALTER TABLE players DROP COLUMN token_hash;
