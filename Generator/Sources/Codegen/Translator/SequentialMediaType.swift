import Foundation

/// The media types a generated client reads one element at a time, named as
/// the runtime's `EventStreamFormat` cases.
enum SequentialMediaType {
    /// `serverSentEvents`, `jsonLines` or `jsonSequence` for a sequential
    /// media type (parameters and case ignored); nil for any other.
    static func formatCase(of mediaType: String) -> String? {
        let base = mediaType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch base {
        case "text/event-stream": return "serverSentEvents"
        case "application/jsonl", "application/x-ndjson", "application/x-jsonlines", "application/jsonlines": return "jsonLines"
        case "application/json-seq": return "jsonSequence"
        default: return nil
        }
    }
}
