#if canImport(Network)
import Dispatch
import Network

/// The system's network path, watched by an `NWPathMonitor` for the life of
/// the process: what ``Connectivity/systemPath()`` is fed by.
///
/// An Apple adapter: this file imports only Dispatch and Network, so
/// `make ios-check` type-checks it for iOS on its own.
enum NetworkPathWatch {
    /// Starts a monitor that reports, on a queue of its own, whether each
    /// new path is usable (`satisfied`), beginning with the current one.
    /// The monitor is never cancelled: its handler holds it, so it lives as
    /// long as the process, and `report` with it.
    static func start(_ report: @escaping @Sendable (_ isOnline: Bool) -> Void) {
        let monitor = NWPathMonitor()
        monitor.pathUpdateHandler = { path in
            withExtendedLifetime(monitor) { report(path.status == .satisfied) }
        }
        monitor.start(queue: DispatchQueue(label: "Connectivity.NWPathMonitor"))
    }
}
#endif
