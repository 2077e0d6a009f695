BEGIN TRANSACTION;
CREATE TABLE Note (cdate text primary key, content text);
INSERT INTO "Note" VALUES('2024-05-01 09:30:00','Buy stamps');
INSERT INTO "Note" VALUES('2024-05-02 18:05:12','Call the plumber');
INSERT INTO "Note" VALUES('2024-05-03 07:45:00','Renew the library card');
COMMIT;
