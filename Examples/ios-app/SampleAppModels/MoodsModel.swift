import Foundation
import Soul

/// SOUL's moods: the list, served from the cache with its age when the
/// server cannot be reached, and a new mood, sent or queued offline (SOUL
/// takes a mood sent twice as two, so a mood is queued only when nothing
/// of it reached the server; the SDK decides).
@MainActor
public final class MoodsModel: ScreenModel {
    /// The moods shown.
    public private(set) var moods: [Mood] = [] { didSet { onChange?() } }
    /// How old the list is when it came from the cache (nil: from the server just now).
    public private(set) var cacheAge: Duration? { didSet { onChange?() } }
    /// Moods waiting to be sent.
    public private(set) var pendingCount = 0 { didSet { onChange?() } }
    /// The message of the last failure, for the user.
    public private(set) var message: String? { didSet { onChange?() } }
    /// Whether the last call found the server unreachable (the offline banner).
    public private(set) var isOffline = false { didSet { onChange?() } }
    /// Called after every change of what the screen shows.
    public var onChange: (@MainActor () -> Void)?

    private let soul: Soul
    private let funnel: SoulFunnel?

    /// The moods of `soul`'s signed-in user; `funnel` hears of each call
    /// the server answered (its first after a sign-in ends the funnel).
    public init(soul: Soul, funnel: SoulFunnel? = nil) {
        self.soul = soul
        self.funnel = funnel
    }

    /// Loads the list (from the server, or the cache when it cannot be reached).
    public func load() async {
        do {
            let response = try await soul.listMoods()
            moods = response.value
            if case .cache(let age) = response.source {
                cacheAge = age
                isOffline = true
            } else {
                cacheAge = nil
                isOffline = false
                await funnel?.protectedCallSucceeded()
            }
            message = nil
        } catch {
            show(error)
        }
        pendingCount = await soul.pendingWrites().count
    }

    /// Adds a mood (1 to 10, an optional note): sent now, or queued while offline.
    public func add(score: Int32, note: String?) async {
        do {
            switch try await soul.addMood(score: score, note: note) {
            case .sent(let mood):
                moods.insert(mood, at: 0)
                isOffline = false
                message = nil
                await funnel?.protectedCallSucceeded()
            case .queued:
                isOffline = true
                message = "Saved. It will be sent when you are back online."
            }
        } catch {
            show(error)
        }
        pendingCount = await soul.pendingWrites().count
    }

    /// Sends what waits (connectivity came back), then reloads.
    public func retryPending() async {
        _ = await soul.deliverPendingWrites()
        await load()
    }

    private func show(_ error: SoulError) {
        isOffline = error == .offline || error == .unreachable || error == .timeout
        message = error.userMessage
    }
}
