import Foundation

/// What the extension hands iOS in one request: CallKit's
/// `CXCallDirectoryExtensionContext` (the Apple adapter), or a test's
/// recording context. An implementation that stands for iOS enforces
/// CallKit's rules, which ``CallDirectoryLoader`` keeps:
///
/// 1. Additions come in strictly ascending order within a request; a
///    number out of order, or twice, fails the request.
/// 2. In an incremental request iOS still holds the last load: adding a
///    number it holds, or removing one it does not, fails the request
///    (to change a label, remove the number, then add it).
/// 3. A request that is not incremental starts from nothing: it only adds.
/// 4. A request ends with ``complete(_:)`` (iOS keeps what it was handed,
///    unless the request expired) or ``cancel(with:)`` (iOS discards it).
public protocol CallDirectoryContext {
    /// Whether iOS still holds the last load and takes changes to it
    /// (`CXCallDirectoryExtensionContext.isIncremental`); read at the start.
    var isIncremental: Bool { get }
    /// Adds `number` with `label`, after every number added before in this request.
    func addEntry(_ number: CallDirectoryPhoneNumber, label: String)
    /// Removes `number` (incremental requests only).
    func removeEntry(_ number: CallDirectoryPhoneNumber)
    /// Removes every number (incremental requests only).
    func removeAllEntries()
    /// Ends the request; `completion` says whether it expired (iOS then discards it).
    func complete(_ completion: @escaping @Sendable (_ expired: Bool) -> Void)
    /// Ends the request with `error`: iOS discards everything handed in it.
    func cancel(with error: any Error)
}
