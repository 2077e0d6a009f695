import Testing

@testable import TodoFormat

/// Where two texts of an item differ, widened to whole members (`MemberWindow`).
@Suite("Member windows")
struct MemberWindowTests {
    /// The window's bytes on each side, as text; nil where there is none.
    private static func window(_ old: String, _ new: String, _ layout: MemberLayout, limit: Int = 512)
        -> (String, String)?
    {
        let (a, b) = (Array(old.utf8), Array(new.utf8))
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                MemberWindow(old: a, new: b, layout: layout, limit: limit).map {
                    (String(decoding: a[$0.old], as: UTF8.self), String(decoding: b[$0.new], as: UTF8.self))
                }
            }
        }
    }

    @Test("JSON: from the member's start to its end, on the item's line")
    func inline() {
        let item = #"  {"name": "a", "checked": false, "section": "S"},"#
        // A box checked: `false` and `true` end alike, and the window is still the member.
        #expect(
            Self.window(item + "\n", item.replacingOccurrences(of: "false", with: "true") + "\n", .inline)!
                == (#" "checked": false"#, #" "checked": true"#))
        // A status taken away: the window reaches from its member to the next one's end.
        let custom = item.replacingOccurrences(of: "false,", with: #"false, "status": "/","#)
        #expect(Self.window(custom, item, .inline)! == (#" "status": "/", "section": "S""#, #" "section": "S""#))
        // The last member, before the object's close; a child's member, before its line's end.
        #expect(
            Self.window(#"{"name": "a", "checked": false}"#, #"{"name": "a", "checked": true}"#, .inline)!
                == (#" "checked": false"#, #" "checked": true"#))
        #expect(
            Self.window("[\n    {\"checked\": false\n", "[\n    {\"checked\": true\n", .inline)!
                == (#""checked": false"#, #""checked": true"#))
        // A comma in a name: the window starts at the comma, and holds the name's end.
        #expect(
            Self.window(#"{"name": "a, b", "checked": true}"#, #"{"name": "a, c", "checked": true}"#, .inline)!
                == (#" b""#, #" c""#))
        // The same text: none; longer than the limit: none.
        #expect(Self.window(item, item, .inline) == nil)
        #expect(Self.window(item, item.replacingOccurrences(of: "false", with: "true"), .inline, limit: 30) == nil)
    }

    @Test("XML: from a <key> line to the line before the next key or the dictionary's end")
    func keyLines() {
        let item = "\t<dict>\n\t\t<key>name</key>\n\t\t<string>a</string>\n\t\t<key>checked</key>\n\t\t<false/>\n"
        let section = "\t\t<key>section</key>\n\t\t<string>S</string>\n\t</dict>\n"
        let checked = item.replacingOccurrences(of: "<false/>", with: "<true/>")
        #expect(
            Self.window(item + section, checked + section, .keyLines)!
                == ("\t\t<key>checked</key>\n\t\t<false/>", "\t\t<key>checked</key>\n\t\t<true/>"))
        // A status taken away, before the section: the window holds the section's value too.
        let status = "\t\t<key>status</key>\n\t\t<string>/</string>\n"
        #expect(
            Self.window(item + status + section, item + section, .keyLines)!
                == (
                    status + "\t\t<key>section</key>\n\t\t<string>S</string>",
                    "\t\t<key>section</key>\n\t\t<string>S</string>"
                ))
        // The last member, before the dictionary's end.
        #expect(
            Self.window(item + "\t</dict>\n", checked + "\t</dict>\n", .keyLines)!
                == ("\t\t<key>checked</key>\n\t\t<false/>", "\t\t<key>checked</key>\n\t\t<true/>"))
        // A name of two lines changed on its second: the window starts at its key.
        let twoLines = item.replacingOccurrences(of: "<string>a</string>", with: "<string>a\nb</string>")
        #expect(
            Self.window(twoLines, twoLines.replacingOccurrences(of: "\nb<", with: "\nc<"), .keyLines)!
                == ("\t\t<key>name</key>\n\t\t<string>a\nb</string>", "\t\t<key>name</key>\n\t\t<string>a\nc</string>"))
        // No key line before the difference: none.
        #expect(Self.window("\t<dict>\n", "\t<array>\n", .keyLines) == nil)
    }
}
