import Foundation
import Waiting

/// A child's standard output as it grows in its file (``SpawnedProcess``
/// writes it there), read line by line while the child runs, so a test can
/// act at a point of the child's progress (kill it once it reported a
/// record count, say) rather than after a time measured on another run.
///
/// Each look reads only the bytes written since the last one, and the
/// condition is evaluated only when a line was added: a wait costs next to
/// no CPU, which the child (and, in the crash test, a second lane of
/// trials) needs. (Re-reading the whole file every 0.3 ms took about a
/// third of the CPU of the crash test, measured with perf.)
public final class ChildOutput {
    /// The file the child writes.
    public let file: URL
    private var descriptor: Int32 = -1
    private var partial: [UInt8] = []
    private var complete: [Substring] = []
    /// Where each look reads to: allocated once, not at every look.
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Reads `file` (which the child may not have created yet).
    public init(file: URL) { self.file = file }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The complete lines written so far.
    public func lines() -> [Substring] {
        _ = readNewLines()
        return complete
    }

    /// Reads what was appended since the last look; true when it completed a line.
    private func readNewLines() -> Bool {
        if descriptor < 0 {
            descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            if descriptor < 0 { return false }
        }
        while true {
            let count = buffer.withUnsafeMutableBytes { [descriptor] in read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            partial.append(contentsOf: buffer[0..<count])
        }
        // A line is complete once its newline is written.
        var added = false
        while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
            complete.append(Substring(String(decoding: partial[..<newline], as: UTF8.self)))
            partial.removeSubrange(...newline)
            added = true
        }
        return added
    }

    /// Waits until a line satisfies `matches` and returns it; nil when none
    /// did within `limit` (a hang guard for a child that died or stalled,
    /// not a timing: a child that lives reaches its lines whatever the load).
    public func waitForLine(limit: Duration = hangGuard, where matches: (Substring) -> Bool) -> Substring? {
        waitForLines(limit: limit) { $0.contains(where: matches) }?.first(where: matches)
    }

    /// Waits until the lines written so far satisfy `done` and returns them;
    /// nil when they did not within `limit` (a hang guard, as above). Looks
    /// every half millisecond; `done` runs once at first and then whenever a
    /// line was added.
    public func waitForLines(limit: Duration = hangGuard, until done: ([Substring]) -> Bool) -> [Substring]? {
        let deadline = ContinuousClock.now + limit
        _ = readNewLines()
        if done(complete) { return complete }
        while true {
            if readNewLines(), done(complete) { return complete }
            if ContinuousClock.now > deadline { return nil }
            usleep(500)
        }
    }
}

/// How big the repeated experiments are (kill points, events, records):
/// a sample in `make test`, big enough that a broken property still fails
/// it, and the full size in `make test-heavy`, which CI runs
/// (`TEST_SCALE=full`).
public enum ExperimentScale {
    /// Whether this run asks for the full size (`TEST_SCALE=full`).
    public static let isFull = ProcessInfo.processInfo.environment["TEST_SCALE"] == "full"

    /// `full` in a full run, `sample` otherwise.
    public static func pick<Value>(full: Value, sample: Value) -> Value { isFull ? full : sample }
}
