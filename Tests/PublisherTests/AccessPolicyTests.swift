import NIOCore
import NIOEmbedded
import Testing
import Wire

@testable import Publisher

/// Who may connect and who sees other clients' touches, decided on peer credentials.
@Suite struct AccessPolicyTests {
    let alice = PeerCredentials(uid: 1000, gid: 1000, pid: 10)
    let bob = PeerCredentials(uid: 1001, gid: 1001, pid: 11)
    let carol = PeerCredentials(uid: 1002, gid: 500, pid: 12)

    @Test func admitsEveryoneWithoutAConnectGrant() {
        let open = AccessPolicy()
        #expect(open.admits(alice))
        #expect(open.admits(nil))
        let closed = AccessPolicy(connect: AccessGrant(uids: [1000], gids: [500]))
        #expect(closed.admits(alice))
        #expect(!closed.admits(bob))
        #expect(closed.admits(carol))
        #expect(!closed.admits(nil))
        // An empty grant admits nobody.
        #expect(!AccessPolicy(connect: AccessGrant()).admits(alice))
    }

    @Test func aPeerOutsideTheConnectGrantIsToldAndClosed() throws {
        let p = EmbeddedPublisher(access: AccessPolicy(connect: AccessGrant(uids: [1000], gids: [500])))
        let a = try p.connect(credentials: alice)
        let c = try p.connect(credentials: carol)
        let b = try p.connect(credentials: bob, readHello: false)
        #expect(try p.lines(b) == [#"{"type":"error","code":"not-permitted","message":"uid 1001 gid 1001 may not connect (access.connect)"}"#])
        #expect(!b.isActive)
        let anonymous = try p.connect(credentials: nil, readHello: false)
        #expect(try p.lines(anonymous) == [#"{"type":"error","code":"not-permitted","message":"a peer without credentials may not connect (access.connect)"}"#])
        #expect(!anonymous.isActive)
        // Refused peers never count against the connection limit, and get no events.
        #expect(p.hub.count == 2)
        try p.send(a, #"{"op":"subscribe","id":1,"events":["device"]}"# + "\n")
        #expect(try p.lines(a) == [#"{"type":"ack","id":1}"#])
        p.hub.route([event(1, .device)])
        #expect(numbers(try p.lines(a)) == [1])
        #expect(try p.lines(b) == [])
        #expect(c.isActive)
    }

    @Test func refusalComesBeforeTheConnectionLimit() throws {
        var limits = PublisherLimits()
        limits.maxConnections = 1
        let p = EmbeddedPublisher(limits: limits, access: AccessPolicy(connect: AccessGrant(uids: [1000])))
        _ = try p.connect(credentials: alice)
        let b = try p.connect(credentials: bob, readHello: false)
        #expect(try p.lines(b).first?.contains("not-permitted") == true)
        let second = try p.connect(credentials: alice, readHello: false)
        #expect(try p.lines(second) == [#"{"type":"error","code":"limit-exceeded","message":"too many connections (the limit is 1)"}"#])
    }

    @Test func touchesOfOtherClientsNeedTheSeeAllTouchesGrant() throws {
        let p = EmbeddedPublisher(access: AccessPolicy(seeAllTouches: AccessGrant(gids: [500])))
        let owner = try p.connect(credentials: alice)
        let stranger = try p.connect(credentials: bob)
        let granted = try p.connect(credentials: carol)
        for c in [owner, stranger, granted] {
            try p.send(c, #"{"op":"subscribe","id":1,"events":["touch","gesture"]}"# + "\n")
            #expect(try p.lines(c) == [#"{"type":"ack","id":1}"#])
        }
        let ownerID = try p.id(of: owner)
        p.hub.route([
            event(1, .touch, surface: "main", owner: ownerID), event(2, .gesture, surface: "main", owner: ownerID),
            event(3, .touch), event(4, .gesture),
        ])
        #expect(numbers(try p.lines(owner)) == [1, 2, 3, 4])
        #expect(numbers(try p.lines(stranger)) == [3, 4])
        // Granted: the touches, never another client's recognizer actions.
        #expect(numbers(try p.lines(granted)) == [1, 3, 4])
    }
}
