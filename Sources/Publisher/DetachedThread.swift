#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
    /// bytes: what `top -H` and /proc/PID/task/*/comm show). Returns 0, or
    /// `pthread_create`'s error number when no thread could be started.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Int32 {
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            DetachedThread.nameThisThread(start.name)
            start.body()
            return nil
        }, start)
        if result != 0 { Unmanaged<Start>.fromOpaque(start).release() }
        return result
    }

    /// Names the calling thread through /proc/thread-self/comm (what
    /// `pthread_setname_np` does; Glibc's module does not declare it). A thread
    /// left unnamed still runs.
    private static func nameThisThread(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
