import ClientRuntime
import ClientRuntimeTesting
import Foundation
import HTTPTypes
import Logging
import LoopbackHTTPServer
import OpenAPIRuntime
import Testing

@testable import Resilience

@Suite struct RedactionTests {
    let redactor = Redactor()

    @Test func knownSecretsAreMaskedWhateverTheirShape() {
        let redactor = Redactor(loggablePaths: ["message"], knownSecrets: { ["rt-0f3a9c1e-opaque", "short"] })
        #expect(redactor.text("bad token rt-0f3a9c1e-opaque, try again") == "bad token ***, try again")
        #expect(redactor.body(Array(#"{"message":"rt-0f3a9c1e-opaque"}"#.utf8), contentType: "application/json") == #"{"message": "***"}"#,
            "a loggable field's value is shown with known secrets masked")
        #expect(redactor.text("short stays") == "short stays", "values under 8 characters are not treated as secrets")
    }

    @Test func headers() {
        #expect(redactor.header(name: "Authorization", value: "Bearer eyJhbGciOi.abc.def") == "Bearer ***")
        #expect(redactor.header(name: "X-API-Key", value: "sn_live_123456") == "***")
        #expect(redactor.header(name: "Content-Type", value: "application/json") == "application/json")
    }

    @Test func queryAndFormBodies() {
        #expect(redactor.query("e164=%2B15551234567&device_id=d1&api_key=k") == "e164=+*******4567&device_id=d1&api_key=***")
        let form = Array("code=123456&phone=+447700900123&plan=pro+plus&flag".utf8)
        #expect(redactor.body(form, contentType: "application/x-www-form-urlencoded") == "code=***&phone=string(13)&plan=string(8)&flag",
            "a form body shows its names and the lengths of their values")
        #expect(Redactor(loggablePaths: ["plan", "phone"]).body(form, contentType: "application/x-www-form-urlencoded")
            == "code=***&phone=+********0123&plan=pro+plus&flag", "loggable fields show their values, a phone number masked even so")
        #expect(Redactor(memberNames: ["code", "phone", "plan"]).body(form, contentType: "application/x-www-form-urlencoded")
            == "code=***&phone=string(13)&plan=string(8)&key(4)", "a name the spec does not declare shows as its length")
    }

    @Test func aJSONBodyIsLoggedAsItsShape() throws {
        let body = #"{"phone_number":"+15551234567","code":"123456","user":{"refreshToken":"r-1","name":"Ada","verified":true},"items":[{"access_token":"a-1"}],"note":"call +1 555 123 4567","balance":-42.5,"count":3,"closed":null}"#
        let shape = redactor.body(Array(body.utf8), contentType: "application/json")
        #expect(shape == #"{"balance": number, "closed": null, "code": ***, "count": number, "items": [{"access_token": ***}], "note": string(20), "phone_number": string(12), "user": {"name": string(3), "refreshToken": ***, "verified": boolean}}"#)
        let loggable = Redactor(loggablePaths: ["note", "phone_number", "user", "count"]).body(Array(body.utf8), contentType: "application/json")
        #expect(loggable == #"{"balance": number, "closed": null, "code": ***, "count": 3, "items": [{"access_token": ***}], "note": "call +* *** *** 4567", "phone_number": "+*******4567", "user": {"name":"Ada","refreshToken":"***","verified":true}}"#,
            "a loggable value is shown, with what is secret in it masked")
    }

    @Test func aLongArrayShowsTheShapesOfItsFirstElementsAndCountsTheRest() {
        let body = "[" + (1...12).map { #"{"amount":\#($0)}"# }.joined(separator: ",") + "]"
        #expect(redactor.body(Array(body.utf8), contentType: "application/json")
            == "[{\"amount\": number}, {\"amount\": number}, {\"amount\": number}, {\"amount\": number}, {\"amount\": number}, … 7 more]")
        #expect(redactor.body(Array(#""just text""#.utf8), contentType: "application/json") == "string(9)")
        #expect(redactor.body(Array("Account 12 closed".utf8), contentType: "text/plain") == "<text of 17 characters>")
        #expect(redactor.body(Array("{oops".utf8), contentType: "application/json") == "<5 bytes of malformed JSON>")
        #expect(redactor.body([0x89, 0x50, 0x4E, 0x47], contentType: "image/png") == "<4 bytes>")
        #expect(redactor.body([], contentType: "application/json") == "<0 bytes>")
    }

    @Test func datesInTextAreDatesAndNumbersAroundThemStillMasked() {
        #expect(redactor.text("synced at 2026-11-27T08:15:00Z for +61412345678") == "synced at 2026-11-27T08:15:00Z for +*******5678")
        #expect(redactor.text("from 2026-11-01 to 2026-11-27, call 555-123-4567") == "from 2026-11-01 to 2026-11-27, call ***-***-4567")
        #expect(redactor.text("day 2026-11-27 08:15, number 0412 345 678") == "day 2026-11-27 08:15, number **** **5 678")
        #expect(redactor.text("ref 20261127123") == "ref *******7123", "a run of digits that is not a date is still masked")
        #expect(redactor.text("1234-56-78 and 0704-12-34-56") == "****-56-78 and ****-**-34-56", "shaped like a date, not one")
        #expect(redactor.text("note=Unit+12+61412345678") == "note=Unit+12+*******5678", "a number right after a plus and digits")
        #expect(redactor.text("++61412345678") == "++*******5678")
    }

    @Test func phoneMaskingKeepsTheLastFourDigits() {
        #expect(Redactor.maskPhone("+15551234567") == "+*******4567")
        #expect(Redactor.maskPhone("123") == "123")
    }

    /// A whole run through the log middleware: none of the planted secrets
    /// may appear in any log line.
    @Test func aFullRunLogsNoSecret() async throws {
        let apiKey = "sk_live_PLANTED_9f8e7d"
        let token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.PLANTEDsignature"
        let refresh = "rt_PLANTED_abcdef"
        let otp = "493817"
        let phone = "+15551234567"
        let server = try LoopbackHTTPServer { request in
            .json(200, #"{"access_token":"\#(token)","refresh_token":"\#(refresh)","user":{"phone":"\#(phone)"}}"#, headers: [("Set-Cookie", "session=\(refresh)")])
        }
        defer { server.shutdown() }
        let lines = LogCapture()
        let logger = lines.logger()
        let client = TestClient(server: server, middlewares: [RedactingLogMiddleware(logger: logger)])
        let headers: HTTPFields = [.authorization: "Bearer \(token)", HTTPField.Name("X-API-Key")!: apiKey]
        _ = try await client.send(
            .post, "/api/auth/verify-otp?phone=\(phone.replacingOccurrences(of: "+", with: "%2B"))&api_key=\(apiKey)", operationID: "verifyOTP",
            headers: headers + [.contentType: "application/json"],
            body: #"{"phone":"\#(phone)","code":"\#(otp)","old_refresh_token":"\#(refresh)"}"#)
        let log = lines.all.joined(separator: "\n")
        #expect(!log.isEmpty && log.contains("verify-otp") && log.contains("4567"))
        for secret in [apiKey, token, refresh, otp, phone, "5551234567", "PLANTED"] {
            #expect(!log.contains(secret), "the log holds '\(secret)':\n\(log)")
        }
        #expect(server.requests.first?.header("X-API-Key") == apiKey, "the request itself is untouched")
    }
}

@Suite struct RedactionOfSpecCredentialsTests {
    /// A spec's own API-key names (`X-Items-Key` in a header, `items_key` in
    /// the query) are masked for its operations, though no default list
    /// names them; other operations' logs are not affected.
    @Test func theSpecsOwnAPIKeyNamesAreMasked() async throws {
        let headerKey = "items_PLANTED_header_7c1d"
        let queryKey = "items_PLANTED_query_9e2f"
        let server = try LoopbackHTTPServer { _ in .json(200, #"{"items":[]}"#) }
        defer { server.shutdown() }
        let lines = LogCapture()
        let client = TestClient(server: server, middlewares: [RedactingLogMiddleware(logger: lines.logger())])
        let operation = OperationDescriptor(
            id: "listItems", method: .get, pathTemplate: "/items",
            security: [[SecuritySchemeDescriptor(name: "itemsKey", kind: .apiKeyHeader(name: "X-Items-Key"))],
                       [SecuritySchemeDescriptor(name: "itemsQueryKey", kind: .apiKeyQuery(name: "items_key"))]])
        _ = try await OperationDescriptor.$current.withValue(operation) {
            try await client.send(.get, "/items?items_key=\(queryKey)&page=2", operationID: "listItems", headers: [HTTPField.Name("X-Items-Key")!: headerKey])
        }
        let log = lines.all.joined(separator: "\n")
        #expect(log.contains("X-Items-Key: ***") && log.contains("items_key=***&page=2"), "\(log)")
        #expect(!log.contains("PLANTED"), "\(log)")
        #expect(server.requests.first?.header("X-Items-Key") == headerKey, "the request itself is untouched")

        let plain = Redactor()
        #expect(plain.header(name: "X-Items-Key", value: headerKey) == headerKey, "without the operation, the name is not known")
        #expect(plain.masking(credentialsOf: nil).header(name: "X-Items-Key", value: "v") == "v")
    }
}

@Suite struct RedactionOfFailuresTests {
    @Test func aFailedRequestLogsNoSecret() async throws {
        let otp = "493817"
        let refresh = "rt_PLANTED_failure"
        let server = try LoopbackHTTPServer(keepAlive: false) { _ in .dropConnection }
        defer { server.shutdown() }
        let lines = LogCapture()
        let logger = lines.logger()
        let client = TestClient(server: server, middlewares: [RedactingLogMiddleware(logger: logger)])
        _ = try? await client.send(
            .post, "/api/auth/verify-otp?code=\(otp)", operationID: "verifyOTP", headers: [.contentType: "application/json"],
            body: #"{"code":"\#(otp)","old_refresh_token":"\#(refresh)"}"#)
        let log = lines.all.joined(separator: "\n")
        #expect(log.contains("failed after"))
        #expect(!log.contains(otp) && !log.contains(refresh), "\(log)")
    }

    @Test func secretsInOtherShapes() {
        let redactor = Redactor()
        #expect(redactor.header(name: "X-Refresh-Token", value: "abc") == "***")
        #expect(redactor.header(name: "Location", value: "app://cb?code=123&state=s") == "app://cb?code=***&state=s")
        let body = Array(#"{"token":{"value":"t"},"phone":15551234567}"#.utf8)
        #expect(redactor.body(body, contentType: "application/json") == #"{"phone": number, "token": ***}"#)
        #expect(Redactor(loggablePaths: ["phone", "token"]).body(body, contentType: "application/json") == #"{"phone": "*******4567", "token": ***}"#,
            "a secret stays masked when it is also named loggable")
    }
}

/// What a spec marks secret (`x-secret`, `format: password`) reaches the
/// redactor through the generated client's operation descriptors.
@Suite struct SpecMarkedSecretTests {
    @Test func aSecretPathParameterIsMaskedInThePathWhateverItsMount() {
        let redactor = Redactor()
        let template = "/v2/tracking-session/{sessionId}/location"
        #expect(redactor.path("/v2/tracking-session/sess_8f3a2c/location", template: template, secretParameters: ["sessionId"])
            == "/v2/tracking-session/***/location")
        // A mount the path gained in front (`/api`) does not shift the template.
        #expect(redactor.path("/api/v2/tracking-session/sess_8f3a2c/location", template: template, secretParameters: ["sessionId"])
            == "/api/v2/tracking-session/***/location")
        #expect(redactor.path("/v2/tracking-session/sess_8f3a2c/location", template: template, secretParameters: []) == "/v2/tracking-session/sess_8f3a2c/location")
        #expect(redactor.path("/short", template: template, secretParameters: ["sessionId"]) == "/short", "a path the template does not fit is kept")
    }

    @Test func fieldsTheSpecMarksAreMaskedBesidesTheKnownNames() {
        let operation = OperationDescriptor(
            id: "createPlaidLinkToken", method: .post, pathTemplate: "/plaid/link-token", security: [], secretFields: ["linkToken", "session_id"])
        let body = Array(#"{"linkToken":"link-sandbox-af1a0311","session_id":"sess_8f3a2c","requestId":"XQVgFigpGHXkb0b"}"#.utf8)
        let loggingAll = Redactor(loggablePaths: ["linkToken", "session_id", "requestId"])
        #expect(loggingAll.body(body, contentType: "application/json").contains("link-sandbox"), "no default list knows linkToken")
        let masked = loggingAll.masking(credentialsOf: operation).body(body, contentType: "application/json")
        #expect(masked == #"{"linkToken": ***, "requestId": "XQVgFigpGHXkb0b", "session_id": ***}"#)
    }

    @Test func onlyTheFieldsTheSpecMarksLoggableShowTheirValues() {
        let operation = OperationDescriptor(
            id: "listTransactions", method: .get, pathTemplate: "/transactions", security: [], loggablePaths: ["traceId", "items[].status"],
            memberNames: ["items", "merchant", "amount", "status", "traceId", "tags", "note"])
        let body = Array(#"{"items":[{"merchant":"Blue Bottle","amount":-4.5,"status":"posted","tags":{"coffee":1,"status":"vip"}}],"note":{"status":"x"},"traceId":"d4b1e7c2"}"#.utf8)
        #expect(Redactor().body(body, contentType: "application/json")
            == #"{"items": [{"amount": number, "merchant": string(11), "status": string(6), "tags": {"coffee": number, "status": string(3)}}], "note": {"status": string(1)}, "traceId": string(8)}"#,
            "nothing known: every key shown, every value a shape")
        #expect(Redactor().masking(credentialsOf: operation).body(body, contentType: "application/json")
            == #"{"items": [{"amount": number, "merchant": string(11), "status": "posted", "tags": {key(6): number, "status": string(3)}}], "note": {"status": string(1)}, "traceId": "d4b1e7c2"}"#,
            "a value only where the spec marks it, not under the same name elsewhere; a map's undeclared key is its length")
    }

    /// A map's key never reads as a loggable place, however it is written:
    /// only a declared name, without `.`, `[` or `]`, leads a path on.
    @Test func noMapKeyReadsAsALoggablePlace() {
        var redactor = Redactor(memberNames: ["status", "note"])
        redactor.loggablePaths = ["Status", "note.status"]
        #expect(redactor.loggablePaths == ["status", "note.status"], "places set later are normalised too")
        let body = Array(#"{"status":"ok","Sta_tus":"mine","note.status":"mine","note":{"status":"shown"}}"#.utf8)
        #expect(redactor.body(body, contentType: "application/json")
            == #"{key(7): string(4), "note": {"status": "shown"}, key(11): string(4), "status": "ok"}"#)
    }
}
