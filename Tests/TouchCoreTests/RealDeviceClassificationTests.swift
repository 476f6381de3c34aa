// SPDX-License-Identifier: MIT
import Foundation
import Testing
import Trace
import TouchCore
import TouchTesting

/// Every description under Tests/Fixtures/real, classified, with expectations per folder and device class.
@Suite struct RealDeviceClassificationTests {
    static func all() throws -> [(file: String, device: DeviceDescription)] {
        try RealFixtures.files(["desc", "prop", "device"]).flatMap { f in
            try RealFixtures.read(f).devices.map { (f, $0.description) }
        }
    }

    /// Devices the data itself says are not touch devices (besides tablet pads).
    static let notTouch: Set<String> = [
        "evemu-repo-data/ntrig-lenovo-T410s.prop",  // a virtual device with no capabilities
    ]

    @Test func everyDescriptionClassifiesByItsClass() throws {
        let all = try Self.all()
        #expect(all.count >= 100)
        for (f, d) in all {
            let c = DeviceClassification(d)
            let name = d.name
            #expect(!c.reason.isEmpty, "\(f)")
            if name.contains("Pad") && f.contains("tablets/") || Self.notTouch.contains(f) {
                #expect(!c.isTouchDevice, "\(f): \(c.reason)")
            } else if name.contains("Finger") {
                // Wacom finger devices: touchscreens on Cintiq/ISDv4 (DIRECT), touchpads on Bamboo/Intuos.
                #expect(c.touchTypes == [d.properties.contains(.direct) ? .direct : .indirect], "\(f): \(c.reason)")
            } else if f.contains("/touchpads/") || f.hasSuffix("Touchpad.desc") {
                #expect(c.touchTypes == [.indirect], "\(f): \(c.reason)")
            } else if f.contains("/touchscreens/") || name.localizedLowercase.contains("touchscreen") || name.contains("eGalax") {
                #expect(c.fingerType == .direct, "\(f): \(c.reason)")
            } else if name.contains("Pen") || name.contains("Stylus") || name.contains("Intuos") || name.contains("tablet") {
                #expect(c.hasStylus, "\(f): \(c.reason)")
            }
            #expect(c.isTouchDevice == !c.touchTypes.isEmpty)
        }
    }

    @Test func specificDevices() throws {
        func classify(_ f: String) throws -> DeviceClassification {
            DeviceClassification(try #require(try RealFixtures.read(f).devices.first).description)
        }
        let ntrig = try classify("evemu-devices/touchscreens/N-Trig MultiTouch.desc")
        #expect(ntrig.contactProtocol == .anonymous && ntrig.fingerType == .direct && ntrig.reason.contains("H2"))
        let cypress = try classify("evemu-devices/touchpads/ETPS2 Elantech Touchpad.Dell-Inspiron-7520.desc")
        #expect(cypress.contactProtocol == .slotted(slots: 2) && cypress.maxFingerCount == 3)
        let egalax = try classify("evemu-devices/tablets/eGalax Inc. USB TouchController.desc")
        #expect(!egalax.hasStylus && egalax.fingerType == .direct && egalax.usesSecondaryPositionAxes)
        let uclogic = try classify("libinput-litest-devices/uclogic-tablet.desc")
        #expect(uclogic.stylusTools == [.pen] && uclogic.reason.contains("H4"))
        let elo = try classify("chromium-ozone-devices/Elo_TouchSystems_2700.desc")
        #expect(elo.fingerType == .direct && elo.contactKey == EventCode.btnLeft)
        let intuos = try classify("evemu-devices/tablets/Wacom Intuos4 6x9 Pen.desc")
        #expect(intuos.stylusTools == [.pen, .eraser, .brush, .pencil, .airbrush, .mouse, .lens])
        let combo = try classify("evemu-devices/tablets/Wacom Serial Penabled 2FG Touchscreen.desc")
        #expect(combo.touchTypes == [.direct, .stylus])
        let synaptics = try classify("evemu-devices/touchpads/SynPS2 Synaptics TouchPad-fdo23890.desc")
        #expect(synaptics.contactProtocol == .singleTouch && synaptics.reason.contains("H1"))
    }

    @Test func resolutionZeroUsesTheFallback() throws {
        let d = try #require(try RealFixtures.read("evemu-devices/touchscreens/Atmel maXTouch Touchscreen.desc").devices.first).description
        let g = DeviceGeometry(d, classification: DeviceClassification(d))
        #expect(g.source == .fallback)
        #expect(max(g.width, g.height) == 200)
    }
}
