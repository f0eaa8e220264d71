-- The hash of the event each checkpoint was written at: a log restored
-- from an older backup may hold another event at that position (or none),
-- and the projection must then be rebuilt rather than skip what it thinks
-- it has applied. '' for checkpoints written before this migration.
ALTER TABLE projection_checkpoints ADD COLUMN hash TEXT NOT NULL DEFAULT '';
