#!/usr/bin/env python3
"""Independent check of the hand-written specs.

1. Each spec passes openapi-spec-validator (the reference validator of the
   OpenAPI community).
2. Every `example` / `examples` value in the spec (media types, parameters,
   headers) validates against the schema next to it, so the examples that
   tests replay are real instances of the documented shapes.

Usage: validate_specs.py SPEC...   (exit 1 when any spec fails)
"""
import sys

import yaml
from openapi_schema_validator import OAS30Validator, OAS31Validator
from openapi_spec_validator import validate as validate_spec


def resolve(doc, node):
    """Follows a local `$ref` chain to the node it names."""
    seen = set()
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        if ref in seen or not ref.startswith("#/"):
            return node
        seen.add(ref)
        target = doc
        for part in ref[2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def examples_of(doc, holder):
    """Yields (name, value) for `example` and each entry of `examples`."""
    if "example" in holder:
        yield "example", holder["example"]
    for name, ex in (holder.get("examples") or {}).items():
        ex = resolve(doc, ex)
        if isinstance(ex, dict) and "value" in ex:
            yield name, ex["value"]


def check_examples(doc, validator_cls):
    problems = []

    def check(where, holder):
        holder = resolve(doc, holder)
        schema = holder.get("schema")
        if schema is None:
            return
        wrapped = {"allOf": [schema], "components": doc.get("components", {})}
        validator = validator_cls(wrapped)
        for name, value in examples_of(doc, holder):
            for err in validator.iter_errors(value):
                path = "/".join(str(p) for p in err.absolute_path)
                problems.append(f"{where} ({name}) at /{path}: {err.message}")

    def media(where, content):
        for mime, mt in (content or {}).items():
            check(f"{where} {mime}", mt)

    def params(where, plist):
        for p in plist or []:
            p = resolve(doc, p)
            check(f"{where} parameter {p.get('in')}:{p.get('name')}", p)

    for path, item in (doc.get("paths") or {}).items():
        params(path, item.get("parameters"))
        for method, op in item.items():
            if method not in ("get", "put", "post", "delete", "patch", "head", "options", "trace"):
                continue
            where = f"{method.upper()} {path}"
            params(where, op.get("parameters"))
            body = resolve(doc, op.get("requestBody") or {})
            media(f"{where} request", body.get("content"))
            for status, resp in (op.get("responses") or {}).items():
                resp = resolve(doc, resp)
                media(f"{where} {status}", resp.get("content"))
                for hname, header in (resp.get("headers") or {}).items():
                    check(f"{where} {status} header {hname}", header)
    return problems


def main(paths):
    failed = False
    for path in paths:
        with open(path, encoding="utf-8") as f:
            doc = yaml.safe_load(f)
        try:
            validate_spec(doc)
        except Exception as exc:  # the validator raises several types
            print(f"{path}: invalid OpenAPI: {exc}")
            failed = True
            continue
        cls = OAS31Validator if str(doc.get("openapi", "")).startswith("3.1") else OAS30Validator
        problems = check_examples(doc, cls)
        for p in problems:
            print(f"{path}: example does not match its schema: {p}")
        failed |= bool(problems)
        if not problems:
            print(f"{path}: OK (openapi-spec-validator, examples match schemas)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
