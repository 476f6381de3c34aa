// SPDX-License-Identifier: MIT
import Foundation
import Gestures
import Testing
import TouchCore

@Suite("Recognizer kinds: default touch types")
struct RecognizerKindTests {
    /// Holds leave touchpads out by default (docs/recognizers.md, "Touchpads"); every other kind takes all types.
    @Test func holdsLeaveTouchpadsOut() {
        for kind in RecognizerKind.allCases {
            let expected: Set<TouchType> = kind == .longPress || kind == .drag ? [.direct, .stylus] : Set(TouchType.allCases)
            #expect(kind.defaultTouchTypes == expected, "\(kind)")
        }
    }

    /// Decoded and built recognizers take the kind's default when `allowedTouchTypes` is absent,
    /// and exactly the list when it is given (a client that wants touchpad holds lists `indirect`).
    @Test func configurationUsesTheKindsDefault() throws {
        func decode(_ json: String) throws -> RecognizerConfiguration {
            try JSONDecoder().decode(RecognizerConfiguration.self, from: Data(json.utf8))
        }
        #expect(try decode(#"{"name": "p", "kind": "long-press"}"#).allowedTouchTypes == [.direct, .stylus])
        #expect(try decode(#"{"name": "d", "kind": "drag"}"#).allowedTouchTypes == [.direct, .stylus])
        #expect(try decode(#"{"name": "t", "kind": "pan"}"#).allowedTouchTypes == Set(TouchType.allCases))
        #expect(try decode(#"{"name": "p", "kind": "long-press", "allowedTouchTypes": ["indirect"]}"#).allowedTouchTypes == [.indirect])
        #expect(RecognizerConfiguration(name: "p", kind: .longPress(LongPressParameters())).allowedTouchTypes == [.direct, .stylus])
        let builtIn = GestureConfiguration.default(screens: [ScreenGeometry(width: 100, height: 100)])
        let longPress = try #require(builtIn.surfaces.first?.recognizers.first { $0.name == "long-press" })
        #expect(!longPress.allowedTouchTypes.contains(.indirect))
    }
}
