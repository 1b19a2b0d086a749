import Foundation
import GRDB

/// The memory-mapped lookup files derived from the database: written, swapped
/// in, and rebuilt when they do not match the database's generation.
extension BrandingStore {
    /// Moves a written base file into place; the snapshot that reads it.
    func install(pending: String, generation: UInt64) throws -> LookupSnapshot {
        guard rename(pending, basePath) == 0 else {
            unlink(pending)
            throw LookupFileWriter.Failure.system("rename", path: pending, errno: errno)
        }
        unlink(deltaPath)
        return LookupSnapshot(generation: generation, base: try LookupFile(path: basePath), delta: nil)
    }

    /// Writes the base lookup file from the database (ascending by number,
    /// as the table is clustered by it) and swaps it in.
    func rebuildBase(generation: UInt64) throws -> LookupSnapshot {
        let pending = pendingPath(for: basePath)
        do {
            let writer = try LookupFileWriter(path: pending, generation: generation)
            try pool.read { db in
                let rows = try Row.fetchCursor(db, sql: "SELECT \(Self.recordColumns), number FROM branding ORDER BY number")
                while let row = try rows.next() {
                    do {
                        try writer.append(row[6], .record(Self.record(row)))
                    } catch LookupFileWriter.Failure.fieldTooLong {
                        // Not written by this version (values are clamped in bytes
                        // too); a row no entry can hold must not stop the store opening.
                        continue
                    }
                }
            }
            try writer.finish()
        } catch {
            unlink(pending)
            throw error
        }
        return try install(pending: pending, generation: generation)
    }

    /// The lookup files that match the database's generation, or a base
    /// rebuilt from the database when they do not (a crash between a
    /// commit and the file swap, a torn or missing file).
    func loadSnapshot() throws -> LookupSnapshot {
        removePendingFiles()
        let generation = try databaseGeneration()
        let base = try? LookupFile(path: basePath)
        if let base, base.baseGeneration == 0 {
            if base.generation == generation {
                unlink(deltaPath)
                return LookupSnapshot(generation: generation, base: base, delta: nil)
            }
            if let delta = try? LookupFile(path: deltaPath), delta.generation == generation, delta.baseGeneration == base.generation {
                return LookupSnapshot(generation: generation, base: base, delta: delta)
            }
        }
        return try rebuildBase(generation: generation)
    }

    /// Removes lookup files a process left half-written when it died.
    func removePendingFiles() {
        let folder = (basePath as NSString).deletingLastPathComponent
        let prefixes = [(basePath as NSString).lastPathComponent + ".pending-", (deltaPath as NSString).lastPathComponent + ".pending-"]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where prefixes.contains(where: name.hasPrefix) {
            unlink((folder as NSString).appendingPathComponent(name))
        }
    }
}
