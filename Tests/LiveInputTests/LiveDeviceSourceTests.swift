// SPDX-License-Identifier: MIT
import Foundation
import KernelTesting
import Session
import Testing
import TouchCore
import Trace
import Udev
@testable import Evdev
@testable import LiveInput

/// The live source: wakeups, devices that cannot be opened, TOUCHD_IGNORE,
/// and (in the `make test-vm` guest) real uinput devices coming and going.
@Suite(.serialized) struct LiveDeviceSourceTests {
    /// The daemon's decision without a configuration file: udev's properties and the device.
    static func asUdevSays(_ candidate: LiveDeviceCandidate) -> DeviceSettingsDecision {
        TouchdConfiguration().deviceSettings(for: candidate.description, syspath: candidate.udev.syspath,
                                             udevProperties: candidate.udev.properties, node: candidate.node)
    }

    // MARK: Host (and guest)

    @Test func wakeupFromAnotherThreadEndsThePoll() throws {
        let source = try LiveDeviceSource(watchesHotplug: false, accepts: { _ in false }, decide: Self.asUdevSays)
        #expect(try source.start().isEmpty)
        let wakeup = source.wakeup
        let thread = Thread { wakeup.wake() }
        thread.start()
        let events = try source.waitAndRead(timeoutMilliseconds: 20_000)
        #expect(events.map(\.summary) == ["woken"])
        #expect(try source.waitAndRead(timeoutMilliseconds: 0).isEmpty)
    }

    @Test func aVanishedNodeIsReportedByNameAndOthersAreServed() throws {
        let source = try LiveDeviceSource(watchesHotplug: false, decide: Self.asUdevSays)
        var out: [LiveInputEvent] = []
        source.consider(Self.fakeTouchscreen(node: "/dev/input/event9999"), into: &out)
        #expect(out.map(\.summary) == ["openFailed /dev/input/event9999 openFailed"])
        guard case .openFailed(_, let error) = try #require(out.first) else { return }
        #expect(error.description.hasPrefix("/dev/input/event9999: cannot open device node"))
        #expect(error.errno == ENOENT)
        #expect(source.devices.isEmpty)
    }

    @Test func touchdIgnoreLeavesTheDeviceUnopened() throws {
        let source = try LiveDeviceSource(watchesHotplug: false, decide: Self.asUdevSays)
        var out: [LiveInputEvent] = []
        // The node does not exist: opening it would report openFailed instead.
        source.consider(Self.fakeTouchscreen(node: "/dev/input/event9998", extra: ["TOUCHD_IGNORE": "yes"]), into: &out)
        #expect(out.map(\.summary) == ["ignored /dev/input/event9998: udev property TOUCHD_IGNORE=yes"])
        // Reported once: udev's add event for the same device is not reported again.
        source.consider(Self.fakeTouchscreen(node: "/dev/input/event9998", extra: ["TOUCHD_IGNORE": "yes"]), into: &out)
        #expect(out.count == 1)
    }

    @Test func nonTouchDevicesAreNotConsidered() throws {
        let source = try LiveDeviceSource(watchesHotplug: false, decide: Self.asUdevSays)
        var out: [LiveInputEvent] = []
        source.consider(UdevDeviceInfo(syspath: "/sys/devices/virtual/input/input9/event9997", devnode: "/dev/input/event9997",
                                       sysname: "event9997", properties: ["ID_INPUT_KEYBOARD": "1"]), into: &out)
        #expect(out.isEmpty)
    }

    static func fakeTouchscreen(node: String, extra: [String: String] = [:]) -> UdevDeviceInfo {
        let sysname = String(node.split(separator: "/").last!)
        return UdevDeviceInfo(syspath: "/sys/devices/virtual/input/input999/" + sysname, devnode: node, sysname: sysname,
                              properties: ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1"].merging(extra) { _, b in b })
    }

    // MARK: Kernel (uinput, udevd)

    @Test(.requiresUinput)
    func hotplugAddReadRemoveAndReAddWithNewIDs() throws {
        let description = try LiveFixtures.description("touchscreens/Atmel maXTouch Touchscreen.desc")
        var syspaths: [String] = []
        let source = try LiveDeviceSource(accepts: { info in syspaths.contains { info.syspath.hasPrefix($0 + "/") } }, decide: Self.asUdevSays)
        #expect(try source.start().isEmpty)

        var ids: [DeviceID] = []
        for round in 0..<2 {
            let uinput = try UinputDevice(description: description)
            syspaths.append(try #require(uinput.syspath))
            let added = try LiveFixtures.pump(source) { if case .deviceAdded = $0 { true } else { false } }
            guard case .deviceAdded(let id, let seen, let info) = try #require(added.last) else { return }
            ids.append(id)
            #expect(seen.name == description.name)
            #expect(info.node == uinput.devnode)
            #expect(info.kind == .touchscreen)
            #expect(info.settings == DeviceSettings())

            try uinput.write(TouchFrames.down(slot: 0, trackingID: 10 + Int32(round), x: 300, y: 400))
            let read = try LiveFixtures.pump(source) { if case .events = $0 { true } else { false } }
            guard case .events(let readID, let events) = try #require(read.last) else { return }
            #expect(readID == id)
            #expect(events.map { "\($0.type.rawValue):\($0.code):\($0.value)" } ==
                    ["3:57:\(10 + round)", "3:53:300", "3:54:400", "1:330:1", "3:0:300", "3:1:400", "0:0:0"])

            uinput.close()
            let removed = try LiveFixtures.pump(source) { if case .deviceRemoved = $0 { true } else { false } }
            guard case .deviceRemoved(let removedID, let time) = try #require(removed.last) else { return }
            #expect(removedID == id)
            #expect(time <= LiveClock.now())
            #expect(source.devices.isEmpty)
        }
        #expect(ids == [DeviceID(0), DeviceID(1)])
    }

    @Test(.requiresUinput)
    func roundsIntoOneBufferKeepWhatAnEarlierRoundHandedOut() throws {
        let description = try LiveFixtures.description("touchscreens/Atmel maXTouch Touchscreen.desc")
        var syspath = ""
        let source = try LiveDeviceSource(accepts: { info in !syspath.isEmpty && info.syspath.hasPrefix(syspath + "/") }, decide: Self.asUdevSays)
        #expect(try source.start().isEmpty)
        let uinput = try UinputDevice(description: description)
        syspath = try #require(uinput.syspath)
        _ = try LiveFixtures.pump(source) { if case .deviceAdded = $0 { true } else { false } }

        // Pumps into `out` (emptied first, capacity kept, as the daemon does) until a frame arrives.
        func frame(_ x: Int32, into out: inout [LiveInputEvent]) throws -> [String] {
            out.removeAll(keepingCapacity: true)
            try uinput.write(TouchFrames.down(slot: 0, trackingID: x, x: x, y: 400))
            for _ in 0..<100 {
                try source.waitAndRead(timeoutMilliseconds: 200, into: &out)
                for case .events(_, let events) in out {
                    return events.map { "\($0.type.rawValue):\($0.code):\($0.value)" }
                }
            }
            Issue.record("no frame arrived; saw \(out.map(\.summary))")
            return []
        }
        // The same contact moved (the kernel passes the new x values and the frame's end;
        // values equal to the previous frame's, the tracking id and y, are filtered out).
        func isFrame(_ events: [String], _ x: Int32) -> Bool {
            events == ["3:53:\(x)", "3:0:\(x)", "0:0:0"]
        }

        var out: [LiveInputEvent] = []
        let first = try frame(300, into: &out)
        #expect(first == ["3:57:300", "3:53:300", "3:54:400", "1:330:1", "3:0:300", "3:1:400", "0:0:0"])
        // A caller still holding the first round's events while the next rounds read into the same buffers.
        let held = out
        let second = try frame(500, into: &out)
        #expect(isFrame(second, 500), "read \(second)")
        let third = try frame(700, into: &out)
        #expect(isFrame(third, 700), "read \(third)")
        var heldEvents: [InputEvent] = []
        for case .events(_, let events) in held { heldEvents = events; break }
        #expect(heldEvents.map { "\($0.type.rawValue):\($0.code):\($0.value)" } == first)
        uinput.close()
    }

    // Issue 9, faults: the node disappears between enumeration and open.
    @Test(.requiresUinput)
    func aNodeGoneBetweenEnumerationAndOpenIsReportedByName() throws {
        let uinput = try UinputDevice(description: try LiveFixtures.description("touchscreens/Atmel maXTouch Touchscreen.desc"))
        let syspath = try #require(uinput.syspath)
        let udev = try UdevContext()
        var enumerated: UdevDeviceInfo?
        for _ in 0..<100 where enumerated == nil {
            enumerated = try udev.touchDevices().first { $0.syspath.hasPrefix(syspath + "/") }
            if enumerated == nil { usleep(20_000) }
        }
        let info = try #require(enumerated)
        uinput.close()
        let source = try LiveDeviceSource(watchesHotplug: false, decide: Self.asUdevSays)
        var out: [LiveInputEvent] = []
        source.consider(info, into: &out)
        let node = try #require(info.devnode)
        #expect(out.map(\.summary) == ["openFailed \(node) openFailed"])
        guard case .openFailed(_, let error) = try #require(out.first) else { return }
        #expect(error.description.hasPrefix("\(node): cannot open device node"))
        #expect(source.devices.isEmpty)
    }

    // Writes a udev rule into the guest's udevd: only in the throwaway guest.
    @Test(.enabled(if: LiveFixtures.isThrowawayGuest, "changes udev rules: runs in the QEMU guest (make test-vm)"))
    func udevChangeDecidesAgain() throws {
        let rule = "/run/udev/rules.d/64-touchd-change-test.rules"
        var description = try LiveFixtures.description("touchscreens/Atmel maXTouch Touchscreen.desc")
        description.name = "touchd change test touchscreen"
        func setRule(_ assignment: String?) throws {
            if let assignment {
                try FileManager.default.createDirectory(atPath: "/run/udev/rules.d", withIntermediateDirectories: true)
                try "SUBSYSTEM==\"input\", KERNEL==\"event*\", ATTRS{name}==\"\(description.name)\", \(assignment)\n"
                    .write(toFile: rule, atomically: true, encoding: .utf8)
            } else if FileManager.default.fileExists(atPath: rule) {
                try FileManager.default.removeItem(atPath: rule)
            }
            #expect(try LiveFixtures.run("/usr/bin/udevadm", "control", "--reload") == 0)
        }
        try setRule(nil)
        defer { try? setRule(nil) }

        var syspaths: [String] = []
        let source = try LiveDeviceSource(accepts: { info in syspaths.contains { info.syspath.hasPrefix($0 + "/") } }, decide: Self.asUdevSays)
        #expect(try source.start().isEmpty)
        let uinput = try UinputDevice(description: description)
        syspaths.append(try #require(uinput.syspath))
        let added = try LiveFixtures.pump(source) { if case .deviceAdded = $0 { true } else { false } }
        guard case .deviceAdded(let id, _, let info) = try #require(added.last) else { return }
        #expect(info.settings.mapping.sizeMM == nil)
        // udevd may still apply the rules it had when a `change` is triggered right after
        // `udevadm control --reload` (seen once under load): trigger again until the change shows.
        func triggerChange(until wanted: (LiveInputEvent) -> Bool) throws -> [LiveInputEvent] {
            var seen: [LiveInputEvent] = []
            for _ in 0..<10 {
                #expect(try LiveFixtures.run("/usr/bin/udevadm", "trigger", "--action=change", info.syspath) == 0)
                for _ in 0..<15 {
                    let events = try source.waitAndRead(timeoutMilliseconds: 200)
                    seen += events
                    if events.contains(where: wanted) { return seen }
                }
            }
            Issue.record("the change never showed; saw \(seen.map(\.summary))")
            return seen
        }

        // A new property: the same device, changed, with the new size.
        try setRule(#"ENV{TOUCHD_SIZE_MM}="150x100""#)
        // A `change` udevd handled with the old rules is a change too: wait for the one with the property.
        let sized: (LiveInputEvent) -> Bool = {
            if case .deviceChanged(_, let i) = $0 { i.udevProperties["TOUCHD_SIZE_MM"] == "150x100" } else { false }
        }
        let changed = try triggerChange(until: sized)
        guard case .deviceChanged(let changedID, let newInfo) = try #require(changed.last(where: sized)) else { return }
        #expect(changedID == id)
        #expect(newInfo.udevProperties["TOUCHD_SIZE_MM"] == "150x100")
        #expect(newInfo.settings.mapping.sizeMM?.width == 150 && newInfo.settings.mapping.sizeMM?.height == 100)
        #expect(source.devices.map(\.info) == [newInfo])

        // TOUCHD_IGNORE: closed and reported ignored.
        try setRule(#"ENV{TOUCHD_IGNORE}="1""#)
        let ignored = try triggerChange { if case .deviceIgnored = $0 { true } else { false } }
        #expect(ignored.map(\.summary).suffix(2) == ["removed \(id)", "ignored \(info.node): udev property TOUCHD_IGNORE=1"])
        #expect(source.devices.isEmpty)

        // The rule gone: the device is taken again, under a new id.
        try setRule(nil)
        let readded = try triggerChange { if case .deviceAdded = $0 { true } else { false } }
        #expect(readded.map(\.summary).last == "added \(DeviceID(rawValue: id.rawValue + 1)) \(info.node)")
        uinput.close()
    }

    @Test(.requiresUinput)
    func decisionIgnoresAnOpenedDeviceAndGrabs() throws {
        let description = try LiveFixtures.description("touchscreens/Atmel maXTouch Touchscreen.desc")
        let ignored = try UinputDevice(description: description)
        let grabbed = try UinputDevice(description: description)
        let ignoredPath = try #require(ignored.syspath), grabbedPath = try #require(grabbed.syspath)
        let source = try LiveDeviceSource(accepts: { info in
            info.syspath.hasPrefix(ignoredPath + "/") || info.syspath.hasPrefix(grabbedPath + "/")
        }, decide: { candidate in
            candidate.udev.syspath.hasPrefix(ignoredPath + "/") ? .ignore(reason: "test rule") : .use({ var s = DeviceSettings(); s.grab = true; return s }())
        })
        var seen = try source.start()
        for _ in 0..<50 where seen.count < 2 {
            seen += try source.waitAndRead(timeoutMilliseconds: 200)
        }
        #expect(Set(seen.map(\.summary)) == ["ignored \(ignored.devnode!): test rule", "added 0 \(grabbed.devnode!)"])
        // The grab is exclusive: a second reader cannot take it.
        let other = try EvdevDevice(path: try #require(grabbed.devnode))
        #expect(throws: EvdevError.self) { try other.grab() }
        _ = source.closeAll()
        try other.grab()
    }
}

extension LiveInputEvent {
    /// A compact form for assertions.
    var summary: String {
        switch self {
        case .deviceAdded(let id, _, let info): return "added \(id) \(info.node)"
        case .deviceChanged(let id, let info): return "changed \(id) \(info.node)"
        case .events(let id, let events): return "events \(id) \(events.count)"
        case .resynced(let id, _): return "resynced \(id)"
        case .deviceRemoved(let id, _): return "removed \(id)"
        case .deviceIgnored(let node, let reason): return "ignored \(node): \(reason)"
        case .openFailed(let node, let error): return "openFailed \(node) \(error.code)"
        case .woken: return "woken"
        }
    }
}

/// touchd never reads its own pass-through mirrors.
@Suite struct OwnMirrorTests {
    @Test func aMirrorIsKnownByItsUdevPropertyOrItsPhysNotItsName() {
        let plain = LiveDeviceSourceTests.fakeTouchscreen(node: "/dev/input/event9996")
        let marked = LiveDeviceSourceTests.fakeTouchscreen(node: "/dev/input/event9996", extra: ["TOUCHD_MIRROR": "1"])
        var original = DeviceDescription(name: "Atmel maXTouch Touchscreen")
        original.phys = "usb-0000:00:14.0-7/input0"
        let mirror = MirrorDescription.make(from: original, key: "event5")
        // A mirror keeps its original's name (the compositor's settings apply to it): the phys tells it.
        #expect(mirror.name == original.name)
        #expect(mirror.phys == "touchd-mirror-event5")
        #expect(LiveDeviceSource.ownMirrorReason(plain, description: original) == nil)
        #expect(LiveDeviceSource.ownMirrorReason(plain, description: nil) == nil)
        #expect(LiveDeviceSource.ownMirrorReason(marked, description: nil) == "touchd's own pass-through mirror")
        #expect(LiveDeviceSource.ownMirrorReason(plain, description: mirror) == "touchd's own pass-through mirror")
        // Earlier versions' mirrors, by their name suffix.
        #expect(LiveDeviceSource.ownMirrorReason(plain, description: DeviceDescription(name: "Atmel maXTouch Touchscreen (touchd pass-through)"))
                == "touchd's own pass-through mirror")
        let unmarked = LiveDeviceSourceTests.fakeTouchscreen(node: "/dev/input/event9996", extra: ["TOUCHD_MIRROR": "0"])
        #expect(LiveDeviceSource.ownMirrorReason(unmarked, description: original) == nil)
    }

    @Test func aMarkedMirrorIsReportedIgnoredWithoutBeingOpened() throws {
        let source = try LiveDeviceSource(watchesHotplug: false, decide: LiveDeviceSourceTests.asUdevSays)
        var out: [LiveInputEvent] = []
        // The node does not exist: opening it would report openFailed instead.
        source.consider(LiveDeviceSourceTests.fakeTouchscreen(node: "/dev/input/event9995", extra: ["TOUCHD_MIRROR": "1"]), into: &out)
        #expect(out.map(\.summary) == ["ignored /dev/input/event9995: touchd's own pass-through mirror"])
    }

    @Test(.requiresUinput)
    func anUnmarkedMirrorIsReportedIgnoredByItsName() throws {
        // Without the shipped rule (the guest's udevd has none) only the name tells.
        let description = try LiveFixtures.description("touchscreens/Atmel maXTouch Touchscreen.desc")
        let mirror = try UinputDevice.mirror(of: description)
        let syspath = try #require(mirror.syspath)
        let source = try LiveDeviceSource(accepts: { $0.syspath.hasPrefix(syspath + "/") }, decide: LiveDeviceSourceTests.asUdevSays)
        var seen = try source.start()
        // Present now, or added by udev's event once it has classified the device.
        for _ in 0..<50 where seen.isEmpty {
            seen += try source.waitAndRead(timeoutMilliseconds: 200)
        }
        #expect(seen.map(\.summary) == ["ignored \(mirror.devnode!): touchd's own pass-through mirror"])
        #expect(source.devices.isEmpty)
    }
}
