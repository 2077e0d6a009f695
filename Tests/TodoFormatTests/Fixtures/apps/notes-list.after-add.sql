PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE Note (cdate text primary key, content text);
INSERT INTO Note VALUES('2024-05-01 09:30:00','Buy stamps');
INSERT INTO Note VALUES('2024-05-02 18:05:12',replace('Call the plumber about the kitchen tap:\nit drips at night','\n',char(10)));
INSERT INTO Note VALUES('2024-05-03 07:45:00','Renew Sam''s library card');
INSERT INTO Note VALUES('2024-05-04 12:00:30','Water the plants');
INSERT INTO Note VALUES('2026-01-02 03:04:05','Added item');
COMMIT;
