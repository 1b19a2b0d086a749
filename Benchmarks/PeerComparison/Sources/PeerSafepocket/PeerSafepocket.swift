// The client of specs/safepocket.yaml as apple/swift-openapi-generator writes
// it: its build plugin generates Types.swift and Client.swift from
// openapi.yaml (a link to the spec) when this target builds.
