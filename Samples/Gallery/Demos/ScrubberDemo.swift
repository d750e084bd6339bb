// Scrubber: an animation paused with speed = 0 and shown at any moment by setting timeOffset — the
// way Core Animation apps tie an animation to a slider or a gesture.
import Foundation
import LayerKit

public final class ScrubberDemo: GalleryDemo {
    public static let name = "scrubber"
    public static let title = "Scrubber"
    public static let summary = "An animation paused with speed = 0, scrubbed through timeOffset by dragging the knob."

    private let stage = CALayer()
    private let track = CALayer()
    private let knob = CALayer()
    private var dragging = false
    /// The length of the paused animation, in seconds.
    private let duration: CFTimeInterval = 2

    public init(root: CALayer, startTime: CFTimeInterval) {
        root.backgroundColor = DemoStyle.background
        let size = root.bounds.size

        // The stage's own time is frozen (speed 0): its animations show the moment `timeOffset` names.
        stage.frame = CGRect(x: 0, y: 0, width: size.width, height: size.height - 100)
        stage.speed = 0
        root.addSublayer(stage)

        let box = CALayer()
        box.bounds = CGRect(x: 0, y: 0, width: 90, height: 90)
        box.position = CGPoint(x: 120, y: stage.bounds.midY)
        box.cornerRadius = 16
        box.backgroundColor = DemoStyle.accent
        stage.addSublayer(box)
        let travel = CABasicAnimation(keyPath: "position.x")
        travel.fromValue = 120
        travel.toValue = size.width - 120
        let turn = CABasicAnimation(keyPath: "transform.rotation.z")
        turn.fromValue = 0
        turn.toValue = Double.pi * 2
        let tint = CABasicAnimation(keyPath: "backgroundColor")
        tint.fromValue = DemoStyle.accent
        tint.toValue = DemoStyle.warm
        let corners = CABasicAnimation(keyPath: "cornerRadius")
        corners.fromValue = 16
        corners.toValue = 45
        let motion = CAAnimationGroup()
        motion.animations = [travel, turn, tint, corners]
        motion.duration = duration
        motion.beginTime = 0  // at the start of the stage's (frozen) time
        motion.fillMode = .both
        motion.isRemovedOnCompletion = false
        box.add(motion, forKey: "motion")

        track.frame = CGRect(x: 60, y: size.height - 56, width: size.width - 120, height: 6)
        track.cornerRadius = 3
        track.backgroundColor = DemoStyle.card
        root.addSublayer(track)
        knob.bounds = CGRect(x: 0, y: 0, width: 28, height: 28)
        knob.cornerRadius = 14
        knob.backgroundColor = DemoStyle.text
        knob.shadowOpacity = 0.4
        knob.shadowRadius = 4
        knob.shadowOffset = CGSize(width: 0, height: 2)
        knob.position = CGPoint(x: track.frame.minX, y: track.frame.midY)
        root.addSublayer(knob)
    }

    /// Moves the knob to `x` and shows the animation at the matching moment.
    private func scrub(to x: CGFloat) {
        let fraction = min(max((x - track.frame.minX) / track.frame.width, 0), 1)
        CATransaction.begin()
        CATransaction.setDisableActions(true)  // the knob follows the pointer, not an animation
        knob.position.x = track.frame.minX + fraction * track.frame.width
        stage.timeOffset = Double(fraction) * duration
        CATransaction.commit()
    }

    public func pointerDown(at point: CGPoint) {
        dragging = knob.frame.insetBy(dx: -12, dy: -12).contains(point) || track.frame.insetBy(dx: 0, dy: -12).contains(point)
        if dragging { scrub(to: point.x) }
    }

    public func pointerMoved(to point: CGPoint) {
        if dragging { scrub(to: point.x) }
    }

    public func pointerUp(at point: CGPoint) {
        dragging = false
    }

    public func keyDown(_ key: GalleryKey) {
        let step = track.frame.width / 20
        switch key {
        case .right: scrub(to: knob.position.x + step)
        case .left: scrub(to: knob.position.x - step)
        default: break
        }
    }

    public func script(frame: Int, time: CFTimeInterval) {
        // A drag from one end of the track to the other and halfway back.
        let x = track.frame.minX + track.frame.width * CGFloat(frame < 40 ? Double(frame) / 40 : 1 - Double(frame - 40) / 80)
        if frame == 0 { pointerDown(at: CGPoint(x: x, y: track.frame.midY)) } else { pointerMoved(to: CGPoint(x: x, y: track.frame.midY)) }
    }
}
