/// A Core Data store's entities, as its own table `Z_PRIMARYKEY` names them: each entity's
/// number (the `Z_ENT` of its rows), name, parent entity (`Z_SUPER`, 0 for a root) and the
/// largest key given so far (`Z_MAX`, kept on the root of a hierarchy, whose entities share
/// one table and one run of keys).
struct CoreDataModel {
    struct Entity: Hashable {
        var number: Int
        var name: String
        /// The parent entity's number; 0 for a root.
        var parent: Int
    }

    /// Every entity, by number order; persistent history's (16001…) left out.
    let entities: [Entity]
    /// The store's tables, for finding an entity's table.
    private let tables: Set<String>

    /// Core Data's own tables, which are not entities' tables.
    static let ownTables: Set<String> = [
        "Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE", "ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING",
    ]
    /// Entity numbers from here on are Core Data's persistent history.
    static let historyNumbers = 16000

    /// The model of a store (tables `Z_PRIMARYKEY` and `Z_METADATA` present); nil for any
    /// other database.
    init?(db: Database, tables: [String]) throws(StoreError) {
        guard tables.contains("Z_PRIMARYKEY") && tables.contains("Z_METADATA") else { return nil }
        var entities: [Entity] = []
        for row in try db.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT") {
            guard case .integer(let number) = row[0], case .text(let name) = row[1], number < Self.historyNumbers else {
                continue
            }
            var parent = 0
            if case .integer(let p) = row[2] { parent = Int(p) }
            entities.append(Entity(number: Int(number), name: name, parent: parent))
        }
        self.entities = entities
        self.tables = Set(tables)
    }

    /// The entity of this name: as written, else ignoring case.
    func entity(named name: String) -> Entity? {
        entities.first { $0.name == name } ?? entities.first { $0.name.lowercased() == name.lowercased() }
    }

    func entity(number: Int) -> Entity? { entities.first { $0.number == number } }

    /// The root of the entity's hierarchy (itself for a root); a loop in `Z_SUPER` stops.
    func root(of entity: Entity) -> Entity {
        var current = entity
        var seen: Set<Int> = [entity.number]
        while current.parent != 0, let parent = self.entity(number: current.parent), seen.insert(parent.number).inserted
        {
            current = parent
        }
        return current
    }

    /// The entity and every entity below it: the `Z_ENT` values of its rows.
    func family(of entity: Entity) -> [Int] {
        var numbers = [entity.number]
        var i = 0
        while i < numbers.count {
            for child in entities where child.parent == numbers[i] && !numbers.contains(child.number) {
                numbers.append(child.number)
            }
            i += 1
        }
        return numbers
    }

    /// The entity and the entities above it.
    func ancestry(of entity: Entity) -> [Int] {
        var numbers = [entity.number]
        var current = entity
        while current.parent != 0, let parent = self.entity(number: current.parent), !numbers.contains(parent.number) {
            numbers.append(parent.number)
            current = parent
        }
        return numbers
    }

    /// The table that holds the entity's rows: `Z` and its root's name in capitals, when
    /// the store has it.
    func table(of entity: Entity) -> String? {
        let name = "Z" + root(of: entity).name.uppercased()
        return tables.contains(name) ? name : nil
    }

    /// The entities whose rows a table holds.
    func entities(in table: String) -> [Entity] {
        entities.filter { self.table(of: $0) == table }
    }

    /// Whether a table is a many-to-many join table (`Z_3TAGS`): `Z_`, digits, a name.
    static func isJoinTable(_ name: String) -> Bool {
        guard name.hasPrefix("Z_"), let first = name.dropFirst(2).first else { return false }
        return first.isNumber
    }

    /// The number a join table's column names an entity by (`Z_3ITEMS` is 3), if any.
    static func entityNumber(ofJoinColumn name: String) -> Int? {
        guard name.hasPrefix("Z_") else { return nil }
        let digits = name.dropFirst(2).prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, name.count > digits.count + 2 else { return nil }
        return Int(digits)
    }
}
