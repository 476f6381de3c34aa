// SPDX-License-Identifier: MIT
import EngineMessages
import Foundation
import Gestures
import Logging
import Publisher
import Synchronization
import Testing
import TouchCore
import Trace
import Wire
import Session
@testable import TouchDaemon

/// The daemon's engine owner, fed a real recording in process, compared with
/// offline replay (`touchctl replay`) of the same file.
@Suite struct TouchSessionActorTests {
    /// Gesture lines from the offline replay.
    static func offlineGestures(_ recording: Recording) -> [String] {
        var lines: [String] = []
        ReplaySession(recordings: [recording]).run(recordsDebug: false) { out in
            guard case .engine(.gesture(let g)) = out else { return }
            var w = JSONWriter()
            MessageEncoder.gesture(g, into: &w)
            lines.append(w.string)
        }
        return lines
    }

    /// Gesture lines the daemon publishes when the recording's devices are
    /// added one by one and their events fed in time order.
    static func daemonGestures(_ recording: Recording) async throws -> [String] {
        let collected = Mutex<[String]>([])
        let engine = try TouchSessionActor(configuration: TouchdConfiguration(), board: HelloBoard(),
                                  logger: Logger(label: "test"), recordsDebug: false)
        await engine.attach { batch in
            collected.withLock { lines in
                for e in batch.eventsWithLines where e.stream == .gesture { lines.append(String(decoding: e.line, as: UTF8.self)) }
            }
        }
        let start = recording.events.first?.event.time ?? .zero
        for (i, d) in recording.devices.enumerated() {
            await engine.addDevice(DeviceID(rawValue: UInt32(i)), description: d.description, at: start)
        }
        for e in recording.events {
            await engine.handle([e.event], from: e.device)
        }
        let end = recording.events.last?.event.time ?? .zero
        await engine.finishTouches(at: end)
        while let deadline = await engine.nextDeadline { await engine.advance(to: deadline) }
        return collected.withLock { $0 }
    }

    // A protocol A touchscreen with a resolution: the screen's physical size
    // comes from the device, so millimetre thresholds (pan hysteresis) must
    // be the same in the daemon as offline.
    @Test(arguments: [
        "touchscreens/N-Trig MultiTouch.1-finger-drag-NW-SE.events",
        "touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events",
    ])
    func publishesWhatOfflineReplayGives(_ file: String) async throws {
        let recording = try RealFixtures.recording(file)
        let offline = Self.offlineGestures(recording)
        #expect(offline.count > 10)
        let daemon = try await Self.daemonGestures(recording)
        #expect(daemon == offline)
    }

    @Test func screenSizeFollowsTheTouchscreenInService() async throws {
        let recording = try RealFixtures.recording("touchscreens/N-Trig MultiTouch.1-finger-drag-NW-SE.events")
        let engine = try TouchSessionActor(configuration: TouchdConfiguration(), board: HelloBoard(), logger: Logger(label: "test"))
        #expect(await engine.engine.configuration.screens.first?.pixelsPerMillimetre == nil)
        await engine.addDevice(DeviceID(rawValue: 0), description: try #require(recording.devices.first).description, at: .zero)
        let density = try #require(await engine.engine.configuration.screens.first?.pixelsPerMillimetre)
        let screen = try #require(TouchdConfiguration().screens.first)
        let info = try #require(await engine.pipeline.devices.first)
        #expect(abs(density - Double(screen.width) / info.geometry.width) < 1e-9)
        await engine.removeDevice(DeviceID(rawValue: 0), at: .zero)
        #expect(await engine.engine.configuration.screens.first?.pixelsPerMillimetre == nil)
    }

    @Test func udevChangeOfTheMappingCancelsTouchesAndAnnouncesTheDevice() async throws {
        let recording = try RealFixtures.recording("touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events")
        let published = Mutex<[PublishedEvent]>([])
        let engine = try TouchSessionActor(configuration: TouchdConfiguration(), board: HelloBoard(), logger: Logger(label: "test"))
        await engine.attach { batch in published.withLock { $0 += batch.eventsWithLines } }
        let id = DeviceID(rawValue: 0)
        await engine.addDevice(id, description: try #require(recording.devices.first).description, at: .zero)
        for e in recording.events.prefix(200) { await engine.handle([e.event], from: e.device) }
        let down = await engine.pipeline.activeTouchCount
        #expect(down > 0)
        published.withLock { $0.removeAll() }

        let time = try #require(recording.events.prefix(200).last).event.time
        await engine.changeDevice(id, at: time, udevProperties: ["TOUCHD_SIZE_MM": "150x100"],
                                  settings: DeviceSettings(mapping: DeviceMapping(sizeMM: SizeMM(width: 150, height: 100))))
        let lines = published.withLock { $0 }.map { ($0.stream, String(decoding: $0.line, as: UTF8.self)) }
        let cancelled = lines.filter { $0.0 == .touch && $0.1.contains(#""phase":"cancelled""#) }
        #expect(cancelled.count == down)
        let device = try #require(lines.last)
        #expect(device.0 == .device)
        #expect(device.1.contains(#""change":"changed""#) && device.1.contains(#""size":{"width":150,"height":100,"source":"override"}"#))
        #expect(await engine.pipeline.activeTouchCount == 0)
        #expect(await engine.pipeline.device(id)?.geometry.width == 150)

        // Properties alone (same mapping): announced, nothing cancelled.
        published.withLock { $0.removeAll() }
        await engine.changeDevice(id, at: time, udevProperties: [:], settings: DeviceSettings(mapping: DeviceMapping(sizeMM: SizeMM(width: 150, height: 100))))
        #expect(published.withLock { $0 }.map(\.stream) == [.device])
    }

    // Streams no client subscribes to are not encoded; what is encoded is the
    // same as when every stream is wanted.
    @Test func streamsNobodyWantsAreNotEncoded() async throws {
        let recording = try RealFixtures.recording("touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events")
        func publish(wanting wanted: Set<EventStream>) async throws -> [PublishedEvent] {
            let published = Mutex<[PublishedEvent]>([])
            let engine = try TouchSessionActor(configuration: TouchdConfiguration(), board: HelloBoard(), logger: Logger(label: "test"))
            await engine.attach({ batch in published.withLock { $0 += batch.eventsWithLines } }, wants: { wanted.contains($0) })
            await engine.addDevice(DeviceID(rawValue: 0), description: try #require(recording.devices.first).description, at: .zero)
            for e in recording.events { await engine.handle([e.event], from: e.device) }
            await engine.finishTouches(at: try #require(recording.events.last).event.time)
            return published.withLock { $0 }
        }
        let all = try await publish(wanting: Set(EventStream.allCases))
        let gestures = try await publish(wanting: [.gesture])
        #expect(Set(all.map(\.stream)).isSuperset(of: [.gesture, .touch, .debug, .device]))
        #expect(Set(gestures.map(\.stream)) == [.gesture, .device], "device events are always announced")
        #expect(gestures.filter { $0.stream == .gesture }.map(\.line) == all.filter { $0.stream == .gesture }.map(\.line))
    }

    // The frames of one device read go out as one batch (one write per client),
    // with the same lines in the same order as when each frame is read alone.
    @Test func framesOfOneReadGoOutAsOneBatch() async throws {
        let recording = try RealFixtures.recording("touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events")
        let events = recording.events.map(\.event)
        // Frame boundaries: each SYN_REPORT ends one.
        var frames: [[InputEvent]] = [[]]
        for e in events {
            frames[frames.count - 1].append(e)
            if e.type == .syn && e.code == 0 { frames.append([]) }
        }
        frames.removeAll { $0.isEmpty }
        func publish(readsOf framesPerRead: Int) async throws -> (batches: Int, lines: [[UInt8]]) {
            let published = Mutex<(batches: Int, lines: [[UInt8]])>((0, []))
            let engine = try TouchSessionActor(configuration: TouchdConfiguration(), board: HelloBoard(), logger: Logger(label: "test"))
            await engine.attach({ batch in published.withLock { $0.batches += 1; $0.lines += batch.eventsWithLines.map(\.line) } },
                                wants: { _ in true })
            await engine.addDevice(DeviceID(rawValue: 0), description: try #require(recording.devices.first).description, at: .zero)
            published.withLock { $0 = (0, []) }
            var i = 0
            while i < frames.count {
                await engine.handle(frames[i..<min(i + framesPerRead, frames.count)].flatMap { $0 }, from: DeviceID(rawValue: 0))
                i += framesPerRead
            }
            return published.withLock { $0 }
        }
        let single = try await publish(readsOf: 1)
        let triple = try await publish(readsOf: 3)
        #expect(single.lines == triple.lines && !single.lines.isEmpty)
        #expect(single.batches == frames.count, "every frame of this drag publishes something")
        #expect(triple.batches == (frames.count + 2) / 3)
    }

    // What coalescing clients may have replaced (docs/protocol.md, "coalesce"):
    // a touch moving on and a gesture `changed` are updates of their touch or
    // recognizer; beginnings, ends and everything else are not.
    @Test func movesAndChangesAreMarkedAsUpdatesOfTheirSubject() async throws {
        let recording = try RealFixtures.recording("touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events")
        let published = Mutex<[PublishedEvent]>([])
        let engine = try TouchSessionActor(configuration: TouchdConfiguration(), board: HelloBoard(), logger: Logger(label: "test"))
        await engine.attach({ batch in published.withLock { $0 += batch.eventsWithLines } }, wants: { _ in true })
        await engine.addDevice(DeviceID(rawValue: 0), description: try #require(recording.devices.first).description, at: .zero)
        for e in recording.events { await engine.handle([e.event], from: e.device) }
        await engine.finishTouches(at: try #require(recording.events.last).event.time)
        let events = published.withLock { $0 }
        func text(_ e: PublishedEvent) -> String { String(decoding: e.line, as: UTF8.self) }
        let touches = events.filter { $0.stream == .touch }
        let gestures = events.filter { $0.stream == .gesture }
        #expect(touches.contains { $0.isUpdate } && touches.contains { !$0.isUpdate })
        #expect(gestures.contains { $0.isUpdate } && gestures.contains { !$0.isUpdate })
        for e in touches {
            #expect(e.isUpdate == text(e).contains(#""phase":"moved""#), "\(text(e))")
            #expect(e.touchID != nil && text(e).contains(#""id":\#(e.touchID ?? 0),"#), "\(text(e))")
        }
        for e in gestures { #expect(e.isUpdate == text(e).contains(#""state":"changed""#), "\(text(e))") }
        #expect(events.filter { $0.stream != .touch && $0.stream != .gesture }.allSatisfy { !$0.isUpdate })
    }

    // The publisher's deadline for held updates is one of the engine's: the
    // owner wakes up for it, and advancing to it releases them.
    @Test func heldUpdatesWakeTheEngineAndAdvancingReleasesThem() async throws {
        let released = Mutex<[Double]>([])
        let held = Mutex<Double?>(nil)
        let engine = try TouchSessionActor(configuration: TouchdConfiguration(), board: HelloBoard(), logger: Logger(label: "test"))
        await engine.attach({ _ in }, wants: { _ in true }, heldDeadline: { held.withLock { $0 } },
                            release: { t in released.withLock { $0.append(t) } })
        #expect(await engine.nextDeadline == nil)
        held.withLock { $0 = 5.0000004 }
        // Rounded up to the microsecond: advancing there is not too early.
        let due = try #require(await engine.nextDeadline)
        #expect(due == Timestamp(microseconds: 5_000_001))
        await engine.advance(to: Timestamp(microseconds: 5_000_000))
        #expect(released.withLock { $0 } == [5.0])
        #expect(await engine.nextDeadline == due)
        await engine.advance(to: due)
        #expect(released.withLock { $0 }.last == due.seconds)
    }
}
