import Foundation

/// What a logo must be before it is stored or handed to Contacts, read from
/// its header without decoding a pixel: a PNG or a JPEG (the formats the
/// assets host serves and every iOS version decodes), at most
/// ``maximumSide`` pixels on each side.
///
/// Contacts, the Phone app and every app that reads contacts decode a
/// contact's image. A small file can declare a huge bitmap (a PNG that
/// says 30,000 x 30,000 compresses to a few kilobytes and decodes to
/// 3.6 GB), and bytes that are not an image at all (an error page, a
/// script) have no business in the address book; both are refused here.
enum LogoImage {
    /// The image formats a logo may have.
    enum Format: String, Sendable, Hashable {
        case png = "PNG"
        case jpeg = "JPEG"
    }

    /// The most pixels a logo may have on each side: a contact's image is
    /// shown at most a few hundred points wide.
    static let maximumSide = 1024

    /// The `Content-Type`s a logo download may have.
    static let contentTypes: Set<String> = ["image/png", "image/jpeg"]

    /// The format and size `data` declares, or why it is not a logo.
    static func check(_ data: Data) throws(LogoCache.Failure) -> (format: Format, width: Int, height: Int) {
        let bytes = [UInt8](data.prefix(64 << 10))
        let (format, width, height): (Format, Int, Int)
        if let size = pngSize(bytes) {
            (format, width, height) = (.png, size.width, size.height)
        } else if let size = jpegSize(bytes) {
            (format, width, height) = (.jpeg, size.width, size.height)
        } else {
            throw .notAnImage(reason: "neither a PNG nor a JPEG header")
        }
        guard width > 0, height > 0 else { throw .notAnImage(reason: "a \(format.rawValue) of \(width) x \(height) pixels") }
        guard width <= maximumSide, height <= maximumSide else {
            throw .tooManyPixels(width: width, height: height, limit: maximumSide)
        }
        return (format, width, height)
    }

    /// A PNG's size: the signature, then the `IHDR` chunk first, as the
    /// format requires.
    static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        return (bigEndian(bytes, at: 16, count: 4), bigEndian(bytes, at: 20, count: 4))
    }

    /// A JPEG's size: the start-of-image marker, then segments up to the
    /// first start-of-frame, which holds the height and width.
    static func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF else { return nil }
        var index = 2
        while index + 4 <= bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF {
                // Fill bytes before a marker.
                index += 1
                continue
            }
            // Markers without a length: restart markers, and TEM.
            if (0xD0...0xD7).contains(marker) || marker == 0x01 {
                index += 2
                continue
            }
            let length = bigEndian(bytes, at: index + 2, count: 2)
            guard length >= 2 else { return nil }
            // Start of frame: baseline, progressive, lossless and the others,
            // not DHT (C4), JPG (C8) or DAC (CC), which share the range.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard index + 9 <= bytes.count else { return nil }
                return (bigEndian(bytes, at: index + 7, count: 2), bigEndian(bytes, at: index + 5, count: 2))
            }
            // The image data started (SOS) or ended (EOI) before any frame header.
            if marker == 0xDA || marker == 0xD9 { return nil }
            index += 2 + length
        }
        return nil
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }
}
