DROP TRIGGER lb_results_stats;
DROP TABLE lb_player_stats;
CREATE INDEX lb_results_player ON lb_results (player_id);
CREATE TABLE hh_hand_events (
    hand_id     TEXT    NOT NULL,
    position    INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    recorded_at INTEGER NOT NULL,
    PRIMARY KEY (hand_id, position)
);
INSERT OR IGNORE INTO hh_hand_events (hand_id, position, version, type, data, recorded_at)
    SELECT r.hand_id, e.value ->> 0, e.value ->> 1, e.value ->> 2, e.value ->> 3, e.value ->> 4
    FROM hh_hand_event_runs r, json_each(r.events) e
    ORDER BY r.hand_id, r.position, e.key;
DROP TABLE hh_hand_event_runs;
CREATE INDEX hh_hands_settled ON hh_hands (table_id, hand) WHERE settled_at IS NOT NULL;
