import BackendDoubles
import Foundation
import Testing

@Suite struct TrackerExampleTests {
    @Test func trackIdentifyFlushAndResetAcrossRuns() async throws {
        let backend = try TrackerBackend()
        let state = try makeStateFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let common = ["--base-url", backend.baseURL.absoluteString, "--api-key", backend.apiKey, "--brand-id", "925", "--state", state.path]

        let tracked = try await ExampleRun.run("tracker-example", common + ["track", "BUTTON_CLICK", "button=signup", "count=2", "ok=true"])
        #expect(tracked.status == 0, "\(tracked.stderr)")
        let first = try #require(tracked.objects.first)
        #expect(first["event"] as? String == "tracked" && first["pending"] as? Int == 0)
        let data = try #require(backend.events.first?.json["data"] as? [String: Any])
        #expect(data["button"] as? String == "signup" && data["count"] as? Int == 2 && data["ok"] as? Bool == true)

        let identified = try await ExampleRun.run("tracker-example", common + ["identify", "user123", "user@example.com"])
        #expect(identified.status == 0 && identified.objects.first?["session_id"] as? String == first["session_id"] as? String,
                "the second run restored the session")
        #expect(backend.received.last?.kind == "profile" && backend.received.last?.json["user_id"] as? String == "user123")

        // Offline: the event stays queued on disk; the next flush delivers it.
        backend.fault.withLock { $0 = { _ in .dropConnection } }
        let offline = try await ExampleRun.run("tracker-example", common + ["track", "QUEUED_OFFLINE"])
        #expect(offline.status == 0 && offline.objects.first?["pending"] as? Int == 1)
        let stuck = try await ExampleRun.run("tracker-example", common + ["flush", "--timeout", "1"])
        #expect(stuck.status == 1 && stuck.stderr.hasPrefix("error: notDelivered: 1 queued item(s) not delivered yet"))
        backend.fault.withLock { $0 = nil }
        let flushed = try await ExampleRun.run("tracker-example", common + ["flush"])
        #expect(flushed.status == 0 && flushed.objects.first?["empty"] as? Bool == true)
        #expect(backend.events.map(\.eventName) == ["BUTTON_CLICK", "QUEUED_OFFLINE"])

        let reset = try await ExampleRun.run("tracker-example", common + ["reset"])
        #expect(reset.status == 0 && reset.objects.first?["session_id"] as? String != first["session_id"] as? String)
        #expect(backend.sessions.count == 2)

        let badBrand = try await ExampleRun.run("tracker-example", ["--base-url", backend.baseURL.absoluteString, "--api-key", "k", "--brand-id", "abc",
                                                              "--state", state.path, "flush"])
        #expect(badBrand.status == 1 && badBrand.stderr == "error: invalidBrandId: invalid brand id: it must be a non-empty numeric string such as \"925\"\n")
    }

    @Test func aRefusedKeyKeepsEveryEventUntilARunWithTheNewKey() async throws {
        let backend = try TrackerBackend()
        let state = try makeStateFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        func common(_ key: String) -> [String] {
            ["--base-url", backend.baseURL.absoluteString, "--api-key", key, "--brand-id", "925", "--state", state.path]
        }
        let started = try await ExampleRun.run("tracker-example", common("test-key") + ["track", "FIRST"])
        #expect(started.status == 0, "\(started.stderr)")

        // The brand's key is rotated: the app's old key gets 401 from now on.
        backend.rotateKey(to: "rotated-key")
        for name in ["A", "B", "C"] {
            let tracked = try await ExampleRun.run("tracker-example", common("test-key") + ["track", name])
            #expect(tracked.status == 0, "\(tracked.stderr)")
        }
        let paused = try await ExampleRun.run("tracker-example", common("test-key") + ["flush", "--timeout", "5"])
        #expect(paused.status == 0, "a paused queue is not a failed run: \(paused.stderr)")
        let line = try #require(paused.objects.first)
        #expect(line["paused"] as? Bool == true && line["paused_for_status"] as? Int == 401 && line["pending"] as? Int == 3)
        #expect(line["dropped_rejected"] as? Int == 0)

        let delivered = try await ExampleRun.run("tracker-example", common("rotated-key") + ["flush"])
        #expect(delivered.status == 0 && delivered.objects.first?["empty"] as? Bool == true, "\(delivered.stderr)")
        #expect(backend.events.map(\.eventName) == ["FIRST", "A", "B", "C"], "every event, in order, once")
        #expect(!(paused.stdout.joined() + paused.stderr + delivered.stdout.joined() + delivered.stderr).contains("rotated-key"))
    }
}
