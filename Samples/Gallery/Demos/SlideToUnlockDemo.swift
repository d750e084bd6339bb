// Slide to unlock: the label is a gradient whose bright band sweeps across, masked by a text layer;
// the knob follows the pointer, springs back when let go early, and unlocks at the end.
import Foundation
import LayerKit

public final class SlideToUnlockDemo: GalleryDemo {
    public static let name = "unlock"
    public static let title = "Slide to unlock"
    public static let summary = "A text mask over a moving gradient shine; drag the knob to the end."

    private let track = CALayer()
    private let knob = CALayer()
    private let shine = CAGradientLayer()
    private var dragStart: (pointer: CGFloat, knob: CGFloat)?

    public init(root: CALayer, startTime: CFTimeInterval) {
        root.backgroundColor = DemoStyle.background
        let size = root.bounds.size
        track.frame = CGRect(x: size.width / 2 - 260, y: size.height / 2 - 36, width: 520, height: 72)
        track.cornerRadius = 36
        track.backgroundColor = CGColor(gray: 1, alpha: 0.08)
        track.borderWidth = 1
        track.borderColor = CGColor(gray: 1, alpha: 0.2)
        root.addSublayer(track)

        // The shine: grey with a white band, seen only through the letters of its mask.
        shine.frame = CGRect(x: 90, y: 18, width: 400, height: 36)
        shine.startPoint = CGPoint(x: 0, y: 0.5)
        shine.endPoint = CGPoint(x: 1, y: 0.5)
        let grey = CGColor(gray: 0.45, alpha: 1), white = CGColor(gray: 1, alpha: 1)
        shine.colors = [grey, white, grey]
        shine.locations = [-0.3, -0.15, 0]
        let text = DemoStyle.label("slide to unlock", fontSize: 28, frame: shine.bounds, alignment: .center)
        shine.mask = text
        let sweep = CABasicAnimation(keyPath: "locations")
        sweep.fromValue = [-0.3, -0.15, 0]
        sweep.toValue = [1, 1.15, 1.3]
        sweep.duration = 2
        sweep.repeatCount = .infinity
        shine.add(sweep, forKey: "sweep")
        track.addSublayer(shine)

        knob.frame = CGRect(x: 6, y: 6, width: 60, height: 60)
        knob.cornerRadius = 30
        knob.backgroundColor = DemoStyle.text
        knob.shadowOpacity = 0.5
        knob.shadowRadius = 6
        knob.shadowOffset = CGSize(width: 0, height: 3)
        track.addSublayer(knob)
    }

    private var knobRange: ClosedRange<CGFloat> { 36...(track.bounds.width - 36) }

    public func pointerDown(at point: CGPoint) {
        let local = track.convert(point, from: track.superlayer)
        if knob.frame.insetBy(dx: -10, dy: -10).contains(local) { dragStart = (local.x, knob.position.x) }
    }

    public func pointerMoved(to point: CGPoint) {
        guard let dragStart else { return }
        let local = track.convert(point, from: track.superlayer)
        let x = min(max(dragStart.knob + local.x - dragStart.pointer, knobRange.lowerBound), knobRange.upperBound)
        CATransaction.begin()
        CATransaction.setDisableActions(true)  // the knob follows the finger exactly
        knob.position.x = x
        shine.opacity = Float(1 - (x - knobRange.lowerBound) / (knobRange.upperBound - knobRange.lowerBound))
        CATransaction.commit()
    }

    public func pointerUp(at point: CGPoint) {
        guard dragStart != nil else { return }
        dragStart = nil
        let unlocked = knob.position.x >= knobRange.upperBound - 1
        CATransaction.begin()
        CATransaction.setAnimationDuration(unlocked ? 0.5 : 0.3)
        if unlocked {
            track.opacity = 0  // fades out: unlocked
        } else {
            knob.position.x = knobRange.lowerBound  // springs back
            shine.opacity = 1
        }
        CATransaction.commit()
    }

    public func script(frame: Int, time: CFTimeInterval) {
        let y = track.frame.midY
        let start = track.frame.minX + 36
        switch frame {
        case 5: pointerDown(at: CGPoint(x: start, y: y))
        case 6..<25: pointerMoved(to: CGPoint(x: start + CGFloat(frame - 5) * 10, y: y))
        case 25: pointerUp(at: CGPoint(x: start + 200, y: y))
        case 45: pointerDown(at: CGPoint(x: start, y: y))
        case 46..<70: pointerMoved(to: CGPoint(x: start + CGFloat(frame - 45) * 20, y: y))
        case 70: pointerUp(at: CGPoint(x: start + 500, y: y))
        default: break
        }
    }
}
