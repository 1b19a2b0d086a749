/// Keyed-container overloads for the string-backed value types
/// (``LowercaseUUID``, ``CalendarDate``): a property of one of them is read
/// as the `String` it is on the wire and parsed in place.
///
/// The generic `decode(_:forKey:)` that synthesized `Codable` would
/// otherwise call makes the decoder build a nested decoder and a
/// single-value container for every value; for a response of 1,000 rows
/// with a UUID and a date each, that was the whole gap between a typed
/// client and one that keeps those fields as strings. Synthesized `Codable`
/// picks these overloads because they are more specific than the generic
/// requirement, so generated types stay plain `Codable` structs. The result
/// and the errors are the same as the types' own `init(from:)` and
/// `encode(to:)`: the same checks, and a `DecodingError` naming the key.
extension KeyedDecodingContainer {
    /// Reads a UUID string in either case.
    public func decode(_ type: LowercaseUUID.Type, forKey key: Key) throws -> LowercaseUUID {
        try LowercaseUUID.parsed(decode(String.self, forKey: key), forKey: key, in: self)
    }

    /// Reads a UUID string in either case; nil when the key is absent or null.
    public func decodeIfPresent(_ type: LowercaseUUID.Type, forKey key: Key) throws -> LowercaseUUID? {
        try decodeIfPresent(String.self, forKey: key).map { try LowercaseUUID.parsed($0, forKey: key, in: self) }
    }

    /// Reads `YYYY-MM-DD`.
    public func decode(_ type: CalendarDate.Type, forKey key: Key) throws -> CalendarDate {
        try CalendarDate.parsed(decode(String.self, forKey: key), forKey: key, in: self)
    }

    /// Reads `YYYY-MM-DD`; nil when the key is absent or null.
    public func decodeIfPresent(_ type: CalendarDate.Type, forKey key: Key) throws -> CalendarDate? {
        try decodeIfPresent(String.self, forKey: key).map { try CalendarDate.parsed($0, forKey: key, in: self) }
    }
}

extension KeyedEncodingContainer {
    /// Writes the lower-case form.
    public mutating func encode(_ value: LowercaseUUID, forKey key: Key) throws {
        try encode(value.uuidString, forKey: key)
    }

    /// Writes the lower-case form; nothing when nil.
    public mutating func encodeIfPresent(_ value: LowercaseUUID?, forKey key: Key) throws {
        try encodeIfPresent(value?.uuidString, forKey: key)
    }

    /// Writes `YYYY-MM-DD`.
    public mutating func encode(_ value: CalendarDate, forKey key: Key) throws {
        try encode(value.description, forKey: key)
    }

    /// Writes `YYYY-MM-DD`; nothing when nil.
    public mutating func encodeIfPresent(_ value: CalendarDate?, forKey key: Key) throws {
        try encodeIfPresent(value?.description, forKey: key)
    }
}

extension LowercaseUUID {
    /// `text` parsed, or the error the type's `init(from:)` throws.
    static func parsed<Key>(_ text: String, forKey key: Key, in container: KeyedDecodingContainer<Key>) throws -> LowercaseUUID {
        guard let value = LowercaseUUID(parsing: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: invalidDescription(text))
        }
        return value
    }
}

extension CalendarDate {
    /// `text` parsed, or the error the type's `init(from:)` throws.
    static func parsed<Key>(_ text: String, forKey key: Key, in container: KeyedDecodingContainer<Key>) throws -> CalendarDate {
        guard let value = CalendarDate(parsing: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: invalidDescription(text))
        }
        return value
    }
}
