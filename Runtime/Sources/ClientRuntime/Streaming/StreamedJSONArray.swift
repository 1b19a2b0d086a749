import Foundation
import HTTPTypes
import OpenAPIRuntime

/// One element of a ``StreamedJSONArray``: its position in the array and
/// the element decoded, or why it could not be.
public struct StreamedElement<Item: Sendable>: Sendable {
    /// The element's position in the array (0-based), counting every
    /// element, decodable or not.
    public let index: Int
    /// The decoded element, or the error naming the field at fault
    /// (`branding[12].updated_at`).
    public let result: Result<Item, ResponseDecodingError>
    /// The element's JSON as it arrived, kept only when it did not decode,
    /// so that a caller can salvage what it can read of it (nil otherwise).
    public let rawElement: Data?

    /// Creates an element.
    public init(index: Int, result: Result<Item, ResponseDecodingError>, rawElement: Data? = nil) {
        self.index = index
        self.result = result
        self.rawElement = rawElement
    }
}

/// A JSON response whose array (the body itself, or one member of the body's
/// object) is decoded element by element while the body arrives: memory
/// holds a batch of elements, never the whole body or the whole array.
///
/// An element that does not decode is delivered as a failed
/// ``StreamedElement`` and the stream goes on, so one bad record does not
/// cost the others. The stream throws ``ResponseDecodingError`` when the
/// body as a whole is unusable (it ends early, its nesting does not
/// balance, the array is missing) and passes transport errors through.
/// Once iteration has ended, ``envelope`` holds the rest of the body
/// decoded into the response type, its array empty.
///
/// ```swift
/// let response = try await client.syncBrandingStreamed()
/// for try await element in response {
///     switch element.result {
///     case .success(let record): store(record)
///     case .failure(let error): skipped.append((element.index, error.reason))
///     }
/// }
/// let cursor = response.envelope?.syncedAt
/// ```
///
/// The body can be read once: iterate one iterator only.
public struct StreamedJSONArray<Item: Decodable & Sendable, Envelope: Decodable & Sendable>: AsyncSequence, Sendable {
    /// Each element, in array order.
    public typealias Element = StreamedElement<Item>

    /// The operation.
    public let operationID: String
    /// The status and headers.
    public let response: HTTPResponse
    private let body: HTTPBody?
    private let member: String?
    private let limit: Int
    private let batchSize: Int
    private let batchBytes: Int
    private let decoded: EnvelopeSlot<Envelope>

    /// A stream over `body`; `member` names the array in the body's object
    /// (nil: the body is the array). An element or the envelope larger than
    /// `limit` bytes fails the stream; elements are decoded `batchSize` at a
    /// time (one by one again for a batch holding an undecodable element),
    /// and a batch is decoded as soon as its elements reach `batchBytes`, so
    /// the bytes held before decoding stay under `batchBytes` plus one
    /// element, whatever the elements' size (256 elements of the `limit`
    /// each would otherwise be held at once).
    public init(
        operationID: String, response: HTTPResponse, body: HTTPBody?, member: String?, limit: Int, batchSize: Int = 256, batchBytes: Int = 4 << 20
    ) {
        self.operationID = operationID
        self.response = response
        self.body = body
        self.member = member
        self.limit = limit
        self.batchSize = Swift.max(1, batchSize)
        self.batchBytes = Swift.max(1, batchBytes)
        decoded = EnvelopeSlot()
    }

    /// The status code.
    public var status: Int { response.status.code }

    /// The body without the array's elements (the array itself empty),
    /// decoded; nil until an iteration has ended without throwing.
    public var envelope: Envelope? { decoded.value }

    /// An iterator over the elements.
    public func makeAsyncIterator() -> Iterator {
        Iterator(owner: self)
    }

    /// Reads chunks, splits them into elements and decodes them in batches.
    public struct Iterator: AsyncIteratorProtocol {
        private let owner: StreamedJSONArray
        private var chunks: HTTPBody.AsyncIterator?
        private var splitter: JSONArraySplitter
        private var ready: [StreamedElement<Item>] = []
        private var readyIndex = 0
        /// Elements read and not yet decoded, joined by commas, and where each ends.
        private var pendingBytes: [UInt8] = []
        private var pendingEnds: [Int] = []
        private var nextIndex = 0
        private var finished = false
        /// The rest of the transport's last chunk.
        private var unread: ArraySlice<UInt8> = []
        private let decoder = JSONCoding.makeDecoder()

        init(owner: StreamedJSONArray) {
            self.owner = owner
            chunks = owner.body?.makeAsyncIterator()
            splitter = JSONArraySplitter(member: owner.member, limit: owner.limit)
            pendingBytes.reserveCapacity(64 << 10)
        }

        /// Elements decoded and not yet returned (what memory holds decoded).
        var decodedAhead: Int { ready.count - readyIndex }
        /// The most element bytes held at once before decoding.
        private(set) var largestPendingBytes = 0

        /// The next element, or nil once the body has ended and the
        /// envelope is decoded.
        public mutating func next() async throws -> StreamedElement<Item>? {
            while readyIndex == ready.count {
                if finished { return nil }
                ready.removeAll(keepingCapacity: true)
                readyIndex = 0
                try await fill()
            }
            defer { readyIndex += 1 }
            return ready[readyIndex]
        }

        /// Reads chunks until a batch (``batchSize`` elements, or
        /// ``batchBytes`` of them) is decoded or the body has ended.
        private mutating func fill() async throws {
            defer { largestPendingBytes = Swift.max(largestPendingBytes, pendingBytes.count) }
            while pendingEnds.count < owner.batchSize && pendingBytes.count < owner.batchBytes {
                guard let chunk = try await nextChunk() else {
                    try finish()
                    return
                }
                do {
                    try chunk.withUnsafeBufferPointer { try splitter.consume($0) }
                } catch let failure as JSONArraySplitter.Failure {
                    throw failed(failure.description)
                }
                let (bytes, ends) = splitter.takeElements()
                guard !ends.isEmpty else { continue }
                if !pendingEnds.isEmpty { pendingBytes.append(UInt8(ascii: ",")) }
                let shift = pendingBytes.count
                pendingBytes.append(contentsOf: bytes)
                pendingEnds.append(contentsOf: ends.lazy.map { $0 + shift })
                largestPendingBytes = Swift.max(largestPendingBytes, pendingBytes.count)
            }
            decodePending()
        }

        /// The next 64 KB at most: a transport that hands over the whole
        /// body at once (URLSession on Linux buffers) still gives batches,
        /// not every element decoded together.
        private mutating func nextChunk() async throws -> ArraySlice<UInt8>? {
            if unread.isEmpty {
                guard chunks != nil, let chunk = try await chunks!.next() else { return nil }
                unread = chunk
            }
            let piece = unread.prefix(64 << 10)
            unread = unread.dropFirst(piece.count)
            return piece
        }

        /// Decodes the elements read so far: the batch as one array, or, when
        /// that fails, each element on its own to find the bad ones.
        private mutating func decodePending() {
            guard !pendingEnds.isEmpty else { return }
            defer {
                pendingBytes.removeAll(keepingCapacity: true)
                pendingEnds.removeAll(keepingCapacity: true)
            }
            var array = [UInt8]()
            array.reserveCapacity(pendingBytes.count + 2)
            array.append(UInt8(ascii: "["))
            array.append(contentsOf: pendingBytes)
            array.append(UInt8(ascii: "]"))
            if let items = try? decoder.decode([Item].self, from: Data(array)), items.count == pendingEnds.count {
                for item in items {
                    ready.append(StreamedElement(index: nextIndex, result: .success(item)))
                    nextIndex += 1
                }
                return
            }
            var start = 0
            for end in pendingEnds {
                let element = pendingBytes[start..<end]
                start = end + 1
                let result: Result<Item, ResponseDecodingError>
                var raw: Data?
                do {
                    result = .success(try decoder.decode(Item.self, from: Data(element)))
                } catch {
                    raw = Data(element)
                    let base = ResponseDecodingError(operationID: owner.operationID, status: owner.status, decoding: error, headerFields: owner.response.headerFields)
                    let field = (owner.member ?? "") + "[\(nextIndex)]" + (base.field.isEmpty || base.field.hasPrefix("[") ? "" : ".") + base.field
                    result = .failure(ResponseDecodingError(
                        operationID: owner.operationID, status: owner.status, field: field, reason: base.reason, headerFields: owner.response.headerFields))
                }
                ready.append(StreamedElement(index: nextIndex, result: result, rawElement: raw))
                nextIndex += 1
            }
        }

        /// The body has ended: decode what is pending, then the envelope.
        private mutating func finish() throws {
            decodePending()
            finished = true
            let envelopeBytes: [UInt8]
            do {
                envelopeBytes = try splitter.finish()
            } catch let failure as JSONArraySplitter.Failure {
                throw failed(failure.description)
            }
            do {
                owner.decoded.set(try decoder.decode(Envelope.self, from: Data(envelopeBytes)))
            } catch {
                throw ResponseDecodingError(
                    operationID: owner.operationID, status: owner.status, decoding: error, headerFields: owner.response.headerFields,
                    rawBody: Data(envelopeBytes))
            }
        }

        private func failed(_ reason: String) -> ResponseDecodingError {
            ResponseDecodingError(operationID: owner.operationID, status: owner.status, field: "", reason: reason, headerFields: owner.response.headerFields)
        }
    }
}

/// Where an iteration leaves the decoded envelope for the stream's owner.
///
/// `@unchecked Sendable` is safe because `stored` is read and written only
/// while `lock` is held.
final class EnvelopeSlot<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?

    var value: Value? { lock.withLock { stored } }

    func set(_ value: Value) { lock.withLock { stored = value } }
}
