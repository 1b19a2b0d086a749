import Foundation

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
    /// Share of requests answered with the documented status and a body cut
    /// in half (not valid JSON).
    public var malformedBodyShare: Double
    /// The generator's seed.
    public var seed: UInt64

    /// No faults.
    public static let none = FaultPlan()

    /// Creates a plan; the defaults inject nothing.
    public init(
        latencyMilliseconds: Int = 0, serverErrorShare: Double = 0, rateLimitShare: Double = 0, rateLimitRetryAfter: Int = 1,
        malformedBodyShare: Double = 0, seed: UInt64 = 1
    ) {
        self.latencyMilliseconds = latencyMilliseconds
        self.serverErrorShare = serverErrorShare
        self.rateLimitShare = rateLimitShare
        self.rateLimitRetryAfter = rateLimitRetryAfter
        self.malformedBodyShare = malformedBodyShare
        self.seed = seed
    }

    /// What is wrong with the plan (a share outside 0...1, a negative
    /// latency or `Retry-After`), or nil.
    public var problem: String? {
        for (name, share) in [("serverErrorShare", serverErrorShare), ("rateLimitShare", rateLimitShare), ("malformedBodyShare", malformedBodyShare)]
        where !(0...1).contains(share) {
            return "\(name) must be between 0 and 1"
        }
        if serverErrorShare + rateLimitShare + malformedBodyShare > 1 { return "the shares add up to more than 1" }
        if latencyMilliseconds < 0 { return "latencyMilliseconds must not be negative" }
        if rateLimitRetryAfter < 0 { return "rateLimitRetryAfter must not be negative" }
        return nil
    }

    /// One fault drawn for one request.
    enum Fault: Equatable {
        case none, serverError, rateLimited, malformedBody
    }

    /// The fault for a draw in 0..<1: the shares, laid end to end.
    func fault(for draw: Double) -> Fault {
        var edge = serverErrorShare
        if draw < edge { return .serverError }
        edge += rateLimitShare
        if draw < edge { return .rateLimited }
        edge += malformedBodyShare
        if draw < edge { return .malformedBody }
        return .none
    }
}

/// A seeded SplitMix64 stream behind a lock: the draws for injected faults.
final class FaultDraws: @unchecked Sendable {
    // Safe: `state` and `plan` are only read and written while holding `lock`.
    private let lock = NSLock()
    private var state: UInt64
    private var plan: FaultPlan

    init(_ plan: FaultPlan) {
        self.plan = plan
        state = plan.seed
    }

    var current: FaultPlan { lock.withLock { plan } }

    /// Replaces the plan and restarts the stream from its seed.
    func replace(with plan: FaultPlan) {
        lock.withLock {
            self.plan = plan
            state = plan.seed
        }
    }

    /// The plan and one draw in 0..<1.
    func next() -> (FaultPlan, Double) {
        lock.withLock {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return (plan, Double(z >> 11) / Double(1 << 53))
        }
    }
}
