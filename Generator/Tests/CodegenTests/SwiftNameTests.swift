import Testing

@testable import Codegen

@Suite struct SwiftNameTests {
    @Test(arguments: [
        ("phone_number_e164", "phoneNumberE164"), ("logo_url", "logoURL"), ("brand_id", "brandID"), ("brand-id", "brandID"),
        ("is_active", "isActive"), ("synced_at", "syncedAt"), ("verifyOTP", "verifyOTP"), ("getRAGSummaries", "getRAGSummaries"),
        ("repos/get-content", "reposGetContent"), ("INVALID_REQUEST", "invalidRequest"), ("authorization_code", "authorizationCode"),
        ("url", "url"), ("URL", "url"), ("idToken", "idToken"), ("id", "id"), ("ID", "id"), ("userId", "userID"),
        ("HTTPMethod", "httpMethod"), ("x-rate-limit", "xRateLimit"), ("device.id", "deviceID"), ("brand_ids", "brandIDs"),
        ("2fa_code", "_2faCode"), ("", "_"), ("---", "_"), ("café", "caf"), ("v2", "v2"), ("sessionId", "sessionID"),
        ("ring_duration_seconds", "ringDurationSeconds"), ("old_refresh_token", "oldRefreshToken"), ("api_key", "apiKey"),
    ])
    func memberNames(_ raw: String, _ expected: String) {
        #expect(SwiftName.memberName(raw) == expected)
    }

    @Test(arguments: [
        ("branding_record", "BrandingRecord"), ("BrandingRecord", "BrandingRecord"), ("error-envelope", "ErrorEnvelope"),
        ("otp_code", "OTPCode"), ("e164", "E164"), ("rag_search_request", "RAGSearchRequest"), ("uuid", "UUID"),
        ("pet", "Pet"), ("200", "_200"), ("simple-user", "SimpleUser"), ("api.v1.Thing", "APIV1Thing"),
    ])
    func typeNames(_ raw: String, _ expected: String) {
        #expect(SwiftName.typeName(raw) == expected)
    }

    @Test func keywordsAreEscapedOrSuffixed() {
        #expect(SwiftName.memberName("default") == "`default`")
        #expect(SwiftName.memberName("type") == "type", "`type` is not a keyword")
        #expect(SwiftName.memberName("class") == "`class`")
        #expect(SwiftName.memberName("self") == "self_")
        #expect(SwiftName.memberName("init") == "init_")
        #expect(SwiftName.typeName("protocol") == "Protocol_")
        #expect(SwiftName.typeName("type") == "Type_")
        #expect(SwiftName.typeName("any") == "Any_")
        #expect(SwiftName.unescaped("`default`") == "default")
    }

    @Test func wordsSplitAtCaseAndPunctuation() {
        #expect(SwiftName.words("HTTPMethod") == ["HTTP", "Method"])
        #expect(SwiftName.words("phone_number_e164") == ["phone", "number", "e164"])
        #expect(SwiftName.words("userIDs") == ["user", "IDs"])
        #expect(SwiftName.words("v2Session") == ["v2", "Session"])
    }
}
