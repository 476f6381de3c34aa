// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif

/// Hands the heap memory that glibc's malloc keeps after frees back to the
/// kernel, every ``interval``.
///
/// Why (docs/reliability.md, "Soak"): client queues peak at a few MB on the
/// publisher's event-loop thread (stuck clients, readers behind) and are freed
/// again, but a few live allocations among the freed ones stop that thread's
/// malloc arena from shrinking (glibc only trims an arena's top). In a soak
/// run, the arenas held 8.1 MB for 1.1 MB in use after every client had left,
/// and RSS stayed 7.8 MB above its pre-client value; `malloc_trim(0)` (which
/// also releases free pages inside an arena) gave 4.5 MB back at once.
/// Trimming periodically makes RSS follow what is in use (a soak run trimming
/// every 30 s ended 31.4 MB after its clients left, one without 38.6 MB).
enum HeapTrimming {
    /// Time between two trims.
    static let interval = Duration.seconds(10)

    /// Starts trimming (where the C library has `malloc_trim`); cancel the task to stop.
    static func start() -> Task<Void, Never>? {
        guard let trim = mallocTrim() else { return nil }
        return Task.detached(priority: .background) {
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                _ = trim(0)
            }
        }
    }

    private typealias MallocTrim = @convention(c) (Int) -> Int32

    // malloc.h is not part of Swift's Glibc module: look the function up.
    private static func mallocTrim() -> MallocTrim? {
        #if canImport(Glibc)
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: MallocTrim.self)
        #else
        return nil
        #endif
    }
}
