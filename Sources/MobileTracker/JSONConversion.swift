import ClientRuntime
import Foundation

/// `[String: Any]` from the app into `JSONValue`, refusing what JSON cannot
/// carry, so a bad value is reported at the call and never queued.
enum JSONConversion {
    static func object(_ dictionary: [String: Any], path: @autoclosure () -> String) throws(TrackerError) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        result.reserveCapacity(dictionary.count)
        for (key, value) in dictionary { result[key] = try convert(value, path: path() + "." + key) }
        return result
    }

    static func convert(_ value: Any, path: @autoclosure () -> String) throws(TrackerError) -> JSONValue {
        // The common cases first: each failed cast of an `Any` costs.
        if let string = value as? String { return .string(string) }
        if type(of: value) == Bool.self, let bool = value as? Bool { return .bool(bool) }
        if let int = value as? Int { return .int(int) }
        if let double = value as? Double, double.isFinite { return .double(double) }
        if let optional = value as? OptionalProtocol, optional.isNone { return .null }
        switch value {
        case is NSNull: return .null
        case let int as Int32: return .int(Int(int))
        case let int as Int64: return .int(Int(int))
        case let int as Int16: return .int(Int(int))
        case let int as Int8: return .int(Int(int))
        case let int as UInt32: return .int(Int(int))
        case let int as UInt16: return .int(Int(int))
        case let int as UInt8: return .int(Int(int))
        case let int as UInt where int <= UInt(Int.max): return .int(Int(int))
        case let double as Double where double.isFinite: return .double(double)
        case let float as Float where float.isFinite: return .double(Double(float))
        case let decimal as Decimal: return .double(NSDecimalNumber(decimal: decimal).doubleValue)
        case let array as [Any]:
            var items: [JSONValue] = []
            for (index, item) in array.enumerated() { items.append(try convert(item, path: "\(path())[\(index)]")) }
            return .array(items)
        case let object as [String: Any]: return .object(try self.object(object, path: path()))
        default: throw .serializationFailed(path: path())
        }
    }
}

/// Lets `Any` holding `nil` be told apart.
private protocol OptionalProtocol {
    var isNone: Bool { get }
}

extension Optional: OptionalProtocol {
    var isNone: Bool { self == nil }
}
