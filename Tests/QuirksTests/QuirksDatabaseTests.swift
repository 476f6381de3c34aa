// SPDX-License-Identifier: MIT
import Foundation
import Quirks
import Testing
import TouchCore
import TouchTesting
import Trace

/// libinput's quirks: parsing with errors naming file and line, matching by
/// libinput's rules, and what applies to a touch device. On the real quirks
/// files (Tests/Fixtures/real/libinput-quirks, libinput `quirks/` @c1d8d92)
/// and the real device descriptions.
@Suite struct QuirksDatabaseTests {
    static let directory = RealFixtures.path("libinput-quirks")

    static func database() throws -> QuirksDatabase { try QuirksLoader.load(directory: directory) }

    static func device(_ relative: String) throws -> DeviceDescription {
        try #require(try RealFixtures.read(relative).devices.first).description
    }

    static func error(_ text: String) -> QuirksError? {
        do {
            _ = try QuirksParser.parse(text, file: "test.quirks")
            return nil
        } catch {
            return error
        }
    }

    // MARK: Parsing

    /// Every real quirks file parses; sections keep their file, line and entries.
    @Test func realFilesParse() throws {
        let db = try Self.database()
        #expect(db.sections.count > 300)
        let files = Set(db.sections.map { URL(fileURLWithPath: $0.file).lastPathComponent })
        #expect(files.count == 50)
        let apple = try #require(db.sections.first { $0.name == "Apple Touchpads USB" })
        #expect(apple.file.hasSuffix("50-system-apple.quirks") && apple.line == 3)
        #expect(apple.matches == [.vendor(0x05AC), .bus(0x03), .udevType("touchpad")])
        #expect(apple.properties.map(\.key) == ["ModelAppleTouchpad", "AttrSizeHint", "AttrTouchSizeRange", "AttrPalmSizeThreshold"])
        #expect(apple.properties[1].line == 8)
    }

    /// The installed database, when libinput's data package is there, parses too
    /// (the tests above do not depend on it).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/libinput/50-system-apple.quirks")))
    func installedFilesParse() throws {
        let db = try QuirksLoader.load(directory: QuirksLoader.installedDirectory)
        #expect(db.sections.count > 100)
    }

    /// Each rule libinput's README states is an error naming the file and line.
    @Test func malformedFilesAreErrorsWithFileAndLine() {
        let cases: [(String, Int, String)] = [
            ("[A]\nMatchBus=usb\n ModelX=1\n", 3, "whitespace"),
            ("[A]\nAttrSizeHint=10x10\n", 1, "no Match"),
            ("[A]\nMatchBus=usb\n\n[B]\nMatchBus=usb\nModelX=1\n", 1, "no Attr or Model"),
            ("[A]\nMatchBus=usb\nMatchBus=i2c\nModelX=1\n", 3, "repeated"),
            ("[A]\nMatchBus=usb\nModelX=2\n", 3, "0 or 1"),
            ("[A]\nMatchVendor=0x05ac\nModelX=1\n", 2, "upper case"),
            ("[A]\nMatchName=\"x\"\nModelX=1\n", 2, "quoted"),
            ("[A]\nMatchBus=usb\nAttrSizeHint=10by10\n", 3, "WIDTHxHEIGHT"),
            ("[A]\nMatchBus=usb\nAttrPressureRange=5:10\n", 3, "above the second"),
            ("[A]\nMatchBus=serial\nModelX=1\n", 2, "unknown bus"),
            ("[A]\nMatchBus=usb\nFoo=1\n", 3, "unknown key"),
            ("ModelX=1\n", 1, "before the first"),
            ("[A]\nMatchUdevType=toaster\nModelX=1\n", 2, "unknown type"),
        ]
        for (text, line, words) in cases {
            let e = Self.error(text)
            #expect(e?.file == "test.quirks" && e?.line == line, "\(text.debugDescription): \(String(describing: e))")
            #expect(e?.message.contains(words) == true, "\(text.debugDescription): \(String(describing: e))")
            #expect(e?.description.hasPrefix("test.quirks:\(line): ") == true)
        }
        // Attributes touchd does not use are kept as written (newer libinput versions add some).
        #expect(Self.error("[A]\nMatchBus=usb\nAttrSomethingNew=whatever\n") == nil)
    }

    /// A malformed file in a directory is reported with its path.
    @Test func loaderNamesTheFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-quirks-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "[ok]\nMatchBus=usb\nModelX=1\n".write(toFile: dir + "/10-a.quirks", atomically: true, encoding: .utf8)
        try "[bad]\nMatchBus=usb\n\tModelX=1\n".write(toFile: dir + "/20-b.quirks", atomically: true, encoding: .utf8)
        #expect(throws: QuirksError(file: dir + "/20-b.quirks", line: 3, message: "whitespace at the beginning of the line")) {
            _ = try QuirksLoader.load(directory: dir)
        }
    }

    // MARK: Matching

    /// Apple touchpads (bcm5974 and appletouch, both USB vendor 0x05AC) get the
    /// Apple USB section; the Magic Trackpad (Bluetooth) gets its own, and its
    /// later section overrides the generic one key by key.
    @Test func appleTouchpadsMatchTheirSections() throws {
        let db = try Self.database()
        for f in ["libinput-litest-devices/bcm5974.desc", "libinput-litest-devices/apple-appletouch.desc"] {
            let q = db.attributes(for: try Self.device(f))
            #expect(q["AttrSizeHint"]?.section == "Apple Touchpads USB", "\(f)")
            #expect(q.sizeHint == SizeMM(width: 104, height: 75), "\(f)")
            #expect(q.contactThresholds.touchSize?.high == 150 && q.contactThresholds.touchSize?.low == 130, "\(f)")
            #expect(q.contactThresholds.palmSize == 1600, "\(f)")
        }
        let magic = db.attributes(for: try Self.device("libinput-litest-devices/magic-trackpad.desc"))
        #expect(magic["ModelAppleTouchpad"]?.section == "Apple Touchpads Bluetooth")
        #expect(magic["AttrTouchSizeRange"]?.value == "20:10" && magic["AttrTouchSizeRange"]?.section == "Apple Magic Trackpad v1 (2010, clickpad)")
    }

    /// Name globs: the Cypress and Elantech PS/2 touchpads of the real recordings.
    @Test func nameGlobsMatchRealTouchpads() throws {
        let db = try Self.database()
        let cypress = db.attributes(for: try Self.device("evemu-devices/touchpads/CyPS2 Cypress Trackpad.three_finger_tap.events"))
        #expect(cypress["AttrPressureRange"]?.section == "Cypress Touchpads")
        #expect(cypress.contactThresholds.pressure?.high == 10 && cypress.contactThresholds.palmPressure == 254)
        let elantech = db.attributes(for: try Self.device("evemu-devices/touchpads/ETPS2 Elantech Touchpad.desc"))
        #expect(elantech["AttrResolutionHint"]?.value == "31x31" && elantech["AttrPressureRange"]?.value == "10:8")
    }

    /// Udev type: a section for touchpads does not apply to a touchscreen of
    /// the same vendor, and udev's own ID_INPUT_* properties decide when given.
    @Test func udevTypeDecides() throws {
        let db = try Self.database()
        var d = try Self.device("libinput-litest-devices/bcm5974.desc")
        #expect(QuirkDeviceFacts(d, classification: DeviceClassification(d)).udevTypes == ["touchpad"])
        d.udevProperties = ["ID_INPUT_TOUCHSCREEN": "1"]
        #expect(db.attributes(for: d)["AttrSizeHint"] == nil)
        let nexus = try Self.device("libinput-litest-devices/nexus4-touch-screen.desc")
        #expect(QuirkDeviceFacts(nexus, classification: DeviceClassification(nexus)).udevTypes == ["touchscreen"])
    }

    /// DMI matches hold only on a machine whose modalias matches, never in a
    /// replay (no modalias): the Lenovo sections for Synaptics touchpads.
    @Test func dmiMatchesNeedTheMachine() throws {
        var db = try Self.database()
        let synaptics = try Self.device("evemu-devices/touchpads/SynPS2 Synaptics TouchPad.desc")
        #expect(db.attributes(for: synaptics)["ModelLenovoX230"] == nil)
        db.dmiModalias = "dmi:bvnLENOVO:bvrG2ET86WW:svnLENOVO:pn2324CTO:pvrThinkPadX230:rvnLENOVO:rn2324CTO:"
        let q = db.attributes(for: synaptics)
        #expect(q["ModelLenovoX230"]?.section == "Lenovo x230 Touchpad")
        #expect(q["AttrThumbPressureThreshold"]?.section == "Lenovo Thinkpad Touchpad")
        db.dmiModalias = "dmi:bvnLENOVO:svnLENOVO:pn20AN009BGE:pvrThinkPadT440p:"
        #expect(db.attributes(for: synaptics)["ModelLenovoX230"] == nil)
        #expect(db.attributes(for: synaptics)["ModelLenovoT450Touchpad"] != nil)
    }

    /// Files are read in version order, `local-overrides.quirks` last, and a later
    /// section overrides an earlier one for the keys it sets.
    @Test func laterSectionsAndLocalOverridesWin() throws {
        #expect(QuirksDatabase.readingOrder(["local-overrides.quirks", "50-b.quirks", "9-a.quirks", "10-c.quirks"])
            == ["9-a.quirks", "10-c.quirks", "50-b.quirks", "local-overrides.quirks"])
        let override = "[my bcm5974]\nMatchName=bcm5974\nAttrSizeHint=100x70\n"
        var files = try FileManager.default.contentsOfDirectory(atPath: Self.directory).filter { $0.hasSuffix(".quirks") }.map {
            (name: $0, text: try String(contentsOfFile: Self.directory + "/" + $0, encoding: .utf8))
        }
        files.insert((name: "local-overrides.quirks", text: override), at: 0)
        let db = try QuirksDatabase(files: files)
        let q = db.attributes(for: try Self.device("libinput-litest-devices/bcm5974.desc"))
        #expect(q["AttrSizeHint"]?.file == "local-overrides.quirks" && q.sizeHint == SizeMM(width: 100, height: 70))
        #expect(q["AttrTouchSizeRange"]?.section == "Apple Touchpads USB", "keys the override does not set stay")
    }

    @Test func globs() {
        let db = QuirksDatabase(sections: [QuirkSection(name: "g", file: "f", line: 1, matches: [.name("*Cypress APA Trackpad ?cyapa?")],
                                                        properties: [QuirkProperty(key: "ModelX", value: "1", line: 2)])])
        func matches(_ name: String) -> Bool {
            db.attributes(for: QuirkDeviceFacts(id: InputID(), name: name, udevTypes: []))["ModelX"] != nil
        }
        #expect(matches("Cypress APA Trackpad (cyapa)"))
        #expect(matches("xx Cypress APA Trackpad [cyapa]"))
        #expect(!matches("Cypress APA Trackpad cyapa"))
        let bracket = QuirkSection(name: "b", file: "f", line: 1, matches: [.name("Wacom [A-C]x[!0-4]")], properties: [])
        #expect(QuirksDatabase.matches(bracket, QuirkDeviceFacts(id: InputID(), name: "Wacom Bx7", udevTypes: [])))
        #expect(!QuirksDatabase.matches(bracket, QuirkDeviceFacts(id: InputID(), name: "Wacom Bx3", udevTypes: [])))
        #expect(!QuirksDatabase.matches(bracket, QuirkDeviceFacts(id: InputID(), name: "Wacom Dx7", udevTypes: [])))
    }

    // MARK: What applies

    /// Size hints apply only to devices without resolution and below any size
    /// set before (configuration, udev): bcm5974 gets 104 x 75 mm from its hint,
    /// the Elantech PS/2 pad 31 units/mm from its resolution hint; the Magic
    /// Trackpad, which reports a resolution, keeps it.
    @Test func sizeHintsApplyWithoutResolution() throws {
        let db = try Self.database()
        func info(_ f: String, preset: SizeMM? = nil) throws -> DeviceInfo {
            let d = try Self.device(f)
            var mapping = DeviceMapping(sizeMM: preset)
            db.attributes(for: d).apply(to: &mapping, description: d)
            var p = TouchPipeline()
            return p.addDevice(DeviceID(rawValue: 0), description: d, mapping: mapping)
        }
        let bcm = try info("libinput-litest-devices/bcm5974.desc")
        #expect(bcm.geometry.source == .quirk && bcm.geometry.width == 104 && bcm.geometry.height == 75)
        let configured = try info("libinput-litest-devices/bcm5974.desc", preset: SizeMM(width: 90, height: 60))
        #expect(configured.geometry.source == .override && configured.geometry.width == 90)
        let elantech = try Self.device("evemu-devices/touchpads/ETPS2 Elantech Touchpad.desc")
        let e = try info("evemu-devices/touchpads/ETPS2 Elantech Touchpad.desc")
        if QuirkAttributes.reportsResolution(elantech) {
            #expect(e.geometry.source == .resolution)
        } else {
            let xa = try #require(elantech.absInfo[EventCode.absMTPositionX])
            #expect(e.geometry.source == .quirk && abs(e.geometry.width - xa.span / 31) < 1e-9)
        }
        let magic = try info("libinput-litest-devices/magic-trackpad.desc")
        #expect(magic.geometry.source == .resolution)
    }

    /// `ModelPressurePad=1` (the Dell sections): pressure decides neither contact
    /// nor palm, even when another section gives a pressure range.
    @Test func pressurePadsIgnorePressureLimits() throws {
        let override = "[pad pressure]\nMatchBus=i2c\nMatchUdevType=touchpad\nAttrPressureRange=10:8\nAttrPalmPressureThreshold=200\n"
        var files = try FileManager.default.contentsOfDirectory(atPath: Self.directory).filter { $0.hasSuffix(".quirks") }.map {
            (name: $0, text: try String(contentsOfFile: Self.directory + "/" + $0, encoding: .utf8))
        }
        files.append((name: "local-overrides.quirks", text: override))
        let db = try QuirksDatabase(files: files)
        var pad = try Self.device("libinput-litest-devices/bcm5974.desc")
        pad.id = InputID(bustype: 0x18, vendor: 0x27C6, product: 0x0F60)  // Dell Precision 5680's Goodix pad
        let q = db.attributes(for: pad)
        #expect(q.isPressurePad && q["ModelPressurePad"]?.section == "Dell Precision5680 Touchpad")
        #expect(q.contactThresholds.pressure == nil && q.contactThresholds.palmPressure == nil)
        pad.id.product = 0x0F70  // another i2c pad of the vendor: no pressure-pad section
        let other = db.attributes(for: pad)
        #expect(!other.isPressurePad && other.contactThresholds.pressure?.high == 10 && other.contactThresholds.palmPressure == 200)
    }

    /// `AttrTouchSizeRange` (bcm5974) and `AttrPressureRange` (Cypress): a
    /// contact begins above the first value and ends below the second; the palm
    /// thresholds cancel a touch.
    @Test func contactThresholdsDecideWhatTouches() throws {
        let db = try Self.database()
        let cases: [(String, UInt16, [Int32], Int32)] = [
            // device, axis, values frame by frame, palm value
            ("libinput-litest-devices/bcm5974.desc", EventCode.absMTTouchMajor, [100, 200, 140, 120], 1700),
            ("evemu-devices/touchpads/CyPS2 Cypress Trackpad.three_finger_tap.events", EventCode.absMTPressure, [9, 30, 9, 5], 254),
        ]
        for (f, axis, values, palm) in cases {
            let d = try Self.device(f)
            var mapping = DeviceMapping()
            db.attributes(for: d).apply(to: &mapping, description: d)
            #expect(!mapping.contactThresholds.isEmpty, "\(f)")
            var p = TouchPipeline()
            _ = p.addDevice(DeviceID(rawValue: 0), description: d, mapping: mapping)
            var s = EventScript()
            s.frame { $0.slot(0); $0.trackingID(1); $0.position(100, 100); $0.abs(axis, values[0]) }
            for v in values.dropFirst() { s.frame { $0.abs(axis, v) } }
            s.frame { $0.abs(axis, 200); $0.position(110, 100) }
            s.frame { $0.abs(axis, palm) }
            s.frame { $0.trackingID(-1) }
            var phases: [TouchPhase] = []
            for e in s.events { phases += (p.process(e, from: DeviceID(rawValue: 0))?.touches ?? []).map(\.phase) }
            // below the begin value: nothing; above: began; between: still down; below the end value: ended;
            // up again: a new touch; at the palm threshold: cancelled.
            #expect(phases.filter { $0 != .hover } == [.began, .moved, .ended, .began, .cancelled], "\(f): \(phases)")
        }
    }

    // MARK: Capabilities (AttrEventCode, AttrInputProp)

    static func phases(_ d: DeviceDescription, _ db: QuirksDatabase, _ s: EventScript) -> [TouchPhase] {
        var mapping = DeviceMapping()
        db.attributes(for: d).apply(to: &mapping, description: d)
        var p = TouchPipeline()
        _ = p.addDevice(DeviceID(rawValue: 0), description: d, mapping: mapping)
        var out: [TouchPhase] = []
        for e in s.events { out += (p.process(e, from: DeviceID(rawValue: 0))?.touches ?? []).map(\.phase) }
        return out
    }

    /// `AttrEventCode=-ABS_MT_TOOL_TYPE` (Lenovo Yoga Slim 7i Carbon: bogus palm
    /// reports, matched by name glob and DMI): on that machine a finger reported as a
    /// palm stays a finger; elsewhere the palm cancels it. Two touchpads the glob fits.
    @Test func eventCodeQuirkDropsBogusPalms() throws {
        var db = try Self.database()
        var s = EventScript()
        s.frame { $0.slot(0); $0.trackingID(1); $0.position(500, 500); $0.key(EventCode.btnTouch, 1) }
        s.frame { $0.abs(EventCode.absMTToolType, Int32(EventCode.mtToolPalm)); $0.position(520, 500) }
        s.frame { $0.position(540, 500) }
        s.frame { $0.trackingID(-1); $0.key(EventCode.btnTouch, 0) }
        for f in ["libinput-litest-devices/synaptics-pressurepad.desc", "libinput-litest-devices/synaptics-phantomclicks.desc"] {
            let d = try Self.device(f)
            db.dmiModalias = nil
            #expect(Self.phases(d, db, s) == [.began, .cancelled], "\(f)")
            db.dmiModalias = "dmi:bvnLENOVO:bvrJ6CN40WW:svnLENOVO:pn82U9:pvrYogaSlim7Carbon13IAP7:rvnLENOVO:"
            let q = db.attributes(for: d)
            #expect(q["AttrEventCode"]?.section == "Lenovo Yoga Slim 7i Carbon", "\(f)")
            var mapping = DeviceMapping()
            q.apply(to: &mapping, description: d)
            var p = TouchPipeline()
            let info = p.addDevice(DeviceID(rawValue: 0), description: d, mapping: mapping)
            #expect(!info.description.supports(.abs, EventCode.absMTToolType), "\(f)")
            #expect(Self.phases(d, db, s) == [.began, .moved, .moved, .ended], "\(f)")
        }
    }

    /// `AttrEventCode=-BTN_TOOL_DOUBLETAP;-BTN_TOOL_TRIPLETAP;` (HP Compaq 6910p's
    /// Synaptics PS/2 pad, by DMI): its finger counts are not believed, so a third
    /// finger it announces is not added beside its two slots.
    @Test func eventCodeQuirkDropsFingerCounts() throws {
        var db = try Self.database()
        let d = try Self.device("evemu-devices/touchpads/SynPS2 Synaptics TouchPad.desc")
        var s = EventScript()
        s.frame { e in
            for i: Int32 in 0...1 { e.slot(i); e.trackingID(10 + i); e.position(3000 + 500 * i, 3000) }
            e.key(EventCode.btnTouch, 1); e.key(EventCode.btnToolTripleTap, 1)
        }
        s.frame { e in for i: Int32 in 0...1 { e.slot(i); e.trackingID(-1) }; e.key(EventCode.btnTouch, 0); e.key(EventCode.btnToolTripleTap, 0) }
        #expect(Self.phases(d, db, s) == [.began, .began, .began, .ended, .ended, .ended])
        db.dmiModalias = "dmi:bvnHewlett-Packard:svnHewlett-Packard:pnHPCompaq6910p:pvrF.11:"
        #expect(db.attributes(for: d)["AttrEventCode"]?.section == "HP Compaq 6910p")
        #expect(Self.phases(d, db, s) == [.began, .began, .ended, .ended])
    }

    /// `AttrInputProp=+INPUT_PROP_SEMI_MT` (Wacom Bamboo 2FG 6x8, product 0x00D3): the
    /// Bamboo 2FG finger description (the 4x5 model, 0x00D1) as the 6x8 model becomes
    /// semi-MT; as itself it does not.
    @Test func inputPropQuirkMakesSemiMT() throws {
        let db = try Self.database()
        var d = try Self.device("libinput-litest-devices/wacom-bamboo-2fg-finger.desc")
        func classify() -> DeviceClassification {
            var mapping = DeviceMapping()
            db.attributes(for: d).apply(to: &mapping, description: d)
            var p = TouchPipeline()
            return p.addDevice(DeviceID(rawValue: 0), description: d, mapping: mapping).classification
        }
        #expect(!classify().isSemiMT)
        d.id.product = 0x00D3
        #expect(classify().isSemiMT)
        #expect(Self.error("[A]\nMatchBus=usb\nAttrEventCode=-ABS_X;ABS_Y\n")?.line == 3)
        #expect(QuirkCapabilityChanges(eventCodes: "-EV_KEY:0x118;+BTN_RIGHT;-EV_ABS;-NOT_A_CODE", inputProperties: nil).codes.count == 3)
    }
}
