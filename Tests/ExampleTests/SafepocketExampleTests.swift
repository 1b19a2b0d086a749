import BackendDoubles
import Foundation
import Testing

@Suite struct SafepocketExampleTests {
    @Test func pkceSignInAcrossRunsThenAccountsAndTransactions() async throws {
        let backend = try SafepocketBackend()
        let state = try makeStateFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let common = ["--base-url", backend.baseURL.absoluteString, "--state", state.path]

        let start = try await ExampleRun.run("safepocket-example", common + ["authorize-url"])
        #expect(start.status == 0, "\(start.stderr)")
        let text = try #require(start.objects.first?["authorize_url"] as? String)
        let url = try #require(URL(string: text))
        let redirect = try #require(backend.authorize(url), "the URL carries what PKCE needs")
        let items = URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let code = try #require(items.first { $0.name == "code" }?.value)
        let redirectState = try #require(items.first { $0.name == "state" }?.value)

        let forged = try await ExampleRun.run("safepocket-example", common + ["exchange", "--", code, "forged-state"])
        #expect(forged.status == 1 && forged.stderr.hasPrefix("error: stateMismatch: "))
        #expect(backend.counters.codeExchanges == 0)

        // `--` first: a random state can begin with `-` (base64url), which would read as an option.
        let exchange = try await ExampleRun.run("safepocket-example", common + ["exchange", "--", code, redirectState])
        #expect(exchange.status == 0 && exchange.objects.first?["event"] as? String == "signed_in", "\(exchange.stderr)")

        let accounts = try await ExampleRun.run("safepocket-example", common + ["accounts"])
        let accountList = accounts.objects.first?["accounts"] as? [[String: Any]] ?? []
        #expect(accounts.status == 0 && !accountList.isEmpty && accountList.allSatisfy { $0["id"] is String })
        #expect(accounts.objects.first?["source"] as? String == "network" && accounts.objects.first?["age_seconds"] as? Int == 0)
        let transactions = try await ExampleRun.run("safepocket-example", common + ["transactions", "--month", "2024-06"])
        #expect(transactions.status == 0 && !((transactions.objects.first?["transactions"] as? [Any]) ?? []).isEmpty)
        #expect(backend.server.requests.first { $0.path == "/transactions" }?.query == "month=2024-06")

        backend.fault.withLock { $0 = { request in
            request.path == "/accounts" ? SafepocketBackend.envelope(403, "FORBIDDEN", "Plaid item not linked") : nil
        } }
        let forbidden = try await ExampleRun.run("safepocket-example", common + ["accounts"])
        #expect(forbidden.status == 1)
        #expect(forbidden.stderr == "error: api: Safepocket error status 403 FORBIDDEN: Plaid item not linked (trace trace-403-forbidden)\n")

        // Offline: the accounts come from the cache, with their age.
        backend.fault.withLock { $0 = nil }
        backend.server.shutdown()
        let offline = try await ExampleRun.run("safepocket-example", common + ["accounts"])
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.objects.first?["source"] as? String == "cache" && offline.objects.first?["age_seconds"] is Int)
        #expect((offline.objects.first?["accounts"] as? [Any])?.count == accountList.count)

        let logout = try await ExampleRun.run("safepocket-example", common + ["logout"])
        #expect(logout.status == 0)
        let after = try await ExampleRun.run("safepocket-example", common + ["accounts"])
        #expect(after.status == 1 && after.stderr.hasPrefix("error: notSignedIn: "), "signed out: the cache is gone too")
    }

    @Test func filtersAndAnUpdateQueuedOfflineWithItsKey() async throws {
        let backend = try SafepocketBackend()
        let state = try makeStateFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let common = ["--base-url", backend.baseURL.absoluteString, "--state", state.path]
        try await ExampleRun.signInSafepocket(common, through: backend)
        let accounts = try await ExampleRun.run("safepocket-example", common + ["accounts"])
        let account = try #require((accounts.objects.first?["accounts"] as? [[String: Any]])?.first?["id"] as? String)

        let filtered = try await ExampleRun.run(
            "safepocket-example", common + ["transactions", "--from", "2024-05", "--to", "2024-06", "--account", account, "--page", "0", "--page-size", "5"])
        #expect(filtered.status == 0, "\(filtered.stderr)")
        let lines = filtered.objects.first?["transactions"] as? [[String: Any]] ?? []
        #expect(!lines.isEmpty && lines.count <= 5)
        let query = backend.server.requests.last { $0.path == "/transactions" }?.query ?? ""
        for item in ["from=2024-05", "to=2024-06", "accountId=\(account)", "page=0", "pageSize=5"] { #expect(query.contains(item), "\(item) in \(query)") }
        let transaction = try #require(lines.first?["id"] as? String)

        let sent = try await ExampleRun.run("safepocket-example", common + ["update-transaction", transaction, "--category", "Groceries"])
        #expect(sent.status == 0 && sent.objects.first?["queued"] as? Bool == false, "\(sent.stderr)")
        let patch = try #require(backend.server.requests.last { $0.method == "PATCH" })
        #expect(patch.header("Idempotency-Key") != nil)

        backend.server.shutdown()
        let queued = try await ExampleRun.run("safepocket-example", common + ["update-transaction", transaction, "--notes", "weekly shop"])
        #expect(queued.status == 0, "\(queued.stderr)")
        #expect(queued.objects.first?["queued"] as? Bool == true)
        let key = try #require(queued.objects.first?["idempotency_key"] as? String)
        let pending = try await ExampleRun.run("safepocket-example", common + ["pending"])
        #expect(pending.status == 0, "\(pending.stderr)")
        let waiting = try #require(pending.objects.first { $0["operation"] as? String == "updateTransaction" })
        #expect(waiting["idempotency_key"] as? String == key && waiting["state"] as? String == "waiting", "one key, kept across runs")
    }
}
