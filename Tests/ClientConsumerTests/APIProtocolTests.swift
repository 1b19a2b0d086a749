import ClientRuntimeTesting
import Foundation
import HTTPTypes
import SecureNodeAPI
import Testing

/// App code written against a generated client's `APIProtocol` runs with the
/// real `Client` and with a test double, and calls an operation without its
/// optional arguments either way.
@Suite struct APIProtocolTests {
    /// What an app writes: a function of any implementation of the API.
    static func brandName(of number: String, api: some APIProtocol) async throws -> String? {
        switch try await api.lookupBranding(e164: number) {
        case .ok(let branding): return branding.brandName
        case .noContent: return nil
        }
    }

    /// A double: answers lookups from a dictionary, records what it was asked.
    final class FakeSecureNode: APIProtocol, @unchecked Sendable {
        // `@unchecked Sendable` is safe: `asked` is touched only under `lock`.
        let brands: [String: String]
        private let lock = NSLock()
        private var asked: [(String, DeviceID?)] = []
        init(brands: [String: String]) { self.brands = brands }
        var lookups: [(String, DeviceID?)] { lock.withLock { asked } }

        struct NotScripted: Error {}

        func lookupBranding(e164: E164PhoneNumber, deviceID: DeviceID?) async throws -> LookupBrandingResult {
            lock.withLock { asked.append((e164, deviceID)) }
            return brands[e164].map { .ok(BrandingLookupResponse(e164: e164, brandName: $0)) } ?? .noContent
        }
        func syncBranding(since: Date?, deviceID: DeviceID?) async throws -> BrandingSyncResponse { throw NotScripted() }
        func recordImprint(body: ImprintRequest) async throws -> UsageEventResponse { throw NotScripted() }
        func recordBrandingEvent(body: UsageEventRequest) async throws -> UsageEventResponse { throw NotScripted() }
        func registerDevice(body: DeviceRegisterRequest) async throws -> DeviceResponse { throw NotScripted() }
        func updateDevice(body: DeviceUpdateRequest) async throws -> DeviceResponse { throw NotScripted() }
        func reportDevicePresence(body: PresenceRequest) async throws -> SuccessResponse { throw NotScripted() }
        func uploadDebugLogs(body: DebugUploadRequest) async throws -> DebugUploadResponse { throw NotScripted() }
    }

    @Test func aDoubleStandsInForTheClient() async throws {
        let fake = FakeSecureNode(brands: ["+61412345678": "Acme Bank"])
        #expect(try await Self.brandName(of: "+61412345678", api: fake) == "Acme Bank")
        #expect(try await Self.brandName(of: "+19995550000", api: fake) == nil)
        #expect(fake.lookups.map(\.0) == ["+61412345678", "+19995550000"])
        #expect(fake.lookups.allSatisfy { $0.1 == nil }, "the shorthand leaves the optional device_id out")
        let any: any APIProtocol = fake
        await #expect(throws: FakeSecureNode.NotScripted.self) { try await any.syncBranding() }
    }

    @Test func theRealClientRunsTheSameCode() async throws {
        let transport = ScriptedTransport { request in
            request.query?.contains("e164=%2B61412345678") == true
                ? .json(200, #"{"e164": "+61412345678", "brand_name": "Acme Bank"}"#) : .status(204)
        }
        let client = Client(serverURL: URL(string: "https://api.securenode.io")!, transport: transport)
        #expect(try await Self.brandName(of: "+61412345678", api: client) == "Acme Bank")
        #expect(try await Self.brandName(of: "+19995550000", api: client) == nil)
        #expect(transport.requests.map(\.path) == ["/api/mobile/branding/lookup", "/api/mobile/branding/lookup"])
        #expect(transport.requests.allSatisfy { $0.query?.contains("device_id") == false })
        // The concrete client keeps its default arguments.
        _ = try await client.lookupBranding(e164: "+19995550000", deviceID: "device-1")
        #expect(transport.requests.last?.query?.contains("device_id=device-1") == true)
    }

    /// `format: int32` is `Int32`: a value past its range is a typed decoding
    /// error at its field, never a number wrapped or cut.
    @Test func anInt32FieldRefusesAValueOutOfRange() throws {
        let inRange = ClientResponse(operationID: "meta", response: HTTPResponse(status: .ok), body: Data(#"{"ring_duration_seconds": 2147483647}"#.utf8))
        #expect(try inRange.decodeJSON(EventMeta.self).ringDurationSeconds == Int32.max)
        let outOfRange = ClientResponse(operationID: "meta", response: HTTPResponse(status: .ok), body: Data(#"{"ring_duration_seconds": 2147483648}"#.utf8))
        let error = #expect(throws: ResponseDecodingError.self) { try outOfRange.decodeJSON(EventMeta.self) }
        #expect(error?.operationID == "meta" && error?.status == 200)
        #expect(error?.rawBody == outOfRange.body, "what the server sent is kept")
        #expect(error?.field == "ring_duration_seconds", "\(String(describing: error))")
        #expect(error?.reason.contains("2147483648> does not fit in Int32") == true, "\(String(describing: error))")
    }
}
