// SPDX-License-Identifier: MIT
/// Where the live view listens: `127.0.0.1:8080`, `[::1]:8080`, `localhost:0`.
package struct HTTPEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// Host name or address (without brackets).
    package var host: String
    /// TCP port; 0 picks a free one.
    package var port: Int

    /// Creates an endpoint.
    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`; an IPv6 address is written in brackets (`[::1]:8080`).
    package init(parsing text: String) throws(LiveViewError) {
        let hostPart: Substring, portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw LiveViewError("'\(text)': missing ']' after the IPv6 address") }
            hostPart = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw LiveViewError("'\(text)': expected ':PORT' after the address") }
            portPart = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw LiveViewError("'\(text)': expected HOST:PORT, e.g. 127.0.0.1:8080") }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
            if hostPart.contains(":") { throw LiveViewError("'\(text)': write an IPv6 address in brackets, e.g. [::1]:8080") }
        }
        guard !hostPart.isEmpty else { throw LiveViewError("'\(text)': the host is missing (use 127.0.0.1)") }
        guard let port = Int(portPart), (0...65_535).contains(port) else {
            throw LiveViewError("'\(text)': the port must be a number from 0 to 65535")
        }
        self.host = String(hostPart)
        self.port = port
    }

    /// True for `localhost`, 127.0.0.0/8 and `::1`: addresses other machines cannot reach.
    package var isLoopback: Bool {
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { return false }
        return parts[0] == "127"
    }

    /// `host:port`, with brackets around an IPv6 address.
    package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Why the live view cannot start or serve.
package struct LiveViewError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    package var message: String
    /// Creates an error.
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
