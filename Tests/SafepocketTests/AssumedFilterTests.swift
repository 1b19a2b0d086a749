import BackendDoubles
import ClientRuntimeTesting
import Foundation
import Resilience
import Safepocket
import SafepocketAPI
import Testing

/// The spec's guesses never refuse real traffic: the guide gives `from` and
/// `to` no format, the spec guesses months (`x-assumed`), and a day date
/// still goes out and comes back decoded, against the whole sandbox in
/// strict mode over loopback; the documented `month=YYYY-MM` stays checked.
@Suite struct SafepocketAssumedFilterTests {
    /// A Safepocket SDK signed in to the sandbox's Safepocket, through its hosted page.
    static func signedIn(_ sandbox: SandboxServer, folder: URL, log: LogCapture) async throws -> Safepocket {
        let base = sandbox.baseURL(of: "safepocket")
        let safepocket = try Safepocket(.init(
            baseURL: base, authorization: .init(authorizeEndpoint: base.appendingPathComponent("oauth2/authorize"), clientID: "ios-client"),
            tokenStore: FileTokenStore(url: folder.appendingPathComponent("refresh-token.json")), logger: log.logger(label: "safepocket"),
            connectivity: nil, storageFolder: folder))
        let redirect = try #require(sandbox.redirect(of: try await safepocket.startSignIn()))
        try await safepocket.completeSignIn(redirect: redirect)
        return safepocket
    }

    @Test func aDayDateInTheWindowIsSentAndDecoded() async throws {
        let sandbox = try SandboxServer()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("safepocket-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = LogCapture()
        let safepocket = try await Self.signedIn(sandbox, folder: folder, log: log)
        // The sandbox's ledger ends this month: a window from the 10th of two months ago to the 20th of last month.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let thisMonth = calendar.date(from: calendar.dateComponents([.year, .month], from: Date()))!
        let start = calendar.date(byAdding: DateComponents(month: -2, day: 9), to: thisMonth)!
        let end = calendar.date(byAdding: DateComponents(month: -1, day: 19), to: thisMonth)!
        let day = DateFormatter()
        day.calendar = calendar
        day.timeZone = calendar.timeZone
        day.locale = Locale(identifier: "en_US_POSIX")
        day.dateFormat = "yyyy-MM-dd"
        let (from, to) = (day.string(from: start), day.string(from: end))

        let list = try await safepocket.transactions(from: from, to: to, pageSize: 100).value
        let dates = list.transactions.map { day.string(from: $0.occurredAt) }
        #expect(!dates.isEmpty && dates.allSatisfy { $0 >= from && $0 <= to }, "\(from)...\(to): \(dates.first ?? "") ... \(dates.last ?? "")")
        #expect(list.period?.from?.description == from && list.period?.to?.description == to, "\(String(describing: list.period))")
        #expect(sandbox.log.read().isEmpty, "the sandbox refused nothing, and its answers kept the spec: \(sandbox.log.read())")

        // The documented filter stays strict: a month that is not YYYY-MM never leaves the device.
        let before = sandbox.server.requests.count
        let error = await safepocketError { try await safepocket.transactions(month: "2024-1") }
        guard case .constraintViolated(let violation)? = error else {
            Issue.record("expected constraintViolated, got \(String(describing: error))")
            return
        }
        #expect(violation.path.contains("month") && violation.rule.keyword == "pattern", "\(violation)")
        #expect(sandbox.server.requests.count == before, "nothing sent")
    }
}
