import Foundation

/// The sequential media types: bodies that are a sequence of elements
/// (server-sent events, JSON Lines, JSON Text Sequences), which a generated
/// client reads one element at a time, named as the runtime's
/// `EventStreamFormat` cases.
public enum SequentialMediaType {
    /// `serverSentEvents`, `jsonLines` or `jsonSequence` for a sequential
    /// media type (parameters and case ignored); nil for any other.
    public static func formatCase(of mediaType: String) -> String? {
        let base = mediaType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch base {
        case "text/event-stream": return "serverSentEvents"
        case "application/jsonl", "application/x-ndjson", "application/x-jsonlines", "application/jsonlines": return "jsonLines"
        case "application/json-seq": return "jsonSequence"
        default: return nil
        }
    }
}
