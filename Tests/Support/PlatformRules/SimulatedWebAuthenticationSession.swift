import Foundation
import RuntimeSupport
import Testing

/// `ASWebAuthenticationSession` as iOS runs it, for the tests: the user's
/// part played by the test (``complete(with:)``, ``cancel()``), and each
/// rule an app breaks recorded as a test issue at `sourceLocation`:
///
/// - one session presented at a time: a second `start()` while one is
///   presented returns false, and the app gets nothing back;
/// - only a redirect to the session's callback scheme ends it with a URL
///   (any other navigation stays in the browser);
/// - closing the session is `canceledLogin`: nil for the app.
@MainActor
public final class SimulatedWebAuthenticationSession {
    /// The URLs the app opened, in order.
    public private(set) var opened: [URL] = []
    /// Every rule broken so far (each also recorded as a test issue).
    public private(set) var violations: [String] = []
    private var presented: (scheme: String?, continuation: CheckedContinuation<URL?, Never>)?
    private var waitingForPresentation: [CheckedContinuation<Void, Never>] = []
    private let sourceLocation: SourceLocation

    /// A browser with no session presented.
    public init(sourceLocation: SourceLocation = #_sourceLocation) {
        self.sourceLocation = sourceLocation
    }

    /// Whether a session is presented now.
    public var isPresented: Bool { presented != nil }

    public func authenticate(_ url: URL, callbackScheme: String?) async -> URL? {
        guard presented == nil else {
            record("a second ASWebAuthenticationSession was started while one is presented: start() returns false")
            return nil
        }
        opened.append(url)
        return await withCheckedContinuation { continuation in
            presented = (callbackScheme, continuation)
            let waiting = waitingForPresentation
            waitingForPresentation.removeAll()
            for waiter in waiting { waiter.resume() }
        }
    }

    /// Waits until the app has presented a session.
    public func waitForPresentation() async {
        if presented != nil { return }
        await withCheckedContinuation { waitingForPresentation.append($0) }
    }

    /// The page redirects to `redirect`: the session ends with it when its
    /// scheme is the callback scheme; otherwise the browser stays (the test
    /// broke the app's own contract, recorded).
    public func complete(with redirect: URL) {
        guard let session = presented else {
            record("a redirect with no session presented")
            return
        }
        guard redirect.scheme?.lowercased() == session.scheme?.lowercased() else {
            record("a redirect to \(redirect.scheme ?? "no scheme"), not the callback scheme \(session.scheme ?? "none"): it never reaches the app")
            return
        }
        presented = nil
        session.continuation.resume(returning: redirect)
    }

    /// The user closes the session (`canceledLogin`).
    public func cancel() {
        guard let session = presented else { return }
        presented = nil
        session.continuation.resume(returning: nil)
    }

    private func record(_ violation: String) {
        violations.append(violation)
        Issue.record(Comment(rawValue: "ASWebAuthenticationSession: \(violation)"), sourceLocation: sourceLocation)
    }
}
