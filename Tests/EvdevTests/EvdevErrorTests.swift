import Testing
@testable import Evdev

@Suite struct EvdevErrorTests {
    @Test func missingNodeIsNamed() {
        #expect(throws: EvdevError.self) { _ = try EvdevDevice(path: "/dev/input/event999") }
    }
}
