import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An immutable, memory-mapped file of branding entries sorted by number:
/// what `lookup(e164:)` reads at ring time.
///
/// Layout (native byte order; the file never leaves the device):
///
/// ```
/// 0   "SNLOOKUP"                 magic
/// 8   UInt32 version, UInt32 0
/// 16  UInt64 generation          the store's sync generation it shows
/// 24  UInt64 baseGeneration      0 for a base file; for a delta, the base it overlays
/// 32  UInt64 count
/// 40  UInt64 indexOffset         8-aligned
/// 48  entries                    UInt8 kind (1 record, 0 removed), then the fields
/// indexOffset                    count x Int64 numbers, ascending, no duplicates
///                                count x UInt64 entry offsets
/// ```
///
/// A field is a UInt16 byte length and UTF-8 bytes; `0xFFFF` marks an
/// absent optional. A miss is a binary search over the numbers; a hit
/// decodes one entry. The pages belong to the OS's page cache, so a large
/// dataset costs the app no heap.
final class LookupFile: @unchecked Sendable {
    // `@unchecked Sendable` is safe: the mapping is read-only (`PROT_READ`,
    // `MAP_PRIVATE`), every stored property is a `let` set in `init`, nothing
    // writes through `bytes`, and `munmap` runs only in `deinit`, when no
    // reference (and so no reader) remains.

    /// The first bytes of every lookup file.
    static let magic: [UInt8] = Array("SNLOOKUP".utf8)
    /// The layout version `init` accepts.
    static let version: UInt32 = 1
    /// Bytes before the first entry.
    static let headerSize = 48
    /// The length that marks an absent optional field.
    static let absent: UInt16 = 0xFFFF

    /// What one number maps to in a file.
    enum Entry: Equatable {
        /// The number's record.
        case record(BrandingRecord)
        /// The number was removed (only in a delta file).
        case removed
    }

    /// Why a file cannot be used (the store then rebuilds it from SQLite).
    struct Invalid: Error, CustomStringConvertible {
        /// What is wrong with it.
        let description: String
    }

    let path: String
    let generation: UInt64
    let baseGeneration: UInt64
    let count: Int
    private let bytes: UnsafeRawPointer
    private let size: Int
    private let indexOffset: Int

    /// Maps the file at `path` and checks its structure: magic, version,
    /// sizes, ascending numbers, offsets inside the entry area.
    init(path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Invalid(description: "\(path): cannot open (errno \(errno))") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Invalid(description: "\(path): cannot stat (errno \(errno))") }
        let size = Int(status.st_size)
        guard size >= Self.headerSize else { throw Invalid(description: "\(path): \(size) bytes, shorter than the header") }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            throw Invalid(description: "\(path): mmap failed (errno \(errno))")
        }
        let bytes = UnsafeRawPointer(mapped)
        func fail(_ why: String) -> Invalid {
            munmap(mapped, size)
            return Invalid(description: "\(path): \(why)")
        }
        guard Self.magic.indices.allSatisfy({ bytes.load(fromByteOffset: $0, as: UInt8.self) == Self.magic[$0] }) else {
            throw fail("not a lookup file")
        }
        guard bytes.load(fromByteOffset: 8, as: UInt32.self) == Self.version else { throw fail("unknown version") }
        let count = Int(truncatingIfNeeded: bytes.load(fromByteOffset: 32, as: UInt64.self))
        let indexOffset = Int(truncatingIfNeeded: bytes.load(fromByteOffset: 40, as: UInt64.self))
        // Compared by division: a garbage count must not overflow a multiplication.
        guard count >= 0, indexOffset >= Self.headerSize, indexOffset % 8 == 0, indexOffset <= size,
            (size - indexOffset) % 16 == 0, (size - indexOffset) / 16 == count
        else { throw fail("sizes do not add up (a torn write?)") }
        var previous = Int64.min
        for position in 0..<count {
            let number = bytes.load(fromByteOffset: indexOffset + position * 8, as: Int64.self)
            let offset = bytes.load(fromByteOffset: indexOffset + (count + position) * 8, as: UInt64.self)
            guard position == 0 || number > previous else { throw fail("numbers not strictly ascending at entry \(position)") }
            guard offset >= UInt64(Self.headerSize), offset < UInt64(indexOffset) else { throw fail("entry \(position) points outside the file") }
            previous = number
        }
        self.path = path
        self.bytes = bytes
        self.size = size
        self.count = count
        self.indexOffset = indexOffset
        generation = bytes.load(fromByteOffset: 16, as: UInt64.self)
        baseGeneration = bytes.load(fromByteOffset: 24, as: UInt64.self)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes), size)
    }

    /// The entry for `number`, or nil when the file has none.
    func entry(for number: Int64) -> Entry? {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            let candidate = bytes.load(fromByteOffset: indexOffset + middle * 8, as: Int64.self)
            if candidate < number {
                low = middle + 1
            } else if candidate > number {
                high = middle
            } else {
                return decode(at: middle)
            }
        }
        return nil
    }

    /// The number at a position (ascending).
    func number(at position: Int) -> Int64 {
        bytes.load(fromByteOffset: indexOffset + position * 8, as: Int64.self)
    }

    /// The entry at a position (ascending by number); nil when its bytes run
    /// past the entry area (a corrupt file).
    func decode(at position: Int) -> Entry? {
        var cursor = Int(bytes.load(fromByteOffset: indexOffset + (count + position) * 8, as: UInt64.self))
        let kind = bytes.load(fromByteOffset: cursor, as: UInt8.self)
        cursor += 1
        if kind == 0 { return .removed }
        func field() -> String?? {
            guard cursor + 2 <= indexOffset else { return .none }
            let length = bytes.loadUnaligned(fromByteOffset: cursor, as: UInt16.self)
            cursor += 2
            if length == Self.absent { return .some(nil) }
            guard cursor + Int(length) <= indexOffset else { return .none }
            let text = String(decoding: UnsafeRawBufferPointer(start: bytes + cursor, count: Int(length)), as: UTF8.self)
            cursor += Int(length)
            return .some(text)
        }
        guard case let e164?? = field(), case let brandName?? = field(), case let brandID?? = field(),
            case let logoURL? = field(), case let callReason? = field(), case let updatedAt?? = field()
        else { return nil }
        return .record(BrandingRecord(e164: e164, brandName: brandName, brandID: brandID, logoURL: logoURL, callReason: callReason, updatedAt: updatedAt))
    }

    /// Every entry, ascending by number.
    func entries() -> [(Int64, Entry)] {
        (0..<count).compactMap { position in decode(at: position).map { (number(at: position), $0) } }
    }
}
