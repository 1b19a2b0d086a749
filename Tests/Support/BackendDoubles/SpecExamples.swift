import Foundation
import OpenAPIModel
import SandboxCore

/// The documented responses of a spec's operations, with the example bodies
/// the spec gives for them, read through the same model the generator uses.
package struct SpecExamples {
    /// One documented response.
    package struct Documented {
        /// The status code.
        package let status: Int
        /// The media type of the example.
        package let contentType: String?
        /// The example body as JSON (or text) bytes.
        package let body: Data?
    }

    package let document: OpenAPIDocument

    /// Why examples could not be read.
    package enum Failure: Error, CustomStringConvertible {
        /// The spec did not load.
        case unreadable(String)
        /// No operation has this id.
        case noOperation(String)

        /// What went wrong.
        package var description: String {
            switch self {
            case .unreadable(let name): return "specs/\(name) did not load"
            case .noOperation(let id): return "no operation \(id)"
            }
        }
    }

    /// Loads `specs/NAME` from the package root.
    package init(_ name: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let result = OpenAPILoader.load(path: root.appendingPathComponent("specs").appendingPathComponent(name).path)
        guard let document = result.document else { throw Failure.unreadable(name) }
        self.document = document
    }

    /// Every documented response of an operation, with its example.
    package func responses(of operationID: String) throws -> [Documented] {
        guard let entry = document.operations.first(where: { $0.operation.operationId == operationID }) else {
            throw Failure.noOperation(operationID)
        }
        return entry.operation.responses.compactMap { status, response -> Documented? in
            guard let code = Int(status), let resolved = document.resolve(response) else { return nil }
            guard let (contentType, media) = resolved.content.first(where: { _ in true }).map({ ($0.key, $0.value) }) else {
                return Documented(status: code, contentType: nil, body: nil)
            }
            let body = DocumentedExample.body(of: media, contentType: contentType, in: document).map { Data($0) }
            return Documented(status: code, contentType: contentType, body: body)
        }
    }
}
