import Foundation

/// Reads an X.509 certificate's DER (RFC 5280) as far as its
/// `subjectPublicKeyInfo`, the bytes a public-key pin (RFC 7469) hashes:
///
/// ```
/// Certificate ::= SEQUENCE { tbsCertificate TBSCertificate, signatureAlgorithm, signatureValue }
/// TBSCertificate ::= SEQUENCE { [0] version OPTIONAL, serialNumber, signature, issuer,
///                               validity, subject, subjectPublicKeyInfo, ... }
/// ```
///
/// Only the tags and lengths on that path are read (definite lengths, as
/// DER requires); nothing is validated beyond the structure, since the
/// platform's trust evaluation has already judged the certificate.
enum CertificateDER {
    /// The full DER encoding (tag, length and contents) of the
    /// certificate's `subjectPublicKeyInfo`.
    static func subjectPublicKeyInfo(of certificate: [UInt8]) throws(CertificateDecodingError) -> ArraySlice<UInt8> {
        var outer = DERReader(certificate[...])
        let certificateElement = try outer.read(expecting: .sequence, "Certificate")
        guard outer.isAtEnd else { throw CertificateDecodingError(reason: "bytes after the Certificate SEQUENCE", offset: outer.offset) }
        var fields = DERReader(certificateElement.contents)
        let tbs = try fields.read(expecting: .sequence, "tbsCertificate")
        var tbsFields = DERReader(tbs.contents)
        if tbsFields.peekTag == DERTag.explicitVersion.rawValue { _ = try tbsFields.read(expecting: .explicitVersion, "version") }
        _ = try tbsFields.read(expecting: .integer, "serialNumber")
        _ = try tbsFields.read(expecting: .sequence, "signature AlgorithmIdentifier")
        _ = try tbsFields.read(expecting: .sequence, "issuer Name")
        _ = try tbsFields.read(expecting: .sequence, "validity")
        _ = try tbsFields.read(expecting: .sequence, "subject Name")
        let spki = try tbsFields.read(expecting: .sequence, "subjectPublicKeyInfo")
        var keyFields = DERReader(spki.contents)
        _ = try keyFields.read(expecting: .sequence, "subjectPublicKeyInfo algorithm")
        _ = try keyFields.read(expecting: .bitString, "subjectPublicKey")
        guard keyFields.isAtEnd else {
            throw CertificateDecodingError(reason: "more than algorithm and key in subjectPublicKeyInfo", offset: keyFields.offset)
        }
        return spki.encoded
    }
}

/// The tags on the path to `subjectPublicKeyInfo`.
enum DERTag: UInt8 {
    case integer = 0x02
    case bitString = 0x03
    case sequence = 0x30
    /// `[0] EXPLICIT` (context-specific, constructed): the certificate's version.
    case explicitVersion = 0xA0
}

/// One DER element: its whole encoding and its contents.
struct DERElement {
    /// Tag, length and contents.
    let encoded: ArraySlice<UInt8>
    /// The contents alone.
    let contents: ArraySlice<UInt8>
}

/// Reads DER elements one after another from a slice (indices are the
/// original array's, so offsets in errors are from the certificate's start).
struct DERReader {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// Whether every element has been read.
    var isAtEnd: Bool { bytes.isEmpty }
    /// Where the next element starts.
    var offset: Int { bytes.startIndex }
    /// The next element's tag byte, without reading it.
    var peekTag: UInt8? { bytes.first }

    /// Reads the next element, which must have `tag` (low-tag-number form,
    /// all this path uses); `name` says what it is, for the error.
    mutating func read(expecting tag: DERTag, _ name: String) throws(CertificateDecodingError) -> DERElement {
        let start = bytes.startIndex
        guard let found = bytes.first else { throw CertificateDecodingError(reason: "expected \(name), found the end", offset: start) }
        guard found == tag.rawValue else {
            throw CertificateDecodingError(reason: "expected \(name) (tag 0x\(hex(tag.rawValue))), found tag 0x\(hex(found))", offset: start)
        }
        var index = start + 1
        guard index < bytes.endIndex else { throw CertificateDecodingError(reason: "\(name) has no length", offset: index) }
        let first = bytes[index]
        index += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            // 0x80 is BER's indefinite length, which DER forbids. Three length
            // bytes (16 MiB) are far more than any certificate needs, and fit
            // an `Int` of 32 bits: nothing here can overflow.
            guard count >= 1, count <= 3 else { throw CertificateDecodingError(reason: "\(name) has an invalid length", offset: index - 1) }
            guard bytes.endIndex - index >= count else { throw CertificateDecodingError(reason: "\(name)'s length is cut off", offset: index) }
            var value: UInt32 = 0
            for byte in bytes[index..<(index + count)] { value = value << 8 | UInt32(byte) }
            // DER (X.690 10.1): the long form only for lengths of 128 and more,
            // in the fewest bytes (no leading zero byte). BER's other spellings
            // are refused: one certificate must have one encoding.
            guard value >= 0x80, bytes[index] != 0 else {
                throw CertificateDecodingError(reason: "\(name)'s length is not in DER's minimal form", offset: index - 1)
            }
            length = Int(value)
            index += count
        }
        guard bytes.endIndex - index >= length else {
            throw CertificateDecodingError(reason: "\(name) claims \(length) bytes, \(bytes.endIndex - index) remain", offset: start)
        }
        let end = index + length
        let element = DERElement(encoded: bytes[start..<end], contents: bytes[index..<end])
        bytes = bytes[end...]
        return element
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}
