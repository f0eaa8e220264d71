-- Back to one token per player: the oldest token not revoked. A player
-- whose every token is revoked gets a hash no token has, so that going
-- down never brings a revoked token back to life.
ALTER TABLE players ADD COLUMN token_hash text;
UPDATE players p SET token_hash = COALESCE(
    (SELECT t.token_hash FROM tokens t
     WHERE t.player_id = p.id AND t.revoked_at IS NULL
     ORDER BY t.created_at, t.id LIMIT 1),
    'revoked:' || p.id);
ALTER TABLE players ALTER COLUMN token_hash SET NOT NULL;
ALTER TABLE players ADD CONSTRAINT players_token_hash_key UNIQUE (token_hash);
DROP TABLE tokens;
