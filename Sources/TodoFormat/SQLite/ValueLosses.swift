import Foundation

/// Field values an SQLite column cannot give back as they were (FORMAT.md, section 7.7):
/// SQLite has no NaN (it stores NULL), keeps 64-bit integers only, stores -0.0 as 0 in a
/// column with numeric affinity, and a NULL is no field when read back. Each is a warning.
enum SQLiteValueLoss {
    /// Notes in `log` what `value` (stored in a column declared `declaredType`) loses, for
    /// the item `describe()` names.
    static func note(_ value: FieldValue, declaredType: String, in log: inout WarningLog, item describe: () -> String) {
        switch value {
        case .null:
            log.note(
                .values, "SQLite has no null field: null values were written as NULL, which reads back as no field",
                item: describe())
        case .bigInteger:
            log.note(.values, "SQLite integers are 64 bits: larger integers were written as text", item: describe())
        case .double(let d) where d.isNaN:
            log.note(
                .values, "SQLite has no NaN: it was written as NULL, which reads back as no field", item: describe())
        case .double(let d) where d == 0 && d.sign == .minus && hasNumericAffinity(declaredType):
            log.note(.values, "SQLite stores -0.0 as 0 in a numeric column: it was written as 0", item: describe())
        default:
            break
        }
    }

    /// Whether a column declared so converts the reals it is given (SQLite's affinity rules:
    /// INTEGER, REAL and NUMERIC affinity do; TEXT turns them into text; BLOB or no type keep them).
    static func hasNumericAffinity(_ declaredType: String) -> Bool {
        let t = declaredType.uppercased()
        if t.contains("INT") { return true }
        if t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT") { return false }
        if t.contains("BLOB") || t.isEmpty { return false }
        return true
    }
}
