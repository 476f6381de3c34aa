// SPDX-License-Identifier: MIT
import FuzzSupport
import Trace

/// libFuzzer entry: the input is a trace read with NativeTraceReader
/// (``TraceRoundTrip/fuzz(_:_:format:)``).
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    TraceRoundTrip.fuzz(data, size, format: .native)
    return 0
}

/// libFuzzer's start hook: writes the seed corpus when asked (see ``SeedCorpus``).
@_cdecl("LLVMFuzzerInitialize")
package func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    SeedCorpus.writeIfAsked { SeedCorpus.converted(to: .native) }
    return 0
}
