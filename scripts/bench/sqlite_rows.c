/* The floor for reading a table through libsqlite3, which todofmt uses for SQLite: step
 * through `SELECT * FROM table` in rowid order and take every column's value by its type,
 * as any reader of the rows must, and do nothing else with them. */
#include <sqlite3.h>
#include <stdio.h>

int main(int argc, char **argv) {
    sqlite3 *db;
    sqlite3_stmt *select;
    char sql[256];
    if (argc != 3 || sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
        return 2;
    snprintf(sql, sizeof sql, "SELECT * FROM \"%s\" ORDER BY rowid", argv[2]);
    if (sqlite3_prepare_v2(db, sql, -1, &select, NULL) != SQLITE_OK) return 2;
    int columns = sqlite3_column_count(select);
    long rows = 0, sum = 0;
    int code;
    while ((code = sqlite3_step(select)) == SQLITE_ROW) {
        rows++;
        for (int i = 0; i < columns; i++) {
            switch (sqlite3_column_type(select, i)) {
            case SQLITE_INTEGER: sum += sqlite3_column_int64(select, i); break;
            case SQLITE_FLOAT: sum += (long)sqlite3_column_double(select, i); break;
            case SQLITE_TEXT: sum += sqlite3_column_text(select, i)[0] + sqlite3_column_bytes(select, i); break;
            case SQLITE_BLOB: sum += sqlite3_column_bytes(select, i); break;
            }
        }
    }
    sqlite3_finalize(select);
    sqlite3_close(db);
    fprintf(stderr, "%ld rows (%ld)\n", rows, sum);
    return code == SQLITE_DONE ? 0 : 1;
}
