/// The sequential media types a generated client reads one element at a time.
public enum EventStreamFormat: String, Sendable, Hashable, CaseIterable {
    /// `text/event-stream`: server-sent events (WHATWG HTML, 9.2).
    case serverSentEvents = "text/event-stream"
    /// `application/jsonl` (also `application/x-ndjson` and
    /// `application/x-jsonlines`): one JSON text a line.
    case jsonLines = "application/jsonl"
    /// `application/json-seq`: JSON Text Sequences (RFC 7464).
    case jsonSequence = "application/json-seq"

    /// The format of a media type (parameters and case ignored), nil for
    /// one that is not sequential.
    public init?(mediaType: String) {
        let base = mediaType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch base {
        case "text/event-stream": self = .serverSentEvents
        case "application/jsonl", "application/x-ndjson", "application/x-jsonlines", "application/jsonlines": self = .jsonLines
        case "application/json-seq": self = .jsonSequence
        default: return nil
        }
    }
}
