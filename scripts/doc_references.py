"""What a document names in code spans exists: `make layout`'s second half.

A document that cites a test, a type or a file sends its reader to it; a
rename that leaves the citation behind sends them nowhere. Each inline code
span of the checked documents is read as one of:

- a test: `SuiteTests` or `SuiteTests.testName`. The suite (a type or a test
  target whose name ends in `Tests`) must be declared under a test folder,
  and the test must be a function declared in one of the suite's files;
- a file: a span with a `/` or a file extension (`Outbox/BillingOutbox.swift`,
  `docs/Codegen.md`). It must exist relative to the repository or the
  document, or be the tail of a path in the repository (documents name files
  within a module: `Apple/FileAttributes.swift`);
- a type: a capitalised identifier, optionally with members
  (`RetryPolicy.standard`). Its first name must be declared in the
  repository's Swift, be a module of it, or be one of the external names
  listed below (the platform's and the dependencies' types).

Spans with placeholders (`<name>`, `*`, `...`), commands (a space) or
anything else are not read. `problems(root, documents)` returns one line per
dangling name, with the document's line.
"""
import os
import re
import subprocess

# Names the documents use that the repository does not declare. A name
# here is a claim that it exists outside, or is plainly an example's; keep
# each group sorted.
EXTERNAL_NAMES = frozenset('''
    AfterFirstUnlockThisDeviceOnly Allow AnyObject AppStorage Array AsyncSequence Atomic BGAppRefreshTask
    BGProcessingTask BGTaskScheduler Bool CFNetwork CFStringFind CLLocationManager CXCallDirectoryExtensionContext
    CXCallDirectoryManager CXCallDirectoryProvider CXProvider Calendar CallKit CancellationError Clock Codable CodingKey
    ContinuousClock Crypto Data DatabaseMigrator DatabasePool DatabaseQueue Date Decimal Decodable DecodingError
    Dispatch DispatchQueue Double Duration Encodable Equatable Error EventSource FileManager FileProtectionType Float Foundation
    GRDB HTTPBody HTTPField HTTPFields HTTPRequest HTTPResponse HTTPTypes Hashable Hasher InlineArray Int Int32 Int64
    JSONDecoder JSONEncoder Keychain LocalizedError Logger Logging MainActor Mutex NSError
    NSFileProtectionComplete NSFileProtectionCompleteUntilFirstUserAuthentication NSInternalInconsistencyException
    NSLocking NSPrivacyTracking NSRegularExpression NSURLAuthenticationMethodServerTrust
    NSURLErrorDataLengthExceedsMaximum NWPathMonitor Never
    ObservableObject Observable Observation OrderedDictionary OSLog OSSignposter OpenAPIRuntime OpenAPIURLSession
    Optional Process ProcessInfo Result SecCertificateCopyData SecTrust SecTrustCopyCertificateChain
    SecTrustEvaluateWithError Security Sendable Sequence Set String SubjectPublicKeyInfo SwiftUI Task
    ThisDeviceOnly TimeInterval Type UIApplication UIKit UInt8 URL URLComponents URLError URLQueryItem URLRequest
    URLResponse URLSession URLSessionConfiguration URLSessionDelegate URLSessionTaskDelegate URLSessionTransport
    UUID UserDefaults Void WhenUnlockedThisDeviceOnly XCTAssertEqual XCTest XCTestCase
    ClientError ClientMiddleware ClientTransport CYaml LoggingSystem StreamLogHandler
'''.split())
# HTTP's own names (headers, schemes) and the names of examples: a reader's
# app, a generated client of another spec, the peer generator's output.
EXAMPLE_NAMES = frozenset('''
    Accept Bearer Cookie ETag Expires
    Cart Controller ErrorSchema Generated ListItemsResponseItem MyApp NullableSimpleUser PetsAPI Screen SessionId
    GenericSource SimpleUser Storage Streamed UsersFollowErrorBody ViewController WithResponse
    ListAvailablePhoneNumberCountry PageToken
'''.split())

# The words the documents write in a path for "yours here" (`specs/NAME.yaml`, `DIR/bin`).
PLACEHOLDERS = frozenset({'NAME', 'DIR', 'PREFIX', 'MODULE'})

CODE_SPAN = re.compile(r'(?<!`)`([^`\n]+)`(?!`)')
TEST_NAME = re.compile(r'^([A-Z][A-Za-z0-9_]*Tests)(?:\.([A-Za-z_][A-Za-z0-9_]*)(?:\(\))?)?$')
TYPE_NAME = re.compile(r'^([A-Z][A-Za-z0-9_]*)(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\(\))?$')
FILE_EXTENSIONS = ('.swift', '.md', '.yaml', '.yml', '.json', '.py', '.sh', '.xcprivacy', '.plist', '.txt', '.resolved')
DECLARATION = re.compile(r'\b(?:struct|class|enum|actor|protocol|typealias|extension)\s+([A-Za-z_][A-Za-z0-9_]*)')
MEMBER = re.compile(r'\b(?:func|let|var|case)\s+([A-Za-z_][A-Za-z0-9_]*)')
SKIPPED_FOLDERS = ('.build', '.git', '.build-bench', '.build-ios', '.build-ios-size', '.build-scratch', '__pycache__')


class Repository:
    """The names a document may cite: files, Swift declarations, test suites."""

    def __init__(self, root):
        self.root = root
        listed = subprocess.run(['git', 'ls-files', '--cached', '--others', '--exclude-standard'],
                                cwd=root, capture_output=True, text=True)
        self.files = sorted(set(listed.stdout.split('\n')) - {''}) if listed.returncode == 0 else self._walk()
        self.folders = {os.path.dirname(f) for f in self.files}
        for folder in list(self.folders):
            while folder:
                folder = os.path.dirname(folder)
                self.folders.add(folder)
        self.types = set()
        self.suite_files = {}
        self.modules = set()
        for file in self.files:
            parts = file.split('/')
            if len(parts) >= 3 and parts[-3] in ('Sources', 'Tests', 'Benchmarks', 'Support'):
                self.modules.add(parts[-2])
            if not file.endswith('.swift'):
                continue
            text = open(os.path.join(root, file), encoding='utf-8', errors='replace').read()
            names = DECLARATION.findall(text)
            self.types.update(names)
            if '/Tests/' in f'/{file}':
                for name in names:
                    self.suite_files.setdefault(name, []).append(file)
                # A test target is a suite too: its folder's name.
                for index, part in enumerate(parts[:-1]):
                    if part.endswith('Tests') and index > 0 and parts[index - 1] == 'Tests':
                        self.suite_files.setdefault(part, []).append(file)
        # The package's own name (`name:` in Package.swift), which the SDKs'
        # unified-log subsystems start with.
        manifest = os.path.join(root, 'Package.swift')
        if os.path.exists(manifest):
            self.modules.update(re.findall(r'Package\(\s*name:\s*"(\w+)"', open(manifest, encoding='utf-8').read()))
        self._functions = {}

    def _walk(self):
        found = []
        for folder, subfolders, names in os.walk(self.root):
            subfolders[:] = [s for s in subfolders if s not in SKIPPED_FOLDERS]
            found += [os.path.relpath(os.path.join(folder, n), self.root) for n in names]
        return found

    def functions(self, file):
        if file not in self._functions:
            text = open(os.path.join(self.root, file), encoding='utf-8', errors='replace').read()
            self._functions[file] = set(MEMBER.findall(text))
        return self._functions[file]

    def has_path(self, span, document, top_level=()):
        path = span.rstrip('/')
        candidates = [path, os.path.normpath(os.path.join(os.path.dirname(document), path))]
        if any(c in self.files or c in self.folders for c in candidates):
            return True
        # A path from a top-level folder names one place; only a path
        # within a module (`Outbox/BillingOutbox.swift`) may be a tail.
        if path.split('/', 1)[0] in top_level:
            return False
        suffix = '/' + path.lstrip('./')
        return any(f.endswith(suffix) for f in self.files) or any(f.endswith(suffix) for f in self.folders)


def cited_name(span, top_level):
    """What a code span names: ('test', suite, test), ('file', path), ('type', name) or None."""
    if any(mark in span for mark in ('<', '>', '*', '...', ' ', '$', '=', '{', '(')) and not span.endswith('()'):
        return None
    test = TEST_NAME.match(span)
    if test:
        return ('test', test.group(1), test.group(2))
    if '/' in span or span.endswith(FILE_EXTENSIONS):
        # A path of the repository: it starts at one of its top-level
        # entries, or names a source file within a module. Other paths
        # (media types, the folders an SDK writes on a device, a file of
        # the reader's app) are not the repository's.
        if not re.match(r'^[A-Za-z0-9_.][A-Za-z0-9_./+-]*$', span):
            return None
        first = span.split('/', 1)[0]
        components = span.split('/')
        if any(c.split('.')[0] in PLACEHOLDERS for c in components) or any(name in components for name in EXAMPLE_NAMES):
            return None  # a placeholder (`specs/NAME.yaml`) or an example's folder
        if first in top_level or ('/' in span and span.endswith('.swift')):
            return ('file', span)
        return None
    type_name = TYPE_NAME.match(span)
    if type_name and not span.isupper():
        return ('type', type_name.group(1))
    return None


def prose_lines(path):
    """(line number, line) of a Markdown file outside its fenced code blocks."""
    in_code = False
    for number, line in enumerate(open(path, encoding='utf-8'), 1):
        if line.lstrip().startswith('```'):
            in_code = not in_code
            continue
        if not in_code:
            yield number, line


def problems(root, documents, modules=()):
    """One line per name a document cites that does not exist (`modules`: the packages' target names)."""
    repository = Repository(root)
    repository.modules.update(modules)
    top_level = {f.split('/', 1)[0] for f in repository.files}
    found = []
    for document in documents:
        path = os.path.join(root, document)
        if not os.path.exists(path):
            continue
        for number, line in prose_lines(path):
            for span in CODE_SPAN.findall(line):
                name = cited_name(span.strip(), top_level)
                if name is None:
                    continue
                where = f'{document}:{number}'
                if name[0] == 'test':
                    _, suite, test = name
                    files = repository.suite_files.get(suite)
                    if not files:
                        found.append(f'{where}: cites the test suite {suite}, which no test folder declares')
                    elif test and not any(test in repository.functions(f) for f in files):
                        found.append(f'{where}: cites {suite}.{test}, but {suite} has no test named {test}')
                elif name[0] == 'file':
                    if not repository.has_path(name[1], document, top_level):
                        found.append(f'{where}: cites the file {name[1]}, which does not exist')
                elif name[0] == 'type':
                    type_name = name[1]
                    if type_name not in repository.types and type_name not in repository.modules \
                            and type_name not in EXTERNAL_NAMES and type_name not in EXAMPLE_NAMES:
                        found.append(f'{where}: cites {type_name}, which nothing in the repository declares '
                                     f'(a name from outside goes in EXTERNAL_NAMES in scripts/doc_references.py)')
    return found
