import Foundation
import LayerKit

/// Random layer trees with hostile values, for fuzzing: every layer class, and in every numeric property
/// sometimes NaN, an infinity, 1e30, a negative or zero size; singular transforms, huge radii and border
/// widths, degenerate paths, contents rects outside [0, 1], hostile timing (zero, negative and NaN
/// durations, endless repeats, speed 0 and negative), keyframe arrays of mismatched lengths, unknown key
/// paths and values of the wrong type.
///
/// A tree is a function of its seed alone (`SeededGenerator`), so a failure is reproduced by its seed.
/// Hosts render it at random times and check that nothing crashes, no validation message appears, and
/// `problems(in:of:)` finds nothing: every pixel a valid premultiplied value, presentation geometry finite
/// (`LayerKitFuzz`, and a short run in the render tests). Renders nothing itself.
public struct HostileTrees {
    /// The tree built from `seed`: a 256×256 root with up to `maximumLayers` layers below it.
    public static func tree(seed: UInt64, maximumLayers: Int = 24) -> CALayer {
        var builder = HostileTrees(seed: seed)
        return builder.build(maximumLayers: maximumLayers)
    }

    /// Times (seconds from 0) at which to render the tree of `seed`, some of them hostile in order.
    public static func frameTimes(seed: UInt64, count: Int) -> [CFTimeInterval] {
        var random = SeededGenerator(seed: seed ^ 0x5eed_f00d)
        return (0..<count).map { _ in Double(random.next() % 4_000) / 1_000 }
    }

    /// What is wrong with a frame of `root` (rendered as `image`): pixels whose colour exceeds their alpha
    /// (not premultiplied), layers presenting non-finite geometry. Empty when nothing is.
    public static func problems(in image: CGImage, of root: CALayer) -> [String] {
        var problems: [String] = []
        var invalid = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x: x, y: y)
                if p.r > p.a || p.g > p.a || p.b > p.a { invalid += 1 }
            }
        }
        if invalid > 0 { problems.append("\(invalid) pixels whose colour exceeds their alpha") }
        var stack = [root]
        while let layer = stack.popLast() {
            let presentation = layer.presentation() ?? layer
            let values = [presentation.bounds.width, presentation.bounds.height, presentation.position.x, presentation.position.y]
            if !values.allSatisfy(\.isFinite) { problems.append("\(layer) presents non-finite geometry") }
            stack.append(contentsOf: layer.sublayers ?? [])
            if let mask = layer.mask { stack.append(mask) }
        }
        return problems
    }

    private var random: SeededGenerator
    private let image: CGImage

    private init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
        // 8×8 premultiplied pixels: a ramp, every third pixel half transparent (colour within alpha).
        var bytes: [UInt8] = []
        for i in 0..<64 {
            let alpha: UInt8 = i % 3 == 0 ? 128 : 255
            bytes += [min(UInt8(i * 4), alpha), min(128, alpha), min(UInt8(255 - i * 4), alpha), alpha]
        }
        image = CGImage(width: 8, height: 8, bytesPerRow: 32, premultipliedRGBA: bytes, alphaInfo: .premultipliedLast)!
    }

    private mutating func build(maximumLayers: Int) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 256, height: 256)
        var layers = [root]
        let count = 1 + Int(random.next() % UInt64(max(1, maximumLayers)))
        for _ in 0..<count {
            let layer = makeLayer()
            hostileProperties(of: layer)
            if chance(0.3) { addHostileAnimation(to: layer) }
            let parent = layers[Int(random.next() % UInt64(layers.count))]
            if chance(0.08), parent.mask == nil, parent !== root {
                parent.mask = layer
            } else {
                parent.addSublayer(layer)
            }
            layers.append(layer)
        }
        return root
    }

    // MARK: - Layers

    private mutating func makeLayer() -> CALayer {
        switch random.next() % 10 {
        case 0:
            let shape = CAShapeLayer()
            shape.path = hostilePath()
            shape.fillColor = color()
            shape.strokeColor = chance(0.5) ? color() : nil
            shape.lineWidth = number(typical: 3)
            shape.strokeStart = number(typical: 0.2)
            shape.strokeEnd = number(typical: 0.9)
            shape.miterLimit = number(typical: 10)
            shape.lineDashPhase = number(typical: 2)
            if chance(0.4) { shape.lineDashPattern = (0..<Int(random.next() % 4)).map { _ in NSNumber(value: Double(number(typical: 4))) } }
            return shape
        case 1:
            let gradient = CAGradientLayer()
            gradient.colors = (0..<Int(random.next() % 5)).map { _ in color() }
            if chance(0.6) { gradient.locations = (0..<Int(random.next() % 6)).map { _ in NSNumber(value: Double(number(typical: 0.5))) } }
            gradient.startPoint = point(typical: 0.2)
            gradient.endPoint = point(typical: 0.8)
            gradient.type = [CAGradientLayerType.axial, .radial, .conic][Int(random.next() % 3)]
            return gradient
        case 2:
            let text = CATextLayer()
            text.string = chance(0.8) ? "Hostile \(random.next() % 100)" : ""
            text.fontSize = number(typical: 14)
            text.foregroundColor = color()
            text.isWrapped = chance(0.5)
            return text
        case 3:
            return CATransformLayer()
        case 4:
            let scroll = CAScrollLayer()
            scroll.scroll(to: point(typical: 20))
            return scroll
        case 5:
            let tiled = CATiledLayer()
            tiled.tileSize = size(typical: 64)
            tiled.levelsOfDetail = Int(truncatingIfNeeded: Int64(bitPattern: random.next()) % 40) - 10
            tiled.levelsOfDetailBias = Int(truncatingIfNeeded: Int64(bitPattern: random.next()) % 40) - 10
            return tiled
        case 6:
            let replicator = CAReplicatorLayer()
            replicator.instanceCount = Int(truncatingIfNeeded: Int64(bitPattern: random.next()) % 12) - 2
            replicator.instanceTransform = transform()
            replicator.instanceDelay = number(typical: 0.1)
            replicator.instanceColor = color()
            replicator.instanceRedOffset = Float(number(typical: -0.2))
            replicator.instanceAlphaOffset = Float(number(typical: -0.1))
            return replicator
        case 7:
            let emitter = CAEmitterLayer()
            emitter.emitterPosition = point(typical: 20)
            emitter.emitterSize = size(typical: 20)
            emitter.emitterShape = [.point, .line, .rectangle, .circle, .sphere][Int(random.next() % 5)]
            emitter.emitterMode = chance(0.5) ? .outline : .surface
            emitter.renderMode = chance(0.5) ? .additive : .oldestLast
            emitter.birthRate = Float(number(typical: 1))
            emitter.seed = UInt32(truncatingIfNeeded: random.next())
            let cell = CAEmitterCell()
            cell.birthRate = Float(number(typical: 30))
            cell.lifetime = Float(number(typical: 2))
            cell.lifetimeRange = Float(number(typical: 1))
            cell.velocity = number(typical: 20)
            cell.velocityRange = number(typical: 10)
            cell.emissionRange = number(typical: 3)
            cell.yAcceleration = number(typical: 10)
            cell.spin = number(typical: 1)
            cell.scale = number(typical: 0.5)
            cell.scaleSpeed = number(typical: 0.1)
            cell.alphaSpeed = Float(number(typical: -0.3))
            cell.color = color()
            cell.contents = chance(0.8) ? image : nil
            cell.contentsRect = CGRect(origin: point(typical: 0), size: size(typical: 1))
            emitter.emitterCells = [cell]
            return emitter
        default:
            return CALayer()
        }
    }

    private mutating func hostileProperties(of layer: CALayer) {
        layer.bounds = CGRect(origin: point(typical: 0), size: size(typical: 40))
        layer.position = point(typical: 100)
        if chance(0.3) { layer.anchorPoint = point(typical: 0.5) }
        if chance(0.2) { layer.anchorPointZ = number(typical: 0) }
        if chance(0.3) { layer.zPosition = number(typical: 1) }
        if chance(0.4) { layer.transform = transform() }
        if chance(0.2) { layer.sublayerTransform = transform() }
        layer.backgroundColor = chance(0.8) ? color() : nil
        if chance(0.4) { layer.opacity = Float(number(typical: 0.7)) }
        if chance(0.4) { layer.cornerRadius = number(typical: 8) }
        if chance(0.3) {
            layer.borderWidth = number(typical: 2)
            layer.borderColor = color()
        }
        if chance(0.3) { layer.masksToBounds = true }
        if chance(0.1) { layer.isHidden = true }
        if chance(0.3) {
            layer.contents = image
            layer.contentsRect = CGRect(origin: point(typical: 0), size: size(typical: 1))
            if chance(0.5) { layer.contentsCenter = CGRect(origin: point(typical: 0.25), size: size(typical: 0.5)) }
            if chance(0.3) { layer.contentsScale = number(typical: 2) }
            if chance(0.5) { layer.contentsGravity = [.resize, .center, .topLeft, .resizeAspect, .resizeAspectFill][Int(random.next() % 5)] }
        }
        if chance(0.2) {
            layer.shadowOpacity = Float(number(typical: 0.5))
            layer.shadowRadius = number(typical: 3)
            layer.shadowOffset = size(typical: 3)
            if chance(0.3) { layer.shadowPath = hostilePath() }
        }
        if chance(0.15) { layer.filters = hostileFilters() }
        if chance(0.1) { layer.backgroundFilters = hostileFilters() }
        if chance(0.1) {
            let modes = ["multiplyBlendMode", "screenBlendMode", "overlayBlendMode", "hueBlendMode", "sourceInCompositing", "noSuchBlendMode"]
            layer.compositingFilter = modes[Int(random.next() % UInt64(modes.count))]
        }
        if chance(0.15) {
            layer.shouldRasterize = true
            layer.rasterizationScale = number(typical: 1)
        }
        if chance(0.2) { layer.allowsEdgeAntialiasing = true }
        if chance(0.2) { layer.allowsGroupOpacity = false }
        if chance(0.2) { layer.isDoubleSided = false }
        if chance(0.2) { layer.isGeometryFlipped = true }
        if chance(0.2) { layer.speed = Float(number(typical: 1)) }
        if chance(0.2) { layer.timeOffset = number(typical: 0.5) }
        if chance(0.1) { layer.setValue(number(typical: 0.3), forKeyPath: "transform.rotation.z") }
        if chance(0.1) { layer.setValue("not a number", forKeyPath: "position.x") }
        if chance(0.1) { layer.setValue(number(typical: 1), forKeyPath: "no.such.keyPath") }
    }

    /// One to three of the filters the renderer draws, their numbers hostile, now and then a wrong kind.
    private mutating func hostileFilters() -> [Any] {
        let names = CIFilter.drawnFilters.sorted()
        return (0...Int(random.next() % 3)).map { _ in
            let filter = CIFilter(name: names[Int(random.next() % UInt64(names.count))])!
            for key in filter.inputKeys {
                switch filter.value(forKey: key) {
                case is CIVector: filter.setValue(CIVector(x: number(typical: 20), y: number(typical: 20)), forKey: key)
                case is CGColor: filter.setValue(color(), forKey: key)
                default: filter.setValue(chance(0.1) ? "loud" as Any : number(typical: 4), forKey: key)
                }
            }
            return filter
        }
    }

    // MARK: - Animations

    private mutating func addHostileAnimation(to layer: CALayer) {
        let keyPaths = ["position", "position.x", "bounds.size.width", "opacity", "transform.rotation.z", "transform.scale",
                        "backgroundColor", "cornerRadius", "borderWidth", "contentsRect", "strokeEnd", "colors", "locations",
                        "fontSize", "zPosition", "no.such.property", "shadowRadius", "shadowOffset", "filters.CIGaussianBlur.inputRadius"]
        let keyPath = keyPaths[Int(random.next() % UInt64(keyPaths.count))]
        let animation: CAPropertyAnimation
        if chance(0.5) {
            let keyframes = CAKeyframeAnimation(keyPath: keyPath)
            keyframes.values = (0..<Int(random.next() % 5)).map { _ in animationValue() }
            if chance(0.6) { keyframes.keyTimes = (0..<Int(random.next() % 6)).map { _ in NSNumber(value: Double(number(typical: 0.5))) } }
            if chance(0.3) { keyframes.timingFunctions = (0..<Int(random.next() % 4)).map { _ in CAMediaTimingFunction(name: .easeIn) } }
            if chance(0.2) { keyframes.calculationMode = [.discrete, .paced, .cubic, .cubicPaced][Int(random.next() % 4)] }
            animation = keyframes
        } else {
            let basic = chance(0.3) ? CASpringAnimation(keyPath: keyPath) : CABasicAnimation(keyPath: keyPath)
            basic.fromValue = chance(0.7) ? animationValue() : nil
            basic.toValue = chance(0.7) ? animationValue() : nil
            basic.byValue = chance(0.2) ? animationValue() : nil
            animation = basic
        }
        animation.duration = Double(number(typical: 1))
        if chance(0.3) { animation.repeatCount = Float(number(typical: 2)) }
        if chance(0.2) { animation.speed = Float(number(typical: 1)) }
        if chance(0.2) { animation.beginTime = Double(number(typical: 0.5)) }
        if chance(0.2) { animation.autoreverses = true }
        animation.isAdditive = chance(0.2)
        animation.isCumulative = chance(0.2)
        animation.fillMode = [.removed, .forwards, .backwards, .both][Int(random.next() % 4)]
        layer.add(animation, forKey: "hostile")
    }

    /// A value of some kind, often not the property's.
    private mutating func animationValue() -> Any {
        switch random.next() % 7 {
        case 0: return number(typical: 10)
        case 1: return point(typical: 10)
        case 2: return CGRect(origin: point(typical: 0), size: size(typical: 1))
        case 3: return color()
        case 4: return transform()
        case 5: return [color(), color()]
        default: return "wrong type"
        }
    }

    // MARK: - Values

    private mutating func chance(_ p: Double) -> Bool {
        Double(random.next() % 1_000_000) / 1_000_000 < p
    }

    /// Usually near `typical`; sometimes NaN, ±infinity, ±1e30, zero or negative.
    private mutating func number(typical: CGFloat) -> CGFloat {
        switch random.next() % 12 {
        case 0: return .nan
        case 1: return .infinity
        case 2: return -.infinity
        case 3: return 1e30
        case 4: return -1e30
        case 5: return 0
        case 6: return -typical - 1
        default: return typical * CGFloat(random.next() % 2_000) / 1_000
        }
    }

    private mutating func point(typical: CGFloat) -> CGPoint { CGPoint(x: number(typical: typical), y: number(typical: typical)) }
    private mutating func size(typical: CGFloat) -> CGSize { CGSize(width: number(typical: typical), height: number(typical: typical)) }

    private mutating func color() -> CGColor {
        CGColor(red: number(typical: 0.5), green: number(typical: 0.5), blue: number(typical: 0.5), alpha: number(typical: 0.6))
    }

    private mutating func transform() -> CATransform3D {
        switch random.next() % 5 {
        case 0: return CATransform3DMakeScale(0, 0, 1)  // singular
        case 1: return CATransform3DMakeRotation(number(typical: 1), number(typical: 0), number(typical: 0), number(typical: 1))
        case 2:
            var perspective = CATransform3DIdentity
            perspective.m34 = -1 / number(typical: 500)
            return CATransform3DRotate(perspective, number(typical: 1), 0, 1, 0)
        case 3: return CATransform3DMakeScale(number(typical: 1), number(typical: 1), number(typical: 1))
        default: return CATransform3DMakeTranslation(number(typical: 10), number(typical: 10), number(typical: 0))
        }
    }

    private mutating func hostilePath() -> CGPath? {
        let path = CGMutablePath()
        switch random.next() % 6 {
        case 0: return nil
        case 1: return path  // empty
        case 2: path.move(to: point(typical: 10))  // a lone point
        case 3: path.addRect(CGRect(origin: point(typical: 5), size: size(typical: 30)))
        case 4: path.addEllipse(in: CGRect(origin: point(typical: 5), size: size(typical: 30)))
        default:
            path.move(to: point(typical: 0))
            for _ in 0..<Int(random.next() % 6) {
                path.addCurve(to: point(typical: 30), control1: point(typical: 10), control2: point(typical: 20))
            }
            path.closeSubpath()
        }
        return path
    }
}
