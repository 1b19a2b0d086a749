import Foundation
import Resilience
import RuntimeSupport

/// An SDK's files of its signed-in user in one folder: the response cache in
/// `cache/` and the queue of writes in `pending-writes/`, both with one
/// ``DataAtRest`` policy, and the rules that leave nothing of one user to
/// the next:
///
/// - ``beginSession(subject:)``, before a sign-in's tokens are stored: the
///   cache and the queue change user first (every other user's cached
///   answers and queued writes deleted), so no request of an earlier user
///   can leave with the new user's token and no answer of theirs is read.
/// - ``endSession(of:keepingWrites:)``, at sign-out and when the session
///   expires: every user's cached answers deleted, and the user's queued
///   writes too unless the app asked to keep them for the same user's next
///   sign-in.
package struct OfflineStorage: Sendable {
    /// The response cache.
    package let cache: ResponseCache
    /// The durable queue of writes made offline.
    package let queue: OfflineWriteQueue

    /// Opens (and creates) both in `folder`, which gets `dataAtRest` as
    /// they do. Throws when the queue's folder cannot be created or read.
    package init(folder: URL, cacheMaximumBytes: Int, now: @escaping @Sendable () -> Date = { Date() }, dataAtRest: DataAtRest = .foregroundOnly) throws {
        try PrivateFile.makeFolder(folder, protection: dataAtRest)
        cache = ResponseCache(
            folder: folder.appendingPathComponent("cache", isDirectory: true), maximumBytes: cacheMaximumBytes, now: now, dataAtRest: dataAtRest)
        queue = try OfflineWriteQueue(folder: folder.appendingPathComponent("pending-writes", isDirectory: true), dataAtRest: dataAtRest, now: now)
    }

    /// `subject` is about to sign in (its tokens are not stored yet): the
    /// cache uses its partition and deletes every other one, and every
    /// queued write that is not its own is deleted.
    package func beginSession(subject: String) async {
        cache.signIn(subject: subject)
        try? await queue.discardAll(except: subject)
    }

    /// What ends with the session (``TokenSession``'s `onEnd`): at once,
    /// the cache leaves the user's partition (nothing of theirs is served
    /// from then on); then ``endSession(of:keepingWrites:)`` for that user,
    /// and `also` with when the session ended (the SDK's pending sign-in:
    /// one started before then is the ended user's).
    package func sessionEndHandler(keepingWrites: Bool, also: @escaping @Sendable (SessionEnd, Date) async -> Void) -> SessionEndHandler {
        let cache = self.cache
        let now = cache.now
        let ended = Locked<(subject: String?, at: Date)>((nil, now()))
        return SessionEndHandler(
            immediately: { _ in
                ended.withLock { $0 = (cache.subject, now()) }
                cache.signOut()
            },
            afterwards: { end in
                let (subject, at) = ended.read()
                await endSession(of: subject, keepingWrites: keepingWrites)
                await also(end, at)
            })
    }

    /// The session ended (sign-out or expiry) for `subject` (the cache's,
    /// read before it changes): every user's cached answers are deleted,
    /// and the subject's queued writes too unless `keepingWrites` (then
    /// they wait, bound to the subject, for its next sign-in; another
    /// user's sign-in deletes them).
    package func endSession(of subject: String?, keepingWrites: Bool) async {
        cache.signOut()
        if !keepingWrites { try? await queue.discardAll(subject: subject) }
    }
}
