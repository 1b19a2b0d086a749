#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Prints one figure as `make bench` collects them: `BENCH <name> <value> <unit>`.
public func bench(_ name: String, _ value: Double, _ unit: String, decimals: Int = 3) {
    print("BENCH \(name) \(String(format: "%.\(decimals)f", value)) \(unit)")
}

/// The median of `values` (the mean of the middle two for an even count).
public func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// The value at `fraction` (0.5, 0.99) of values already sorted ascending.
public func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

/// A duration in microseconds.
public func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

/// The process's peak resident memory so far, in MB (`getrusage`'s `ru_maxrss`).
public func peakRSSMegabytes() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
    #else
    getrusage(RUSAGE_SELF, &usage)
    return Double(usage.ru_maxrss) / 1_048_576
    #endif
}

/// The CPU time (user and system) the process has used so far, in seconds
/// (`getrusage`): beside a wall time that waits on a disk (fsync), it tells
/// slow code from a slow disk.
public func cpuSeconds() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}
