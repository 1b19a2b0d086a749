import ContractCheck

/// What a backend does beyond answering with its spec's examples: the state
/// its document describes (sign-in, tokens, datasets, recorded events).
///
/// The sandbox hands a behaviour only requests its contract check allowed;
/// a test double may hand it any request. The answers follow the backend's
/// document, including its error bodies.
public protocol SandboxBehaviour: Sendable {
    /// The answer to a request on a path the spec does not list but the
    /// backend serves (an OAuth authorization page); nil for every other
    /// path. Asked before the contract check.
    func respondOutsideSpec(to request: ContractRequest) -> SandboxReply?
    /// The answer to `request` (its path relative to the backend, the
    /// spec's `paths` keys); nil lets the sandbox answer with the spec's
    /// documented example.
    func respond(to request: ContractRequest) -> SandboxReply?
    /// Makes the access token `request` carries expired, as if its lifetime
    /// had run out (the expired-token fault); false when it carries no token
    /// this backend issued.
    func expireToken(of request: ContractRequest) -> Bool
    /// What the backend holds and has applied, for `GET /_sandbox/requests`
    /// (a JSON object: numbers, strings, arrays and objects of them).
    func summary() -> [String: Any]
    /// The refusal of a credential of the right shape that this backend
    /// does not accept (a key it was not given, a token it did not issue
    /// or that has expired), in the backend's own error body; nil accepts
    /// it. Asked before the request's other rules are judged, as a real
    /// server's authentication runs before its validation.
    func refuseCredential(of request: ContractRequest) -> SandboxReply?
    /// The backend's documented error body for a request the sandbox
    /// refuses: `status` (400, 401, 404, 405), `message` in words, and each
    /// broken rule; nil lets the sandbox use the spec's documented example
    /// for that status.
    func errorReply(status: Int, message: String, violations: [ContractViolation]) -> SandboxReply?
}

extension SandboxBehaviour {
    /// No paths outside the spec.
    public func respondOutsideSpec(to request: ContractRequest) -> SandboxReply? { nil }
    /// No tokens to expire.
    public func expireToken(of request: ContractRequest) -> Bool { false }
    /// Every credential of the right shape is accepted.
    public func refuseCredential(of request: ContractRequest) -> SandboxReply? { nil }
    /// The spec's documented example answers.
    public func errorReply(status: Int, message: String, violations: [ContractViolation]) -> SandboxReply? { nil }
}
