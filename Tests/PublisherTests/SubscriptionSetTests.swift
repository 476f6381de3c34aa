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
}
