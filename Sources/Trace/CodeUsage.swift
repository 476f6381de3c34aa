// SPDX-License-Identifier: MIT
import TouchCore

/// Which `(type, code)` pairs a device's events used, with the line of the
/// first use, so that undeclared codes give one warning each, not one per event.
struct CodeUsage {
    // Bit table for types < 32 and codes < 0x300 (KEY_MAX + 1), the common case:
    // one bit test per event.
    private static let codesPerType = 0x300
    private var seen = [UInt64](repeating: 0, count: 32 * codesPerType / 64)
    private var seenRare = Set<UInt32>()
    /// First uses in file order.
    private(set) var firstUses: [(type: EventType, code: UInt16, line: Int)] = []

    /// Notes a use of `type`/`code` on `line`.
    @inline(__always)
    mutating func note(_ type: EventType, _ code: UInt16, line: Int) {
        let t = Int(type.rawValue), c = Int(code)
        if t < 32, c < Self.codesPerType {
            let bit = t * Self.codesPerType + c
            let mask: UInt64 = 1 << UInt64(bit & 63)
            if seen[bit >> 6] & mask != 0 { return }
            seen[bit >> 6] |= mask
        } else {
            let key = UInt32(type.rawValue) << 16 | UInt32(code)
            if !seenRare.insert(key).inserted { return }
        }
        firstUses.append((type, code, line))
    }

    /// One warning per used code that `description` does not declare. EV_SYN
    /// is exempt: kernels never declare SYN_MT_REPORT although protocol-A devices send it.
    func warnings(against description: DeviceDescription, device: DeviceID?, file: String) -> [TraceWarning] {
        var result: [TraceWarning] = []
        for use in firstUses where use.type != .syn && !description.supports(use.type, use.code) {
            let who = device.map { "device \($0) (\(description.name))" } ?? "device \"\(description.name)\""
            result.append(TraceWarning(
                file: file, line: use.line,
                message: "event type \(hex2(use.type.rawValue)) code \(hex4(use.code)) is not declared by \(who); events kept"))
        }
        return result
    }
}

/// `0x03`-style hex for messages.
func hex2(_ v: UInt16) -> String { "0x" + hexDigits(UInt64(v), width: 2) }
/// `0x001d`-style hex for messages.
func hex4(_ v: UInt16) -> String { "0x" + hexDigits(UInt64(v), width: 4) }

/// Lower-case hex, zero-padded to `width`.
func hexDigits(_ v: UInt64, width: Int) -> String {
    let s = String(v, radix: 16)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}
