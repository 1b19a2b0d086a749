import Foundation
import OpenAPIRuntime

/// A request body written from the app's sequence of elements while they
/// are produced: each element is encoded and handed to the transport as it
/// comes, so memory holds one element, however long the stream runs.
///
/// - JSON Lines: each element's JSON text and a line feed.
/// - JSON Text Sequences (RFC 7464): a record separator (0x1E), the JSON
///   text and a line feed.
/// - Server-sent events: each element as one event, its text in `data`
///   fields (one per line of the text) and a blank line.
///
/// The body can be read once: a retry or token-refresh layer sends it as
/// it is and does not repeat the call (`ReplayableBody`).
struct EventStreamBody<Elements: AsyncSequence & Sendable>: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    let elements: Elements
    let format: EventStreamFormat
    /// One element's text: its JSON, or the element itself for a sequence of text.
    let text: @Sendable (Elements.Element) throws -> [UInt8]

    func makeAsyncIterator() -> Iterator {
        Iterator(base: elements.makeAsyncIterator(), format: format, text: text)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: Elements.AsyncIterator
        let format: EventStreamFormat
        let text: @Sendable (Elements.Element) throws -> [UInt8]
        var index = 0

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard let element = try await base.next() else { return nil }
            defer { index += 1 }
            let bytes: [UInt8]
            do {
                bytes = try text(element)
            } catch {
                throw EventStreamBodyError(index: index, reason: .unencodable(String(describing: type(of: error))))
            }
            return ArraySlice(try Self.record(bytes, format: format, index: index))
        }

        /// One element's text framed as the format says.
        static func record(_ text: [UInt8], format: EventStreamFormat, index: Int) throws -> [UInt8] {
            switch format {
            case .jsonLines:
                if text.contains(0x0A) || text.contains(0x0D) {
                    throw EventStreamBodyError(index: index, reason: .lineBreakInRecord)
                }
                return text + [0x0A]
            case .jsonSequence:
                if text.contains(0x1E) { throw EventStreamBodyError(index: index, reason: .recordSeparatorInRecord) }
                return [0x1E] + text + [0x0A]
            case .serverSentEvents:
                // Every line of the text is a `data` field: CR LF, LF and CR
                // all end a line (WHATWG HTML, 9.2.5), so the receiver joins
                // them back with LF.
                var output: [UInt8] = []
                output.reserveCapacity(text.count + 8)
                var line: [UInt8] = []
                var previousWasCR = false
                func flush() {
                    output += Array("data: ".utf8) + line + [0x0A]
                    line.removeAll(keepingCapacity: true)
                }
                for byte in text {
                    switch byte {
                    case 0x0D:
                        flush()
                        previousWasCR = true
                        continue
                    case 0x0A:
                        if !previousWasCR { flush() }
                    default:
                        line.append(byte)
                    }
                    previousWasCR = false
                }
                if !previousWasCR { flush() }
                return output + [0x0A]
            }
        }
    }
}

/// An element of a streamed request body could not be written: the stream
/// ends with this error and the request fails. It names the element by its
/// position, never by its content.
public struct EventStreamBodyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why an element could not be written.
    public enum Reason: Sendable, Hashable {
        /// The element did not encode as JSON (the encoding error's type).
        case unencodable(String)
        /// A JSON Lines record's text holds a line break, which would split it in two.
        case lineBreakInRecord
        /// A JSON Text Sequence record holds the record separator (0x1E).
        case recordSeparatorInRecord
    }

    /// The element's position in the sequence, from 0.
    public let index: Int
    /// What was wrong with it.
    public let reason: Reason

    /// What went wrong, with the element's position and how to fix it.
    public var description: String {
        switch reason {
        case .unencodable(let type):
            return "element \(index) of the streamed request body did not encode as JSON (\(type)); check the value's Encodable conformance"
        case .lineBreakInRecord:
            return "element \(index) of the streamed JSON Lines body holds a line break, which would split the record; send its JSON on one line"
        case .recordSeparatorInRecord:
            return "element \(index) of the streamed JSON Text Sequence body holds the record separator (0x1E), which would split the record"
        }
    }
}

extension RequestBuilder {
    /// Sets a body written from `elements` while they are produced, each
    /// element's JSON framed as `format` says: JSON Lines as the JSON and a
    /// line feed, a JSON Text Sequence as RS, the JSON and a line feed, a
    /// server-sent event as `data` fields and a blank line. The request can
    /// be sent once; an element that cannot be written ends it with
    /// ``EventStreamBodyError``.
    public mutating func setEventStreamBody<Elements: AsyncSequence & Sendable>(
        _ elements: Elements, format: EventStreamFormat, contentType: String
    ) where Elements.Element: Encodable {
        let body = EventStreamBody(elements: elements, format: format) { element in
            Array(try JSONCoding.makeEncoder().encode(element))
        }
        setStreamedBody(HTTPBody(body, length: .unknown, iterationBehavior: .single), contentType: contentType)
    }

    /// Sets a body written from the texts of `elements` while they are
    /// produced (a sequential media type whose elements the spec gives no
    /// schema): each text is one record or one event's data, as it is.
    public mutating func setEventTextStreamBody<Elements: AsyncSequence & Sendable>(
        _ elements: Elements, format: EventStreamFormat, contentType: String
    ) where Elements.Element == String {
        let body = EventStreamBody(elements: elements, format: format) { Array($0.utf8) }
        setStreamedBody(HTTPBody(body, length: .unknown, iterationBehavior: .single), contentType: contentType)
    }
}
