// SPDX-License-Identifier: MIT
import TouchCore

/// One surface as hit testing sees it.
struct SurfaceEntry: Sendable {
    var config: SurfaceConfiguration
    var parent: Int?
    var depth: Int
    /// The frame clipped to every ancestor's (a child only gets touches inside its parents).
    var hitRect: ScreenRect
    /// Its own contact recognizers (slot indices).
    var ownSlots: [Int] = []
    /// Its own hover recognizers.
    var ownHoverSlots: [Int] = []
    /// Contact recognizers in play for a touch that hits it: its own, its ancestors', the system's; in canonical order.
    var chain: [Int] = []
    /// Hover recognizers of it and its ancestors, in canonical order.
    var hoverChain: [Int] = []
    /// Touches currently open in its raw stream (for `multipleTouch = false`).
    var rawTouches = 0
}

/// Surfaces indexed for hit testing (semantics section 2.1): per screen, the hittable
/// surfaces in hit-test order (topmost first, children before parents), computed once per
/// configuration change. A hit test scans surfaces, never recognizers; a touch then meets
/// only the recognizers of the surface's chain.
struct SurfaceIndex: Sendable {
    var entries: [SurfaceEntry] = []
    var byID: [SurfaceID: Int] = [:]
    /// Per screen: entry indices in hit-test order; hidden and disabled subtrees left out.
    var hitOrder: [[Int]] = []

    init() {}

    /// Builds the index; the surfaces must have been validated (known parents, no cycles).
    init(surfaces: [SurfaceConfiguration]) {
        for s in surfaces {
            byID[s.id] = entries.count
            entries.append(SurfaceEntry(config: s, parent: nil, depth: 0, hitRect: s.frame))
        }
        for i in entries.indices { entries[i].parent = entries[i].config.parent.flatMap { byID[$0] } }
        var children = Array(repeating: [Int](), count: entries.count)
        var roots: [Int] = []
        for i in entries.indices {
            if let p = entries[i].parent { children[p].append(i) } else { roots.append(i) }
        }
        func stacking(_ a: Int, _ b: Int) -> Bool {
            let x = entries[a].config, y = entries[b].config
            return x.z != y.z ? x.z > y.z : x.id < y.id
        }
        for i in children.indices { children[i].sort(by: stacking) }
        roots.sort(by: stacking)
        let screens = (entries.map(\.config.screen).max() ?? -1) + 1
        hitOrder = Array(repeating: [], count: screens)
        func visit(_ i: Int, depth: Int, clip: ScreenRect?, screen: Int) {
            entries[i].depth = depth
            let rect = clip.map { entries[i].config.frame.intersection($0) } ?? entries[i].config.frame
            entries[i].hitRect = rect
            let c = entries[i].config
            guard !c.hidden && c.enabled else { return }
            for child in children[i] { visit(child, depth: depth + 1, clip: rect, screen: screen) }
            hitOrder[screen].append(i)
        }
        for r in roots { visit(r, depth: 0, clip: nil, screen: entries[r].config.screen) }
        // Depth of surfaces under hidden parents is still wanted for ranking.
        for i in entries.indices {
            var d = 0, cursor = entries[i].parent
            while let p = cursor { d += 1; cursor = entries[p].parent }
            entries[i].depth = d
        }
    }

    /// The topmost, deepest visible and enabled surface at `p` on `screen`.
    func hit(_ p: Point, screen: Int) -> Int? {
        guard screen >= 0 && screen < hitOrder.count else { return nil }
        for i in hitOrder[screen] where entries[i].hitRect.contains(p) { return i }
        return nil
    }

    /// The surface and its ancestors, nearest first.
    func lineage(of i: Int) -> [Int] {
        var out = [i]
        var cursor = entries[i].parent
        while let p = cursor { out.append(p); cursor = entries[p].parent }
        return out
    }
}
