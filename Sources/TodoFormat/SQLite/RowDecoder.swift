/// Makes an item of each row of an app's table, by the roles of its columns (FORMAT.md,
/// section 7.7): the name; done-ness from the checked column, a status column (which
/// wins) or a completion date; every other column a field under its name, NULL none.
/// A checked or status value that cannot play its role is a field too, as in section 7.1.
struct RowDecoder {
    private enum Role {
        case name, checked, status, completion, field, skip
    }

    private struct Column {
        /// Its index in the statement's row.
        var index: Int
        var info: ColumnInfo
        var role: Role
        /// Integers of a column that is neither boolean nor a Core Data date are plain integers.
        var plainIntegers: Bool
        /// A status column whose values `--field` maps to custom statuses alone
        /// (`phase:2=/`): its other values say nothing of done-ness, which the checked
        /// column tells.
        var customOnly = false
    }

    let table: ListTable
    private let plan: [Column]

    /// A decoder of rows read by `table.selectStatement` (or any query whose columns are the
    /// rowid, when the table has one, then the table's columns).
    init(_ table: ListTable) {
        self.table = table
        let offset = table.hasRowID ? 1 : 0
        plan = table.columns.enumerated().map { i, column in
            let role: Role =
                switch column.name {
                case table.nameColumn: .name
                case table.checkedColumn: .checked
                case table.statusColumn: .status
                case table.completionColumn: .completion
                case _ where table.isCoreData && ListTable.coreDataBookkeeping.contains(column.name): .skip
                default: .field
                }
            let map = role == .status ? table.statusMap(of: column.name) : nil
            return Column(
                index: i + offset, info: column, role: role,
                plainIntegers: !column.isBooleanType && !(column.isDateType && table.isCoreData),
                customOnly: map?.namesCustomStatusesAlone ?? false)
        }
    }

    /// The item of the statement's current row.
    func item(_ statement: Statement) -> TodoItem {
        var name = ""
        var checked: TodoStatus? = nil
        var status: TodoStatus? = nil
        var completed = false
        var fields: [Field] = []
        fields.reserveCapacity(plan.count)
        if table.keyColumns.isEmpty { fields.append(Field("rowid", .integer(Int(statement.int64(0))))) }
        for column in plan where !statement.isNull(column.index) {
            switch column.role {
            case .name:
                name = statement.text(column.index)
            case .checked, .status:
                let value = statement.value(column.index)
                if column.customOnly, let map = table.statusMap(of: column.info.name),
                    table.namedStatus(of: value, column: column.info, map: map) == nil
                {
                    // A value that names no status in a column mapped to custom statuses
                    // alone: 0 says nothing, any other (`idea`, 5) is a field, as in JSON.
                    if value != .integer(0), let field = table.fieldValue(value, column: column.info) {
                        fields.append(Field(column.info.name, field))
                    }
                } else if let meaning = table.status(of: value, column: column.info) {
                    if column.role == .checked {
                        checked = meaning
                    } else if !(column.customOnly && meaning == .open) {
                        status = meaning
                    }
                } else if let field = table.fieldValue(value, column: column.info) {
                    fields.append(Field(column.info.name, field))
                }
            case .completion:
                completed = true
                if let field = table.fieldValue(statement.value(column.index), column: column.info) {
                    fields.append(Field(column.info.name, field))
                }
            case .field:
                if column.plainIntegers, statement.isInteger(column.index) {
                    fields.append(Field(column.info.name, .integer(Int(statement.int64(column.index)))))
                } else if let field = table.fieldValue(statement.value(column.index), column: column.info) {
                    fields.append(Field(column.info.name, field))
                }
            case .skip:
                continue
            }
        }
        return TodoItem(name: name, status: status ?? checked ?? (completed ? .done : .open), fields: fields)
    }
}
