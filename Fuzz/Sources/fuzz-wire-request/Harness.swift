// SPDX-License-Identifier: MIT
import FuzzSupport
import JSON
import Wire

/// libFuzzer entry: the input is one request line (without its newline), as a
/// client sends it. Checks that the JSON parser and request decoder either
/// answer with an error carrying a message, or give a request that the encoder
/// writes back to a line decoding to the same request.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let line = UnsafeRawBufferPointer(start: size > 0 ? data : nil, count: size)
    // The parser on its own, with a depth limit small enough to be reached often.
    do {
        _ = try JSONParser.parse(line, maxDepth: 8)
    } catch {
        if error.offset < 0 || error.offset > size { invariantViolated("parse error offset \(error.offset) outside 0...\(size)") }
    }
    let envelope: RequestEnvelope
    do {
        envelope = try RequestDecoder.decode(line)
    } catch {
        if error.message.isEmpty { invariantViolated("request error \(error.code) without a message") }
        return 0
    }
    let written = envelope.bytes
    let again: RequestEnvelope
    do {
        again = try RequestDecoder.decode(written)
    } catch {
        invariantViolated("an accepted request, written back, is refused: \(error)\n\(String(decoding: written, as: UTF8.self))")
    }
    if again != envelope {
        invariantViolated("request round trip differs:\n\(envelope)\n\(again)")
    }
    return 0
}

/// libFuzzer's start hook: writes the seed corpus when asked (see ``SeedCorpus``).
@_cdecl("LLVMFuzzerInitialize")
package func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    SeedCorpus.writeIfAsked {
        SeedCorpus.exampleRequests.enumerated().map { ("example-\($0.offset)", $0.element) }
    }
    return 0
}
