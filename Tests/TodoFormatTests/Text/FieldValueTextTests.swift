import Foundation
import Testing

@testable import TodoFormat

@Suite("Field values as text")
struct FieldValueTextTests {
    @Test(
        "description: strings as they are, dates in ISO 8601 UTC, data as <hex>, arrays and dictionaries JSON-like",
        arguments: [
            (FieldValue.string("plain words"), "plain words"),
            (.string(""), ""),
            (.string("quote \" and \\ and\nbreak"), "quote \" and \\ and\nbreak"),
            (.integer(0), "0"),
            (.integer(-42), "-42"),
            (.integer(.max), "9223372036854775807"),
            (.double(2.5), "2.5"),
            (.double(3), "3.0"),
            (.double(-0.001), "-0.001"),
            (.double(1e300), "1e+300"),
            (.double(.infinity), "inf"),
            (.double(-.infinity), "-inf"),
            (.double(.nan), "nan"),
            (.bool(true), "true"),
            (.bool(false), "false"),
            (.null, "null"),
            (.date(Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00Z"),
            (.date(Date(timeIntervalSince1970: 1_717_232_400.5)), "2024-06-01T09:00:00.5Z"),
            (.date(Date(timeIntervalSince1970: -86_400)), "1969-12-31T00:00:00Z"),
            (.data(Data([0, 1, 0xAB, 0xFF])), "<0001abff>"),
            (.data(Data()), "<>"),
            (.array([]), "[]"),
            (.array([.integer(1), .string("two"), .array([.null]), .bool(false)]), #"[1, "two", [null], false]"#),
            (.array([.string("a \"q\"\n")]), #"["a \"q\"\n"]"#),
            (.array([.date(Date(timeIntervalSince1970: 0)), .data(Data([0xAB]))]), "[1970-01-01T00:00:00Z, <ab>]"),
            (.dictionary([]), "{}"),
            (
                .dictionary([Field("b", .bool(true)), Field("a", .string("x")), Field("odd \"key\"", .double(0.5))]),
                #"{"b": true, "a": "x", "odd \"key\"": 0.5}"#
            ),
            (.dictionary([Field("n", .dictionary([Field("m", .array([.integer(1)]))]))]), #"{"n": {"m": [1]}}"#),
        ])
    func description(value: FieldValue, text: String) {
        #expect(value.description == text)
        #expect("\(value)" == text)
    }
}

/// A date-time outside years 1 to 9999 in UTC cannot be written back as it was read (JSON
/// and YAML wrote year 0 as year 1; a binary property list's reader kept it as a number):
/// such text stays text, in every format.
@Suite("Date-times past the years ISO 8601's four digits hold")
struct OutOfRangeDateTests {
    @Test(
        "year 0, and zones that move a date past year 1 or year 9999, are text",
        arguments: ["0000-01-01T00:00:00Z", "0001-01-01T00:30:00+01:00", "9999-12-31T23:59:59-00:01"])
    func staysText(text: String) throws {
        #expect(ISO8601.parse(Array(text.utf8)) == nil)
        let list = try TodoList(markdown: "- [ ] a [d:: \(text)]\n")
        #expect(list.items[0].fields == [Field("d", .string(text))])
        for format: DocumentFormat in [.json, .bplist, .plist, .sql] {
            let back = try TodoList(bytes: try list.encoded(as: format), format: format, name: "x")
            #expect(back.items[0].fields == [Field("d", .string(text))], "\(format)")
        }
    }

    @Test("the first and last date-times of years 1 to 9999 are dates")
    func edgesAreDates() {
        #expect(ISO8601.parse(Array("0001-01-01T00:00:00Z".utf8)) == Date(timeIntervalSince1970: -62_135_596_800))
        #expect(ISO8601.parse(Array("9999-12-31T23:59:59Z".utf8)) == Date(timeIntervalSince1970: 253_402_300_799))
    }
}
