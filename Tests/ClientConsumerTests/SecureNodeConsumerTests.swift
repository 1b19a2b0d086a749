import BackendDoubles
import Foundation
import SecureNodeAPI
import Testing

/// Every SecureNode operation over loopback HTTP, answered with the spec's examples.
@Suite struct SecureNodeConsumerTests {
    let examples: SpecExamples
    let displayedAt = Date(timeIntervalSince1970: 1_714_557_600)  // 2024-05-01T10:00:00Z

    init() throws {
        examples = try SpecExamples("securenode.yaml")
    }

    private func check(_ operationID: String) -> ConsumerCheck {
        ConsumerCheck(examples: examples, operationID: operationID)
    }

    @Test func syncBranding() async throws {
        try await check("syncBranding").run(errorBody: ErrorResponse.self) { url, transport in
            try await Client(serverURL: url, transport: transport).syncBranding(since: displayedAt, deviceID: "device-1")
        } checkRequest: { request in
            #expect(request.method == "GET")
            #expect(request.target == "/api/mobile/branding/sync?since=2024-05-01T10:00:00Z&device_id=device-1")
            #expect(request.body.isEmpty)
        }
        // The first sync sends no cursor.
        let server = try ExampleReplay(examples, operation: "syncBranding", status: 200)
        let sync = try await Client(serverURL: server.url, transport: ConsumerCheck.makeTransport()).syncBranding()
        #expect(server.requests.last?.target == "/api/mobile/branding/sync")
        let record = try #require(sync.branding.first)
        #expect(record.phoneNumberE164.hasPrefix("+"))
        #expect(!record.brandName.isEmpty && record.brandID?.isEmpty == false)
        if let logo = record.logoURL { #expect(logo.scheme == "https") }
        // The streamed variant reads the same records and the rest of the body.
        let streamed = try await Client(serverURL: server.url, transport: ConsumerCheck.makeTransport()).syncBrandingStreamed()
        var records: [BrandingRecord] = []
        for try await element in streamed { records.append(try element.result.get()) }
        #expect(records == sync.branding)
        #expect(streamed.envelope?.syncedAt == sync.syncedAt)
        #expect(streamed.envelope?.config == sync.config)
        #expect(streamed.envelope?.branding.isEmpty == true)
    }

    @Test func lookupBranding() async throws {
        try await check("lookupBranding").run(errorBody: ErrorResponse.self) { url, transport -> BrandingLookupResponse? in
            switch try await Client(serverURL: url, transport: transport).lookupBranding(e164: "+14155550100") {
            case .ok(let branding): return branding
            case .noContent: return nil
            }
        } checkRequest: { request in
            #expect(request.method == "GET")
            // `+` is escaped, or a server would read it as a space.
            #expect(request.target == "/api/mobile/branding/lookup?e164=%2B14155550100")
        }
        let server = try ExampleReplay(examples, operation: "lookupBranding", status: 204)
        let miss = try await Client(serverURL: server.url, transport: ConsumerCheck.makeTransport()).lookupBranding(e164: "+14155550100")
        #expect(miss == .noContent)
    }

    @Test func recordImprint() async throws {
        try await check("recordImprint").run(errorBody: ErrorResponse.self) { url, transport in
            try await Client(serverURL: url, transport: transport).recordImprint(body: ImprintRequest(
                phoneNumberE164: "+14155550100", eventKey: "key-1", brandID: "brand-9", displayedAt: displayedAt))
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/api/mobile/branding/imprint")
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.bodyText == #"{"brand_id":"brand-9","displayed_at":"2024-05-01T10:00:00Z","event_key":"key-1","phone_number_e164":"+14155550100"}"#)
        }
    }

    @Test func recordBrandingEvent() async throws {
        let meta = EventMeta(callEventID: "call-1", ringDurationSeconds: 12, callOutcome: "answered", returnCallDetected: false)
        try await check("recordBrandingEvent").run(errorBody: ErrorResponse.self) { url, transport in
            try await Client(serverURL: url, transport: transport).recordBrandingEvent(body: UsageEventRequest(
                phoneNumberE164: "+14155550100", outcome: "displayed", surface: "incoming_call", displayedAt: displayedAt,
                eventKey: "key-2", meta: meta))
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/api/mobile/branding/event")
            let body = try #require(request.jsonBody)
            #expect(body["event_key"] as? String == "key-2")
            let sentMeta = try #require(body["meta"] as? [String: Any])
            #expect(sentMeta["call_event_id"] as? String == "call-1")
            #expect(sentMeta["ring_duration_seconds"] as? Int == 12)
            #expect(sentMeta["return_call_detected"] as? Bool == false)
            #expect(sentMeta["caller_number_e164"] == nil, "absent optionals are not sent")
        }
    }

    @Test func registerDevice() async throws {
        try await check("registerDevice").run(errorBody: ErrorResponse.self) { url, transport in
            try await Client(serverURL: url, transport: transport).registerDevice(body: DeviceRegisterRequest(
                deviceID: "device-1", platform: .ios, sdkVersion: "1.4.0", capabilities: ["call_directory": true]))
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/api/mobile/device/register")
            #expect(request.bodyText == #"{"capabilities":{"call_directory":true},"device_id":"device-1","platform":"ios","sdk_version":"1.4.0"}"#)
        }
    }

    @Test func updateDevice() async throws {
        try await check("updateDevice").run(errorBody: ErrorResponse.self) { url, transport in
            try await Client(serverURL: url, transport: transport).updateDevice(body: DeviceUpdateRequest(deviceID: "device-1", osVersion: "18.1"))
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/api/mobile/device/update")
            #expect(request.bodyText == #"{"device_id":"device-1","os_version":"18.1"}"#)
        }
    }

    @Test func reportDevicePresence() async throws {
        try await check("reportDevicePresence").run(errorBody: ErrorResponse.self) { url, transport in
            try await Client(serverURL: url, transport: transport).reportDevicePresence(body: PresenceRequest(
                deviceID: "device-1", observedAt: displayedAt, platform: .android))
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/api/mobile/device/presence")
            #expect(request.jsonBody?["platform"] as? String == "android")
        }
    }

    @Test func aValueOutsideTheSpecsEnumIsNotSent() async throws {
        let server = try ExampleReplay(examples, operation: "reportDevicePresence", status: 200)
        let presence = PresenceRequest(deviceID: "device-1", observedAt: displayedAt, platform: .unknown("harmonyos"))
        let refused = await #expect(throws: ConstraintViolation.self) {
            try await Client(serverURL: server.url, transport: ConsumerCheck.makeTransport()).reportDevicePresence(body: presence)
        }
        #expect(refused?.description == #"reportDevicePresence: body.platform is not one of ios, android (it is "harmonyos")"#)
        #expect(server.requests.isEmpty)
        // With the checks off, the unknown value goes out as it is.
        let unchecked = Client(serverURL: server.url, transport: ConsumerCheck.makeTransport(), constraintChecks: [])
        _ = try await unchecked.reportDevicePresence(body: presence)
        #expect(server.requests.last?.jsonBody?["platform"] as? String == "harmonyos")
    }

    @Test func uploadDebugLogs() async throws {
        try await check("uploadDebugLogs").run(errorBody: ErrorResponse.self) { url, transport in
            try await Client(serverURL: url, transport: transport).uploadDebugLogs(body: DebugUploadRequest(
                deviceID: "device-1", logs: [DebugLogEntry(timestamp: displayedAt, level: "info", message: "sync ok")]))
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/api/mobile/debug/upload")
            let logs = try #require(request.jsonBody?["logs"] as? [[String: Any]])
            #expect(logs.first?["message"] as? String == "sync ok")
        }
    }

    @Test func everyOperationNeedsTheAPIKeyHeader() {
        #expect(Client.Operations.byID.count == 8)
        for operation in Client.Operations.byID.values {
            #expect(!operation.isPublic, "\(operation.id)")
            #expect(operation.security.first?.first?.headerName?.rawName == "X-API-Key", "\(operation.id)")
        }
    }

    @Test func serversAreNamed() {
        #expect(Client.Server.production.url.absoluteString == "https://api.securenode.io")
        #expect(Client.Server.edge.url.absoluteString == "https://edge.securenode.io")
    }

    @Test func absentAndNullLogoURLsDiffer() async throws {
        let body = """
            {"branding": [
              {"phone_number_e164": "+14155550100", "brand_name": "A", "brand_id": "a", "updated_at": "2024-05-01T10:00:00Z", "is_active": true},
              {"phone_number_e164": "+14155550101", "brand_name": "B", "brand_id": "b", "logo_url": null, "updated_at": "2024-05-01T10:00:00.250Z", "is_active": true},
              {"phone_number_e164": "+14155550102", "brand_name": "C", "brand_id": "c", "logo_url": "https://assets.securenode.io/c.png", "updated_at": "2024-05-01T12:00:00+02:00", "is_active": false}
            ], "synced_at": "2024-05-01T10:00:00Z", "config": {"branding_enabled": true, "debug_upload_enabled": true}}
            """
        let server = try ExampleReplay(status: 200, body: body)
        let sync = try await Client(serverURL: server.url, transport: ConsumerCheck.makeTransport()).syncBranding()
        // A response-only type reads an absent field and `null` alike.
        #expect(sync.branding[0].logoURL == nil)
        #expect(sync.branding[1].logoURL == nil)
        #expect(sync.branding[2].logoURL == URL(string: "https://assets.securenode.io/c.png")!)
        #expect(sync.branding[1].updatedAt.timeIntervalSince1970 == 1_714_557_600.25)
        #expect(sync.branding[2].updatedAt == displayedAt)
        // Flags the spec does not name are kept.
        #expect(sync.config?.brandingEnabled == true)
        #expect(sync.config?.additionalProperties["debug_upload_enabled"] == .bool(true))
    }

    @Test func malformedBodyIsATypedErrorNamingTheField() async throws {
        let body = #"{"branding": [{"phone_number_e164": "+14155550100", "brand_name": 42, "brand_id": "a", "updated_at": "2024-05-01T10:00:00Z", "is_active": true}], "synced_at": "2024-05-01T10:00:00Z"}"#
        let server = try ExampleReplay(status: 200, body: body)
        let error = await #expect(throws: ResponseDecodingError.self) {
            try await Client(serverURL: server.url, transport: ConsumerCheck.makeTransport()).syncBranding()
        }
        #expect(error?.operationID == "syncBranding")
        #expect(error?.field == "branding[0].brand_name")
        #expect(error?.status == 200)

        let truncated = try ExampleReplay(status: 200, body: #"{"branding": [{"phone_number_e164": "+1415"#)
        let truncatedError = await #expect(throws: ResponseDecodingError.self) {
            try await Client(serverURL: truncated.url, transport: ConsumerCheck.makeTransport()).syncBranding()
        }
        #expect(truncatedError?.operationID == "syncBranding")
    }

    @Test func undocumentedStatusKeepsTheResponse() async throws {
        let server = try ExampleReplay(status: 418, contentType: "text/plain", body: "teapot")
        let error = await #expect(throws: UndocumentedResponseError.self) {
            try await Client(serverURL: server.url, transport: ConsumerCheck.makeTransport()).syncBranding()
        }
        #expect(error?.response.status.code == 418)
        #expect(error?.body == Array("teapot".utf8))
    }

    @Test func fullResponseIsReachable() async throws {
        let server = try LoopbackReplyWithHeaders(status: 429, headers: [("Retry-After", "30")], body: #"{"error": "rate_limited", "message": "slow down"}"#)
        let error = await #expect(throws: APIError<ErrorResponse>.self) {
            try await Client(serverURL: server.url, transport: ConsumerCheck.makeTransport()).recordImprint(body: ImprintRequest(phoneNumberE164: "+14155550100", eventKey: "k"))
        }
        #expect(error?.status == 429)
        #expect(error?.headerFields[.retryAfter] == "30")
        #expect(error?.body.error == "rate_limited")

        let ok = try LoopbackReplyWithHeaders(status: 200, headers: [("ETag", "\"v7\"")], body: #"{"success": true}"#)
        let response = try await Client(serverURL: ok.url, transport: ConsumerCheck.makeTransport()).reportDevicePresenceWithResponse(body: PresenceRequest(deviceID: "d", observedAt: displayedAt))
        #expect(response.status == 200)
        #expect(response.headerFields[.eTag] == "\"v7\"")
        #expect(response.body.success == true)
    }
}
