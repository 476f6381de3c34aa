import TouchCore

/// Reads touchd's own JSON-lines trace (docs/trace-format.md).
enum NativeTraceReader {
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws -> Recording {
        throw TraceError(.badHeader, file: file, "native traces are not readable yet")
    }
}
