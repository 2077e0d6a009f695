import Testing

@testable import TodoFormat

struct NFCCheckTests {
    /// Every scalar the quick path passes is NFC_QC=Yes by the standard library's own check
    /// and has combining class 0: text of such scalars alone is NFC, whatever their order.
    @Test func everyScalarOfTheQuickPathIsNFCOnItsOwn() {
        var checked = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), NFCCheck.isKnownNFCScalar(scalar) else { continue }
            checked += 1
            #expect(scalar.properties.canonicalCombiningClass == .notReordered, "U+\(String(value, radix: 16))")
            var text = String(scalar)
            let isNFC = text.withUTF8 { bytes in
                var span = UTF8Span(unchecked: bytes.span)
                return span.checkForNFC(quickCheck: true)
            }
            #expect(isNFC, "U+\(String(value, radix: 16))")
            #expect(text.withUTF8 { NFCCheck.isNFC($0) })
        }
        #expect(checked == 0x300 + 0xF8 + 0x300 + 0xC0 - 2 + 0x6000 + 0x2B80 + 0x1000 + 2)
    }

    /// The quick path's bytes agree with the standard library on every scalar after a letter
    /// (a letter, so that a combining mark the quick path passed would show).
    @Test func agreesOnEveryScalarAfterALetter() {
        var bytes: [UInt8] = []
        var disagreeing: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            bytes.removeAll(keepingCapacity: true)
            bytes.append(UInt8(ascii: "a"))
            bytes.append(contentsOf: UTF8.encode(scalar)!)
            let agrees = bytes.withUnsafeBufferPointer { buffer in
                var span = UTF8Span(unchecked: buffer.span)
                return NFCCheck.isNFC(buffer) == span.checkForNFC(quickCheck: true)
            }
            if !agrees { disagreeing.append(value) }
        }
        #expect(disagreeing.isEmpty, "\(disagreeing.prefix(10).map { String($0, radix: 16) })")
    }

    @Test(arguments: [
        "", "milk", "café crème", "naïve résumé", "山田", "整理报告", "회의 준비", "dev 👩‍💻", "❤️",
        "e\u{301}", "\u{1100}\u{1161}", "\u{2126}", "Å", "A\u{30A}", "\u{F900}", "か\u{3099}", "\u{1F3FB}",
        "x\u{1D165}", "ﬁ", "\u{2000}", "Ελληνικά", "\u{387}", "\u{386}", "Привет мир", "й", "и\u{306}",
        "\u{483}", "done ✅", "\u{2ADC}", "買い物リスト", "か\u{309A}", "\u{30F4}", "ウ\u{3099}",
        // ASCII runs the quick path skips eight bytes at a time, then a mark at each offset.
        "abcdefg\u{301}", "abcdefgh\u{301}", "abcdefghi\u{301}", "review the pull request e\u{301} later",
        "sixteen bytes ok\u{301}", "a long ASCII name, then Å, then A\u{30A}",
    ])
    func agreesWithTheStandardLibrary(_ name: String) {
        var text = name
        text.withUTF8 { bytes in
            var span = UTF8Span(unchecked: bytes.span)
            #expect(NFCCheck.isNFC(bytes) == span.checkForNFC(quickCheck: true))
        }
        if text.withUTF8({ NFCCheck.isNFC($0) }) { #expect(text.utf8.elementsEqual(text.precomposedNFCBytes)) }
    }
}

extension String {
    /// The NFC form's bytes, by the standard library.
    fileprivate var precomposedNFCBytes: [UInt8] {
        var bytes: [UInt8] = []
        _withNFCCodeUnits { bytes.append($0) }
        return bytes
    }
}
