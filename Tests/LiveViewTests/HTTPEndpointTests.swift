// SPDX-License-Identifier: MIT
import Testing

@testable import LiveView

@Suite struct HTTPEndpointTests {
    @Test func parsesHostAndPort() throws {
        #expect(try HTTPEndpoint(parsing: "127.0.0.1:8080") == HTTPEndpoint(host: "127.0.0.1", port: 8080))
        #expect(try HTTPEndpoint(parsing: "[::1]:0") == HTTPEndpoint(host: "::1", port: 0))
        #expect(try HTTPEndpoint(parsing: "localhost:65535").port == 65535)
        #expect(try HTTPEndpoint(parsing: "[::1]:80").description == "[::1]:80")
    }

    @Test func rejectsMalformedAddresses() {
        for bad in ["8080", ":8080", "127.0.0.1:", "127.0.0.1:70000", "::1:80", "[::1]80", "[::1", "host:port"] {
            #expect(throws: LiveViewError.self, "\(bad)") { try HTTPEndpoint(parsing: bad) }
        }
    }

    @Test func knowsLoopbackFromTheRest() {
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1"] { #expect(HTTPEndpoint(host: host, port: 1).isLoopback, "\(host)") }
        for host in ["0.0.0.0", "192.168.1.2", "::", "example.com", "128.0.0.1", "127.0.0.256", "localhost.evil.example"] {
            #expect(!HTTPEndpoint(host: host, port: 1).isLoopback, "\(host)")
        }
    }

    @Test func hostHeadersAreCheckedForLoopbackNames() {
        #expect(LiveViewHTTPHandler.isLoopbackHost("127.0.0.1:8080"))
        #expect(LiveViewHTTPHandler.isLoopbackHost("localhost"))
        #expect(LiveViewHTTPHandler.isLoopbackHost("[::1]:8080"))
        #expect(LiveViewHTTPHandler.isLoopbackHost(nil))
        #expect(!LiveViewHTTPHandler.isLoopbackHost("evil.example:8080"))
        #expect(!LiveViewHTTPHandler.isLoopbackHost("evil.example"))
    }
}
