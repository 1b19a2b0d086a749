import OpenAPIModel

/// How a parameter value is written into the path, query or a header
/// (OpenAPI `style`, with its default for the location filled in).
public enum ParameterStyle: String, Sendable, Hashable, CaseIterable {
    /// `a,b` (paths and headers).
    case simple
    /// `.a.b` (paths).
    case label
    /// `;name=a,b` (paths).
    case matrix
    /// `name=a&name=b` (queries and cookies).
    case form
    /// `name=a%20b` (queries).
    case spaceDelimited
    /// `name=a|b` (queries).
    case pipeDelimited
    /// `name[key]=value` (queries).
    case deepObject
    /// `name=value` unescaped (cookies, OpenAPI 3.2).
    case cookie

    /// The style the spec writes, or the location's default when it names
    /// none or one this location cannot take (which `clientgen lint` reports
    /// as `invalid-parameter-style`).
    public init(_ written: String?, location: ParameterLocation) {
        let defaultStyle: ParameterStyle = location == .query || location == .cookie || location == .querystring ? .form : .simple
        guard let written, let style = ParameterStyle(rawValue: written) else {
            self = defaultStyle
            return
        }
        switch location {
        case .path: self = [.simple, .label, .matrix].contains(style) ? style : defaultStyle
        case .query: self = [.form, .spaceDelimited, .pipeDelimited, .deepObject].contains(style) ? style : defaultStyle
        case .header: self = .simple
        case .cookie: self = style == .cookie ? .cookie : .form
        case .querystring: self = .form
        }
    }
}
