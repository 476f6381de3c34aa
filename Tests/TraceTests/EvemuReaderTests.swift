// SPDX-License-Identifier: MIT
import Testing
import TouchCore
@testable import Trace

@Suite struct EvemuReaderTests {
    static let atmel = "evemu-devices/touchscreens/Atmel maXTouch Touchscreen.desc"

    @Test func atmelDescription() throws {
        let r = try TraceReader.read(path: Fixtures.path(Self.atmel))
        #expect(r.format == .evemu)
        #expect(r.devices.count == 1)
        #expect(r.events.isEmpty)
        let d = r.devices[0].description
        #expect(d.name == "Atmel maXTouch Touchscreen")
        #expect(d.id == InputID(bustype: 0x18, vendor: 0, product: 0, version: 0))
        #expect(d.slotCount == 10)
        #expect(d.properties == .direct)
        #expect(d.absInfo[EventCode.absX] == AbsInfo(minimum: 0, maximum: 799))
        #expect(d.supports(.key, EventCode.btnTouch))
        #expect(d.supports(.abs, EventCode.absMTDistance))
        #expect(!d.supports(.abs, EventCode.absPressure))
        #expect(!d.supports(.rel))
        #expect(d.codes[.abs]?.codes == [0x00, 0x01, 0x2f, 0x35, 0x36, 0x37, 0x39, 0x3b])
    }

    @Test func selfContainedKeepsRelativeTimes() throws {
        let rel = "evemu-devices/touchscreens/Atmel maXTouch Touchscreen.2-fingers-touch-release.events"
        let r = try TraceReader.read(path: Fixtures.path(rel))
        #expect(r.events.count == (try Fixtures.countLines(rel, startingWith: "E:")))
        #expect(r.warnings.isEmpty)
        let first = try #require(r.events.first).event
        #expect(first == InputEvent(time: Timestamp(microseconds: 1), type: .abs, code: 0x39, value: 7))
        #expect(r.events[7].event == InputEvent(time: Timestamp(microseconds: 54565), type: .abs, code: 0x2f, value: 1))
    }

    @Test func splitPairKeepsAbsoluteTimesAndSignedValues() throws {
        let rel = "evemu-devices/tablets/Wacom Intuos4 6x9.stylus-tap.events"
        let r = try TraceReader.read(path: Fixtures.path(rel))
        #expect(r.devices[0].description.name == "Wacom Intuos4 6x9")
        #expect(r.events.count == (try Fixtures.countLines(rel, startingWith: "E:")))
        #expect(r.events[0].event.time == Timestamp(seconds: 1364787604, microseconds: 345233))
        #expect(r.events[7].event == InputEvent(
            time: Timestamp(seconds: 1364787604, microseconds: 345233), type: .msc, code: 0, value: -1719661677))
    }

    @Test func pairsByLongestStemPrefix() throws {
        let cases = [
            ("evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events", "Atmel maXTouch Touchscreen.desc"),
            ("evemu-repo-data/ntrig-dell-xt2.event", "ntrig-dell-xt2.prop"),
            ("evemu-devices/tablets/Wacom Intuos4 6x9.stylus-tap.events", "Wacom Intuos4 6x9.desc"),
            ("evemu-devices/touchpads/SynPS2 Synaptics TouchPad-fdo23890.events", "SynPS2 Synaptics TouchPad-fdo23890.desc"),
            ("evemu-devices/touchpads/SynPS2 Synaptics TouchPad.hp8470p.edge-scroll-vertical.events", "SynPS2 Synaptics TouchPad.hp8470p.desc"),
            ("evemu-devices/touchpads/SynPS2 Synaptics TouchPad.leftmove.events", "SynPS2 Synaptics TouchPad.desc"),
        ]
        for (events, desc) in cases {
            let found = try TraceReader.siblingDescription(of: Fixtures.path(events))
            #expect(found.hasSuffix("/" + desc), "\(events) paired with \(found)")
        }
    }

    @Test func elanUndeclaredCodeWarnsOnce() throws {
        let r = try TraceReader.read(path: Fixtures.path("evemu-devices/touchscreens/ELAN CANDO Windows7.1-finger-drag-up-down.events"))
        let abs1d = r.warnings.filter { $0.message.contains("type 0x03 code 0x001d") }
        #expect(abs1d.count == 1)
        #expect(abs1d.first?.line == 8)
        #expect(r.events.contains { $0.event.type == .abs && $0.event.code == 0x1d })
    }

    @Test func ntrigHasNoProperties() throws {
        let r = try TraceReader.read(path: Fixtures.path("evemu-devices/touchscreens/N-Trig MultiTouch.desc"))
        #expect(r.devices[0].description.properties.isEmpty)
        #expect(r.devices[0].description.name == "N-Trig MultiTouch")
    }

    @Test func fourNumberAbsinfoHasResolutionZero() throws {
        let text = "N: Old\nI: 0003 04f3 0732 0000\nB: 03 03 00 00 00 00 00 00 00\nA: 00 0 3008 0 0\nA: 01 -5 2000 4 8 12\n"
        let d = try TraceReader.read(text: text, name: "old.desc").devices[0].description
        #expect(d.absInfo[0] == AbsInfo(minimum: 0, maximum: 3008, fuzz: 0, flat: 0, resolution: 0))
        #expect(d.absInfo[1] == AbsInfo(minimum: -5, maximum: 2000, fuzz: 4, flat: 8, resolution: 12))
        let elan = try TraceReader.read(path: Fixtures.path("evemu-devices/touchscreens/ELAN CANDO Windows7.desc"))
        #expect(elan.devices[0].description.absInfo[0] == AbsInfo(minimum: 0, maximum: 3008))
    }

    @Test func commentsTabsPaddingAndNegatives() throws {
        let text = """
        # EVEMU 1.3
        # a comment
        N: Pad ® (r), test
        I: 0003 056a 00f4 0110
        P: 00 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 03 01 00 00 00 00 00 00 00
        A: 00 -100 100 0 0 10
        E: 0.000001 0003 0000 -001\t# EV_ABS / ABS_X -1
        E: 0.000001\t0000 0000 0000
        E: 12.000100 0003 0000 0042

        """
        let r = try TraceReader.read(text: text, name: "t.evemu")
        #expect(r.devices[0].description.name == "Pad ® (r), test")
        #expect(r.events.map(\.event.value) == [-1, 0, 42])
        #expect(r.events.map(\.event.time.microseconds) == [1, 1, 12_000_100])
    }

    @Test func errorsNameTheLine() throws {
        let header = "N: X\nB: 03 01 00 00 00 00 00 00 00\n"
        func error(_ text: String) -> TraceError? {
            do { _ = try TraceReader.read(text: text, name: "bad.events"); return nil } catch { return error as? TraceError }
        }
        let garbage = try #require(error(header + "E: 0.000001 0003 0000 1\nhello world\nE: 0.000002 0000 0000 0\n"))
        #expect(garbage.code == .badLine && garbage.line == 4 && garbage.file == "bad.events")
        let badHex = try #require(error(header + "E: 0.000001 00g3 0000 1\n"))
        #expect(badHex.code == .badLine && badHex.line == 3)
        let fields = try #require(error(header + "A: 00 0 1 2\n"))
        #expect(fields.code == .badLine && fields.line == 3 && fields.message.contains("4 or 5"))
        let truncated = try #require(error(header + "E: 0.000001 0003 0000 1\nE: 0.00"))
        #expect(truncated.code == .truncated && truncated.line == 4)
        let version = try #require(error("# EVEMU 2.0\n" + header))
        #expect(version.code == .badHeader && version.line == 1)
        let missing = try #require(error("E: 0.000001 0000 0000 0\n"))
        #expect(missing.code == .missingDescription)
        #expect(error(header + "E: 1.000001 0003 0000 5 trailing\n")?.code == nil)
        #expect(error(header + "E: 1.000001 0003 0000 5x\n")?.line == 3)
    }
}
