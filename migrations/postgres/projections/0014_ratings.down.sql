DROP TABLE rt_history;
DROP TABLE rt_ratings;
DROP TABLE rt_tables;
DELETE FROM projection_checkpoints WHERE name = 'ratings';
