#!/usr/bin/env python3
"""Plants a known bug in the generator or the runtime, runs `make
conformance` on the specs that exercise it, and prints the FAIL lines that
name it; then takes the plant out (also when interrupted). A check the
harness makes is trusted once a plant of the bug it exists for fails it
(docs/Codegen.md, "Conformance").

Usage: plants.py [NAME ...]   (default: every plant; `--list` names them)

Each plant is one edit of one file: (file, text, replacement). The run
builds clientgen, then `run.py` on specs/ and scripts/conformance/specs
with --min-percent 100, and counts the FAIL lines; a plant that leaves the
run green is reported as NOT CAUGHT and the script exits 1.
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PLANTS = {
    'error-status-not-decoded': (
        'an error status decoded as an undocumented one (its typed error never thrown)',
        'Generator/Sources/Codegen/Renderer/ClientRenderer+Responses.swift',
        'let responses = includingSuccess ? operation.responses : operation.responses.filter { !$0.isSuccess }',
        'let responses = operation.responses.filter(\\.isSuccess)'),
    'null-turned-absent': (
        'a request member the caller sets to null sent as absent (Nullable dropped from request types)',
        'Generator/Sources/Codegen/Translator/MutabilityAnalysis.swift',
        '                if !isInRequests {\n                    shape.properties = shape.properties.map { property in\n                        var property = property\n                        if case .optional(.nullable',
        '                if true {\n                    shape.properties = shape.properties.map { property in\n                        var property = property\n                        if case .optional(.nullable'),
    'int64-through-double': (
        'an int64 read into a Double',
        'Generator/Sources/Codegen/Translator/TypeMapping.swift',
        'case "int64": return .named("Int64")',
        'case "int64": return .named("Double")'),
    'fraction-dropped': (
        'date-times written without their fraction of a second',
        'Runtime/Sources/ClientRuntime/Coding/JSONCoding.swift',
        'guard fraction > 0, whole.hasSuffix("Z") else { return whole }',
        'guard fraction > 0, whole.hasSuffix("Z"), false else { return whole }'),
    'default-sent': (
        'a member with a schema default sent when the caller gave none',
        'Generator/Sources/Codegen/Translator/MutabilityAnalysis.swift',
        'guard let value = property.defaultValue, !property.isRequired, !property.type.isOptional else { return property }',
        'guard let value = property.defaultValue, !property.isRequired, !property.type.isOptional, false else { return property }'),
    'style-written-wrong': (
        'an exploded label path array written with commas',
        'Runtime/Sources/ClientRuntime/Encoding/ParameterEncoding.swift',
        'case (.array(let items), "label"): return "." + items.map(item).joined(separator: explode ? "." : ",")',
        'case (.array(let items), "label"): return "." + items.map(item).joined(separator: ",")'),
    'required-body-optional': (
        'a required request body made optional',
        'Generator/Sources/Codegen/Translator/OperationTranslator.swift',
        'type: requestBody.required ? type : .optional(type), isOptional: !requestBody.required,',
        'type: .optional(type), isOptional: true,'),
    'streamed-body-read-whole': (
        'a streamed array decoded only once its body has ended',
        'Runtime/Sources/ClientRuntime/Client/ClientCore.swift',
        'of item: Item.Type, member: String?, envelope: Envelope.Type, batchSize: Int = 256',
        'of item: Item.Type, member: String?, envelope: Envelope.Type, batchSize: Int = Int.max'),
    'sse-data-lines-run-together': (
        'the data lines of a server-sent event joined without their line feed',
        'Runtime/Sources/ClientRuntime/Streaming/EventStreamParser.swift',
        'if hasData { data.append(0x0A) }',
        'if hasData, false { data.append(0x0A) }'),
    'sse-id-not-carried-over': (
        'a server-sent event without an id field given none, not the last one',
        'Runtime/Sources/ClientRuntime/Streaming/EventStreamParser.swift',
        '            data.removeAll(keepingCapacity: true)\n            hasData = false\n            eventType.removeAll(keepingCapacity: true)\n        }',
        '            data.removeAll(keepingCapacity: true)\n            hasData = false\n            eventType.removeAll(keepingCapacity: true)\n            lastEventID = nil\n        }'),
    'querystring-dropped': (
        'an OpenAPI 3.2 querystring argument never written into the query',
        'Runtime/Sources/ClientRuntime/Client/RequestBuilder.swift',
        'queryItems += try ParameterEncoding.formItems(json)',
        '_ = try ParameterEncoding.formItems(json)'),
    'query-method-sent-as-post': (
        'an OpenAPI 3.2 query (or additional) operation sent as POST',
        'Generator/Sources/Codegen/Renderer/ClientRenderer.swift',
        'return named.contains(method) ? "." + method.rawValue : ".named(\\(SwiftLiteral.string(method.wireName)))"',
        'return named.contains(method) ? "." + method.rawValue : ".post"'),
    'request-records-run-together': (
        'the records of a JSON Lines request body sent without their line feed',
        'Runtime/Sources/ClientRuntime/Streaming/EventStreamBody.swift',
        'return text + [0x0A]',
        'return text'),
    'request-event-cr-kept': (
        'a CR in the text of a server-sent event the app sends kept inside its data line',
        'Runtime/Sources/ClientRuntime/Streaming/EventStreamBody.swift',
        '                    case 0x0D:\n                        flush()',
        '                    case 0x00:\n                        flush()'),
    'events-method-not-called': (
        'the conformance driver calling the plain method where the events method was asked for',
        'Generator/Sources/Codegen/Renderer/ConformanceDriverRenderer.swift',
        'writer.block("if \\(condition)")',
        'writer.block("if false, \\(condition)")'),
    'cookie-style-escaped-again': (
        'an OpenAPI 3.2 cookie-style value, which the app has escaped, percent-encoded again',
        'Runtime/Sources/ClientRuntime/Client/RequestBuilder.swift',
        'let allowed = percentEncoding ? ParameterEncoding.unreserved : Self.cookieOctets',
        'let allowed = ParameterEncoding.unreserved'),
    'json-querystring-written-as-form': (
        'an OpenAPI 3.2 JSON querystring written as a form',
        'Runtime/Sources/ClientRuntime/Client/RequestBuilder.swift',
        'if base == "application/x-www-form-urlencoded" {',
        'if base == "application/x-www-form-urlencoded" || true {'),
    'prefix-encoding-ignored': (
        'OpenAPI 3.2 prefixEncoding ignored: every part of a multipart/mixed body given the itemEncoding media type',
        'Runtime/Sources/ClientRuntime/Encoding/MultipartForm.swift',
        'let contentType = index < prefixContentTypes.count ? prefixContentTypes[index] : itemContentType',
        'let contentType = itemContentType'),
    'request-stream-not-generated': (
        'no events method for an operation whose request body is a sequential media type',
        'Generator/Sources/Codegen/Translator/OperationTranslator.swift',
        'declaration.requestEvents = requestEventStream(operation, typePrefix: typePrefix)',
        'declaration.requestEvents = nil'),
    'pages-cursor-not-passed': (
        "a pages method that sends every request with the app's own cursor, not the one the previous page gave",
        'Runtime/Sources/ClientRuntime/Pagination/Pages.swift',
        '                fetched = try await fetch(sent, largestPage)',
        '                fetched = try await fetch(pagesRead == 0 ? sent : nil, largestPage)'),
    'pages-empty-page-not-ending': (
        'a pages method that goes on past an empty page that still gives a cursor',
        'Runtime/Sources/ClientRuntime/Pagination/Pages.swift',
        'guard let next = fetched.next, count > 0 else {',
        'guard let next = fetched.next else {'),
    'pages-cancellation-ignored': (
        'a pages method that fetches the next page for a cancelled task',
        'Runtime/Sources/ClientRuntime/Pagination/Pages.swift',
        '            try Task.checkCancellation()\n            let sent = cursor',
        '            let sent = cursor'),
    'pages-links-any-relation': (
        "an array of HATEOAS links read for its first link whatever its relation, not the one whose rel is next (PayPal)",
        'Generator/Sources/Codegen/Renderer/ClientRenderer+Operations.swift',
        'source = "\\(links).first(where: { $0.\\(element.relation) == \\"next\\" })\\(target)"',
        'source = "\\(links).first\\(target)"'),
    'pages-done-ignored': (
        "a cursor list whose page says it is done followed to the cursor it still gives (Svix's done)",
        'Generator/Sources/Codegen/Renderer/ClientRenderer+Operations.swift',
        'next = pagination.flagEndsList ? "\\(flag) == true ? nil : \\(nextName)"',
        'next = pagination.flagEndsList ? nextName'),
    'pages-link-one-parameter': (
        "a next page's URL whose query items after the first are not carried (Twilio's PageToken beside Page)",
        'Generator/Sources/Codegen/Renderer/ClientRenderer+Operations.swift',
        'let linked = Dictionary(pagination.linkParameters.map',
        'let linked = Dictionary(pagination.linkParameters.prefix(1).map'),
    'pages-short-page-counted-full': (
        'a list numbered by page whose items total is compared with this page alone, so a short last page asks for one more',
        'Runtime/Sources/ClientRuntime/Pagination/Pages.swift',
        'multipliedReportingOverflow(by: max(largestPage, itemsOnPage))',
        'multipliedReportingOverflow(by: itemsOnPage)'),
    'pages-first-page-assumed-one': (
        "a list numbered from 0 read as numbered from 1 (the parameter's minimum and default ignored)",
        'Generator/Sources/Codegen/Translator/PaginationAnalysis.swift',
        'return byDefault ?? byMinimum',
        'return (byDefault ?? byMinimum).map { _ in 1 }'),
    'positional-part-named': (
        'a multipart/mixed part by position sent with a form-data Content-Disposition',
        'Runtime/Sources/ClientRuntime/Encoding/MultipartForm.swift',
        'if !part.name.isEmpty {',
        'if true {'),
}


def run(command, **options):
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, **options)


def plant(name):
    """(caught, the FAIL lines, a summary) of one plant."""
    what, path, text, replacement = PLANTS[name]
    full = os.path.join(ROOT, path)
    with open(full) as handle:
        original = handle.read()
    if original.count(text) != 1:
        return False, [], f'the plant no longer applies: {path} does not hold its text once'
    try:
        with open(full, 'w') as handle:
            handle.write(original.replace(text, replacement))
        flags = open(os.path.join(ROOT, 'scripts', 'debug_build_flags')).read().split()
        build = run(['swift', 'build', *flags, '--product', 'clientgen'])
        if build.returncode != 0:
            return False, [], 'clientgen did not build with the plant: ' + build.stdout[-500:]
        result = run([sys.executable, 'scripts/conformance/run.py', '--clientgen', '.build/debug/clientgen',
                      '--specs', 'specs', 'scripts/conformance/specs', '--min-percent', '100'])
        failures = [line for line in result.stdout.splitlines() if line.startswith('FAIL ')]
        unbuilt = [line for line in result.stderr.splitlines() if 'no client built' in line]
        caught = result.returncode != 0 and bool(failures or unbuilt)
        return caught, failures or unbuilt, what
    finally:
        with open(full, 'w') as handle:
            handle.write(original)


def main(argv):
    if '--list' in argv:
        for name, (what, path, _, _) in PLANTS.items():
            print(f'{name}: {what} ({path})')
        return 0
    names = [a for a in argv if not a.startswith('-')] or list(PLANTS)
    missed = []
    for name in names:
        caught, failures, what = plant(name)
        print(f'PLANT {name}: {what}: {"caught" if caught else "NOT CAUGHT"}, {len(failures)} FAIL lines')
        for line in failures[:3]:
            print(f'  {line[:300]}')
        if not caught:
            missed.append(name)
    # The tree without plants builds again, so the next step finds clientgen as it is.
    flags = open(os.path.join(ROOT, 'scripts', 'debug_build_flags')).read().split()
    run(['swift', 'build', *flags, '--product', 'clientgen'])
    print(f'plants {len(names)}, caught {len(names) - len(missed)}' + (f', NOT CAUGHT: {", ".join(missed)}' if missed else ''))
    return 1 if missed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
