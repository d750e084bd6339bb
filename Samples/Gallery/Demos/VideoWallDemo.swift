// Video wall: 1,000 tiles on a turning cylinder, every tile a window onto one shared atlas through its
// contentsRect. The cylinder is a CATransformLayer, so its tiles keep their depth; tiles facing away
// are not drawn (isDoubleSided = false).
import Foundation
import LayerKit
import LayerKitScenes

public final class VideoWallDemo: GalleryDemo {
    public static let name = "videowall"
    public static let title = "Video wall"
    public static let summary = "1,000 tiles on a rotating cylinder (CATransformLayer), sharing one atlas through contentsRect."

    static let columns = 50
    static let rows = 20

    public init(root: CALayer, startTime: CFTimeInterval) {
        root.backgroundColor = CGColor(red: 0.03, green: 0.03, blue: 0.04, alpha: 1)
        let atlas = CityScene.loadAtlas()
        let stage = CALayer()
        stage.frame = root.bounds
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 900
        stage.sublayerTransform = perspective
        root.addSublayer(stage)

        let cylinder = CATransformLayer()
        cylinder.frame = stage.bounds
        stage.addSublayer(cylinder)
        let radius: CGFloat = 220
        let tileWidth = 2 * .pi * radius / CGFloat(Self.columns) - 2
        let tileHeight: CGFloat = 16
        for row in 0..<Self.rows {
            for column in 0..<Self.columns {
                let tile = CALayer()
                tile.bounds = CGRect(x: 0, y: 0, width: tileWidth, height: tileHeight)
                tile.position = CGPoint(x: cylinder.bounds.midX,
                                        y: cylinder.bounds.midY + (CGFloat(row) - CGFloat(Self.rows - 1) / 2) * (tileHeight + 2))
                // Turned to its place around the axis, then moved out to the surface.
                let angle = 2 * .pi * CGFloat(column) / CGFloat(Self.columns)
                tile.transform = CATransform3DTranslate(CATransform3DMakeRotation(angle, 0, 1, 0), 0, 0, radius)
                tile.isDoubleSided = false
                tile.contents = atlas
                // Each tile shows a slice of one picture, so a picture spans several tiles.
                let picture = DemoStyle.pictureRect(column / 5 + row / 5 * 10)
                tile.contentsRect = CGRect(x: picture.minX + picture.width * CGFloat(column % 5) / 5,
                                           y: picture.minY + picture.height * CGFloat(row % 5) / 5,
                                           width: picture.width / 5, height: picture.height / 5)
                cylinder.addSublayer(tile)
            }
        }
        let turn = CABasicAnimation(keyPath: "transform.rotation.y")
        turn.fromValue = 0
        turn.toValue = 2 * Double.pi
        turn.duration = 20
        turn.repeatCount = .infinity
        cylinder.add(turn, forKey: "turn")
    }
}
