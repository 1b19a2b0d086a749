import Dispatch
import Foundation
import RuntimeSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens a TCP connection with a deadline, then closes it: how
/// ``ConnectTimeoutMiddleware`` learns whether a server can be reached
/// before any byte of a request is sent. Used only where
/// ``ConnectTimeoutMiddleware/dialsBeforeSending`` (never on Apple
/// platforms, where a BSD socket does not bring up the cellular radio).
enum TCPDial {
    /// How a dial ended.
    enum Outcome: Sendable, Hashable {
        case connected
        case timedOut
        case refused
        case unresolved
        case cancelled
    }

    /// Resolves `host` and connects to each of its addresses in turn, on a
    /// thread of its own (name resolution and the wait block), never the
    /// caller's. The caller has its answer by `timeout`, name resolution
    /// included (a resolver that hangs is `.timedOut`), or at once when its
    /// task is cancelled (`.cancelled`); the thread finishes on its own.
    static func connect(host: String, port: Int, timeout: Duration) async -> Outcome {
        let waiting = Locked<CheckedContinuation<Outcome, Never>?>(nil)
        let finish: @Sendable (Outcome) -> Void = { outcome in
            let continuation = waiting.withLock { value in
                defer { value = nil }
                return value
            }
            continuation?.resume(returning: outcome)
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiting.withLock { $0 = continuation }
                if Task.isCancelled { return finish(.cancelled) }
                DispatchQueue.global(qos: .userInitiated).async { finish(connectBlocking(host: host, port: port, timeout: timeout)) }
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout.totalSeconds) { finish(.timedOut) }
            }
        } onCancel: {
            finish(.cancelled)
        }
    }

    static func connectBlocking(host: String, port: Int, timeout: Duration) -> Outcome {
        let deadline = ContinuousClock.now + timeout
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return .unresolved }
        defer { freeaddrinfo(list) }
        var outcome = Outcome.refused
        var address: UnsafeMutablePointer<addrinfo>? = first
        while let current = address {
            let remaining = (deadline - ContinuousClock.now).totalSeconds
            guard remaining > 0 else { return .timedOut }
            outcome = dial(current.pointee, within: remaining)
            if outcome == .connected || outcome == .timedOut { return outcome }
            address = current.pointee.ai_next
        }
        return outcome
    }

    /// One non-blocking connect, waited for with `poll`.
    private static func dial(_ address: addrinfo, within seconds: Double) -> Outcome {
        let descriptor = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
        guard descriptor >= 0 else { return .refused }
        defer { close(descriptor) }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        if systemConnect(descriptor, address.ai_addr, address.ai_addrlen) == 0 { return .connected }
        guard errno == EINPROGRESS else { return .refused }
        var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&waiting, 1, Int32(max(1, (seconds * 1000).rounded(.up))))
        guard ready > 0 else { return .timedOut }
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length) == 0, failure == 0 else { return .refused }
        return .connected
    }

    private static func systemConnect(_ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
        return Glibc.connect(descriptor, address, length)
        #else
        return Darwin.connect(descriptor, address, length)
        #endif
    }
}
