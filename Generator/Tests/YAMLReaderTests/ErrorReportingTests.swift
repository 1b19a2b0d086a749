import Foundation
import Testing
import YAMLReader

/// Fatal errors, with the exact line and column editors jump to.
@Suite struct SyntaxErrorTests {
    /// The parts of a `.syntax` error, failing the test for any other case.
    private func syntax(
        _ error: YAMLError, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (mark: SourceMark, problem: String, context: String?, contextMark: SourceMark?, hint: String?) {
        guard case .syntax(let file, let mark, let problem, let context, let contextMark, let hint) = error else {
            Issue.record("expected a syntax error, got \(error)", sourceLocation: sourceLocation)
            throw WalkError()
        }
        #expect(file == "test.yaml", sourceLocation: sourceLocation)
        return (mark, problem, context, contextMark, hint)
    }

    @Test func unterminatedDoubleQuoteIsReportedAtTheOpeningQuote() throws {
        let error = try #require(readError("a: 1\nb: \"abc\nc: 2\n"))
        let parts = try syntax(error)
        #expect(parts.mark == at(2, 4))
        #expect(error.mark == at(2, 4))
        #expect(error.description.hasPrefix("test.yaml:2:4: error:"))
        #expect(parts.hint != nil)
    }

    @Test func unterminatedSingleQuoteIsReportedAtTheOpeningQuote() throws {
        let error = try #require(readError("info:\n  title: 'it\n"))
        #expect(try syntax(error).mark == at(2, 10))
        #expect(error.description.hasPrefix("test.yaml:2:10: error:"))
    }

    @Test func unterminatedQuoteAfterMultiByteCharacters() throws {
        let error = try #require(readError("日本: \"x\n"))
        #expect(try syntax(error).mark == at(1, 5))
    }

    @Test func badIndentationIsReportedOnTheMisalignedLine() throws {
        let error = try #require(readError("a:\n  b: 1\n c: 2\n"))
        let parts = try syntax(error)
        #expect(parts.mark == at(3, 2))
        #expect(error.description.hasPrefix("test.yaml:3:2: error:"))
        #expect(parts.hint?.contains("indentation") == true)
    }

    @Test func tabIndentationIsReportedWithATabHint() throws {
        let error = try #require(readError("a:\n\tb: 1\n"))
        let parts = try syntax(error)
        #expect(parts.mark == at(2, 1))
        #expect(error.description.hasPrefix("test.yaml:2:1: error:"))
        #expect(parts.hint?.localizedCaseInsensitiveContains("tab") == true)
        #expect(error.description.contains("\ntest.yaml:2:1: note: "))
    }

    @Test func tabAfterSpacesIsReportedAtTheTab() throws {
        let error = try #require(readError("a:\n  b: 1\n \tc: 2\n"))
        let parts = try syntax(error)
        #expect(parts.mark == at(3, 2))
        #expect(parts.hint?.localizedCaseInsensitiveContains("tab") == true)
    }

    @Test func characterThatCannotStartAToken() throws {
        let error = try #require(readError("key: @value\n"))
        let parts = try syntax(error)
        #expect(parts.mark == at(1, 6))
        #expect(parts.hint?.contains("quoted") == true)
    }

    @Test func mappingValueInsidePlainScalar() throws {
        let error = try #require(readError("summary: Note: this fails\n"))
        let parts = try syntax(error)
        #expect(parts.mark == at(1, 14))
        #expect(parts.hint?.contains("quote") == true)
    }

    @Test func unclosedFlowSequenceNamesWhereItStarted() throws {
        let error = try #require(readError("a: [1, 2"))
        let parts = try syntax(error)
        // libyaml reports the end of a stream without a final newline on the next line.
        #expect(parts.mark == at(1, 9) || parts.mark == at(2, 1))
        #expect(parts.contextMark == at(1, 4))
        #expect(parts.context != nil)
        #expect(error.message.contains("(started at 1:4)"))
    }

    @Test func unknownEscapeIsReportedAtTheBackslash() throws {
        let error = try #require(readError("a: 1\npath: \"C:\\windows\"\n"))
        let parts = try syntax(error)
        #expect(parts.mark == at(2, 10))
        #expect(parts.problem.contains("escape"))
        #expect(error.description.hasPrefix("test.yaml:2:10: error:"))
    }

    @Test func errorUsesTheGivenFileName() throws {
        let error = try #require(readError("a: 'x\n", fileName: "specs/petstore.yaml"))
        #expect(error.file == "specs/petstore.yaml")
        #expect(error.description.hasPrefix("specs/petstore.yaml:1:4: error:"))
    }
}

/// Input that is not text.
@Suite struct BinaryContentTests {
    @Test func nulByteIsBinaryContentAtItsPosition() throws {
        let error = try #require(readError(bytes: Array("a: b".utf8) + [0] + Array("c\n".utf8)))
        guard case .binaryContent(let file, let mark, _) = error else {
            Issue.record("expected binaryContent, got \(error)")
            return
        }
        #expect(file == "test.yaml")
        #expect(mark == at(1, 5))
        #expect(error.description.hasPrefix("test.yaml:1:5: error:"))
    }

    @Test func nulByteColumnCountsCharacters() throws {
        let error = try #require(readError(bytes: Array("é: 1\nb: ü".utf8) + [0]))
        #expect(error == .binaryContent(file: "test.yaml", mark: at(2, 5), reason: "found a NUL byte at offset 11"))
    }

    @Test func invalidUTF8IsBinaryContent() throws {
        let error = try #require(readError(bytes: [0x61, 0x3A, 0x20, 0xFF, 0xFE]))
        guard case .binaryContent(_, let mark, _) = error else {
            Issue.record("expected binaryContent, got \(error)")
            return
        }
        #expect(mark == at(1, 4))
        #expect(error.description.hasPrefix("test.yaml:1:4: error:"))
    }

    @Test func truncatedUTF8SequenceOnALaterLine() throws {
        let error = try #require(readError(bytes: Array("é: 1\nbé: ".utf8) + [0xC3]))
        guard case .binaryContent(_, let mark, _) = error else {
            Issue.record("expected binaryContent, got \(error)")
            return
        }
        #expect(mark == at(2, 5))
    }

    @Test func controlCharacterIsBinaryContent() throws {
        let error = try #require(readError(bytes: Array("a: b".utf8) + [0x07] + Array("\n".utf8)))
        guard case .binaryContent(_, let mark, _) = error else {
            Issue.record("expected binaryContent, got \(error)")
            return
        }
        #expect(mark == at(1, 5))
    }

    @Test func binaryFileOnDisk() throws {
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D]
        try withTemporaryFile(bytes, suffix: ".png") { path in
            do throws(YAMLError) {
                _ = try YAMLReader.read(contentsOfFile: path, displayName: "logo.png")
                Issue.record("a PNG header was read as YAML")
            } catch {
                guard case .binaryContent(let file, _, _) = error else {
                    Issue.record("expected binaryContent, got \(error)")
                    return
                }
                #expect(file == "logo.png")
            }
        }
    }
}

/// Reading files from disk.
@Suite struct FileReadingTests {
    @Test func readsAFileUsingItsPathAsName() throws {
        try withTemporaryFile(Array("openapi: 3.1.0\ninfo:\n  title: T\n".utf8)) { path in
            let tree = try YAMLReader.read(contentsOfFile: path)
            #expect(tree.fileName == path)
            #expect(tree.mark(try walk(tree, "info", "title")) == at(3, 10))
        }
    }

    @Test func displayNameIsUsedForTheTreeAndErrors() throws {
        try withTemporaryFile(Array("a: \"open\n".utf8)) { path in
            do throws(YAMLError) {
                _ = try YAMLReader.read(contentsOfFile: path, displayName: "api.yaml")
                Issue.record("expected an error")
            } catch {
                #expect(error.file == "api.yaml")
                #expect(error.description.hasPrefix("api.yaml:1:4: error:"))
            }
        }
        try withTemporaryFile(Array("a: 1\n".utf8)) { path in
            let tree = try YAMLReader.read(contentsOfFile: path, displayName: "api.yaml")
            #expect(tree.fileName == "api.yaml")
        }
    }

    @Test func missingFileIsUnreadable() throws {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("yamlreader-tests-missing-\(UUID().uuidString).yaml")
        do throws(YAMLError) {
            _ = try YAMLReader.read(contentsOfFile: path)
            Issue.record("a missing file was read")
        } catch {
            #expect(error == .unreadable(file: path, reason: "no such file"))
            #expect(error.mark == .start)
            #expect(error.description.hasPrefix("\(path):1:1: error: cannot read file"))
            #expect(error.hint != nil)
        }
    }

    @Test func directoryIsUnreadable() throws {
        let path = NSTemporaryDirectory()
        do throws(YAMLError) {
            _ = try YAMLReader.read(contentsOfFile: path, displayName: "dir")
            Issue.record("a directory was read")
        } catch {
            guard case .unreadable(let file, _) = error else {
                Issue.record("expected unreadable, got \(error)")
                return
            }
            #expect(file == "dir")
        }
    }

    @Test func emptyFileHasNoDocuments() throws {
        try withTemporaryFile([]) { path in
            let tree = try YAMLReader.read(contentsOfFile: path)
            #expect(tree.documents.isEmpty)
        }
    }
}
