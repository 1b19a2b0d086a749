import Foundation
import YAMLReader

// yaml-tree-dump FILE...: every node of each file's tree, one line a node,
// in node-table order (kind, style, tag, line:column, then the scalar's
// text or the children's node numbers, so shared nodes show as shared),
// then its issues; or the error that stopped the read, with its mark.
// `make yaml-copies` runs it built against each libyaml copy and compares
// the two outputs line for line.

func dump(_ tree: YAMLTree) -> [String] {
    var lines = ["documents \(tree.documents.map(\.index))"]
    var seen = Set<Int32>()
    var queue = tree.documents
    var next = 0
    // Breadth-first from the documents: every node reachable, each once.
    while next < queue.count {
        let node = queue[next]
        next += 1
        guard seen.insert(node.index).inserted else { continue }
        let line = "\(node.index) \(tree.kind(node)) \(tree.style(node)) \(tree.tag(node) ?? "-") \(tree.mark(node))"
        switch tree.kind(node) {
        case .scalar:
            lines.append(line + " " + String(reflecting: tree.text(node) ?? ""))
        case .sequence:
            let items = Array(tree.items(node))
            lines.append(line + " [" + items.map { "\($0.index)" }.joined(separator: " ") + "]")
            queue += items
        case .mapping:
            let pairs = Array(tree.pairs(node))
            lines.append(line + " {" + pairs.map { "\($0.key.index):\($0.value.index)" }.joined(separator: " ") + "}")
            queue += pairs.flatMap { [$0.key, $0.value] }
        }
    }
    for issue in tree.issues { lines.append("issue \(issue.kind) at \(issue.mark) node \(issue.node.index)") }
    return lines
}

print("libyaml \(LibYAML.version) (\(LibYAML.copy))")
for path in CommandLine.arguments.dropFirst() {
    print("== \(path)")
    do {
        let tree = try YAMLReader.read(contentsOfFile: path)
        print("nodes \(tree.nodeCount)")
        for line in dump(tree) { print(line) }
    } catch {
        print("error \(error.mark): \(error.message)")
    }
}
