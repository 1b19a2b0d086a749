import FeatureClient
import Foundation
import LoopbackHTTPServer
import OpenAPIURLSession
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The generated code of `Tests/Fixtures/features.yaml`, driven over real
/// HTTP: parameter styles, body encodings, response kinds, and the schema
/// features (defaults, open enums, nullable, unions, recursion, extra members).
@Suite struct GeneratedFeatureTests {
    /// A server answering every request with one response, and a client of it.
    struct Harness {
        let server: LoopbackHTTPServer
        let client: Client

        init(status: Int = 200, contentType: String = "application/json", body: String = "{}") throws {
            server = try LoopbackHTTPServer { _ in .respond(status: status, headers: [("Content-Type", contentType)], body: body) }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 30
            client = Client(serverURL: server.baseURL, transport: URLSessionTransport(configuration: .init(session: URLSession(configuration: configuration))))
        }

        var request: LoopbackHTTPServer.Request? { server.requests.last }
    }

    static let item = #"{"id": "i1", "status": "active"}"#

    @Test func queryStylesHeadersAndCookies() async throws {
        let harness = try Harness(body: "[\(Self.item)]")
        defer { harness.server.shutdown() }
        _ = try await harness.client.listItems(
            tags: ["a b", "c&d"], ids: [1, 2, 3], pipes: ["x", "y"], filter: Filter(color: "red", size: 2),
            since: try! CalendarDate(year: 2024, month: 2, day: 29), traceID: LowercaseUUID(UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!),
            session: "s1")
        let request = try #require(harness.request)
        #expect(request.target == "/items?tags=a%20b&tags=c%26d&ids=1,2,3&pipes=x%7Cy&filter%5Bcolor%5D=red&filter%5Bsize%5D=2&since=2024-02-29")
        // UUIDs go out in lower case (RFC 9562).
        #expect(request.header("X-Trace-ID") == "3f2504e0-4f89-11d3-9a0c-0305e82c3301")
        #expect(request.header("Cookie") == "session=s1")
    }

    @Test func leftOutParametersAreNotSent() async throws {
        let harness = try Harness(body: "[]")
        defer { harness.server.shutdown() }
        let items = try await harness.client.listItems()
        #expect(items.isEmpty)
        #expect(harness.request?.target == "/items")
        #expect(harness.request?.header("Cookie") == nil)
    }

    @Test func pathParametersAreEscaped() async throws {
        let harness = try Harness(contentType: "application/octet-stream", body: "bytes")
        defer { harness.server.shutdown() }
        let data = try await harness.client.download(name: "a b/c?d")
        #expect(data == Data("bytes".utf8))
        #expect(harness.request?.target == "/files/a%20b%2Fc%3Fd")
        #expect(harness.request?.header("Accept") == "application/octet-stream, application/json")
    }

    @Test func patchSendsNullOnlyWhenAsked() async throws {
        let harness = try Harness(body: Self.item)
        defer { harness.server.shutdown() }
        _ = try await harness.client.patchItem(itemID: "i1", body: ItemPatch(note: .null))
        #expect(harness.request?.bodyText == #"{"note":null}"#)
        #expect(harness.request?.header("Content-Type") == "application/merge-patch+json")
        #expect(harness.request?.method == "PATCH")
        _ = try await harness.client.patchItem(itemID: "i1", body: ItemPatch(status: .archived))
        #expect(harness.request?.bodyText == #"{"status":"archived"}"#)
        _ = try await harness.client.patchItem(itemID: "i1", body: ItemPatch(note: .value("hi")))
        #expect(harness.request?.bodyText == #"{"note":"hi"}"#)
    }

    @Test func aResponseOnlyTypeReadsNullAsAbsentAndStoresWhatItRead() throws {
        let decoder = JSONCoding.makeDecoder()
        let null = try decoder.decode(Receipt.self, from: Data(#"{"id": "r1", "voided_at": null}"#.utf8))
        let absent = try decoder.decode(Receipt.self, from: Data(#"{"id": "r1"}"#.utf8))
        #expect(null == absent && null.voidedAt == nil)
        // An app storing it gets back what it stored; nil is left out (a
        // request never carries the type, so nothing needs the null).
        let stored = try JSONCoding.makeEncoder().encode(null)
        #expect(String(decoding: stored, as: UTF8.self) == #"{"id":"r1"}"#)
        #expect(try decoder.decode(Receipt.self, from: stored) == null)
        let voided = Receipt(id: "r2", voidedAt: Date(timeIntervalSince1970: 1_714_557_600))
        #expect(try decoder.decode(Receipt.self, from: JSONCoding.makeEncoder().encode(voided)) == voided)
    }

    @Test func defaultsApplyWhenAbsentAndUnknownEnumValuesSurvive() async throws {
        let harness = try Harness(body: #"{"id": "i1", "status": "deleted", "level": 7, "note": null, "created_on": "2024-05-01", "updated_at": "2024-05-01T10:00:00.5Z", "labels": {"a": "b"}}"#)
        defer { harness.server.shutdown() }
        let item = try await harness.client.patchItem(itemID: "i1", body: ItemPatch())
        #expect(item.pageSize == 20)
        #expect(item.sort == .desc)
        #expect(item.status == .unknown("deleted"))
        #expect(item.level == .unknown(7))
        #expect(item.note == nil)  // response-only: null reads as nil
        #expect(try item.createdOn == CalendarDate(year: 2024, month: 5, day: 1))
        #expect(item.updatedAt == Date(timeIntervalSince1970: 1_714_557_600.5))
        #expect(item.labels == ["a": "b"])
        // Unknown values encode back unchanged.
        let encoded = try JSONCoding.makeEncoder().encode(item)
        let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect(object["status"] as? String == "deleted")
        #expect(object["level"] as? Int == 7)
        #expect(object["updated_at"] as? String == "2024-05-01T10:00:00.500Z")
        #expect(Status(rawValue: "active") == .active && Level(rawValue: 2) == .value2)
    }

    @Test func formBodies() async throws {
        let harness = try Harness(body: #"{"access_token": "t"}"#)
        defer { harness.server.shutdown() }
        let token = try await harness.client.exchangeCode(body: ExchangeCodeRequest(grantType: "authorization_code", code: "a/b+c", scope: ["read", "write"]))
        #expect(token.accessToken == "t")
        #expect(harness.request?.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(harness.request?.bodyText == "code=a/b%2Bc&grant_type=authorization_code&scope=read&scope=write")
    }

    @Test func multipartBodiesAndTextResponses() async throws {
        let harness = try Harness(status: 201, contentType: "text/plain", body: "upload-7")
        defer { harness.server.shutdown() }
        let id = try await harness.client.upload(body: UploadRequest(file: Data([0, 1, 2, 255]), caption: "hi", meta: Filter(color: "red")))
        #expect(id == "upload-7")
        let request = try #require(harness.request)
        let contentType = try #require(request.header("Content-Type"))
        #expect(contentType.hasPrefix("multipart/form-data; boundary="))
        let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
        var expected = Data()
        expected.append(contentsOf: "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"file\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
        expected.append(contentsOf: [0, 1, 2, 255])
        expected.append(contentsOf: "\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"caption\"\r\nContent-Type: text/plain\r\n\r\nhi\r\n".utf8)
        expected.append(contentsOf: "--\(boundary)\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{\"color\":\"red\"}\r\n--\(boundary)--\r\n".utf8)
        #expect(Data(request.body) == expected)
    }

    @Test func errorStatusesWithAndWithoutBodies() async throws {
        let gone = try Harness(status: 410, body: #"{"reason": "expired"}"#)
        defer { gone.server.shutdown() }
        let goneError = await #expect(throws: APIError<DownloadErrorBody>.self) { try await gone.client.download(name: "f") }
        #expect(goneError?.body == .gone(Problem(reason: "expired")))
        let missing = try Harness(status: 404, body: "")
        defer { missing.server.shutdown() }
        let missingError = await #expect(throws: APIError<DownloadErrorBody>.self) { try await missing.client.download(name: "f") }
        #expect(missingError?.body == .notFound)
        #expect(missingError?.status == 404)
    }

    @Test func unionsRecursionAndExtraMembersRoundTrip() async throws {
        let json = #"""
            {"pet": {"kind": "dog", "good": true}, "id_or_name": "rex",
             "boss": {"name": "Ann", "manager": {"name": "Bo"}, "reports": [{"name": "Cy"}]},
             "tagged": {"name": "n", "tag": "t"},
             "extra": {"known": "k", "flag": true, "nested": {"x": [1, 2]}},
             "anything": [1, "two", null]}
            """#
        let harness = try Harness(body: json)
        defer { harness.server.shutdown() }
        let shapes = try await harness.client.echoShapes(body: Shapes(pet: .cat(Cat(kind: "cat", lives: 9)), idOrName: .int(7)))
        #expect(harness.request?.bodyText == #"{"id_or_name":7,"pet":{"kind":"cat","lives":9}}"#)
        #expect(shapes.pet == .dog(Dog(kind: "dog", good: true)))
        #expect(shapes.idOrName == .string("rex"))
        #expect(shapes.boss?.manager?.name == "Bo")
        #expect(shapes.boss?.reports?.first?.name == "Cy")
        #expect(shapes.tagged == Tagged(name: "n", tag: "t"))
        #expect(shapes.extra?.known == "k")
        #expect(shapes.extra?.additionalProperties["flag"] == .bool(true))
        #expect(shapes.extra?.additionalProperties["nested"] == .object(["x": .array([.int(1), .int(2)])]))
        #expect(shapes.anything == .array([.int(1), .string("two"), .null]))
        // And back: the extra members and the union encode as received.
        let again = try JSONCoding.makeDecoder().decode(Shapes.self, from: JSONCoding.makeEncoder().encode(shapes))
        #expect(again == shapes)
    }

    @Test func aRecursiveUnionRoundTrips() throws {
        let json = #"{"expr": {"op": "sum", "left": {"op": "lit", "value": 1}, "right": {"op": "sum", "left": {"op": "lit", "value": 2}, "right": {"op": "lit", "value": 3}}}}"#
        let shapes = try JSONCoding.makeDecoder().decode(Shapes.self, from: Data(json.utf8))
        func evaluate(_ expr: Expr) -> Int {
            switch expr {
            case .literal(let literal): return literal.value
            case .sum(let sum): return evaluate(sum.left) + evaluate(sum.right)
            case .undocumented: return 0
            }
        }
        #expect(shapes.expr.map(evaluate) == 6)
        let again = try JSONCoding.makeDecoder().decode(Shapes.self, from: JSONCoding.makeEncoder().encode(shapes))
        #expect(again == shapes)
    }

    @Test func unknownDiscriminatorValueIsKept() async throws {
        let harness = try Harness(body: #"{"pet": {"kind": "parrot", "words": 12}}"#)
        defer { harness.server.shutdown() }
        let shapes = try await harness.client.echoShapes(body: Shapes())
        #expect(shapes.pet == .undocumented(.object(["kind": .string("parrot"), "words": .int(12)])))
    }

    @Test func aValueMatchingNoMemberIsADecodingErrorNamingTheField() async throws {
        let harness = try Harness(body: #"{"id_or_name": true}"#)
        defer { harness.server.shutdown() }
        let error = await #expect(throws: ResponseDecodingError.self) { try await harness.client.echoShapes(body: Shapes()) }
        #expect(error?.field == "id_or_name")
        #expect(error?.operationID == "echoShapes")
    }

    @Test func descriptorsDescribeEachOperation() {
        #expect(Client.Operations.patchItem.method == .patch)
        #expect(Client.Operations.patchItem.pathTemplate == "/items/{itemId}")
        #expect(Client.Operations.byID.keys.sorted().filter { !$0.hasPrefix("secured") } == [
            "download", "echoShapes", "exchangeCode", "getPoints", "import", "linkItems", "listAfter", "listByCursor", "listByHALLink", "listByNextURI",
            "listByOffset", "listDeclared", "listItems", "listLinked", "listNotPaged", "listNumbered", "listNumberedItems", "listOrNone", "listUntilDone",
            "patchItem", "placeOrder", "publicItem", "upload", "uploadAvatar", "获取",
        ])
        #expect(Client.Operations.byID.keys.filter { $0.hasPrefix("secured") }.count == 11)
        #expect(Client.Operations.securedOptional.isPublic && Client.Operations.securedBearer.requires(scheme: "bearerAuth"))
        #expect(Client.Operations.listItems.isPublic)
    }

    @Test func matrixPathsAndParametersNamedLikeLocals() async throws {
        let harness = try Harness(status: 204, body: "")
        defer { harness.server.shutdown() }
        try await harness.client.getPoints(coords: [1, 2], coreQuery: "x", filter: Filter(color: "red"))
        // `content: application/json` parameters go as escaped JSON text.
        #expect(harness.request?.target == "/points;coords=1;coords=2?core=x&filter=%7B%22color%22:%22red%22%7D")
    }

    @Test func cookieValuesCannotInjectCookies() async throws {
        let harness = try Harness(body: "[]")
        defer { harness.server.shutdown() }
        _ = try await harness.client.listItems(session: "a; admin=1")
        #expect(harness.request?.header("Cookie") == "session=a%3B%20admin%3D1")
    }

    @Test func multipartPartsComeFromTheMergedSchemaThroughAliases() async throws {
        let harness = try Harness(status: 204, body: "")
        defer { harness.server.shutdown() }
        try await harness.client.uploadAvatar(body: AvatarUpload(label: "me", image: Data([1, 2]), thumbnail: .value(Data([3]))), formHeader: "h")
        let request = try #require(harness.request)
        let body = String(decoding: request.body, as: UTF8.self)
        #expect(request.header("Content-Type")?.hasPrefix("multipart/form-data; boundary=") == true)
        #expect(body.contains("name=\"image\"; filename=\"image\"\r\nContent-Type: application/octet-stream\r\n\r\n\u{1}\u{2}\r\n"))
        #expect(body.contains("name=\"thumbnail\"; filename=\"thumbnail\"\r\nContent-Type: application/octet-stream\r\n\r\n\u{3}\r\n"))
        #expect(body.contains("name=\"label\"\r\nContent-Type: text/plain\r\n\r\nme\r\n"))
        #expect(request.header("form") == "h")
    }

    @Test func namesThatWouldShadowOrCannotBeIdentifiers() async throws {
        let harness = try Harness(body: #"{"data": {"thumb": "AQI="}, "sig": "AwQ=", "shape": {"kind": "square"}, "用户": "u"}"#)
        defer { harness.server.shutdown() }
        // `operationId: 获取` has no Swift name: the method is named from method and path.
        let envelope = try await harness.client.getEnvelopes()
        #expect(envelope.data?.thumb == Data([1, 2]))
        #expect(envelope.sig == Data([3, 4]))
        #expect(envelope.size == ._20, "an integer default of a string enum is its string case")
        #expect(envelope.shape?.kind == "square")
        #expect(envelope.property5 == "u")
        #expect(Schema5(value: "v").value == "v")
        #expect(Client.Operations.byID["echoShapes"]?.method == .post, "a duplicate operationId keeps the first")
    }
}


/// A server URL written with a trailing slash (`https://api.example.com/v1/`,
/// as specs and app settings often have it) sends the same paths as one
/// without: the client drops the slash once, when it is made.
@Suite struct ServerURLTests {
    @Test(arguments: ["", "/", "//", "/api", "/api/"])
    func aTrailingSlashNeverDoublesTheRequestPath(_ suffix: String) async throws {
        let server = try LoopbackHTTPServer { _ in .respond(status: 200, headers: [("Content-Type", "application/json")], body: "[]") }
        defer { server.shutdown() }
        let base = try #require(URL(string: server.baseURL.absoluteString + suffix))
        let client = Client(serverURL: base, transport: URLSessionTransport())
        _ = try await client.listItems(tags: ["a"])
        let prefix = suffix.hasPrefix("/api") ? "/api" : ""
        #expect(server.requests.last?.target == prefix + "/items?tags=a", "server URL \(base)")
    }

    @Test func onlyThePathsTrailingSlashesGo() throws {
        let normalised = ClientCore.normalisedServerURL(URL(string: "https://user@api.example.com:8443/v1%2F/")!)
        #expect(normalised.absoluteString == "https://user@api.example.com:8443/v1%2F")
        let plain = URL(string: "https://api.example.com/v1")!
        #expect(ClientCore.normalisedServerURL(plain) == plain)
    }
}
