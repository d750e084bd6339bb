import Foundation
import LayerKit
import LayerKitRender

/// The views a report shows each picked frame in: the frame itself and three of LayerKit's debug views
/// (`DebugOptions`).
public enum PictureView: String, Sendable, CaseIterable {
    case frame
    case overdraw
    case blended
    case offscreen

    /// The renderer's debug options for the view.
    public var debugOptions: DebugOptions {
        switch self {
        case .frame: []
        case .overdraw: .overdraw
        case .blended: .blended
        case .offscreen: .offscreen
        }
    }

    /// What the view's colours mean, for the page.
    public var legend: String {
        switch self {
        case .frame: "The frame as drawn."
        case .overdraw: "Overdraw heat map: pixels shaded once untinted, twice blue, three times green, four times pink, five or more red."
        case .blended: "Red tint: quads that blend with what is under them; green: opaque quads (occluders)."
        case .offscreen: "Tinted: quads compositing an offscreen surface — yellow group opacity, masks, rasterization; brown shadows; violet filters; cyan background filters; orange compositing filters."
        }
    }
}

/// A picture of one frame in one view.
public struct ProfilePicture {
    public var role: ProfiledFrame.Role
    public var frame: Int
    public var view: PictureView
    public var image: CGImage

    /// The picture's file name in the report folder: `median-overdraw.png`.
    public var fileName: String { "\(role.rawValue)-\(view.rawValue).png" }
}
