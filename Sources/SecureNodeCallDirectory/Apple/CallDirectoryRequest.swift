#if canImport(CallKit)
import CallKit
import Foundation

// ios-check: with ../CallDirectoryContext.swift
// ios-check: with ../CallDirectoryLoader.swift
// ios-check: with ../CallDirectoryLoadReport.swift
// ios-check: with ../CallDirectoryLoadError.swift
// ios-check: with ../CallDirectoryLoadMode.swift
// ios-check: with ../CallDirectoryLoadState.swift
// ios-check: with ../CallDirectoryAttempt.swift
// ios-check: with ../CallDirectoryFolder.swift
// ios-check: with ../CallDirectorySharedFile.swift
// ios-check: with ../CallDirectoryFingerprint.swift
// ios-check: with ../CallDirectoryFormatError.swift
// ios-check: with ../CallDirectoryPhoneNumber.swift
// ios-check: with ../CallDirectoryLineReader.swift
// ios-check: with ../CallDirectorySnapshotReader.swift
// ios-check: with ../CallDirectorySnapshotFormat.swift
// ios-check: with ../CallDirectoryChangesFormat.swift
// ios-check: with ../CallDirectoryChangesReader.swift

/// The Call Directory extension, ready-made: make it the extension's
/// principal class (`NSExtensionPrincipalClass` in its Info.plist, or a
/// subclass of it) and it hands iOS the SecureNode SDK's snapshot, or only
/// what changed since the load iOS holds (``CallDirectoryLoader``).
///
/// ```swift
/// import SecureNodeCallDirectory
///
/// final class CallDirectoryHandler: SecureNodeCallDirectoryProvider {
///     override var appGroupIdentifier: String? { "group.com.customer.app.securenode" }
/// }
/// ```
///
/// An Apple adapter: this file imports only Foundation and CallKit, so
/// `make ios-check` type-checks it for iOS on its own (with the files it
/// names above). Not `Sendable`: iOS creates it and calls it on one thread
/// per request.
open class SecureNodeCallDirectoryProvider: CXCallDirectoryProvider, CXCallDirectoryExtensionContextDelegate {
    /// The App Group the host app and this extension share (the
    /// `appGroupId` given to `SecureNode.configure`). By default the
    /// string `SecureNodeAppGroup` of the extension's Info.plist; override
    /// to name it in code.
    open var appGroupIdentifier: String? {
        Bundle.main.object(forInfoDictionaryKey: "SecureNodeAppGroup") as? String
    }

    /// The folder of the SDK's shared files: `SecureNode/CallDirectory` in
    /// the App Group's container. Override when the host app gives the SDK
    /// a folder of its own (`<folder>/CallDirectory`).
    open var sharedFolder: URL? {
        guard let group = appGroupIdentifier, let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group) else {
            return nil
        }
        return CallDirectoryFolder(appGroupContainer: container).url
    }

    /// Handles the request: the changes or the complete list, then
    /// `completeRequest`; `cancelRequest` when a file fails its check or
    /// the shared folder cannot be reached.
    open override func beginRequest(with context: CXCallDirectoryExtensionContext) {
        context.delegate = self
        guard let folder = sharedFolder else {
            context.cancelRequest(withError: CallDirectoryLoadError.noSharedFolder(appGroup: appGroupIdentifier))
            return
        }
        CallDirectoryLoader.handleRequest(context, in: folder)
    }

    /// iOS reports the request failed: recorded, so the host confirms nothing for it.
    open func requestFailed(for extensionContext: CXCallDirectoryExtensionContext, withError error: any Error) {
        guard let folder = sharedFolder else { return }
        CallDirectoryLoader.requestFailed(in: folder)
    }
}

/// CallKit's request context as the loader reaches it.
extension CXCallDirectoryExtensionContext: CallDirectoryContext {
    /// `addIdentificationEntry(withNextSequentialPhoneNumber:label:)`.
    public func addEntry(_ number: CallDirectoryPhoneNumber, label: String) {
        addIdentificationEntry(withNextSequentialPhoneNumber: number, label: label)
    }

    /// `removeIdentificationEntry(withPhoneNumber:)`.
    public func removeEntry(_ number: CallDirectoryPhoneNumber) {
        removeIdentificationEntry(withPhoneNumber: number)
    }

    /// `removeAllIdentificationEntries()`.
    public func removeAllEntries() {
        removeAllIdentificationEntries()
    }

    /// `completeRequest(completionHandler:)`.
    public func complete(_ completion: @escaping @Sendable (_ expired: Bool) -> Void) {
        completeRequest(completionHandler: completion)
    }

    /// `cancelRequest(withError:)`.
    public func cancel(with error: any Error) {
        cancelRequest(withError: error)
    }
}
#endif
