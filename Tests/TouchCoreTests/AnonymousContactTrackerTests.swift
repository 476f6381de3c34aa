import Testing
import TouchCore
import TouchTesting

@Suite struct AnonymousContactTrackerTests {
    func run(_ s: EventScript, trackingID: Bool = false) -> TouchReplay {
        var r = TouchReplay()
        r.pipeline.addDevice(DeviceID(0), description: DeviceFixtures.protocolATouchscreen(trackingID: trackingID))
        r.feed(s, from: DeviceID(0))
        r.finish()
        return r
    }

    @Test func nearestNeighbourKeepsIdsWhenContactOrderSwaps() {
        var s = EventScript()
        s.anonymousFrame([(1000, 1000), (8000, 6000)])
        s.anonymousFrame([(8050, 6050), (1050, 1050)])
        s.anonymousFrame([])
        let r = run(s)
        #expect(r.checker.violations == [])
        #expect(r.frames[1].touches.count == 2)
        let byID = Dictionary(uniqueKeysWithValues: r.frames[1].touches.map { ($0.id, $0) })
        #expect(byID[TouchID(1)]!.previousLocation == r.frames[0].touches[0].location)
        #expect(byID[TouchID(1)]!.location.x < byID[TouchID(2)]!.location.x)
        #expect(r.frames[2].touches.map(\.phase) == [.ended, .ended])
    }

    @Test func aJumpBeyondTheLimitIsANewTouch() {
        var s = EventScript()
        s.anonymousFrame([(0, 0)])
        s.anonymousFrame([(9600, 7200)])
        let r = run(s)
        #expect(r.checker.violations == [])
        #expect(r.frames[1].touches.map(\.phase) == [.ended, .began])
    }

    @Test func oneOfTwoLifts() {
        var s = EventScript()
        s.anonymousFrame([(1000, 1000), (5000, 5000)])
        s.anonymousFrame([(5010, 5010)])
        let r = run(s)
        #expect(r.frames[1].touches.map(\.phase) == [.ended, .moved])
        #expect(r.frames[1].touches.map(\.id) == [TouchID(1), TouchID(2)])
    }

    @Test func trackingIDsWinOverDistance() {
        var s = EventScript()
        s.anonymousFrame([(1000, 1000), (1100, 1100)], trackingIDs: [4, 9])
        s.anonymousFrame([(1000, 1000), (1100, 1100)], trackingIDs: [9, 4])
        let r = run(s, trackingID: true)
        let moved = r.frames[1].touches
        #expect(moved.count == 2)
        #expect(moved.first { $0.id == TouchID(1) }!.location == r.frames[0].touches[1].location)
    }

    @Test func syntheticDropDiscardsTheFrame() {
        var s = EventScript()
        s.anonymousFrame([(1000, 1000)])
        s.position(2000, 2000); s.mtReport(); s.dropped()
        s.anonymousFrame([(9000, 7000)])  // discarded up to and including this SYN_REPORT
        s.anonymousFrame([(1010, 1010)])
        let r = run(s)
        #expect(r.checker.violations == [])
        #expect(r.frames[1].touches.map(\.phase) == [.moved])
        #expect(r.frames[1].touches[0].id == TouchID(1))
    }
}
