// Album city: 6,000 covers standing in rows in 3D, and a camera flying over them by animating the
// container's sublayerTransform — one atlas, so the whole city is a handful of draw calls.
import Foundation
import LayerKit
import LayerKitScenes

public final class AlbumCityDemo: GalleryDemo {
    public static let name = "albumcity"
    public static let title = "Album city"
    public static let summary = "6,000 covers in 3D; the camera flies through by animating sublayerTransform."

    static let columns = 100
    static let rows = 60
    static let pitch: CGFloat = 60

    public init(root: CALayer, startTime: CFTimeInterval) {
        root.backgroundColor = CGColor(red: 0.02, green: 0.02, blue: 0.05, alpha: 1)
        let atlas = CityScene.loadAtlas()
        let city = CALayer()
        city.frame = root.bounds
        root.addSublayer(city)
        let centre = CGPoint(x: city.bounds.midX, y: city.bounds.midY)

        // Rows stand one behind the other, farthest first (siblings draw in order, so the painter's
        // order is right while the camera moves forwards); each cover stands on the ground, 400 points
        // below the eye.
        for row in (0..<Self.rows).reversed() {
            for column in 0..<Self.columns {
                let k = (row % 10) * Self.columns + column  // rows repeat every ten
                let cover = CALayer()
                cover.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
                cover.position = CGPoint(x: centre.x + (CGFloat(column) - CGFloat(Self.columns - 1) / 2) * 48, y: centre.y + 400)
                cover.transform = CATransform3DMakeTranslation(0, -CGFloat((k * 7) % 5) * 8, -CGFloat(row + 12) * Self.pitch)
                cover.contents = atlas
                cover.contentsRect = DemoStyle.pictureRect(k)
                city.addSublayer(cover)
            }
        }

        // The camera: perspective, then a forward flight of ten rows, repeated (rows are alike every
        // ten, so the loop does not show). The nearest row starts 12 rows away, so none reaches the eye.
        var eye = CATransform3DIdentity
        eye.m34 = -1 / 400
        city.sublayerTransform = eye
        let flight = CABasicAnimation(keyPath: "sublayerTransform")
        flight.fromValue = eye
        flight.toValue = CATransform3DConcat(CATransform3DMakeTranslation(0, 0, 10 * Self.pitch), eye)
        flight.duration = 4
        flight.repeatCount = .infinity
        city.add(flight, forKey: "flight")
    }
}
