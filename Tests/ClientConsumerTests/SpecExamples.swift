import BackendDoubles
import ClientRuntime
import Foundation
import HTTPTypes
import LoopbackHTTPServer
import OpenAPIModel
import OpenAPIRuntime
import OpenAPIURLSession
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the server received and what the client made of one response.
struct Exchange {
    /// The request as the server read it.
    let request: LoopbackHTTPServer.Request
    /// The documented response that was replayed.
    let replayed: SpecExamples.Documented
}

/// Drives one operation of a generated client against a loopback server that
/// replays, status by status, every response the spec documents for it.
struct ConsumerCheck {
    let examples: SpecExamples
    let operationID: String

    /// A URLSession transport with short timeouts.
    static func makeTransport() -> URLSessionTransport {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        return URLSessionTransport(configuration: .init(session: URLSession(configuration: configuration)))
    }

    /// Replays every documented status. Successes must decode into values
    /// that encode back to the example; error statuses must throw
    /// `APIError<ErrorBody>` carrying the example. `checkRequest` sees every
    /// request the server received. Returns the exchanges, one per status.
    @discardableResult
    func run<Output: Encodable & Sendable, ErrorBody: Encodable & Sendable>(
        errorBody: ErrorBody.Type,
        call: @Sendable (URL, URLSessionTransport) async throws -> Output,
        checkRequest: (LoopbackHTTPServer.Request) throws -> Void
    ) async throws -> [Exchange] {
        let documented = try examples.responses(of: operationID)
        #expect(!documented.isEmpty, "\(operationID) documents no response")
        var exchanges: [Exchange] = []
        for response in documented {
            let server = try LoopbackHTTPServer { _ in
                .respond(status: response.status, headers: response.contentType.map { [("Content-Type", $0)] } ?? [], body: Array(response.body ?? Data()))
            }
            defer { server.shutdown() }
            let outcome: Result<Output, any Error>
            do {
                outcome = .success(try await call(server.baseURL, Self.makeTransport()))
            } catch {
                outcome = .failure(error)
            }
            let request = try #require(server.requests.last, "\(operationID): the server received no request")
            try checkRequest(request)
            exchanges.append(Exchange(request: request, replayed: response))
            switch (response.status < 300, outcome) {
            case (true, .success(let value)):
                if let example = response.body { try expectMatches(value, example: example, status: response.status) }
            case (true, .failure(let error)):
                Issue.record("\(operationID) \(response.status): expected a decoded success, got \(error)")
            case (false, .success):
                Issue.record("\(operationID) \(response.status): expected a typed error, got a success")
            case (false, .failure(let error)):
                guard let typed = error as? APIError<ErrorBody> else {
                    Issue.record("\(operationID) \(response.status): expected APIError<\(ErrorBody.self)>, got \(type(of: error)): \(error)")
                    continue
                }
                #expect(typed.status == response.status)
                #expect(typed.operationID == operationID)
                if let example = response.body { try expectMatches(typed.body, example: example, status: response.status) }
            }
        }
        return exchanges
    }

    /// The decoded value, encoded again, holds every member of the example
    /// with an equal value (dates compared as instants, numbers as numbers).
    func expectMatches<Value: Encodable>(_ value: Value, example: Data, status: Int) throws {
        if let text = value as? String {
            #expect(Data(text.utf8) == example || (try? JSONSerialization.jsonObject(with: example, options: .fragmentsAllowed)) as? String == text)
            return
        }
        if let data = value as? Data {
            #expect(data == example)
            return
        }
        let encoded = try JSONCoding.makeEncoder().encode(value)
        let actual = try JSONSerialization.jsonObject(with: encoded, options: .fragmentsAllowed)
        let expected = try JSONSerialization.jsonObject(with: example, options: .fragmentsAllowed)
        var mismatches: [String] = []
        JSONMatch.compare(expected: expected, actual: actual, path: "", into: &mismatches)
        #expect(mismatches.isEmpty, "\(operationID) \(status): decoded value differs from the spec's example at \(mismatches)")
    }
}

/// Compares an example with what a client re-encoded: every member of the
/// example must be there with an equal value.
enum JSONMatch {
    static func compare(expected: Any, actual: Any, path: String, into mismatches: inout [String]) {
        switch (expected, actual) {
        case (let expected as [String: Any], let actual as [String: Any]):
            for (key, value) in expected {
                guard let other = actual[key] else {
                    if !(value is NSNull) { mismatches.append("\(path).\(key) (missing)") }
                    continue
                }
                compare(expected: value, actual: other, path: "\(path).\(key)", into: &mismatches)
            }
        case (let expected as [Any], let actual as [Any]):
            guard expected.count == actual.count else {
                mismatches.append("\(path) (\(expected.count) items, decoded \(actual.count))")
                return
            }
            for (index, pair) in zip(expected, actual).enumerated() {
                compare(expected: pair.0, actual: pair.1, path: "\(path)[\(index)]", into: &mismatches)
            }
        case (let expected as String, let actual as String):
            if expected == actual { return }
            if let a = JSONCoding.parseDateTime(expected), let b = JSONCoding.parseDateTime(actual), a == b { return }
            mismatches.append("\(path) ('\(expected)' vs '\(actual)')")
        case (let expected as NSNumber, let actual as NSNumber):
            if expected.doubleValue != actual.doubleValue { mismatches.append("\(path) (\(expected) vs \(actual))") }
        case (is NSNull, is NSNull):
            return
        default:
            mismatches.append("\(path) (\(type(of: expected)) vs \(type(of: actual)))")
        }
    }
}

extension LoopbackHTTPServer.Request {
    /// The body parsed as a JSON object.
    var jsonBody: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }
}

/// A loopback server that answers every request with one documented
/// response of an operation.
final class ExampleReplay: Sendable {
    let server: LoopbackHTTPServer

    init(_ examples: SpecExamples, operation: String, status: Int) throws {
        let response = try #require(try examples.responses(of: operation).first { $0.status == status }, "\(operation) documents no \(status)")
        server = try LoopbackHTTPServer { _ in
            .respond(status: response.status, headers: response.contentType.map { [("Content-Type", $0)] } ?? [], body: Array(response.body ?? Data()))
        }
    }

    /// Answers every request with a fixed status and body.
    init(status: Int, contentType: String = "application/json", body: String) throws {
        server = try LoopbackHTTPServer { _ in
            .respond(status: status, headers: [("Content-Type", contentType)], body: body)
        }
    }

    var url: URL { server.baseURL }
    var requests: [LoopbackHTTPServer.Request] { server.requests }

    deinit { server.shutdown() }
}

/// A loopback server that answers every request with a JSON body and extra headers.
final class LoopbackReplyWithHeaders: Sendable {
    let server: LoopbackHTTPServer

    init(status: Int, headers: [(String, String)], body: String) throws {
        server = try LoopbackHTTPServer { _ in .json(status, body, headers: headers) }
    }

    var url: URL { server.baseURL }

    deinit { server.shutdown() }
}
