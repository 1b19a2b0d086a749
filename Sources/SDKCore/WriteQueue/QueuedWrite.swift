import Foundation
import Resilience

/// A write stored by `OfflineWriteQueue`: the operation, its input, and
/// where it stands.
public struct QueuedWrite: Sendable, Hashable, Codable, Identifiable {
    /// Where a queued write stands.
    public enum State: Sendable, Hashable, Codable {
        /// Waiting to be sent.
        case pending
        /// Being sent (stored before the first byte goes out, so a write
        /// found in this state after a relaunch is known to be in doubt).
        case sending
        /// It may or may not have reached the server (a timeout, a
        /// connection lost after the request went out, the app killed while
        /// sending), and the operation is not idempotent: it is never sent
        /// again automatically. The app decides (check, resend, or discard).
        case unknownOutcome
        /// The server refused it (a 4xx other than 401, 408 and 429) with
        /// this status: sending it again would be refused again.
        case rejected(status: Int)

        /// A short label for logs and command-line output: `waiting`,
        /// `outcome_unknown` or `rejected_<status>`.
        public var label: String {
            switch self {
            case .pending, .sending: return "waiting"
            case .unknownOutcome: return "outcome_unknown"
            case .rejected(let status): return "rejected_\(status)"
            }
        }
    }

    /// A unique id (a UUID).
    public let id: String
    /// The `operationId`.
    public let operationID: String
    /// The operation's input as the SDK encoded it (JSON).
    public let payload: Data
    /// Whether the spec says a repeat is applied once (`x-idempotent`, or a
    /// method idempotent by definition): then a send in doubt is sent
    /// again. An `Idempotency-Key` alone does not make it so.
    public let isIdempotent: Bool
    /// The `Idempotency-Key` every send of this write carries, kept across
    /// relaunches.
    public let idempotencyKey: String?
    /// Who queued it: it is only sent while the same subject is signed in.
    public let subject: String?
    /// When it was queued.
    public let enqueuedAt: Date
    /// Where it stands.
    public internal(set) var state: State
    /// How many times a send was tried.
    public internal(set) var attempts: Int
}

/// How one send of a queued write ended, as the SDK classifies it.
package enum WriteDeliveryOutcome: Sendable, Hashable {
    /// The server accepted it.
    case delivered
    /// It never left the device (offline, host unreachable, the session
    /// must be renewed first): try again later.
    case notSent
    /// The server answered that it cannot take it now (429, 503): try again later.
    case deferred
    /// It may have reached the server.
    case inDoubt
    /// The server refused it with this status.
    case rejected(status: Int)
}

/// What a delivery pass did.
public struct WriteDeliveryReport: Sendable, Hashable {
    /// The writes the server accepted, in order.
    public var delivered: [QueuedWrite] = []
    /// The writes now in doubt (``QueuedWrite/State/unknownOutcome``).
    public var inDoubt: [QueuedWrite] = []
    /// The writes the server refused.
    public var rejected: [QueuedWrite] = []
    /// How many are still waiting.
    public var stillPending = 0

    /// Creates an empty report.
    package init() {}
}
