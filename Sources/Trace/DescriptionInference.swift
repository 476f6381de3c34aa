// SPDX-License-Identifier: MIT
import TouchCore

/// Builds a device description from events alone, for an events-only evemu
/// file whose description was never published (some Wacom "Pad" recordings).
///
/// The result declares every type and code the events use, each absolute axis
/// with the range the events cover and resolution 0 (unknown), and no input
/// properties; the name is the file name up to its first dot. A warning says
/// that the description was inferred, so nothing pretends to be the real one.
enum DescriptionInference {
    static func infer(from events: [InputEvent], fileStem: String) -> DeviceDescription {
        let name = fileStem.split(separator: ".", maxSplits: 1).first.map(String.init) ?? fileStem
        var description = DeviceDescription(name: name)
        var ranges: [UInt16: (min: Int32, max: Int32)] = [:]
        description.codes[.syn] = CodeSet([EventCode.synReport])
        for e in events {
            description.codes[e.type, default: CodeSet()].insert(e.code)
            if e.type == .abs {
                let r = ranges[e.code] ?? (e.value, e.value)
                ranges[e.code] = (Swift.min(r.min, e.value), Swift.max(r.max, e.value))
            }
        }
        for (code, r) in ranges {
            // A one-value axis still needs a non-empty range for normalisation.
            description.absInfo[code] = AbsInfo(minimum: Swift.min(r.min, 0), maximum: Swift.max(r.max, r.min + 1))
        }
        return description
    }
}
