import ClientRuntime
import Foundation
import Resilience

/// What a durable queue does with an item after one attempt to send it:
/// the one failure classifier of the SDKs' queues (SecureNode's billing
/// outbox, MobileTracker's event queue). Their storage differs; what an
/// answer means for a queued item does not.
///
/// | answer | verdict |
/// | --- | --- |
/// | 2xx (even with a body that does not match the spec) | ``delivered`` |
/// | 401, 403 (any body) | ``pause(status:)``: the credentials are refused, every item stays, nothing is sent until they change or the app resumes |
/// | 400, 422 with the server's own error body | ``drop(status:reason:)``: the server stated it will never take the item |
/// | 400, 422 with another body (a proxy's page), 404 and any other 4xx, 408, 429, 5xx | ``retry(notBefore:notFound:)``, never sooner than `Retry-After` (at most ``RetryAfter/longestQueueWait``) |
/// | a stored item that no longer decodes | ``drop(status:reason:)`` with status 0: it can never be sent |
/// | no connection, a timeout, a dropped response, a refused certificate | ``retry(notBefore:notFound:)`` |
package enum DeliveryVerdict: Sendable, Hashable {
    /// The server has it: remove it.
    case delivered
    /// Keep it; try again after the backoff, not before `notBefore` when
    /// the server said so. `notFound`: the answer was a 404 (a wrong path
    /// or mount, counted so it shows instead of emptying the queue).
    case retry(notBefore: Duration?, notFound: Bool)
    /// The server refused the credentials: keep it and pause delivery.
    case pause(status: Int)
    /// The server stated the item is invalid (or it can no longer be
    /// read): remove it and count it. `reason` is the server's error code.
    case drop(status: Int, reason: String)

    /// The verdict on an attempt that threw `error`. `statedReason` reads
    /// the server's own error body from a 400 or 422 (the spec's error
    /// type, or a JSON object for an undocumented status) and returns its
    /// code, nil for a body that is not the server's; `now` dates a
    /// `Retry-After` given as an HTTP date.
    package init(error: any Error, now: Date, statedReason: (any HTTPStatusError) -> String?) {
        if let failure = error as? any HTTPStatusError {
            let notBefore = RetryAfter.queueWait(in: failure.headerFields, now: now)
            switch failure.status {
            case 401, 403:
                self = .pause(status: failure.status)
            case 400, 422:
                guard let reason = statedReason(failure) else { self = .retry(notBefore: notBefore, notFound: false); return }
                self = .drop(status: failure.status, reason: reason)
            default:
                self = .retry(notBefore: notBefore, notFound: failure.status == 404)
            }
            return
        }
        if let decoding = error as? ResponseDecodingError {
            // A 2xx whose body did not match the spec: the server has the item.
            if (200..<300).contains(decoding.status) { self = .delivered; return }
            // Refused credentials, whatever the body says.
            if decoding.status == 401 || decoding.status == 403 { self = .pause(status: decoding.status); return }
            // An error body that is not the server's (a proxy's page): not a statement about the item.
            self = .retry(notBefore: nil, notFound: decoding.status == 404)
            return
        }
        // The stored body no longer decodes: it can never be sent.
        if error is DecodingError { self = .drop(status: 0, reason: "the stored item no longer decodes"); return }
        // No connection, a timeout, a dropped response, a refused
        // certificate: the server may or may not have it; try again.
        self = .retry(notBefore: nil, notFound: false)
    }

    /// Whether `body` is a server's own JSON error (an object), as opposed
    /// to a page some proxy answered with.
    package static func isServerErrorObject(_ body: Data) -> Bool {
        (try? JSONSerialization.jsonObject(with: body)) is [String: Any]
    }
}
