import Foundation
import RuntimeSupport
import Testing
import Waiting

/// Work held open until the test lets it finish, counting its runs.
final class GatedWork: Sendable {
    private let state = Locked((runs: 0, started: [Int](), open: Set<Int>(), waiting: [Int: CheckedContinuation<Void, Never>]()))

    /// How many runs have started.
    var runs: Int { state.read().runs }

    /// A run: numbered, started, then held until ``release(_:)`` lets it end.
    func run(returning value: String) async -> String {
        let number = state.withLock { state -> Int in
            state.runs += 1
            state.started.append(state.runs)
            return state.runs
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.open.contains(number) { return true }
                state.waiting[number] = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
        return "\(value) #\(number)"
    }

    /// Lets run `number` end (now, or as soon as it starts).
    func release(_ number: Int) {
        state.withLock { state in
            state.open.insert(number)
            return state.waiting.removeValue(forKey: number)
        }?.resume()
    }

    /// Waits until `count` runs have started (under the default hang guard).
    func waitForRuns(_ count: Int) async throws {
        try await waitUntil { self.runs >= count }
    }
}


@Suite(.timeLimit(.minutes(10))) struct SharedRunTests {
    @Test func aCallerWhoAsksWhileARunIsInFlightGetsThatRunsResult() async throws {
        let shared = SharedRun<String>()
        let work = GatedWork()
        let first = Task { try await shared.run(generation: 0) { await work.run(returning: "first") } }
        try await work.waitForRuns(1)
        let second = Task { try await shared.run(generation: 0) { await work.run(returning: "second") } }
        try await waitUntil { shared.waiterCount == 2 }
        work.release(1)
        #expect(try await first.value == "first #1")
        #expect(try await second.value == "first #1", "the second caller joined the first run")
        #expect(work.runs == 1)
        #expect(!shared.isRunning)
    }

    @Test func anAskForANewerGenerationRunsOnceMoreAfterTheRunInFlight() async throws {
        let shared = SharedRun<String>()
        let work = GatedWork()
        let old = Task { try await shared.run(generation: 0) { await work.run(returning: "old") } }
        try await work.waitForRuns(1)
        // Three asks after a change the running one cannot see: one more run for all three.
        let newer = (0..<3).map { _ in Task { try await shared.run(generation: 1) { await work.run(returning: "new") } } }
        try await waitUntil { shared.waiterCount == 4 }
        #expect(work.runs == 1, "the follow-up waits for the run in flight")
        work.release(1)
        #expect(try await old.value == "old #1")
        try await work.waitForRuns(2)
        // An ask for the same generation while the follow-up runs joins it.
        let late = Task { try await shared.run(generation: 1) { await work.run(returning: "late") } }
        try await waitUntil { shared.waiterCount == 4 }
        work.release(2)
        for task in newer { #expect(try await task.value == "new #2") }
        #expect(try await late.value == "new #2")
        #expect(work.runs == 2)
    }

    @Test func aCancelledCallerStopsWaitingAndTheRunGoesOnForTheOthers() async throws {
        let shared = SharedRun<String>()
        let work = GatedWork()
        let cancelled = Task { try await shared.run(generation: 0) { await work.run(returning: "run") } }
        try await work.waitForRuns(1)
        let staying = Task { try await shared.run(generation: 0) { await work.run(returning: "other") } }
        try await waitUntil { shared.waiterCount == 2 }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        work.release(1)
        #expect(try await staying.value == "run #1")
    }

    @Test func aRunNobodyWaitsForIsCancelledAndTheNextAskStartsAnew() async throws {
        let shared = SharedRun<String>()
        let started = Locked(0)
        let only = Task {
            try await shared.run(generation: 0) {
                started.withLock { $0 += 1 }
                // Ends only by cancellation.
                while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
                return "cancelled"
            }
        }
        try await waitUntil { started.read() == 1 }
        only.cancel()
        await #expect(throws: CancellationError.self) { try await only.value }
        try await waitUntil { !shared.isRunning }
        #expect(try await shared.run(generation: 0) { "fresh" } == "fresh")
    }
}
