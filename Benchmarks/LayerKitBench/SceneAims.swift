/// The render-graph issue's aims, one or more per scene, each naming the printed figure it judges.
///
/// An aim is printed next to its figure with whether the figure meets it; a figure the device cannot
/// measure (fragments shaded, hence overdraw, without pipeline-statistics queries) prints as n/a and the
/// aim as not measurable. Aims are
/// reported, never asserted: the timed ones depend on the machine.
struct SceneAim {
    /// The figure judged, as printed (`draw_calls`).
    var figure: String
    var limit: Double
    /// `<=` when true, `<` when false.
    var inclusive: Bool
    /// What the issue asks, in words.
    var summary: String

    func judge(_ value: Double?) -> Bool? {
        guard let value else { return nil }
        return inclusive ? value <= limit : value < limit
    }

    var condition: String { "\(figure) \(inclusive ? "<=" : "<") \(BenchmarkResult.format(limit))" }

    /// The aims of the scene named `scene` (SCENES.md and LayerKitScenes names).
    static func aims(for scene: String) -> [SceneAim] {
        switch scene {
        case "city":
            [SceneAim(figure: "draw_calls", limit: 4, inclusive: true, summary: "one atlas, so a handful of instanced draws")]
        case "stack":
            [SceneAim(figure: "overdraw", limit: 1.05, inclusive: true, summary: "the 63 hidden layers cost (almost) nothing")]
        case "translucent":
            [SceneAim(figure: "draw_calls", limit: 4, inclusive: true, summary: "2,000 blended rounded rects batched")]
        case "groups":
            [SceneAim(figure: "offscreen_passes_after_first_frame", limit: 0, inclusive: true,
                      summary: "flattened groups cached: no offscreen pass after the first frame")]
        case "groups_live":
            [SceneAim(figure: "offscreen_passes_max", limit: 2, inclusive: true,
                      summary: "300 changing groups packed into at most 2 offscreen passes")]
        case "big":
            [SceneAim(figure: "median_render_thread_ms", limit: 4, inclusive: false,
                      summary: "render-thread CPU per frame with 1,000 of 100,000 layers animating"),
             SceneAim(figure: "idle_frames", limit: 0, inclusive: true, summary: "no frame rendered when nothing changes")]
        case "ui":
            [SceneAim(figure: "draw_calls", limit: 20, inclusive: true, summary: "a HUD of ~330 interleaved layers in tens of draw calls")]
        case "effects":
            [SceneAim(figure: "offscreen_passes_max", limit: 8, inclusive: true,
                      summary: "200 rounded shadows analytic (no pass); 20 blurs and 10 backdrops packed, one pass per step each")]
        case "replicated":
            [SceneAim(figure: "instances", limit: 3_072, inclusive: true, summary: "16 × 64 instances of a 3-layer subtree"),
             SceneAim(figure: "draw_calls", limit: 1, inclusive: true, summary: "3,072 replicated instances in one draw call")]
        case "particles":
            [SceneAim(figure: "draw_calls", limit: 6, inclusive: true, summary: "100,000 particles of three cells (one a sub-emitter), at most two draw calls per cell image"),
             SceneAim(figure: "median_particle_simulation_ms", limit: 3, inclusive: true, summary: "working out 100,000 particles on the render thread")]
        case "gradients":
            [SceneAim(figure: "draw_calls", limit: 4, inclusive: true, summary: "1,000 gradients of three kinds batched with other untextured draws")]
        default:
            []
        }
    }
}
