// SPDX-License-Identifier: MIT
import Foundation
import Gestures
import JSON
import Publisher
import Testing
import Wire
@testable import TouchDaemon

/// A client's surface description becoming the engine's configuration
/// (SurfaceTranslation), decoded from the request's JSON values.
@Suite struct DaemonSurfacesTests {
    static let client = ClientID(rawValue: 7)

    /// The engine's own decoding of a recognizer, through Foundation's
    /// decoder from text: what the JSON values must decode to.
    static func reference(_ json: JSONValue) throws -> RecognizerConfiguration {
        try JSONDecoder().decode(RecognizerConfiguration.self, from: Data(json.jsonString.utf8))
    }

    static func error(_ recognizer: JSONValue) -> RequestError? {
        do {
            _ = try SurfaceTranslation.recognizer(recognizer, path: "surface.recognizers[0]")
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        #"{"name":"t","kind":"tap"}"#,
        #"{"name":"t2","kind":"tap","taps":2,"minTouches":1,"maxTouches":3,"maxMovement":12.5,"maxDuration":0.4,"maxInterval":0.3,"maxDistance":40}"#,
        #"{"name":"lp","kind":"long-press","minDuration":0.8,"allowableMovement":5,"enabled":false}"#,
        #"{"name":"p","kind":"pan","minTouches":2,"slop":4,"simultaneousWith":"all","canPrevent":["a","b"],"canBePreventedBy":"none"}"#,
        #"{"name":"s","kind":"swipe","directions":["up","left"],"minDistance":50,"minVelocity":200,"directionTolerance":0.5}"#,
        #"{"name":"z","kind":"pinch","threshold":0.1,"requiresFailureOf":["p"],"region":{"width":10,"height":20}}"#,
        #"{"name":"r","kind":"rotate","allowedTouchTypes":["direct"],"requiresExclusiveTouchType":false,"delaysTouchesBegan":true}"#,
        #"{"name":"e","kind":"edge-pan","edges":["left"],"edgeZone":24,"cancelsTouchesInView":false,"delaysTouchesEnded":false}"#,
        #"{"name":"h","kind":"hover","shouldBegin":false,"region":{"x":1,"y":2,"width":3,"height":4}}"#,
        #"{"name":"d","kind":"drag","minDuration":0.5,"allowableMovement":10,"slop":3,"maxTouches":1}"#,
    ])
    func recognizersDecodeAsTheEngineDecodesThem(_ text: String) throws {
        let json = try JSONParser.parse(text)
        #expect(try SurfaceTranslation.recognizer(json, path: "surface.recognizers[0]") == Self.reference(json))
    }

    /// Errors name the field under the request's path, in the shape docs/protocol.md documents.
    @Test(arguments: [
        (#"{"name":"t","kind":"tap","taps":"two"}"#, "bad-field", "surface.recognizers[0].taps: expected an integer"),
        (#"{"name":"t","kind":"tap","taps":2.5}"#, "bad-field", "surface.recognizers[0].taps: expected an integer"),
        (#"{"kind":"tap"}"#, "bad-field", "surface.recognizers[0].name: required"),
        (#"{"name":null,"kind":"tap"}"#, "bad-field", "surface.recognizers[0].name: expected a string, not null"),
        (#"{"name":"t","kind":"tap","enabled":"yes"}"#, "bad-field", "surface.recognizers[0].enabled: expected true or false"),
        (#"{"name":"t","kind":"tap","region":[1]}"#, "bad-field", "surface.recognizers[0].region: expected an object"),
        (#"{"name":"t","kind":"tap","requiresFailureOf":"p"}"#, "bad-field", "surface.recognizers[0].requiresFailureOf: expected a list"),
        (#"{"name":"t","kind":"tap","requiresFailureOf":["p",1]}"#, "bad-field", "surface.recognizers[0].requiresFailureOf[1]: expected a string"),
        (#"{"name":"t","kind":"tap","region":{"width":-1,"height":1}}"#, "bad-field", "surface.recognizers[0].region.width: width must not be negative"),
        (#"{"name":"t","kind":"tap","tapz":2}"#, "bad-field", "surface.recognizers[0].tapz: unknown key 'tapz' for a tap recognizer"),
        (#"{"name":"t","kind":"tapp"}"#, "unknown-recognizer", #"surface.recognizers[0].kind: unknown kind "tapp" (known: "#),
    ])
    func recognizerErrorsNameTheField(_ text: String, _ code: String, _ message: String) throws {
        let e = try #require(Self.error(try JSONParser.parse(text)))
        #expect(e.code.rawValue == code)
        #expect(e.message.hasPrefix(message), "\(e.message)")
    }

    /// A surface id naming none of the client's surfaces is `unknown-surface`
    /// (docs/protocol.md, "Visibility and permissions"); one of its surfaces
    /// that is not nested in the delegating one stays `bad-field`.
    @Test func delegatingDeferralToASurfaceTheClientDoesNotHaveIsUnknownSurface() throws {
        func answer(_ surfaces: [SurfaceDescription]) throws -> RequestError? {
            let configuration = GestureConfiguration(surfaces: try surfaces.map { try SurfaceTranslation.configuration($0, client: Self.client) })
            do {
                try configuration.validate()
                return nil
            } catch {
                let named = surfaces.reduce(into: [SurfaceID: String]()) { names, d in
                    names.merge(SurfaceTranslation.localNames(d, client: Self.client)) { a, _ in a }
                }
                return SurfaceTranslation.describe(error, client: Self.client, naming: { named[$0] })
            }
        }
        let rect = SurfaceRect(x: 0, y: 0, width: 10, height: 10)
        var shell = SurfaceDescription(id: "shell", rect: rect)
        shell.delegateDeferralTo = "main"
        let unknown = try #require(try answer([shell]))
        #expect(unknown.code == .unknownSurface)
        #expect(unknown.message == #"surface.delegateDeferralTo: no surface "main" on this connection"#)

        let sibling = SurfaceDescription(id: "main", rect: rect)
        let notNested = try #require(try answer([shell, sibling]))
        #expect(notNested.code == .badField)
        #expect(notNested.message == "surface.delegateDeferralTo: 'main' is not a surface nested in it")

        var child = SurfaceDescription(id: "main", rect: rect)
        child.parent = "shell"
        #expect(try answer([shell, child]) == nil)
    }

    /// Errors name surfaces and owners as the client knows them: its own
    /// local ids, and no owner when the owner is the client itself.
    @Test func errorsNameTheClientsOwnSurfacesAndLeaveItsOwnerUnsaid() throws {
        let rect = SurfaceRect(x: 0, y: 0, width: 10, height: 10)
        var a = SurfaceDescription(id: "a", rect: rect)
        a.parent = "b"
        var b = SurfaceDescription(id: "b", rect: rect)
        b.parent = "a"
        let surfaces = [a, b]
        let configuration = GestureConfiguration(surfaces: try surfaces.map { try SurfaceTranslation.configuration($0, client: Self.client) })
        let named = surfaces.reduce(into: [SurfaceID: String]()) { names, d in
            names.merge(SurfaceTranslation.localNames(d, client: Self.client)) { a, _ in a }
        }
        do {
            try configuration.validate()
            Issue.record("a cycle of parents was accepted")
        } catch {
            let answer = SurfaceTranslation.describe(error, client: Self.client, naming: { named[$0] })
            #expect(answer.code == .badField)
            #expect(answer.message.hasPrefix("surface.parent: parents form a cycle through '"), "\(answer.message)")
            #expect(!answer.message.contains(Self.client.engineOwner), "\(answer.message)")
        }

        let unknownRecognizer = GestureConfigurationError(surface: "x", field: "recognizers[0].requiresFailureOf",
                                                          .unknownRecognizer(name: "swipe", owner: Self.client.engineOwner))
        let mine = SurfaceTranslation.describe(unknownRecognizer, client: Self.client, naming: { _ in nil })
        #expect(mine.code == .unknownRecognizer)
        #expect(mine.message == "surface.recognizers[0].requiresFailureOf: no recognizer 'swipe'")
        #expect(unknownRecognizer.message == "no recognizer 'swipe' of owner '\(Self.client.engineOwner)'", "a configuration file still names the owner")
    }
}
