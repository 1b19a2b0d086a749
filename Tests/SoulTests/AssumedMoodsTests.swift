import BackendDoubles
import Foundation
import Resilience
import Soul
import SoulAPI
import Testing

/// The document defines no moods payload and the spec guesses one
/// (`x-assumed`): the plan's own protected call must still work on any
/// other shape. Against the whole sandbox in strict mode over loopback,
/// serving moods with other fields (`mood_id`, `recorded_at`, `tags`) and
/// without `id` and `created_at`.
@Suite struct SoulAssumedMoodsTests {
    @Test func moodsWithExtraAndMissingFieldsAreReadAndTheDifferenceLoggedOnce() async throws {
        let sandbox = try SandboxServer { $0.soul.moodsInAnotherShape = true }
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let soul = try harness.makeSoul(baseURL: sandbox.baseURL(of: "soul"))
        try await harness.signIn(soul)

        guard case .sent(let created) = try await soul.addMood(score: 7, note: "calm") else {
            Issue.record("the mood was not sent")
            return
        }
        #expect(created.score == 7 && created.note == "calm" && created.id == nil && created.createdAt == nil)
        _ = try await soul.addMood(score: 4)
        let moods = try await soul.listMoods()
        #expect(moods.value.map(\.score) == [4, 7], "newest first, every entry read")
        #expect(moods.value.allSatisfy { $0.id == nil && $0.createdAt == nil })

        let warnings = harness.log.all.filter { $0.hasPrefix("warning ") && $0.contains("not as the spec assumed") }
        #expect(warnings.count == 2, "id and created_at, each once across three answers: \(warnings)")
        #expect(warnings.contains { $0.contains("SoulAPI.Mood.created_at was absent") })
        #expect(sandbox.log.read().isEmpty, "strict mode found nothing wrong: \(sandbox.log.read())")
    }
}
