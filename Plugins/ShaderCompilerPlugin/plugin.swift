import Foundation
import PackagePlugin

/// Compiles every GLSL stage in the package's `Shaders/` folder to SPIR-V at build time and embeds the
/// words in a generated Swift file, so a fresh clone needs no manual shader step.
///
/// Input: `Shaders/*.vert|frag|comp` (and `Shaders/include/*.glsl`, which they include).
/// Output: `ShaderBinaries.swift` in the plugin's work directory, compiled into the target.
@main
struct ShaderCompilerPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let shaderDirectory = context.package.directoryURL.appending(path: "Shaders")
        let fileManager = FileManager.default
        let stageExtensions: Set<String> = ["vert", "frag", "comp"]
        var inputs: [URL] = []
        for name in (try? fileManager.contentsOfDirectory(atPath: shaderDirectory.path)) ?? [] {
            let url = shaderDirectory.appending(path: name)
            if stageExtensions.contains(url.pathExtension) { inputs.append(url) }
        }
        let includeDirectory = shaderDirectory.appending(path: "include")
        for name in (try? fileManager.contentsOfDirectory(atPath: includeDirectory.path)) ?? [] {
            inputs.append(includeDirectory.appending(path: name))
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "ShaderBinaries.swift")
        return [
            .buildCommand(
                displayName: "Compiling shaders to SPIR-V",
                executable: try context.tool(named: "ShaderCompiler").url,
                arguments: [shaderDirectory.path, output.path],
                inputFiles: inputs.sorted { $0.path < $1.path },
                outputFiles: [output]
            )
        ]
    }
}
