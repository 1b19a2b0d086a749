#if canImport(Network)
import Dispatch
import Network

extension Connectivity {
    /// The system's network path: a reported signal fed by `NWPathMonitor`
    /// (online while the path is satisfied), shared by every SDK of the app.
    public static func systemPath() -> Connectivity { NetworkPathFeed.shared }
}

/// The one path monitor of the process and the signal it feeds.
enum NetworkPathFeed {
    static let shared: Connectivity = {
        let monitor = NWPathMonitor()
        let connectivity = Connectivity(source: .reported, isOnline: true, feed: monitor)
        monitor.pathUpdateHandler = { path in
            let online = path.status == .satisfied
            Task { await connectivity.update(isOnline: online) }
        }
        monitor.start(queue: DispatchQueue(label: "Connectivity.NWPathMonitor"))
        return connectivity
    }()
}
#endif
