import OpenAPIRuntime

/// A transport of the app's own that verifies its connections as the SDKs'
/// own transport does: the certificate pins of every host it connects to,
/// the platform's trust evaluation, and no redirect to another host.
///
/// An SDK configured with pins and a transport of the app's own refuses the
/// configuration (``PinningConfigurationError/transportDoesNotEnforcePins(transport:)``)
/// unless the transport conforms and says it enforces those pins: a pinned
/// configuration whose transport silently checks nothing would look safe
/// and be open. ``CertificatePinningTransport`` conforms.
public protocol PinEnforcingTransport: ClientTransport {
    /// Whether every connection this transport makes enforces `pinning`.
    func enforces(_ pinning: CertificatePinning) -> Bool
}
