import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of every URLSession an SDK opens
/// (``ServerTrustEvaluator/urlSessionDelegate``): server-trust challenges
/// go to the pinning decision (on Apple platforms, through the adapter
/// `ServerTrustChallenge`; swift-corelibs URLSession asks none), and every
/// redirect to ``ServerTrustEvaluator/allowsRedirect(from:to:)``. A refused
/// redirect is not followed: URLSession hands the 3xx answer back, and
/// ``CertificatePinningTransport`` throws the refusal the evaluator
/// recorded. URLSession calls the session's delegate for both on Apple
/// platforms and on Linux, also for tasks made with a completion handler
/// or with a task delegate of their own that does not answer them.
final class VerifyingSessionDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    let evaluator: ServerTrustEvaluator
    /// Whether its session is one ``ServerTrustEvaluator/openSessions`` counts.
    let countsSession: Bool

    init(evaluator: ServerTrustEvaluator, countsSession: Bool = false) {
        self.evaluator = evaluator
        self.countsSession = countsSession
    }

    func urlSession(
        _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        Self.answer(challenge, evaluator: evaluator, completionHandler: completionHandler)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        Self.answerRedirect(response, task: task, newRequest: request, evaluator: evaluator, completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        if countsSession { evaluator.sessionBecameInvalid() }
    }

    /// A server-trust challenge's answer (on Apple platforms; elsewhere the
    /// platform's default, which swift-corelibs URLSession never asks for).
    static func answer(
        _ challenge: URLAuthenticationChallenge, evaluator: ServerTrustEvaluator,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(Security)
        ServerTrustChallenge.answer(challenge, evaluator: evaluator, completionHandler: completionHandler)
        #else
        completionHandler(.performDefaultHandling, nil)
        #endif
    }

    /// A redirect's answer: the new request when `evaluator` allows it, nil
    /// (the 3xx answer is handed back) when it does not.
    static func answerRedirect(
        _ response: HTTPURLResponse, task: URLSessionTask, newRequest request: URLRequest, evaluator: ServerTrustEvaluator,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let from = response.url ?? task.currentRequest?.url, let to = request.url, evaluator.allowsRedirect(from: from, to: to) else {
            completionHandler(nil)
            return
        }
        completionHandler(request)
    }
}
