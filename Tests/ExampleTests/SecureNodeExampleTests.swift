import BackendDoubles
import Foundation
import LoopbackHTTPServer
import Testing

@Suite struct SecureNodeExampleTests {
    @Test func syncLookupCallAndDeliverAcrossRuns() async throws {
        let backend = try SecureNodeBackend()
        backend.setRecord("+61412345678", name: "Acme Bank", callReason: "Fraud alert")
        backend.setRecord("+1234567890", name: "Contoso Health")
        let state = try makeStateFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let common = ["--base-url", backend.baseURL.absoluteString, "--api-key", backend.apiKey, "--state", state.path]

        let full = try await ExampleRun.run("securenode-example", common + ["sync"])
        #expect(full.status == 0, "\(full.stderr)")
        let synced = try #require(full.objects.first)
        #expect(synced["kind"] as? String == "full" && synced["stored"] as? Int == 2 && synced["records"] as? Int == 2)
        #expect(backend.devices.count == 1, "the device registered")

        let found = try await ExampleRun.run("securenode-example", common + ["lookup", "+61412345678", "+19995550000"])
        #expect(found.status == 0)
        #expect(found.objects.map { $0["match"] as? Bool } == [true, false])
        #expect(found.objects.first?["brand_name"] as? String == "Acme Bank" && found.objects.first?["number"] as? String == "+*******5678")
        #expect(!found.stdout.joined().contains("61412345678"), "numbers are masked")

        // A purge and a change arrive by an incremental sync.
        backend.setRecord("+1234567890", name: "Contoso Health", active: false)
        backend.setRecord("+447700900123", name: "Northwind")
        let incremental = try await ExampleRun.run("securenode-example", common + ["sync"])
        let second = try #require(incremental.objects.first)
        #expect(second["kind"] as? String == "incremental" && second["stored"] as? Int == 1 && second["deleted"] as? Int == 1)
        #expect(backend.devices.count == 1, "registered once per install")

        // A branded call: imprint and event delivered with the same run.
        let call = try await ExampleRun.run("securenode-example", common + ["call", "+61412345678", "--outcome", "ANSWERED", "--ring-seconds", "7"])
        #expect(call.status == 0, "\(call.stderr)")
        #expect(call.objects.first?["branded"] as? Bool == true && call.objects.first?["pending"] as? Int == 0)
        #expect(backend.billed.map(\.kind).sorted() == ["event", "imprint"])
        let event = try #require(backend.billed.first { $0.kind == "event" }?.json["meta"] as? [String: Any])
        #expect(event["call_outcome"] as? String == "ANSWERED" && event["ring_duration_seconds"] as? Int == 7 && event["branding_applied"] as? Bool == true)

        // Offline: the event waits in the outbox; a later run delivers it once.
        backend.fault.withLock { $0 = { _ in .dropConnection } }
        let offline = try await ExampleRun.run("securenode-example", common + ["call", "+19995550000", "--outcome", "MISSED", "--timeout", "1"])
        #expect(offline.status == 0 && offline.objects.first?["branded"] as? Bool == false && offline.objects.first?["pending"] as? Int == 1)
        backend.fault.withLock { $0 = nil }
        let delivered = try await ExampleRun.run("securenode-example", common + ["deliver"])
        #expect(delivered.status == 0 && delivered.objects.first?["pending"] as? Int == 0, "\(delivered.stderr)")
        #expect(backend.billed.filter { $0.kind == "event" }.count == 2, "no imprint for an unbranded call")

        // The background task's body: a sync with nothing new, nothing pending; then a change arrives.
        let quiet = try await ExampleRun.run("securenode-example", common + ["refresh"])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.objects.first?["succeeded"] as? Bool == true && quiet.objects.first?["new_data"] as? Bool == false)
        #expect(quiet.objects.first?["events_pending"] as? Int == 0)
        backend.setRecord("+61298765432", name: "Fabrikam")
        let changed = try await ExampleRun.run("securenode-example", common + ["refresh"])
        #expect(changed.objects.first?["new_data"] as? Bool == true, "\(changed.stdout)")

        // Refused credentials: one line on stderr, exit 1.
        let refused = try await ExampleRun.run("securenode-example", ["--base-url", backend.baseURL.absoluteString, "--api-key", "sk_wrong", "--state", state.path, "sync"])
        #expect(refused.status == 1 && refused.stderr.hasPrefix("error: disabled: the server refused the API key (401)"))
        #expect(!refused.stderr.contains("sk_wrong"))
    }

    /// The SDK checks a stored refusal at launch and syncs when the key is
    /// accepted again; the app's own `sync` at the same moment joins that
    /// sync and reports its outcome (it used to print `notSynced ...
    /// (syncing)` and exit 1 about every other launch).
    @Test func aSyncRightAfterARefusalIsLiftedReportsTheSyncThatRan() async throws {
        let backend = try SecureNodeBackend()
        backend.setRecord("+61412345678", name: "Acme Bank")
        let state = try makeStateFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let common = ["--base-url", backend.baseURL.absoluteString, "--api-key", backend.apiKey, "--state", state.path]
        var outcomes: [Int32] = []
        for launch in 0..<10 {
            backend.fault.withLock {
                $0 = { request in request.path.hasSuffix("/branding/sync") ? .json(401, #"{"error":"unauthorized"}"#) : nil }
            }
            let refused = try await ExampleRun.run("securenode-example", common + ["sync"])
            #expect(refused.status == 1 && refused.stderr.hasPrefix("error: disabled"), "launch \(launch): \(refused.stderr)")
            backend.fault.withLock { $0 = nil }
            let lifted = try await ExampleRun.run("securenode-example", common + ["sync"])
            outcomes.append(lifted.status)
            #expect(lifted.status == 0 && lifted.objects.first?["event"] as? String == "synced", "launch \(launch): \(lifted.stderr)")
        }
        print("securenode-example sync right after a refusal was lifted: \(outcomes.filter { $0 == 0 }.count) of \(outcomes.count) launches exit 0")
    }
}
