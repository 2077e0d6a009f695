extension TodoItem {
    /// The item as a checklist line without its list marker: `[x] Eggs [id:: 7]`.
    /// A name's line breaks show as spaces.
    public var checklistText: String {
        "[" + String(status.marker) + "] "
            + FieldSyntax.render(name: nameStorage, fields: fields, continuation: "").onOneLine
    }
}
