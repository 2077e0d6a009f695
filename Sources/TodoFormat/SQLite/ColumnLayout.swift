import Foundation

/// How a column writes dates as text, learned from its values: `T` or a space between
/// date and time, the fraction of a second (none, always N digits, or as many as needed),
/// and the zone (none, `Z`, or a numeric offset, written `+00:00` since todofmt writes UTC).
struct DateLayout: Hashable {
    enum Fraction: Hashable {
        case none
        case fixed(Int)
        case trimmed
    }

    enum Zone: Hashable {
        case none
        case z
        case offset(colon: Bool)
    }

    var separator: UInt8 = UInt8(ascii: "T")
    var fraction = Fraction.trimmed
    var zone = Zone.z

    /// todofmt's own: ISO 8601 in UTC with `Z` and the fewest fraction digits.
    static let iso = DateLayout()

    /// The date in this layout, in UTC.
    func format(_ date: Date) -> String {
        var whole = date.timeIntervalSince1970.rounded(.down)
        var digits = ""
        switch fraction {
        case .none: break
        case .trimmed:
            let iso = ISO8601.format(date)
            if let dot = iso.firstIndex(of: ".") { digits = String(iso[iso.index(after: dot)...].dropLast()) }
        case .fixed(let count):
            let scale = pow(10.0, Double(count))
            var scaled = ((date.timeIntervalSince1970 - whole) * scale).rounded()
            if scaled >= scale {
                whole += 1
                scaled = 0
            }
            let text = String(Int(scaled))
            digits = String(repeating: "0", count: max(0, count - text.count)) + text
        }
        var text = Array(ISO8601.format(Date(timeIntervalSince1970: whole)).utf8.prefix(19))
        text[10] = separator
        var result = String(decoding: text, as: UTF8.self)
        if !digits.isEmpty { result += "." + digits }
        switch zone {
        case .none: break
        case .z: result += "Z"
        case .offset(let colon): result += colon ? "+00:00" : "+0000"
        }
        return result
    }

    /// Learns a layout from a column's date texts: the most common separator and zone;
    /// fraction digits fixed at N where every value with a fraction has N (Rails' and
    /// Django's six), as many as needed where their count varies (Go's), none where no
    /// value has one.
    struct Learner {
        private var separators: [UInt8: Int] = [:]
        private var zones: [Zone: Int] = [:]
        private var fractionDigits: Set<Int> = []
        private(set) var count = 0

        /// Takes one value; text that is not a date-time is passed over.
        mutating func learn(_ text: String) {
            let bytes = Array(text.utf8)
            guard bytes.count >= 19, ISO8601.parse(bytes, assumeUTC: true) != nil else { return }
            count += 1
            separators[bytes[10], default: 0] += 1
            var i = 19
            if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
                let start = i + 1
                i = start
                while i < bytes.count && bytes[i] >= 48 && bytes[i] <= 57 { i += 1 }
                fractionDigits.insert(i - start)
            }
            let zone: Zone
            if i >= bytes.count {
                zone = .none
            } else if bytes[i] == UInt8(ascii: "Z") || bytes[i] == UInt8(ascii: "z") {
                zone = .z
            } else {
                zone = .offset(colon: bytes[i...].contains(UInt8(ascii: ":")))
            }
            zones[zone, default: 0] += 1
        }

        /// The layout, or nil when no date was seen.
        var layout: DateLayout? {
            guard count > 0 else { return nil }
            var layout = DateLayout()
            layout.separator = separators.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }!.key
            layout.zone = zones.max { $0.value < $1.value }!.key
            layout.fraction =
                fractionDigits.isEmpty ? .none : fractionDigits.count == 1 ? .fixed(fractionDigits.first!) : .trimmed
            return layout
        }
    }
}

/// How a table spells its values, learned from its rows before todofmt writes into it:
/// each date column's layout, and the values its checked and status columns use for done,
/// open and custom statuses (so that a checked Things task gets 3, a Tracks action
/// `completed`, a GORM row 1).
struct TableLayout {
    private(set) var dates: [String: DateLayout] = [:]
    /// The most common stored value of each status, by column.
    private var spellings: [String: [TodoStatus: SQLValue]] = [:]
    /// Columns whose values are numbers outside a Core Data store (an epoch todofmt cannot
    /// know): no date is written into them by itself.
    private(set) var numericDates: Set<String> = []
    /// A layout for date columns that hold no value yet: the table's most common one.
    private(set) var fallback: DateLayout = .iso

    /// Learns from at most this many rows.
    static let sampleRows = 10_000

    struct Learner {
        let table: ListTable
        private var dateColumns: [(index: Int, name: String)] = []
        private var statusColumns: [(index: Int, info: ColumnInfo)] = []
        private var learners: [String: DateLayout.Learner] = [:]
        private var numbers: [String: Int] = [:]
        private var counts: [String: [TodoStatus: [SQLValue: Int]]] = [:]
        /// Status columns with a NULL (which reads as open) in some row.
        private var nulls: Set<String> = []
        /// The values that say nothing (0) in columns mapped to custom statuses alone.
        private var others: [String: [SQLValue: Int]] = [:]
        private var rows = 0

        init(_ table: ListTable) {
            self.table = table
            let offset = table.hasRowID ? 1 : 0
            for (i, column) in table.columns.enumerated() {
                if table.holdsDates(column) { dateColumns.append((i + offset, column.name)) }
                if column.name == table.checkedColumn || column.name == table.statusColumn {
                    statusColumns.append((i + offset, column))
                }
            }
        }

        /// Learns from the statement's current row.
        mutating func learn(_ statement: Statement) {
            guard rows < TableLayout.sampleRows else { return }
            rows += 1
            for (index, name) in dateColumns where !statement.isNull(index) {
                switch statement.value(index) {
                case .text(let text): learners[name, default: DateLayout.Learner()].learn(text)
                case .integer, .real: numbers[name, default: 0] += 1
                default: break
                }
            }
            for (index, column) in statusColumns {
                guard !statement.isNull(index) else {
                    nulls.insert(column.name)
                    continue
                }
                let value = statement.value(index)
                // In a column mapped to custom statuses alone, a value that says nothing (0)
                // spells open only where no word does.
                let meaning: TodoStatus?
                if let map = table.statusMap(of: column.name),
                    map.namesCustomStatusesAlone
                {
                    meaning = table.namedStatus(of: value, column: column, map: map)
                    // (Any other value is a field: written for open, it would read back so.)
                    if meaning == nil && value == .integer(0) {
                        others[column.name, default: [:]][value, default: 0] += 1
                    }
                } else {
                    meaning = table.status(of: value, column: column)
                }
                if let status = meaning {
                    counts[column.name, default: [:]][status, default: [:]][value, default: 0] += 1
                }
            }
        }

        var layout: TableLayout {
            var layout = TableLayout()
            var all = DateLayout.Learner()
            var best = 0
            for (name, learner) in learners {
                if let found = learner.layout {
                    layout.dates[name] = found
                    if learner.count > best {
                        best = learner.count
                        all = learner
                    }
                }
            }
            layout.fallback = all.layout ?? .iso
            if !table.isCoreData {
                for (name, count) in numbers where count > learners[name]?.count ?? 0 {
                    layout.numericDates.insert(name)
                }
            }
            func mostCommon(_ values: [SQLValue: Int]) -> SQLValue {
                values.max { $0.value < $1.value || ($0.value == $1.value && "\($0.key)" > "\($1.key)") }!.key
            }
            for (column, byStatus) in counts {
                for (status, values) in byStatus { layout.spellings[column, default: [:]][status] = mostCommon(values) }
            }
            for (column, values) in others where layout.spellings[column]?[.open] == nil {
                layout.spellings[column, default: [:]][.open] = mostCommon(values)
            }
            // A column whose open rows are NULL, with no value for open: open is NULL, as a
            // JSON file's open items without a status key get none.
            for column in nulls where layout.spellings[column]?[.open] == nil {
                layout.spellings[column, default: [:]][.open] = .null
            }
            return layout
        }
    }

    /// The learned spelling of a status in a column, if the column has one.
    func spelling(of status: TodoStatus, in column: String) -> SQLValue? {
        spellings[column]?[status]
    }

    /// A value the column has for a status other than `status`, to mirror (`no` for `yes`).
    func spellings(in column: String) -> [TodoStatus: SQLValue] { spellings[column] ?? [:] }

    /// The layout a date takes in a column.
    func dateLayout(of column: String) -> DateLayout {
        dates[column] ?? fallback
    }
}
