import Foundation
import RuntimeSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads of files an SDK fetches outside its API (SecureNode's brand
/// logos), verified as the API's connections are and bounded as they arrive:
///
/// - each connection's certificate is checked by the ``ServerTrustEvaluator``
///   (pins, on Apple platforms; the system's trust evaluation everywhere),
///   and a TLS failure is ``CertificatePinningError``, not "offline";
/// - each redirect hop is checked by the evaluator's ``RedirectPolicy``
///   (``RedirectPolicy/httpsHosts(_:)``: https on the allowed hosts only);
///   a refused hop ends the download with ``CertificatePinningError``;
/// - reading stops at ``maximumBytes``: a `Content-Length` above it ends
///   the download before the body, a body that grows past it ends there
///   (`BoundedDownloadError/tooLarge(limit:)`), so a hostile server cannot
///   make the app hold more than the limit;
/// - only a 200 answer is kept (`BoundedDownloadError/status(_:)`), and,
///   when the downloader names content types, only one of them
///   (`BoundedDownloadError/contentType(_:)`), refused before the body.
package final class BoundedDownloader: Sendable {
    /// The pins, the redirect policy and the record of refusals.
    package let evaluator: ServerTrustEvaluator
    /// The most bytes one download may have.
    package let maximumBytes: Int
    /// Invalidated when the downloader goes.
    private let owned: OwnedURLSession
    private let delegate: DownloadDelegate

    /// A downloader whose URLSession has `configuration` (ephemeral by
    /// default), keeping only answers whose `Content-Type` (its media type,
    /// without parameters) is one of `contentTypes` (nil: any).
    package init(
        evaluator: ServerTrustEvaluator, maximumBytes: Int, configuration: URLSessionConfiguration = .ephemeral, contentTypes: Set<String>? = nil
    ) {
        self.evaluator = evaluator
        self.maximumBytes = maximumBytes
        let delegate = DownloadDelegate(evaluator: evaluator, maximumBytes: maximumBytes, contentTypes: contentTypes)
        self.delegate = delegate
        owned = OwnedURLSession(URLSession(configuration: SDKTransport.sessionConfiguration(configuration), delegate: delegate, delegateQueue: nil))
    }

    /// The most body bytes any download of this downloader has held at once
    /// (never more than ``maximumBytes`` plus the last chunk that arrived):
    /// what a hostile server could make the app keep.
    package var largestBodyHeld: Int { delegate.largestHeld.read() }

    /// The body of `url`, or the error that ended it (the limit, a status
    /// other than 200, a connection that could not be verified, a network failure).
    package func data(from url: URL) async throws -> Data {
        let mark = evaluator.mark()
        let host = url.host ?? ""
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let task = owned.session.dataTask(with: url)
                delegate.start(task.taskIdentifier, continuation: continuation)
                task.resume()
            }
        } catch let error as BoundedDownloadError {
            // A refused redirect hands back the 3xx: the refusal is the reason.
            if let refusal = evaluator.refusal(for: host, since: mark) { throw refusal }
            throw error
        } catch {
            if let refusal = evaluator.refusal(for: host, since: mark) { throw refusal }
            if TLSFailure.matches(error) {
                let refusal = evaluator.tlsRefusal(host: host)
                evaluator.log(refusal)
                throw refusal
            }
            throw error
        }
    }
}

/// Why a bounded download was given up.
package enum BoundedDownloadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The body is (or says it is) larger than the limit; reading stopped.
    case tooLarge(limit: Int)
    /// The server answered with a status other than 200.
    case status(Int)
    /// The answer's `Content-Type` is not one the downloader keeps (nil:
    /// none was sent); refused before the body.
    case contentType(String?)

    /// What happened.
    package var description: String {
        switch self {
        case .tooLarge(let limit): return "the download is larger than \(limit) bytes; reading stopped there"
        case .status(let status): return "the server answered \(status)"
        case .contentType(let type): return "the server sent \(type ?? "no content type"), not a type this download keeps"
        }
    }
}

/// The session delegate of a `BoundedDownloader`: server-trust challenges
/// and redirects as ``VerifyingSessionDelegate`` answers them, and each
/// task's bytes gathered up to the limit.
final class DownloadDelegate: NSObject, URLSessionDataDelegate, Sendable {
    let evaluator: ServerTrustEvaluator
    let maximumBytes: Int
    let contentTypes: Set<String>?
    /// The most body bytes one download held at once.
    let largestHeld = Locked(0)
    private let downloads = Locked<[Int: Download]>([:])

    private struct Download {
        var data = Data()
        let continuation: CheckedContinuation<Data, any Error>
    }

    init(evaluator: ServerTrustEvaluator, maximumBytes: Int, contentTypes: Set<String>?) {
        self.evaluator = evaluator
        self.maximumBytes = maximumBytes
        self.contentTypes = contentTypes
    }

    func start(_ id: Int, continuation: CheckedContinuation<Data, any Error>) {
        downloads.withLock { $0[id] = Download(continuation: continuation) }
    }

    /// Ends download `id` once: with its bytes or an error.
    private func finish(_ id: Int, _ result: Result<Data, any Error>) {
        guard let download = downloads.withLock({ $0.removeValue(forKey: id) }) else { return }
        switch result {
        case .success(let data): download.continuation.resume(returning: data)
        case .failure(let error): download.continuation.resume(throwing: error)
        }
    }

    func urlSession(
        _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        VerifyingSessionDelegate.answer(challenge, evaluator: evaluator, completionHandler: completionHandler)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        VerifyingSessionDelegate.answerRedirect(response, task: task, newRequest: request, evaluator: evaluator, completionHandler: completionHandler)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        if status != 200 {
            finish(dataTask.taskIdentifier, .failure(BoundedDownloadError.status(status)))
            completionHandler(.cancel)
        } else if let contentTypes, !contentTypes.contains(Self.mediaType(response)) {
            let sent = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")
            finish(dataTask.taskIdentifier, .failure(BoundedDownloadError.contentType(sent)))
            completionHandler(.cancel)
        } else if response.expectedContentLength > Int64(maximumBytes) {
            finish(dataTask.taskIdentifier, .failure(BoundedDownloadError.tooLarge(limit: maximumBytes)))
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    /// The answer's media type, lowercased, without parameters ("" when none).
    static func mediaType(_ response: URLResponse) -> String {
        let header = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") ?? ""
        return String(header.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces).lowercased()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let limit = maximumBytes
        let held = downloads.withLock { downloads -> Int? in
            guard downloads[dataTask.taskIdentifier] != nil else { return nil }
            downloads[dataTask.taskIdentifier]?.data.append(data)
            return downloads[dataTask.taskIdentifier]?.data.count
        }
        guard let held else { return }
        largestHeld.withLock { $0 = max($0, held) }
        let over = held > limit
        if over {
            finish(dataTask.taskIdentifier, .failure(BoundedDownloadError.tooLarge(limit: maximumBytes)))
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            finish(task.taskIdentifier, .failure(error))
        } else {
            let data = downloads.withLock { $0[task.taskIdentifier]?.data } ?? Data()
            finish(task.taskIdentifier, .success(data))
        }
    }
}
