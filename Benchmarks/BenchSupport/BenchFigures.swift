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
