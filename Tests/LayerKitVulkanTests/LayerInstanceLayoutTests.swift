import Foundation
import LayerKitRender
import XCTest

/// The instance record is declared twice — `LayerInstance` in Swift and `struct LayerInstance` in
/// `Shaders/include/layer_instance.glsl` — and these tests hold the two together.
final class LayerInstanceLayoutTests: XCTestCase {
    /// (member name, byte offset) of the GLSL declaration, parsed between its BEGIN/END markers. Every
    /// member is a vec4 or an array of vec4, so std430 places member i at 16 × (vec4s before it).
    func glslMembers() throws -> [(name: String, offset: Int)] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Shaders/include/layer_instance.glsl")
        let source = try String(contentsOf: url, encoding: .utf8)
        guard let begin = source.range(of: "// BEGIN LayerInstance"), let end = source.range(of: "// END LayerInstance") else {
            XCTFail("layer_instance.glsl lacks its BEGIN/END LayerInstance markers")
            return []
        }
        var members: [(String, Int)] = []
        var vec4s = 0
        for rawLine in source[begin.upperBound..<end.lowerBound].split(separator: "\n") {
            let line = rawLine.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)[0].trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("vec4 ") else {
                XCTAssertTrue(line.isEmpty || line.hasPrefix("struct") || line.hasPrefix("}"), "unexpected member line: \(line)")
                continue
            }
            var declaration = String(line.dropFirst(5).dropLast())  // "name" or "name[N]"
            var count = 1
            if let bracket = declaration.firstIndex(of: "[") {
                count = Int(declaration[declaration.index(after: bracket)..<declaration.index(before: declaration.endIndex)])!
                declaration = String(declaration[..<bracket])
            }
            members.append((declaration, vec4s * 16))
            vec4s += count
        }
        members.append(("<end>", vec4s * 16))
        return members
    }

    func testSwiftMemberOffsetsMatchTheShaderDeclaration() throws {
        let swiftOffsets: [String: Int?] = [
            "localToClip": MemoryLayout<LayerInstance>.offset(of: \.localToClip),
            "quad": MemoryLayout<LayerInstance>.offset(of: \.quad),
            "uv": MemoryLayout<LayerInstance>.offset(of: \.uv),
            "color": MemoryLayout<LayerInstance>.offset(of: \.color),
            "shape": MemoryLayout<LayerInstance>.offset(of: \.shape),
            "shapeRadii": MemoryLayout<LayerInstance>.offset(of: \.shapeRadii),
            "params": MemoryLayout<LayerInstance>.offset(of: \.params),
            "clipFromLocal": MemoryLayout<LayerInstance>.offset(of: \.clipFromLocal),
            "clipRect": MemoryLayout<LayerInstance>.offset(of: \.clipRect),
            "clipRadii": MemoryLayout<LayerInstance>.offset(of: \.clipRadii),
            "uvClamp": MemoryLayout<LayerInstance>.offset(of: \.uvClamp),
        ]
        let glsl = try glslMembers()
        for (name, offset) in glsl where name != "<end>" {
            XCTAssertEqual(swiftOffsets[name] ?? nil, offset, "member \(name): Swift offset vs GLSL std430 offset")
        }
        XCTAssertEqual(Set(swiftOffsets.keys), Set(glsl.map(\.name)).subtracting(["<end>"]))
    }

    func testShaderRecordIsLayerInstanceStride() throws {
        XCTAssertEqual(try glslMembers().last?.offset, LayerInstance.stride)
        XCTAssertEqual(LayerInstance.stride, 256)
        XCTAssertLessThanOrEqual(MemoryLayout<LayerInstance>.size, LayerInstance.stride)
    }

    func testSwiftStrideIsTheShaderStride() {
        // The backend copies min(size, stride) bytes per instance, so it is correct either way; this pins
        // the declared contract "MemoryLayout<LayerInstance>.stride == LayerInstance.stride == 256".
        XCTAssertEqual(MemoryLayout<LayerInstance>.stride, LayerInstance.stride)
    }
}
