import LayerKit

/// 3D rendering contexts: what the builder does for a `CATransformLayer` (DESIGN.md §4, issue 5's 3D rule).
///
/// Input: a transform layer met while drawing its superlayer's sublayers, with the superlayer's sublayer
/// space → pixels (`parentSpace`) and → depth space (`depthSpace`: the superlayer's
/// `sublayerSpaceTransform`, whose perspective is what the viewer sees the context through).
/// Output: the draws of every plane of the context, appended in painter's order.
/// Members: the transform layer's sublayers, looked through nested transform layers, keep their full 4×4
/// placement in the context (nothing is flattened at a transform layer); each member is a plane and
/// flattens its own subtree into it, drawn by `visit` as any layer. Transform layers draw nothing and
/// ignore masks, group opacity and `masksToBounds`; their opacity multiplies into their members.
/// Order: what each member's draws cover is bounded by a rectangle of its plane, which becomes a
/// `DrawPolygon` in depth space; `PlaneSorter` orders the polygons (a plain depth sort when unambiguous, else a BSP tree
/// that splits intersecting planes). A whole plane appends its draws unchanged; a piece appends each
/// draw restricted to the piece (`DrawItem.restricted(to:)`), mapped into the draw's own layer space, with
/// the piece's outer edges grown so antialiased fringes survive (`PlanePieceRegion`).
/// A plane reaching behind the eye (w ≤ 0 at a corner) cannot be placed in depth space: such planes are
/// drawn first, in draw order. Statistics: the planes sorted and the cuts made (`FrameStatistics.planesSorted`,
/// `planesSplit`), over every context of the frame. Cost: O(members) plus the sorter's; pieces add
/// O(draws of the plane).
extension RenderGraphBuilder {
    /// A plane of a 3D rendering context before it is drawn.
    struct ContextMember {
        var node: RenderNode
        var localTime: Double
        /// The member's superlayer's sublayer space → the context root's sublayer space (unflattened).
        var parentToContext: CATransform3D
        var opacity: CGFloat
        var contentsFlipped: Bool
        /// The colour of the replicator instance the member belongs to (1 outside replicators).
        var colorMultiplier = SIMD4<Float>(repeating: 1)
    }

    func visitRenderingContext3D(_ transformLayer: RenderNode, localTime: Double, parentSpace: CATransform3D,
                                 depthSpace: CATransform3D, opacity: CGFloat, clip: Clip?, contentsFlipped: Bool,
                                 context: inout VisitContext, into items: inout [DrawItem]) {
        var members: [ContextMember] = []
        gatherMembers(of: transformLayer, localTime: localTime, toContext: Self.placement(of: transformLayer), opacity: opacity,
                      contentsFlipped: contentsFlipped, context: &context, into: &members)

        var planes: [(member: ContextMember, items: [DrawItem], toDepth: CATransform3D, toClip: PlaneHomography, rect: SIMD4<Double>)] = []
        var polygons: [DrawPolygon] = []
        for member in members {
            let memberParentSpace = CATransform3DConcat(member.parentToContext, parentSpace)
            var memberItems: [DrawItem] = []
            let resolvedByDepth = context.groupsResolveByDepth
            context.groupsResolveByDepth = false  // planes are sorted and split, not depth-tested
            visit(member.node, localTime: member.localTime, parentSpace: memberParentSpace, opacity: member.opacity, clip: clip,
                  contentsFlipped: member.contentsFlipped, context: &context, into: &memberItems)
            context.groupsResolveByDepth = resolvedByDepth
            guard !memberItems.isEmpty else { continue }
            if member.colorMultiplier != SIMD4(repeating: 1) {
                for index in memberItems.indices { memberItems[index].instance.color *= member.colorMultiplier }
            }
            let placement = Self.placement(of: member.node)
            let toClip = PlaneHomography(CATransform3DConcat(CATransform3DConcat(placement, memberParentSpace), pixelToClip))
            let toDepth = CATransform3DConcat(placement, CATransform3DConcat(member.parentToContext, depthSpace))
            guard let (polygon, rect) = Self.planePolygon(of: memberItems, toClip: toClip, toDepth: toDepth, order: planes.count) else {
                items.append(contentsOf: memberItems)  // behind the eye or degenerate: drawn first, unsorted
                continue
            }
            planes.append((member, memberItems, toDepth, toClip, rect))
            polygons.append(polygon)
        }

        let sorted = PlaneSorter.paintersOrder(polygons)
        context.planesSorted += polygons.count
        context.planesSplit += sorted.splitCount
        for polygon in sorted.polygons {
            let plane = planes[polygon.order]
            guard polygon.isSplit else {
                items.append(contentsOf: plane.items)
                continue
            }
            // Depth space → the member's layer space: the inverse of its plane map (x, y, 1) → (X, Y, W).
            guard let fromDepth = PlaneHomography(plane.toDepth).inverted() else { continue }
            let cut = polygon.points.map { p -> SIMD2<Double> in
                let h = fromDepth.apply(CGPoint(x: p.x, y: p.y))
                return SIMD2(h.x / h.z, h.y / h.z)
            }
            let piece = PlanePieceRegion.region(of: cut, planeRect: plane.rect, margin: max(plane.rect.z - plane.rect.x, plane.rect.w - plane.rect.y))
            for item in plane.items {
                guard let clipToItem = Self.clipHomography(of: item).inverted() else { continue }
                let memberToItem = plane.toClip.concatenating(clipToItem)
                let inItem = piece.map { p -> SIMD2<Double> in
                    let h = memberToItem.apply(CGPoint(x: p.x, y: p.y))
                    return SIMD2(h.x / h.z, h.y / h.z)
                }
                items.append(contentsOf: item.restricted(to: inItem))
            }
        }
    }

    /// Collects the planes under `layer` (a transform layer whose own space maps into the context root's
    /// sublayer space by `toContext`), looking through nested transform layers, back to front by
    /// `zPosition` then sublayer order (the draw order that breaks depth ties).
    private func gatherMembers(of layer: RenderNode, localTime: Double, toContext: CATransform3D, opacity inherited: CGFloat,
                               contentsFlipped: Bool, colorMultiplier: SIMD4<Float> = SIMD4(repeating: 1),
                               context: inout VisitContext, into members: inout [ContextMember]) {
        let opacity = inherited * min(max(layer.opacity, 0), 1)
        guard !layer.isHidden, opacity > 0 else { return }
        let flipped = contentsFlipped != layer.isGeometryFlipped
        let tree = context.tree
        // A depth-preserving replicator's instances are members each, at their transform, time and colour.
        let replicas = ReplicatorInstances(of: layer)
        if let replicas { context.replicatedInstances += max(replicas.instances.count - 1, 0) * layer.sublayers.count }
        for replica in replicas?.instances ?? [.original] {
            let sublayerToContext = CATransform3DConcat(CATransform3DConcat(replica.transform, Self.sublayerSpaceTransform(of: layer)), toContext)
            let tint = colorMultiplier * replica.colorMultiplier
            var children = presented(layer.sublayerNodes(in: tree), parentTime: localTime - replica.delay, context: &context)
                .map { ($0.presented, localTime: $0.time) }
            children = Self.backToFront(children)
            for (child, childTime) in children {
                if child.keepsSublayersIn3D {
                    gatherMembers(of: child, localTime: childTime, toContext: CATransform3DConcat(Self.placement(of: child), sublayerToContext),
                                  opacity: opacity, contentsFlipped: flipped, colorMultiplier: tint, context: &context, into: &members)
                } else {
                    members.append(ContextMember(node: child, localTime: childTime, parentToContext: sublayerToContext, opacity: opacity,
                                                 contentsFlipped: flipped, colorMultiplier: tint))
                }
            }
        }
    }

    /// The rectangle of the member's plane that holds what all its draws cover (each one's shape within
    /// its quad: an antialiasing fringe grown past the bounds is left out, so planes that meet at an edge,
    /// like a cube's faces, are not split by it), as a polygon in depth space and as a rect in the
    /// member's layer space (minX, minY, maxX, maxY); nil when a corner lies at or behind the eye or
    /// nothing is covered.
    private static func planePolygon(of items: [DrawItem], toClip: PlaneHomography, toDepth t: CATransform3D,
                                     order: Int) -> (DrawPolygon, SIMD4<Double>)? {
        guard let clipToMember = toClip.inverted() else { return nil }
        var low = SIMD2<Double>(repeating: .infinity), high = SIMD2<Double>(repeating: -.infinity)
        for item in items {
            let itemToMember = clipHomography(of: item).concatenating(clipToMember)
            let drawn = SIMD4<Double>(item.instance.drawnBounds), shape = SIMD4<Double>(item.instance.shape)
            let b = SIMD4(max(drawn.x, shape.x), max(drawn.y, shape.y), min(drawn.z, shape.z), min(drawn.w, shape.w))
            guard b.z > b.x, b.w > b.y else { continue }
            for corner in [CGPoint(x: b.x, y: b.y), CGPoint(x: b.z, y: b.y), CGPoint(x: b.z, y: b.w), CGPoint(x: b.x, y: b.w)] {
                let h = itemToMember.apply(corner)
                guard h.z > 1e-12 else { return nil }
                let p = SIMD2(h.x / h.z, h.y / h.z)
                low = pointwiseMin(low, p)
                high = pointwiseMax(high, p)
            }
        }
        guard high.x > low.x, high.y > low.y, low.x.isFinite, low.y.isFinite, high.x.isFinite, high.y.isFinite else { return nil }
        var points: [SIMD3<Double>] = []
        for (x, y) in [(low.x, low.y), (high.x, low.y), (high.x, high.y), (low.x, high.y)] {
            let (x, y) = (CGFloat(x), CGFloat(y))
            let w = Double(x * t.m14 + y * t.m24 + t.m44)
            guard w > 1e-9 else { return nil }
            points.append(SIMD3(Double(x * t.m11 + y * t.m21 + t.m41), Double(x * t.m12 + y * t.m22 + t.m42),
                                Double(x * t.m13 + y * t.m23 + t.m43)) / w)
        }
        return (DrawPolygon(points: points, order: order), SIMD4(low.x, low.y, high.x, high.y))
    }

    /// A draw's layer space → clip space as a plane map (x, y, 1) → (X, Y, W), from its `localToClip`.
    static func clipHomography(of item: DrawItem) -> PlaneHomography {
        let (c0, c1, _, c3) = item.instance.localToClip
        return PlaneHomography(r0: SIMD3(Double(c0.x), Double(c0.y), Double(c0.w)), r1: SIMD3(Double(c1.x), Double(c1.y), Double(c1.w)),
                               r2: SIMD3(Double(c3.x), Double(c3.y), Double(c3.w)))
    }
}
