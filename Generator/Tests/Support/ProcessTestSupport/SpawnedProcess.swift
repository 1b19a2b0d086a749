import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn` and reaped with `waitpid` on
/// its own pid, for tests that SIGKILL children while other tests run
/// processes: Foundation's `Process` on Linux can miss the exit of a killed
/// child when several processes come and go at once, and then waits forever.
public struct SpawnedProcess {
    /// The child's pid.
    public let pid: pid_t

    /// Starts `executable` with `arguments`, its stdout appended to `output`
    /// and its stderr discarded.
    public init(_ executable: URL, arguments: [String], output: URL) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable.path, &actions, nil, argv, environ)
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
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return nil }
        }
        // WIFEXITED / WEXITSTATUS, spelled out (the C macros are not imported).
        return status & 0x7f == 0 ? (status >> 8) & 0xff : nil
    }

    /// `posix_spawn` failed with `code`.
    public struct SpawnError: Error {
        /// The error number.
        public let code: Int32
    }
}
