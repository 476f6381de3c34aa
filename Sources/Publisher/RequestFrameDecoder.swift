// SPDX-License-Identifier: MIT
import NIOCore

/// One framed request line, or the news that a line was too long.
package enum RequestFrame: Sendable, Equatable {
    /// A complete line without its `\n` (and without a trailing `\r`).
    case line(ByteBuffer)
    /// A line passed the length limit; its bytes up to the next newline are skipped.
    case tooLong
}

/// Splits the inbound byte stream into lines at `\n`, enforcing a maximum
/// length without buffering more than that: once a line passes the limit,
/// `.tooLong` is emitted at once and the rest of the line is discarded as it arrives.
package struct RequestFrameDecoder: ByteToMessageDecoder {
    package typealias InboundOut = RequestFrame

    /// Longest accepted line, newline excluded.
    package let maxLineBytes: Int
    private var discarding = false
    // Bytes at the front of the buffer already searched for a newline.
    private var scanned = 0

    /// Creates a decoder.
    package init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    package mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        let searchStart = view.index(view.startIndex, offsetBy: scanned)
        guard let newline = view[searchStart...].firstIndex(of: UInt8(ascii: "\n")) else {
            if discarding {
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
                scanned = 0
            } else if view.count > maxLineBytes + 1
                || (view.count == maxLineBytes + 1 && view.last != UInt8(ascii: "\r")) {
                // One byte past the limit may be the `\r` of a `\r\n` whose `\n` is in the next read:
                // the line is too long only if it is, however the stream is cut (found by fuzz-request-frames).
                discarding = true
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
                scanned = 0
                context.fireChannelRead(Self.wrapInboundOut(.tooLong))
            } else {
                scanned = view.count
            }
            return .needMoreData
        }
        let length = view.distance(from: view.startIndex, to: newline)
        scanned = 0
        if discarding {
            discarding = false
            buffer.moveReaderIndex(forwardBy: length + 1)
            return .continue
        }
        var lineLength = length
        if lineLength > 0, view[view.index(before: newline)] == UInt8(ascii: "\r") { lineLength -= 1 }
        guard lineLength <= maxLineBytes else {
            buffer.moveReaderIndex(forwardBy: length + 1)
            context.fireChannelRead(Self.wrapInboundOut(.tooLong))
            return .continue
        }
        let line = buffer.getSlice(at: buffer.readerIndex, length: lineLength)!
        buffer.moveReaderIndex(forwardBy: length + 1)
        context.fireChannelRead(Self.wrapInboundOut(.line(line)))
        return .continue
    }

    package mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        // Complete lines still count; an unterminated last line is dropped.
        while try decode(context: context, buffer: &buffer) == .continue {}
        buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        return .needMoreData
    }
}
