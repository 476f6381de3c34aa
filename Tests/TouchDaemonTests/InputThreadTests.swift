// SPDX-License-Identifier: MIT
import Logging
import Synchronization
import Testing

import Session
@testable import TouchDaemon

@Suite struct InputThreadTests {
    // The engine's calls run on its own thread, one at a time, in the order they were made.
    @Test func sessionCallsRunOnTheInputThreadInOrder() async throws {
        let engine = try TouchSessionActor(configuration: TouchdConfiguration(), board: HelloBoard(), logger: Logger(label: "test"))
        #expect(!engine.thread.isCurrent)
        let order = Log()
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<50 {
                // Each call appends, then checks nothing else ran in between on another thread.
                group.addTask {
                    let onThread = await engine.perform { engine in
                        order.items.withLock { $0.append(i) }
                        return engine.thread.isCurrent
                    }
                    #expect(onThread)
                }
            }
        }
        #expect(order.items.withLock { $0.sorted() } == Array(0..<50))
        // A call made after another returned runs after it.
        await engine.perform { _ in order.items.withLock { $0.append(100) } }
        await engine.perform { _ in order.items.withLock { $0.append(101) } }
        #expect(order.items.withLock { Array($0.suffix(2)) } == [100, 101])
    }
}

/// What the calls did, in the order they did it.
private final class Log: Sendable {
    let items = Mutex<[Int]>([])
}
