import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpenAPIURLSession
import Resilience
import SecureNodeEngine
import SecureNodeAPI

/// A process for outbox tests: it delivers a billing outbox to a server
/// until the outbox is empty, unless the test kills it first.
///
/// Usage: outbox-delivery-child OUTBOX_PATH SERVER_URL
///
/// Prints `delivering` once the outbox is open, `delivered N` each time the
/// count of delivered events changes (so the test kills it at a point of
/// its progress, not after a guessed time), and `empty` when it is.
let arguments = CommandLine.arguments
guard arguments.count == 3, let serverURL = URL(string: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: outbox-delivery-child OUTBOX_PATH SERVER_URL\n".utf8))
    exit(2)
}
let outbox = try BillingOutbox(path: arguments[1])
let configuration = URLSessionConfiguration.ephemeral
configuration.timeoutIntervalForRequest = 5
let transport = URLSessionTransport(configuration: .init(session: URLSession(configuration: configuration)))
let client = SecureNodeAPI.Client(serverURL: serverURL, transport: transport)
// Short waits: the test's server drops responses, it is not overloaded.
let delivery = OutboxDelivery(outbox: outbox, client: client, backoff: BackoffPolicy(baseDelay: .milliseconds(20), maximumDelay: .milliseconds(200)))
FileHandle.standardOutput.write(Data("delivering\n".utf8))
let progress = Task {
    var reported = -1
    while !Task.isCancelled {
        if let delivered = try? outbox.counts().delivered, delivered != reported {
            FileHandle.standardOutput.write(Data("delivered \(delivered)\n".utf8))
            reported = delivered
        }
        try? await Task.sleep(for: .milliseconds(2))
    }
}
try await delivery.deliverUntilEmpty()
progress.cancel()
FileHandle.standardOutput.write(Data("empty\n".utf8))
