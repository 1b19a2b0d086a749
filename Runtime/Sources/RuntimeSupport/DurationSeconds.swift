extension Duration {
    /// The duration in seconds, as a `Double` (`TimeInterval`), for
    /// Foundation's date arithmetic and the APIs that take seconds: the
    /// project's one conversion from a `Duration`.
    package var totalSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in whole milliseconds, rounded to the nearest (log lines).
    package var roundedMilliseconds: Int {
        Int((totalSeconds * 1000).rounded())
    }
}
