import BenchSupport
import Foundation
import OpenAPIModel
import YAMLReader

// Parse benchmarks: for one spec, the median time of
//   raw-libyaml  libyaml's event loop alone (the floor any reader pays),
//   yaml-read    YAMLReader: events -> node tree with marks,
//   parse-model  OpenAPILoader: file -> node tree -> typed, $ref-resolved model.
// Every figure is printed as `BENCH <name> <value> <unit>`.
//
// Usage: clientgen-bench SPEC [--runs N] [--name NAME] [--only yaml-read|raw-libyaml|parse-model]
// (`--only` runs one measurement, for profiling it under perf or callgrind).

let arguments = CommandLine.arguments.dropFirst()
let optionNames: Set<String> = ["--runs", "--name", "--only"]
let positional = arguments.enumerated().filter { index, argument in
    !argument.hasPrefix("--") && (index == 0 || !optionNames.contains(arguments[arguments.index(arguments.startIndex, offsetBy: index - 1)]))
}
guard let path = positional.first?.element else {
    FileHandle.standardError.write(Data("usage: clientgen-bench SPEC [--runs N] [--name NAME]\n".utf8))
    exit(2)
}
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), arguments.index(after: index) < arguments.endIndex else { return nil }
    return arguments[arguments.index(after: index)]
}
let runs = option("--runs").flatMap(Int.init) ?? 15
let name = option("--name") ?? "github"
let only = option("--only")
guard let data = FileManager.default.contents(atPath: path) else {
    FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
    exit(2)
}
let bytes = [UInt8](data)

/// Runs `body` once to warm up, then `runs` times; returns the median in milliseconds.
func medianMilliseconds(_ measurement: String, _ body: () -> Void) -> Double {
    if let only, only != measurement { return .nan }
    body()
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = ContinuousClock.now
        body()
        let elapsed = ContinuousClock.now - start
        samples.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    samples.sort()
    return samples.count % 2 == 1 ? samples[samples.count / 2] : (samples[samples.count / 2 - 1] + samples[samples.count / 2]) / 2
}

var sink = 0

let raw = medianMilliseconds("raw-libyaml") {
    sink &+= LibYAML.eventCount(of: bytes)
}

var nodeCount = 0
let read = medianMilliseconds("yaml-read") {
    let tree = try! YAMLReader.read(bytes: bytes, fileName: path)
    nodeCount = tree.nodeCount
    sink &+= tree.nodeCount
}

var operationCount = 0
var schemaCount = 0
var diagnosticCount = 0
let model = medianMilliseconds("parse-model") {
    let result = OpenAPILoader.load(path: path)
    operationCount = result.document?.operations.count ?? 0
    schemaCount = result.document?.components.schemas.count ?? 0
    diagnosticCount = result.diagnostics.count
    sink &+= operationCount
}

func format(_ value: Double) -> String { String(format: "%.2f", value) }
print("spec: \(path) (\(bytes.count) bytes, \(nodeCount) nodes, \(operationCount) operations, \(schemaCount) component schemas, \(diagnosticCount) diagnostics)")
print("median of \(runs) runs after one warm-up")
print("  raw libyaml event loop   \(format(raw)) ms")
print("  YAML -> node tree        \(format(read)) ms  (\(format(read / raw))x the raw event loop; target <= 1.5x)")
print("  file -> OpenAPI model    \(format(model)) ms  (target < 500 ms)")
bench("raw-libyaml-\(name)", raw, "ms", decimals: 2)
bench("yaml-read-\(name)", read, "ms", decimals: 2)
bench("parse-model-\(name)", model, "ms", decimals: 2)
bench("yaml-read-vs-raw-libyaml-\(name)", read / raw, "ratio", decimals: 2)
if sink == 42 { print("") }
