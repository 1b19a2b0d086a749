import Foundation
import Resilience

/// Writes an app made while offline, stored durably and sent once
/// connectivity returns, without ever sending twice what the server does not
/// deduplicate.
///
/// - Each write is one 0600 file, written to a temporary name, fsynced and
///   renamed: after a crash a write is there whole or not at all.
/// - Writes are sent in the order they were queued, one at a time; a write
///   that cannot be sent yet (`WriteDeliveryOutcome/notSent`,
///   `WriteDeliveryOutcome/deferred`) stops the pass, so order is kept.
/// - Before a send the write is stored as ``QueuedWrite/State/sending``.
///   If the send ends in doubt (or the app dies during it), a write that is
///   not idempotent becomes ``QueuedWrite/State/unknownOutcome`` and is
///   never sent again automatically; an idempotent one (whose
///   `Idempotency-Key` was stored with it) is sent again with the same key.
/// - A write belongs to the subject (the user) that queued it: it is listed
///   only to that subject (``writes(of:)``), sent only while that subject is
///   signed in (and, through `OfflineWrites`, only with that sign-in's
///   token), and deleted when another subject signs in
///   (``discardAll(except:)``).
/// - The folder and its files get a ``DataAtRest`` policy (by default
///   ``DataAtRest/foregroundOnly``).
/// - One delivery pass runs at a time; a caller arriving during a pass waits
///   for it.
///
/// Used by the SDKs through `OfflineWrites`.
package actor OfflineWriteQueue {
    /// The folder the queue owns.
    package nonisolated let folder: URL
    private var items: [QueuedWrite]
    private var pass: Task<WriteDeliveryReport, Never>?
    /// The wall clock writes are dated by (the SDK's `now`).
    private let now: @Sendable () -> Date

    /// Opens the queue in `folder` (created if missing, with the
    /// `dataAtRest` policy). Writes a previous launch left
    /// ``QueuedWrite/State/sending`` are in doubt: pending again when
    /// idempotent, ``QueuedWrite/State/unknownOutcome`` otherwise. `now`
    /// dates the writes.
    package init(folder: URL, dataAtRest: DataAtRest = .foregroundOnly, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.folder = folder
        self.now = now
        try PrivateFile.makeFolder(folder, protection: dataAtRest)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".write") }.sorted()
        var items: [QueuedWrite] = []
        for name in names {
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)),
                  var item = try? JSONDecoder().decode(QueuedWrite.self, from: data)
            else { continue }
            if item.state == .sending {
                item.state = item.isIdempotent ? .pending : .unknownOutcome
                try PrivateFile.write(JSONEncoder().encode(item), to: folder.appendingPathComponent(name))
            }
            items.append(item)
        }
        self.items = items
    }

    /// Every stored write of every subject, oldest first: pending, in doubt
    /// and refused. An SDK lists ``writes(of:)`` to its user, never this.
    package var writes: [QueuedWrite] { items }

    /// `subject`'s stored writes, oldest first: pending, in doubt and refused.
    package func writes(of subject: String?) -> [QueuedWrite] {
        items.filter { $0.subject == subject }
    }

    /// Whether a write of `subject` waits to be sent.
    package func hasPending(subject: String?) -> Bool {
        items.contains { $0.state == .pending && $0.subject == subject }
    }

    /// Stores a write durably (fsynced before this returns).
    @discardableResult
    package func enqueue(
        operationID: String, payload: Data, isIdempotent: Bool, idempotencyKey: String? = nil, subject: String?, now: Date? = nil
    ) throws -> QueuedWrite {
        let now = now ?? self.now()
        // Files are ordered by their millisecond: each write gets a later one
        // than the last, even when two arrive within the same millisecond.
        let milliseconds = max((now.timeIntervalSince1970 * 1000).rounded(.down), (items.last.map { Self.milliseconds($0.enqueuedAt) } ?? -1) + 1)
        let item = QueuedWrite(
            id: UUID().uuidString.lowercased(), operationID: operationID, payload: payload, isIdempotent: isIdempotent,
            idempotencyKey: idempotencyKey, subject: subject, enqueuedAt: Date(timeIntervalSince1970: milliseconds / 1000), state: .pending,
            attempts: 0)
        try save(item)
        items.append(item)
        return item
    }

    /// Removes a write whatever its state (the app resolved one in doubt,
    /// or gave up on one).
    package func discard(id: String) throws {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return }
        try PrivateFile.remove(url(of: items[index]))
        items.remove(at: index)
    }

    /// Removes `subject`'s write `id` whatever its state; another subject's
    /// write of that id is left alone (false).
    @discardableResult
    package func discard(id: String, of subject: String?) throws -> Bool {
        guard items.contains(where: { $0.id == id && $0.subject == subject }) else { return false }
        try discard(id: id)
        return true
    }

    /// Removes every write of `subject` (a sign-out that drops what the
    /// user left unsent).
    package func discardAll(subject: String?) throws {
        for item in items where item.subject == subject { try discard(id: item.id) }
    }

    /// Removes every write that is not `subject`'s: another user signs in,
    /// and nothing the earlier one left is kept, listed or sent.
    package func discardAll(except subject: String?) throws {
        for item in items where item.subject != subject { try discard(id: item.id) }
    }

    /// Sends `subject`'s pending writes in order with `send`, applying the
    /// rules of the type's documentation; returns what happened. A pass
    /// already running is awaited instead of starting a second one.
    package func deliver(subject: String?, send: @escaping @Sendable (QueuedWrite) async -> WriteDeliveryOutcome) async -> WriteDeliveryReport {
        if let pass { return await pass.value }
        let task = Task { await runPass(subject: subject, send: send) }
        pass = task
        let report = await task.value
        pass = nil
        return report
    }

    private func runPass(subject: String?, send: @Sendable (QueuedWrite) async -> WriteDeliveryOutcome) async -> WriteDeliveryReport {
        var report = WriteDeliveryReport()
        while let index = items.firstIndex(where: { $0.state == .pending && $0.subject == subject }) {
            var item = items[index]
            item.state = .sending
            item.attempts += 1
            guard (try? update(item)) != nil else { break }
            let outcome = await send(item)
            switch outcome {
            case .delivered:
                try? PrivateFile.remove(url(of: item))
                items.removeAll { $0.id == item.id }
                report.delivered.append(item)
                continue
            case .notSent, .deferred:
                item.state = .pending
            case .inDoubt where item.isIdempotent:
                item.state = .pending
            case .inDoubt:
                item.state = .unknownOutcome
                report.inDoubt.append(item)
            case .rejected(let status):
                item.state = .rejected(status: status)
                report.rejected.append(item)
            }
            try? update(item)
            if item.state == .pending { break }
        }
        report.stillPending = items.filter { $0.state == .pending && $0.subject == subject }.count
        return report
    }

    /// Saves a write's new state, unless it was discarded meanwhile (the
    /// actor runs other calls while a send is out): a discarded write stays gone.
    private func update(_ item: QueuedWrite) throws {
        guard let index = items.firstIndex(where: { $0.id == item.id }) else { return }
        try save(item)
        items[index] = item
    }

    private func save(_ item: QueuedWrite) throws {
        // The folder's policy covers the file (inherited on iOS).
        try PrivateFile.write(JSONEncoder().encode(item), to: url(of: item))
    }

    private static func milliseconds(_ date: Date) -> Double {
        (date.timeIntervalSince1970 * 1000).rounded()
    }

    private func url(of item: QueuedWrite) -> URL {
        let milliseconds = String(Int64(Self.milliseconds(item.enqueuedAt)))
        return folder.appendingPathComponent(String(repeating: "0", count: max(0, 15 - milliseconds.count)) + milliseconds + "-" + item.id + ".write")
    }
}
