// SPDX-License-Identifier: MIT
import FuzzSupport
import NIOCore
import NIOEmbedded
import Publisher
import Wire

/// The longest line the harness's decoder accepts: small, so that the limit is
/// crossed often (the daemon's default is far larger).
let maxLineBytes = 48

/// libFuzzer entry: the first byte seeds how the rest is cut into reads (as a
/// socket might deliver it); the rest is the byte stream a client sends. The
/// request framing (RequestFrameDecoder in a ByteToMessageHandler, on an
/// EmbeddedChannel) must give exactly the frames a whole-stream model gives,
/// however the stream is cut; each line then goes through the request decoder.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard size > 0, let data else { return 0 }
    var cutSeed = UInt32(data[0]) &* 2_654_435_761 | 1
    let stream = UnsafeBufferPointer(start: data + 1, count: size - 1)

    let channel = EmbeddedChannel(handler: ByteToMessageHandler(RequestFrameDecoder(maxLineBytes: maxLineBytes)))
    var frames: [RequestFrame] = []
    func drain() {
        while let frame = try? channel.readInbound(as: RequestFrame.self) { frames.append(frame) }
    }
    var start = 0
    while start < stream.count {
        cutSeed ^= cutSeed << 13; cutSeed ^= cutSeed >> 17; cutSeed ^= cutSeed << 5
        let length = min(stream.count - start, 1 + Int(cutSeed % UInt32(2 * maxLineBytes)))
        do {
            try channel.writeInbound(ByteBuffer(bytes: UnsafeBufferPointer(rebasing: stream[start..<(start + length)])))
        } catch {
            invariantViolated("the frame decoder threw: \(error)")
        }
        drain()
        start += length
    }
    _ = try? channel.finish()
    drain()

    let expected = modelFrames(stream)
    if frames != expected {
        invariantViolated("frames differ from the model:\n got \(describe(frames))\nwant \(describe(expected))")
    }
    for case .line(let buffer) in frames {
        _ = try? RequestDecoder.decode(Array(buffer.readableBytesView))
    }
    return 0
}

/// The frames of the whole stream at once: each `\n`-terminated line without
/// its newline and one trailing `\r`, `.tooLong` when that is longer than the
/// limit; an unterminated tail gives `.tooLong` when it cannot fit any more.
func modelFrames(_ stream: UnsafeBufferPointer<UInt8>) -> [RequestFrame] {
    var out: [RequestFrame] = []
    var lineStart = 0
    for (i, b) in stream.enumerated() where b == UInt8(ascii: "\n") {
        var end = i
        if end > lineStart, stream[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        if end - lineStart > maxLineBytes {
            out.append(.tooLong)
        } else {
            out.append(.line(ByteBuffer(bytes: UnsafeBufferPointer(rebasing: stream[lineStart..<end]))))
        }
        lineStart = i + 1
    }
    let tail = stream.count - lineStart
    if tail > maxLineBytes + 1 || (tail == maxLineBytes + 1 && stream[stream.count - 1] != UInt8(ascii: "\r")) {
        out.append(.tooLong)
    }
    return out
}

func describe(_ frames: [RequestFrame]) -> String {
    frames.map { frame in
        switch frame {
        case .tooLong: return "tooLong"
        case .line(let b): return "line(\(b.readableBytes))"
        }
    }.joined(separator: " ")
}

/// libFuzzer's start hook: writes the seed corpus when asked (see ``SeedCorpus``).
@_cdecl("LLVMFuzzerInitialize")
package func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    SeedCorpus.writeIfAsked {
        SeedCorpus.exampleRequests.enumerated().map { i, line in
            ("example-\(i)", [UInt8(truncatingIfNeeded: i)] + line + Array("\r\n".utf8) + line + [0x0A] + line)
        }
    }
    return 0
}
