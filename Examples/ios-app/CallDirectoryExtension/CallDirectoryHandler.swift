import SecureNodeCallDirectory

/// The extension's principal class (`NSExtensionPrincipalClass` in its
/// Info.plist): SecureNode's provider loads the App Group's snapshot into
/// iOS, only the changes when iOS holds the last one, ascending as CallKit
/// requires. The App Group comes from the Info.plist's `SecureNodeAppGroup`.
final class CallDirectoryHandler: SecureNodeCallDirectoryProvider {}
