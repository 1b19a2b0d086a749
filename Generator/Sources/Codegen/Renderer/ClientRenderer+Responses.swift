import Foundation

/// The `switch` over an answer's status: each documented response decoded,
/// the rest `UndocumentedResponseError`.
extension ClientRenderer {
    /// The `switch` over `response.status`; without `includingSuccess`, the
    /// success statuses are left out (the caller has handled them).
    func renderResponseSwitch(_ operation: OperationDeclaration, includingSuccess: Bool = true, into writer: inout SwiftWriter) {
        let responses = includingSuccess ? operation.responses : operation.responses.filter { !$0.isSuccess }
        // Exact codes first, then ranges, then `default`.
        let ordered = responses.filter { Int($0.status) != nil }
            + responses.filter { Int($0.status) == nil && $0.status != "default" }
            + responses.filter { $0.status == "default" }
        // Statuses read the same way share one case: `case 400, 429:`.
        var arms: [(patterns: [String], statement: String)] = []
        for response in ordered {
            let pattern: String
            if let code = Int(response.status) {
                pattern = String(code)
            } else if response.status == "default" {
                pattern = "default"
            } else if let digit = response.status.first?.wholeNumberValue {
                pattern = "\(digit * 100)...\(digit * 100 + 99)"
            } else {
                continue
            }
            let decoded: String?
            switch response.decoding {
            case .none: decoded = nil
            case .json(let type): decoded = "try response.decodeJSON(\(type).self)"
            case .text: decoded = "response.decodeText()"
            case .data: decoded = "response.body"
            }
            let value: String
            if let caseName = response.caseName, case .perStatus(let enumName, _)? = response.isSuccess ? operation.success : operation.failure {
                let member = "\(enumName).\(SwiftName.unescaped(caseName))"
                value = decoded.map { "\(member)(\($0))" } ?? member
            } else {
                value = decoded ?? "EmptyBody()"
            }
            let statement = response.isSuccess ? "return response.success(\(value))" : "throw response.failure(\(value))"
            if pattern != "default", let last = arms.last, last.statement == statement, last.patterns != ["default"] {
                arms[arms.count - 1].patterns.append(pattern)
            } else {
                arms.append(([pattern], statement))
            }
        }
        writer.line("switch response.status {")
        for arm in arms {
            let label = arm.patterns == ["default"] ? "default" : "case " + arm.patterns.joined(separator: ", ")
            writer.line("\(label): \(arm.statement)")
        }
        if !responses.contains(where: { $0.status == "default" }) {
            writer.line("default: throw response.undocumented()")
        }
        writer.line("}")
    }
}
