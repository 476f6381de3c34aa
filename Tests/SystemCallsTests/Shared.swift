// SPDX-License-Identifier: MIT
import Synchronization

/// A value a test and a thread it starts both reach.
final class Shared<Value: Sendable>: Sendable {
    let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }

    var value: Value {
        get { mutex.withLock { $0 } }
        set { mutex.withLock { $0 = newValue } }
    }
}
