// Colours and small layer helpers the demos share, so each demo's file shows only its own idea.
import Foundation
import LayerKit

/// The gallery's palette and the few layers every demo makes the same way.
public enum DemoStyle {
    public static let background = CGColor(red: 0.07, green: 0.08, blue: 0.11, alpha: 1)
    public static let card = CGColor(red: 0.16, green: 0.18, blue: 0.24, alpha: 1)
    public static let text = CGColor(red: 0.93, green: 0.94, blue: 0.97, alpha: 1)
    public static let dimText = CGColor(red: 0.60, green: 0.64, blue: 0.72, alpha: 1)
    public static let accent = CGColor(red: 0.35, green: 0.65, blue: 1.0, alpha: 1)
    public static let warm = CGColor(red: 1.0, green: 0.55, blue: 0.25, alpha: 1)

    /// A text layer showing `string` at `fontSize`, sized to `frame`.
    public static func label(_ string: String, fontSize: CGFloat, color: CGColor = text, frame: CGRect,
                             alignment: CATextLayerAlignmentMode = .left) -> CATextLayer {
        let label = CATextLayer()
        label.string = string
        label.fontSize = fontSize
        label.foregroundColor = color
        label.alignmentMode = alignment
        label.frame = frame
        label.contentsScale = 2
        return label
    }

    /// The 16 pictures of the shared atlas (4 × 4 tiles): picture `k`'s `contentsRect`.
    public static func pictureRect(_ k: Int) -> CGRect {
        let tile = k % 16
        return CGRect(x: CGFloat(tile % 4) / 4, y: CGFloat(tile / 4) / 4, width: 0.25, height: 0.25)
    }
}
