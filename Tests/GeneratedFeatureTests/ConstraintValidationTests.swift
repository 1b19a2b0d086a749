import ClientRuntimeTesting
import FeatureClient
import Foundation
import Testing

/// The spec's constraints, checked by generated code before a request is
/// sent (`placeOrder` in `features.yaml` carries one of each): a broken one
/// throws `ConstraintViolation` naming the operation, the path, the rule and
/// the spec's value, and nothing reaches the transport.
@Suite struct ConstraintValidationTests {
    static let base = URL(string: "https://api.example.com")!
    static let valid = Order(
        sku: "ABC-1234", quantity: 2, price: 9.99, discount: 0.5, tags: ["red"], lines: [OrderLine(note: "gift")],
        attributes: ["color": "red"], coupon: .null, secret: "correct horse", channel: .app, shape: .int(3))

    /// The violation a call throws, and how many requests went out.
    private func violation(
        of order: Order = valid, orderID: String = "ord_1", limit: Int? = nil, apiKey: String? = nil, ids: [Int]? = nil
    ) async throws -> (ConstraintViolation?, sent: Int) {
        let transport = ScriptedTransport { _ in .json(200, #"{"sku": "ABC-1234", "quantity": 2, "price": 9.99}"#) }
        let client = Client(serverURL: Self.base, transport: transport)
        do {
            _ = try await client.placeOrder(orderID: orderID, body: order, limit: limit, apiKey: apiKey, ids: ids)
            return (nil, transport.requests.count)
        } catch let error as ConstraintViolation {
            return (error, transport.requests.count)
        }
    }

    @Test func aValidOrderIsSent() async throws {
        let (error, sent) = try await violation(limit: 50, apiKey: "0123456789", ids: [0, 7])
        #expect(error == nil && sent == 1)
    }

    @Test func eachRuleNamesTheOperationPathRuleAndSpecValue() async throws {
        func with(_ change: (inout Order) -> Void) -> Order {
            var order = Self.valid
            change(&order)
            return order
        }
        let cases: [(Order, String)] = [
            (with { $0.sku = "abc-1234" }, #"placeOrder: body.sku does not match ^[A-Z]{3}-\d{4}$ (it is "abc-1234")"#),
            (with { $0.quantity = 0 }, "placeOrder: body.quantity is less than the minimum 1 (it is 0)"),
            (with { $0.quantity = 100 }, "placeOrder: body.quantity is more than the maximum 99 (it is 100)"),
            (with { $0.price = 0 }, "placeOrder: body.price is not more than the exclusive minimum 0 (it is 0)"),
            (with { $0.price = 1.005 }, "placeOrder: body.price is not a multiple of 0.01 (it is 1.005)"),
            (with { $0.discount = 1 }, "placeOrder: body.discount is not less than the exclusive maximum 1 (it is 1)"),
            (with { $0.tags = [] }, "placeOrder: body.tags has fewer than 1 items (it is 0 items)"),
            (with { $0.tags = ["a", "b", "c", "d"] }, "placeOrder: body.tags has more than 3 items (it is 4 items)"),
            (with { $0.tags = ["ok", "far too long"] }, "placeOrder: body.tags[1] is longer than 8 characters (it is 12 characters long)"),
            (with { $0.lines = [OrderLine(note: "ok"), OrderLine(note: String(repeating: "x", count: 21))] },
             "placeOrder: body.lines[1].note is longer than 20 characters (it is 21 characters long)"),
            (with { $0.attributes = ["color": "red", "size": ""] }, "placeOrder: body.attributes.size is shorter than 1 characters (it is 0 characters long)"),
            (with { $0.coupon = .value("abc") }, "placeOrder: body.coupon is shorter than 4 characters (it is 3 characters long)"),
            (with { $0.channel = .unknown("kiosk") }, #"placeOrder: body.channel is not one of web, app (it is "kiosk")"#),
            (with { $0.shape = .int(-1) }, "placeOrder: body.shape is less than the minimum 0 (it is -1)"),
            (with { $0.shape = .orderLine(OrderLine(note: String(repeating: "y", count: 30))) },
             "placeOrder: body.shape.note is longer than 20 characters (it is 30 characters long)"),
        ]
        for (order, expected) in cases {
            let (error, sent) = try await violation(of: order)
            #expect(error?.description == expected)
            #expect(sent == 0, "nothing is sent: \(expected)")
        }
    }

    @Test func parametersAreCheckedByLocation() async throws {
        let cases: [(String, Int?, String?, [Int]?, String)] = [
            ("order-1", nil, nil, nil, #"placeOrder: path.orderId does not match ^ord_[a-z0-9]+$ (it is "order-1")"#),
            ("ord_1", 51, nil, nil, "placeOrder: query.limit is more than the maximum 50 (it is 51)"),
            ("ord_1", nil, nil, [1, 2, 3], "placeOrder: query.ids has more than 2 items (it is 3 items)"),
            ("ord_1", nil, nil, [1, -2], "placeOrder: query.ids[1] is less than the minimum 0 (it is -2)"),
        ]
        for (orderID, limit, apiKey, ids, expected) in cases {
            let (error, sent) = try await violation(orderID: orderID, limit: limit, apiKey: apiKey, ids: ids)
            #expect(error?.description == expected)
            #expect(sent == 0)
        }
    }

    @Test func secretLikeValuesNeverAppear() async throws {
        // By name (an API key header) and by `format: password`.
        let (key, _) = try await violation(apiKey: "short-key")
        #expect(key?.description == "placeOrder: header.X-Api-Key is shorter than 10 characters")
        #expect(key?.actual == nil && key?.rule == .minLength(10) && key?.path == "header.X-Api-Key")
        var order = Self.valid
        order.secret = "hunter2"
        let (password, _) = try await violation(of: order)
        #expect(password?.description == "placeOrder: body.secret is shorter than 8 characters")
        #expect(password.map { !String(describing: $0).contains("hunter2") } == true)
    }

    @Test func anAbsentOrNullValueKeepsEveryRule() async throws {
        let bare = Order(sku: "XYZ-0001", quantity: 1, price: 0.01)
        #expect(try await violation(of: bare).0 == nil)
        var nullCoupon = bare
        nullCoupon.coupon = .null
        #expect(try await violation(of: nullCoupon).0 == nil)
    }

    @Test func aPatternICUCannotCompileChecksNothing() async throws {
        // `(?<=a+)b` is reported by lint (`pattern-not-checked`) and has no check.
        var order = Self.valid
        order.legacyCode = "anything at all"
        #expect(try await violation(of: order).0 == nil)
        let uncompilable = ValidationPattern("(?<=a+)b")
        #expect(!uncompilable.isCheckable && uncompilable.matches("x"))
    }

    @Test func theClientSwitchTurnsChecksOff() async throws {
        let transport = ScriptedTransport { _ in .json(200, #"{"sku": "bad", "quantity": 0, "price": 1}"#) }
        let client = Client(serverURL: Self.base, transport: transport, constraintChecks: [])
        var order = Self.valid
        order.quantity = 0
        order.channel = .unknown("kiosk")
        let stored = try await client.placeOrder(orderID: "not an id", body: order)
        #expect(stored.quantity == 0, "responses are not checked by default either")
        #expect(transport.requests.first?.path == "/orders/not%20an%20id")
        #expect(transport.requests.first?.bodyText?.contains(#""channel":"kiosk""#) == true)
    }

    @Test func responsesAreCheckedOnlyWhenAsked() async throws {
        let reply = #"{"sku": "ABC-1234", "quantity": 2, "price": 9.99, "lines": [{"note": "ok"}, {"note": "this note is far too long"}]}"#
        let relaxed = Client(serverURL: Self.base, transport: ScriptedTransport { _ in .json(200, reply) })
        #expect(try await relaxed.placeOrder(orderID: "ord_1", body: Self.valid).lines?.count == 2)

        let strict = Client(serverURL: Self.base, transport: ScriptedTransport { _ in .json(200, reply) }, constraintChecks: [.requests, .responses])
        let error = await #expect(throws: ConstraintViolation.self) { try await strict.placeOrder(orderID: "ord_1", body: Self.valid) }
        #expect(error?.isInResponse == true)
        #expect(error?.description == "placeOrder: response.lines[1].note is longer than 20 characters (it is 25 characters long) (the server's response breaks the spec)")
    }

    @Test func appsCanValidateAValueThemselves() throws {
        var order = Self.valid
        order.sku = "nope"
        #expect(throws: ConstraintViolation.self) { try ConstraintValidator.validate(order, operationID: "form", root: "order") }
        #expect(throws: Never.self) { try ConstraintValidator.validate(Self.valid, operationID: "form", root: "order") }
        #expect(Order.Channel.knownRawValues == ["web", "app"])
    }
}
