/// Where the intervals of ``Signposts`` go: `OSSignposter` on Apple
/// platforms (an Apple adapter; Instruments' os_signpost and Points of
/// Interest tracks show them), a simulated signposter in tests.
package protocol SignpostSink: Sendable {
    /// Begins an interval named `name` for `subsystem`, with `detail` (a
    /// value the code marks public: an operation's id, a kind of sync), and
    /// returns what ends it.
    func beginInterval(_ name: StaticString, subsystem: String, detail: String) -> SignpostInterval
    /// Ends `interval`, which `beginInterval` returned with the same `name`.
    func endInterval(_ name: StaticString, _ interval: SignpostInterval)
}

/// A begun interval: its number in the sink that began it.
package struct SignpostInterval: Sendable, Hashable {
    /// The sink's number for it.
    package let id: UInt64

    /// The interval numbered `id`.
    package init(id: UInt64) { self.id = id }
}
