// SPDX-License-Identifier: MIT
import Trace
import TouchCore

/// Runs events through a ``TouchPipeline``, keeping copies of every frame and
/// checking the invariants as it goes; ``finish()`` ends the input.
package struct TouchReplay: Sendable {
    /// The pipeline.
    package var pipeline: TouchPipeline
    /// Every frame produced, in order.
    package private(set) var frames: [TouchFrame] = []
    /// The invariant checker fed with every frame.
    package private(set) var checker = TouchInvariantChecker()

    /// Creates a replay over a pipeline with `screens`.
    package init(screens: [ScreenConfiguration] = [ScreenConfiguration()]) {
        pipeline = TouchPipeline(screens: screens)
    }

    /// Runs a whole recording (devices added with default mappings), then finishes it.
    package static func run(_ recording: Recording, mappings: [DeviceID: DeviceMapping] = [:]) -> TouchReplay {
        var r = TouchReplay()
        for (i, d) in recording.devices.enumerated() {
            let id = DeviceID(i)
            r.pipeline.addDevice(id, description: d.description, mapping: mappings[id] ?? DeviceMapping(), state: d.initialState)
        }
        for e in recording.events { r.feed(e.event, from: e.device) }
        r.finish()
        return r
    }

    /// Feeds one event.
    package mutating func feed(_ event: InputEvent, from device: DeviceID) {
        if let f = pipeline.process(event, from: device) { record(f) }
    }

    /// Feeds a script's events.
    package mutating func feed(_ script: EventScript, from device: DeviceID) {
        for e in script.events { feed(e, from: device) }
    }

    /// Records a frame produced outside ``feed(_:from:)`` (removal, resync).
    package mutating func record(_ frame: TouchFrame?) {
        guard let frame else { return }
        frames.append(frame)
        checker.check(frame)
    }

    /// Ends the input at the last frame's time (or zero) and checks nothing is left active.
    package mutating func finish(at time: Timestamp? = nil) {
        for f in pipeline.finish(at: time ?? frames.last?.time ?? .zero) { record(f) }
        checker.checkAllEnded()
    }

    /// All touches of all frames, in order.
    package var touches: [Touch] { frames.flatMap(\.touches) }

    /// Touches with `phase`.
    package func touches(_ phase: TouchPhase) -> [Touch] { touches.filter { $0.phase == phase } }

    /// Largest number of contacts active at once.
    package var maxConcurrentContacts: Int {
        var active: Set<TouchID> = [], best = 0
        for t in touches {
            switch t.phase {
            case .began: active.insert(t.id)
            case .ended, .cancelled: active.remove(t.id)
            case .moved, .hover: break
            }
            best = max(best, active.count)
        }
        return best
    }
}
