// SPDX-License-Identifier: MIT
import Foundation
import Gestures
import Testing
import TouchCore
import Session
import TouchDaemon
import Trace
import Evdev
import LiveInput

/// Drives a ``LiveTouchSession`` against uinput devices in the `make test-vm` guest.
enum LiveHarness {
    /// A session reading only the devices under `syspaths` (other tests' devices come and go meanwhile).
    static func session(for syspaths: @escaping () -> [String], configuration: TouchdConfiguration = TouchdConfiguration())
        throws -> LiveTouchSession {
        try LiveTouchSession(configuration: configuration, accepts: { info in
            syspaths().contains { info.syspath.hasPrefix($0 + "/") }
        })
    }

    /// Pumps until `count` devices were added (udev can take a while in the guest).
    static func waitForDevices(_ session: LiveTouchSession, count: Int, into outputs: inout [LiveSessionOutput]) throws {
        for _ in 0..<150 {
            if outputs.filter({ if case .deviceAdded = $0 { true } else { false } }).count >= count { return }
            try session.runRound(maximumWaitMilliseconds: 200) { outputs.append($0) }
        }
        Issue.record("only \(outputs.count) outputs while waiting for \(count) devices")
    }

    /// Pumps until the engine has no deadline left and a pump brings nothing new.
    static func settle(_ session: LiveTouchSession, into outputs: inout [LiveSessionOutput]) throws {
        for _ in 0..<200 {
            let before = outputs.count
            try session.runRound(maximumWaitMilliseconds: 300) { outputs.append($0) }
            if session.engine.nextDeadline == nil && outputs.count == before { return }
        }
        Issue.record("the session did not settle")
    }

    /// Pumps the session until `time` (CLOCK_MONOTONIC): the replay's wait between frames.
    static func pump(_ session: LiveTouchSession, until time: Timestamp, into outputs: inout [LiveSessionOutput]) throws {
        // Read at least once between frames even when behind schedule: the writer
        // is this thread, and evdev drops events when a reader falls far behind.
        try session.runRound(maximumWaitMilliseconds: 0) { outputs.append($0) }
        while true {
            let now = LiveClock.now()
            guard now < time else { return }
            try session.runRound(maximumWaitMilliseconds: LiveClock.pollTimeout(until: time, now: now)) { outputs.append($0) }
        }
    }

    /// Replays `recording` into uinput devices with its original timing while a
    /// live session reads them; returns everything the session produced.
    static func liveOutputs(_ recording: Recording, configuration: TouchdConfiguration = TouchdConfiguration())
        throws -> (outputs: [LiveSessionOutput], received: Recording) {
        let replay = try UinputReplay(recording: recording)
        defer { replay.close() }
        let syspaths = replay.devices.compactMap(\.syspath)
        let session = try session(for: { syspaths }, configuration: configuration)
        // What the kernel delivered, with its timestamps, for an offline replay of exactly that input.
        var received = Recording(devices: [], events: [], format: .native)
        session.inputObserver = { event in
            switch event {
            case .deviceAdded(_, let description, _): received.devices.append(RecordedDevice(description: description))
            case .events(let id, let events): received.events += events.map { RecordedEvent(device: id, event: $0) }
            case .deviceChanged, .resynced, .deviceRemoved, .deviceIgnored, .openFailed, .woken: break
            }
        }
        var outputs: [LiveSessionOutput] = []
        try session.start { outputs.append($0) }
        try waitForDevices(session, count: replay.devices.count, into: &outputs)
        var failure: (any Error)?
        try replay.play(speed: 1, wait: { time in
            do { try pump(session, until: time, into: &outputs) } catch { failure = error }
        })
        if let failure { throw failure }
        try settle(session, into: &outputs)
        return (outputs, received)
    }

    /// What offline replay of the same recording produces.
    static func offlineOutputs(_ recording: Recording, configuration: TouchdConfiguration = TouchdConfiguration()) -> [ReplayOutput] {
        var out: [ReplayOutput] = []
        ReplaySession(recordings: [recording], configuration: configuration).run(recordsDebug: false) { out.append($0) }
        return out
    }
}

/// Touches and gestures without times, for comparing live and offline runs.
struct Comparable {
    var touches: [String] = []
    var gestures: [String] = []
    /// The time of each touch, in microseconds.
    var touchTimes: [Int64] = []

    /// How far (ms) the touches of `other` strayed from this run's schedule,
    /// both measured from their first touch; nil when the touches differ.
    func scheduleDeviation(of other: Comparable) -> Double? {
        guard touches == other.touches, let a0 = touchTimes.first, let b0 = other.touchTimes.first else { return nil }
        var worst: Int64 = 0
        for (a, b) in zip(touchTimes, other.touchTimes) { worst = max(worst, abs((a - a0) - (b - b0))) }
        return Double(worst) / 1000
    }

    init(_ outputs: [ReplayOutput]) {
        for o in outputs {
            switch o {
            case .touch(let t):
                let x = (t.location.x * 10).rounded() / 10, y = (t.location.y * 10).rounded() / 10
                touches.append("\(t.device)#\(t.id) \(t.phase) \(t.type) \(t.tool) (\(x), \(y))")
                touchTimes.append(t.time.microseconds)
            case .engine(.gesture(let g)):
                gestures.append("\(g.recognizer) \(g.kind.rawValue) \(g.state.rawValue) \(g.touches)")
            case .engine(.touch), .engine(.debug), .engine(.system), .engine(.mirror), .drag:
                break
            }
        }
    }

    /// The gestures without their `changed` updates: which gestures began,
    /// were recognized and ended, in order. Robust to the guest's timing
    /// jitter, which can shift how many updates fall between them.
    /// Swipes are left out: they depend on speed, which a stall of the guest's
    /// emulated CPU while writing can lower below the threshold.
    var gestureOutline: [String] { gestures.filter { !$0.contains(" changed ") && !$0.hasPrefix("swipe ") } }

    init(_ outputs: [LiveSessionOutput]) {
        self.init(outputs.compactMap(\.replayOutput))
    }
}
