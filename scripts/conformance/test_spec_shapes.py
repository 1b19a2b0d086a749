"""Specs the harness must read as their authors wrote them, never crashing
on them and never blaming the client for its own limits: status codes as
unquoted YAML integers, a path key that holds a query string, a schema the
hand-written synthesizer cannot satisfy, and one nothing can."""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import oas  # noqa: E402
from run import run_spec  # noqa: E402
from synth import SynthesisError, Synthesizer  # noqa: E402

FAKE = [sys.executable, os.path.join(HERE, 'fake_driver.py')]


def run_text(text, name='spec.yaml'):
    folder = tempfile.mkdtemp(prefix='conformance-shapes-')
    path = os.path.join(folder, name)
    with open(path, 'w') as handle:
        handle.write(text)
    return run_spec(path, FAKE + [path])


def test_integer_status_keys_are_read_as_their_text():
    ok, count, failures, coverage = run_text('''openapi: 3.0.3
info: {title: Keys, version: '1'}
paths:
  /items:
    get:
      responses:
        200:
          description: ok
          content: {application/json: {schema: {type: array, items: {type: integer}}}}
        404:
          description: missing
          content: {application/json: {schema: {type: object, required: [message], properties: {message: {type: string}}}}}
''')
    assert failures == [] and (ok, count) == (1, 1)
    assert coverage.counts['statuses'] == [2, 2], 'both integer keys answered'


def test_a_path_key_with_a_query_string_sends_that_query():
    text = '''openapi: 3.0.3
info: {title: Fixed query, version: '1'}
paths:
  /keys/{name}?api-version=2021-05-01:
    get:
      parameters:
        - {name: name, in: path, required: true, schema: {type: string, pattern: '^[a-z]{3,8}$'}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, properties: {value: {type: string}}}}}}
'''
    ok, count, failures, _ = run_text(text)
    assert failures == [] and ok == 1
    op = oas.operations(oas._string_keys(__import__('yaml').safe_load(text)))[0]
    assert op.path_template == '/keys/{name}' and op.fixed_query == [('api-version', '2021-05-01')]


def test_a_schema_the_draw_cannot_satisfy_gets_a_value_from_hypothesis_jsonschema():
    doc = {'openapi': '3.0.3', 'info': {'title': 't', 'version': '1'}, 'paths': {}, 'components': {'schemas': {
        'Map': {'type': 'object', 'minProperties': 2, 'properties': {'a': {'type': 'string'}},
                'additionalProperties': {'type': 'integer'}}}}}
    synth = Synthesizer(doc)
    value = synth.value('#/components/schemas/Map', mode='minimal')
    assert synth.is_valid('#/components/schemas/Map', value) and len(value) >= 2


def test_a_schema_that_contradicts_itself_is_the_harnesss_named_failure_and_the_run_goes_on():
    ok, count, failures, _ = run_text('''openapi: 3.0.3
info: {title: Contradiction, version: '1'}
paths:
  /broken:
    get:
      parameters:
        - {name: n, in: query, required: true, schema: {type: integer, minimum: 5, maximum: 1}}
      responses:
        '204': {description: done}
  /fine:
    get:
      responses:
        '204': {description: done}
''')
    assert count == 2 and ok == 1, 'the next operation still runs and passes'
    assert failures and all(key == 'GET /broken' for key, _, _ in failures)
    assert any(rule.startswith('harness: cannot synthesize') for _, _, rule in failures)


def test_a_spec_the_harness_cannot_read_is_one_named_failure():
    ok, count, failures, _ = run_text('openapi: 3.0.3\npaths: [this is not a mapping\n')
    assert ok == 0 and failures and failures[0][2].startswith('harness: cannot read the spec')


def test_synthesis_errors_are_raised_for_contradictions():
    doc = {'openapi': '3.0.3', 'info': {'title': 't', 'version': '1'}, 'paths': {}, 'components': {'schemas': {
        'Never': {'type': 'string', 'minLength': 5, 'maxLength': 2}}}}
    try:
        Synthesizer(doc).value('#/components/schemas/Never')
    except SynthesisError:
        return
    raise AssertionError('a string of at least 5 and at most 2 characters has a value')


def test_a_path_key_with_a_fragment_is_its_own_operation_with_its_own_body():
    # Box tells two operations of one path apart with `#name`: openapi-core's
    # path reader split the key at `#`, and the body of the second read as None.
    ok, count, failures, _ = run_text('''openapi: 3.0.3
info: {title: Fragment, version: '1'}
paths:
  /files/{id}:
    put:
      parameters: [{name: id, in: path, required: true, schema: {type: string, minLength: 1, pattern: '^[a-z.]+$'}}]
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}}
      responses: {'204': {description: done}}
  /files/{id}#share:
    put:
      parameters: [{name: id, in: path, required: true, schema: {type: string, minLength: 1, pattern: '^[a-z.]+$'}}]
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [link], properties: {link: {type: object, properties: {access: {type: string}}}}}}}}
      responses: {'204': {description: done}}
''')
    assert failures == [] and (ok, count) == (2, 2)


def test_an_exploded_form_map_takes_the_query_names_no_other_parameter_declares():
    ok, count, failures, _ = run_text('''openapi: 3.1.0
info: {title: Map, version: '1'}
paths:
  /search:
    get:
      parameters:
        - {name: metadata, in: query, schema: {anyOf: [{type: object, additionalProperties: {type: string}}, {type: 'null'}]}}
        - {name: limit, in: query, schema: {type: integer}}
      responses: {'204': {description: done}}
''')
    assert failures == [] and ok == 1


def test_nullable_members_in_every_branch_of_a_union_array_are_made_null():
    ok, count, failures, coverage = run_text('''openapi: 3.1.0
info: {title: Union nulls, version: '1'}
paths:
  /items:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: array
                items:
                  oneOf:
                    - {type: object, required: [kind], properties: {kind: {const: a}, note: {type: [string, 'null']}, inner: {oneOf: [{type: object, required: [x], properties: {x: {const: 1}, deep: {type: [integer, 'null']}}}, {type: object, required: [y], properties: {y: {const: 2}, far: {type: [boolean, 'null']}}}]}}}
                    - {type: object, required: [kind], properties: {kind: {const: b}, other: {type: [number, 'null']}}}
''')
    assert failures == [] and ok == 1
    done, documented = coverage.counts['nulls']
    assert documented == 4 and done == documented, coverage.counts['nulls']


def test_a_json_part_of_a_multipart_body_keeps_its_nulls():
    ok, count, failures, _ = run_text('''openapi: 3.1.0
info: {title: Parts, version: '1'}
paths:
  /calls:
    post:
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              required: [sdp]
              properties:
                sdp: {type: string}
                session: {type: object, properties: {tools: {anyOf: [{type: array, items: {type: string}}, {type: 'null'}]}}}
            encoding:
              sdp: {contentType: application/sdp}
              session: {contentType: application/json}
      responses: {'204': {description: done}}
''')
    assert failures == [] and ok == 1
