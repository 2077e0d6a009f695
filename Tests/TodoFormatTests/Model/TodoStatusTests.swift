import Testing

@testable import TodoFormat

@Suite("Statuses")
struct TodoStatusTests {
    @Test(
        "the bracket character decides the status",
        arguments: [
            (" " as Unicode.Scalar, TodoStatus.open), ("x", .done), ("X", .done), ("/", .custom("/")),
            ("-", .custom("-")),
            ("@", .custom("@")), ("\t", .custom("\t")), ("ü", .custom("ü")), ("😀", .custom("😀")), ("y", .custom("y")),
        ])
    func marker(marker: Unicode.Scalar, status: TodoStatus) {
        #expect(TodoStatus(marker: marker) == status)
    }

    @Test("the written character: a space, x, or the custom one")
    func written() {
        #expect(TodoStatus.open.marker == " ")
        #expect(TodoStatus.done.marker == "x")
        #expect(TodoStatus(marker: "X").marker == "x")
        #expect(TodoStatus.custom("/").marker == "/")
    }

    @Test("only done is checked; checking sets done, unchecking sets open")
    func checked() {
        #expect([TodoStatus.open, .done, .custom("/"), .custom("x")].map(\.isChecked) == [false, true, false, false])
        var item = TodoItem(name: "a", status: .custom("/"))
        item.isChecked = true
        #expect(item.status == .done)
        item.isChecked = false
        #expect(item.status == .open)
    }
}
