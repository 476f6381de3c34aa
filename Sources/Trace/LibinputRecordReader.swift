import TouchCore

/// Reads `libinput record` YAML version 1.
enum LibinputRecordReader {
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws -> Recording {
        throw TraceError(.badHeader, file: file, "libinput record YAML is not readable yet")
    }
}
