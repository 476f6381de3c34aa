import Testing
import Wire

@Suite struct JSONWriterTests {
    @Test func nestedStructureGetsCommasRight() {
        var w = JSONWriter()
        w.beginObject()
        w.key("a"); w.int(1)
        w.key("b"); w.beginArray(); w.int(-2); w.string("x"); w.beginObject(); w.endObject(); w.endArray()
        w.key("c"); w.beginObject(); w.key("d"); w.null(); w.key("e"); w.bool(true); w.endObject()
        w.endObject()
        #expect(w.string == #"{"a":1,"b":[-2,"x",{}],"c":{"d":null,"e":true}}"#)
    }

    @Test func numbersAreFixedPointTrimmed() {
        var w = JSONWriter()
        w.beginArray()
        w.number(1352020794.138597, decimals: 6)
        w.number(0.000001, decimals: 6)
        w.number(12.5, decimals: 2)
        w.number(3, decimals: 2)
        w.number(-0.25, decimals: 2)
        w.number(0.1 + 0.2, decimals: 4)
        w.number(.nan, decimals: 2)
        w.endArray()
        #expect(w.string == "[1352020794.138597,0.000001,12.5,3,-0.25,0.3,null]")
    }

    @Test func stringsAreEscaped() {
        var w = JSONWriter()
        w.string("a\"b\\c\nd\u{1}é")
        #expect(w.string == "\"a\\\"b\\\\c\\nd\\u0001é\"")
    }

    @Test func resetKeepsWorking() {
        var w = JSONWriter()
        w.beginObject(); w.key("k"); w.int(1); w.endObject()
        w.reset()
        w.beginObject(); w.key("k"); w.int(2); w.endObject()
        #expect(w.string == #"{"k":2}"#)
    }
}
