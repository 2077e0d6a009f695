extension JSONScanner {
    /// Reads the item object at the scanner's position, keeping where everything stands.
    mutating func spannedItem(schema: ItemSchema, depth: Int, arrayIDs: inout Int) throws(ParseError) -> SpannedItem {
        let start = position
        guard depth < Limits.itemLevels else { throw error(Limits.itemDepthMessage) }
        guard peek() == UInt8(ascii: "{") else { throw unexpected(expecting: "an item object") }
        let open = position
        // A key given twice has its last value, as JSON.parse, Python's json and Foundation
        // read it: the object is read again without the earlier ones (which stay in the file).
        let firstArrayID = arrayIDs
        var superseded: Set<Int> = []
        var reader: MemberReader
        var keySpans: [Range<Int>] = []
        var valueSpans: [Range<Int>] = []
        var children: [SpannedItem] = []
        var childrenArray: ArraySpan? = nil
        var childrenArrayID = -1
        repeat {
            position = open + 1
            arrayIDs = firstArrayID
            reader = MemberReader(schema: schema, depth: depth)
            keySpans = []
            valueSpans = []
            children = []
            childrenArray = nil
            childrenArrayID = -1
            var keys: [String] = []
            var first = true
            while try nextElement(close: UInt8(ascii: "}"), first: &first) {
                let keyStart = position
                let key = try string()
                let keyEnd = position
                try expect(UInt8(ascii: ":"), "':'")
                skipWhitespace()
                let valueStart = position
                keys.append(key)
                if superseded.contains(keys.count - 1) {
                    try skipValue()
                    continue
                }
                if childrenArray == nil, peek() == UInt8(ascii: "["), reader.takesChildren(key) {
                    var probe = self
                    probe.position += 1
                    if probe.peek() == UInt8(ascii: "{") || probe.peek() == UInt8(ascii: "]") {
                        arrayIDs += 1
                        childrenArrayID = arrayIDs
                        position += 1
                        var elements: [Range<Int>] = []
                        var firstChild = true
                        while try nextElement(close: UInt8(ascii: "]"), first: &firstChild) {
                            let child = try spannedItem(schema: schema, depth: depth + 1, arrayIDs: &arrayIDs)
                            children.append(child)
                            elements.append(child.span)
                        }
                        childrenArray = ArraySpan(
                            whole: valueStart..<position, inside: (valueStart + 1)..<(position - 1), elements: elements)
                        reader.addChildren(key, children.map(\.item))
                        keySpans.append(keyStart..<keyEnd)
                        valueSpans.append(valueStart..<position)
                        continue
                    }
                }
                let v = try self.value()
                if let message = reader.add(key, v) { throw error(message, at: valueStart) }
                keySpans.append(keyStart..<keyEnd)
                valueSpans.append(valueStart..<position)
            }
            guard superseded.isEmpty, let repeated = keys.positionsGivenAgain() else { break }
            superseded = repeated
        } while true
        guard let item = reader.build() else { throw error(reader.missingNameMessage, at: start) }
        return SpannedItem(
            item: item, span: open..<position, inside: (open + 1)..<(position - 1), members: reader.members,
            keySpans: keySpans,
            valueSpans: valueSpans, children: children, childrenArray: childrenArray, childrenArrayID: childrenArrayID)
    }

    /// Moves past one value, noting each key an object gives again (`todofmt check`): the
    /// key and the offset of its second (third…) occurrence.
    mutating func repeatedKeys(depth: Int = 0, into found: inout [(key: String, offset: Int)]) throws(ParseError) {
        guard depth < Limits.valueLevels else {
            throw error("values nested too deep (\(Limits.valueLevels) levels at most)")
        }
        switch peek() {
        case UInt8(ascii: "{"):
            position += 1
            var first = true
            var seen: Set<String> = []
            while try nextElement(close: UInt8(ascii: "}"), first: &first) {
                let offset = position
                let key = try string()
                if !seen.insert(key).inserted { found.append((key, offset)) }
                try expect(UInt8(ascii: ":"), "':'")
                skipWhitespace()
                try repeatedKeys(depth: depth + 1, into: &found)
            }
        case UInt8(ascii: "["):
            position += 1
            var first = true
            while try nextElement(close: UInt8(ascii: "]"), first: &first) {
                try repeatedKeys(depth: depth + 1, into: &found)
            }
        default:
            try skipValue(depth: depth)
        }
    }

    /// Moves past one value without building it, checking its syntax.
    mutating func skipValue(depth: Int = 0) throws(ParseError) {
        guard depth < Limits.valueLevels else {
            throw error("values nested too deep (\(Limits.valueLevels) levels at most)")
        }
        switch peek() {
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "{"):
            position += 1
            var first = true
            while try nextElement(close: UInt8(ascii: "}"), first: &first) {
                guard peek() == UInt8(ascii: "\"") else { throw unexpected(expecting: "a string") }
                try skipString()
                try expect(UInt8(ascii: ":"), "':'")
                try skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "["):
            position += 1
            var first = true
            while try nextElement(close: UInt8(ascii: "]"), first: &first) { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "t"):
            guard literal("true") else { throw unexpected(expecting: "a value") }
        case UInt8(ascii: "f"):
            guard literal("false") else { throw unexpected(expecting: "a value") }
        case UInt8(ascii: "n"):
            guard literal("null") else { throw unexpected(expecting: "a value") }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try skipNumber()
        default:
            throw unexpected(expecting: "a value")
        }
    }

    /// Moves past a string, checking its escapes (its UTF-8 is checked where it is read).
    mutating func skipString() throws(ParseError) {
        let start = position
        let n = bytes.count
        guard let base = bytes.baseAddress else { throw error("unterminated string", at: start) }
        var i = position + 1
        while i < n {
            let c = base[i]
            if c == UInt8(ascii: "\"") {
                position = i + 1
                return
            }
            if c == UInt8(ascii: "\\") {
                guard i + 1 < n else { break }
                switch base[i + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 2
                case UInt8(ascii: "u"):
                    guard i + 6 <= n,
                        (2..<6).allSatisfy({ k in
                            let h = base[i + k] | 0x20
                            return (h >= 48 && h <= 57) || (h >= 97 && h <= 102)
                        })
                    else { throw error("invalid hex digit in \\u escape", at: i + 2) }
                    i += 6
                default:
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(base[i + 1])))'", at: i)
                }
                continue
            }
            if c < 32 { throw error("control character in string", at: i) }
            i += 1
        }
        throw error("unterminated string", at: start)
    }

    /// Moves past a number, checking JSON's number grammar.
    mutating func skipNumber() throws(ParseError) {
        let start = position
        func digits() -> Int {
            let from = position
            while position < bytes.count && bytes[position] >= 48 && bytes[position] <= 57 { position += 1 }
            return position - from
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let intStart = position
        let count = digits()
        guard count > 0, !(bytes[intStart] == 48 && count > 1) else { throw error("invalid number", at: start) }
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw error("invalid number", at: start) }
        }
        if position < bytes.count && (bytes[position] | 0x20) == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-"))
            {
                position += 1
            }
            guard digits() > 0 else { throw error("invalid number", at: start) }
        }
        if position < bytes.count {
            let c = bytes[position]
            if (c >= 48 && c <= 57) || c == UInt8(ascii: ".") || c == UInt8(ascii: "+") || c == UInt8(ascii: "-")
                || (c | 0x20) == UInt8(ascii: "e")
            {
                throw error("invalid number", at: start)
            }
        }
    }

    /// The elements of the array at the scanner's position, skipped over.
    /// `passed(offset)` is told, every few thousand elements, how far the scan has come.
    mutating func arraySpan(passed: ((Int) -> Void)? = nil) throws(ParseError) -> ArraySpan {
        guard peek() == UInt8(ascii: "[") else { throw unexpected(expecting: "'['") }
        let open = position
        position += 1
        var elements: [Range<Int>] = []
        var first = true
        while try nextElement(close: UInt8(ascii: "]"), first: &first) {
            skipWhitespace()
            let start = position
            try skipValue()
            elements.append(start..<position)
            if let passed, elements.count % 4096 == 0 { passed(start) }
        }
        return ArraySpan(whole: open..<position, inside: (open + 1)..<(position - 1), elements: elements)
    }
}
