import FuzzSupport
import Trace

/// libFuzzer entry: the input is a trace in the evemu format, read with
/// EvemuReader (through TraceReader, format given, so detection never refuses it).
/// Any thrown TraceError is a correct answer; a crash or an accepted trace that
/// does not survive a native round trip is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
    let recording: Recording
    do {
        recording = try TraceReader.read(bytes: bytes, name: "fuzz", format: .evemu)
    } catch let error as TraceError {
        if error.message.isEmpty { invariantViolated("TraceError without a message: \(error.code.rawValue)") }
        return 0
    } catch {
        invariantViolated("TraceReader threw something else than a TraceError: \(error)")
    }
    TraceRoundTrip.check(recording)
    return 0
}

/// libFuzzer's start hook: writes the seed corpus when asked (see ``SeedCorpus``).
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    SeedCorpus.writeIfAsked { SeedCorpus.rawFiles(suffixes: [".desc", ".prop", ".device", ".event", ".evemu"]) + SeedCorpus.converted(to: .evemu) }
    return 0
}
