import ClientRuntime
import Logging
import Resilience

/// How an SDK tells its app's logs that a server answered otherwise than
/// its spec guessed (`x-assumed`): one warning per field, for as long as
/// the SDK lives, naming the type and field and never a value.
package enum AssumedFieldLogging {
    /// Logs each report about a type of `module` (`SoulAPI`) once, at
    /// `warning`, to `logger`; keep the observation as long as the SDK.
    package static func observe(module: String, logger: Logger, in fields: AssumedFields = .shared) -> AssumedFieldObservation {
        let prefix = module + "."
        return fields.observe { report in
            guard report.type.hasPrefix(prefix) else { return }
            logger.warning(
                "\(report)", metadata: ["type": .string(report.type), "field": .string(report.field)])
        }
    }
}
