#if canImport(Security)
import Foundation
import Security

// ios-check: with ../Pinning/ServerTrustEvaluating.swift
// ios-check: with ../Pinning/PresentedServerTrust.swift

/// Answers a URLSession server-trust challenge with a pinning decision
/// (for `VerifyingSessionDelegate`): the platform's own evaluation first
/// (`SecTrustEvaluateWithError`), then the chain's certificates as DER with
/// that verdict to the plain-Swift decision, whose answer it carries out. A
/// refused connection is cancelled, so no request body or token is sent on it.
///
/// An Apple adapter: this file imports only Foundation and Security, so
/// `make ios-check` type-checks it for iOS on its own (with the two seams
/// named above).
enum ServerTrustChallenge {
    /// The disposition for `challenge`: the platform's default for anything
    /// but a server-trust challenge of a host `evaluator` handles.
    static func answer(
        _ challenge: URLAuthenticationChallenge, evaluator: any ServerTrustEvaluating,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let space = challenge.protectionSpace
        guard space.authenticationMethod == NSURLAuthenticationMethodServerTrust, let trust = space.serverTrust,
            evaluator.handles(host: space.host)
        else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        switch evaluator.decide(presented(trust, host: space.host)) {
        case .performDefaultHandling: completionHandler(.performDefaultHandling, nil)
        case .useServerTrust: completionHandler(.useCredential, URLCredential(trust: trust))
        case .cancel: completionHandler(.cancelAuthenticationChallenge, nil)
        }
    }

    /// The platform's verdict on `trust` and its chain, leaf first, as DER.
    static func presented(_ trust: SecTrust, host: String) -> PresentedServerTrust {
        var error: CFError?
        let trusted = SecTrustEvaluateWithError(trust, &error)
        let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
        return PresentedServerTrust(host: host, certificates: chain.map { SecCertificateCopyData($0) as Data }, platformTrusted: trusted)
    }
}
#endif
