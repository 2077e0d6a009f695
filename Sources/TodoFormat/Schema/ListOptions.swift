/// How to find a list in a file and what its item keys are called.
public struct ListOptions: Hashable, Sendable {
    /// The key of a dictionary root that holds the list (`--key`); nil to find it.
    public var key: String?
    /// The keys of item objects (`--field ROLE=KEY` names some).
    public var schema: ItemSchema
    /// The table of a database that holds the list (`--table`); nil to find it.
    public var table: String?

    /// Options for finding a list: all nil or standard to let todofmt find it.
    public init(key: String? = nil, schema: ItemSchema = .standard, table: String? = nil) {
        self.key = key
        self.schema = schema
        self.table = table
    }
}
