DROP TABLE td_seats;
DROP TABLE td_tables;
