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
