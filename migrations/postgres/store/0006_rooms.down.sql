DROP TABLE rooms;
