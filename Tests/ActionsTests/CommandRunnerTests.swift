// SPDX-License-Identifier: MIT
import Actions
import Foundation
import Testing

/// Collects log lines and outcomes from the runner's threads; outcomes also arrive on a
/// stream, so a test waits for the commands to end rather than polling.
final class RunnerRecord: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private var outcomes: [CommandRunner.Outcome] = []
    private let (ended, endedSink) = AsyncStream.makeStream(of: CommandRunner.Outcome.self)
    func log(_ s: String) { lock.lock(); lines.append(s); lock.unlock() }
    func finished(_ o: CommandRunner.Outcome) {
        lock.lock(); outcomes.append(o); lock.unlock()
        endedSink.yield(o)
    }
    var logLines: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    var finishedOutcomes: [CommandRunner.Outcome] { lock.lock(); defer { lock.unlock() }; return outcomes }

    /// Returns once `count` commands have ended (the suite's time limit catches a hang).
    func wait(for count: Int) async {
        var seen = 0
        for await _ in ended {
            seen += 1
            if seen >= count { return }
        }
    }
}

@Suite("Running the agent's commands", .timeLimit(.minutes(1)))
struct CommandRunnerTests {
    func firing(_ argv: [String], env: [String: String] = [:]) -> ActionFiring {
        ActionFiring(binding: 0, command: .argv(argv), environment: env)
    }

    @Test("a hanging command does not hold up the next one; exit statuses are logged")
    func hangingCommandDoesNotBlock() async throws {
        let record = RunnerRecord()
        let runner = CommandRunner(configuration: ActionsConfiguration(maxConcurrent: 2, timeout: 0),
                                   log: { record.log($0) }, finished: { record.finished($0) })
        await runner.submit(firing(["/bin/sleep", "30"]), label: "hang")
        await runner.submit(firing(["/bin/sh", "-c", "exit 3"]), label: "fails")
        await record.wait(for: 1)
        #expect(record.finishedOutcomes.map(\.label) == ["fails"])
        #expect(record.finishedOutcomes[0].status == 3)
        #expect(record.logLines.contains { $0.hasPrefix("fails: exited 3 after") })
        #expect(await runner.runningCount == 1)
    }

    @Test("at most maxConcurrent run; the next waits its turn; beyond maxQueued commands are dropped and logged")
    func boundedConcurrency() async throws {
        let record = RunnerRecord()
        let dir = NSTemporaryDirectory() + "touchd-runner-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let runner = CommandRunner(configuration: ActionsConfiguration(maxConcurrent: 1, maxQueued: 1, timeout: 0),
                                   log: { record.log($0) }, finished: { record.finished($0) })
        // The first waits for a file the test creates; the second queues; the third is dropped.
        await runner.submit(firing(["/bin/sh", "-c", "while [ ! -e \(dir)/go ]; do sleep 0.01; done; echo 1 >> \(dir)/order"]), label: "first")
        await runner.submit(firing(["/bin/sh", "-c", "echo 2 >> \(dir)/order"]), label: "second")
        await runner.submit(firing(["/bin/true"]), label: "third")
        #expect(await runner.dropped == 1)
        #expect(record.logLines.contains { $0.hasPrefix("third: dropped") })
        #expect(await runner.runningCount == 1)
        _ = FileManager.default.createFile(atPath: dir + "/go", contents: nil)
        await record.wait(for: 2)
        #expect(try String(contentsOfFile: dir + "/order", encoding: .utf8) == "1\n2\n")
    }

    @Test("a command over its timeout is stopped, and that is logged")
    func timeout() async throws {
        let record = RunnerRecord()
        let runner = CommandRunner(configuration: ActionsConfiguration(timeout: 0.2), log: { record.log($0) }, finished: { record.finished($0) })
        await runner.submit(firing(["/bin/sleep", "30"]), label: "slow")
        await record.wait(for: 1)
        let o = record.finishedOutcomes[0]
        #expect(o.timedOut && o.status == 128 + SIGTERM && o.milliseconds < 10_000)
        #expect(record.logLines.contains { $0.hasPrefix("slow: stopped after the timeout") })
    }

    @Test("the environment reaches the command; a program without a slash is looked up in PATH; a missing one is reported")
    func environmentAndPath() async throws {
        let record = RunnerRecord()
        let out = NSTemporaryDirectory() + "touchd-runner-env-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let runner = CommandRunner(configuration: ActionsConfiguration(), log: { record.log($0) }, finished: { record.finished($0) })
        await runner.submit(firing(["sh", "-c", "printf %s \"$TOUCHD_RECOGNIZER\" > \(out)"], env: ["TOUCHD_RECOGNIZER": "app-switcher"]), label: "env")
        await runner.submit(firing(["/nonexistent/program"]), label: "missing")
        await record.wait(for: 2)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "app-switcher")
        #expect(record.logLines.contains { $0.hasPrefix("missing: cannot run /nonexistent/program") })
    }
}
