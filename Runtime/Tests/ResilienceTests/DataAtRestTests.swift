import Foundation
import Resilience
import Testing

/// A file an SDK cannot protect is not written: the file system's refusal
/// of a protection class (on Linux, the `DataAtRest` double's) is an
/// error, and nothing is left unprotected in its place.
@Suite struct DataAtRestTests {
    static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("data-at-rest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aFileThatCannotBeProtectedIsNotWrittenAndTheOldOneStays() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pending.json")
        try PrivateFile.write(Data("first".utf8), to: file, protection: .foregroundOnly)
        #expect(DataAtRest.applied(to: file) == .foregroundOnly)

        DataAtRest.refuse(under: folder, reason: "protection classes are not available")
        do {
            try PrivateFile.write(Data("second".utf8), to: file, protection: .foregroundOnly)
            Issue.record("written although it could not be protected")
        } catch let error as DataAtRestError {
            #expect(error.policy == .foregroundOnly && error.reason == "protection classes are not available")
            #expect(error.description.contains("nothing was written there unprotected"))
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == "first", "the old file stays as it was")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["pending.json"], "no temporary file is left")

        DataAtRest.stopRefusing(under: folder)
        try PrivateFile.write(Data("third".utf8), to: file, protection: .foregroundOnly)
        #expect(try String(contentsOf: file, encoding: .utf8) == "third")
        #expect(DataAtRest.applied(to: file) == .foregroundOnly, "the policy given to the new bytes went with them to the file's name")
    }

    @Test func aFileThatCannotBeWrittenSaysWhereWhyAndWhatToCheck() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("missing-folder").appendingPathComponent("refresh-token")
        #expect(throws: PrivateFileError.cannotWrite(path: file.path, errno: ENOENT)) {
            try PrivateFile.write(Data("token".utf8), to: file)
        }
        do {
            try PrivateFile.write(Data("token".utf8), to: file)
        } catch {
            let text = String(describing: error)
            #expect(text.contains(file.path) && text.contains("No such file or directory") && text.contains("Check that its folder exists"), "\(text)")
        }
    }

    @Test func aFolderThatCannotBeProtectedIsAnError() throws {
        let parent = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        DataAtRest.refuse(under: parent)
        defer { DataAtRest.stopRefusing(under: parent) }
        #expect(throws: DataAtRestError.self) {
            try PrivateFile.makeFolder(parent.appendingPathComponent("queue"), protection: .background)
        }
    }
}
