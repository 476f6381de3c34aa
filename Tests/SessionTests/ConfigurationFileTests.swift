// SPDX-License-Identifier: MIT
import Testing
import Session

/// One model of the file: a typo in any section is refused with its line, its
/// key and the nearest known key; one read reports every error.
@Suite struct ConfigurationFileTests {
    func errors(_ yaml: String) -> [ConfigurationError] {
        switch TouchdConfiguration.check(yaml: yaml, file: "t.yaml") {
        case .success: return []
        case .failure(let e): return e.errors
        }
    }

    /// Each case: a file with one typo, the line and path of the key, and the suggestion.
    @Test(arguments: [
        ("screnn:\n  - {width: 10, height: 10}\n", 1, "screnn", "screens"),
        ("screens:\n  - {width: 10, height: 10, rotaton: 90}\n", 2, "screens[0].rotaton", "rotation"),
        ("screens:\n  - width: 10\n    height: 10\n    insets: {topp: 4}\n", 4, "screens[0].insets.topp", "top"),
        ("devices:\n  - match: {name: \"Atmel*\"}\n    passthrough: true\n", 3, "devices[0].passthrough", "passThrough"),
        ("devices:\n  - match: {name: \"Atmel*\"}\n    screnn: 0\n", 3, "devices[0].screnn", "screen"),
        ("devices:\n  - match: {vendr: 0x1b96}\n", 2, "devices[0].match.vendr", "vendor"),
        ("surfaces:\n  - id: kiosk\n    frame: {width: 10, height: 10}\n    recognizer: []\n", 4, "surfaces[0].recognizer", "recognizers"),
        ("surfaces:\n  - id: kiosk\n    frame: {width: 10, heigth: 10}\n", 3, "surfaces[0].frame.heigth", "height"),
        ("recognizers:\n  - {name: t, kind: tap, maxTouch: 2}\n", 2, "recognizers[0].maxTouch", "maxTouches"),
        ("systemRecognizers:\n  - {name: t, kind: tap, tapps: 2}\n", 2, "systemRecognizers[0].tapps", "taps"),
        ("systemGestures:\n  - {screen: 0, edgeZon: 3}\n", 2, "systemGestures[0].edgeZon", "edgeZone"),
        ("shortcuts:\n  - name: s\n    kind: swipe\n    keyson: end\n", 4, "shortcuts[0].keyson", "keysOn"),
        ("socket: {pth: /run/x.sock}\n", 1, "socket.pth", "path"),
        ("access:\n  connect: {user: [root]}\n", 2, "access.connect.user", "users"),
        ("scheduling: {realtimepriority: 5}\n", 1, "scheduling.realtimepriority", "realtimePriority"),
    ])
    func aTypoInAnySectionIsRefusedWithItsLineAndASuggestion(_ yaml: String, _ line: Int, _ path: String, _ suggestion: String) throws {
        let found = errors(yaml)
        // A missing required key is reported besides its misspelling (the frame's height).
        #expect(found.count == (path.hasSuffix("heigth") ? 2 : 1), "\(found)")
        let e = try #require(found.first { $0.path == path })
        #expect(e.line == line && e.path == path, "\(e)")
        #expect(e.message.contains("did you mean '\(suggestion)'?"), "\(e)")
        #expect(e.description.hasPrefix("t.yaml:\(line): \(path): unknown key"), "\(e)")
    }

    @Test("the issue's example: both typos of one device rule, each with its line")
    func everyErrorOfOneReadIsReported() {
        let found = errors("""
            screens:
              - {name: a, width: 800, height: 480}
            devices:
              - {match: {name: "Atmel*"}, passthrough: true, screnn: 1}
              - match: {name: x}
                rotation: 45
            shortcuts:
              - {name: s, kind: swipe, keysOn: later}
            """)
        #expect(found.map(\.path) == ["devices[0].passthrough", "devices[0].screnn", "devices[1].rotation", "shortcuts[0].keysOn"], "\(found)")
        #expect(found.map(\.line) == [4, 4, 6, 8])
        #expect(found[3].message == "expected start or end, got 'later'", "\(found[3])")
    }

    /// Each case: a file that reads but does not check, the line and path of the
    /// key at fault, and the message.
    @Test(arguments: [
        ("surfaces:\n  - id: a\n    frame: {width: 10, height: 10}\n    recognizers:\n      - name: t\n        kind: tap\n        requiresFailureOf: [ghost]\n",
         7, "surfaces[0].recognizers[0].requiresFailureOf", "no recognizer 'ghost' of owner 'config'"),
        ("surfaces:\n  - id: a\n    frame: {width: 10, height: 10}\n    recognizers:\n      - {name: x, kind: tap, requiresFailureOf: [y]}\n      - {name: y, kind: pan, requiresFailureOf: [x]}\n",
         5, "surfaces[0].recognizers[0].requiresFailureOf", "'x' ends up requiring its own failure"),
        ("surfaces:\n  - id: a\n    frame: {width: 10, height: 10}\n  - id: b\n    frame: {width: 10, height: 10}\n    parent: zz\n",
         6, "surfaces[1].parent", "unknown surface 'zz'"),
        ("surfaces:\n  - id: a\n    frame: {width: 10, height: 10}\n    parent: b\n  - id: b\n    frame: {width: 10, height: 10}\n    parent: a\n",
         4, "surfaces[0].parent", "parents form a cycle through 'a'"),
        ("surfaces:\n  - id: a\n    frame: {width: 10, height: 10}\n    delegateDeferralTo: b\n  - id: b\n    frame: {width: 10, height: 10}\n",
         4, "surfaces[0].delegateDeferralTo", "'b' is not a surface nested in it"),
        ("surfaces:\n  - id: a\n    frame: {width: 10, height: 10}\n  - id: a\n    frame: {width: 20, height: 20}\n",
         4, "surfaces[1].id", "id 'a' is already surfaces[0].id's (line 2)"),
        ("systemGestures:\n  - {screen: 0, edgeZone: 3}\n  - {screen: 0, edgeZone: 4}\n",
         3, "systemGestures[1].screen", "screen 0 is already systemGestures[0].screen's (line 2)"),
        ("recognizers:\n  - {name: t, kind: tap}\n  - {name: t, kind: pan}\n",
         3, "recognizers[1].name", "name 't' is already recognizers[0].name's (line 2)"),
        ("recognizers:\n  - {name: p, kind: pan}\n  - name: press\n    kind: long-press\n    requiresFailureOf: [nothing]\n",
         5, "recognizers[1].requiresFailureOf", "on surface screen: no recognizer 'nothing' of owner 'default'"),
        ("shortcuts:\n  - {name: s, kind: tap}\n  - name: edge-bottom\n    kind: tap\n",
         3, "shortcuts[1].name", "'edge-bottom' is already a system recognizer's name"),
        ("screens:\n  - {width: 10, height: 10}\nshortcuts:\n  - name: s\n    kind: tap\n    screen: 2\n",
         6, "shortcuts[0].screen", "no screen 2 (there are 1)"),
        ("shortcuts:\n  - name: s\n    kind: tap\n    requiresFailureOf: [nothing]\n",
         4, "shortcuts[0].requiresFailureOf", "no system recognizer 'nothing'"),
        ("shortcuts:\n  - name: s\n    kind: long-press\n    click: double\n",
         4, "shortcuts[0].click", "expected left, right or middle, got 'double'"),
    ])
    func aCheckAfterReadingNamesTheKeyAndItsLine(_ yaml: String, _ line: Int, _ path: String, _ message: String) throws {
        let found = errors(yaml)
        #expect(found.count == 1, "\(found)")
        let e = try #require(found.first)
        #expect(e.line == line && e.path == path && e.message == message, "\(e)")
        #expect(e.description == "t.yaml:\(line): \(path): \(message)")
    }

    @Test func aKeyFarFromEveryKnownOneGetsNoSuggestion() throws {
        let e = try #require(errors("devices:\n  - {colour: red}\n").first)
        #expect(e.path == "devices[0].colour" && !e.message.contains("did you mean"), "\(e)")
        #expect(e.message.contains("known: calibration, grab, ignore, match, passThrough, passThroughEnding, rotation, screen, sizeMM"), "\(e)")
    }

    @Test func aGoodFileHasNoErrorsAndKeepsTheDaemonSections() throws {
        let c = try TouchdConfiguration.parse(yaml: """
            socket: {path: /run/t.sock, mode: "0640"}
            access: {connect: {users: [root]}}
            scheduling: {realtimePriority: 0}
            devices:
              - {match: {name: "P*", udev: {ID_PATH: x}}, passThrough: true}
            """, file: "t.yaml")
        #expect(c.daemon.socket.path == "/run/t.sock" && c.daemon.socket.mode == 0o640)
        #expect(c.daemon.access.connect?.users == ["root"] && c.daemon.scheduling.realtimePriority == 0)
        #expect(c.devices.count == 1 && c.devices[0].passThrough == true)
    }

    @Test func aFileThatIsNotYAMLNamesItsLine() throws {
        let e = try #require(errors("screens:\n  - [\n").first)
        #expect(e.line == 2 || e.line == 3, "\(e)")
        #expect(e.message.hasPrefix("not valid YAML"))
    }
}
