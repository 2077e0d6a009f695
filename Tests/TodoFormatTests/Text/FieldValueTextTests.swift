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
