#!/usr/bin/env python3
"""Hostile strings in every place a spec can put one (`make fuzz`): no spec
writes code into the app.

Each hostile string (line breaks, `*/`, `\"\"\"`, `\\(`, backticks, `#`,
bidi overrides, a line separator) carries a payload declaring
`injected<N>`. Put where a spec holds prose or values (titles,
descriptions, summaries, enum values, defaults, examples, patterns, server
URLs, tags), the spec must lint clean and its generated client must
type-check against ClientRuntime, hold no top-level code, and declare no
`injected<N>`. Put where a spec holds a name that becomes code (a path, an
operationId, a header name, an OpenAPI 3.2 additional operation's
method), `clientgen lint` must fail with an error at that name's
file:line:column. OpenAPI 3.2's places (`PLACES_32`) are filled in one
document that uses every feature whose strings reach code.

Usage: fuzz_hostile.py CLIENTGEN MODULES_DIR"""
import os, re, subprocess, sys, tempfile

clientgen, modules = sys.argv[1], sys.argv[2]

# YAML double-quoted escapes; each declares injected<N> if it ever became code.
HOSTILE = [
    r'a\nlet injected1 = 1\n//',
    r'b\r\nlet injected2 = 2\r\n//',
    r'c */ let injected3 = 3 /*',
    r'd \"\"\"\nlet injected4 = 4\n\"\"\"',
    r'e \"); let injected5 = 5; (\"',
    r'f \\(injected6) \\u{0A}',
    r'g ` ``` #if true\nlet injected7 = 7\n#endif',
    r'h \u202E let injected8 = 8 \u2066\u2028let injected9 = 9',
    r'i #\"raw\"# \\\\ \\\"',
    r'j \u0000\u0085\u200B let injected10 = 10',
]

TEXT_PLACES = {
    'info.title': 'info: {title: "X", version: "1"}',
    'info.description': 'info: {title: T, version: "1", description: "X"}',
    'server.url': 'servers: [{url: "https://api.example.com/X"}]',
    'server.description': 'servers: [{url: "https://api.example.com", description: "X"}]',
    'tag': 'tags: [{name: "X", description: "X"}]',
    'summary': 'summary: "X"',
    'operation.description': 'description: "X"',
    'parameter.description': 'parameter.description: "X"',
    'enum': 'enum: ["X", "plain"]',
    'default': 'default: "X"',
    'example': 'example: "X"',
    'pattern': 'pattern: "X"',
    'schema.title': 'title: "X"',
    'response.description': 'response.description: "X"',
}

NAME_PLACES = ['path', 'operationId', 'header']

# OpenAPI 3.2's places: media type keys the events method and the
# querystring write into code, the device flow's URLs and scopes, tags'
# summaries, examples' values, and an additional operation's method (a
# name: refused unless it is a method token).
PLACES_32 = {
    'querystring.mediaType': 'QS_MEDIA',
    'requestStream.mediaType': 'REQ_MEDIA',
    'responseStream.mediaType': 'RES_MEDIA',
    'device.authorizationUrl': 'DEV',
    'device.tokenUrl': 'TOKEN',
    'device.scope': 'SCOPE',
    'device.scopeDescription': 'SCOPE_DESC',
    'tag.summary': 'TAG_SUMMARY',
    'example.dataValue': 'DATA_VALUE',
    'itemSchema.enum': 'ITEM_ENUM',
    'additionalOperations.method': 'METHOD',
}
DEFAULTS_32 = {
    'QS_MEDIA': 'application/json', 'REQ_MEDIA': 'application/jsonl', 'RES_MEDIA': 'text/event-stream',
    'DEV': 'https://auth.example.com/device', 'TOKEN': 'https://auth.example.com/token', 'SCOPE': 'read',
    'SCOPE_DESC': 'Read', 'TAG_SUMMARY': 'Things', 'DATA_VALUE': 'plain', 'ITEM_ENUM': 'plain', 'METHOD': 'PURGE',
}
TEMPLATE_32 = '''openapi: 3.2.0
info: {title: T, version: "1"}
tags: [{name: things, summary: "TAG_SUMMARY", kind: nav}]
paths:
  /things:
    get:
      operationId: watchThings
      tags: [things]
      parameters:
        - name: where
          in: querystring
          content:
            "QS_MEDIA": {schema: {type: object, properties: {q: {type: string}}}}
      responses:
        '200':
          description: ok
          content:
            "RES_MEDIA":
              itemSchema:
                type: object
                properties:
                  data: {type: string, contentMediaType: application/json, contentSchema: {type: object, properties: {n: {type: string, enum: ["ITEM_ENUM", other]}}}}
    post:
      operationId: sendThings
      requestBody:
        required: true
        content:
          "REQ_MEDIA":
            itemSchema: {type: object, properties: {n: {type: string}}}
            examples:
              one: {dataValue: {n: "DATA_VALUE"}}
      responses: {'204': {description: done}}
      security: [{device: ["SCOPE"]}]
    additionalOperations:
      "METHOD": {operationId: purgeThings, responses: {'204': {description: done}}}
components:
  securitySchemes:
    device:
      type: oauth2
      flows:
        deviceAuthorization:
          deviceAuthorizationUrl: "DEV"
          tokenUrl: "TOKEN"
          scopes: {"SCOPE": "SCOPE_DESC"}
'''


def spec_32(place, text):
    """The 3.2 template with `text` in `place` (kept in a URL for the device
    flow's URLs, after a parameter for a media type)."""
    values = dict(DEFAULTS_32)
    key = PLACES_32[place]
    if key in ('DEV', 'TOKEN'):
        values[key] = values[key] + '/' + text
    elif key.endswith('_MEDIA'):
        values[key] = values[key] + '; v=' + text
    else:
        values[key] = text
    spec = TEMPLATE_32
    # Longest first: SCOPE_DESC before SCOPE.
    for name in sorted(values, key=len, reverse=True):
        spec = spec.replace(name, values[name])
    return spec


def text_spec(place, text):
    info = 'info: {title: T, version: "1"}'
    servers = ''
    tags = ''
    op_extra = ''
    param_desc = ''
    schema_extra = ''
    response_desc = 'ok'
    line = TEXT_PLACES[place].replace('X', text)
    if place.startswith('info'):
        info = line
    elif place.startswith('server'):
        servers = line + '\n'
    elif place == 'tag':
        tags = line + '\n'
    elif place in ('summary', 'operation.description'):
        op_extra = '      ' + line + '\n'
    elif place == 'parameter.description':
        param_desc = ', description: "%s"' % text
    elif place == 'response.description':
        response_desc = text
    else:
        schema_extra = ', ' + line
    if place == 'response.description':
        response_desc = '"%s"' % text
    return f'''openapi: 3.0.3
{info}
{servers}{tags}paths:
  /things/{{id}}:
    get:
      operationId: getThing
{op_extra}      parameters:
        - {{name: id, in: path, required: true, schema: {{type: string}}{param_desc}}}
        - {{name: kind, in: query, schema: {{type: string{schema_extra}}}}}
      responses:
        '200':
          description: {response_desc}
          content:
            application/json:
              schema: {{$ref: '#/components/schemas/Thing'}}
components:
  schemas:
    Thing:
      type: object
      properties:
        name: {{type: string{schema_extra}}}
'''


def name_spec(place, text):
    path = f'/p/{text}' if place == 'path' else '/p'
    operation = text if place == 'operationId' else 'getP'
    header = text if place == 'header' else 'X-Trace'
    return f'''openapi: 3.0.3
info: {{title: T, version: "1"}}
paths:
  "{path}":
    get:
      operationId: "{operation}"
      parameters:
        - {{name: "{header}", in: header, schema: {{type: string}}}}
      responses:
        '204': {{description: done}}
'''


def declarations(dump):
    names = re.findall(r'\((?:pattern_named|var_decl|func_decl|struct_decl|enum_decl|enum_element_decl|typealias_decl|protocol_decl) [^"]*"([^"]*)"', dump)
    return names


failures = 0
cases = 0
outcomes = {'refused': 0, 'generated': 0}
work = tempfile.mkdtemp(prefix='fuzz-hostile-')


def check(spec_text, label):
    """Lint; a refused spec must name where, a clean one must generate no live code. The failure, or None."""
    spec = os.path.join(work, 'hostile.yaml')
    open(spec, 'w').write(spec_text)
    lint = subprocess.run([clientgen, 'lint', spec], capture_output=True, text=True)
    output = lint.stdout + lint.stderr
    if lint.returncode != 0:
        if re.search(r'hostile\.yaml:\d+:\d+: error: ', output):
            outcomes['refused'] += 1
            return None
        return f'refused without a located error: {output[-300:]}'
    out = os.path.join(work, 'out-' + re.sub(r'[^a-z0-9]+', '-', label))
    generate = subprocess.run([clientgen, 'generate', spec, '--output', out, '--module', 'Hostile'], capture_output=True, text=True)
    if generate.returncode != 0:
        return f'generate failed: {generate.stderr[-300:]}'
    files = sorted(os.path.join(out, f) for f in os.listdir(out) if f.endswith('.swift'))
    parse = subprocess.run(['swiftc', '-dump-parse'] + files, capture_output=True, text=True)
    injected = [n for n in declarations(parse.stdout + parse.stderr) if n.lower().startswith('injected')]
    if parse.returncode != 0 or 'top_level_code_decl' in parse.stdout or injected:
        return f'live code from the spec: {injected or "top-level code or a parse error"}'
    typecheck = subprocess.run(['swiftc', '-typecheck', '-swift-version', '6', '-module-name', 'Hostile', '-I', modules] + files,
                               capture_output=True, text=True)
    if typecheck.returncode != 0:
        return f'does not type-check: {(typecheck.stdout + typecheck.stderr)[-600:]}'
    outcomes['generated'] += 1
    return None


for index, text in enumerate(HOSTILE):
    specs = [(place, text_spec(place, text)) for place in TEXT_PLACES] + [(place, name_spec(place, text)) for place in NAME_PLACES] \
        + [(place, spec_32(place, text)) for place in PLACES_32]
    for place, spec_text in specs:
        cases += 1
        problem = check(spec_text, f'{place} {index}')
        if problem:
            print(f'HOSTILE {place} #{index}: {problem}')
            failures += 1
print(f'hostile cases {cases} (refused at a located error {outcomes["refused"]}, generated and type-checked {outcomes["generated"]}) failures {failures}')
sys.exit(1 if failures else 0)
