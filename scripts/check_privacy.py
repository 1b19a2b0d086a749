#!/usr/bin/env python3
"""`make privacy`: each library target's App Store privacy manifest against its code.

Since May 2024 App Store Connect refuses an upload (ITMS-91053) whose code
calls a "required reason" API that no privacy manifest declares, and
expects every SDK to ship a `PrivacyInfo.xcprivacy`. For every target of
the package (and the iOS sample app) this:

- scans the target's Swift sources for the required-reason APIs Apple
  lists (file timestamps, system boot time, disk space, active keyboards,
  user defaults) and fails when the target's manifest does not declare the
  category with a reason Apple accepts for it (or when a target that calls
  one has no manifest);
- reads every manifest as a property list and checks Apple's keys and
  values: `NSPrivacyTracking`, `NSPrivacyTrackingDomains`,
  `NSPrivacyCollectedDataTypes` (each a known data type, linked and tracking
  flags, known purposes), `NSPrivacyAccessedAPITypes` (a known category with
  reasons valid for it);
- checks Package.swift copies each manifest as the target's resource.

Prints each target with what it declares; exits 1 on any problem.
`--self-test` plants a call the manifest does not declare, and a manifest
Apple's keys refuse, in a copy, and checks both are caught."""
import os, plistlib, re, shutil, sys, tempfile

root = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))

# Apple's required-reason API categories: the symbols that use them, and the reasons it accepts.
CATEGORIES = {
    'NSPrivacyAccessedAPICategoryFileTimestamp': (
        r'\b(creationDate|modificationDate|fileModificationDate|contentModificationDateKey|creationDateKey|'
        r'getattrlist|getattrlistbulk|fgetattrlist|getattrlistat|fstatat|lstat)\b|\bf?stat\(',
        {'DDA9.1', 'C617.1', '3B52.1', '0A2A.1'}),
    'NSPrivacyAccessedAPICategorySystemBootTime': (r'\b(systemUptime|mach_absolute_time)\b', {'35F9.1', '8FFB.1', '3D61.1'}),
    'NSPrivacyAccessedAPICategoryDiskSpace': (
        r'\b(volumeAvailableCapacityKey|volumeAvailableCapacityForImportantUsageKey|volumeAvailableCapacityForOpportunisticUsageKey|'
        r'volumeTotalCapacityKey|systemFreeSize|systemSize|statfs|statvfs|fstatfs|fstatvfs|getattrlist)\b',
        {'85F4.1', 'E174.1', '7D9E.1', 'B728.1'}),
    'NSPrivacyAccessedAPICategoryActiveKeyboards': (r'\bactiveInputModes\b', {'3EC4.1', '54BD.1'}),
    'NSPrivacyAccessedAPICategoryUserDefaults': (r'\b(UserDefaults|NSUserDefaults)\b', {'CA92.1', '1C8F.1', 'C56D.1', 'AC6B.1'}),
}
DATA_TYPES = {
    'NSPrivacyCollectedDataType' + name for name in (
        'Name EmailAddress PhoneNumber PhysicalAddress OtherUserContactInfo Health Fitness PaymentInfo CreditInfo OtherFinancialInfo '
        'PreciseLocation CoarseLocation SensitiveInfo Contacts EmailsOrTextMessages PhotosorVideos AudioData GameplayContent '
        'CustomerSupport OtherUserContent BrowsingHistory SearchHistory UserID DeviceID PurchaseHistory ProductInteraction '
        'AdvertisingData OtherUsageData CrashData PerformanceData OtherDiagnosticData EnvironmentScanning Hands Head OtherDataTypes').split()
}
PURPOSES = {
    'NSPrivacyCollectedDataTypePurpose' + name
    for name in 'ThirdPartyAdvertising DeveloperAdvertising Analytics ProductPersonalization AppFunctionality Other'.split()
}
TOP_KEYS = {'NSPrivacyTracking', 'NSPrivacyTrackingDomains', 'NSPrivacyCollectedDataTypes', 'NSPrivacyAccessedAPITypes'}


def targets(base):
    """(name, source folder) of every library target with Swift sources, and the sample app."""
    found = []
    for parent in ('Sources', 'Runtime/Sources'):
        folder = os.path.join(base, parent)
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if os.path.isdir(path) and name != 'Clients':
                found.append((name, os.path.join(parent, name)))
    clients = os.path.join(base, 'Sources/Clients')
    for name in sorted(os.listdir(clients)):
        if os.path.isdir(os.path.join(clients, name)):
            found.append((name, os.path.join('Sources/Clients', name)))
    found.append(('SampleAppModels', 'Examples/ios-app/SampleAppModels'))
    found.append(('SampleApp', 'Examples/ios-app/SampleApp'))
    return found


def uses(base, folder):
    """Category -> the first place each category's API is called, in `folder`'s Swift sources (comments left out)."""
    found = {}
    for directory, _, names in os.walk(os.path.join(base, folder)):
        for name in sorted(names):
            if not name.endswith('.swift'):
                continue
            path = os.path.join(directory, name)
            with open(path, encoding='utf-8') as handle:
                for number, line in enumerate(handle, 1):
                    code = line.split('//', 1)[0]
                    for category, (pattern, _) in CATEGORIES.items():
                        if category not in found and re.search(pattern, code):
                            found[category] = f'{os.path.relpath(path, base)}:{number}'
    return found


def validate(manifest, label):
    """The problems of one manifest's content."""
    problems = []
    unknown = set(manifest) - TOP_KEYS
    if unknown:
        problems.append(f'{label}: keys Apple does not define: {", ".join(sorted(unknown))}')
    if not isinstance(manifest.get('NSPrivacyTracking'), bool):
        problems.append(f'{label}: NSPrivacyTracking must be a boolean')
    domains = manifest.get('NSPrivacyTrackingDomains', [])
    if not isinstance(domains, list) or not all(isinstance(d, str) for d in domains):
        problems.append(f'{label}: NSPrivacyTrackingDomains must be an array of host names')
    if manifest.get('NSPrivacyTracking') and not domains:
        problems.append(f'{label}: NSPrivacyTracking is true but no NSPrivacyTrackingDomains are named')
    for entry in manifest.get('NSPrivacyCollectedDataTypes', []):
        kind = entry.get('NSPrivacyCollectedDataType')
        if kind not in DATA_TYPES:
            problems.append(f'{label}: {kind} is not a data type Apple defines')
        for flag in ('NSPrivacyCollectedDataTypeLinked', 'NSPrivacyCollectedDataTypeTracking'):
            if not isinstance(entry.get(flag), bool):
                problems.append(f'{label}: {kind}: {flag} must be a boolean')
        purposes = entry.get('NSPrivacyCollectedDataTypePurposes', [])
        if not purposes or any(p not in PURPOSES for p in purposes):
            problems.append(f'{label}: {kind}: purposes must be among Apple\'s ({", ".join(sorted(p[33:] for p in PURPOSES))})')
    for entry in manifest.get('NSPrivacyAccessedAPITypes', []):
        category = entry.get('NSPrivacyAccessedAPIType')
        reasons = entry.get('NSPrivacyAccessedAPITypeReasons', [])
        if category not in CATEGORIES:
            problems.append(f'{label}: {category} is not a required-reason API category')
        elif not reasons or any(r not in CATEGORIES[category][1] for r in reasons):
            problems.append(f'{label}: {category}: reasons must be among {", ".join(sorted(CATEGORIES[category][1]))}, got {reasons}')
    return problems


def check(base):
    problems, lines = [], []
    with open(os.path.join(base, 'Package.swift'), encoding='utf-8') as handle:
        package = handle.read()
    for name, folder in targets(base):
        manifest_path = os.path.join(base, folder, 'PrivacyInfo.xcprivacy')
        called = uses(base, folder)
        manifest = None
        if os.path.exists(manifest_path):
            try:
                with open(manifest_path, 'rb') as handle:
                    manifest = plistlib.load(handle)
            except Exception as error:
                problems.append(f'{folder}/PrivacyInfo.xcprivacy: not a property list: {error}')
                continue
            problems += validate(manifest, f'{folder}/PrivacyInfo.xcprivacy')
        declared = {e.get('NSPrivacyAccessedAPIType') for e in (manifest or {}).get('NSPrivacyAccessedAPITypes', [])}
        for category, place in sorted(called.items()):
            if category not in declared:
                where = f'{folder}/PrivacyInfo.xcprivacy' if manifest is not None else f'{folder} (no PrivacyInfo.xcprivacy)'
                problems.append(f'{where}: does not declare {category}, which {place} uses (App Store Connect refuses the upload: ITMS-91053)')
        if manifest is not None and not name.startswith('SampleApp'):
            declaration = re.search(r'name:\s*"' + re.escape(name) + r'"[^)]*?resources:\s*\[privacyManifest\]', package, re.S)
            if not declaration:
                problems.append(f'Package.swift: the target {name} does not copy its PrivacyInfo.xcprivacy (resources: [privacyManifest])')
        if manifest is not None:
            data = [e['NSPrivacyCollectedDataType'][26:] for e in manifest.get('NSPrivacyCollectedDataTypes', []) if 'NSPrivacyCollectedDataType' in e]
            apis = [e['NSPrivacyAccessedAPIType'][28:] for e in manifest.get('NSPrivacyAccessedAPITypes', []) if 'NSPrivacyAccessedAPIType' in e]
            lines.append(f'privacy: {name}: APIs {", ".join(apis) or "none"}; collects {", ".join(data) or "nothing"}; '
                         f'tracking {manifest.get("NSPrivacyTracking")}')
        elif called:
            pass  # reported above
        else:
            lines.append(f'privacy: {name}: no required-reason API, collects nothing itself: no manifest needed')
    return lines, problems


def self_test():
    failures = 0
    cases = {
        'does not declare NSPrivacyAccessedAPICategoryUserDefaults': lambda base: open(
            os.path.join(base, 'Sources/Soul/PlantedDefaults.swift'), 'w').write('import Foundation\nlet planted = UserDefaults.standard\n'),
        'is not a data type Apple defines': lambda base: plant_manifest(
            os.path.join(base, 'Sources/Safepocket/PrivacyInfo.xcprivacy'),
            lambda m: m['NSPrivacyCollectedDataTypes'][0].update(NSPrivacyCollectedDataType='NSPrivacyCollectedDataTypeBankBalance')),
        'reasons must be among': lambda base: plant_manifest(
            os.path.join(base, 'Sources/MobileTracker/PrivacyInfo.xcprivacy'),
            lambda m: m['NSPrivacyAccessedAPITypes'][0].update(NSPrivacyAccessedAPITypeReasons=['35F9.1'])),
    }
    for expected, plant in cases.items():
        with tempfile.TemporaryDirectory() as scratch:
            for part in ('Sources', 'Runtime/Sources', 'Examples/ios-app/SampleApp', 'Examples/ios-app/SampleAppModels'):
                shutil.copytree(os.path.join(root, part), os.path.join(scratch, part))
            shutil.copy(os.path.join(root, 'Package.swift'), scratch)
            plant(scratch)
            _, problems = check(scratch)
            caught = any(expected in p for p in problems)
            print(f'privacy: self-test: {"caught" if caught else "MISSED"}: {expected}')
            failures += 0 if caught else 1
    return failures


def plant_manifest(path, change):
    with open(path, 'rb') as handle:
        manifest = plistlib.load(handle)
    change(manifest)
    with open(path, 'wb') as handle:
        plistlib.dump(manifest, handle)


def main():
    if '--self-test' in sys.argv:
        return 1 if self_test() else 0
    lines, problems = check(root)
    for line in lines:
        print(line)
    for problem in problems:
        print(f'error: {problem}', file=sys.stderr)
    if problems:
        print(f'privacy: {len(problems)} problem(s)', file=sys.stderr)
        return 1
    print(f'privacy: ok ({len(lines)} targets)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
