import ArgumentParser
import Codegen
import Foundation
import OpenAPIModel
import SpecDiff

/// `clientgen diff BASE REVISION`: what a spec change does to shipped clients.
struct Diff: ParsableCommand {
    /// `--fail-on` levels.
    enum FailLevel: String, ExpressibleByArgument, CaseIterable {
        case ERR, WARN
    }

    static let configuration = CommandConfiguration(
        abstract: "Report what changed between two versions of a spec, and what it breaks.",
        discussion: """
            BASE and REVISION are files or GITREF:PATH (origin/main:specs/soul.yaml).
            Each finding has a rule id (oasdiff's where oasdiff has the rule), a level
            (ERR wire-breaking, WARN likely or source-breaking, INFO compatible), the
            operation, the JSON pointer, and the generated Swift symbols it affects.

            Exit status: 0 when nothing at or above --fail-on is found (always 0
            without --fail-on), 1 when something is, 2 when an input cannot be read
            (missing file, unknown git ref, invalid spec, bad ignore file).
            """)

    @Argument(help: "The spec as shipped: a file or GITREF:PATH.")
    var base: String

    @Argument(help: "The changed spec: a file or GITREF:PATH.")
    var revision: String

    @Option(help: "Output format: text, markdown, json or github.")
    var format: FindingFormatter.Format = .text

    @Option(name: .customLong("fail-on"), help: "Exit 1 when a finding at this level or above is not ignored: ERR or WARN.")
    var failOn: FailLevel?

    @Option(help: "An ignore file: 'rule id | METHOD /path | reason' a line, * wildcards.")
    var ignore: String?

    @Option(help: "The generated module name used in Swift symbols (default: from the spec's title).")
    var module: String?

    @Option(help: "A client list (specs/clients.json): the module of the entry whose spec is REVISION's path names the Swift symbols.")
    var config: String?

    @Option(help: "Today's date (YYYY-MM-DD) for x-sunset dates (default: today, UTC).")
    var today: String?

    func run() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("clientgen-diff-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // The two sides load in parallel (2 cores halve a large spec's wait).
        let results = LoadResults()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let (argument, folder) = index == 0 ? (base, "base") : (revision, "revision")
            let outcome = Result { try load(argument, scratch: scratch.appendingPathComponent(folder)) }
            results.set(index, outcome)
        }
        let baseDocument = try results.get(0)
        let revisionDocument = try results.get(1)
        var ignoreList: IgnoreList?
        if let ignore {
            guard let data = FileManager.default.contents(atPath: ignore) else {
                printToStandardError("error: cannot read the ignore file '\(ignore)'")
                throw ExitCode(2)
            }
            do {
                ignoreList = try IgnoreList(text: String(decoding: data, as: UTF8.self), file: ignore)
            } catch {
                printToStandardError("error: \(error)")
                throw ExitCode(2)
            }
        }
        let moduleName = try module ?? configuredModule() ?? GeneratorOptions.moduleName(fromTitle: baseDocument.info.title)
        let comparator = SpecComparator(base: baseDocument, revision: revisionDocument, moduleName: moduleName, today: today ?? Self.todayUTC())
        var findings = comparator.compare()
        if let ignoreList { findings = ignoreList.apply(to: findings) }
        print(FindingFormatter.format(findings, as: format, base: base, revision: revision), terminator: "")
        if let failOn {
            let threshold: FindingLevel = failOn == .ERR ? .error : .warning
            if findings.contains(where: { !$0.isIgnored && $0.level >= threshold }) { throw ExitCode(1) }
        }
    }

    /// The module `--config` lists for the revision's spec path.
    private func configuredModule() throws -> String? {
        guard let config else { return nil }
        let entries: [ClientConfig.Entry]
        do {
            entries = try ClientConfig.load(path: config).clients
        } catch {
            printToStandardError("error: \(error)")
            throw ExitCode(2)
        }
        let path = revision.split(separator: ":", maxSplits: 1).last.map(String.init) ?? revision
        let normalized = URL(fileURLWithPath: path).standardizedFileURL.path
        return entries.first { URL(fileURLWithPath: $0.spec).standardizedFileURL.path == normalized }?.module
    }

    static func todayUTC() -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: Date())
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }

    /// Loads a file, or `REF:PATH` from git; exits 2 with a clear message when it cannot.
    private func load(_ argument: String, scratch: URL) throws -> OpenAPIDocument {
        var path = argument
        if !FileManager.default.fileExists(atPath: argument) {
            guard let colon = argument.firstIndex(of: ":"), colon != argument.startIndex else {
                printToStandardError("error: '\(argument)' does not exist; give a spec file or GITREF:PATH (such as origin/main:specs/soul.yaml)")
                throw ExitCode(2)
            }
            let reference = String(argument[..<colon])
            let file = String(argument[argument.index(after: colon)...])
            guard Self.git(["rev-parse", "--verify", "--quiet", reference + "^{commit}"]) != nil else {
                printToStandardError("error: '\(reference)' is not a git commit, branch or tag here (from '\(argument)'); fetch it or check the name")
                throw ExitCode(2)
            }
            guard let contents = Self.git(["show", "\(reference):\(file)"]) else {
                printToStandardError("error: '\(file)' does not exist at '\(reference)' (from '\(argument)')")
                throw ExitCode(2)
            }
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            let copy = scratch.appendingPathComponent(URL(fileURLWithPath: file).lastPathComponent)
            try contents.write(to: copy)
            path = copy.path
        }
        let result = OpenAPILoader.load(path: path)
        for diagnostic in result.errors { printToStandardError(diagnostic.description.replacingOccurrences(of: path, with: argument)) }
        guard let document = result.document, !result.hasErrors else {
            printToStandardError("error: '\(argument)' is not a valid spec (run `clientgen lint` on it for details)")
            throw ExitCode(2)
        }
        return document
    }

    /// The two loads' outcomes, written from two threads.
    ///
    /// `@unchecked Sendable` is safe: `outcomes` is only touched while `lock` is held.
    private final class LoadResults: @unchecked Sendable {
        private let lock = NSLock()
        private var outcomes: [Int: Result<OpenAPIDocument, any Error>] = [:]

        func set(_ index: Int, _ outcome: Result<OpenAPIDocument, any Error>) { lock.withLock { outcomes[index] = outcome } }

        func get(_ index: Int) throws -> OpenAPIDocument {
            guard let outcome = lock.withLock({ outcomes[index] }) else { throw ExitCode(2) }
            return try outcome.get()
        }
    }

    /// Runs git; the output, or nil when it fails.
    private static func git(_ arguments: [String]) -> Data? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? data : nil
    }
}

/// The report formats, as `--format` values.
extension FindingFormatter.Format: ExpressibleByArgument {}
