// SPDX-License-Identifier: MIT
import Publisher
import Testing
import Wire

@Suite struct SubscriptionSetTests {
    @Test func filterKeysAndAcrossOrWithin() {
        let f = SubscriptionFilter(kinds: ["tap", "pan"], devices: [1, 2])
        #expect(f.matches(event(0, .gesture, kind: "tap", device: 2)))
        #expect(f.matches(event(0, .gesture, kind: "pan", device: 1)))
        #expect(!f.matches(event(0, .gesture, kind: "pinch", device: 1)))
        #expect(!f.matches(event(0, .gesture, kind: "tap", device: 3)))
    }

    @Test func keysIgnoreEventsWithoutThatAttribute() {
        let f = SubscriptionFilter(kinds: ["tap"], recognizers: ["r"], touchTypes: ["direct"], surfaces: ["main"])
        #expect(f.matches(event(0, .device, device: 4)))
        #expect(f.matches(event(0, .touch, touchType: "direct")))
        #expect(!f.matches(event(0, .touch, touchType: "stylus")))
        #expect(!f.matches(event(0, .touch, touchType: "direct", surface: "other")))
        #expect(!f.matches(event(0, .gesture, kind: "tap", recognizer: "q")))
    }

    @Test func anySubscriptionMayMatch() {
        var s = SubscriptionSet()
        s.add(Subscription(events: [.gesture], filter: SubscriptionFilter(kinds: ["tap"])))
        s.add(Subscription(events: [.gesture, .touch], filter: SubscriptionFilter(devices: [9])))
        #expect(s.wants(event(0, .gesture, kind: "tap", device: 1)))
        #expect(s.wants(event(0, .gesture, kind: "pan", device: 9)))
        #expect(!s.wants(event(0, .gesture, kind: "pan", device: 1)))
        #expect(s.wants(event(0, .touch, device: 9)))
        #expect(!s.wants(event(0, .system)))
    }

    @Test func unsubscribeRemovesStreamsEverywhere() {
        var s = SubscriptionSet()
        s.add(Subscription(events: [.gesture, .touch]))
        s.add(Subscription(events: [.touch]))
        s.remove([.touch])
        #expect(s.count == 1)
        #expect(!s.includes(.touch))
        #expect(s.wants(event(0, .gesture)))
        s.remove(nil)
        #expect(s.count == 0)
        #expect(!s.wants(event(0, .gesture)))
    }

    /// The streams are kept as bits: on random adds and removes, `includes`
    /// and `wants` answer as the subscriptions listed plainly do, for every
    /// stream (each its own bit).
    @Test func bitsAgreeWithTheSubscriptionsListed() {
        var state: UInt64 = 5
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        func someStreams() -> [EventStream] { EventStream.allCases.filter { _ in next(2) == 0 } }
        var s = SubscriptionSet()
        var model: [Subscription] = []
        for _ in 0..<400 {
            switch next(4) {
            case 0, 1:
                let sub = Subscription(events: someStreams(), filter: next(2) == 0 ? SubscriptionFilter(devices: [1]) : SubscriptionFilter())
                s.add(sub)
                if !sub.events.isEmpty { model.append(sub) }
            case 2:
                let gone = someStreams()
                s.remove(gone)
                for k in model.indices { model[k].events.removeAll(where: gone.contains) }
                model.removeAll(where: { $0.events.isEmpty })
            default:
                if next(8) == 0 { s.remove(nil); model.removeAll() }
            }
            for stream in EventStream.allCases {
                #expect(s.includes(stream) == model.contains { $0.events.contains(stream) })
                for device: UInt32 in [1, 2] {
                    let e = event(0, stream, device: device)
                    #expect(s.wants(e) == model.contains { $0.events.contains(stream) && $0.filter.matches(e) })
                }
            }
        }
    }
}
