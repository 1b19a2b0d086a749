import Foundation
import Logging
import MobileTracker
import Resilience

/// A process for the tracker's kill test: it tracks events numbered
/// START..<START+COUNT, printing `tracked N` once `track` returned for event
/// N (the event is then the tracker's to deliver), then waits until the
/// queue is empty and prints `empty`, unless the test kills it first; or
/// prints `failed: ...` and exits 1.
///
/// Usage: tracker-child FOLDER SERVER_URL API_KEY START COUNT
let arguments = CommandLine.arguments
guard arguments.count == 6, let start = Int(arguments[4]), let count = Int(arguments[5]) else {
    FileHandle.standardError.write(Data("usage: tracker-child FOLDER SERVER_URL API_KEY START COUNT\n".utf8))
    exit(2)
}
/// One line, written at once (unbuffered), so the test sees it before a kill.
func report(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
let tracker = MobileTracker(options: .init(
    folder: URL(fileURLWithPath: arguments[1]), logger: Logger(label: "child") { _ in SwiftLogNoOpLogHandler() }, maximumQueuedItems: 100_000,
    // Short waits: the test's server drops responses, it is not overloaded.
    deliveryBackoff: BackoffPolicy(baseDelay: .milliseconds(10), maximumDelay: .milliseconds(100))))
// The test's server drops 30% of its answers, a session's too: the
// session was created but its id never arrived, which initialize reports
// as a network error. An app calls initialize again (at its next launch
// or foreground); so does this process, at once, a bounded number of times.
var attempt = 1
while true {
    do {
        try await tracker.initialize(brandId: "925", config: TrackerConfig(apiUrl: arguments[2], xApiKey: arguments[3]))
        break
    } catch {
        guard case .networkError = error, attempt < 50 else {
            report("failed: initialize: \(error) (attempt \(attempt))")
            exit(1)
        }
        attempt += 1
    }
}
for number in start..<(start + count) {
    await tracker.track(eventName: "KILL_TEST", attributes: ["n": number])
    report("tracked \(number)")
}
while await !tracker.flush(timeout: .seconds(60)) {}
report("empty")
