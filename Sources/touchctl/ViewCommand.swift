// SPDX-License-Identifier: MIT
import ArgumentParser
import LiveView
import TouchClient

/// `touchctl view`: a live picture of touches and gestures in a browser, fed by the daemon's socket.
struct ViewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Serve a live view of touches and gestures as a local web page.",
        discussion: """
            Connects to the touchd socket, subscribes to touch, gesture and system events, and serves \
            a page at --http that draws them as they happen (Server-Sent Events at /events). Listens on \
            loopback only unless --allow-remote. Prints the page's URL on standard output.
            """
    )

    @Option(help: "The touchd socket.")
    var socket: String = "/run/touchd/touchd.sock"

    @Option(help: "Address to serve the page on, HOST:PORT (port 0 picks a free one).")
    var http: String = "127.0.0.1:8080"

    @Flag(help: "Allow a non-loopback --http address (anyone who can reach it sees every touch).")
    var allowRemote = false

    func validate() throws {
        let endpoint: HTTPEndpoint
        do { endpoint = try HTTPEndpoint(parsing: http) } catch { throw ValidationError("--http " + error.description) }
        if !endpoint.isLoopback && !allowRemote {
            throw ValidationError("--http \(endpoint) is not a loopback address; the live view shows every touch, so add --allow-remote if you mean it")
        }
    }

    func run() async throws {
        let feed = LiveFeed()
        let server: LiveViewServer
        do {
            server = try await LiveViewServer.start(at: try HTTPEndpoint(parsing: http), feed: feed, allowRemote: allowRemote)
        } catch {
            printError("touchctl: \(error)")
            throw ExitCode(69)
        }
        var out = Output()
        out.line(server.url)
        out.flush()
        printError("touchctl view: serving \(server.url), relaying \(socket) (Ctrl-C to stop)")
        // Keep trying until the daemon is there; once connected, the client reconnects by itself.
        var announced = false
        while true {
            let relay = LiveRelay(client: TouchClient(socketPath: socket), feed: feed)
            do {
                try await relay.connectAndSubscribe()
                announced = false
                await relay.pump()
            } catch {
                await relay.client.close()
                if !announced {
                    let message = "cannot connect to \(socket): \(error); retrying every second"
                    printError("touchctl view: " + message)
                    feed.publish(LiveRelay.status(connected: false, message))
                    announced = true
                }
            }
            try await Task.sleep(for: .seconds(1))
        }
    }
}
