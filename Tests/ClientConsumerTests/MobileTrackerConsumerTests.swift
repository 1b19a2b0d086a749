import BackendDoubles
import Foundation
import MobileTrackerAPI
import Testing

/// Identifiers the MobileTracker spec's examples use.
private enum Fixture {
    static let sessionID: SessionID = "3f2b8c1e-7d4a-4b6e-9f10-2a3b4c5d6e7f"
    static let deviceID = try! LowercaseUUID("6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b")
    static let brandID: BrandID = 925
}

/// Every MobileTracker operation over loopback HTTP, answered with the spec's examples.
@Suite struct MobileTrackerConsumerTests {
    let examples: SpecExamples

    init() throws {
        examples = try SpecExamples("mobiletracker.yaml")
    }

    private func check(_ operationID: String) -> ConsumerCheck {
        ConsumerCheck(examples: examples, operationID: operationID)
    }

    private func client(_ server: ExampleReplay) -> Client {
        Client(serverURL: server.url, transport: ConsumerCheck.makeTransport())
    }

    @Test func createTrackingSession() async throws {
        let device = CreateTrackingSessionRequest(deviceID: Fixture.deviceID, osName: "iOS", deviceType: "Mobile", brandID: Fixture.brandID)
        let exchanges = try await check("createTrackingSession").run(errorBody: ErrorResponse.self) { url, transport in
            try await Client(serverURL: url, transport: transport).createTrackingSession(body: device)
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/v2/tracking-session")
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.header("Accept") == "application/json")
            let body = try #require(request.jsonBody)
            #expect(body["brand_id"] as? Int == 925, "the brand id is a JSON number")
            #expect(body["os_name"] as? String == "iOS")
            #expect(body["device_type"] as? String == "Mobile")
            #expect((body["device_id"] as? String) == "6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b")
            #expect(body.count == 4)
        }
        // 201 shares the 200 body: both decode.
        #expect(exchanges.map(\.replayed.status) == [200, 201, 400, 401, 500])

        let server = try ExampleReplay(examples, operation: "createTrackingSession", status: 201)
        let created = try await client(server).createTrackingSessionWithResponse(body: device)
        #expect(created.status == 201)
        #expect(created.body.data.id == Fixture.sessionID)
    }

    @Test func sendTrackingSessionData() async throws {
        let purchase = TrackEventRequest(brandID: Fixture.brandID, sessionID: Fixture.sessionID, eventName: "PURCHASE", data: [
            "order_id": .string("ORD-789"),
            "total": .double(149.99),
            "items": .array([.object(["id": .string("12345"), "quantity": .int(2)]), .object(["id": .string("67890"), "quantity": .int(1)])]),
            "flow_id": .string("checkout_v2"),
            "experiment": .string("new_checkout"),
            "coupon": .null,
        ])
        let exchanges = try await check("sendTrackingSessionData").run(errorBody: ErrorResponse.self) { url, transport in
            try await Client(serverURL: url, transport: transport).sendTrackingSessionData(body: purchase)
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/v2/tracking-session-data")
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.header("Accept") == "application/json")
            let body = try #require(request.jsonBody)
            #expect(body["brand_id"] as? Int == 925)
            #expect(body["event_name"] as? String == "PURCHASE")
            #expect((body["session_id"] as? String) == "3f2b8c1e-7d4a-4b6e-9f10-2a3b4c5d6e7f")
            let data = try #require(body["data"] as? [String: Any])
            #expect(data["order_id"] as? String == "ORD-789")
            #expect((data["total"] as? NSNumber)?.doubleValue == 149.99)
            #expect(data["coupon"] is NSNull, "a null in free-form data is sent as null")
            let items = try #require(data["items"] as? [[String: Any]])
            #expect(items.map { $0["id"] as? String } == ["12345", "67890"])
            #expect(items.map { $0["quantity"] as? Int } == [2, 1])
        }
        #expect(exchanges.map(\.replayed.status) == [200, 400, 401, 500])

        // A screen view without extra data leaves `data` out.
        let server = try ExampleReplay(examples, operation: "sendTrackingSessionData", status: 200)
        let status = try await client(server).sendTrackingSessionData(body: TrackEventRequest(brandID: Fixture.brandID, sessionID: Fixture.sessionID, eventName: "VIEW_PAGE"))
        let body = try #require(server.requests.last?.jsonBody)
        #expect(body["data"] == nil)
        #expect(Set(body.keys) == ["brand_id", "event_name", "session_id"])
        #expect(status.success == true)
        #expect(status.message == "OK")
        #expect(status.additionalProperties.isEmpty)
    }

    @Test func statusResponseKeepsUnknownMembers() async throws {
        let server = try ExampleReplay(status: 200, body: #"{"success":true,"message":null,"queued":3,"region":"eu"}"#)
        let status = try await client(server).sendTrackingSessionData(body: TrackEventRequest(brandID: Fixture.brandID, sessionID: Fixture.sessionID, eventName: "SIGNUP"))
        #expect(status.success == true)
        #expect(status.message == nil)
        #expect(status.additionalProperties == ["queued": .int(3), "region": .string("eu")])
    }

    @Test func setCustomerProfile() async throws {
        let profile = CustomerProfileUpdateRequest(
            brandID: Fixture.brandID, userID: .value("user123"), sessionID: Fixture.sessionID,
            name: .value("John Doe"), email: .value("user@example.com"), phone: .value("+1234567890"),
            gender: .null, metadata: .value(["plan": .string("premium")]))
        let exchanges = try await check("setCustomerProfile").run(errorBody: ErrorResponse.self) { url, transport in
            try await Client(serverURL: url, transport: transport).setCustomerProfile(body: profile)
        } checkRequest: { request in
            #expect(request.method == "PUT")
            #expect(request.target == "/v1/customer-profiles/set")
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.header("Accept") == "application/json")
            let body = try #require(request.jsonBody)
            #expect(body["brand_id"] as? Int == 925)
            #expect(body["user_id"] as? String == "user123")
            #expect((body["session_id"] as? String) == "3f2b8c1e-7d4a-4b6e-9f10-2a3b4c5d6e7f")
            #expect(body["name"] as? String == "John Doe")
            #expect(body["email"] as? String == "user@example.com")
            #expect(body["phone"] as? String == "+1234567890")
            // Explicit null is sent; absent fields are left out.
            #expect(body["gender"] is NSNull)
            #expect(body["business_domain"] == nil && body["source"] == nil && body["birthday"] == nil)
            #expect((body["metadata"] as? [String: Any])?["plan"] as? String == "premium")
            #expect(body.count == 8)
        }
        #expect(exchanges.map(\.replayed.status) == [200, 400, 401, 500])

        // setMetadata(): metadata with a nested array, snake_case keys.
        let server = try ExampleReplay(examples, operation: "setCustomerProfile", status: 200)
        _ = try await client(server).setCustomerProfile(body: CustomerProfileUpdateRequest(
            brandID: Fixture.brandID, userID: .value("user123"), businessDomain: .value("retail"),
            metadata: .value(["session_type": .string("premium"), "feature_flags": .array([.string("new_ui")])])))
        #expect(server.requests.last?.bodyText == #"{"brand_id":925,"business_domain":"retail","metadata":{"feature_flags":["new_ui"],"session_type":"premium"},"user_id":"user123"}"#)
    }

    @Test func updateTrackingSessionLocation() async throws {
        let location = LocationUpdateRequest(latitude: 37.7749, longitude: -122.4194, accuracy: 10.0)
        let exchanges = try await check("updateTrackingSessionLocation").run(errorBody: ErrorResponse.self) { url, transport in
            try await Client(serverURL: url, transport: transport).updateTrackingSessionLocation(sessionID: Fixture.sessionID, body: location)
        } checkRequest: { request in
            #expect(request.method == "PUT")
            #expect(request.target == "/v2/tracking-session/3f2b8c1e-7d4a-4b6e-9f10-2a3b4c5d6e7f/location")
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.header("Accept") == "application/json")
            let body = try #require(request.jsonBody)
            #expect((body["latitude"] as? NSNumber)?.doubleValue == 37.7749)
            #expect((body["longitude"] as? NSNumber)?.doubleValue == -122.4194)
            #expect((body["accuracy"] as? NSNumber)?.doubleValue == 10.0)
            #expect(body.count == 3)
        }
        #expect(exchanges.map(\.replayed.status) == [200, 400, 401, 404, 500])

        let server = try ExampleReplay(examples, operation: "updateTrackingSessionLocation", status: 404)
        do {
            _ = try await client(server).updateTrackingSessionLocation(sessionID: Fixture.sessionID, body: location)
            Issue.record("expected APIError<ErrorResponse>")
        } catch let error as APIError<ErrorResponse> {
            #expect(error.status == 404)
            #expect(error.operationID == "updateTrackingSessionLocation")
            #expect(error.body.success == false)
            #expect(error.body.message == "Tracking session not found")
            #expect(error.body.code == "NOT_FOUND")
        }
    }

    @Test func errorBodiesDecodeLoosely() async throws {
        // ErrorResponse requires nothing, so any JSON object is a typed error.
        let server = try ExampleReplay(status: 401, body: #"{"error":"invalid_api_key"}"#)
        do {
            _ = try await client(server).createTrackingSession(body: CreateTrackingSessionRequest(deviceID: Fixture.deviceID, osName: "Android", deviceType: "Mobile", brandID: Fixture.brandID))
            Issue.record("expected APIError<ErrorResponse>")
        } catch let error as APIError<ErrorResponse> {
            #expect(error.status == 401)
            #expect(error.body.message == nil && error.body.code == nil)
            #expect(error.body.additionalProperties["error"] == .string("invalid_api_key"))
        }
    }

    @Test func wrongTypedSessionIDNamesItsPath() async throws {
        let server = try ExampleReplay(status: 200, body: #"{"data":{"id":42}}"#)
        let error = try await #require(throws: ResponseDecodingError.self) {
            try await client(server).createTrackingSession(body: CreateTrackingSessionRequest(deviceID: Fixture.deviceID, osName: "iOS", deviceType: "Mobile", brandID: Fixture.brandID))
        }
        #expect(error.operationID == "createTrackingSession")
        #expect(error.field == "data.id")
    }

    @Test func operationsCarryTheirSecurityRequirements() {
        #expect(Client.Operations.byID.count == 4)
        // The global `security: [ApiKeyAuth: []]` applies to every operation.
        let apiKey = SecuritySchemeDescriptor(name: "ApiKeyAuth", kind: .apiKeyHeader(name: "X-API-Key"))
        for (id, operation) in Client.Operations.byID {
            #expect(!operation.isPublic, "\(id)")
            #expect(operation.accepts(scheme: "ApiKeyAuth"), "\(id)")
            #expect(!operation.accepts(scheme: "bearerAuth"), "\(id)")
            #expect(operation.security == [[apiKey]], "\(id)")
        }
        #expect(Client.Operations.createTrackingSession.security.first?.first?.headerName?.rawName == "X-API-Key")
        #expect(Client.Operations.updateTrackingSessionLocation.method == .put)
        #expect(Client.Operations.updateTrackingSessionLocation.pathTemplate == "/v2/tracking-session/{sessionId}/location")
    }

    @Test func serversAreNamed() {
        #expect(Client.Server.allCases.count == 2)
        #expect(Client.Server.example.url.absoluteString == "https://api.yourbackend.com")
        #expect(Client.Server.example2.url.absoluteString == "https://api.example.com")
    }
}
