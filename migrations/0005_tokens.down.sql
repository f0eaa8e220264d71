-- Back to one token per player: the oldest token not revoked. A player
-- whose every token is revoked gets a hash no token has, so that going
-- down never brings a revoked token back to life.
CREATE TABLE players_old (
    id         TEXT    PRIMARY KEY,
    name       TEXT    NOT NULL,
    token_hash TEXT    NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
);
INSERT INTO players_old (id, name, token_hash, created_at)
SELECT p.id, p.name,
       COALESCE((SELECT t.token_hash FROM tokens t
                 WHERE t.player_id = p.id AND t.revoked_at IS NULL
                 ORDER BY t.created_at, t.id LIMIT 1),
                'revoked:' || p.id),
       p.created_at
FROM players p;
DROP TABLE players;
ALTER TABLE players_old RENAME TO players;
DROP TABLE tokens;
