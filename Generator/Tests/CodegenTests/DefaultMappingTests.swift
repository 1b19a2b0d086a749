import Foundation
import ReferenceOpenapi32
import Testing

/// OpenAPI 3.2's discriminator `defaultMapping`, as the generated union
/// decodes it (the 3.2 reference's `Shape`): a mapped value is its member;
/// a value the mapping does not name, or none at all, is the default member
/// rather than an `undocumented` one.
@Suite struct DefaultMappingTests {
    static func shape(_ json: String) throws -> Shape {
        try JSONDecoder().decode(Shape.self, from: Data(json.utf8))
    }

    @Test func aMappedValueIsItsMember() throws {
        #expect(try Self.shape(#"{"kind": "circle", "radius": 2}"#) == .circle(Circle(kind: "circle", radius: 2)))
        #expect(try Self.shape(#"{"kind": "square", "side": 3}"#) == .square(Square(kind: "square", side: 3)))
    }

    @Test func anUnmappedOrAbsentValueIsTheDefaultMember() throws {
        #expect(try Self.shape(#"{"kind": "hexagon", "label": "six"}"#) == .otherShape(OtherShape(kind: "hexagon", label: "six")))
        #expect(try Self.shape(#"{"label": "no kind"}"#) == .otherShape(OtherShape(kind: nil, label: "no kind")))
        #expect(try Self.shape(#"{"kind": null}"#) == .otherShape(OtherShape(kind: nil, label: nil)))
    }

    @Test func theDefaultMemberEncodesAsItself() throws {
        let data = try JSONEncoder().encode(Shape.otherShape(OtherShape(kind: "hexagon", label: "six")))
        #expect(try Self.shape(String(decoding: data, as: UTF8.self)) == .otherShape(OtherShape(kind: "hexagon", label: "six")))
    }
}
