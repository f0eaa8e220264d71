DROP TABLE idempotency;
DROP TABLE checkpoints;
DROP TABLE players;
DROP TABLE events;
