import Testing

@testable import TodoFormat

@Suite("Conversion warnings")
struct ConversionWarningTests {
    @Test(
        "the description adds the item count and the first item when there are any",
        arguments: [
            (ConversionWarning(.fields, "fields were dropped"), "fields were dropped"),
            (ConversionWarning(.fields, "fields were dropped", count: 4), "fields were dropped"),
            (
                ConversionWarning(.status, "custom statuses became open", firstItem: "3.2 Milk"),
                "custom statuses became open (item 3.2 Milk)"
            ),
            (
                ConversionWarning(.nesting, "nested items were flattened", count: 3, firstItem: "1.1 Eggs"),
                "nested items were flattened (3 items, the first 1.1 Eggs)"
            ),
        ])
    func description(warning: ConversionWarning, text: String) {
        #expect(warning.description == text)
    }

    @Test("metadata left out names the target and the keys")
    func metadataLeftOut() {
        let warning = ConversionWarning.metadataLeftOut(
            [Field("title", .null), Field("owner", .null)], by: "plain JSON")
        #expect(warning.kind == .metadata)
        #expect(
            warning.description == "plain JSON has no place for the list's metadata (title, owner); it was left out")
    }

    @Test("the log keeps one warning per kind and message, counting items, with the first item")
    func logCounts() {
        var log = WarningLog()
        log.note(.fields, "fields were dropped", item: "1 Milk")
        log.note(.status, "custom statuses became open", item: "2 Eggs")
        log.note(.fields, "fields were dropped", item: "3 Tea")
        log.note(.fields, "a different message", item: "4 Jam")
        log.note(.values, "fields were dropped", item: "5 Rye")
        log.note(.fields, "fields were dropped")
        #expect(
            log.warnings == [
                ConversionWarning(.fields, "fields were dropped", count: 3, firstItem: "1 Milk"),
                ConversionWarning(.status, "custom statuses became open", firstItem: "2 Eggs"),
                ConversionWarning(.fields, "a different message", firstItem: "4 Jam"),
                ConversionWarning(.values, "fields were dropped", firstItem: "5 Rye"),
            ])
        #expect(log.warnings[0].description == "fields were dropped (3 items, the first 1 Milk)")
    }

    @Test("the log names an item only for the first note: later items are not even computed")
    func itemComputedOnce() {
        var log = WarningLog()
        var computed = 0
        func item(_ name: String) -> String {
            computed += 1
            return name
        }
        for name in ["a", "b", "c"] { log.note(.order, "order was lost", item: item(name)) }
        #expect(computed == 1)
        #expect(log.warnings == [ConversionWarning(.order, "order was lost", count: 3, firstItem: "a")])
    }

    @Test("appending another log's warnings adds their counts and keeps the first item")
    func append() {
        var log = WarningLog()
        log.note(.fields, "fields were dropped", item: "1 Milk")
        log.append(contentsOf: [
            ConversionWarning(.fields, "fields were dropped", count: 5, firstItem: "9 Jam"),
            ConversionWarning(.keys, "keys were chosen"),
        ])
        #expect(
            log.warnings == [
                ConversionWarning(.fields, "fields were dropped", count: 6, firstItem: "1 Milk"),
                ConversionWarning(.keys, "keys were chosen"),
            ])
    }
}
