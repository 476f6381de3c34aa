// SPDX-License-Identifier: MIT
import Testing
import TouchCore
@testable import Trace

@Suite struct LibinputRecordReaderTests {
    static let atmelYAML = "derived-libinput-yaml/atmel-maxtouch.4-finger-drag-down.derived.yml"
    static let atmelEvemu = "evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events"

    @Test func atmelDerivedDescription() throws {
        let r = try TraceReader.read(path: Fixtures.path(Self.atmelYAML))
        #expect(r.format == .libinputYAML)
        #expect(r.devices.count == 1)
        #expect(r.devices[0].node == "/dev/input/event0")
        let d = r.devices[0].description
        #expect(d.name == "Atmel maXTouch Touchscreen")
        #expect(d.id == InputID(bustype: 24, vendor: 0, product: 0, version: 0))
        #expect(d.properties == .direct)
        #expect(d.slotCount == 10)
        #expect(d.udevProperties == ["ID_INPUT": "1"])
        #expect(d.codes[.abs]?.codes == [0, 1, 47, 53, 54, 55, 57, 59])
        #expect(r.warnings.isEmpty)
    }

    @Test func sameEventsAsTheEvemuOriginal() throws {
        let yaml = try TraceReader.read(path: Fixtures.path(Self.atmelYAML))
        let evemu = try TraceReader.read(path: Fixtures.path(Self.atmelEvemu))
        #expect(yaml.events.count == evemu.events.count)
        #expect(yaml.events.map { [Int($0.event.type.rawValue), Int($0.event.code), Int($0.event.value)] }
            == evemu.events.map { [Int($0.event.type.rawValue), Int($0.event.code), Int($0.event.value)] })
        let y0 = try #require(yaml.events.first).event.time, e0 = try #require(evemu.events.first).event.time
        #expect(y0 == .zero)
        #expect(e0 != y0)
        #expect(yaml.events.map { $0.event.time.microseconds - y0.microseconds }
            == evemu.events.map { $0.event.time.microseconds - e0.microseconds })
        #expect(yaml.devices[0].description.absInfo == evemu.devices[0].description.absInfo)
    }

    static let twoDevices = """
    # libinput record
    version: 1
    ndevices: 2
    libinput:
      version: "1.23.0"
    devices:
    - node: /dev/input/event3
      evdev:
        name: "Pad A"
        id: [3, 1386, 244, 272]
        codes:
          0: [0, 1, 2, 3] # EV_SYN
          1: [330]
          3: [0, 1]
        absinfo:
          0: [0, 1000, 0, 0, 10]
          1: [-5, 500, 1, 2, 3]
        properties: [1, 3]
      udev:
        properties:
        - ID_INPUT=1
        - LIBINPUT_DEVICE_GROUP=3/56a/f4:usb-0000=x
      quirks:
      events:
      # Current time is 12:31:56
      - evdev:
        - [  0,      0,   3,   0,     100] # EV_ABS / ABS_X
        - [  0,      0,   0,   0,       0] # SYN_REPORT
      - libinput: {type: POINTER_MOTION}
      - evdev:
        - [  0,  20000,   3,   0,     -7]
        - [  0,  20000,   3,  29,      1]
        - [  0,  20000,   0,   0,       0]
    - node: /dev/input/event7
      evdev:
        name: "Pad B"
        id: [24, 0, 0, 0]
        codes:
          0: [0]
          4: [4]
        properties: []
      udev:
        properties:
      events:
      - evdev:
        - [  0,  10000,   4,   4,      30]
        - [  0,  10000,   0,   0,       0]
      - hid: {time: [0, 1], hidraw0: [0x01]}
      - evdev:
        - [  0,  20000,   4,   4,      31]
        - [  0,  20000,   0,   0,       0]
    """

    @Test func severalDevicesMergeByTime() throws {
        let r = try TraceReader.read(text: Self.twoDevices, name: "two.yml")
        #expect(r.devices.count == 2)
        #expect(r.devices[0].description.id == InputID(bustype: 3, vendor: 1386, product: 244, version: 272))
        #expect(r.devices[0].description.absInfo[1] == AbsInfo(minimum: -5, maximum: 500, fuzz: 1, flat: 2, resolution: 3))
        #expect(r.devices[0].description.properties == [.direct, .semiMT])
        #expect(r.devices[0].description.udevProperties["LIBINPUT_DEVICE_GROUP"] == "3/56a/f4:usb-0000=x")
        #expect(r.devices[1].description.udevProperties.isEmpty)
        #expect(r.devices[1].node == "/dev/input/event7")
        #expect(r.events.map(\.device.rawValue) == [0, 0, 1, 1, 0, 0, 0, 1, 1])
        #expect(r.events.map(\.event.time.microseconds) == [0, 0, 10000, 10000, 20000, 20000, 20000, 20000, 20000])
        #expect(r.events[4].event.value == -7)
        let w = try #require(r.warnings.first)
        #expect(r.warnings.count == 1)
        #expect(w.line == 32 && w.message.contains("code 0x001d"))
    }

    @Test func structureErrorsNameTheLine() throws {
        func error(_ text: String) -> TraceError? {
            do { _ = try TraceReader.read(text: text, name: "bad.yml"); return nil } catch { return error as? TraceError }
        }
        let shortEvent = Self.twoDevices.replacingOccurrences(of: "[  0,  20000,   3,   0,     -7]", with: "[  0,  20000,   3,   0]")
        let e1 = try #require(error(shortEvent))
        #expect(e1.code == .badLine && e1.line == 31)
        let hexValue = Self.twoDevices.replacingOccurrences(of: "-7]", with: "0x7]")
        #expect(error(hexValue)?.line == 31)
        let broken = Self.twoDevices.replacingOccurrences(of: "    properties: []", with: "    properties: [1, 2\n  x: }")
        let e2 = try #require(error(broken))
        #expect(e2.code == .badLine && e2.line > 40)
        let v2 = Self.twoDevices.replacingOccurrences(of: "version: 1", with: "version: 2")
        #expect(error(v2)?.code == .badHeader)
        #expect(error(v2)?.line == 2)
        let noName = Self.twoDevices.replacingOccurrences(of: "    name: \"Pad B\"\n", with: "")
        #expect(error(noName)?.code == .badDevice)
    }
}
