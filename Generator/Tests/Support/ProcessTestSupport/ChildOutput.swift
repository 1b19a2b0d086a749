import Foundation

/// A child's standard output as it grows in its file (``SpawnedProcess``
/// writes it there), read line by line while the child runs, so a test can
/// act at a point of the child's progress (kill it once it reported a
/// record count, say) rather than after a time measured on another run.
public struct ChildOutput {
    /// The file the child writes.
    public let file: URL

    /// Reads `file`.
    public init(file: URL) { self.file = file }

    /// The complete lines written so far.
    public func lines() -> [Substring] {
        let text = String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
        // A line is complete once its newline is written.
        guard let end = text.lastIndex(of: "\n") else { return [] }
        return text[..<end].split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// Waits until a line satisfies `matches` and returns it; nil when none
    /// did within `limit` (a hang guard for a child that died or stalled,
    /// not a timing: a child that lives reaches its lines whatever the load).
    public func waitForLine(limit: Duration = .seconds(120), where matches: (Substring) -> Bool) -> Substring? {
        waitForLines(limit: limit) { $0.contains(where: matches) }?.first(where: matches)
    }

    /// Waits until the lines written so far satisfy `done` and returns them;
    /// nil when they did not within `limit` (a hang guard, as above).
    public func waitForLines(limit: Duration = .seconds(120), until done: ([Substring]) -> Bool) -> [Substring]? {
        let deadline = ContinuousClock.now + limit
        while true {
            let written = lines()
            if done(written) { return written }
            if ContinuousClock.now > deadline { return nil }
            usleep(300)
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
