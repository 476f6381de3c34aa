// SPDX-License-Identifier: MIT
import TouchCore

/// System edge gestures and their deferral (semantics section 6). The edge swipes are
/// recognizers owned by `system`, in every chain, taking touches that begin in their edge
/// zone. The arena gives them their place through what they declare (EngineConfiguration.swift:
/// app pans, swipes, edge pans and drags wait for them; they claim their touches when they
/// begin); this file decides, per touch, whether a surface's deferral applies (then the edge
/// swipe only watches), shows the hint, and tells surfaces what the policy granted. Behaviour and defaults: docs/system-gestures.md.
extension Engine {
    /// The recognizer of one edge of a screen's system gestures: `edge-bottom` on screen 0,
    /// `edge-bottom-1` on screen 1... It delays raw `began` (the app's raw stream sees the touch
    /// only once it fails) and cancels the touch everywhere when it begins. Touchpads' touches
    /// only when the entry says `touchpads`.
    static func edgeSwipeRecognizer(_ edge: SurfaceEdge, of entry: SystemGestureConfiguration) -> RecognizerConfiguration {
        RecognizerConfiguration(
            name: entry.screen == 0 ? "edge-\(edge.rawValue)" : "edge-\(edge.rawValue)-\(entry.screen)",
            kind: .edgeSwipe(EdgeSwipeParameters(
                edge: edge, purpose: entry.purpose(of: edge), edgeZone: entry.edgeZone, minTravel: entry.minTravel,
                maxAngle: entry.maxAngle, timeLimit: entry.timeLimit)),
            allowedTouchTypes: entry.touchpads ? Set(TouchType.allCases) : [.direct, .stylus],
            cancelsTouchesInView: true, delaysTouchesBegan: true, delaysTouchesEnded: true)
    }

    /// Replaces the system gestures (edges, thresholds, purposes, deferral policy); returns what that
    /// caused, including a ``SystemEvent/Kind/deferral(_:)`` for every surface whose grant changed.
    @discardableResult
    package mutating func setSystemGestures(_ entries: [SystemGestureConfiguration]) -> [EngineOutput] {
        configuration.systemGestures = entries
        return reconfigure()
    }

    /// How the policy answers a surface's current deferral request; nil when it requests nothing.
    package func deferral(of surface: SurfaceID) -> DeferralDecision? { deferrals[surface] }

    // MARK: Deferral requests

    /// Whether the policy of `screen` lets `surface` defer `edge`.
    func grants(_ edge: SurfaceEdge, to surface: SurfaceConfiguration, screen: Int) -> Bool {
        grants(edge, fullScreen: surface.fullScreen, screen: screen)
    }

    /// Whether the policy of `screen` lets a surface or app, full-screen or not, defer `edge`.
    func grants(_ edge: SurfaceEdge, fullScreen: Bool, screen: Int) -> Bool {
        let policy = systemByScreen[screen]?.policy(of: edge) ?? .allow
        switch policy {
        case .allow: return true
        case .refuse: return false
        case .onlyFullScreen: return fullScreen
        }
    }

    /// Evaluates every surface's request against the policy (after each configuration change).
    mutating func evaluateDeferrals() {
        deferrals.removeAll(keepingCapacity: true)
        for s in configuration.surfaces where !s.deferEdges.isEmpty {
            let requested = SurfaceEdge.allCases.filter { s.deferEdges.contains($0) }
            deferrals[s.id] = DeferralDecision(
                surface: s.id, owner: s.owner, requested: requested,
                granted: requested.filter { grants($0, to: s, screen: s.screen) })
        }
    }

    /// Tells surfaces what changed since `before` (a withdrawn request is answered with empty lists);
    /// `asker`, a surface just added or updated, is answered even when nothing changed.
    mutating func publishDeferrals(changedFrom before: [SurfaceID: DeferralDecision], answering asker: SurfaceID?) {
        let ids = Set(before.keys).union(deferrals.keys).sorted()
        for id in ids {
            if let now = deferrals[id] {
                if before[id] != now || id == asker { out.append(.system(SystemEvent(time: self.now, kind: .deferral(now)))) }
            } else if before[id] != nil, let surface = configuration.surfaces.first(where: { $0.id == id }) {
                out.append(.system(SystemEvent(time: now, kind: .deferral(
                    DeferralDecision(surface: id, owner: surface.owner, requested: [], granted: [])))))
            }
        }
    }

    // MARK: Touches in an edge zone

    /// The surface whose preference counts for a touch at `p`: the topmost one under it with a
    /// preference, then the child it delegates to (and so on); nil when none has a preference.
    func deferralDecider(at p: Point, screen: Int) -> SurfaceConfiguration? {
        guard screen >= 0 && screen < index.hitOrder.count else { return nil }
        for i in index.hitOrder[screen] where index.entries[i].hitRect.contains(p) && index.entries[i].config.hasDeferralPreference {
            var decider = index.entries[i].config
            var hops = 0
            while let child = decider.delegateDeferralTo, let c = index.byID[child], hops < index.entries.count {
                decider = index.entries[c].config
                hops += 1
            }
            return decider
        }
        return nil
    }

    /// Key of a screen edge in ``edgeWindows``.
    func edgeKey(_ edge: SurfaceEdge, screen: Int) -> Int {
        let e: Int
        switch edge {
        case .left: e = 0
        case .right: e = 1
        case .top: e = 2
        case .bottom: e = 3
        }
        return screen * 4 + e
    }

    /// The slot of a multi-finger gesture that keeps system edge swipe `s` from beginning (semantics
    /// §6): a recognizer in play (possible, began or changed; delivered or withheld) with two or
    /// more touches down, one of them another touch of the same device that has moved on its own,
    /// ``EdgeSwipeParameters/directionDistance`` screen millimetres from where it came down (the
    /// edge swipe's own measure, so a touchpad's fingers count as far as they move on the screen).
    /// The leading finger of a two-finger scroll whose trailing finger lands in an edge zone; not a
    /// finger resting on the screen, which the app's pan follows only because the swiping finger
    /// moves the centroid. Nil when there is none.
    func multiFingerGesture(beside s: Int) -> Int? {
        guard let own = slots[s].core.touches.first else { return nil }
        let reach = EdgeSwipeParameters.directionDistance * slots[s].context.pixelsPerMillimetre
        for m in arena.engaged {
            let o = m.rawValue
            guard o != s, slots[o].live, slots[o].systemEdge == nil, slots[o].core.downCount >= 2 else { continue }
            switch slots[o].core.state {
            case .possible, .began, .changed: break
            case .recognized, .ended, .cancelled, .failed: continue
            }
            for t in slots[o].core.touches where t.isDown && t.key != own.key && t.device == own.device
                && (t.locationPX - t.startPX).length >= reach {
                return o
            }
        }
        return nil
    }

    /// A system edge swipe took its first touch: decides whether it arbitrates (the default, a
    /// refused deferral, or a second swipe within the window) or only watches for the hint.
    ///
    /// A surface registered on touchd with a preference under the touch decides; where none has
    /// one, the focused app's `appRules` do (deferral for apps that know nothing of touchd).
    mutating func chooseSystemRole(_ s: Int, for touch: Touch, interaction: Int) {
        guard let edge = slots[s].systemEdge, let screen = slots[s].screen else { return }
        let deciderID: SurfaceID
        let granted: Bool
        if let decider = deferralDecider(at: touch.location, screen: touch.screen) {
            guard decider.deferEdges.contains(edge) else { return }
            deciderID = decider.id
            granted = grants(edge, to: decider, screen: screen)
        } else if let focus, appDeferredEdges.contains(edge) {
            // Named after the app, so the explanation (touchctl replay --explain) says whose rule deferred it.
            deciderID = SurfaceID("app:" + focus.appID)
            granted = grants(edge, fullScreen: focus.fullScreen, screen: screen)
        } else {
            return
        }
        let outcome: EdgeDeferralOutcome
        if !granted {
            outcome = .refused
        } else if let end = edgeWindows[edgeKey(edge, screen: screen)], now <= end {
            outcome = .secondSwipe
            slots[s].secondSwipe = true
        } else {
            outcome = .deferred
            slots[s].deferredBy = deciderID
            arena.watch(ArenaMember(rawValue: s))
        }
        debug(.edgeDeferral(edge: edge, surface: deciderID, outcome: outcome), slot: s, touch: touch.id, interaction: interaction)
    }

    /// A deferred edge swipe would have begun: instead, the shell is told to show the hint and the
    /// window for the second swipe opens (the arena then fails it for this interaction).
    mutating func showHint(_ s: Int) {
        guard let edge = slots[s].systemEdge, let screen = slots[s].screen else { return }
        let window = systemByScreen[screen]?.deferralWindow ?? SystemGestureConfiguration().deferralWindow
        let end = now.adding(milliseconds: window)
        edgeWindows[edgeKey(edge, screen: screen)] = end
        debug(.edgeHint(edge: edge, windowEnd: end), slot: s)
        out.append(.system(SystemEvent(time: now, kind: .edgeHint(edge: edge, screen: screen, windowEnd: end))))
    }
}
