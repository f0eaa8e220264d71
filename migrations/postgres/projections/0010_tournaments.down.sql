DROP TABLE tn_players;
DROP TABLE tn_tournaments;
DELETE FROM projection_checkpoints WHERE name = 'tournaments';
