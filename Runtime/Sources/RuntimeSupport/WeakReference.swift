/// A reference that does not keep its object alive: for a closure that must
/// reach an object which, through what it holds, keeps the closure alive
/// (a cycle otherwise, and nothing of either ever freed).
///
/// ```swift
/// let flow = Locked(WeakReference<SignInFlow>())
/// let session = TokenSession(onSessionEnd: { await flow.read().object?.forgetPending() })
/// flow.withLock { $0.object = SignInFlow(session: session) }   // holds the session
/// ```
public struct WeakReference<Object: AnyObject & Sendable>: Sendable {
    /// The object, while something else keeps it.
    public weak var object: Object?

    /// A reference to `object` (none by default).
    public init(_ object: Object? = nil) {
        self.object = object
    }
}
