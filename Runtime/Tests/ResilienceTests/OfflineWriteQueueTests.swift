import Foundation
import Resilience
import RuntimeSupport
import SDKCore
import Testing
import Waiting

/// The durable write queue: order, relaunches, and the rule that a write in
/// doubt is never sent twice unless the server deduplicates it.
@Suite struct OfflineWriteQueueTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("writes-\(UUID().uuidString)")

    /// Sends by answering from a script of outcomes, recording what was sent.
    final class ScriptedSender: Sendable {
        let script: Locked<[WriteDeliveryOutcome]>
        let sent = Locked<[String]>([])

        init(_ script: [WriteDeliveryOutcome]) {
            self.script = Locked(script)
        }

        func send(_ write: QueuedWrite) -> WriteDeliveryOutcome {
            sent.withLock { $0.append(String(decoding: write.payload, as: UTF8.self)) }
            return script.withLock { $0.isEmpty ? .delivered : $0.removeFirst() }
        }
    }

    @Test func writesAreSentInOrderAndSurviveARelaunch() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try OfflineWriteQueue(folder: folder)
        for (index, text) in ["first", "second", "third"].enumerated() {
            try await queue.enqueue(
                operationID: "add", payload: Data(text.utf8), isIdempotent: false, subject: "u1", now: Date(timeIntervalSince1970: Double(index)))
        }
        let mode = try FileManager.default.attributesOfItem(
            atPath: folder.appendingPathComponent(try #require(FileManager.default.contentsOfDirectory(atPath: folder.path).first)).path)[.posixPermissions]
        #expect((mode as? NSNumber)?.intValue == 0o600)
        let relaunched = try OfflineWriteQueue(folder: folder)
        let sender = ScriptedSender([.delivered, .notSent])
        let report = await relaunched.deliver(subject: "u1") { sender.send($0) }
        #expect(sender.sent.withLock { $0 } == ["first", "second"], "a write that could not leave stops the pass: order is kept")
        #expect(report.delivered.count == 1 && report.stillPending == 2)
        let again = await relaunched.deliver(subject: "u1") { sender.send($0) }
        #expect(again.delivered.count == 2)
        #expect(sender.sent.withLock { $0 } == ["first", "second", "second", "third"])
        #expect(await relaunched.writes.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aWriteInDoubtIsNeverSentAgainUnlessDeduplicated() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try OfflineWriteQueue(folder: folder)
        try await queue.enqueue(operationID: "mood", payload: Data("mood".utf8), isIdempotent: false, subject: nil)
        try await queue.enqueue(operationID: "update", payload: Data("update".utf8), isIdempotent: true, idempotencyKey: "k-1", subject: nil)
        let sender = ScriptedSender([.inDoubt, .inDoubt])
        let report = await queue.deliver(subject: nil) { sender.send($0) }
        #expect(report.inDoubt.map(\.operationID) == ["mood"])
        #expect(await queue.writes.map(\.state) == [.unknownOutcome, .pending])
        _ = await queue.deliver(subject: nil) { sender.send($0) }
        #expect(sender.sent.withLock { $0 } == ["mood", "update", "update"], "the mood is not resent; the keyed update is")
        #expect(await queue.writes.map(\.state) == [.unknownOutcome])
        try await queue.discard(id: try #require(await queue.writes.first?.id))
        #expect(await queue.writes.isEmpty)
    }

    @Test func aWriteLeftSendingByACrashIsInDoubtAfterTheRelaunch() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try OfflineWriteQueue(folder: folder)
        try await queue.enqueue(operationID: "mood", payload: Data("m".utf8), isIdempotent: false, subject: nil)
        try await queue.enqueue(operationID: "update", payload: Data("u".utf8), isIdempotent: true, idempotencyKey: "k", subject: nil)
        // The app dies during a send: here the sender never returns, and a
        // second queue opens the folder as the next launch would.
        let started = Locked(0)
        let stuck: @Sendable (QueuedWrite) async -> WriteDeliveryOutcome = { _ in
            started.withLock { $0 += 1 }
            return await withUnsafeContinuation { _ in }
        }
        func waitForSend(_ count: Int) async throws {
            try await waitUntil("\(count) sends to start") { started.withLock({ $0 }) >= count }
        }
        Task { _ = await queue.deliver(subject: nil, send: stuck) }
        try await waitForSend(1)
        let second = try OfflineWriteQueue(folder: folder)
        #expect(await second.writes.map(\.state) == [.unknownOutcome, .pending], "the mood may have gone out: never resent")
        Task { _ = await second.deliver(subject: nil, send: stuck) }
        try await waitForSend(2)
        let relaunched = try OfflineWriteQueue(folder: folder)
        #expect(await relaunched.writes.map(\.state) == [.unknownOutcome, .pending], "the keyed update is sent again")
        #expect(await relaunched.writes.last?.idempotencyKey == "k")
    }

    @Test func refusedWritesAreKeptForTheAppAndOnlyTheSubjectsWritesAreSent() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try OfflineWriteQueue(folder: folder)
        try await queue.enqueue(operationID: "mood", payload: Data("alice".utf8), isIdempotent: false, subject: "alice")
        try await queue.enqueue(operationID: "mood", payload: Data("bob".utf8), isIdempotent: false, subject: "bob")
        let sender = ScriptedSender([.rejected(status: 422)])
        let report = await queue.deliver(subject: "bob") { sender.send($0) }
        #expect(sender.sent.withLock { $0 } == ["bob"], "alice's write waits for alice")
        #expect(report.rejected.count == 1)
        #expect(await queue.writes.map(\.state) == [.pending, .rejected(status: 422)])
        let alicePending = await queue.hasPending(subject: "alice")
        let bobPending = await queue.hasPending(subject: "bob")
        #expect(alicePending && !bobPending)
    }

    @Test func concurrentDeliveriesShareOnePass() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try OfflineWriteQueue(folder: folder)
        try await queue.enqueue(operationID: "mood", payload: Data("once".utf8), isIdempotent: false, subject: nil)
        let sender = ScriptedSender([])
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask { _ = await queue.deliver(subject: nil) { write in try? await Task.sleep(for: .milliseconds(20)); return sender.send(write) } }
            }
        }
        #expect(sender.sent.withLock { $0 } == ["once"])
    }

    @Test func failuresAreClassifiedByWhetherTheRequestLeft() {
        #expect(QueuedWriteSenders<Int>.classify(URLError(.cannotConnectToHost)) == .notSent)
        #expect(QueuedWriteSenders<Int>.classify(URLError(.notConnectedToInternet)) == .notSent)
        #expect(QueuedWriteSenders<Int>.classify(DeviceOfflineError(operationID: "x")) == .notSent)
        #expect(QueuedWriteSenders<Int>.classify(URLError(.timedOut)) == .inDoubt)
        #expect(QueuedWriteSenders<Int>.classify(URLError(.networkConnectionLost)) == .inDoubt)
        #expect(QueuedWriteSenders<Int>.classify(CancellationError()) == .inDoubt)
    }
}
