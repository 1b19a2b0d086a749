import Foundation
import Logging
import PlatformRules
import Resilience
import SDKCore
import Testing

/// The SDKs' logs in Apple's unified log: the mapping from swift-log (level,
/// privacy, which values are public) is plain Swift, held here through a
/// simulated unified log; the `os.Logger` adapter only hands it on.
@Suite struct UnifiedLogTests {
    @Test func swiftLogsLevelsMapToTheUnifiedLogsTypes() {
        let expected: [(Logger.Level, UnifiedLogEntry.Kind)] = [
            (.trace, .debug), (.debug, .debug), (.info, .info), (.notice, .default), (.warning, .error), (.error, .error), (.critical, .fault),
        ]
        #expect(expected.count == Logger.Level.allCases.count, "every level has its type")
        for (level, kind) in expected { #expect(UnifiedLogHandler.kind(of: level) == kind, "\(level)") }
    }

    @Test func consoleShowsTheLevelAndTheValuesTheCodeMarksPublicAndNothingElse() throws {
        let log = SimulatedUnifiedLog()
        var logger = Logger(label: "OpenAPIMobileClients.Safepocket") { UnifiedLogHandler(subsystem: $0, sink: log) }
        logger.logLevel = .trace
        logger[metadataKey: "user"] = "ada@example.com"
        logger.debug("GET https://api.safepocket.app/accounts 200 in 12 ms", metadata: ["operation": "listAccounts", "status": "200"])
        logger.trace("response body: {\"balance\": number}", metadata: ["operation": "listAccounts"])
        logger.critical("the outbox could not be opened", metadata: ["file": "outbox.sqlite"])
        let lines = log.all
        #expect(log.refused.isEmpty, "\(log.refused)")
        try #require(lines.count == 3)
        #expect(lines.allSatisfy { $0.subsystem == "OpenAPIMobileClients.Safepocket" && $0.category == "ResilienceTests" }, "a category per module: \(lines)")
        #expect(lines.map(\.entry.kind) == [.debug, .debug, .fault])
        #expect(lines[0].shownInConsole == "debug operation=listAccounts status=200 <private>")
        #expect(lines[0].shownToDebugger == "debug operation=listAccounts status=200 GET https://api.safepocket.app/accounts 200 in 12 ms user=ada@example.com")
        #expect(lines[1].shownInConsole == "trace operation=listAccounts <private>")
        #expect(lines[2].shownInConsole == "critical <private>", "a value the code does not mark public is private: \(lines[2])")
        for line in lines {
            #expect(!line.shownInConsole.contains("ada@") && !line.shownInConsole.contains("api.safepocket") && !line.shownInConsole.contains("outbox"))
        }
    }

    @Test func theLevelOfTheLoggerStillDecidesWhatIsWritten() {
        let log = SimulatedUnifiedLog()
        let logger = Logger(label: "OpenAPIMobileClients.Soul") { UnifiedLogHandler(subsystem: $0, sink: log) }
        logger.debug("not written: swift-log's default level is info")
        logger.info("written")
        #expect(log.all.map(\.entry.kind) == [.info])
    }

    @Test func anAppThatBootstrappedSwiftLogDecidesWhereTheSDKsLogsGo() {
        #expect(UnifiedLog.appLeftSwiftLogAlone(StreamLogHandler.standardOutput(label: "app")), "swift-log's own default: the SDKs choose")
        #expect(!UnifiedLog.appLeftSwiftLogAlone(SwiftLogNoOpLogHandler()), "an app's choice, even silence, stands")
        #expect(!UnifiedLog.appLeftSwiftLogAlone(UnifiedLogHandler(subsystem: "app", sink: SimulatedUnifiedLog())))
        // Linux has no unified log: the default stays swift-log's, named for the SDK.
        let fallback = Logger.sdkDefault(subsystem: "OpenAPIMobileClients.Soul")
        #expect(fallback.label == "OpenAPIMobileClients.Soul" && fallback.handler is StreamLogHandler)
        #expect(UnifiedLog.systemSink == nil && UnifiedLog.systemSignposts == nil)
    }

    /// Where Apple's unified log exists (here a simulated one) and swift-log
    /// was left alone, as in this test process, the SDK's default writes to
    /// it, under the SDK's subsystem.
    @Test func withAUnifiedLogAndNoBootstrapTheDefaultWritesThere() {
        let log = SimulatedUnifiedLog()
        let logger = Logger.sdkDefault(subsystem: "OpenAPIMobileClients.Soul", unifiedLog: log)
        #expect(logger.handler is UnifiedLogHandler)
        logger.warning("the moods cache could not be read", metadata: ["operation": "listMoods"])
        #expect(log.all.map(\.shownInConsole) == ["warning operation=listMoods <private>"])
        #expect(log.all.map(\.subsystem) == ["OpenAPIMobileClients.Soul"])
    }

    @Test func anAppsOwnLoggerAndItsLabelAreWhatTheSDKUses() {
        let log = SimulatedUnifiedLog()
        let appLogger = Logger(label: "com.example.bank") { UnifiedLogHandler(subsystem: $0, sink: log) }
        let connection = ConnectionConfiguration(baseURL: URL(string: "https://api.example.com")!, logger: appLogger)
        #expect(connection.logger.label == "com.example.bank")
        #expect(connection.intervals.subsystem == "com.example.bank", "the app's label names the intervals too")
        #expect(connection.intervals.sink == nil, "no signposter on Linux unless a test gives one")
    }
}

/// Intervals for Instruments: begun and ended once, with the same name,
/// whatever the body does.
@Suite struct SignpostsTests {
    @Test func anIntervalEndsOnceWhetherItsBodyReturnsOrThrows() async throws {
        let signposter = SimulatedSignposter()
        let signposts = Signposts(subsystem: "OpenAPIMobileClients.Soul", sink: signposter)
        let value = await signposts.interval("request", detail: "listMoods") { 42 }
        #expect(value == 42)
        await #expect(throws: CancellationError.self) {
            try await signposts.interval("request", detail: "createMood") { throw CancellationError() }
        }
        #expect(signposter.finished.map(\.detail) == ["listMoods", "createMood"])
        #expect(signposter.openIntervals.isEmpty && signposter.violations.isEmpty)
    }

    @Test func theDoubleRefusesWhatOSSignposterRefuses() {
        let signposter = SimulatedSignposter()
        let interval = signposter.beginInterval("sync", subsystem: "s", detail: "d")
        signposter.endInterval("flush", interval)
        signposter.endInterval("sync", interval)
        signposter.endInterval("sync", SignpostInterval(id: 99))
        #expect(signposter.violations == [
            "interval 1 begun as sync, ended as flush", "interval 1 (sync) ended twice", "interval 99 (sync) ended, never begun",
        ])
    }

    @Test func theSDKStackPutsEachRequestInAnIntervalOutsideItsRetries() {
        var connection = ConnectionConfiguration(baseURL: URL(string: "https://api.example.com")!, logger: Logger(label: "test"))
        #expect(!SDKMiddlewareStack(connection: connection).middlewares().contains { $0 is SignpostMiddleware }, "no signposter, no layer")
        connection.signposts = Signposts(subsystem: "test", sink: SimulatedSignposter())
        let layers = SDKMiddlewareStack(connection: connection).middlewares()
        #expect(layers.firstIndex { $0 is SignpostMiddleware } == 1, "just inside the https check: \(layers.map { type(of: $0) })")
    }
}
