import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URLSession an SDK's transport made for itself, invalidated when the
/// transport's last copy goes: URLSession keeps its delegate (and on iOS
/// itself, with its connections) until it is invalidated, so a session
/// never invalidated lives as long as the app, one more each time an app
/// makes an SDK object again. `finishTasksAndInvalidate` lets a request
/// still running end first.
final class OwnedURLSession: Sendable {
    /// The session.
    let session: URLSession

    init(_ session: URLSession) {
        self.session = session
    }

    deinit {
        session.finishTasksAndInvalidate()
    }
}
