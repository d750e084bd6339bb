/// The SPIR-V of every shader in `Shaders/`, compiled at build time by the ShaderCompiler plugin.
enum ShaderLibrary {
    static func spirv(named name: String) -> [UInt32]? { embeddedShaderBinaries[name] }
}
