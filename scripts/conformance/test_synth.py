"""Unit tests of the value synthesizer: each value validates against its
schema, modes and directions shape it, and choices reach every branch."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from synth import Synthesizer  # noqa: E402


def doc(schemas, version='3.0.3'):
    return {'openapi': version, 'info': {'title': 't', 'version': '1'}, 'paths': {}, 'components': {'schemas': schemas}}


def value(schemas, name, version='3.0.3', **options):
    synth = Synthesizer(doc(schemas, version))
    pointer = f'#/components/schemas/{name}'
    result = synth.value(pointer, **options)
    assert synth.errors(pointer, result, options.get('direction', 'request')) == []
    return result


def test_constraints_are_honoured():
    schemas = {'S': {'type': 'object', 'required': ['code', 'n', 'x', 'tags', 'when', 'id', 'blob'], 'properties': {
        'code': {'type': 'string', 'pattern': '^[A-Z]{3}-[0-9]{2,4}$'},
        'n': {'type': 'integer', 'minimum': 10, 'exclusiveMaximum': True, 'maximum': 12, 'multipleOf': 1},
        'x': {'type': 'number', 'multipleOf': 0.25, 'minimum': 1, 'maximum': 2},
        'tags': {'type': 'array', 'minItems': 2, 'maxItems': 3, 'uniqueItems': True, 'items': {'type': 'string', 'enum': ['a', 'b', 'c']}},
        'when': {'type': 'string', 'format': 'date-time'},
        'id': {'type': 'string', 'format': 'uuid'},
        'blob': {'type': 'string', 'format': 'byte', 'nullable': True}}}}
    result = value(schemas, 'S')
    assert 10 <= result['n'] < 12 and len(set(result['tags'])) == len(result['tags'])


def test_full_and_minimal_modes():
    schemas = {'S': {'type': 'object', 'required': ['a'], 'properties': {'a': {'type': 'string'}, 'b': {'type': 'integer'}}}}
    assert set(value(schemas, 'S', mode='full')) == {'a', 'b'}
    assert set(value(schemas, 'S', mode='minimal')) == {'a'}


def test_read_only_and_write_only_members():
    schemas = {'S': {'type': 'object', 'required': ['id', 'secret'], 'properties': {
        'id': {'type': 'string', 'readOnly': True}, 'secret': {'type': 'string', 'writeOnly': True}}}}
    assert set(value(schemas, 'S', direction='request')) == {'secret'}
    assert set(value(schemas, 'S', direction='response')) == {'id'}


def test_choices_reach_every_branch_and_set_the_discriminator():
    schemas = {
        'Pet': {'oneOf': [{'$ref': '#/components/schemas/Cat'}, {'$ref': '#/components/schemas/Dog'}],
                'discriminator': {'propertyName': 'kind', 'mapping': {'cat': '#/components/schemas/Cat', 'dog': '#/components/schemas/Dog'}}},
        'Cat': {'type': 'object', 'required': ['kind', 'lives'], 'properties': {'kind': {'type': 'string'}, 'lives': {'type': 'integer'}}},
        'Dog': {'type': 'object', 'required': ['kind', 'bark'], 'properties': {'kind': {'type': 'string'}, 'bark': {'type': 'boolean'}}},
    }
    assert value(schemas, 'Pet', choice=0)['kind'] == 'cat'
    assert value(schemas, 'Pet', choice=1)['kind'] == 'dog'


def test_all_of_merge_recursion_and_maps():
    schemas = {
        'Node': {'allOf': [{'$ref': '#/components/schemas/Base'}, {'type': 'object', 'properties': {
            'children': {'type': 'array', 'items': {'$ref': '#/components/schemas/Node'}}}}]},
        'Base': {'type': 'object', 'required': ['name'], 'properties': {'name': {'type': 'string', 'minLength': 2}}},
        'Map': {'type': 'object', 'additionalProperties': {'type': 'integer'}},
    }
    node = value(schemas, 'Node')
    assert 'name' in node and 'children' in node
    assert len(value(schemas, 'Map')) == 2 and len(value(schemas, 'Map', mode='minimal')) == 1


def test_openapi_31_type_lists_and_const():
    schemas = {'S': {'type': 'object', 'required': ['v', 'c'], 'properties': {
        'v': {'type': ['null', 'integer'], 'exclusiveMinimum': 5, 'maximum': 6}, 'c': {'const': 'fixed'}}}}
    assert value(schemas, 'S', version='3.1.0') == {'v': 6, 'c': 'fixed'}
