import Foundation

/// Decodes the JSON bodies of responses into generated types.
///
/// It reads what Foundation's `JSONDecoder` configured by
/// ``JSONCoding/makeDecoder()`` reads, with the same results and the same
/// errors (coding paths included), and is faster on the bodies generated
/// clients receive: the document is scanned once into a flat table, a keyed
/// container finds a key by comparing bytes from where the previous lookup
/// ended instead of building a dictionary of the object, and scalars are
/// read straight from the bytes. `Date` follows ``JSONCoding``'s RFC 3339
/// rules, `Data` is Base64, `URL` is a string. A number that does not fit
/// its type is reported at its field (Foundation's decoder on Linux reports
/// it as invalid JSON, without a path).
struct ResponseJSONDecoder {
    /// Decodes `type` from `data`.
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let tape: JSONTape
        do {
            tape = try JSONTape(data)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "The given data was not valid JSON: \(error).", underlyingError: error))
        }
        return try TapeDecoder(tape: tape).decode(T.self, at: 0, depth: 0, extra: [], key: nil)
    }
}
