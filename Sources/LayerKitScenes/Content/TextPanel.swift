import Foundation
import LayerKit

/// The content sample's text panel: `CATextLayer` with an attributed string, wrapping with justified
/// alignment, middle truncation, and an animated `fontSize`.
enum TextPanel {
    static func populate(_ stage: CALayer) {
        let title = textLayer("text.title", height: 34, centerY: -70)
        let attributed = NSMutableAttributedString(string: "Layer", attributes: [
            .font: "DejaVu Sans Bold", .foregroundColor: CGColor(red: 0.98, green: 0.78, blue: 0.25, alpha: 1),
        ])
        attributed.append(NSAttributedString(string: "Kit text", attributes: [
            .font: "DejaVu Serif Italic", .foregroundColor: CGColor(red: 0.45, green: 0.80, blue: 0.98, alpha: 1),
        ]))
        title.string = attributed
        title.fontSize = 26
        title.alignmentMode = .center
        stage.addSublayer(title)

        let paragraph = textLayer("text.paragraph", height: 72, centerY: -8)
        paragraph.string = "Text is laid out with Pango and drawn with Cairo at the layer's contentsScale, "
            + "so it stays crisp; this paragraph wraps and is justified to both edges."
        paragraph.fontSize = 13
        paragraph.isWrapped = true
        paragraph.alignmentMode = .justified
        paragraph.foregroundColor = CGColor(gray: 0.88, alpha: 1)
        stage.addSublayer(paragraph)

        let truncated = textLayer("text.truncated", height: 20, centerY: 44)
        truncated.string = "/a/very/long/path/that/does/not/fit/in/the/layer/so/its/middle/is/elided/file.swift"
        truncated.fontSize = 13
        truncated.truncationMode = .middle
        truncated.foregroundColor = CGColor(gray: 0.7, alpha: 1)
        stage.addSublayer(truncated)

        let pulse = textLayer("text.pulse", height: 40, centerY: 80)
        pulse.string = "fontSize animates"
        pulse.fontSize = 14
        pulse.alignmentMode = .center
        pulse.foregroundColor = CGColor(red: 0.55, green: 0.90, blue: 0.55, alpha: 1)
        pulse.add(ContentScene.repeating("fontSize", from: 14, to: 24, duration: 1.5), forKey: "pulse")
        stage.addSublayer(pulse)
    }

    /// A text layer spanning the stage less 16-point insets, `height` high, its centre `centerY` from
    /// the stage's.
    private static func textLayer(_ name: String, height: CGFloat, centerY: CGFloat) -> CATextLayer {
        let layer = CATextLayer()
        layer.name = name
        layer.contentsScale = 2
        layer.constraints = [
            CAConstraint(attribute: .minX, relativeTo: "superlayer", attribute: .minX, offset: 16),
            CAConstraint(attribute: .maxX, relativeTo: "superlayer", attribute: .maxX, offset: -16),
            CAConstraint(attribute: .midY, relativeTo: "superlayer", attribute: .midY, offset: centerY),
            CAConstraint(attribute: .height, relativeTo: "superlayer", attribute: .height, scale: 0, offset: height),
        ]
        return layer
    }
}
