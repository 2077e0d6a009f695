import Foundation

/// A text that equals another only with the same bytes. Swift's strings compare by
/// canonical equivalence (`é` composed and `e` with a combining accent are equal), but a
/// field key or a column name in another form is another key to every file format.
struct ExactText: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (a: ExactText, b: ExactText) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

extension Array where Element == Field {
    /// The value of the first field whose key has exactly these bytes (`subscript(key:)`
    /// compares keys as Swift compares strings).
    func value(exactKey key: String) -> FieldValue? {
        first { $0.key.utf8.elementsEqual(key.utf8) }?.value
    }
}

extension String {
    /// Whether the two strings have the same UTF-8 bytes (not only compare equal, as `é`
    /// composed and decomposed do): what a cache of a text's written form must ask, or it
    /// writes one spelling for the other.
    ///
    /// The bytes are read where they are (a copy of each string, for `withUTF8`, cost two
    /// retains and releases: the most of a check a writer makes for every item).
    func sameBytes(as other: String) -> Bool {
        // The same string (one storage and length, or the same small string) at once, as
        // the standard library's `==` first checks: a writer's cache of the last section
        // is most often asked about the very string it holds.
        if unsafeBitCast(self, to: (UInt64, UInt64).self) == unsafeBitCast(other, to: (UInt64, UInt64).self) {
            return true
        }
        guard utf8.count == other.utf8.count else { return false }
        let same = utf8.withContiguousStorageIfAvailable { x in
            other.utf8.withContiguousStorageIfAvailable { y in
                x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0
            }
        }
        return (same ?? nil) ?? utf8.elementsEqual(other.utf8)
    }
}

extension Optional where Wrapped == String {
    /// Whether both are nil, or both are texts with the same bytes (a section, say).
    func sameBytes(as other: String?) -> Bool {
        switch (self, other) {
        case (nil, nil): true
        case (let a?, let b?): a.sameBytes(as: b)
        default: false
        }
    }
}

extension Substring {
    /// Whether the two texts have the same bytes, compared at once (`utf8.elementsEqual`
    /// takes a byte at a time: a sixth of checking a checklist written into another).
    func sameBytes(as other: Substring) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        var a = self
        var b = other
        return a.withUTF8 { x in b.withUTF8 { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
    }
}
