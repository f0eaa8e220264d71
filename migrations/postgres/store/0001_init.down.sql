DROP TABLE idempotency;
DROP TABLE checkpoints;
DROP TABLE players;
DROP TABLE chain_head;
DROP TABLE events;
