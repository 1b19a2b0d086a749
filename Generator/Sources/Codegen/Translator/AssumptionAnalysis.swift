/// Makes the guesses of a spec (`x-assumed: true`) lenient where a response
/// brings them: an assumed property of a structure a response carries
/// becomes optional and decodes to `nil` when it is absent, `null` or of
/// another type (reported once through `AssumedFields` at run time), so a
/// real backend whose answer differs from the guess is still read. Its
/// constraints were already left out by ``ConstraintTranslator``. A
/// structure only requests carry keeps its types: what the app sends is the
/// app's to choose.
enum AssumptionAnalysis {
    /// The declarations with the assumed properties of response structures
    /// optional and lenient.
    static func markLenient(_ declarations: [TypeDeclaration]) -> [TypeDeclaration] {
        declarations.map(mark)
    }

    /// Every type a response of `operation` decodes into.
    static func responseTypes(_ operation: OperationDeclaration) -> [SwiftType] {
        var types = operation.responses.compactMap { response -> SwiftType? in
            if case .json(let type) = response.decoding { return type }
            return nil
        }
        if let streaming = operation.streaming { types += [streaming.elementType, streaming.envelopeType] }
        return types
    }

    private static func mark(_ declaration: TypeDeclaration) -> TypeDeclaration {
        var declaration = declaration
        if case .structure(var shape) = declaration.kind, shape.isInResponses {
            shape.properties = shape.properties.map { property in
                guard property.isAssumed else { return property }
                var property = property
                property.decodesLeniently = true
                let note = "Assumed by the spec (`x-assumed`): nil when an answer lacks it or differs."
                property.documentation = property.documentation.map { $0 + "\n\n" + note } ?? note
                if !property.type.isOptional, property.defaultValue == nil { property.type = .optional(property.type) }
                return property
            }
            declaration.kind = .structure(shape)
        }
        declaration.nested = declaration.nested.map(mark)
        return declaration
    }
}
