import Foundation

/// What one extension request hands iOS.
public enum CallDirectoryLoadMode: String, Sendable, Hashable, CaseIterable {
    /// A request that is not incremental (iOS starts from nothing): the
    /// complete list.
    case complete
    /// An incremental request whose base is known (the host confirmed the
    /// load iOS holds, and the changes file starts from it): the changes only.
    case incremental
    /// An incremental request whose base is not known (a refused reload,
    /// a load nobody confirmed, no usable changes file): everything
    /// removed, then the complete list.
    case reset
}
