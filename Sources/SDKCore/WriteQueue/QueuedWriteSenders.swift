import ClientRuntime
import Foundation
import OpenAPIRuntime
import Resilience

/// How an SDK sends each kind of write its queue may hold: one closure per
/// queueable operation, decoding the stored payload and calling the
/// generated client (with the stored `Idempotency-Key` where there is one).
///
/// ```swift
/// QueuedWriteSenders<SoulAPI.Client>([
///     "createMood": { client, write in _ = try await client.createMood(body: try write.decodePayload()) },
/// ])
/// ```
package struct QueuedWriteSenders<Client: Sendable>: Sendable {
    /// Sends one stored write.
    package typealias Send = @Sendable (Client, QueuedWrite) async throws -> Void
    /// The senders, by `operationId`.
    package let byOperation: [String: Send]

    /// Creates the table.
    package init(_ byOperation: [String: Send]) {
        self.byOperation = byOperation
    }

    /// Sends `write` and classifies the result (see ``classify(_:)``); a
    /// write of an operation the table lacks is refused with status 0.
    package func send(_ write: QueuedWrite, with client: Client) async -> WriteDeliveryOutcome {
        guard let send = byOperation[write.operationID] else { return .rejected(status: 0) }
        do {
            try await send(client, write)
            return .delivered
        } catch {
            return Self.classify(error)
        }
    }

    /// What a failed send means for the write:
    ///
    /// - never left the device (``NetworkFailure/requestNeverLeft(_:)``, or a
    ///   connection that could not be verified: a refused certificate, a TLS
    ///   failure, a refused redirect), or no session to send it with:
    ///   `WriteDeliveryOutcome/notSent` (it stays queued);
    /// - 408, 429, 503 (the server did not take it): `WriteDeliveryOutcome/deferred`;
    /// - another 4xx: `WriteDeliveryOutcome/rejected(status:)`; a value the
    ///   spec forbids (caught before sending): rejected with status 0;
    /// - anything else (a timeout, a lost connection, a 500, cancellation):
    ///   `WriteDeliveryOutcome/inDoubt`.
    package static func classify(_ error: any Error) -> WriteDeliveryOutcome {
        let cause = (error as? ClientError)?.underlyingError ?? error
        if NetworkFailure.requestNeverLeft(cause) || cause is TokenRefreshError || cause is CertificatePinningError || TLSFailure.matches(cause) {
            return .notSent
        }
        if cause is ConstraintViolation { return .rejected(status: 0) }
        if let status = (cause as? any HTTPStatusError)?.status {
            switch status {
            case 408, 429, 503: return .deferred
            case 400..<500: return .rejected(status: status)
            default: return .inDoubt
            }
        }
        return .inDoubt
    }
}

extension QueuedWrite {
    /// The payload decoded as the operation's input.
    package func decodePayload<Input: Decodable>(as type: Input.Type = Input.self) throws -> Input {
        try JSONCoding.makeDecoder().decode(Input.self, from: payload)
    }
}
