// SPDX-License-Identifier: MIT
import TouchCore

/// Hit testing for drag sessions (semantics §12): the drop target under a
/// session's touch is found the way a touch's surface is (z, nesting, hidden
/// and disabled surfaces, section 2.1), across every owner's surfaces.
extension Engine {
    /// The screen of a surface the engine knows.
    package func screen(ofSurface id: SurfaceID) -> Int? {
        index.byID[id].map { index.entries[$0].config.screen }
    }

    /// The first surface, from the one a touch at `point` would hit up
    /// through its ancestors, that `accepts`; nil when none does.
    package func firstSurface(
        at point: Point, screen: Int, where accepts: (SurfaceID) -> Bool
    ) -> (surface: SurfaceID, owner: String)? {
        var cursor = index.hit(point, screen: screen)
        while let i = cursor {
            let c = index.entries[i].config
            if accepts(c.id) { return (c.id, c.owner) }
            cursor = index.entries[i].parent
        }
        return nil
    }
}
