import Testing

@testable import OpenAPIModel

/// Each of our four specs, parsed by our own loader, checked against facts
/// stated in the backend documents they were written from.
@Suite struct SpecFactsTests {
    private func loadSpec(_ name: String) throws -> OpenAPIDocument {
        let result = OpenAPILoader.load(path: Fixtures.spec(name))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        return try #require(result.document)
    }

    @Test func secureNodeSyncLookupAndBrandingRecord() throws {
        let spec = try loadSpec("securenode.yaml")
        let sync = spec.parameters(.get, "/api/mobile/branding/sync")
        #expect(Set(sync.map(\.name)) == ["since", "device_id"])
        let since = try #require(sync.first { $0.name == "since" })
        #expect(since.location == .query && !since.required)
        #expect(since.schema.flatMap { spec.resolve($0) }?.format == "date-time")

        #expect(spec.response(.get, "/api/mobile/branding/lookup", "404") != nil, "404 means no match")
        let record = try #require(spec.schema("BrandingRecord"))
        #expect(record.required.contains("phone_number_e164") && record.required.contains("brand_name"))
        // The README's shape too: brand_id may be absent, and a record without is_active is active.
        #expect(!record.required.contains("brand_id") && !record.required.contains("is_active"))
        #expect(spec.property("is_active", of: "BrandingRecord")?.defaultValue == .bool(true))
        #expect(spec.property("brand_name", of: "BrandingRecord")?.maxLength == 100)
        #expect(spec.property("logo_url", of: "BrandingRecord")?.maxLength == 2048)
        #expect(spec.property("call_reason", of: "BrandingRecord")?.maxLength == 200)
        #expect(spec.property("is_active", of: "BrandingRecord")?.singleType == .boolean)
        let e164 = try #require(spec.schema("E164PhoneNumber"))
        #expect(e164.pattern == #"^\+[1-9]\d{1,14}$"#)
        #expect(e164.maxLength == 20)
    }

    @Test func secureNodeBillingAndAuth() throws {
        let spec = try loadSpec("securenode.yaml")
        #expect(spec.schema("ImprintRequest")?.required.contains("event_key") == true)
        let meta = try #require(spec.schema("EventMeta"))
        #expect(meta.properties["ring_duration_seconds"].flatMap { spec.resolve($0) }?.singleType == .integer)
        let scheme = try #require(spec.components.securitySchemes["ApiKeyAuth"].flatMap { spec.resolve($0) })
        #expect(scheme.kind == .apiKey && scheme.keyLocation == "header" && scheme.name == "X-API-Key")
        #expect(spec.security?.first?.schemes.keys == ["ApiKeyAuth"])
        #expect(spec.servers.map(\.url) == ["https://api.securenode.io", "https://edge.securenode.io"])
        let paths = Set(spec.paths.keys)
        for path in ["branding/sync", "branding/lookup", "branding/imprint", "branding/event", "device/register", "device/update", "device/presence", "debug/upload"] {
            #expect(paths.contains("/api/mobile/" + path))
        }
    }

    @Test func soulAuthErrorsAndRateLimit() throws {
        let spec = try loadSpec("soul.yaml")
        let tooMany = try #require(spec.response(.post, "/api/auth/otp/request", "429"))
        let retryAfter = try #require(tooMany.headers["Retry-After"].flatMap { spec.resolve($0) })
        #expect(retryAfter.schema.flatMap { spec.resolve($0) }?.singleType == .integer)
        let errorDetail = try #require(spec.schema("ErrorDetail"))
        #expect(errorDetail.required == ["detail"])
        #expect(spec.property("detail", of: "ErrorDetail")?.singleType == .string)
        for status in ["200", "400", "429", "500"] {
            #expect(spec.response(.post, "/api/auth/otp/request", status) != nil, "OTP request documents \(status)")
        }
        #expect(spec.schema("RefreshTokenBody")?.required == ["old_refresh_token"])
        #expect(spec.schema("PhoneNumber")?.pattern == #"^\+[1-9]\d{1,14}$"#)
        #expect(spec.operation(.post, "/api/auth/otp/request")?.security?.isEmpty == true, "OTP request is public")
        #expect(spec.operation(.get, "/api/moods")?.security?.first?.schemes.keys == ["bearerAuth"])
        #expect(spec.operation(.post, "/api/auth/verify-otp")?.operationId == "verifyOTP")
        #expect(spec.servers.map(\.url) == ["https://api-staging.soulapp.app", "https://api.soulapp.app"])
    }

    @Test func safepocketTransactionsErrorsAndIdempotency() throws {
        let spec = try loadSpec("safepocket.yaml")
        let filters = spec.parameters(.get, "/transactions").map(\.name)
        #expect(Set(filters).isSuperset(of: ["month", "from", "to", "accountId", "page", "pageSize"]))
        let codes = try #require(spec.schema("ErrorCode")?.enumValues).compactMap(\.stringValue)
        #expect(codes == ["INVALID_REQUEST", "UNAUTHENTICATED", "FORBIDDEN", "NOT_FOUND", "PLAID_ERROR", "AI_UNAVAILABLE", "RATE_LIMITED", "INTERNAL"])
        #expect(Set(spec.schema("ErrorEnvelope")?.required ?? []) == ["error", "traceId"])
        let detailRequired = Set(spec.schema("ErrorDetail")?.required ?? [])
        #expect(detailRequired.isSuperset(of: ["code", "message"]))

        let writes: [(HTTPMethod, String)] = [(.post, "/transactions/sync"), (.patch, "/transactions/{transactionId}"), (.post, "/plaid/exchange")]
        for (method, path) in writes {
            let key = spec.parameters(method, path).first { $0.name == "Idempotency-Key" }
            #expect(key?.location == .header, "\(method) \(path) takes Idempotency-Key")
            #expect(key?.schema.flatMap { spec.resolve($0) }?.format == "uuid")
        }
        let token = try #require(spec.schema("TokenRequest"))
        #expect(token.oneOf.count == 2)
        let discriminator = try #require(token.discriminator)
        #expect(discriminator.propertyName == "grantType")
        #expect(Set(discriminator.mapping.keys) == ["authorization_code", "refresh_token"])
        #expect(discriminator.mapping.values.allSatisfy { $0.target != nil })
        #expect(spec.response(.get, "/transactions", "429")?.headers["Retry-After"] != nil)
        #expect(spec.property("notes", of: "TransactionUpdate")?.isNullable == true, "PATCH can clear notes with null")
    }

    @Test func mobileTrackerPayloads() throws {
        let spec = try loadSpec("mobiletracker.yaml")
        #expect(spec.operation(.post, "/v2/tracking-session")?.operationId == "createTrackingSession")
        let sessionRequired = Set(spec.schema("CreateTrackingSessionRequest")?.required ?? [])
        #expect(sessionRequired.isSuperset(of: ["device_id", "os_name", "device_type", "brand_id"]))
        let location = spec.parameters(.put, "/v2/tracking-session/{sessionId}/location")
        #expect(location.map(\.name) == ["sessionId"] && location.first?.location == .path && location.first?.required == true)
        let latitude = try #require(spec.property("latitude", of: "LocationUpdateRequest"))
        #expect(latitude.minimum == -90 && latitude.maximum == 90)
        let longitude = try #require(spec.property("longitude", of: "LocationUpdateRequest"))
        #expect(longitude.minimum == -180 && longitude.maximum == 180)
        let data = try #require(spec.property("data", of: "TrackEventRequest"))
        if case .allowed(true)? = data.additionalProperties {} else { Issue.record("event data is a free-form object") }
        let scheme = try #require(spec.components.securitySchemes["ApiKeyAuth"].flatMap { spec.resolve($0) })
        #expect(scheme.name == "X-API-Key" && scheme.keyLocation == "header")
    }

    @Test func everyResponseWithABodyHasAnExample() throws {
        for name in ["securenode.yaml", "soul.yaml", "safepocket.yaml", "mobiletracker.yaml"] {
            let spec = try loadSpec(name)
            for (path, method, operation, _) in spec.operations {
                #expect(operation.operationId != nil, "\(name) \(method) \(path) has an operationId")
                for (status, response) in operation.responses {
                    guard let response = spec.resolve(response) else { continue }
                    for (mediaType, content) in response.content {
                        #expect(content.example != nil || !content.examples.isEmpty, "\(name) \(method.wireName) \(path) \(status) \(mediaType) has an example")
                    }
                }
            }
        }
    }
}
