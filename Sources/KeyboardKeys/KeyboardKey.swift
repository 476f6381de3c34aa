// SPDX-License-Identifier: MIT
/// A keyboard key by its kernel code (`KEY_TAB` = 15), as a uinput keyboard types it.
/// Names are the kernel's (`linux/input-event-codes.h`, table in KeyboardKeyNames.swift).
package struct KeyboardKey: Hashable, Sendable, CustomStringConvertible {
    /// The `EV_KEY` code.
    package let code: UInt16

    /// The key of a code; nil when the code is not a keyboard key (buttons such as `BTN_TOUCH` are not).
    package init?(code: UInt16) {
        guard Self.namesByCode[code] != nil else { return nil }
        self.code = code
    }

    /// The key of a name such as `KEY_LEFTMETA` (case-sensitive, as the kernel spells it); nil when unknown.
    package init?(name: String) {
        guard let code = Self.codesByName[name] else { return nil }
        self.code = code
    }

    /// The kernel's first name for the code (`KEY_LEFTMETA`).
    package var name: String { Self.namesByCode[code] ?? "KEY_\(code)" }
    package var description: String { name }

    /// Every keyboard key code, ascending: what touchd's uinput keyboard declares.
    package static let allCodes: [UInt16] = namesByCode.keys.sorted()

    static let codesByName: [String: UInt16] = {
        var t: [String: UInt16] = [:]
        for (name, code) in namesAndCodes { t[name] = code }
        return t
    }()

    static let namesByCode: [UInt16: String] = {
        var t: [UInt16: String] = [:]
        for (name, code) in namesAndCodes where t[code] == nil { t[code] = name }
        return t
    }()
}
