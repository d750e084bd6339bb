/// Validation messages LayerKit deliberately ignores, each a named value with a one-line reason
/// (STYLE.md guideline 8). A message whose ID name matches a suppression is logged at debug level and
/// counted, never recorded as a failure. Keep this list empty unless a driver or layer bug forces an entry.
package struct KnownValidationIssue: Sendable, Hashable {
    /// The validation layer's `pMessageIdName` (VUID or check name) this suppression matches exactly.
    package let messageID: String
    /// Why it is safe to ignore, in one line.
    package let reason: String
}

package enum KnownValidationIssues {
    /// Every suppression in force. Empty: every validation message fails a test.
    package static let all: [KnownValidationIssue] = []

    /// The suppression that covers a message with this ID name, if any.
    package static func suppression(forMessageID messageID: String) -> KnownValidationIssue? {
        all.first { $0.messageID == messageID }
    }
}
