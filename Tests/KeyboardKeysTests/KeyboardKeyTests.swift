// SPDX-License-Identifier: MIT
import Testing
import KeyboardKeys

/// The kernel's key names (KeyboardKeyNames.swift, generated from linux/input-event-codes.h).
@Suite struct KeyboardKeyTests {
    @Test func namesAndCodesAreTheKernels() throws {
        #expect(KeyboardKey(name: "KEY_TAB")?.code == 15)
        #expect(KeyboardKey(name: "KEY_LEFTMETA")?.code == 125)
        #expect(try #require(KeyboardKey(code: 125)).name == "KEY_LEFTMETA")
    }

    @Test func buttonsAndUnknownNamesAreNotKeys() {
        #expect(KeyboardKey(name: "BTN_TOUCH") == nil)
        #expect(KeyboardKey(code: 0x14a) == nil)  // BTN_TOUCH
        #expect(KeyboardKey(name: "key_tab") == nil)  // the kernel's spelling only
        #expect(KeyboardKey(name: "KEY_NOSUCHKEY") == nil)
    }

    @Test func everyCodeNamesAKeyThatReadsBack() {
        let codes = KeyboardKey.allCodes
        #expect(codes.count > 200)
        #expect(codes == codes.sorted())
        #expect(Set(codes).count == codes.count)
        for code in codes {
            let key = KeyboardKey(code: code)
            #expect(key != nil)
            if let key { #expect(KeyboardKey(name: key.name)?.code == code) }
        }
    }
}
