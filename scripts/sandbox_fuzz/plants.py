#!/usr/bin/env python3
"""Shows that `make sandbox-fuzz` catches the bugs it exists for: plants
each bug in the sandbox's source, runs the fuzz on the backend it shows
on (30 examples), and requires the failure line that names it; then puts
the source back (also when interrupted) and rebuilds.

    python3 scripts/sandbox_fuzz/plants.py [NAME ...]

Prints `PLANT <name>: caught: <line>` per plant, and fails when one is
missed. Not part of CI (each plant rebuilds the sandbox: about a minute).
"""
import os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import script_support

ROOT = script_support.ROOT
fail = script_support.failing('sandbox-fuzz plants')
CORE = os.path.join(ROOT, 'Sandbox', 'Sources', 'SandboxCore')

# name: (file, original, planted, backend, the line that must appear)
PLANTS = {
    'missing-credential-is-400': (
        'ContractRefusal.swift',
        'if rules.contains("security") { return documented.contains(401) || !documented.contains(403) ? 401 : 403 }',
        'if rules.contains("security") { return 400 }',
        'mobiletracker', 'Unexpected response to a request without authentication'),
    'no-allow-header': (
        'Sandbox.swift',
        'if status == 405 { reply.headers.append(("Allow", result.allowedMethods.joined(separator: ", "))) }',
        'if status == 405 { reply.headers.append(("X-Allowed", result.allowedMethods.joined(separator: ", "))) }',
        'securenode', 'Wrong response to undeclared method'),
    'refusal-in-the-sandboxs-own-body': (
        'Sandbox.swift',
        'var reply = backend.behaviour?.errorReply(status: status, message: message, violations: violations)',
        'var reply = Optional(ContractRefusal.ownBody(status: status, operation: result.operation, violations: violations))',
        'soul', 'Response violates schema'),
    'any-key-accepted': (
        os.path.join('Backends', 'TrackerBehaviour.swift'),
        'guard let apiKey, request.header("X-API-Key") != apiKey else { return nil }',
        'guard let apiKey, request.header("X-API-Key") == nil, apiKey.isEmpty else { return nil }',
        'mobiletracker', 'API accepts invalid authentication'),
    'billing-replay-lost': (
        os.path.join('Backends', 'SecureNodeBehaviour.swift'),
        'if let key, let id = state.eventIDs[key] {',
        'if let key, let id = state.eventIDs[key], key.isEmpty {',
        'securenode', 'holds no trace of a billing event replayed'),
}


def main():
    names = sys.argv[1:] or list(PLANTS)
    missed = []
    for name in names:
        file, original, planted, backend, expected = PLANTS[name]
        path = os.path.join(CORE, file)
        source = open(path).read()
        if source.count(original) != 1:
            fail(f'{name}: {file} no longer holds the line to plant in: {original}')
        try:
            with open(path, 'w') as out:
                out.write(source.replace(original, planted))
            run = subprocess.run([sys.executable, os.path.join(HERE, 'run.py'), '--examples', '30', '--backend', backend],
                                 cwd=ROOT, capture_output=True, text=True)
        finally:
            with open(path, 'w') as out:
                out.write(source)
        found = next((line.strip() for line in (run.stdout + run.stderr).splitlines() if expected in line), None)
        if run.returncode != 0 and found:
            print(f'PLANT {name}: caught: {found}', flush=True)
        else:
            said = [line.strip() for line in (run.stdout + run.stderr).splitlines() if line.strip().startswith('- ST') or 'SANDBOX-FUZZ' in line]
            print(f'PLANT {name}: MISSED (exit {run.returncode}, no line with "{expected}"; it said: {sorted(set(said))[:8]})', flush=True)
            missed.append(name)
    subprocess.run(['swift', 'build', '--package-path', os.path.join(ROOT, 'Sandbox', 'Server'), '--product', 'sandbox'], capture_output=True)
    if missed:
        fail(f'missed: {", ".join(missed)}')
    print(f'sandbox-fuzz plants: {len(names)} of {len(names)} caught')


if __name__ == '__main__':
    main()
