// SPDX-License-Identifier: MIT
/// A position inside one line of a text trace, read as UTF-8 bytes.
///
/// Trace readers scan bytes by hand rather than splitting strings: the evemu
/// `E:` path must parse millions of events per second without allocating.
struct LineCursor {
    /// The whole file.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Next byte to read.
    var position: Int
    /// End of the line (exclusive; the newline and a trailing CR are outside).
    let end: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        self.bytes = bytes
        self.position = start
        self.end = end
    }

    /// True when nothing but spaces and tabs is left.
    var isAtEndIgnoringSpace: Bool {
        var p = position
        while p < end, bytes[p] == 0x20 || bytes[p] == 0x09 { p += 1 }
        return p == end
    }

    var isAtEnd: Bool { position >= end }

    /// The byte at the cursor, or nil at the end of the line.
    var current: UInt8? { position < end ? bytes[position] : nil }

    /// Skips spaces and tabs; returns how many were skipped.
    @discardableResult
    mutating func skipSpace() -> Int {
        let start = position
        while position < end, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
        return position - start
    }

    /// Consumes `byte` if it is next.
    mutating func consume(_ byte: UInt8) -> Bool {
        guard position < end, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Reads up to `maxDigits` hex digits (at least one); nil if there are none or more.
    mutating func hex(maxDigits: Int) -> UInt64? {
        var value: UInt64 = 0
        var digits = 0
        while position < end {
            let b = bytes[position]
            let d: UInt8
            switch b {
            case 0x30...0x39: d = b &- 0x30
            case 0x61...0x66: d = b &- 0x61 &+ 10
            case 0x41...0x46: d = b &- 0x41 &+ 10
            default: return digits == 0 ? nil : value
            }
            digits += 1
            if digits > maxDigits { return nil }
            value = value << 4 | UInt64(d)
            position += 1
        }
        return digits == 0 ? nil : value
    }

    /// Reads an unsigned decimal of up to `maxDigits` digits; nil if there are none or more.
    mutating func unsignedDecimal(maxDigits: Int = 18) -> UInt64? {
        var value: UInt64 = 0
        var digits = 0
        while position < end {
            let d = bytes[position] &- 0x30
            if d > 9 { break }
            digits += 1
            if digits > maxDigits { return nil }
            value = value &* 10 &+ UInt64(d)
            position += 1
        }
        return digits == 0 ? nil : value
    }

    /// Reads an optionally signed decimal that fits in Int32.
    mutating func int32() -> Int32? {
        let negative = consume(0x2D)
        if !negative { _ = consume(0x2B) }
        guard let magnitude = unsignedDecimal(maxDigits: 11) else { return nil }
        let value = negative ? -Int64(magnitude) : Int64(magnitude)
        guard value >= Int64(Int32.min), value <= Int64(Int32.max) else { return nil }
        return Int32(value)
    }

    /// Reads an optionally signed decimal that fits in Int64 (up to 18 digits).
    mutating func int64() -> Int64? {
        let negative = consume(0x2D)
        guard let magnitude = unsignedDecimal(maxDigits: 18) else { return nil }
        return negative ? -Int64(magnitude) : Int64(magnitude)
    }

    /// The rest of the line as a string, without trailing spaces.
    func rest() -> String {
        var e = end
        while e > position, bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09 { e -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<e]), as: UTF8.self)
    }
}

/// Iterates the lines of a UTF-8 buffer with 1-based numbers.
struct LineScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var next = 0
    private(set) var number = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// One line: its cursor and whether a newline ended it (false only for a
    /// last line cut short, which is how a crash or a truncated copy looks).
    struct Line {
        var cursor: LineCursor
        var number: Int
        var terminated: Bool
    }

    mutating func nextLine() -> Line? {
        guard next < bytes.count else { return nil }
        let start = next
        var p = start
        let count = bytes.count
        while p < count, bytes[p] != 0x0A { p += 1 }
        let terminated = p < count
        next = terminated ? p + 1 : p
        var end = p
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        number += 1
        return Line(cursor: LineCursor(bytes, from: start, to: end), number: number, terminated: terminated)
    }
}

/// Runs `body` over the UTF-8 bytes of `text` without copying when the string is native.
func withUTF8Bytes<R>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    var text = text
    return try text.withUTF8(body)
}
