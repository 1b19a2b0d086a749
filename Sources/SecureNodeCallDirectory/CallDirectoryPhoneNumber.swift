import Foundation

/// A number as CallKit takes it (`CXCallDirectoryPhoneNumber`): the digits
/// of the E.164 number without its `+`, as an integer (`+61412345678` is
/// `61412345678`). CallKit wants them in ascending numeric order.
public typealias CallDirectoryPhoneNumber = Int64

/// Reading and writing the digits of a ``CallDirectoryPhoneNumber`` in the
/// files the host app and the extension share.
enum CallDirectoryDigits {
    /// The most digits an E.164 number has.
    static let maximumCount = 15

    /// The number `digits` spell: 1 to 15 ASCII digits, greater than zero;
    /// nil for anything else.
    static func number(_ digits: ArraySlice<UInt8>) -> CallDirectoryPhoneNumber? {
        guard !digits.isEmpty, digits.count <= maximumCount else { return nil }
        var value: CallDirectoryPhoneNumber = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + CallDirectoryPhoneNumber(byte - UInt8(ascii: "0"))
        }
        return value > 0 ? value : nil
    }

    /// Appends the decimal digits of `number` to `buffer`.
    static func append(_ number: CallDirectoryPhoneNumber, to buffer: inout Data) {
        buffer.append(contentsOf: String(number).utf8)
    }
}
