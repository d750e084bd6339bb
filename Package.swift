// swift-tools-version:6.0
import PackageDescription

// Dependencies go one way only: LayerKitSDL → LayerKitVulkan → LayerKitRender → LayerKit.
// C libraries enter through system-library targets (a module map and a shim header each).
let package = Package(
    name: "LayerKit",
    products: [
        .library(name: "LayerKit", targets: ["LayerKit"]),
        .library(name: "LayerKitRender", targets: ["LayerKitRender"]),
        .library(name: "LayerKitVulkan", targets: ["LayerKitVulkan"]),
        .library(name: "LayerKitSDL", targets: ["LayerKitSDL"]),
        .executable(name: "Hello", targets: ["Hello"]),
        .executable(name: "Content", targets: ["Content"]),
        .executable(name: "GameHUD", targets: ["GameHUD"]),
        .executable(name: "LayerKitBench", targets: ["LayerKitBench"]),
        .executable(name: "LayerKitFuzz", targets: ["LayerKitFuzz"]),
        .executable(name: "LayerKitProfile", targets: ["LayerKitProfile"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // System libraries, found by pkg-config.
        .systemLibrary(name: "CVulkan", pkgConfig: "vulkan", providers: [.apt(["libvulkan-dev"])]),
        .systemLibrary(name: "CSDL2", pkgConfig: "sdl2", providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CGlslang", providers: [.apt(["glslang-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPango", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        // glibc's allocator controls (malloc.h): the C heap's policy under a CPU Vulkan device.
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(name: "CPrefetch"),
        // glibc's sincos: both of an angle from one call (a spinning layer's rotation, LayerKit).
        .systemLibrary(name: "CSinCos"),
        // The X server's connection and shared-memory images: presenting a CPU device's frames (LayerKitSDL).
        .systemLibrary(name: "CXCB", pkgConfig: "xcb-shm", providers: [.apt(["libxcb-shm0-dev"])]),

        // The model: layers, animations, transactions, Core Graphics value types. No Vulkan.
        .target(
            name: "LayerKit",
            dependencies: ["CPNG", "CCairo", "CPango", "CSinCos", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // Render server, render tree and the backend-neutral render graph. Never imports Vulkan.
        .target(name: "LayerKitRender", dependencies: ["LayerKit", "CPrefetch"], swiftSettings: swiftSettings),
        // Executes a render graph with Vulkan; headless CARenderer.
        .target(
            name: "LayerKitVulkan",
            dependencies: ["LayerKitRender", "CVulkan", "CGlslang", "CMalloc", "CPrefetch", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings,
            plugins: ["ShaderCompilerPlugin"]
        ),
        // SDL window host with a Vulkan swapchain.
        .target(name: "LayerKitSDL", dependencies: ["LayerKitVulkan", "CSDL2", "CXCB"], swiftSettings: swiftSettings),
        // Scenes shared by samples, benchmarks, tools and tests (not a product).
        .target(name: "LayerKitScenes", dependencies: ["LayerKit"], resources: [.copy("Resources")], swiftSettings: swiftSettings),

        // Build-time shader compilation: GLSL in Shaders/ becomes SPIR-V embedded in LayerKitVulkan.
        .executableTarget(name: "ShaderCompiler", path: "Sources/ShaderCompiler"),
        .plugin(
            name: "ShaderCompilerPlugin",
            capability: .buildTool(),
            dependencies: ["ShaderCompiler"]
        ),

        // What every sample shares: its options, and running in a window or headless.
        .target(
            name: "SampleSupport",
            dependencies: ["LayerKitSDL", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Samples/Support",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "Hello",
            dependencies: ["SampleSupport", "LayerKitScenes", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Samples/Hello",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "Content",
            dependencies: ["SampleSupport", "LayerKitScenes", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Samples/Content",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "Effects",
            dependencies: ["SampleSupport", "LayerKit", "LayerKitScenes", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Samples/Effects",
            swiftSettings: swiftSettings
        ),
        // A game's own Vulkan frame with a LayerKit HUD drawn over it on the game's device.
        .executableTarget(
            name: "GameHUD",
            dependencies: ["LayerKitVulkan", "CVulkan", "CSDL2", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Samples/GameHUD",
            swiftSettings: swiftSettings
        ),
        // The gallery: its demos (a library, so tests run them headless) and the app that hosts them.
        .target(
            name: "GalleryDemos",
            dependencies: ["LayerKit", "LayerKitRender", "LayerKitScenes"],
            path: "Samples/Gallery/Demos",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "Gallery",
            dependencies: ["GalleryDemos", "SampleSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Samples/Gallery/App",
            swiftSettings: swiftSettings
        ),
        // Counts the bytes malloc holds, for bytes-per-layer figures.
        .target(name: "CMallocStats", path: "Benchmarks/CMallocStats"),
        .executableTarget(
            name: "LayerKitBench",
            dependencies: [
                "LayerKit", "LayerKitRender", "LayerKitVulkan", "LayerKitSDL", "LayerKitScenes", "CMallocStats",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/LayerKitBench",
            swiftSettings: swiftSettings
        ),

        // Renders random hostile layer trees (`HostileTrees`) and checks what comes out.
        .executableTarget(
            name: "LayerKitFuzz",
            dependencies: [
                "LayerKit", "LayerKitVulkan", "LayerKitScenes", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/LayerKitFuzz",
            swiftSettings: swiftSettings
        ),

        // Profiles a benchmark scene into a report folder (report.html, trace.json, debug-view pictures):
        // the report (a library, so tests check it) and the command that writes it (Tools/profile).
        .target(
            name: "ProfileReport",
            dependencies: ["LayerKit", "LayerKitRender", "LayerKitVulkan", "LayerKitScenes"],
            path: "Tools/ProfileReport",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "LayerKitProfile",
            dependencies: ["ProfileReport", "LayerKitScenes", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Tools/LayerKitProfile",
            swiftSettings: swiftSettings
        ),

        .target(
            name: "LayerKitTestSupport",
            dependencies: ["LayerKit", "LayerKitScenes", .product(name: "Logging", package: "swift-log")],
            path: "Tests/LayerKitTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LayerKitTests",
            dependencies: ["LayerKit", "LayerKitTestSupport"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "LayerKitRenderTests", dependencies: ["LayerKitRender", "LayerKitScenes", "LayerKitTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "LayerKitVulkanTests", dependencies: ["LayerKitVulkan", "LayerKitScenes", "LayerKitTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "LayerKitSDLTests", dependencies: ["LayerKitSDL", "LayerKitTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "ProfileReportTests", dependencies: ["ProfileReport", "LayerKitTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "GalleryTests", dependencies: ["GalleryDemos", "LayerKitVulkan"], swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v6]
)

var swiftSettings: [SwiftSetting] { [] }
