import Foundation
import LayerKit

/// Collects every LayerKit diagnostic emitted while it is alive, for assertions.
///
///     let capture = DiagnosticCapture()
///     layer.position = CGPoint(x: .nan, y: 0)
///     XCTAssertEqual(capture.names, ["nonFiniteGeometry"])
public final class DiagnosticCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var captured: [LayerKitDiagnostic] = []
    private var observation: LayerKitDiagnostics.Observation?

    public init() {
        observation = LayerKitDiagnostics.shared.observe { [weak self] diagnostic in
            guard let self else { return }
            self.lock.lock()
            self.captured.append(diagnostic)
            self.lock.unlock()
        }
    }

    public var diagnostics: [LayerKitDiagnostic] {
        lock.lock()
        defer { lock.unlock() }
        return captured
    }

    public var names: [String] { diagnostics.map(\.name) }
}
