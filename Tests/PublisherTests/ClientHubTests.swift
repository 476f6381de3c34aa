// SPDX-License-Identifier: MIT
import NIOCore
import NIOEmbedded
import Testing
import Wire

@testable import Publisher

@Suite struct ClientHubTests {
    // The engine skips encoding a stream nobody subscribes to, so the hub's
    // answer must follow every subscribe, unsubscribe and disconnection.
    @Test func wantsFollowsTheSubscriptionsOfEverySession() throws {
        let p = EmbeddedPublisher()
        #expect(EventStream.allCases.allSatisfy { !p.hub.wants($0) })

        let a = try p.connect()
        let b = try p.connect()
        #expect(EventStream.allCases.allSatisfy { !p.hub.wants($0) }, "connected without subscriptions")

        try p.send(a, #"{"op":"subscribe","id":1,"events":["gesture","touch"]}"# + "\n")
        try p.send(b, #"{"op":"subscribe","id":1,"events":["touch","debug"]}"# + "\n")
        #expect(EventStream.allCases.filter { p.hub.wants($0) } == [.gesture, .touch, .debug])

        try p.send(b, #"{"op":"unsubscribe","id":2,"events":["touch"]}"# + "\n")
        #expect(EventStream.allCases.filter { p.hub.wants($0) } == [.gesture, .touch, .debug], "a still reads touch")

        try p.send(a, #"{"op":"unsubscribe","id":2}"# + "\n")
        #expect(EventStream.allCases.filter { p.hub.wants($0) } == [.debug])

        try b.close().wait()
        #expect(EventStream.allCases.allSatisfy { !p.hub.wants($0) }, "the last subscriber went away")
    }
}
