import Testing

@testable import TodoFormat

/// Where an item's status members stand in the new writer's text, and in a file's text
/// that is the same up to where they differ (`TextListSyntax.statusMembers`), and the names
/// of such a text's items (`itemNames`): what `StreamedUpdate.sameItems` takes a changed
/// item by without reading it.
@Suite("Status members of items in the new writer's text")
struct StatusMembersTests {
    /// The status members' texts on each side (the file's `old`, the writer's `new`), from
    /// where the texts first differ; nil where there are none.
    private static func members<Syntax: TextListSyntax>(
        _ syntax: Syntax.Type, _ old: String, _ new: String, follows: @escaping (String) -> Bool = { _ in true }
    ) -> (String, String)? {
        let (a, b) = (Array(old.utf8), Array(new.utf8))
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                let offset = ByteComparison.commonPrefix(a, b)
                return Syntax.statusMembers(
                    old: a, new: b, differingAt: offset, follows: { follows(String(decoding: $0, as: UTF8.self)) }
                ).map { (String(decoding: a[$0.old], as: UTF8.self), String(decoding: b[$0.new], as: UTF8.self)) }
            }
        }
    }

    /// The names `itemNames` finds in `text`; nil where it declines the text.
    private static func names<Syntax: TextListSyntax>(_ syntax: Syntax.Type, _ text: String) -> [String]? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { bytes in
            var ranges: [Range<Int>] = []
            guard Syntax.itemNames(in: bytes, into: &ranges) else { return nil }
            return ranges.map { String(decoding: bytes[$0], as: UTF8.self) }
        }
    }

    /// `text` with `from` replaced by `to` once, where it first stands.
    private static func replacing(_ text: String, _ from: String, _ to: String) -> String {
        guard let range = text.range(of: from) else {
            Issue.record("no \(from) in \(text)")
            return text
        }
        return text.replacingCharacters(in: range, with: to)
    }

    @Test("JSON: `checked`, and a `status` after it, of the line's item; nothing else")
    func json() {
        let parent = "{\"name\": \"p\", \"checked\": false, \"section\": \"S\", \"children\": [\n"
        let child = "    {\"name\": \"c\", \"checked\": false, \"due\": \"2026-01-02\"}\n  ]},\n  "
        let item = parent + child
        let checked = (#" "checked": false"#, #" "checked": true"#)
        // A box checked, the item's or its child's.
        #expect(Self.members(JSONListSyntax.self, item, Self.replacing(item, "false", "true"))! == checked)
        #expect(Self.members(JSONListSyntax.self, item, parent + Self.replacing(child, "false", "true"))! == checked)
        // A status given, or taken away (the texts then differ after `checked`).
        let custom = Self.replacing(item, "false,", #"false, "status": "/","#)
        #expect(
            Self.members(JSONListSyntax.self, item, custom)! == (
                #" "checked": false"#, #" "checked": false, "status": "/""#
            ))
        #expect(
            Self.members(JSONListSyntax.self, custom, item)! == (
                #" "checked": false, "status": "/""#, #" "checked": false"#
            ))
        #expect(
            Self.members(JSONListSyntax.self, custom, Self.replacing(custom, "\"/\"", "\"-\""))!
                == (#" "checked": false, "status": "/""#, #" "checked": false, "status": "-""#))
        // A key after them the status's does not come before (a field `done`, taken for
        // `checked`'s), or one that holds an array or an object: none.
        let done = Self.replacing(item, "\"section\": \"S\"", "\"done\": 6.5")
        #expect(Self.members(JSONListSyntax.self, done, Self.replacing(done, "false", "true")) != nil)
        #expect(
            Self.members(JSONListSyntax.self, done, Self.replacing(done, "false", "true"), follows: { $0 != "done" })
                == nil)
        for value in ["[1]", "{\"checked\": false}"] {
            let held = Self.replacing(item, "\"S\"", "\"S\", \"tags\": \(value)")
            #expect(Self.members(JSONListSyntax.self, held, Self.replacing(held, "false", "true")) == nil)
        }
        // The name, the section, or a field's object that has a `checked` key: not the
        // status members.
        #expect(Self.members(JSONListSyntax.self, item, Self.replacing(item, "\"p\"", "\"q\"")) == nil)
        #expect(Self.members(JSONListSyntax.self, item, Self.replacing(item, "\"S\"", "\"T\"")) == nil)
        let nested = Self.replacing(item, "\"S\"", "\"S\", \"meta\": {\"name\": \"x\", \"checked\": false}")
        #expect(
            Self.members(
                JSONListSyntax.self, nested,
                Self.replacing(nested, "\"x\", \"checked\": false", "\"x\", \"checked\": true"))
                == nil)
        // `checked` the file wrote otherwise (a number): none.
        #expect(
            Self.members(JSONListSyntax.self, Self.replacing(item, "false", "0"), Self.replacing(item, "false", "true"))
                == nil)
    }

    @Test("JSON: the names of a text's items, each as it stands; none where one has an escape")
    func jsonNames() {
        let text =
            "{\"name\": \"p 日本\", \"checked\": false, \"children\": [\n    {\"name\": \"c\", \"checked\": true}\n  ]},\n  "
        #expect(Self.names(JSONListSyntax.self, text) == ["p 日本", "c"])
        #expect(Self.names(JSONListSyntax.self, Self.replacing(text, "\"c\"", #""c \"q\"""#)) == nil)
    }

    /// An item as the new writer writes it into an XML property list: its text from its
    /// `<dict>` (after the line's tab), members two tabs deep, a child three.
    static let xmlItem = """
        <dict>
        \t\t<key>name</key>
        \t\t<string>p 日本</string>
        \t\t<key>checked</key>
        \t\t<false/>
        \t\t<key>section</key>
        \t\t<string>S</string>
        \t\t<key>children</key>
        \t\t<array>
        \t\t\t<dict>
        \t\t\t\t<key>name</key>
        \t\t\t\t<string>c</string>
        \t\t\t\t<key>checked</key>
        \t\t\t\t<false/>
        \t\t\t\t<key>due</key>
        \t\t\t\t<date>2026-01-02T00:00:00Z</date>
        \t\t\t</dict>
        \t\t</array>
        \t</dict>

        """

    @Test("XML: `checked`, and a `status` after it, of the item whose own members differ; nothing else")
    func xml() {
        let item = Self.xmlItem
        let child = "\t\t\t\t<string>c</string>\n\t\t\t\t<key>checked</key>\n\t\t\t\t<false/>"
        let checked = ("\t\t<key>checked</key>\n\t\t<false/>\n", "\t\t<key>checked</key>\n\t\t<true/>\n")
        #expect(Self.members(XMLListSyntax.self, item, Self.replacing(item, "<false/>", "<true/>"))! == checked)
        #expect(
            Self.members(
                XMLListSyntax.self, item,
                Self.replacing(item, child, child.replacingOccurrences(of: "<false/>", with: "<true/>")))!
                == ("\t\t\t\t<key>checked</key>\n\t\t\t\t<false/>\n", "\t\t\t\t<key>checked</key>\n\t\t\t\t<true/>\n"))
        // A status given, or taken away.
        let status = "\t\t<key>status</key>\n\t\t<string>/</string>\n"
        let custom = Self.replacing(item, "<false/>\n", "<false/>\n" + status)
        #expect(
            Self.members(XMLListSyntax.self, item, custom)!
                == ("\t\t<key>checked</key>\n\t\t<false/>\n", "\t\t<key>checked</key>\n\t\t<false/>\n" + status))
        #expect(
            Self.members(XMLListSyntax.self, custom, item)!
                == ("\t\t<key>checked</key>\n\t\t<false/>\n" + status, "\t\t<key>checked</key>\n\t\t<false/>\n"))
        // A key after them that the status's does not come before, or that holds an array.
        let changed = Self.replacing(item, "<false/>", "<true/>")
        #expect(Self.members(XMLListSyntax.self, item, changed, follows: { $0 != "section" }) == nil)
        let tags = "\t\t<key>tags</key>\n\t\t<array>\n\t\t\t<integer>1</integer>\n\t\t</array>\n"
        let tagged = Self.replacing(item, "\t\t<key>children</key>", tags + "\t\t<key>children</key>")
        #expect(Self.members(XMLListSyntax.self, tagged, Self.replacing(tagged, "<false/>", "<true/>")) == nil)
        // The name, the section: not the status members.
        #expect(Self.members(XMLListSyntax.self, item, Self.replacing(item, "p 日本", "q")) == nil)
        #expect(Self.members(XMLListSyntax.self, item, Self.replacing(item, ">S<", ">T<")) == nil)
    }

    @Test("XML: the names of a text's items; none where a field holds a dictionary or an array, or a name a reference")
    func xmlNames() {
        let item = Self.xmlItem
        #expect(Self.names(XMLListSyntax.self, item) == ["p 日本", "c"])
        #expect(Self.names(XMLListSyntax.self, Self.replacing(item, "p 日本", "p &amp; q")) == nil)
        // A field's dictionary that looks like an item, or an array of them.
        let fields = [
            "\t\t<key>meta</key>\n\t\t<dict>\n\t\t\t<key>name</key>\n\t\t\t<string>x</string>\n"
                + "\t\t\t<key>checked</key>\n\t\t\t<false/>\n\t\t</dict>\n",
            "\t\t<key>list</key>\n\t\t<array>\n\t\t\t<dict>\n\t\t\t\t<key>name</key>\n\t\t\t\t<string>x</string>\n"
                + "\t\t\t</dict>\n\t\t</array>\n",
        ]
        for field in fields {
            let children = "\t\t<key>children</key>"
            #expect(Self.names(XMLListSyntax.self, Self.replacing(item, children, field + children)) == nil)
        }
    }
}
