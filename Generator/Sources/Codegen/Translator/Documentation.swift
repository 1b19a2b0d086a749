/// Turns spec prose into doc comment text.
enum Documentation {
    /// Joins `summary`-like and `description`-like texts, dropping empty
    /// ones and one that only repeats another.
    static func text(_ parts: String?...) -> String? {
        var seen: [String] = []
        for part in parts {
            guard let trimmed = part.map(trim), !trimmed.isEmpty, !seen.contains(trimmed) else { continue }
            seen.append(trimmed)
        }
        return seen.isEmpty ? nil : seen.joined(separator: "\n\n")
    }

    /// The text without leading and trailing white space and line breaks.
    static func trim(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }

    /// The first sentence of the first paragraph, on one line (for a
    /// parameter list): `Phone number in E.164 format.` of a longer text.
    static func firstSentence(_ text: String) -> String {
        let paragraph = trim(text).components(separatedBy: "\n\n").first ?? ""
        let line = paragraph.split(whereSeparator: \.isNewline).map { trim(String($0)) }.joined(separator: " ")
        // A period and a space end a sentence, unless they end an abbreviation.
        var searchStart = line.startIndex
        while let end = line.range(of: ". ", range: searchStart..<line.endIndex) {
            let before = line[..<end.lowerBound]
            if !["e.g", "i.e", "vs", "cf", "etc"].contains(where: { before.hasSuffix($0) }) { return String(before) + "." }
            searchStart = end.upperBound
        }
        return line
    }
}
