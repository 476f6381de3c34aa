// SPDX-License-Identifier: MIT
/// Reads a libFuzzer input as a stream of small decisions: each read takes the
/// next bytes, and a read past the end gives zeros, so every input decodes.
package struct FuzzInput {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    /// Wraps the `size` bytes at `data` (libFuzzer's input, valid for the call).
    package init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
    }

    /// True when every byte was read.
    package var isAtEnd: Bool { position >= bytes.count }

    /// The bytes not read yet.
    package var remaining: Int { max(0, bytes.count - position) }

    /// The next byte (0 past the end).
    package mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// The next two bytes, little endian.
    package mutating func uint16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }

    /// The next four bytes, little endian, as a signed value.
    package mutating func int32() -> Int32 {
        Int32(bitPattern: UInt32(uint16()) | UInt32(uint16()) << 16)
    }

    /// A value below `bound` (1...256), from one byte.
    package mutating func below(_ bound: Int) -> Int { Int(byte()) % max(1, bound) }
}

/// Stops the fuzzer with `message`: an invariant does not hold for this input.
///
/// libFuzzer reports the trap as a crash and saves the input.
package func invariantViolated(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError("FUZZ INVARIANT VIOLATED: " + message, file: file, line: line)
}

/// The checkout's root directory (where Package.swift of touchd is).
package let repositoryRoot: String = {
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(4)  // Fuzz/Sources/FuzzSupport/FuzzInput.swift
    return parts.joined(separator: "/")
}()
