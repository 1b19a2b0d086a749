import ClientRuntime
import Foundation
import Resilience

/// A write that may have reached the server, of an operation the server
/// does not deduplicate: it is not sent again automatically. The app can
/// check with the server (a list call) and repeat it if it did not arrive.
package struct WriteOutcomeUnknownError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The operation.
    package let operationID: String

    /// Creates the error.
    package init(operationID: String) {
        self.operationID = operationID
    }

    /// A readable summary.
    package var description: String { "\(operationID) may or may not have reached the server; it was not sent again" }
}

/// What became of a write that may be queued.
public enum Submission<Value: Sendable>: Sendable {
    /// The server took it and answered with this value.
    case sent(Value)
    /// It is stored and will be sent once the device can reach the server.
    case queued(QueuedWrite)
}

/// The queueable writes of one SDK: its `OfflineWriteQueue`, how to send
/// each kind of write, and the rule that decides between sending, queueing
/// and reporting an unknown outcome.
///
/// A write of an operation marked `x-offline-queue` is queued only when it
/// is known not to have left the device: the device is reported offline,
/// or the send failed before the request went out. A send that ends in
/// doubt is queued again only when the server deduplicates it (the
/// operation is idempotent, or it carries an `Idempotency-Key`); otherwise
/// `WriteOutcomeUnknownError` is thrown. An answer from the server (an
/// error status, a body outside the contract) is thrown as it is.
package struct OfflineWrites<Client: Sendable>: Sendable {
    /// The durable queue.
    package let queue: OfflineWriteQueue
    /// How each kind of queued write is sent.
    package let senders: QueuedWriteSenders<Client>
    let client: Client
    let connectivity: Connectivity?
    let subject: @Sendable () -> String?
    let session: TokenSession?

    /// Wires the queue to the SDK's authenticated client. `subject` is who is
    /// signed in now (writes are sent only under the subject that queued
    /// them); `session`, when there is one, binds each queued write's send
    /// to the sign-in it was checked under, so it never leaves with the
    /// token of a sign-in that replaced it (``TokenSession/boundSignIn``).
    package init(
        queue: OfflineWriteQueue, senders: QueuedWriteSenders<Client>, client: Client, connectivity: Connectivity?, session: TokenSession? = nil,
        subject: @escaping @Sendable () -> String?
    ) {
        self.queue = queue
        self.senders = senders
        self.client = client
        self.connectivity = connectivity
        self.session = session
        self.subject = subject
    }

    /// The signed-in subject's queued writes, oldest first (pending, in
    /// doubt, refused): never another user's.
    package func writesOfSignedInUser() async -> [QueuedWrite] {
        await queue.writes(of: subject())
    }

    /// Sends the queue each time the connectivity given at creation comes
    /// back online, for as long as `owner` (the SDK instance) lives; nothing
    /// when there is no connectivity: then the next call sends it.
    package func deliverWhenOnline(while owner: some AnyObject & Sendable) {
        guard let connectivity else { return }
        let writes = self
        Task { [weak owner] in
            guard let owner else { return }
            await connectivity.whenOnline(while: owner) { _ = await writes.deliverPending() }
        }
    }

    /// Sends the signed-in subject's queued writes when there are any (the
    /// SDKs call it before each call); nil when there were none.
    package func deliverPendingIfAny() async -> WriteDeliveryReport? {
        guard await queue.hasPending(subject: subject()) else { return nil }
        return await deliverPending()
    }

    /// Sends the signed-in subject's queued writes, oldest first. Each send
    /// is bound to the sign-in of the subject that queued the write: the
    /// sign-in is read first, the subject checked after it (a new user's
    /// sign-in changes the subject before its tokens exist), so a write
    /// that passes the check carries its own user's token or none.
    package func deliverPending() async -> WriteDeliveryReport {
        let (client, senders, session, subject) = (client, senders, session, subject)
        return await queue.deliver(subject: subject()) { write in
            let signIn = session?.signInEpoch
            guard subject() == write.subject else { return .notSent }
            return await TokenSession.$boundSignIn.withValue(signIn) { await senders.send(write, with: client) }
        }
    }

    /// Sends the write, or queues it by the rule of the type's
    /// documentation. Older queued writes of the subject are sent first, so
    /// the server sees writes in the order the user made them.
    ///
    /// - Parameters:
    ///   - operation: the generated client's descriptor (must be `x-offline-queue`).
    ///   - payload: the operation's input, JSON-encoded, for the queue.
    ///   - idempotencyKey: the key the request carries, stored with a queued write.
    ///   - send: the call on the generated client.
    package func submit<Value: Sendable>(
        _ operation: OperationDescriptor, payload: Data, idempotencyKey: String? = nil, send: (Client) async throws -> Value
    ) async throws -> Submission<Value> {
        // Only the spec makes a write safe to repeat (`x-idempotent`, or a method idempotent by
        // definition): an `Idempotency-Key` alone is no proof the server deduplicates on it.
        let deduplicated = operation.isIdempotent
        func enqueue() async throws -> Submission<Value> {
            .queued(
                try await queue.enqueue(
                    operationID: operation.id, payload: payload, isIdempotent: deduplicated, idempotencyKey: idempotencyKey, subject: subject()))
        }
        if operation.isOfflineQueueable, let connectivity, await connectivity.isKnownOffline { return try await enqueue() }
        if let report = await deliverPendingIfAny(), operation.isOfflineQueueable, report.stillPending > 0 { return try await enqueue() }
        do {
            return .sent(try await send(client))
        } catch {
            guard operation.isOfflineQueueable else { throw error }
            if NetworkFailure.requestNeverLeft(error) { return try await enqueue() }
            // An answer from the server (any status) is the app's to see;
            // only a transport failure after the request left is in doubt.
            guard NetworkFailure.outcomeUnknown(error) else { throw error }
            if deduplicated { return try await enqueue() }
            throw WriteOutcomeUnknownError(operationID: operation.id)
        }
    }
}
