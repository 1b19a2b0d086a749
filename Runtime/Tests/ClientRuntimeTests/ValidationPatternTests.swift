import ClientRuntime
import Foundation
import Testing

/// A spec's `pattern` runs on the app's input: a pattern whose matching time
/// grows exponentially (`^(a+)+$` took 0.9 s on 29 characters, and doubles
/// with each more) cannot freeze the app. A check stops at
/// ``ValidationPattern/timeLimit`` of its thread's processor time, and the
/// value is refused, saying why.
@Suite struct ValidationPatternTests {
    @Test func aCatastrophicPatternStopsAtItsLimitAndTheValueIsRefused() {
        let pattern = ValidationPattern("^(a+)+$")
        // Unbounded: about 2^60 steps.
        let value = String(repeating: "a", count: 60) + "!"
        #expect(pattern.check(value) == .timedOut)
        #expect(!pattern.matches(value))
        let broken = value.brokenRule(of: ValueConstraints(pattern: pattern))
        guard case .patternTimedOut(let source, let limit)? = broken?.rule else {
            Issue.record("expected patternTimedOut, got \(String(describing: broken))")
            return
        }
        #expect(source == "^(a+)+$")
        #expect(limit == ValidationPattern.timeLimit)
        let violation = ConstraintViolation(operationID: "rename", path: "body.name", rule: broken!.rule, actual: broken!.actual, isInResponse: false)
        #expect(violation.description.contains("could not be checked against ^(a+)+$ within"), "\(violation)")
        #expect(violation.description.contains("61 characters long"), "the value's length, never the value")
    }

    @Test func ordinaryChecksAnswerAsBefore() {
        let slug = ValidationPattern("^[a-z]+(-[a-z]+)*$")
        #expect(slug.check("open-api-mobile") == .matches)
        #expect(slug.check("Open API") == .doesNotMatch)
        // The same catastrophic pattern on a value it matches at once.
        #expect(ValidationPattern("^(a+)+$").check(String(repeating: "a", count: 10_000)) == .matches)
        let unanchored = ValidationPattern("\\d{3}")
        #expect(unanchored.matches("call 555 now"))
    }
}
