import ClientRuntime
import Foundation
import HTTPTypes

/// The loop of a conformance driver: the program `clientgen
/// conformance-driver` renders for a spec, which calls every operation of
/// its generated client with the arguments a harness sends, over real
/// HTTP, and reports what the client decoded (`make conformance`; the wire
/// protocol is `scripts/conformance/PROTOCOL.md`).
///
/// `DRIVER --manifest` prints the operations the client has; `DRIVER
/// --server-url URL` reads one JSON request a line from standard input and
/// writes one JSON result a line.
public enum ConformanceDriver {
    /// Runs the driver with the process's arguments: prints `manifest`, or
    /// answers each request line through `call` (the operation's key, the
    /// server URL and the arguments) until standard input ends.
    public static func main(
        manifest: String,
        call: @Sendable (_ key: String, _ serverURL: URL, _ arguments: ConformanceArguments) async throws -> ConformanceOutcome
    ) async {
        let arguments = CommandLine.arguments
        if arguments.contains("--manifest") {
            print(manifest)
            return
        }
        guard let index = arguments.firstIndex(of: "--server-url"), index + 1 < arguments.count, let serverURL = URL(string: arguments[index + 1]) else {
            FileHandle.standardError.write(Data("usage: \(arguments.first ?? "driver") --manifest | --server-url URL\n".utf8))
            exit(2)
        }
        while let line = readLine(strippingNewline: true) {
            guard !line.isEmpty else { continue }
            let result = await answer(line, serverURL: serverURL, call: call)
            FileHandle.standardOutput.write(result + Data("\n".utf8))
        }
    }

    /// Tells the harness, at once, that a streamed call's first element
    /// arrived: a line `{"progress":"element"}` before the call's result
    /// line. The harness holds the rest of a streamed body until it reads
    /// it, so a client that read the body whole before its first element
    /// is caught (PROTOCOL.md, "Streaming responses").
    public static func reportFirstElement() {
        FileHandle.standardOutput.write(Data(#"{"progress":"element"}"#.utf8) + Data("\n".utf8))
    }

    /// The result line of one request line.
    static func answer(
        _ line: String, serverURL: URL,
        call: @Sendable (String, URL, ConformanceArguments) async throws -> ConformanceOutcome
    ) async -> Data {
        var result: [String: JSONValue] = [:]
        do {
            let request = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
            guard case .object(let members) = request, case .string(let key)? = members["key"] else {
                throw ConformanceArgumentError(message: "a request line needs a string 'key'")
            }
            result["key"] = .string(key)
            result["call"] = members["call"] ?? .null
            var arguments = try ConformanceArguments(members["arguments"] ?? .object([:]))
            if case .string(let mediaType)? = members["stream"] { arguments.eventStream = mediaType }
            if case .object(let pages)? = members["pages"] {
                if case .int(let stop)? = pages["stopAfter"] { arguments.pagesStopAfter = stop } else { arguments.pagesStopAfter = 0 }
                if case .bool(true)? = pages["cancel"] { arguments.pagesCancel = true }
            }
            do {
                let outcome = try await call(key, serverURL, arguments)
                result["outcome"] = "ok"
                result["status"] = .int(outcome.status)
                var headers: [String: JSONValue] = [:]
                for field in outcome.headers {
                    let name = field.name.canonicalName
                    if case .string(let earlier)? = headers[name] {
                        headers[name] = .string(earlier + ", " + field.value)
                    } else {
                        headers[name] = .string(field.value)
                    }
                }
                result["headers"] = .object(headers)
                switch outcome.body {
                case .json(let value): (result["bodyKind"], result["body"]) = ("json", value)
                case .text(let text): (result["bodyKind"], result["body"]) = ("text", .string(text))
                case .data(let data): (result["bodyKind"], result["body"]) = ("data", .string(data.base64EncodedString()))
                case .empty: (result["bodyKind"], result["body"]) = ("empty", .null)
                }
            } catch let error as ConformanceArgumentError {
                (result["outcome"], result["stage"], result["error"]) = ("failed", "arguments", .string(error.message))
            } catch let error as any ClientResponseError {
                (result["outcome"], result["stage"], result["error"]) = ("failed", "response", .string(String(describing: error)))
                result["status"] = error.responseStatus.map(JSONValue.int) ?? .null
            } catch {
                (result["outcome"], result["stage"], result["error"]) = ("failed", "send", .string(String(describing: error)))
            }
        } catch {
            (result["outcome"], result["stage"], result["error"]) = ("failed", "arguments", .string(String(describing: error)))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(JSONValue.object(result))) ?? Data(#"{"outcome":"failed","stage":"send","error":"unencodable result"}"#.utf8)
    }
}

/// An error that came from reading a response (an undocumented status, a
/// body that does not decode): the driver reports it at the `response` stage.
protocol ClientResponseError: Error {
    /// The response's status.
    var responseStatus: Int? { get }
}

extension UndocumentedResponseError: ClientResponseError {
    var responseStatus: Int? { response.status.code }
}

extension ResponseDecodingError: ClientResponseError {
    var responseStatus: Int? { status }
}

/// One call's arguments, by location and wire name, as JSON: the driver
/// decodes each into its generated Swift type.
public struct ConformanceArguments: Sendable {
    /// `path`, `query`, `header`, `cookie` -> name -> value.
    let parameters: [String: [String: JSONValue]]
    /// The body, absent when the call passes none.
    let body: JSONValue?
    /// The sequential media type the harness answers a success with (the
    /// request line's `stream`): the call goes through the operation's
    /// events method. Nil: through its plain method.
    public internal(set) var eventStream: String?
    /// The request line's `pages`: the call goes through the operation's
    /// pages method and reports every page (0), or the first `stopAfter`
    /// (then stops iterating). Nil: a plain call.
    public internal(set) var pagesStopAfter: Int?
    /// The request line's `pages.cancel`: after `stopAfter` pages the call
    /// cancels its task and iterates on, rather than stop, and reports
    /// whether the sequence ended with `CancellationError`.
    public internal(set) var pagesCancel = false
    /// The elements of a request body sent as a sequence (the arguments'
    /// `bodyEvents`); nil when the call sends its body whole.
    let bodyEventValues: [JSONValue]?

    /// Whether the call sends its body as a sequence of elements, through
    /// the operation's events method.
    public var sendsEvents: Bool { bodyEventValues != nil }

    /// Reads the `arguments` object of a request line.
    init(_ json: JSONValue) throws {
        guard case .object(let members) = json else { throw ConformanceArgumentError(message: "'arguments' must be an object") }
        var parameters: [String: [String: JSONValue]] = [:]
        for location in ["path", "query", "header", "cookie", "querystring"] {
            switch members[location] {
            case .object(let values)?: parameters[location] = values
            case nil, .null?: parameters[location] = [:]
            default: throw ConformanceArgumentError(message: "'\(location)' must be an object")
            }
        }
        self.parameters = parameters
        self.body = members["body"]
        switch members["bodyEvents"] {
        case .array(let values)?: bodyEventValues = values
        case nil, .null?: bodyEventValues = nil
        default: throw ConformanceArgumentError(message: "'bodyEvents' must be an array")
        }
    }

    /// The elements of a body sent as a sequence, each decoded as `T`,
    /// in an `AsyncStream` the client reads one element at a time.
    public func bodyEvents<T: Decodable & Sendable>(as type: T.Type = T.self) throws -> AsyncStream<T> {
        guard let values = bodyEventValues else { throw ConformanceArgumentError(message: "bodyEvents: absent") }
        let elements = try values.enumerated().map { index, value in try decode(value, as: T.self, what: "bodyEvents[\(index)]") }
        return AsyncStream { continuation in
            for element in elements { continuation.yield(element) }
            continuation.finish()
        }
    }

    /// The parameter `name` in `location` as `T`; an absent one decodes as
    /// JSON null (nil for an optional type, an error otherwise).
    public func value<T: Decodable>(_ location: String, _ name: String, as type: T.Type = T.self) throws -> T {
        try decode(parameters[location]?[name] ?? .null, as: type, what: "\(location).\(name)")
    }

    /// The body as `T` (nil for an optional type when absent).
    public func bodyValue<T: Decodable>(as type: T.Type = T.self) throws -> T {
        try decode(body ?? .null, as: type, what: "body")
    }

    /// The bytes of a body sent as a base64 string; nil when absent.
    public func bodyData() throws -> Data? {
        guard let body, body != .null else { return nil }
        guard case .string(let text) = body, let data = Data(base64Encoded: text) else {
            throw ConformanceArgumentError(message: "body: expected a base64 string")
        }
        return data
    }

    /// The bytes of a required body.
    public func requiredBodyData() throws -> Data {
        guard let data = try bodyData() else { throw ConformanceArgumentError(message: "body: required, absent") }
        return data
    }

    /// A text body; nil when absent.
    public func bodyText() throws -> String? {
        guard let body, body != .null else { return nil }
        guard case .string(let text) = body else { throw ConformanceArgumentError(message: "body: expected a string") }
        return text
    }

    /// A required text body.
    public func requiredBodyText() throws -> String {
        guard let text = try bodyText() else { throw ConformanceArgumentError(message: "body: required, absent") }
        return text
    }

    private func decode<T: Decodable>(_ json: JSONValue, as type: T.Type, what: String) throws -> T {
        do {
            let data = try JSONEncoder().encode(json)
            return try JSONCoding.makeDecoder().decode(T.self, from: data)
        } catch {
            throw ConformanceArgumentError(message: "\(what): \(error)")
        }
    }
}

/// What an operation returned: the status, the headers the client hands
/// the app, and the decoded body.
public struct ConformanceOutcome: Sendable {
    /// The response status.
    let status: Int
    /// The decoded body, to be encoded again.
    let body: ConformanceBody
    /// The response's headers, as the client's `Response` or `APIError` holds them.
    let headers: HTTPFields

    /// An outcome.
    public init(status: Int, headers: HTTPFields = [:], body: ConformanceBody) {
        self.status = status
        self.body = body
        self.headers = headers
    }
}

/// A decoded body as the driver reports it.
public enum ConformanceBody: Sendable {
    /// A value encoded again by its Swift type.
    case json(JSONValue)
    /// A text body.
    case text(String)
    /// A binary body.
    case data(Data)
    /// No body.
    case empty

    /// A value encoded again by its Swift type, with the client's date rules.
    public static func encoding<T: Encodable>(_ value: T) throws -> ConformanceBody {
        .json(try JSONValue(encoding: value))
    }

    /// A streamed body: its elements, each encoded again, in `member` of the
    /// envelope (the rest of the body, decoded), or as the array itself when
    /// `member` is nil.
    public static func streamed<Envelope: Encodable>(_ elements: [JSONValue], member: String?, envelope: Envelope?) throws -> ConformanceBody {
        guard let member else { return .json(.array(elements)) }
        guard let envelope, case .object(var members) = try JSONValue(encoding: envelope) else {
            return .json(.object([member: .array(elements)]))
        }
        members[member] = .array(elements)
        return .json(.object(members))
    }
}

extension ConformanceBody {
    /// The elements of an event stream, each `{"data": ..., "event": ...,
    /// "id": ...}` with its data encoded again (a string for a text stream),
    /// read as they arrive: the first is told to the harness at once.
    public static func events<Payload: Encodable & Sendable>(_ stream: EventStream<Payload>) async throws -> ConformanceBody {
        var events: [JSONValue] = []
        for try await event in stream {
            events.append(.object([
                "data": try JSONValue(encoding: event.data),
                "event": event.event.map(JSONValue.string) ?? .null,
                "id": event.id.map(JSONValue.string) ?? .null,
            ]))
            if events.count == 1 { ConformanceDriver.reportFirstElement() }
        }
        return .json(.object(["events": .array(events)]))
    }
}

/// Arguments that do not decode into the operation's Swift types.
public struct ConformanceArgumentError: Error, Sendable {
    /// What was wrong, and where.
    public let message: String

    /// An error saying `message`.
    public init(message: String) {
        self.message = message
    }
}
