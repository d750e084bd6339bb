extension String {
    /// The text made safe inside HTML and SVG text and attribute values (`&`, `<`, `>`, `"` escaped).
    var htmlEscaped: String {
        replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
