// Which libyaml this build links: the system one (Linux: libyaml-dev,
// through pkg-config; module CLibYAML) or the vendored copy (Apple
// platforms, or any platform with LIBYAML=vendored; module CLibYAMLVendored),
// whose functions carry the prefix oamc_ so that they never meet another
// libyaml's symbols in one binary. The composer calls libyaml by its own
// names; with the vendored copy these forward to the prefixed ones.
#if LIBYAML_VENDORED
import CLibYAMLVendored

@inline(__always) func yaml_parser_initialize(_ parser: UnsafeMutablePointer<yaml_parser_t>!) -> Int32 {
    oamc_yaml_parser_initialize(parser)
}

@inline(__always) func yaml_parser_delete(_ parser: UnsafeMutablePointer<yaml_parser_t>!) {
    oamc_yaml_parser_delete(parser)
}

@inline(__always) func yaml_parser_set_input_string(_ parser: UnsafeMutablePointer<yaml_parser_t>!, _ input: UnsafePointer<UInt8>!, _ size: Int) {
    oamc_yaml_parser_set_input_string(parser, input, size)
}

@inline(__always) func yaml_parser_parse(_ parser: UnsafeMutablePointer<yaml_parser_t>!, _ event: UnsafeMutablePointer<yaml_event_t>!) -> Int32 {
    oamc_yaml_parser_parse(parser, event)
}

@inline(__always) func yaml_event_delete(_ event: UnsafeMutablePointer<yaml_event_t>!) {
    oamc_yaml_event_delete(event)
}

@inline(__always) func yaml_get_version_string() -> UnsafePointer<CChar>! {
    oamc_yaml_get_version_string()
}
#else
import CLibYAML
#endif

/// The libyaml this build links, for tools that report it and for the
/// parse benchmark's floor.
package enum LibYAML {
    /// `vendored` (the copy built with the package) or `system`.
    package static var copy: String {
        #if LIBYAML_VENDORED
        "vendored"
        #else
        "system"
        #endif
    }

    /// The version libyaml reports (`0.2.5`).
    package static var version: String { String(cString: yaml_get_version_string()) }

    /// How many events libyaml's event loop gives for `bytes`, and nothing
    /// else: the floor any reader pays (the parse benchmark's
    /// `raw-libyaml`). A malformed document counts the events before its
    /// error.
    package static func eventCount(of bytes: [UInt8]) -> Int {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return 0 }
        defer { yaml_parser_delete(&parser) }
        return bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            var count = 0
            while yaml_parser_parse(&parser, &event) == 1 {
                let done = event.type == YAML_STREAM_END_EVENT
                yaml_event_delete(&event)
                count += 1
                if done { break }
            }
            return count
        }
    }
}
