/// Values `clientgen` never frees. A large spec's loaded model and
/// translated client are hundreds of thousands of small objects; releasing
/// them one by one took about a twentieth of `generate`'s time on the GitHub
/// spec, just before the process exits and the system takes the memory back
/// at once. (Compilers skip that teardown for the same reason.) Only for
/// values a command holds until it ends: with `--config`, memory grows by
/// one model per spec.
enum KeptUntilExit {
    /// Keeps `values` alive for the rest of the process.
    static func keep(_ values: Any...) {
        _ = Unmanaged.passRetained(Box(values))
    }

    private final class Box {
        let values: [Any]

        init(_ values: [Any]) {
            self.values = values
        }
    }
}
