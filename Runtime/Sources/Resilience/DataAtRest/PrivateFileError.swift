import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``PrivateFile`` could not be written: the file (a token store's, a
/// key store's, a cache entry's) keeps its old content.
public enum PrivateFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Creating, writing, syncing or renaming the file at `path` failed
    /// with `errno`.
    case cannotWrite(path: String, errno: Int32)

    /// What failed, where and why, and what to look at.
    public var description: String {
        switch self {
        case .cannotWrite(let path, let code):
            "could not write \(path): \(String(cString: strerror(code))) (errno \(code)); the old file is unchanged. "
                + "Check that its folder exists, is writable by the app and has space left."
        }
    }
}
