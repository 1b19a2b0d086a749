/// One operation's generated code, rendered once so that cutting the
/// operations into files can count its lines and then join them.
struct RenderedOperation: Sendable {
    /// Its methods, indented for the inside of `extension Client`.
    var methods: [String]
    /// Its shorthand without the optional arguments, indented for the inside
    /// of `extension APIProtocol`; empty when it has no optional argument.
    var shorthand: [String]
    /// Its per-status result enums, at the top level, each after a blank line.
    var results: [String]

    /// The lines it takes in a file chunk of its own: the extensions'
    /// opening and closing lines included.
    var lineCount: Int {
        2 + methods.count + (shorthand.isEmpty ? 0 : 3 + shorthand.count) + results.count
    }

    /// The bytes of its lines (each with its line break).
    var byteCount: Int {
        (methods + shorthand + results).reduce(0) { $0 + $1.utf8.count + 1 }
    }
}
