import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `ClientTransport` over `URLSession` whose response body arrives as the
/// bytes do, on every platform: the conformance driver's transport for
/// every call. `URLSessionTransport` streams on Apple platforms
/// only and collects the whole body first elsewhere, which would hide a
/// client that reads a streamed body whole; this one hands each piece the
/// session's data delegate receives to the body's sequence at once. It
/// follows no redirect: a 3xx, its headers and its body reach the client.
///
/// For tests (the conformance driver's transport): requests are sent with
/// their body collected first, and there is no retry.
public struct StreamingURLSessionTransport: ClientTransport {
    /// Creates a transport with a session of its own.
    public init() {}

    /// Sends the request; returns once the response's head has arrived, its
    /// body still arriving.
    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        // The path and query as the client wrote them, after the base URL's
        // path; a URL that cannot be formed is an error, never a trap.
        var base = baseURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + (request.path ?? "/")) else { throw URLError(.badURL) }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        // Fields of one name go out as one line: cookies joined with "; "
        // (RFC 6265, 5.4), any other field's values with ", " (RFC 9110, 5.3).
        for name in Set(request.headerFields.map(\.name)) {
            let values = request.headerFields[values: name]
            urlRequest.setValue(values.joined(separator: name == .cookie ? "; " : ", "), forHTTPHeaderField: name.rawName)
        }
        if let body { urlRequest.httpBody = try await Data(collecting: body, upTo: .max) }
        let stream = ResponseStream()
        let session = URLSession(configuration: .ephemeral, delegate: stream, delegateQueue: nil)
        let task = session.dataTask(with: urlRequest)
        let head = try await stream.head(starting: task)
        session.finishTasksAndInvalidate()
        return head
    }
}

/// The delegate of one request's session: the response's head to the
/// caller waiting for it, each piece of the body to the body's sequence.
///
/// `@unchecked Sendable` is safe: `state` is only read and written while
/// `lock` is held, and the continuations it holds are themselves Sendable.
private final class ResponseStream: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct State {
        var head: CheckedContinuation<(HTTPResponse, HTTPBody?), any Error>?
        var pieces: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation?
    }

    private let lock = NSLock()
    private var state = State()

    func head(starting task: URLSessionDataTask) async throws -> (HTTPResponse, HTTPBody?) {
        try await withCheckedThrowingContinuation { continuation in
            lock.withLock { state.head = continuation }
            task.resume()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            completionHandler(.cancel)
            return
        }
        var fields = HTTPFields()
        for (name, value) in http.allHeaderFields {
            guard let text = name as? String, let name = HTTPField.Name(text), let value = value as? String else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        let (pieces, continuation) = AsyncThrowingStream.makeStream(of: ArraySlice<UInt8>.self)
        let waiting = lock.withLock {
            state.pieces = continuation
            defer { state.head = nil }
            return state.head
        }
        let body = HTTPBody(pieces, length: HTTPBody.Length.unknown, iterationBehavior: IterationBehavior.single)
        waiting?.resume(returning: (HTTPResponse(status: .init(code: http.statusCode), headerFields: fields), body))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let pieces = lock.withLock { state.pieces }
        pieces?.yield(ArraySlice(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (waiting, pieces) = lock.withLock {
            defer { state = State() }
            return (state.head, state.pieces)
        }
        if let error {
            waiting?.resume(throwing: error)
            pieces?.finish(throwing: error)
        } else {
            waiting?.resume(throwing: URLError(.badServerResponse))
            pieces?.finish()
        }
    }
}
