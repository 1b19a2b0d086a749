import Codegen
import Foundation
import OpenAPIModel
import Testing

/// A spec is text from anyone, and the build plugin runs the generator on
/// it inside an app's build: no string of a spec may become code. Each
/// hostile string (a line break, a comment delimiter, a string delimiter,
/// an interpolation, a backtick, a hash, a bidi override, a line separator)
/// is put where a spec can put a string; the generated files must
/// type-check against ClientRuntime, hold no top-level code, and declare
/// none of the payload's names.
@Suite struct HostileSpecTests {
    /// The strings, as YAML double-quoted escapes. Each ends with a payload
    /// declaring `injected<N>`, which must never become a declaration.
    static let hostile = [
        "a\\nlet injected1 = 1\\n//",
        "b\\r\\nlet injected2 = 2\\r\\n//",
        "c */ let injected3 = 3 /*",
        "d \\\"\\\"\\\"\\nlet injected4 = 4\\n\\\"\\\"\\\"",
        "e \\\"); let injected5 = 5; (\\\"",
        "f \\\\(injected6) \\\\u{0A}",
        "g ` ``` #if true\\nlet injected7 = 7\\n#endif",
        "h \\u202E let injected8 = 8 \\u2066\\u2028let injected9 = 9",
        "i #\\\"raw\\\"# \\\\\\\\ \\\\\\\"",
    ]

    /// Hostile strings where a spec holds prose and values (descriptions,
    /// titles, enum values, defaults, examples, patterns, server URLs):
    /// legitimate places for any text, so the spec lints clean.
    static func textSpec() -> String {
        let h = hostile
        var yaml = """
            openapi: 3.0.3
            info: {title: "\(h[0])", version: "\(h[1])", description: "\(h[2])"}
            servers:
              - {url: "https://api.example.com/x');let(injected11)=11;//%22%0A%E2%80%AE", description: "\(h[4])"}
            tags: [{name: "\(h[5])", description: "\(h[6])"}]
            paths:
              /pets/{id}:
                get:
                  operationId: getPet
                  summary: "\(h[7])"
                  description: "\(h[8])"
                  tags: ["\(h[5])"]
                  parameters:
                    - {name: id, in: path, required: true, description: "\(h[0])", schema: {type: string, pattern: "\(h[1])"}}
                    - {name: kind, in: query, description: "\(h[2])", schema: {type: string, enum: ["\(h[3])", "\(h[4])", "\(h[7])"], default: "\(h[3])"}}
                    - {name: note, in: query, schema: {type: string, default: "\(h[6])", example: "\(h[8])", maxLength: 40}}
                  responses:
                    '200':
                      description: "\(h[5])"
                      content:
                        application/json:
                          schema: {$ref: '#/components/schemas/Pet'}
                    default:
                      description: "\(h[6])"
                      content:
                        text/plain:
                          schema: {type: string, example: "\(h[7])"}
            components:
              securitySchemes:
                key: {type: apiKey, in: header, name: X-Key, description: "\(h[8])"}
              schemas:
                Pet:
                  title: "\(h[0])"
                  description: "\(h[1])"
                  type: object
                  required: [name]
                  properties:
                    name: {type: string, description: "\(h[2])", default: "\(h[4])", pattern: "\(h[5])"}
                    mood: {type: string, enum: ["\(h[6])", "\(h[8])"], description: "\(h[7])"}
                    tag: {type: integer, enum: [1, 2], description: "\(h[3])"}
            security: [{key: []}]
            """
        yaml += "\n"
        return yaml
    }

    /// Hostile strings in names that become identifiers and comments: every
    /// one is a located lint error, and the generator run anyway (as a
    /// caller of the library may) still writes no code from them.
    static func namesSpec() -> String {
        let h = hostile
        return """
            openapi: 3.0.3
            info: {title: Names, version: '1'}
            paths:
              "/p/\(h[0])":
                get:
                  operationId: "\(h[1])"
                  parameters:
                    - {name: "\(h[2])", in: query, schema: {type: integer}}
                    - {name: "\(h[7])", in: header, schema: {type: string}}
                  responses:
                    '200':
                      description: ok
                      headers:
                        "\(h[4])": {schema: {type: integer}}
                      content:
                        application/json:
                          schema: {$ref: '#/components/schemas/Thing'}
              "/q/\(h[6])":
                post:
                  operationId: "\(h[8])"
                  requestBody:
                    content:
                      application/json:
                        schema: {type: object, properties: {"\(h[3])": {type: string}, "\(h[5])": {type: integer}}}
                  responses:
                    '204': {description: done}
            components:
              securitySchemes:
                "\(h[2])": {type: apiKey, in: header, name: "\(h[0])"}
              schemas:
                Thing:
                  type: object
                  properties:
                    "\(h[7])": {type: string}
                    "\(h[4])": {type: string}
            security: [{"\(h[2])": []}]

            """
    }

    @Test func hostileTextLintsCleanAndGeneratesCodeWithoutIt() throws {
        let result = OpenAPILoader.load(string: Self.textSpec(), fileName: "hostile-text.yaml")
        #expect(result.errors.isEmpty, "\(result.errors)")
        let document = try #require(result.document)
        try Self.check(ClientGenerator.generate(document, options: GeneratorOptions(moduleName: "HostileText", specName: "hostile-text.yaml")), module: "HostileText")
    }

    /// A server URL is a web address: a hostile string that is not one (a
    /// line break, a quote, a space, a backslash) is a located error, and
    /// one that is (percent-encoded, or of URL characters alone) is written
    /// as a string literal above.
    @Test func hostileServerURLsAreLintErrorsAtTheirPlace() throws {
        let servers = Self.hostile.map { "  - {url: \"https://api.example.com/\($0)\"}" }.joined(separator: "\n")
        let yaml = "openapi: 3.0.3\ninfo: {title: Servers, version: '1'}\nservers:\n\(servers)\npaths: {}\n"
        let result = OpenAPILoader.load(string: yaml, fileName: "hostile-servers.yaml")
        let found = result.errors.filter { $0.code == "invalid-server-url" }
        #expect(found.map(\.line) == Array(4..<(4 + Self.hostile.count)), "\(result.diagnostics.map(\.description).joined(separator: "\n"))")
    }

    @Test func hostileNamesAreLintErrorsAndGenerateNoCode() throws {
        let result = OpenAPILoader.load(string: Self.namesSpec(), fileName: "hostile-names.yaml")
        let found = result.errors.filter { ["hidden-character", "comment-delimiter", "invalid-header-name"].contains($0.code) }
        // The two paths, the first operationId, the header parameter, the response header, a property of the
        // body and one of Thing, the apiKey's header name: each where it stands. (The other names hold
        // no hidden character, and the generator makes identifiers of their ASCII letters and digits alone.)
        #expect(found.count == 8, "\(result.diagnostics.map(\.description).joined(separator: "\n"))")
        for error in found { #expect(error.line > 1 && error.column > 1, "\(error)") }
        let document = try #require(result.document)
        try Self.check(ClientGenerator.generate(document, options: GeneratorOptions(moduleName: "HostileNames", specName: "hostile\nnames.yaml")), module: "HostileNames")
    }

    // MARK: Checks

    /// The files type-check as a module against ClientRuntime, hold no
    /// top-level code, and declare no `injected<N>`.
    static func check(_ files: [GeneratedFile], module: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for file in files {
            let url = folder.appendingPathComponent(file.name)
            try file.contents.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
        for file in files {
            #expect(!file.contents.unicodeScalars.contains { HiddenCharacters.isHidden($0) && $0 != "\n" }, "\(file.name) holds a hidden character")
        }
        // Declarations as the parser sees them.
        let parse = try run(["swiftc", "-dump-parse"] + paths)
        #expect(parse.status == 0, "\(parse.output.suffix(3000))")
        #expect(!parse.output.contains("top_level_code_decl"), "top-level code in the generated files")
        let declared = declarations(in: parse.output)
        #expect(!declared.isEmpty)
        let injected = declared.filter { $0.lowercased().hasPrefix("injected") }
        #expect(injected.isEmpty, "declared from the spec's text: \(injected)")
        // And the module type-checks against the runtime the test bundle was built with.
        let modules = try #require(runtimeModules(), "ClientRuntime.swiftmodule not found beside the test bundle")
        let typecheck = try run(["swiftc", "-typecheck", "-swift-version", "6", "-module-name", module, "-I", modules] + paths)
        #expect(typecheck.status == 0, "\(module) does not type-check:\n\(typecheck.output.suffix(4000))")
    }

    /// The names of every declared variable, function, type and case.
    static func declarations(in dump: String) -> [String] {
        var names: [String] = []
        for line in dump.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            for kind in ["(pattern_named \"", "(func_decl ", "(struct_decl ", "(enum_decl ", "(enum_element_decl ", "(typealias_decl ", "(protocol_decl ", "(var_decl "] where trimmed.hasPrefix(kind) {
                guard let open = trimmed.firstIndex(of: "\"") else { continue }
                let rest = trimmed[trimmed.index(after: open)...]
                if let close = rest.firstIndex(of: "\"") { names.append(String(rest[..<close])) }
            }
        }
        return names
    }

    /// The folder of the Swift modules this test bundle was built with.
    static func runtimeModules() -> String? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var candidates = [root.appendingPathComponent(".build/debug/Modules").path]
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.insert(URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("Modules").path, at: 0)
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/ClientRuntime.swiftmodule") }
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-output-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }
}
