#!/usr/bin/env python3
"""The iOS sample app's Info.plist and entitlements against what its code uses.

An app that registers a background task iOS does not permit, reads a
framework without its usage string, or names an App Group one of its
targets is not entitled to, builds and then fails on a device (or at App
Store review). Nothing here can run the app, so `make ios-check` reads the
property lists and the Swift sources and checks each rule:

- every background task identifier the app registers (the SDKs' task
  identifier constants, when the app calls their registration) is listed
  under `BGTaskSchedulerPermittedIdentifiers`, and `UIBackgroundModes` has
  `fetch` for an app-refresh task (`processing` for a processing task);
- the App Group the app configures SecureNode with is in the entitlements
  of the app and of its Call Directory extension;
- the Call Directory extension's bundle id the app reloads is the one
  project.yml gives the extension, and the extension declares CallKit's
  extension point;
- `NSContactsUsageDescription` is there when the app uses Contacts;
  `NSLocationWhenInUseUsageDescription` when it (or an SDK it links) reads
  the location;
- the scheme of the Safepocket redirect URI is one of the app's
  `CFBundleURLSchemes` (the hosted sign-in returns there);
- every build setting the Info.plist reads (`$(SOUL_BASE_URL)`) is set in
  project.yml for each of its configurations (SOUL's plan: Staging and
  Release, each with its BASE_URL), Xcode's own settings aside.

Prints each rule checked, and every problem with its file and key; exits 1
on a problem. `--self-test` plants one fault per rule in a copy and checks
that each is caught."""
import os, plistlib, re, shutil, sys, tempfile

root = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
APP = 'Examples/ios-app'


def swift_sources(base, folders):
    for folder in folders:
        for directory, _, names in os.walk(os.path.join(base, folder)):
            for name in names:
                if name.endswith('.swift'):
                    with open(os.path.join(directory, name), encoding='utf-8') as handle:
                        yield os.path.relpath(os.path.join(directory, name), base), handle.read()


def load(path):
    with open(path, 'rb') as handle:
        return plistlib.load(handle)


def check(base):
    """Every problem found under `base` (a tree laid out as the repository)."""
    app = os.path.join(base, APP)
    info_path = os.path.join(app, 'Support/SampleApp-Info.plist')
    extension_info_path = os.path.join(app, 'Support/CallDirectoryExtension-Info.plist')
    entitlements = {name: os.path.join(app, f'Support/{name}.entitlements') for name in ('SampleApp', 'CallDirectoryExtension')}
    info = load(info_path)
    app_code = dict(swift_sources(app, ['SampleApp', 'SampleAppModels', 'CallDirectoryExtension']))
    sdk_code = dict(swift_sources(base, ['Sources']))
    everything = '\n'.join(list(app_code.values()) + list(sdk_code.values()))
    app_text = '\n'.join(app_code.values())
    problems, checked = [], []

    def rule(name):
        checked.append(name)

    # Background tasks: the identifiers the SDKs declare, when the app registers them.
    rule('background task identifiers permitted, with their background mode')
    declared = dict(re.findall(r'static let (\w*[Tt]askIdentifier)\s*=\s*"([^"]+)"', everything))
    registers = 'registerBackgroundRefresh(' in app_text
    permitted = info.get('BGTaskSchedulerPermittedIdentifiers', [])
    if registers:
        for name, identifier in sorted(declared.items()):
            if identifier not in permitted:
                problems.append(f'{os.path.relpath(info_path, base)}: BGTaskSchedulerPermittedIdentifiers lacks {identifier} '
                                f'(the app registers it: {name}); iOS refuses the registration')
        modes = info.get('UIBackgroundModes', [])
        if 'BGAppRefreshTaskRequest' in everything and 'fetch' not in modes:
            problems.append(f'{os.path.relpath(info_path, base)}: UIBackgroundModes lacks "fetch", which an app-refresh task needs')
        if 'BGProcessingTaskRequest' in everything and 'processing' not in modes:
            problems.append(f'{os.path.relpath(info_path, base)}: UIBackgroundModes lacks "processing", which a processing task needs')

    # The App Group, in both targets' entitlements.
    rule('the App Group in the app\'s and the extension\'s entitlements')
    group = info.get('SECURENODE_APP_GROUP', '')
    if group:
        for target, path in entitlements.items():
            groups = load(path).get('com.apple.security.application-groups', [])
            if group not in groups:
                problems.append(f'{os.path.relpath(path, base)}: com.apple.security.application-groups lacks {group} '
                                f'(SECURENODE_APP_GROUP): {target} cannot open the shared folder')

    # The Call Directory extension: its bundle id and extension point.
    rule('the Call Directory extension\'s bundle id and extension point')
    with open(os.path.join(app, 'project.yml'), encoding='utf-8') as handle:
        project = handle.read()
    extension_id = info.get('SECURENODE_CALL_DIRECTORY_EXTENSION', '')
    block = project.split('CallDirectoryExtension:\n', 1)[-1]
    match = re.search(r'PRODUCT_BUNDLE_IDENTIFIER:\s*(\S+)', block)
    if extension_id and (not match or match.group(1) != extension_id):
        problems.append(f'{os.path.relpath(info_path, base)}: SECURENODE_CALL_DIRECTORY_EXTENSION is {extension_id}, but project.yml gives '
                        f'the extension {match.group(1) if match else "no bundle id"}: the reload would name another extension')
    point = load(extension_info_path).get('NSExtension', {}).get('NSExtensionPointIdentifier')
    if point != 'com.apple.callkit.call-directory':
        problems.append(f'{os.path.relpath(extension_info_path, base)}: NSExtensionPointIdentifier is {point}, not com.apple.callkit.call-directory')

    # Usage strings for what the app reads.
    rule('usage strings for Contacts and the location')
    if re.search(r'\b(CNContactStore|ContactsGroupStore)\b', app_text) and not info.get('NSContactsUsageDescription', '').strip():
        problems.append(f'{os.path.relpath(info_path, base)}: NSContactsUsageDescription is missing, and the app uses Contacts: '
                        'iOS ends the app when it asks for access')
    if re.search(r'\bCLLocationManager\b', everything) and re.search(r'\b(MobileTracker|CLLocationManager)\b', app_text) \
            and not info.get('NSLocationWhenInUseUsageDescription', '').strip():
        problems.append(f'{os.path.relpath(info_path, base)}: NSLocationWhenInUseUsageDescription is missing, and the app (or an SDK it '
                        'links) reads the location')

    # The sign-in redirect's scheme.
    rule('the Safepocket redirect URI\'s scheme among the app\'s URL schemes')
    redirect = info.get('SAFEPOCKET_REDIRECT_URI', '')
    scheme = redirect.split(':', 1)[0] if ':' in redirect else ''
    schemes = [s for entry in info.get('CFBundleURLTypes', []) for s in entry.get('CFBundleURLSchemes', [])]
    if scheme and scheme not in schemes:
        problems.append(f'{os.path.relpath(info_path, base)}: CFBundleURLSchemes lacks {scheme} (SAFEPOCKET_REDIRECT_URI): '
                        'the hosted sign-in could not return to the app')

    # The build settings the Info.plist reads, in every configuration.
    rule('the Info.plist\'s build settings set in every configuration of project.yml')
    configurations, settings = project_settings(project)
    with open(info_path, encoding='utf-8') as handle:
        wanted = sorted(set(re.findall(r'\$\((\w+)\)', handle.read())) - XCODE_SETTINGS)
    for name in wanted:
        for configuration in configurations:
            if name not in settings[configuration]:
                problems.append(f'{os.path.relpath(info_path, base)}: reads $({name}), which project.yml does not set for the {configuration} '
                                'configuration: that build gets an empty value')
    return checked, problems


# Build settings Xcode sets itself.
XCODE_SETTINGS = {'EXECUTABLE_NAME', 'PRODUCT_BUNDLE_IDENTIFIER', 'PRODUCT_BUNDLE_PACKAGE_TYPE', 'PRODUCT_MODULE_NAME', 'PRODUCT_NAME',
                  'DEVELOPMENT_LANGUAGE', 'MARKETING_VERSION', 'CURRENT_PROJECT_VERSION'}


def project_settings(project):
    """project.yml's configurations and the settings each sets (the project's
    `settings.base` in every one), read line by line: the file is XcodeGen's
    plain block style."""
    lines = project.splitlines()
    configurations, base, per = [], set(), {}
    section, block, current = None, '', None
    for line in lines:
        if re.match(r'^\S', line):
            section, block = line.rstrip(':').strip(), ''
            continue
        if section == 'configs':
            match = re.match(r'^  ([\w ]+):\s*(debug|release)\s*$', line)
            if match:
                configurations.append(match.group(1))
        elif section == 'settings':
            if re.match(r'^  \w', line):
                block = line.strip()
            if block == 'base:' and re.match(r'^    \w', line):
                base.add(line.strip().split(':')[0])
            elif block == 'configs:':
                config = re.match(r'^    ([\w ]+):\s*$', line)
                if config:
                    current = config.group(1)
                    per.setdefault(current, set())
                setting = re.match(r'^      (\w+):', line)
                if setting and current:
                    per.setdefault(current, set()).add(setting.group(1))
    configurations = configurations or ['Debug', 'Release']
    return configurations, {name: base | per.get(name, set()) for name in configurations}


def edit_plist(path, change):
    value = load(path)
    change(value)
    with open(path, 'wb') as handle:
        plistlib.dump(value, handle)


def edit_text(path, change):
    with open(path, encoding='utf-8') as handle:
        text = handle.read()
    changed = change(text)
    assert changed != text, f'the planted fault changed nothing in {path}'
    with open(path, 'w', encoding='utf-8') as handle:
        handle.write(changed)


def self_test():
    """Plants one fault per rule in a copy of the sample's files; each must be caught."""
    faults = {
        'BGTaskSchedulerPermittedIdentifiers lacks': lambda app: edit_plist(f'{app}/Support/SampleApp-Info.plist',
                                                                            lambda i: i.update(BGTaskSchedulerPermittedIdentifiers=[])),
        'UIBackgroundModes lacks "fetch"': lambda app: edit_plist(f'{app}/Support/SampleApp-Info.plist', lambda i: i.update(UIBackgroundModes=[])),
        'CallDirectoryExtension cannot open': lambda app: edit_plist(f'{app}/Support/CallDirectoryExtension.entitlements',
                                                                     lambda e: e.update({'com.apple.security.application-groups': []})),
        'SECURENODE_CALL_DIRECTORY_EXTENSION is': lambda app: edit_plist(f'{app}/Support/SampleApp-Info.plist',
                                                                         lambda i: i.update(SECURENODE_CALL_DIRECTORY_EXTENSION='com.other.ext')),
        'NSContactsUsageDescription is missing': lambda app: edit_plist(f'{app}/Support/SampleApp-Info.plist',
                                                                        lambda i: i.pop('NSContactsUsageDescription', None)),
        'CFBundleURLSchemes lacks': lambda app: edit_plist(f'{app}/Support/SampleApp-Info.plist', lambda i: i.update(CFBundleURLTypes=[])),
        'project.yml does not set for the Staging configuration': lambda app: edit_text(
            f'{app}/project.yml', lambda text: text.replace('    Staging:\n      SOUL_BASE_URL: https://api-staging.soulapp.app\n', '')),
    }
    failures = 0
    for expected, plant in faults.items():
        with tempfile.TemporaryDirectory() as scratch:
            shutil.copytree(os.path.join(root, APP), os.path.join(scratch, APP), ignore=shutil.ignore_patterns('.build', '.build-*'))
            shutil.copytree(os.path.join(root, 'Sources'), os.path.join(scratch, 'Sources'))
            plant(os.path.join(scratch, APP))
            _, problems = check(scratch)
            caught = any(expected in problem for problem in problems)
            print(f'check-app-plist: self-test: {"caught" if caught else "MISSED"}: {expected}')
            failures += 0 if caught else 1
    return failures


def main():
    if '--self-test' in sys.argv:
        return 1 if self_test() else 0
    checked, problems = check(root)
    for name in checked:
        print(f'check-app-plist: checked {name}')
    for problem in problems:
        print(f'error: {problem}', file=sys.stderr)
    if problems:
        return 1
    print(f'check-app-plist: ok ({len(checked)} rules, {APP}/Support)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
