import CGlslang
import Foundation
import LayerKit
import Synchronization

/// Compiles an app's `CIColorKernel` into a fragment shader for the layer-quad pipeline, with glslang.
///
/// Input: the kernel's GLSL (a `vec4 kernel(vec4 color, vec2 position, vec4 inputs)` function and its
/// helpers). Output: SPIR-V of a complete fragment shader that reads its surface as the layer shader's
/// kernel draws do (the texel at the fragment's uv, clamped to the surface's own pixels), unpremultiplies
/// it, calls `kernel`, clamps, and writes premultiplied colour; or a `Failure` with the line of the
/// kernel's source glslang named (`#line 1` precedes the source, so its lines are the app's) and the
/// message. The wrapper declares the varyings `layer_quad.vert` writes and reads uv, uvClamp (the inputs)
/// and the instance's uv rect, and set 1, binding 0, so the pipeline layout is the layer shader's.
/// Cost: one glslang parse and SPIR-V generation per kernel; callers keep the result.
enum KernelCompiler {
    struct Failure: Error, Equatable {
        /// The line of the kernel's source, when glslang named one.
        var line: Int?
        var message: String
    }

    /// The process-wide glslang initialization (glslang keeps global tables; it is initialized once and
    /// never finalized while the process may compile again).
    private static let initialized: Bool = {
        glslang_initialize_process() != 0
    }()
    /// glslang's front end is not safe to run on two threads at once.
    private static let lock = Mutex(())

    static func spirv(for kernel: CIColorKernel) -> Result<[UInt32], Failure> {
        let source = """
            #version 450
            layout(set = 1, binding = 0) uniform sampler2D layerTexture;
            // Every output of layer_quad.vert is declared (unused ones too), as its interface requires.
            layout(location = 0) in vec2 vLocal;
            layout(location = 1) in vec2 vUV;
            layout(location = 2) in vec3 vClip;
            layout(location = 3) flat in vec4 vColor;
            layout(location = 4) flat in vec4 vShape;
            layout(location = 5) flat in vec4 vShapeRadii;
            layout(location = 6) flat in vec4 vParams;
            layout(location = 7) flat in vec4 vClipRect;
            layout(location = 8) flat in vec4 vClipRadii;
            layout(location = 9) flat in vec4 vUVClamp;
            layout(location = 10) flat in vec4 vGradientGeometry;
            layout(location = 11) noperspective in vec2 vShapeOffset;
            layout(location = 0) out vec4 outColor;
            vec4 kernel(vec4 color, vec2 position, vec4 inputs);
            void main() {
                vec4 uvRect = vGradientGeometry;
                vec2 texel = 1.0 / vec2(textureSize(layerTexture, 0));
                vec2 low = uvRect.xy + 0.5 * texel;
                vec2 high = max(uvRect.zw - 0.5 * texel, low);
                vec4 c = textureLod(layerTexture, clamp(vUV, low, high), 0.0);
                vec4 straight = c.a > 0.0 ? vec4(c.rgb / c.a, c.a) : vec4(0.0);
                vec2 position = (vUV - uvRect.xy) / texel;
                vec4 result = clamp(kernel(straight, position, vUVClamp), vec4(0.0), vec4(1.0));
                outColor = vec4(result.rgb * result.a, result.a);
            }
            #line 1
            \(kernel.source)

            """
        return lock.withLock { _ in compile(source) }
    }

    private static func compile(_ source: String) -> Result<[UInt32], Failure> {
        guard initialized else { return .failure(Failure(line: nil, message: "glslang could not be initialized")) }
        return source.withCString { code in
            var input = glslang_input_t()
            input.language = GLSLANG_SOURCE_GLSL
            input.stage = GLSLANG_STAGE_FRAGMENT
            input.client = GLSLANG_CLIENT_VULKAN
            input.client_version = GLSLANG_TARGET_VULKAN_1_1
            input.target_language = GLSLANG_TARGET_SPV
            input.target_language_version = GLSLANG_TARGET_SPV_1_3
            input.code = code
            input.default_version = 450
            input.default_profile = GLSLANG_NO_PROFILE
            input.force_default_version_and_profile = 0
            input.forward_compatible = 0
            input.messages = GLSLANG_MSG_DEFAULT_BIT
            input.resource = glslang_default_resource()
            guard let shader = glslang_shader_create(&input) else {
                return .failure(Failure(line: nil, message: "glslang could not create a shader"))
            }
            defer { glslang_shader_delete(shader) }
            guard glslang_shader_preprocess(shader, &input) != 0, glslang_shader_parse(shader, &input) != 0 else {
                return .failure(failure(from: String(cString: glslang_shader_get_info_log(shader))))
            }
            guard let program = glslang_program_create() else {
                return .failure(Failure(line: nil, message: "glslang could not create a program"))
            }
            defer { glslang_program_delete(program) }
            glslang_program_add_shader(program, shader)
            let rules = Int32(GLSLANG_MSG_SPV_RULES_BIT.rawValue | GLSLANG_MSG_VULKAN_RULES_BIT.rawValue)
            guard glslang_program_link(program, rules) != 0 else {
                return .failure(failure(from: String(cString: glslang_program_get_info_log(program))))
            }
            glslang_program_SPIRV_generate(program, GLSLANG_STAGE_FRAGMENT)
            let count = glslang_program_SPIRV_get_size(program)
            guard count > 0 else { return .failure(Failure(line: nil, message: "glslang produced no SPIR-V")) }
            var words = [UInt32](repeating: 0, count: count)
            words.withUnsafeMutableBufferPointer { glslang_program_SPIRV_get(program, $0.baseAddress) }
            return .success(words)
        }
    }

    /// The first error of a glslang log ("ERROR: 0:LINE: message"), with its line.
    static func failure(from log: String) -> Failure {
        let errors = log.split(separator: "\n").filter { $0.hasPrefix("ERROR:") }
        guard let first = errors.first else { return Failure(line: nil, message: log.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let fields = first.dropFirst("ERROR:".count).split(separator: ":", maxSplits: 2).map { $0.trimmingCharacters(in: .whitespaces) }
        if fields.count == 3, let line = Int(fields[1]) {
            return Failure(line: line, message: fields[2])
        }
        return Failure(line: nil, message: String(first))
    }
}
