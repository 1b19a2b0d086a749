import Foundation
import Testing

@testable import ClientRuntime

/// A generated-style model whose fields the spec guessed (`x-assumed`).
private struct GuessedMood: Decodable {
    let id: Int64?
    let score: Int?
    let note: String?

    enum CodingKeys: String, CodingKey {
        case id, score, note
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = container.decodeAssumed(Int64.self, forKey: .id, in: Self.self, required: true)
        score = container.decodeAssumed(Int.self, forKey: .score, in: Self.self, required: true)
        note = container.decodeAssumed(String.self, forKey: .note, in: Self.self, required: false)
    }
}

/// Another guessed model, reported to `AssumedFields.shared` by no other test.
private struct GuessedTag: Decodable {
    let label: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DynamicCodingKey.self)
        label = container.decodeAssumed(String.self, forKey: "label", in: Self.self, required: true)
    }
}

/// Reports collected by an observer, for the test to read.
private final class Heard: @unchecked Sendable {
    // @unchecked Sendable: `reports` is read and written only under `lock`.
    private let lock = NSLock()
    private var reports: [AssumedFieldReport] = []
    func append(_ report: AssumedFieldReport) { lock.lock(); reports.append(report); lock.unlock() }
    var all: [AssumedFieldReport] { lock.lock(); defer { lock.unlock() }; return reports }
}

@Suite struct AssumedFieldsTests {
    @Test func aGuessedFieldThatDiffersDecodesAsNilAndTheRestAsSent() throws {
        let decoder = JSONCoding.makeDecoder()
        let exact = try decoder.decode(GuessedMood.self, from: Data(#"{"id":42,"score":7,"note":"calm"}"#.utf8))
        #expect(exact.id == 42 && exact.score == 7 && exact.note == "calm")
        let other = try decoder.decode(GuessedMood.self, from: Data(#"{"mood_id":"m-1","score":"seven","note":null,"tags":["x"]}"#.utf8))
        #expect(other.id == nil && other.score == nil && other.note == nil)
        // The same through the tape decoder responses use.
        let taped = try ResponseJSONDecoder().decode(GuessedMood.self, from: Data(#"{"score":"seven","id":null}"#.utf8))
        #expect(taped.id == nil && taped.score == nil)
    }

    @Test func eachObserverHearsOfEachFieldOnceAndNothingAfterItIsReleased() throws {
        let fields = AssumedFields()
        let first = Heard(), second = Heard()
        var observation: AssumedFieldObservation? = fields.observe(first.append)
        let report = AssumedFieldReport(type: "SoulAPI.Mood", field: "created_at", difference: .absent)
        fields.report(report)
        let other = fields.observe(second.append)
        fields.report(AssumedFieldReport(type: "SoulAPI.Mood", field: "created_at", difference: .null))
        fields.report(AssumedFieldReport(type: "SoulAPI.Mood", field: "id", difference: .otherType(expected: "Int64")))
        #expect(first.all.map(\.field) == ["created_at", "id"], "once per field, whatever the difference")
        #expect(second.all.map(\.field) == ["created_at", "id"], "a later observer hears of a field once too")
        observation = nil
        fields.report(AssumedFieldReport(type: "SoulAPI.Mood", field: "score", difference: .absent))
        #expect(first.all.count == 2 && second.all.count == 3)
        #expect(report.description == "SoulAPI.Mood.created_at was absent, not as the spec assumed (x-assumed); it decodes as nil")
        withExtendedLifetime((observation, other)) {}
    }

    @Test func aListOfDifferingRecordsReportsOnceAndAnObserverThatComesLaterStillHears() throws {
        let first = Heard(), second = Heard()
        let observation = AssumedFields.shared.observe(first.append)
        let list = Data(#"[{"name":"a"},{"name":"b"},{"label":3}]"#.utf8)
        _ = try ResponseJSONDecoder().decode([GuessedTag].self, from: list)
        _ = try ResponseJSONDecoder().decode([GuessedTag].self, from: list)
        let mine = { (heard: Heard) in heard.all.filter { $0.type.hasSuffix("GuessedTag") } }
        #expect(mine(first).count == 1, "three records, two answers: heard once")
        let later = AssumedFields.shared.observe(second.append)
        _ = try ResponseJSONDecoder().decode([GuessedTag].self, from: list)
        #expect(mine(second).count == 1 && mine(first).count == 1, "the newcomer hears of it, the first not again")
        withExtendedLifetime((observation, later)) {}
    }
}
