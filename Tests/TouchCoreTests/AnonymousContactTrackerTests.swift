// SPDX-License-Identifier: MIT
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

    /// A block whose touch major (and pressure, when reported) is zero is no contact:
    /// the touch ends although the device still lists it; a block with a size is one.
    @Test func zeroSizeZeroPressureBlocksAreNoContact() {
        var s = EventScript()
        s.frame { e in e.position(1000, 1000); e.abs(EventCode.absMTTouchMajor, 40); e.mtReport() }
        s.frame { e in e.position(1000, 1000); e.abs(EventCode.absMTTouchMajor, 0); e.mtReport() }
        s.frame { e in e.position(1000, 1000); e.abs(EventCode.absMTTouchMajor, 0); e.abs(EventCode.absMTPressure, 0); e.mtReport() }
        s.frame { e in e.position(3000, 1000); e.abs(EventCode.absMTTouchMajor, 0); e.abs(EventCode.absMTPressure, 12); e.mtReport() }
        s.frame { e in e.position(3000, 1000); e.mtReport() }
        let r = run(s)
        #expect(r.checker.violations == [])
        #expect(r.frames.map { $0.touches.map(\.phase) } == [[.began], [.ended], [.began], [.moved], [.cancelled]])
    }

    /// `BTN_TOUCH` 0 ends every touch whatever blocks follow, until `BTN_TOUCH` 1;
    /// before any `BTN_TOUCH` event (a recording started mid-touch) blocks count.
    @Test func touchKeyUpEndsEveryTouch() {
        var s = EventScript()
        s.anonymousFrame([(1000, 1000), (5000, 1000)])
        s.frame { e in
            e.key(EventCode.btnTouch, 1)
            for x: Int32 in [1010, 5010] { e.position(x, 1000); e.abs(EventCode.absMTTouchMajor, 40); e.mtReport() }
        }
        s.frame { e in
            e.key(EventCode.btnTouch, 0)
            for x: Int32 in [1020, 5020] { e.position(x, 1000); e.abs(EventCode.absMTTouchMajor, 40); e.mtReport() }
        }
        s.anonymousFrame([(1030, 1000)])
        s.frame { e in e.key(EventCode.btnTouch, 1); e.position(1040, 1000); e.mtReport() }
        let r = run(s)
        #expect(r.checker.violations == [])
        #expect(r.frames.map { $0.touches.map(\.phase) } == [[.began, .began], [.moved, .moved], [.ended, .ended], [.began], [.cancelled]])
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
