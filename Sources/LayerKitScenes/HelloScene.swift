import LayerKit

/// The flagship sample's scene: a handful of layers showing an image, rounded corners, a border over a
/// gradient, a spinning layer, a perspective tilt, a title drawn by a text layer and a shape layer with
/// marching ants and a write-on stroke.
///
/// Shared by `Samples/Hello`, tests and tools (DESIGN.md: scenes live once).
public enum HelloScene {
    /// Builds the scene into `root`, sized `size` points. Animations start when committed.
    public static func populate(_ root: CALayer, size: CGSize) {
        root.backgroundColor = CGColor(red: 0.09, green: 0.10, blue: 0.13, alpha: 1)
        let unit = min(size.width, size.height) / 6

        // An image layer: a generated picture with contentsGravity resizeAspect and rounded corners.
        let picture = CALayer()
        picture.name = "picture"
        picture.bounds = CGRect(x: 0, y: 0, width: unit * 2.2, height: unit * 1.6)
        picture.position = CGPoint(x: size.width * 0.25, y: size.height * 0.3)
        picture.contents = makeLandscapeImage(width: 160, height: 100)
        picture.contentsGravity = .resizeAspectFill
        picture.cornerRadius = unit * 0.2
        picture.masksToBounds = true
        root.addSublayer(picture)

        // A card with a border, rounded top corners only, filled with a diagonal gradient drawn by the GPU.
        let card = CAGradientLayer()
        card.name = "card"
        card.bounds = CGRect(x: 0, y: 0, width: unit * 2, height: unit * 1.4)
        card.position = CGPoint(x: size.width * 0.72, y: size.height * 0.3)
        card.colors = [CGColor(red: 0.99, green: 0.86, blue: 0.42, alpha: 1), CGColor(red: 0.96, green: 0.62, blue: 0.18, alpha: 1)]
        card.startPoint = .zero
        card.endPoint = CGPoint(x: 1, y: 1)
        card.cornerRadius = unit * 0.3
        card.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMinYCorner]
        card.borderWidth = max(2, unit * 0.06)
        card.borderColor = CGColor(red: 0.55, green: 0.25, blue: 0.05, alpha: 1)
        root.addSublayer(card)

        // A spinning square with antialiased edges.
        let spinner = CALayer()
        spinner.name = "spinner"
        spinner.bounds = CGRect(x: 0, y: 0, width: unit, height: unit)
        spinner.position = CGPoint(x: size.width * 0.25, y: size.height * 0.72)
        spinner.backgroundColor = CGColor(red: 0.35, green: 0.78, blue: 0.98, alpha: 1)
        spinner.cornerRadius = unit * 0.12
        spinner.allowsEdgeAntialiasing = true
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0
        spin.toValue = 2 * CGFloat.pi
        spin.duration = 4
        spin.repeatCount = .infinity
        spinner.add(spin, forKey: "spin")
        root.addSublayer(spinner)

        // A panel tilted in perspective, inside a container whose sublayerTransform sets the eye distance.
        let stage = CALayer()
        stage.name = "stage"
        stage.bounds = CGRect(x: 0, y: 0, width: unit * 2.4, height: unit * 1.6)
        stage.position = CGPoint(x: size.width * 0.72, y: size.height * 0.72)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / (unit * 6)
        stage.sublayerTransform = perspective
        let panel = CALayer()
        panel.name = "panel"
        panel.bounds = CGRect(x: 0, y: 0, width: unit * 2, height: unit * 1.3)
        panel.position = CGPoint(x: stage.bounds.midX, y: stage.bounds.midY)
        panel.backgroundColor = CGColor(red: 0.55, green: 0.36, blue: 0.96, alpha: 1)
        panel.cornerRadius = unit * 0.15
        panel.borderWidth = 3
        panel.borderColor = CGColor(gray: 1, alpha: 0.9)
        panel.allowsEdgeAntialiasing = true
        let tilt = CABasicAnimation(keyPath: "transform.rotation.y")
        tilt.fromValue = -CGFloat.pi / 4
        tilt.toValue = CGFloat.pi / 4
        tilt.duration = 3
        tilt.autoreverses = true
        tilt.repeatCount = .infinity
        tilt.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        panel.add(tilt, forKey: "tilt")
        stage.addSublayer(panel)
        root.addSublayer(stage)

        // A title in a text layer, laid out with Pango at the display scale.
        let title = CATextLayer()
        title.name = "title"
        title.string = "LayerKit"
        title.fontSize = unit * 0.35
        title.foregroundColor = CGColor(gray: 0.92, alpha: 1)
        title.alignmentMode = .center
        title.contentsScale = root.contentsScale
        title.bounds = CGRect(x: 0, y: 0, width: size.width * 0.5, height: unit * 0.5)
        title.position = CGPoint(x: size.width * 0.5, y: size.height * 0.08)
        root.addSublayer(title)

        // A shape layer around the picture: marching ants (animated dash phase) over a write-on stroke.
        let outline = CAShapeLayer()
        outline.name = "outline"
        let frame = picture.frame.insetBy(dx: -unit * 0.1, dy: -unit * 0.1)
        outline.path = CGPath(roundedRect: frame, cornerWidth: unit * 0.28, cornerHeight: unit * 0.28)
        outline.fillColor = nil
        outline.strokeColor = CGColor(red: 0.96, green: 0.76, blue: 0.26, alpha: 1)
        outline.lineWidth = 2
        outline.lineDashPattern = [8, 6]
        let ants = CABasicAnimation(keyPath: "lineDashPhase")
        ants.fromValue = 0
        ants.toValue = -14
        ants.duration = 0.5
        ants.repeatCount = .infinity
        outline.add(ants, forKey: "ants")
        let writeOn = CABasicAnimation(keyPath: "strokeEnd")
        writeOn.fromValue = 0
        writeOn.toValue = 1
        writeOn.duration = 2
        outline.add(writeOn, forKey: "writeOn")
        root.addSublayer(outline)
    }

    /// A small generated picture (sky, sun, hills), so the sample needs no image file.
    public static func makeLandscapeImage(width: Int, height: Int) -> CGImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let fx = Double(x) / Double(width), fy = Double(y) / Double(height)
                var color: (Double, Double, Double)
                let hill = 0.65 + 0.08 * sin(fx * 9) + 0.05 * sin(fx * 23 + 1)
                if fy > hill {
                    color = (0.16, 0.45 + 0.2 * (1 - fy), 0.22)
                } else {
                    color = (0.45 + 0.4 * fy, 0.65 + 0.25 * fy, 0.95)
                    let dx = fx - 0.72, dy = fy - 0.3
                    if dx * dx + dy * dy < 0.012 { color = (1.0, 0.86, 0.35) }
                }
                let offset = (y * width + x) * 4
                pixels[offset] = UInt8(color.0 * 255)
                pixels[offset + 1] = UInt8(color.1 * 255)
                pixels[offset + 2] = UInt8(color.2 * 255)
            }
        }
        return CGImage(width: width, height: height, bytesPerRow: width * 4, premultipliedRGBA: pixels, alphaInfo: .noneSkipLast)!
    }
}
