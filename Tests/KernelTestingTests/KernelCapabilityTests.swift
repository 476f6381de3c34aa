// SPDX-License-Identifier: MIT
import Glibc
import KernelTesting
import Testing

/// The decision behind `.requiresUinput`, on paths whose answer is known
/// whether the tests run as root (the guest) or as a user (a host).
@Suite struct KernelCapabilityTests {
    /// A fresh directory under /tmp, removed with what is in it by the caller.
    private static func scratchDirectory() throws -> String {
        var template = Array("/tmp/touchd-capability-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        let path = try #require(made.map { String(cString: $0) })
        return path
    }

    private static func makeFile(_ path: String, mode: mode_t) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        try #require(fd >= 0)
        close(fd)
        // The umask may have taken bits away; the test needs exactly these.
        try #require(chmod(path, mode) == 0)
    }

    @Test func aMissingPathIsNotWritable() throws {
        let directory = try Self.scratchDirectory()
        defer { rmdir(directory) }
        #expect(!KernelCapability.canOpenForWriting(directory + "/missing"))
    }

    @Test func aDirectoryIsNotWritableEvenForRoot() throws {
        let directory = try Self.scratchDirectory()
        defer { rmdir(directory) }
        // access(W_OK) says yes here: the check must open, not ask access(2).
        #expect(access(directory, W_OK) == 0)
        #expect(!KernelCapability.canOpenForWriting(directory))
    }

    @Test func aFileTheOwnerMayWriteIsWritable() throws {
        let directory = try Self.scratchDirectory()
        let file = directory + "/owned"
        defer { unlink(file); rmdir(directory) }
        try Self.makeFile(file, mode: 0o600)
        #expect(KernelCapability.canOpenForWriting(file))
    }

    @Test func aReadOnlyFileIsWritableOnlyForRoot() throws {
        let directory = try Self.scratchDirectory()
        let file = directory + "/read-only"
        defer { unlink(file); rmdir(directory) }
        try Self.makeFile(file, mode: 0o400)
        // Root passes the mode bits (CAP_DAC_OVERRIDE), as it does for /dev/uinput in the guest.
        #expect(KernelCapability.canOpenForWriting(file) == (geteuid() == 0))
        #expect(KernelCapability.canOpenForWriting(file) == (access(file, W_OK) == 0))
    }

    @Test func openingLeavesTheFileAsItWas() throws {
        let directory = try Self.scratchDirectory()
        let file = directory + "/content"
        defer { unlink(file); rmdir(directory) }
        try Self.makeFile(file, mode: 0o600)
        let fd = open(file, O_WRONLY | O_CLOEXEC)
        #expect(write(fd, "touch", 5) == 5)
        close(fd)
        #expect(KernelCapability.canOpenForWriting(file))
        var st = stat()
        #expect(stat(file, &st) == 0)
        #expect(st.st_size == 5)
    }

    @Test func uinputIsDecidedByOpeningTheNode() {
        #expect(KernelCapability.uinputIsWritable == KernelCapability.canOpenForWriting("/dev/uinput"))
    }
}
