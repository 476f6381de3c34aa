// SPDX-License-Identifier: MIT
import Synchronization
import Testing

@testable import LiveView

private final class Received: Sendable {
    let lines = Mutex<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

@Suite struct LiveFeedTests {
    @Test func lateListenersGetTheHelloAndTheRecentEventsInOrder() {
        let feed = LiveFeed(backlog: 3)
        feed.publish("old")
        feed.publish("hello", isHello: true)
        for k in 1...5 { feed.publish("e\(k)") }
        let r = Received()
        feed.addListener { r.add($0) }
        #expect(r.all == ["hello", "e3", "e4", "e5"])
        feed.publish("e6")
        #expect(r.all == ["hello", "e3", "e4", "e5", "e6"])
    }

    @Test("a snapshot is what a new listener would first hear: the hello, then the backlog in order, the ring wrapped")
    func snapshotIsTheHelloAndBacklog() {
        let feed = LiveFeed(backlog: 2)
        #expect(feed.snapshot() == [])
        feed.publish("h", isHello: true)
        for line in ["a", "b", "c"] { feed.publish(line) }
        #expect(feed.snapshot() == ["h", "b", "c"])
        let heard = Received()
        let id = feed.addListener { heard.add($0) }
        #expect(heard.all == feed.snapshot())
        feed.removeListener(id)
    }

    @Test func removedListenersHearNothingMore() {
        let feed = LiveFeed()
        let r = Received()
        let id = feed.addListener { r.add($0) }
        feed.publish("a")
        #expect(feed.listenerCount == 1)
        feed.removeListener(id)
        feed.publish("b")
        #expect(r.all == ["a"])
        #expect(feed.listenerCount == 0)
    }

    @Test func aNewHelloStartsAFreshBacklog() {
        let feed = LiveFeed(backlog: 10)
        feed.publish("h1", isHello: true)
        feed.publish("a")
        feed.publish("h2", isHello: true)
        feed.publish("b")
        let r = Received()
        feed.addListener { r.add($0) }
        #expect(r.all == ["h2", "b"])
    }

    @Test func statusLinesAreJSON() {
        #expect(LiveRelay.status(connected: false, "lost \"x\"") == #"{"type":"status","connected":false,"message":"lost \"x\""}"#)
    }
}
