import Foundation

/// Turns spec prose into doc comment text.
enum Documentation {
    /// Joins `summary`-like and `description`-like texts, dropping empty
    /// ones and one that only repeats another.
    static func text(_ parts: String?...) -> String? {
        var seen: [String] = []
        for part in parts {
            guard let trimmed = part?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty, !seen.contains(trimmed) else { continue }
            seen.append(trimmed)
        }
        return seen.isEmpty ? nil : seen.joined(separator: "\n\n")
    }
}
