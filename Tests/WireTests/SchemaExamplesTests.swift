// SPDX-License-Identifier: MIT
import JSON
import Testing
import Wire

#if canImport(Glibc)
import Glibc
#endif

/// The request examples of docs/schemas/examples.jsonl (checked against the
/// JSON Schemas by docs/schemas/validate.py) must get the same verdict from
/// the decoder, so the schemas and the code cannot drift apart silently.
@Suite struct SchemaExamplesTests {
    static let requestSchemas: Set<String> = [
        "subscribe", "unsubscribe", "register", "update", "unregister", "ping", "coalesce", "screens", "focus", "compositor", "drag-surface", "drag-items", "drop-proposal", "frames",
    ]

    private func examples() throws -> [JSONValue] {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        path += "/docs/schemas/examples.jsonl"
        guard let file = fopen(path, "r") else { throw RequestError(.internalError, "cannot open \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        return try bytes.split(separator: UInt8(ascii: "\n")).map { try JSONParser.parse(Array($0)) }
    }

    @Test func everyRequestSchemaIsChecked() throws {
        // A request example is one whose message has an `op`; its schema must be in the list above.
        let schemas = Set(try examples().filter { $0["message"]?["op"] != nil }.compactMap { $0["schema"]?.stringValue })
        #expect(schemas == Self.requestSchemas)
    }

    @Test func decoderAgreesWithTheSchemaExamples() throws {
        let cases = try examples().filter { Self.requestSchemas.contains($0["schema"]?.stringValue ?? "") }
        #expect(cases.count >= 15)
        for c in cases {
            let message = try #require(c["message"])
            let valid = c["valid"] == true
            do {
                let e = try RequestDecoder.decode(message)
                #expect(valid, "decoder accepted an example the schema rejects: \(message.jsonString)")
                #expect(e.request.op == c["schema"]?.stringValue)
            } catch {
                #expect(!valid, "decoder rejected a valid example: \(message.jsonString): \(error)")
            }
        }
    }
}
