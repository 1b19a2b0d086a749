import Foundation

/// The changes file: what changed from the snapshot iOS holds (the base) to
/// the current one (the target), for an incremental request. The host
/// writes it with each export when it knows what iOS holds; the extension
/// uses it only when its base is what iOS holds.
///
/// ```
/// securenode-call-directory-changes 1 <base fingerprint> <target fingerprint>
/// -<digits>                 a removal; removals strictly ascending, all before the additions
/// +<digits>\t<label>        an addition; additions strictly ascending
/// end <removals> <additions>
/// ```
///
/// A changed label is a removal and an addition of its number (CallKit
/// refuses to add a number it holds). The first line names both snapshots
/// by their ``CallDirectoryFingerprint``; the last counts the lines, so a
/// file cut short is caught before iOS keeps any of it.
public enum CallDirectoryChangesFormat {
    /// The first word of the first line.
    static let magic = "securenode-call-directory-changes"
    /// The format version this code reads and writes.
    static let version = 1

    /// The first line, with its `\n`.
    static func header(base: CallDirectoryFingerprint, target: CallDirectoryFingerprint) -> String {
        "\(magic) \(version) \(base) \(target)\n"
    }

    /// The base and target a first line names, nil when it is not one.
    static func parseHeader(_ line: ArraySlice<UInt8>) -> (base: CallDirectoryFingerprint, target: CallDirectoryFingerprint)? {
        let words = String(decoding: line, as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false)
        guard words.count == 4, words[0] == magic, words[1] == String(version),
            let base = CallDirectoryFingerprint(hexadecimal: words[2]), let target = CallDirectoryFingerprint(hexadecimal: words[3])
        else { return nil }
        return (base, target)
    }

    /// The last line, with its `\n`.
    static func trailer(removals: Int, additions: Int) -> String {
        "end \(removals) \(additions)\n"
    }

    /// The counts a last line gives, nil when it is not one.
    static func parseTrailer(_ line: ArraySlice<UInt8>) -> (removals: Int, additions: Int)? {
        let words = String(decoding: line, as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false)
        guard words.count == 3, words[0] == "end", let removals = Int(words[1]), let additions = Int(words[2]), removals >= 0, additions >= 0
        else { return nil }
        return (removals, additions)
    }
}
