// SPDX-License-Identifier: MIT
import Publisher
import Testing
import Session
@testable import TouchDaemon

/// The daemon's `socket`, `access` and `scheduling` keys.
@Suite struct DaemonSettingsTests {
    @Test func readsTheAccessGrants() throws {
        let s = try DaemonSettings.parse(yaml: """
            socket: {path: /tmp/t.sock, mode: "0640", group: "65534"}
            access:
              seeAllTouches: {users: [root]}
              connect: {users: [root, "1234"], groups: ["65534"]}
              claimTouches: {groups: ["65534"]}
              changeScreens: {users: ["4321"]}
            """, file: "t.yaml")
        #expect(s.socketPath == "/tmp/t.sock")
        #expect(s.socketMode == 0o640)
        #expect(s.socketGroup == 65534)
        #expect(s.seeAllTouches == AccessGrant(uids: [0]))
        #expect(s.connect == AccessGrant(uids: [0, 1234], gids: [65534]))
        #expect(s.claimTouches == AccessGrant(gids: [65534]))
        #expect(s.changeScreens == AccessGrant(uids: [4321]))
        #expect(s.accessPolicy == AccessPolicy(seeAllTouches: AccessGrant(uids: [0]), connect: AccessGrant(uids: [0, 1234], gids: [65534]),
                                               claimTouches: AccessGrant(gids: [65534]), changeScreens: AccessGrant(uids: [4321])))
    }

    @Test func schedulingDefaultsToFifo10AndTakesAPriorityOrZero() throws {
        #expect(try DaemonSettings.parse(yaml: "socket: {mode: \"0600\"}\n", file: "t.yaml").realtimePriority == 10)
        #expect(try DaemonSettings.parse(yaml: "scheduling: {realtimePriority: 0}\n", file: "t.yaml").realtimePriority == 0)
        #expect(try DaemonSettings.parse(yaml: "scheduling: {realtimePriority: 49}\n", file: "t.yaml").realtimePriority == 49)
    }

    @Test func withoutConnectTheSocketModeDecides() throws {
        let s = try DaemonSettings.parse(yaml: "access:\n  seeAllTouches: {groups: [root]}\n", file: "t.yaml")
        #expect(s.connect == nil)
        #expect(s.accessPolicy.admits(PeerCredentials(uid: 4321, gid: 4321, pid: 1)))
    }

    @Test(arguments: [
        ("access:\n  connect: [root]\n", "access.connect", "expected a mapping, found a list at line 2, column 12"),
        ("access:\n  connect: {users: root}\n", "access.connect.users", "expected a list, found \"root\" at line 2, column 20"),
        ("access:\n  connect: {people: [root]}\n", "access.connect.people", "unknown key 'people' (known: groups, users)"),
        ("access:\n  connect: {users: [no-such-user-here]}\n", "access.connect.users[0]", "no user \"no-such-user-here\""),
        ("access:\n  admit: {users: [root]}\n", "access.admit", "unknown key 'admit' (known: changeScreens, claimTouches, connect, seeAllTouches)"),
        ("access:\n  conect: {users: [root]}\n", "access.conect", "unknown key 'conect'; did you mean 'connect'? (known: changeScreens, claimTouches, connect, seeAllTouches)"),
        ("socket: {mode: 0660, grup: input}\n", "socket.grup", "unknown key 'grup'; did you mean 'group'? (known: group, mode, path)"),
        ("scheduling: fifo\n", "scheduling", "expected a mapping, found \"fifo\" at line 1, column 13"),
        ("scheduling: {realtimePriority: 100}\n", "scheduling.realtimePriority", "expected a SCHED_FIFO priority from 1 to 99, or 0 for normal scheduling"),
        ("scheduling: {realtimePriority: -1}\n", "scheduling.realtimePriority", "expected a SCHED_FIFO priority from 1 to 99, or 0 for normal scheduling"),
        ("scheduling: {realtimePriority: high}\n", "scheduling.realtimePriority", "expected a SCHED_FIFO priority from 1 to 99, or 0 for normal scheduling"),
        ("scheduling: {nice: -8}\n", "scheduling.nice", "unknown key 'nice' (known: realtimePriority)"),
    ])
    func rejectsMalformedKeysNamingThem(_ yaml: String, _ path: String, _ message: String) {
        do {
            _ = try DaemonSettings.parse(yaml: yaml, file: "t.yaml")
            Issue.record("accepted \(yaml)")
        } catch {
            #expect(error.path == path)
            #expect(error.message == message)
            #expect(error.file == "t.yaml")
        }
    }
}
