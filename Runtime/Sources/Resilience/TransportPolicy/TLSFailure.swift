import Foundation
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Recognises a failed TLS handshake in what a transport threw: the server's
/// certificate refused by the system (untrusted, expired, for another
/// host) or the handshake broken off. It is a security failure, never a
/// network one: an interception with a certificate the device does not
/// trust must not read as "offline" (which would serve cached data and
/// queue writes), so ``NetworkFailure`` does not count it and
/// ``CertificatePinningTransport`` turns it into ``CertificatePinningError``
/// (``CertificatePinningError/Reason/systemRefused``).
package enum TLSFailure {
    /// The codes Apple's URLSession reports for a TLS failure.
    static let codes: Set<URLError.Code> = [
        .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
        .serverCertificateHasUnknownRoot, .clientCertificateRejected, .clientCertificateRequired,
    ]

    /// Whether `error` (or the error a `ClientError` wraps) is a TLS failure.
    ///
    /// On Linux, swift-corelibs URLSession (libcurl) reports most of them as
    /// `URLError.unknown` with libcurl's message ("SSL certificate problem:
    /// self-signed certificate", "SSL: no alternative certificate subject
    /// name matches target host name ..."), so the message decides there.
    package static func matches(_ error: any Error) -> Bool {
        let cause = (error as? ClientError)?.underlyingError ?? error
        guard let urlError = cause as? URLError else { return false }
        if codes.contains(urlError.code) { return true }
        guard urlError.code == .unknown else { return false }
        return describesTLS(urlError.localizedDescription) || describesTLS((urlError.userInfo[NSLocalizedDescriptionKey] as? String) ?? "")
    }

    /// Whether libcurl's message is about TLS.
    static func describesTLS(_ message: String) -> Bool {
        message.hasPrefix("SSL") || message.hasPrefix("OpenSSL") || message.contains("TLS") || message.contains("certificate")
    }
}
