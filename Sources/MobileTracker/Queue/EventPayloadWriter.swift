import ClientRuntime

/// Writes a queued event's JSON by hand, in the shape `JSONEncoder` gives
/// `EventQueue.Item.event(name:data:)` (`{"event":{"name":...,"data":...}}`)
/// and reading back as the same item, several times faster: `track` pays
/// for it on the caller's time.
enum EventPayloadWriter {
    static func event(name: String, data: [String: JSONValue]?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + name.utf8.count)
        out.append(contentsOf: #"{"event":{"name":"#.utf8)
        string(name, into: &out)
        if let data {
            out.append(contentsOf: #","data":"#.utf8)
            value(.object(data), into: &out)
        }
        out.append(contentsOf: "}}".utf8)
        return out
    }

    static func value(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number): out.append(contentsOf: String(number).utf8)
        case .double(let number):
            // `description` is the shortest form that reads back exactly, and
            // valid JSON for finite values (the only ones queued).
            out.append(contentsOf: number.description.utf8)
        case .string(let text): string(text, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                self.value(item, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                string(key, into: &out)
                out.append(UInt8(ascii: ":"))
                self.value(members[key]!, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func string(_ text: String, into out: inout [UInt8]) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                out.append(contentsOf: Array(#"\u00"#.utf8))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
