import Foundation
import RuntimeSupport

/// Faults the sandbox injects into answers to valid requests, so an app's
/// retry, backoff and error paths can be exercised on demand. Each share is
/// the probability (0...1) that one request gets that fault; draws come from
/// a generator seeded with ``seed``, so one seed gives one sequence.
public struct FaultPlan: Sendable, Equatable, Codable {
    /// Added to every answer, in milliseconds.
    public var latencyMilliseconds: Int
    /// Share of requests answered 503 instead.
    public var serverErrorShare: Double
    /// Share of requests answered 429 with `Retry-After: rateLimitRetryAfter`.
    public var rateLimitShare: Double
    /// The `Retry-After` seconds of an injected 429.
    public var rateLimitRetryAfter: Int
    /// How many 429s in a row one drawn 429 starts: the requests right
    /// after it are refused too, as a real rate limiter does once a client
    /// is over its budget (1: no burst).
    public var rateLimitBurst: Int
    /// Share of requests answered with the documented status and a body cut
    /// in half (not valid JSON).
    public var malformedBodyShare: Double
    /// Share of requests applied and then left unanswered: the connection
    /// closes, so the client cannot tell whether the server applied it.
    public var droppedResponseShare: Double
    /// Share of requests whose access token the backend treats as expired
    /// (it is expired for good, as if its lifetime had run out), so the
    /// client must refresh; requests without a bearer token are unaffected.
    public var expiredTokenShare: Double
    /// The generator's seed.
    public var seed: UInt64

    /// No faults.
    public static let none = FaultPlan()

    /// Creates a plan; the defaults inject nothing.
    public init(
        latencyMilliseconds: Int = 0, serverErrorShare: Double = 0, rateLimitShare: Double = 0, rateLimitRetryAfter: Int = 1, rateLimitBurst: Int = 1,
        malformedBodyShare: Double = 0, droppedResponseShare: Double = 0, expiredTokenShare: Double = 0, seed: UInt64 = 1
    ) {
        self.latencyMilliseconds = latencyMilliseconds
        self.serverErrorShare = serverErrorShare
        self.rateLimitShare = rateLimitShare
        self.rateLimitRetryAfter = rateLimitRetryAfter
        self.rateLimitBurst = rateLimitBurst
        self.malformedBodyShare = malformedBodyShare
        self.droppedResponseShare = droppedResponseShare
        self.expiredTokenShare = expiredTokenShare
        self.seed = seed
    }

    private enum CodingKeys: String, CodingKey {
        case latencyMilliseconds, serverErrorShare, rateLimitShare, rateLimitRetryAfter, rateLimitBurst, malformedBodyShare, droppedResponseShare, expiredTokenShare, seed
    }

    /// Decodes a plan; a member left out keeps its default (no fault).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = FaultPlan()
        self.init(
            latencyMilliseconds: try container.decodeIfPresent(Int.self, forKey: .latencyMilliseconds) ?? defaults.latencyMilliseconds,
            serverErrorShare: try container.decodeIfPresent(Double.self, forKey: .serverErrorShare) ?? 0,
            rateLimitShare: try container.decodeIfPresent(Double.self, forKey: .rateLimitShare) ?? 0,
            rateLimitRetryAfter: try container.decodeIfPresent(Int.self, forKey: .rateLimitRetryAfter) ?? defaults.rateLimitRetryAfter,
            rateLimitBurst: try container.decodeIfPresent(Int.self, forKey: .rateLimitBurst) ?? defaults.rateLimitBurst,
            malformedBodyShare: try container.decodeIfPresent(Double.self, forKey: .malformedBodyShare) ?? 0,
            droppedResponseShare: try container.decodeIfPresent(Double.self, forKey: .droppedResponseShare) ?? 0,
            expiredTokenShare: try container.decodeIfPresent(Double.self, forKey: .expiredTokenShare) ?? 0,
            seed: try container.decodeIfPresent(UInt64.self, forKey: .seed) ?? defaults.seed)
    }

    /// What is wrong with the plan (a share outside 0...1, a negative
    /// latency or `Retry-After`), or nil.
    public var problem: String? {
        let shares = [
            ("serverErrorShare", serverErrorShare), ("rateLimitShare", rateLimitShare), ("malformedBodyShare", malformedBodyShare),
            ("droppedResponseShare", droppedResponseShare), ("expiredTokenShare", expiredTokenShare),
        ]
        for (name, share) in shares
        where !(0...1).contains(share) {
            return "\(name) must be between 0 and 1"
        }
        if shares.map(\.1).reduce(0, +) > 1 { return "the shares add up to more than 1" }
        if latencyMilliseconds < 0 { return "latencyMilliseconds must not be negative" }
        if rateLimitRetryAfter < 0 { return "rateLimitRetryAfter must not be negative" }
        if rateLimitBurst < 1 { return "rateLimitBurst must be at least 1" }
        return nil
    }

    /// One fault drawn for one request.
    enum Fault: Equatable {
        case none, serverError, rateLimited, malformedBody, droppedResponse, expiredToken
    }

    /// The fault for a draw in 0..<1: the shares, laid end to end.
    func fault(for draw: Double) -> Fault {
        var edge = serverErrorShare
        if draw < edge { return .serverError }
        edge += rateLimitShare
        if draw < edge { return .rateLimited }
        edge += malformedBodyShare
        if draw < edge { return .malformedBody }
        edge += droppedResponseShare
        if draw < edge { return .droppedResponse }
        edge += expiredTokenShare
        if draw < edge { return .expiredToken }
        return .none
    }
}

/// A seeded SplitMix64 stream behind a lock: the draws for injected faults.
final class FaultDraws: @unchecked Sendable {
    // Safe: `generator`, `plan` and `burstLeft` are only read and written while holding `lock`.
    private let lock = NSLock()
    private var generator: SplitMix64
    private var plan: FaultPlan
    /// 429s still owed to the burst a drawn 429 started.
    private var burstLeft = 0

    init(_ plan: FaultPlan) {
        self.plan = plan
        generator = SplitMix64(seed: plan.seed)
    }

    var current: FaultPlan { lock.withLock { plan } }

    /// Replaces the plan and restarts the stream from its seed.
    func replace(with plan: FaultPlan) {
        lock.withLock {
            self.plan = plan
            generator = SplitMix64(seed: plan.seed)
            burstLeft = 0
        }
    }

    /// The plan and the fault for one request: the rest of a 429 burst,
    /// or a fresh draw in 0..<1 laid on the plan's shares.
    func next() -> (FaultPlan, FaultPlan.Fault) {
        lock.withLock {
            let draw = generator.unit()
            if burstLeft > 0 {
                burstLeft -= 1
                return (plan, .rateLimited)
            }
            let fault = plan.fault(for: draw)
            if fault == .rateLimited { burstLeft = plan.rateLimitBurst - 1 }
            return (plan, fault)
        }
    }
}
