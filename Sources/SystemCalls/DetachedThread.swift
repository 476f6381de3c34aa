// SPDX-License-Identifier: MIT
import Glibc

/// A named thread of its own (pthreads, without Foundation's `Thread`: touchd
/// does not load Foundation, see docs/performance.md, "Memory without Foundation").
package enum DetachedThread {
    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Runs `body` on a new detached thread named `name` (the kernel keeps 15
    /// bytes: what `top -H` and /proc/PID/task/*/comm show).
    ///
    /// - Throws: `pthread_create`'s error when no thread could be started.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemCallError) {
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        // Returns the error number itself rather than setting errno; never EINTR.
        let result = pthread_create(&thread, &attributes, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            DetachedThread.nameThisThread(start.name)
            start.body()
            return nil
        }, start)
        guard result == 0 else {
            Unmanaged<Start>.fromOpaque(start).release()
            throw SystemCallError(call: "pthread_create", errno: result)
        }
    }

    /// Names the calling thread through /proc/thread-self/comm (what
    /// `pthread_setname_np` does; Glibc's module does not declare it). A thread
    /// left unnamed still runs.
    private static func nameThisThread(_ name: String) {
        guard let fd = try? Syscall.open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC) else { return }
        defer { try? Syscall.close(fd) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { try? Syscall.write(fd, $0) }
    }
}
