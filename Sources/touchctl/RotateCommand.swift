// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Dispatch
import SystemCalls
import TouchClient
import TouchCore
import TouchDaemon
import Wire

/// `touchctl rotate`: turns a screen of touchd (its system edges and the
/// mapping of its touchscreen) once, or follows the accelerometer through
/// iio-sensor-proxy's `monitor-sensor`; `--lock`/`--unlock` hold the rotation
/// (docs/system-gestures.md, "Screens that turn").
struct RotateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate",
        abstract: "Turn a touchd screen (0, 90, 180, 270), or follow the accelerometer (--follow-sensor); --lock/--unlock hold it.")

    @Argument(help: "Degrees the picture is turned clockwise on the panel: 0, 90, 180 or 270.")
    var degrees: Int?

    @Option(help: "Socket path.")
    var socket: String = DaemonSettings.defaultSocketPath

    @Option(help: "The screen's name (default: touchd's first screen).")
    var screen: String?

    @Flag(help: "Follow the accelerometer: run monitor-sensor (Debian package iio-sensor-proxy) and send each new orientation.")
    var followSensor = false

    @Option(help: ArgumentHelp("The sensor monitor to run (its output is monitor-sensor's).", valueName: "command"))
    var sensorCommand = "monitor-sensor"

    @Option(help: ArgumentHelp("While this file exists, a follower sends nothing (default: $XDG_RUNTIME_DIR/touchd-rotation.lock).", valueName: "path"))
    var lockFile: String?

    @Flag(help: "Create the lock file: a follower keeps the current rotation.")
    var lock = false

    @Flag(help: "Remove the lock file: a follower sends the panel's orientation again.")
    var unlock = false

    func validate() throws {
        let modes = [degrees != nil, followSensor, lock, unlock].filter { $0 }.count
        guard modes == 1 else { throw ValidationError("give one of: DEGREES, --follow-sensor, --lock, --unlock") }
        if let d = degrees, Rotation(rawValue: d) == nil { throw ValidationError("degrees must be 0, 90, 180 or 270") }
        if (followSensor || lock || unlock) && resolvedLockFile() == nil {
            throw ValidationError("give --lock-file (XDG_RUNTIME_DIR is not set)")
        }
    }

    func resolvedLockFile() -> String? {
        if let lockFile { return lockFile }
        guard let dir = Syscall.environment("XDG_RUNTIME_DIR"), !dir.isEmpty else { return nil }
        return dir + "/touchd-rotation.lock"
    }

    func run() throws {
        if lock || unlock {
            let path = resolvedLockFile()!
            if lock {
                do {
                    try Syscall.close(try Syscall.open(path, O_WRONLY | O_CREAT | O_CLOEXEC, mode: 0o644))
                } catch {
                    printError("touchctl: cannot create \(path): \(error)")
                    throw ExitCode(73)
                }
            } else {
                do {
                    try Syscall.unlink(path)
                } catch where error.errno != ENOENT {
                    printError("touchctl: cannot remove \(path): \(error)")
                    throw ExitCode(73)
                } catch {}
            }
            return
        }
        let socket = self.socket, screen = self.screen, degrees = self.degrees
        let follow = followSensor ? (command: sensorCommand, lockFile: resolvedLockFile()!) : nil
        let done = DispatchSemaphore(value: 0)
        let status = StatusBox()
        Task {
            status.value = await Self.rotate(socket: socket, screen: screen, degrees: degrees, follow: follow)
            done.signal()
        }
        done.wait()
        if status.value != 0 { throw ExitCode(status.value) }
    }

    static func rotate(socket: String, screen: String?, degrees: Int?, follow: (command: String, lockFile: String)?) async -> Int32 {
        guard let client = await connectedClient(socket, reconnect: follow == nil ? nil : ReconnectPolicy()) else {
            return 69
        }
        defer { Task { await client.close() } }
        var name = screen
        if name == nil {
            for await event in client.events {
                if case .hello(let m) = event {
                    name = m["screens"]?.arrayValue?.first?["name"]?.stringValue
                    break
                }
            }
        }
        guard let name else {
            printError("touchctl: touchd lists no screen")
            return 69
        }
        func send(_ degrees: Int) async -> Bool {
            do {
                try await client.send(.screens(ScreenChange(screens: [ScreenUpdate(name: name, rotation: WireRotation(rawValue: degrees))])))
                return true
            } catch {
                printError("touchctl: rotation \(degrees) refused: \(error)")
                return false
            }
        }
        guard let follow else { return await send(degrees ?? 0) ? 0 : 65 }
        return await Self.follow(command: follow.command, lockFile: follow.lockFile, client: client, send: send)
    }

    /// What the follower waits for.
    enum FollowInput: Sendable {
        /// A line of the sensor monitor's output.
        case line(String)
        /// Half a second passed: the lock file is looked at.
        case tick
        /// touchd came back after a restart: the rotation is sent again.
        case reconnected
    }

    /// Runs the sensor monitor and sends what a ``RotationFollower`` decides;
    /// the lock file is looked at with each line and every half second.
    static func follow(command: String, lockFile: String, client: TouchClient, send: (Int) async -> Bool) async -> Int32 {
        let output: CommandOutput
        do {
            output = try CommandOutput(command: command)
        } catch {
            printError("touchctl: cannot run \(command): \(error)")
            return 69
        }
        let (inputs, continuation) = AsyncStream.makeStream(of: FollowInput.self)
        SensorReader.detach {
            while let line = output.nextLine() {
                continuation.yield(.line(line))
            }
            continuation.finish()
        }
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(500))
                continuation.yield(.tick)
            }
        }
        // The client's own events: only `reconnected` matters (and reading them keeps them from piling up).
        let watcher = Task {
            for await event in client.events {
                if case .reconnected = event { continuation.yield(.reconnected) }
            }
        }
        defer {
            ticker.cancel()
            watcher.cancel()
        }
        func isLocked() -> Bool { (try? Syscall.access(lockFile, F_OK)) != nil }
        var follower = RotationFollower(locked: isLocked())
        for await input in inputs {
            var due = follower.setLocked(isLocked())
            switch input {
            case .line(let line): if let r = follower.take(line: line) { due = r }
            case .reconnected: if let r = follower.reconnected() { due = r }
            case .tick: break
            }
            if let r = due, !(await send(r)) { return 65 }
        }
        let status = output.close()
        printError("touchctl: \(command) ended (status \(status))")
        return 69
    }
}

/// A plain thread for a blocking read.
enum SensorReader {
    static func detach(_ body: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async { body() }
    }
}
