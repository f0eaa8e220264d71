CREATE TABLE rt_history (
    player_id    TEXT    NOT NULL,
    position     INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    variant      TEXT    NOT NULL,
    hand_id      TEXT    NOT NULL,
    seat         INTEGER NOT NULL,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    idle_days    INTEGER NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    settled_at   INTEGER NOT NULL
);
CREATE UNIQUE INDEX rt_history_player ON rt_history (player_id, position);
INSERT INTO rt_history (player_id, position, game, variant, hand_id, seat, mu_before, sigma_before, idle_days, mu_after, sigma_after, settled_at)
    SELECT p.player_id, p.position, h.game, h.variant, h.hand_id, p.seat, p.mu_before, p.sigma_before, p.idle_days, p.mu_after, p.sigma_after, h.settled_at
    FROM rt_player_hands p JOIN rt_hands h ON h.position = p.position ORDER BY p.position, p.seat;
DROP TABLE rt_player_hands;
DROP TABLE rt_hands;
