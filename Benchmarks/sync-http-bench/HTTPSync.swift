import BenchSupport
import BrandingStore
import ClientRuntime
import Foundation
import LoopbackHTTPServer
import SecureNodeEngine
import SecureNodeAPI

/// A full sync of `count` records over HTTP: a loopback server writes the
/// JSON while it sends it (the server never holds the body), the generated
/// client reads it, the store applies it. Run in a child process per mode,
/// so that each peak RSS is that mode's alone.
enum HTTPSync {
    /// How the client reads the response.
    enum Mode: String {
        /// `syncBrandingStreamed` through the SDK's sync engine: records
        /// decoded and applied while the body arrives.
        case streamed
        /// The peer: `syncBranding` decodes the whole body, then the store
        /// applies the array (the SDK before streaming).
        case buffered
    }

    static func record(_ index: Int) -> String {
        let logo = index % 3 == 0 ? #""https://assets.securenode.io/logos/\#(index % 5000).png""# : "null"
        let reason = index % 2 == 0 ? #""Appointment reminder""# : "null"
        return #"{"phone_number_e164":"\#(number(index))","brand_name":"Brand \#(index % 5000)","brand_id":"brand_\#(index % 5000)","logo_url":\#(logo),"call_reason":\#(reason),"updated_at":"2024-01-01T00:00:00Z","is_active":true}"#
    }

    static let head = Array(#"{"branding":["#.utf8)
    static let tail = Array(#"],"synced_at":"2024-01-02T00:00:00Z","config":{"branding_enabled":true}}"#.utf8)

    /// The body's bytes, made in pieces of about 64 KB.
    static func writeBody(count: Int, _ write: ([UInt8]) -> Bool) {
        var piece = head
        piece.reserveCapacity(70 << 10)
        for index in 0..<count {
            if index > 0 { piece.append(UInt8(ascii: ",")) }
            piece.append(contentsOf: record(index).utf8)
            if piece.count >= 64 << 10 {
                guard write(piece) else { return }
                piece.removeAll(keepingCapacity: true)
            }
        }
        piece.append(contentsOf: tail)
        _ = write(piece)
    }

    static func bodyLength(count: Int) -> Int {
        var length = 0
        writeBody(count: count) { length += $0.count; return true }
        return length
    }

    /// Runs one mode and prints its `BENCH` lines.
    static func run(_ mode: Mode, count: Int, folder: URL) async throws {
        let length = bodyLength(count: count)
        let server = try LoopbackHTTPServer { request in
            .streamed(status: 200, headers: [("Content-Type", "application/json")], length: length) { write in writeBody(count: count, write) }
        }
        defer { server.shutdown() }
        let store = try BrandingStore(path: folder.appendingPathComponent("http-\(mode.rawValue).sqlite").path)
        let core = ClientCore(serverURL: server.baseURL, transport: LoopbackStreamingTransport(), maximumResponseBytes: 1 << 30)
        let client = SecureNodeAPI.Client(core: core)
        let started = ContinuousClock.now
        let cpuBefore = cpuSeconds()
        let stored: Int
        switch mode {
        case .streamed:
            let status = await BrandingSync(store: store, client: client).sync()
            guard case .upToDate(_, .full, let outcome) = status else { throw HTTPSyncFailure(description: "sync ended \(status)") }
            stored = outcome.stored
        case .buffered:
            let response = try await client.syncBranding()
            let outcome = try store.apply(.full, records: response.branding.lazy.map { record in
                IncomingBrandingRecord(
                    e164: record.phoneNumberE164, brandName: record.brandName, brandID: record.brandID ?? "",
                    logoURL: record.logoURL?.absoluteString, callReason: record.callReason,
                    updatedAt: JSONCoding.formatDateTime(record.updatedAt), isActive: record.isActive)
            }, cursor: JSONCoding.formatDateTime(response.syncedAt))
            stored = outcome.stored
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        guard stored == count else { throw HTTPSyncFailure(description: "stored \(stored) of \(count) records") }
        let suffix = mode == .streamed ? "" : "-buffered"
        bench("full-sync-1m-http\(suffix)", seconds, "s")
        // CPU of the process (the client and the loopback server): beside the wall time, a slow disk told from slow code.
        bench("full-sync-1m-http\(suffix)-cpu", cpuSeconds() - cpuBefore, "s")
        bench("full-sync-1m-http\(suffix)-peak-rss", peakRSSMegabytes(), "MB", decimals: 0)
        bench("full-sync-1m-http\(suffix)-body", Double(length) / 1_048_576, "MB", decimals: 0)
    }

    /// Runs each mode in a child process of this program, forwards their
    /// lines, and prints the streamed figures as ratios of the buffered ones.
    static func runChildren(count: Int) throws {
        var figures: [String: Double] = [:]
        for mode in [Mode.streamed, .buffered] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = ["--child", mode.rawValue, "--records", String(count)]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            print(output, terminator: "")
            guard process.terminationStatus == 0 else { throw HTTPSyncFailure(description: "the \(mode) child failed (\(process.terminationStatus))") }
            for line in output.split(separator: "\n") where line.hasPrefix("BENCH ") {
                let parts = line.split(separator: " ")
                if parts.count >= 3, let value = Double(parts[2]) { figures[String(parts[1])] = value }
            }
        }
        if let streamed = figures["full-sync-1m-http"], let buffered = figures["full-sync-1m-http-buffered"] {
            bench("full-sync-1m-http-vs-buffered", streamed / buffered, "ratio")
        }
        if let streamed = figures["full-sync-1m-http-peak-rss"], let buffered = figures["full-sync-1m-http-buffered-peak-rss"] {
            bench("full-sync-1m-http-peak-rss-vs-buffered", streamed / buffered, "ratio")
        }
    }
}

struct HTTPSyncFailure: Error, CustomStringConvertible {
    let description: String
}
