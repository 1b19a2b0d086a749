import ContractCheck
import LoopbackHTTPServer
import SandboxCore

/// The doubles run the sandbox's backend behaviours (`SandboxCore`) on the
/// loopback server: one definition of each backend's state for the SDK
/// tests and for `make sandbox`.
extension LoopbackHTTPServer.Request {
    /// The request as a sandbox behaviour reads it.
    package var contractRequest: ContractRequest {
        ContractRequest(method: method, path: path, query: query, headers: headers, body: body)
    }
}

extension SandboxReply {
    /// The reply as the loopback server sends it.
    package var loopbackReply: LoopbackHTTPServer.Reply {
        if dropsConnection { return .dropConnection }
        return .respond(status: status, headers: headers.map { ($0.name, $0.value) }, body: collectedBody())
    }
}
