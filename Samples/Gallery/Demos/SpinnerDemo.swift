// Spinner and equalizer: one bar and one animation each, multiplied by a replicator whose
// instanceDelay makes the animation ripple from instance to instance.
import Foundation
import LayerKit

public final class SpinnerDemo: GalleryDemo {
    public static let name = "spinner"
    public static let title = "Spinner, equalizer"
    public static let summary = "CAReplicatorLayer with instanceDelay: 12 spokes and 16 bars from one layer each."

    public init(root: CALayer, startTime: CFTimeInterval) {
        root.backgroundColor = DemoStyle.background
        let size = root.bounds.size

        // The spinner: 12 instances of one spoke, each turned 30° about the replicator's centre. Each
        // spoke fades out over a second; instance k starts k/12 s later, so the bright spoke goes round.
        let spinner = CAReplicatorLayer()
        spinner.frame = CGRect(x: size.width * 0.25 - 80, y: size.height / 2 - 80, width: 160, height: 160)
        spinner.instanceCount = 12
        spinner.instanceTransform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        spinner.instanceDelay = 1.0 / 12
        let spoke = CALayer()
        spoke.frame = CGRect(x: 74, y: 4, width: 12, height: 44)
        spoke.cornerRadius = 6
        spoke.backgroundColor = DemoStyle.text
        spoke.opacity = 0.15
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1
        fade.toValue = 0.15
        fade.duration = 1
        fade.repeatCount = .infinity
        fade.fillMode = .backwards
        spoke.add(fade, forKey: "fade")
        spinner.addSublayer(spoke)
        root.addSublayer(spinner)

        // The equalizer: 16 instances of one bar, side by side, each bouncing 0.1 s after its left
        // neighbour, tinted from blue towards orange by the colour offsets.
        let equalizer = CAReplicatorLayer()
        equalizer.frame = CGRect(x: size.width * 0.55, y: size.height / 2 - 90, width: 16 * 22, height: 180)
        equalizer.instanceCount = 16
        equalizer.instanceTransform = CATransform3DMakeTranslation(22, 0, 0)
        equalizer.instanceDelay = 0.1
        equalizer.instanceColor = CGColor(red: 0.3, green: 0.6, blue: 1, alpha: 1)
        equalizer.instanceRedOffset = 0.045
        equalizer.instanceBlueOffset = -0.05
        let bar = CALayer()
        bar.anchorPoint = CGPoint(x: 0.5, y: 1)
        bar.bounds = CGRect(x: 0, y: 0, width: 16, height: 180)
        bar.position = CGPoint(x: 8, y: 180)
        bar.cornerRadius = 4
        bar.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let bounce = CABasicAnimation(keyPath: "transform.scale.y")
        bounce.fromValue = 0.15
        bounce.toValue = 1
        bounce.duration = 0.4
        bounce.autoreverses = true
        bounce.repeatCount = .infinity
        bounce.fillMode = .backwards  // instances waiting for their delay show the animation's start
        bounce.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        bar.add(bounce, forKey: "bounce")
        equalizer.addSublayer(bar)
        root.addSublayer(equalizer)
    }
}
