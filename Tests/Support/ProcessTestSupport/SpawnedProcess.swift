import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn` and reaped with `waitpid` on
/// its own pid. The tests start every child this way, not with Foundation's
/// `Process`, which on Linux (swift-corelibs-foundation before its fix of
/// May 2026) can miss the exit of a killed child when several processes
/// come and go at once, and then waits forever; and whose `run()` reads past
/// a buffer while it lists the open file descriptors, a crash (SIGSEGV in
/// `Process.run`) seen here about once in ten `make test` runs, where
/// suites start children while others open and close sockets.
public struct SpawnedProcess {
    /// The child's pid.
    public let pid: pid_t

    /// Starts `executable` with `arguments`, its stdout appended to `output`
    /// and its stderr discarded.
    public init(_ executable: URL, arguments: [String], output: URL) throws {
        try self.init(executable, arguments: arguments, output: output, errors: nil, directory: nil)
    }

    /// Starts `executable` with `arguments` in `directory` (nil: this
    /// process's), its stdout appended to `output` and its stderr to
    /// `errors` (nil: discarded).
    public init(_ executable: URL, arguments: [String], output: URL, errors: URL?, directory: URL?) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let directory {
            guard let addChdir = Self.addChdir else { throw SpawnError(code: ENOSYS) }
            let changed = addChdir(&actions, directory.path)
            guard changed == 0 else { throw SpawnError(code: changed) }
        }
        for (descriptor, path) in [(Int32(1), output.path), (2, errors?.path ?? "/dev/null")] {
            let opened = posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            guard opened == 0 else { throw SpawnError(code: opened) }
        }
        // The child gets stdin, stdout and stderr only: a test server's
        // socket or a pipe inherited by a child would outlive the test
        // that opened it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        #if canImport(Glibc)
        guard let closeFrom = Self.addCloseFrom else { throw SpawnError(code: ENOSYS) }
        let closing = closeFrom(&actions, 3)
        guard closing == 0 else { throw SpawnError(code: closing) }
        #elseif canImport(Darwin)
        posix_spawn_file_actions_addinherit_np(&actions, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
        #endif
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable.path, &actions, &attributes, argv, environ)
        guard status == 0 else { throw SpawnError(code: status) }
        pid = child
    }

    /// Sends SIGKILL; true when the child was still running.
    @discardableResult
    public func kill() -> Bool {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == 0 else { return false }
        #if canImport(Glibc)
        return Glibc.kill(pid, SIGKILL) == 0
        #else
        return Darwin.kill(pid, SIGKILL) == 0
        #endif
    }

    /// Waits for the child to end; its exit status, or nil when it was killed
    /// (or had already been reaped by ``kill()``'s check).
    @discardableResult
    public func wait() -> Int32? {
        guard let status = waitForStatus() else { return nil }
        // WIFEXITED / WEXITSTATUS, spelled out (the C macros are not imported).
        return status & 0x7f == 0 ? (status >> 8) & 0xff : nil
    }

    /// Waits for the child to end; its exit status, or 128 + the signal that
    /// ended it (as a shell reports it); nil when it had already been reaped.
    public func waitForTermination() -> Int32? {
        guard let status = waitForStatus() else { return nil }
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + status & 0x7f
    }

    private func waitForStatus() -> Int32? {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return nil }
        }
        return status
    }

    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29, macOS 10.15) and
    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34), looked up at
    /// run time: glibc declares them only under `_GNU_SOURCE`, which the
    /// Swift module of its headers is not built with.
    private static let addChdir = libcFunction(
        "posix_spawn_file_actions_addchdir_np", as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)
    private static let addCloseFrom = libcFunction(
        "posix_spawn_file_actions_addclosefrom_np", as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)

    private static func libcFunction<Function>(_ name: String, as type: Function.Type) -> Function? {
        #if canImport(Glibc)
        let scope = dlopen(nil, RTLD_NOW)
        #else
        let scope = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #endif
        return dlsym(scope, name).map { unsafeBitCast($0, to: type) }
    }

    /// `posix_spawn` failed with `code`.
    public struct SpawnError: Error {
        /// The error number.
        public let code: Int32
    }
}
