// SPDX-License-Identifier: MIT
import Glibc
import SystemCalls
import Testing

/// What this test process may ask of the kernel, decided once per run.
package enum KernelCapability {
    /// Whether `/dev/uinput` can be opened for writing: what creating a
    /// virtual input device takes. On an ordinary host the node exists with
    /// mode 0600, so a test run as a user must skip; the `make test-vm` guest
    /// runs the tests as root.
    package static let uinputIsWritable = canOpenForWriting("/dev/uinput")

    /// Whether `path` opens write-only: false when it is missing, a
    /// directory, or not writable by this process (root passes the mode
    /// bits, as the kernel lets it). The descriptor is closed at once;
    /// nothing is written or truncated.
    package static func canOpenForWriting(_ path: String) -> Bool {
        // O_NONBLOCK: a FIFO without a reader fails instead of blocking.
        guard let fd = try? Syscall.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC) else { return false }
        try? Syscall.close(fd)
        return true
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when ``KernelCapability/uinputIsWritable``: it
    /// creates uinput devices, which a non-root run on a host cannot (those
    /// tests run as root in the guest: `make test-vm`).
    package static var requiresUinput: Self {
        .enabled(if: KernelCapability.uinputIsWritable, "needs a writable /dev/uinput (run make test-vm)")
    }
}
