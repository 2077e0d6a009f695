/// How to find a list in a file and what its item keys are called.
public struct ListOptions: Hashable, Sendable {
    /// The key of a dictionary root that holds the list (`--key`); nil to find it.
    public var key: String?
    /// The keys of item objects (`--field ROLE=KEY` names some).
    public var schema: ItemSchema
    /// The table of a database that holds the list (`--table`); nil to find it. On a new
    /// database, the name of the table todofmt creates.
    public var table: String?
    /// The Core Data entity whose rows are the list (`--entity`), by its name in the
    /// store's `Z_PRIMARYKEY`; nil to find it.
    public var entity: String?
    /// Whether the list comes from a format that keeps dates as text
    /// (`ListFormat.keepsDatesAsText`), for a checklist it is written into. Set by
    /// `Conversion` for the list it writes.
    var datesAreText = false

    /// Options for finding a list: all nil or standard to let todofmt find it.
    public init(key: String? = nil, schema: ItemSchema = .standard, table: String? = nil, entity: String? = nil) {
        self.key = key
        self.schema = schema
        self.table = table
        self.entity = entity
    }
}
