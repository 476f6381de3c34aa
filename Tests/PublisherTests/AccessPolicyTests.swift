// SPDX-License-Identifier: MIT
import Foundation
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

    @Test("a recognizer claiming its touches (semantics §9.5) needs the access.claimTouches grant; a refused surface is not registered")
    func claimingNeedsTheClaimTouchesGrant() async throws {
        let p = EmbeddedPublisher(access: AccessPolicy(claimTouches: AccessGrant(uids: [1000])))
        let stranger = try p.connect(credentials: bob)
        let claim = #"{"op":"register","id":1,"surface":{"id":"shell","rect":{"x":0,"y":0,"width":10,"height":10},"recognizers":[{"name":"t","kind":"tap"},{"name":"o","kind":"pinch","claimsTouches":true}]}}"#
        try p.send(stranger, claim + "\n")
        // Asking not to claim needs nothing: the same id is then registered (the refused one was not).
        let quiet = claim.replacingOccurrences(of: #""claimsTouches":true"#, with: #""claimsTouches":false"#)
        try p.send(stranger, quiet.replacingOccurrences(of: #""id":1"#, with: #""id":2"#) + "\n")
        // A granted peer may claim.
        let granted = try p.connect(credentials: alice)
        try p.send(granted, claim + "\n")
        var strangerLines: [String] = []
        var grantedLines: [String] = []
        try await waitUntil("the three answers") {
            p.runHandedBack()
            strangerLines += try p.lines(stranger)
            grantedLines += try p.lines(granted)
            return strangerLines.count >= 2 && grantedLines.count >= 1
        }
        #expect(strangerLines == [
            #"{"type":"error","id":1,"code":"not-permitted","message":"surface.recognizers[1].claimsTouches: this client may not claim touches (access.claimTouches)"}"#,
            #"{"type":"ack","id":2}"#,
        ])
        #expect(grantedLines == [#"{"type":"ack","id":1}"#])
    }

    // Supplementary groups (SO_PEERGROUPS).

    @Test func credentialsKeepTheirGroupsSortedWithoutRepeats() {
        let dave = PeerCredentials(uid: 1003, gid: 1003, pid: 13, groups: [27, 4, 500, 27, 4])
        #expect(dave.groups == [4, 27, 500])
        #expect(dave.hasSupplementaryGroup(27))
        #expect(dave.hasSupplementaryGroup(4) && dave.hasSupplementaryGroup(500))
        #expect(!dave.hasSupplementaryGroup(1003))
        #expect(!dave.hasSupplementaryGroup(0) && !dave.hasSupplementaryGroup(501))
        // The initializer without groups still works: none.
        #expect(alice.groups.isEmpty)
        #expect(PeerCredentials(uid: 1, gid: 2, pid: 3, groups: [9, 8]) == PeerCredentials(uid: 1, gid: 2, pid: 3, groups: [8, 9, 9]))
    }

    @Test(arguments: [
        // (grant gids, supplementary groups, admitted)
        ([500], [27, 500], true),
        ([500], [27, 501], false),
        ([0], [0], true),
        ([0], [], false),
        ([27, 44, 100, 500, 600], [500], true),
        ([27, 44, 100, 501, 600], [500], false),
    ] as [([UInt32], [UInt32], Bool)])
    func aSupplementaryGroupCountsLikeThePrimaryGroup(gids: [UInt32], groups: [UInt32], admitted: Bool) {
        let peer = PeerCredentials(uid: 1003, gid: 1003, pid: 13, groups: groups)
        let policy = AccessPolicy(seeAllTouches: AccessGrant(gids: Set(gids)), connect: AccessGrant(uids: [1000], gids: Set(gids)))
        #expect(policy.admits(peer) == admitted)
        #expect(policy.seeAllTouches.includes(peer) == admitted)
    }

    @Test func thousandsOfGroupsOnEitherSideAreMatched() {
        let many = PeerCredentials(uid: 1003, gid: 1003, pid: 13, groups: (0..<5000).map { UInt32(70_000 + 3 * $0) })
        #expect(AccessGrant(gids: [70_000 + 3 * 4999]).includes(many))
        #expect(!AccessGrant(gids: [70_001]).includes(many))
        let wide = AccessGrant(gids: Set((0..<5000).map { UInt32(90_000 + $0) }))
        #expect(wide.includes(PeerCredentials(uid: 1, gid: 1, pid: 1, groups: [5, 94_999])))
        #expect(!wide.includes(PeerCredentials(uid: 1, gid: 1, pid: 1, groups: [5, 95_000])))
    }

    @Test func aPeerAdmittedByASupplementaryGroupIsServed() throws {
        let p = EmbeddedPublisher(access: AccessPolicy(connect: AccessGrant(gids: [4242])))
        _ = try p.connect(credentials: PeerCredentials(uid: 65534, gid: 65534, pid: 20, groups: [100, 4242]))
        let outsider = try p.connect(credentials: PeerCredentials(uid: 65534, gid: 65534, pid: 21, groups: [100, 4243]), readHello: false)
        // The refusal names the uid and primary gid only, as before.
        #expect(try p.lines(outsider) == [#"{"type":"error","code":"not-permitted","message":"uid 65534 gid 65534 may not connect (access.connect)"}"#])
        #expect(p.hub.count == 1)
    }

    // A new policy (configuration reload).

    @Test func aNewPolicyClosesClientsItNoLongerAdmitsAndChecksNewOnes() throws {
        let p = EmbeddedPublisher()
        let a = try p.connect(credentials: alice)
        let b = try p.connect(credentials: bob)
        for c in [a, b] {
            try p.send(c, #"{"op":"subscribe","id":1,"events":["device"]}"# + "\n")
            #expect(try p.lines(c) == [#"{"type":"ack","id":1}"#])
        }
        p.hub.route([event(1, .device)])
        #expect(numbers(try p.lines(a)) == [1])
        #expect(numbers(try p.lines(b)) == [1])

        #expect(p.hub.apply(AccessPolicy(connect: AccessGrant(uids: [1000]))) == 1)
        #expect(try p.lines(b) == [#"{"type":"error","code":"not-permitted","message":"uid 1001 gid 1001 may no longer connect (access.connect was reloaded)"}"#])
        #expect(!b.isActive)
        #expect(a.isActive)
        #expect(p.hub.count == 1)
        #expect(p.hub.clients.map(\.credentials) == [alice])
        p.hub.route([event(2, .device)])
        #expect(numbers(try p.lines(a)) == [2])
        #expect(try p.lines(b) == [])
        // Later connections meet the new policy.
        let again = try p.connect(credentials: bob, readHello: false)
        #expect(try p.lines(again) == [#"{"type":"error","code":"not-permitted","message":"uid 1001 gid 1001 may not connect (access.connect)"}"#])
        _ = try p.connect(credentials: alice)
        #expect(p.hub.count == 2)
        // Back to no connect grant: everyone again; nobody is closed.
        #expect(p.hub.apply(AccessPolicy()) == 0)
        _ = try p.connect(credentials: bob)
        #expect(p.hub.count == 3)
    }

    @Test func aNewPolicyGrantsAndWithdrawsSeeAllTouchesAtOnce() throws {
        let p = EmbeddedPublisher()
        let owner = try p.connect(credentials: alice)
        let watcher = try p.connect(credentials: carol)
        for c in [owner, watcher] {
            try p.send(c, #"{"op":"subscribe","id":1,"events":["touch"]}"# + "\n")
            #expect(try p.lines(c) == [#"{"type":"ack","id":1}"#])
        }
        let ownerID = try p.id(of: owner)
        p.hub.route([event(1, .touch, surface: "main", owner: ownerID)])
        #expect(numbers(try p.lines(watcher)) == [])

        #expect(p.hub.apply(AccessPolicy(seeAllTouches: AccessGrant(gids: [500]))) == 0)
        p.hub.route([event(2, .touch, surface: "main", owner: ownerID)])
        #expect(numbers(try p.lines(watcher)) == [2])

        #expect(p.hub.apply(AccessPolicy(seeAllTouches: AccessGrant(uids: [1000]))) == 0)
        p.hub.route([event(3, .touch, surface: "main", owner: ownerID)])
        #expect(numbers(try p.lines(watcher)) == [])
        #expect(numbers(try p.lines(owner)) == [1, 2, 3])
        #expect(watcher.isActive)
    }
}
