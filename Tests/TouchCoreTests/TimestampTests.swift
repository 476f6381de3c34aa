// SPDX-License-Identifier: MIT
import Testing
import TouchCore

@Suite struct TimestampTests {
    @Test func printsLikeEvemu() {
        #expect(Timestamp(seconds: 12, microseconds: 5).description == "12.000005")
        #expect(Timestamp(microseconds: 1).description == "0.000001")
    }
    @Test func arithmetic() {
        let t = Timestamp(seconds: 1, microseconds: 0)
        #expect(t.adding(milliseconds: 1.5).microseconds == 1_001_500)
        #expect(t.adding(milliseconds: 250).milliseconds(since: t) == 250)
    }
    @Test func codeSetRoundTrip() {
        let s = CodeSet([0x14a, 0, 0x35, 0x2ff])
        #expect(s.codes == [0, 0x35, 0x14a, 0x2ff])
        #expect(s.contains(0x14a) && !s.contains(0x14b))
        var t = CodeSet([0x35, 0, 0x2ff, 0x14a]); t.insert(5); t.remove(5)
        #expect(s == t)
    }
}
