// SPDX-License-Identifier: MIT
import TouchCore

/// Changing surfaces and recognizers at runtime. Recognizers whose declaration is
/// unchanged keep their state; removed or redeclared ones are cancelled first.
extension Engine {
    /// Replaces the whole configuration; returns what that caused (recognizers cancelled...).
    @discardableResult
    package mutating func setConfiguration(_ configuration: GestureConfiguration) -> [EngineOutput] {
        self.configuration = configuration
        return reconfigure()
    }

    /// Replaces the screens (their pixel sizes and densities), keeping every
    /// recognizer's state: recognizers measuring in millimetres on the screen
    /// (edge zones) take the new density when idle, or when their current
    /// touch sequence ends. Returns what that caused (nothing when the
    /// screens are unchanged).
    @discardableResult
    package mutating func setScreens(_ screens: [ScreenGeometry]) -> [EngineOutput] {
        guard screens != configuration.screens else { return [] }
        configuration.screens = screens
        return reconfigure()
    }

    /// Replaces every surface (system recognizers and screens stay); returns what that caused.
    @discardableResult
    package mutating func setSurfaces(_ surfaces: [SurfaceConfiguration]) -> [EngineOutput] {
        configuration.surfaces = surfaces
        return reconfigure()
    }

    /// Adds a surface, or replaces the one with the same id; returns what that caused.
    @discardableResult
    package mutating func upsertSurface(_ surface: SurfaceConfiguration) -> [EngineOutput] {
        if let i = configuration.surfaces.firstIndex(where: { $0.id == surface.id }) {
            configuration.surfaces[i] = surface
        } else {
            configuration.surfaces.append(surface)
        }
        return reconfigure(answering: surface.id)
    }

    /// Removes a surface (its children become roots); returns what that caused (empty when there is no such surface).
    @discardableResult
    package mutating func removeSurface(_ id: SurfaceID) -> [EngineOutput] {
        guard let i = configuration.surfaces.firstIndex(where: { $0.id == id }) else { return [] }
        configuration.surfaces.remove(at: i)
        return reconfigure()
    }

    /// Enables or disables a recognizer (`surface` nil for a system recognizer). Disabling an active
    /// recognizer cancels it; re-enabling makes it ready for the next touch sequence (semantics section 3).
    /// Returns what that caused, or nil when there is no such recognizer.
    @discardableResult
    package mutating func setRecognizerEnabled(_ enabled: Bool, name: String, surface: SurfaceID?) -> [EngineOutput]? {
        if let surface {
            guard let si = configuration.surfaces.firstIndex(where: { $0.id == surface }),
                  let ri = configuration.surfaces[si].recognizers.firstIndex(where: { $0.name == name }) else { return nil }
            configuration.surfaces[si].recognizers[ri].enabled = enabled
        } else {
            guard let ri = configuration.systemRecognizers.firstIndex(where: { $0.name == name }) else { return nil }
            configuration.systemRecognizers[ri].enabled = enabled
        }
        return reconfigure()
    }

    /// Quiets the system for a locked session, or lets it act again (semantics section 13):
    /// while quiet, shortcuts and edge swipes not marked `whenLocked` are disabled (those engaged
    /// are cancelled), so they neither claim touches nor fire. Returns what that caused.
    @discardableResult
    package mutating func setSessionQuiet(_ quiet: Bool) -> [EngineOutput] {
        guard quiet != sessionQuiet else { return [] }
        sessionQuiet = quiet
        return reconfigure()
    }

    mutating func reconfigure(answering asker: SurfaceID? = nil) -> [EngineOutput] {
        var buffer: [EngineOutput] = []
        swap(&out, &buffer)
        let before = deferrals
        rebuild()
        publishDeferrals(changedFrom: before, answering: asker)
        settle()
        nextDeadline = earliestDeadline()
        swap(&out, &buffer)
        return buffer
    }

    /// Rebuilds slots, the surface index, chains, ranks and relations from `configuration`.
    mutating func rebuild() {
        struct Wanted {
            var config: RecognizerConfiguration; var owner: String; var surface: SurfaceID?; var context: RecognizerContext
            var screen: Int? = nil
        }
        func key(_ owner: String, _ surface: SurfaceID?, _ name: String) -> String {
            owner + "\u{1}" + (surface?.rawValue ?? "") + "\u{1}" + name
        }
        func density(_ screen: Int) -> Double {
            if screen >= 0 && screen < configuration.screens.count, let d = configuration.screens[screen].pixelsPerMillimetre { return d }
            return ScreenGeometry.fallbackPixelsPerMillimetre
        }
        var wanted: [String: Wanted] = [:]
        var wantedOrder: [String] = []
        for s in configuration.surfaces {
            let ctx = RecognizerContext(surfaceFrame: s.frame, pixelsPerMillimetre: density(s.screen))
            for r in s.recognizers {
                let k = key(s.owner, s.id, r.name)
                if wanted[k] == nil { wantedOrder.append(k) }
                wanted[k] = Wanted(config: r, owner: s.owner, surface: s.id, context: ctx)
            }
        }
        for r in configuration.systemRecognizers {
            let screen = configuration.screens.first
            let frame = ScreenRect(x: 0, y: 0, width: Double(screen?.width ?? 0), height: Double(screen?.height ?? 0))
            let k = key("system", nil, r.name)
            if wanted[k] == nil { wantedOrder.append(k) }
            wanted[k] = Wanted(config: r, owner: "system", surface: nil,
                               context: RecognizerContext(surfaceFrame: frame, pixelsPerMillimetre: density(0)))
        }
        systemByScreen = [:]
        for entry in configuration.systemGestures where entry.screen < configuration.screens.count {
            systemByScreen[entry.screen] = entry
            // Edge zones start at the insets' inner edge (semantics §11).
            let frame = configuration.screens[entry.screen].safeArea
            let context = RecognizerContext(surfaceFrame: frame, pixelsPerMillimetre: density(entry.screen))
            for edge in SurfaceEdge.allCases where entry.edges.contains(edge) {
                var config = Self.edgeSwipeRecognizer(edge, of: entry)
                if sessionQuiet && !entry.whenLocked.contains(edge) { config.enabled = false }
                if !entry.condition.holds(for: focus) { config.enabled = false }
                let k = key("system", nil, config.name)
                if wanted[k] == nil { wantedOrder.append(k) }
                wanted[k] = Wanted(config: config, owner: "system", surface: nil, context: context, screen: entry.screen)
            }
        }
        for shortcut in configuration.shortcuts where shortcut.screen < configuration.screens.count {
            let screen = configuration.screens[shortcut.screen]
            let frame = ScreenRect(x: 0, y: 0, width: Double(screen.width), height: Double(screen.height))
            let k = key("system", nil, shortcut.name)
            if wanted[k] == nil { wantedOrder.append(k) }
            var config = shortcut.recognizer
            if sessionQuiet && !shortcut.whenLocked { config.enabled = false }
            if !shortcut.condition.holds(for: focus) { config.enabled = false }
            wanted[k] = Wanted(config: config, owner: "system", surface: nil,
                               context: RecognizerContext(surfaceFrame: frame, pixelsPerMillimetre: density(shortcut.screen)),
                               screen: shortcut.screen)
        }

        // Keep, update or retire existing slots.
        var existing: [String: Int] = [:]
        for i in slots.indices where slots[i].live {
            let k = key(slots[i].owner, slots[i].surface, slots[i].config.name)
            guard let w = wanted[k] else {
                retire(i, reason: .removed)
                continue
            }
            var sameDeclaration = w.config
            sameDeclaration.enabled = slots[i].config.enabled
            if sameDeclaration != slots[i].config {
                retire(i, reason: .redeclared)
                continue
            }
            if !w.config.enabled && slots[i].config.enabled && arena.isEngaged(ArenaMember(rawValue: i)) {
                cancel(i, reason: .disabled)
            }
            slots[i].config = w.config
            // Machines keep their context (edge zones); an idle one starts over with
            // the new one, an engaged one takes it when it is reset.
            if slots[i].context != w.context && !arena.isEngaged(ArenaMember(rawValue: i)) {
                slots[i].machine = RecognizerMachine(w.config.kind, context: w.context)
            }
            slots[i].context = w.context
            slots[i].screen = w.screen
            existing[k] = i
        }
        for k in wantedOrder where existing[k] == nil {
            let w = wanted[k]!
            var slot = RecognizerSlot(config: w.config, owner: w.owner, surface: w.surface, context: w.context)
            slot.screen = w.screen
            let i: Int
            if let free = freeSlots.popLast() { slots[free] = slot; i = free } else { slots.append(slot); i = slots.count - 1 }
            arena.admit(ArenaMember(rawValue: i))
            existing[k] = i
        }

        index = SurfaceIndex(surfaces: configuration.surfaces)
        systemSlots = []
        for i in slots.indices where slots[i].live {
            if let sid = slots[i].surface, let e = index.byID[sid] {
                slots[i].depth = index.entries[e].depth
                if slots[i].isHover { index.entries[e].ownHoverSlots.append(i) } else { index.entries[e].ownSlots.append(i) }
            } else {
                slots[i].depth = Int.max
                if !slots[i].isHover { systemSlots.append(i) }
            }
        }

        // Canonical order: system first, then deeper surfaces, then owner, surface, name.
        let live = slots.indices.filter { slots[$0].live }.sorted { a, b in
            let x = slots[a], y = slots[b]
            if x.depth != y.depth { return x.depth > y.depth }
            if x.owner != y.owner { return x.owner < y.owner }
            if x.surface != y.surface { return (x.surface?.rawValue ?? "") < (y.surface?.rawValue ?? "") }
            return x.config.name < y.config.name
        }
        ranks = Array(repeating: Int.max, count: slots.count)
        for (r, i) in live.enumerated() { slots[i].rank = r; ranks[i] = r }
        arena.setCanonicalOrder(live.map { ArenaMember(rawValue: $0) })
        following = slots.map { $0.live && $0.core.followsMoves }
        systemSlots.sort { ranks[$0] < ranks[$1] }

        for e in index.entries.indices {
            var chain: [Int] = []
            var hover: [Int] = []
            for a in index.lineage(of: e) {
                chain += index.entries[a].ownSlots
                hover += index.entries[a].ownHoverSlots
            }
            chain += systemSlots
            let rank = ranks
            chain.sort { rank[$0] < rank[$1] }
            hover.sort { rank[$0] < rank[$1] }
            index.entries[e].chain = chain
            index.entries[e].hoverChain = hover
        }

        resolveRelations()
        evaluateDeferrals()

        // Raw streams of touches whose surface went away end as cancelled.
        for i in records.order {
            guard let sid = records.items[i].surface, index.byID[sid] == nil, !records.items[i].cancelRequested else { continue }
            records.items[i].cancelRequested = true
            records.markPending(i)
        }
    }

    /// Declares every live recognizer to the arena: relation names resolved to members (same
    /// owner, preferring the same surface), then what its kind and owner imply.
    mutating func resolveRelations() {
        var byName: [String: [Int]] = [:]
        for i in slots.indices where slots[i].live { byName[slots[i].owner + "\u{1}" + slots[i].config.name, default: []].append(i) }
        func resolve(_ names: [String], for i: Int) -> [ArenaMember] {
            var out: [Int] = []
            for n in names {
                let candidates = byName[slots[i].owner + "\u{1}" + n] ?? []
                let sameSurface = candidates.filter { slots[$0].surface == slots[i].surface }
                out += sameSurface.isEmpty ? candidates : sameSurface
            }
            return out.filter { $0 != i }.map { ArenaMember(rawValue: $0) }
        }
        // Semantics sections 6 and 10: the system's claiming recognizers (edge swipes, shortcuts)
        // are excluded only by each other, never by an app's recognizer.
        let systemClaimants = systemSlots.filter { slots[$0].claimsTouchesOnBegin }
        for i in slots.indices where slots[i].live {
            let c = slots[i].config
            var d = ArenaDeclaration()
            d.shouldBegin = c.shouldBegin
            d.claimsTouchesOnBegin = slots[i].claimsTouchesOnBegin
            d.requiresFailureOf = resolve(c.requiresFailureOf, for: i)
            switch c.simultaneousWith {
            case .all: d.simultaneousWithAll = true
            case .names(let n): d.simultaneousWith = resolve(n, for: i)
            }
            switch c.canPrevent {
            case .all: d.preventsAll = true
            case .names(let n): d.preventsAll = false; d.prevents = resolve(n, for: i)
            }
            switch c.canBePreventedBy {
            case .all: d.preventableByAll = true
            case .names(let n): d.preventableByAll = false; d.preventableBy = resolve(n, for: i)
            }
            // Waits the kind table and the system imply (semantics sections 6 and 7). A long press
            // of a regular (not compact) surface follows a drag simultaneously instead (§12.8): it
            // begins at its own time, and the drag, beginning later, still claims the touch.
            let waitsForKinds = slots[i].kind.waitsForKinds
            let regular = slots[i].surface.map { !compactSurfaces.contains($0) } ?? false
            for j in slots.indices where j != i && slots[j].live {
                if waitsForKinds.contains(slots[j].kind) && regular && slots[j].kind == .drag {
                    d.simultaneousWith.append(ArenaMember(rawValue: j))
                } else if waitsForKinds.contains(slots[j].kind) || (slots[i].waitsForSystemEdges && slots[j].systemEdge != nil) {
                    d.waitsFor.append(ArenaMember(rawValue: j))
                }
            }
            if slots[i].isSystemOwned && slots[i].claimsTouchesOnBegin {
                // Semantics sections 6 and 10: app recognizers never exclude a system edge swipe or a
                // shortcut (they may follow its touches until it begins, then it cancels them); the
                // system's own exclude each other (the edge swipes of a corner, a shortcut and an edge).
                d.preventableByAll = false
                d.preventableBy = systemClaimants.filter { $0 != i }.map { ArenaMember(rawValue: $0) }
            }
            arena.declare(ArenaMember(rawValue: i), d)
        }
    }

    /// Takes a slot out of service, cancelling it first when it is engaged.
    mutating func retire(_ i: Int, reason: ArenaCancelReason) {
        arena.retire(ArenaMember(rawValue: i), reason: reason)
        carryOutArenaActions()
        // Its index may go to another recognizer: the touches it claimed stay claimed, by nobody.
        for r in records.order where records.items[r].claimant == i { records.items[r].claimant = nil }
        slots[i].live = false
        following[i] = false
        freeSlots.append(i)
    }
}
